#include "firmware/host/gdb_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace ai8x::gdb {

Server::Server(uint16_t port) {
    listen_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (listen_ < 0) throw SocketError(std::string("cannot create a socket: ") + std::strerror(errno));
    const int one = 1;
    // A port left in TIME_WAIT by the previous session may be reused at once.
    ::setsockopt(listen_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);  // never reachable from another machine
    addr.sin_port = htons(port);
    if (::bind(listen_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) < 0 || ::listen(listen_, 1) < 0) {
        const std::string why = std::strerror(errno);
        ::close(listen_);
        throw SocketError("cannot listen on 127.0.0.1:" + std::to_string(port) + ": " + why);
    }
    socklen_t len = sizeof addr;
    ::getsockname(listen_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
}

Server::~Server() {
    close_connection();
    if (listen_ >= 0) ::close(listen_);
}

void Server::accept_connection() {
    while (conn_ < 0) {
        conn_ = ::accept4(listen_, nullptr, nullptr, SOCK_CLOEXEC);
        if (conn_ < 0 && errno != EINTR) throw SocketError(std::string("accepting GDB: ") + std::strerror(errno));
    }
    ::close(listen_);
    listen_ = -1;
    const int one = 1;
    // Packets are small and answered one by one: do not let Nagle hold them back.
    ::setsockopt(conn_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

void Server::close_connection() {
    if (conn_ >= 0) ::close(conn_);
    conn_ = -1;
    events_.clear();
}

bool Server::receive(int timeout_ms) {
    if (conn_ < 0) return false;
    pollfd p{conn_, POLLIN, 0};
    int ready;
    do ready = ::poll(&p, 1, timeout_ms);
    while (ready < 0 && errno == EINTR);
    if (ready <= 0) return ready == 0;
    char buf[4096];
    ssize_t n;
    do n = ::recv(conn_, buf, sizeof buf, 0);
    while (n < 0 && errno == EINTR);
    if (n <= 0) {
        close_connection();
        return false;
    }
    std::vector<Decoder::Event> got;
    decoder_.feed(buf, size_t(n), got);
    for (auto& e : got) events_.push_back(std::move(e));
    return true;
}

std::optional<std::string> Server::read_packet() {
    for (;;) {
        while (!events_.empty()) {
            Decoder::Event e = std::move(events_.front());
            events_.pop_front();
            switch (e.kind) {
                case Decoder::Event::kPacket:
                    if (!no_ack_) write_all("+");
                    return std::move(e.payload);
                case Decoder::Event::kBadChecksum:
                    if (!no_ack_) write_all("-");  // GDB sends it again
                    break;
                case Decoder::Event::kNack:
                    if (!last_sent_.empty()) write_all(last_sent_);
                    break;
                case Decoder::Event::kInterrupt:  // already stopped: nothing to interrupt
                case Decoder::Event::kAck: break;
            }
        }
        if (!receive(-1)) return std::nullopt;
    }
}

void Server::send_packet(const std::string& payload) {
    last_sent_ = frame(payload);
    write_all(last_sent_);
}

bool Server::interrupt_requested() {
    if (conn_ >= 0) receive(0);
    // Only the interrupt byte matters while the target runs (all-stop mode);
    // packets that arrive meanwhile stay queued for read_packet().
    for (auto it = events_.begin(); it != events_.end();) {
        if (it->kind == Decoder::Event::kInterrupt) {
            interrupt_ = true;
            it = events_.erase(it);
        } else {
            ++it;
        }
    }
    const bool requested = interrupt_;
    interrupt_ = false;
    return requested;
}

void Server::write_all(const std::string& bytes) {
    size_t done = 0;
    while (conn_ >= 0 && done < bytes.size()) {
        const ssize_t n = ::send(conn_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            close_connection();  // GDB went away; read_packet() reports it
            return;
        }
        done += size_t(n);
    }
}

}  // namespace ai8x::gdb
