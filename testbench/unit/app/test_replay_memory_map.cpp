// Replay over the whole accelerator memory map: a trace generated from the
// device description writes and reads back the first and the last word of
// every instance of every memory block, through the real `ai8xsim replay`.
// A trace that touches an unmapped address must fail and name the address.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "testbench/unit/test_support.h"
#include "tlm/device_config.h"
#include "build_paths.h"

namespace fs = std::filesystem;

namespace {

using ai8x::test::hex_word;

struct Replay {
    int exit_code = -1;
    std::string err;
};

Replay replay(const std::string& trace_text, const std::string& tag) {
    const fs::path dir = fs::temp_directory_path() / ("ai8xsim-memmap-" + tag + "-" + std::to_string(getpid()));
    fs::create_directories(dir);
    const fs::path trace = dir / "map.trace";
    std::ofstream(trace) << trace_text;
    const std::string cmd = std::string("'") + AI8XSIM_BINARY + "' replay '" + trace.string() + "' >/dev/null 2>'" +
                            (dir / "err").string() + "'";
    const int status = std::system(cmd.c_str());
    Replay r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::ifstream in(dir / "err");
    std::stringstream s;
    s << in.rdbuf();
    r.err = s.str();
    fs::remove_all(dir);
    return r;
}

// A value that differs per address and fits in `bits`.
uint32_t pattern(uint64_t address, unsigned bits) {
    const uint32_t v = static_cast<uint32_t>(address * 2654435761u) ^ 0xa5c3u;
    return bits >= 32 ? v : (v & ((1u << bits) - 1));
}

// Write/read-back lines for word `w` of instance `i` of quadrant `q` of `g`.
void word_round_trip(std::ostream& t, const ai8x::ArrayGeometry& g, uint32_t q, uint32_t i, uint32_t w) {
    const uint64_t a = g.base + q * g.quadrant_stride + i * g.instance_stride + uint64_t(w) * g.slot_bytes;
    if (g.word_bits <= 32) {
        const uint32_t v = pattern(a, g.word_bits);
        t << "write32 " << hex_word(a) << ' ' << hex_word(v) << "\nread32 " << hex_word(a) << ' ' << hex_word(v)
          << '\n';
        return;
    }
    // 72-bit kernel word, four-write protocol: byte 0 at +0, bytes 1-4 at +4,
    // bytes 5-8 at +8, and the write to +12 commits the word.
    const uint32_t k0 = pattern(a, 8), k1 = pattern(a + 4, 32), k2 = pattern(a + 8, 32);
    t << "write32 " << hex_word(a) << ' ' << hex_word(k0) << "\nwrite32 " << hex_word(a + 4) << ' ' << hex_word(k1)
      << "\nwrite32 " << hex_word(a + 8) << ' ' << hex_word(k2) << "\nwrite32 " << hex_word(a + 12) << " 0x0\n";
    t << "read32 " << hex_word(a) << ' ' << hex_word(k0) << "\nread32 " << hex_word(a + 4) << ' ' << hex_word(k1)
      << "\nread32 " << hex_word(a + 8) << ' ' << hex_word(k2) << '\n';
}

}  // namespace

TEST_CASE("replay: first and last word of every memory instance of every block", "[replay][memory-map]") {
    const ai8x::DeviceConfig cfg = ai8x::load_device_config(ai8x::default_device_config_path());
    std::ostringstream t;
    std::size_t instances = 0;
    for (const ai8x::ArrayGeometry* g : {&cfg.data_sram, &cfg.tram, &cfg.kernel_mem, &cfg.bias_mem}) {
        for (uint32_t q = 0; q < cfg.quadrants; ++q)
            for (uint32_t i = 0; i < g->instances_per_quadrant; ++i) {
                t << "# instance " << i << " of quadrant " << q << " at " << hex_word(g->base + q * g->quadrant_stride)
                  << '\n';
                word_round_trip(t, *g, q, i, 0);
                word_round_trip(t, *g, q, i, g->words - 1);
                ++instances;
            }
    }
    // 16 data SRAM + 64 TRAM + 64 kernel + 4 bias instances on MAX78000.
    CHECK(instances == cfg.data_sram.instances_total(cfg.quadrants) + cfg.tram.instances_total(cfg.quadrants) +
                           cfg.kernel_mem.instances_total(cfg.quadrants) + cfg.bias_mem.instances_total(cfg.quadrants));
    const Replay r = replay(t.str(), "all");
    INFO(r.err);
    CHECK(r.exit_code == 0);
}

TEST_CASE("replay: an unmapped address fails and names the address", "[replay][memory-map]") {
    const ai8x::DeviceConfig cfg = ai8x::load_device_config(ai8x::default_device_config_path());
    // The word right after the last data memory instance of quadrant 0 lies in
    // the gap before quadrant 1's block.
    const ai8x::ArrayGeometry& d = cfg.data_sram;
    const uint64_t gap = d.base + d.instances_per_quadrant * d.instance_stride;
    REQUIRE(gap < d.base + d.quadrant_stride);
    const Replay r = replay("write32 " + hex_word(gap) + " 0x1\n", "gap");
    INFO(r.err);
    CHECK(r.exit_code != 0);
    CHECK(r.err.find(hex_word(gap).substr(2)) != std::string::npos);
}
