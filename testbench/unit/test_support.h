// Small helpers shared by the unit tests: whole-file reads (plain and gzip)
// and one blocking bus access through any TLM initiator socket.
#pragma once

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <systemc>
#include <tlm>

namespace ai8x::test {

// The whole content of a file ("" if it cannot be read).
inline std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The decompressed content of a .gz file (the generator's log.txt.gz), via the
// system's gzip; throws naming the file if it cannot be read.
inline std::string read_gzip(const std::filesystem::path& file) {
    if (!std::filesystem::exists(file)) throw std::runtime_error(file.string() + " does not exist");
    const std::string cmd = "gzip -dc '" + file.string() + "'";
    FILE* pipe = popen(cmd.c_str(), "r");
    if (!pipe) throw std::runtime_error("cannot run gzip for " + file.string());
    std::string text;
    char buf[1 << 16];
    std::size_t n;
    while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) text.append(buf, n);
    if (pclose(pipe) != 0) throw std::runtime_error("gzip failed on " + file.string());
    return text;
}

// One `len`-byte access (1, 2 or 4) at `addr`. Writes send the low bytes of
// `data`; reads return the value zero-extended in `data`. The annotated delay
// goes to `delay_out` when given.
template <typename Socket>
tlm::tlm_response_status blocking_access(Socket& socket, tlm::tlm_command cmd, uint64_t addr, uint32_t& data,
                                         unsigned len, sc_core::sc_time* delay_out = nullptr) {
    tlm::tlm_generic_payload t;
    uint8_t buf[4] = {};
    for (unsigned i = 0; i < len && i < 4; ++i) buf[i] = uint8_t(data >> (8 * i));
    t.set_command(cmd);
    t.set_address(addr);
    t.set_data_ptr(buf);
    t.set_data_length(len);
    t.set_streaming_width(len);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(t, delay);
    if (cmd == tlm::TLM_READ_COMMAND) {
        data = 0;
        for (unsigned i = 0; i < len && i < 4; ++i) data |= uint32_t(buf[i]) << (8 * i);
    }
    if (delay_out) *delay_out = delay;
    return t.get_response_status();
}

}  // namespace ai8x::test
