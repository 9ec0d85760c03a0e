// Small helpers shared by the unit tests: whole-file reads (plain and gzip)
// and one blocking bus access through any TLM initiator socket.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <unistd.h>

#include <systemc>
#include <tlm>
#include "build_paths.h"

namespace ai8x::test {

// The golden vectors of the MAX78000 (../shared/vectors).
inline const std::string kVectors = std::string(AI8XSIM_SHARED_DIR) + "/vectors";

// Firmware build cache of the tests: $AI8XSIM_FIRMWARE_CACHE when set (CI
// shares one cache between the release and sanitizer tests and the
// conformance runs, so each image is compiled once), else one beside the
// ai8xsim binary under test.
inline std::string firmware_cache() {
    if (const char* c = std::getenv("AI8XSIM_FIRMWARE_CACHE"); c && *c) return c;
    return std::string(AI8XSIM_BINARY) + ".fwcache";
}

// A folder of its own for one test process, removed with everything in it
// when the test ends; `tag` names the test file in the folder's name.
struct ScratchDir {
    std::filesystem::path path;
    explicit ScratchDir(const std::string& tag)
        : path(std::filesystem::temp_directory_path() / ("ai8xsim-" + tag + "-" + std::to_string(getpid()))) {
        std::filesystem::create_directories(path);
    }
    ~ScratchDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    void write(const std::string& name, const std::string& bytes) const {
        std::ofstream(path / name, std::ios::binary) << bytes;
    }
};

// True if `needle` occurs in `haystack`.
inline bool contains(const std::string& haystack, const std::string& needle) {
    return haystack.find(needle) != std::string::npos;
}

// An address or register value as the command line prints it: 0x and eight hex digits.
inline std::string hex_word(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%08llx", static_cast<unsigned long long>(v));
    return buf;
}

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
