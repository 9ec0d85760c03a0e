// The socket side of the GDB stub: listens on the loopback interface only,
// accepts one GDB, and exchanges framed packets (gdb_packet.h) with it.
// Everything blocks in the calling thread, which is the CPU's SystemC thread:
// while it waits for GDB, simulated time cannot advance.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <stdexcept>
#include <string>

#include "firmware/host/gdb_packet.h"

namespace ai8x::gdb {

// The port cannot be opened (in use, no permission); what() says which.
struct SocketError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Server {
public:
    // Listens on 127.0.0.1:`port`; port 0 lets the system pick a free one (see port()).
    explicit Server(uint16_t port);
    ~Server();
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    uint16_t port() const { return port_; }
    bool connected() const { return conn_ >= 0; }

    // Blocks until GDB connects; the listening socket is closed then (one session per run).
    void accept_connection();
    // Blocks for the next packet, acknowledged unless no-ack mode is on. Nothing
    // when GDB has gone away (the connection is closed then).
    std::optional<std::string> read_packet();
    void send_packet(const std::string& payload);
    // Without blocking: whether GDB sent the interrupt byte (Ctrl-C) since the last call.
    bool interrupt_requested();
    // After QStartNoAckMode: neither side sends '+' any more.
    void set_no_ack() { no_ack_ = true; }
    void close_connection();

private:
    // Reads what is available (waiting up to `timeout_ms`, -1 = forever) into
    // events_; false when the connection is gone.
    bool receive(int timeout_ms);
    void write_all(const std::string& bytes);

    int listen_ = -1;
    int conn_ = -1;
    uint16_t port_ = 0;
    bool no_ack_ = false;
    bool interrupt_ = false;
    std::string last_sent_;  // resent on '-'
    Decoder decoder_;
    std::deque<Decoder::Event> events_;
};

}  // namespace ai8x::gdb
