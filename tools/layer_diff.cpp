// ai8xsim-layer-diff OUTDIR DIR: compares the layer dumps that
// `ai8xsim run DIR --dump-layers OUTDIR` wrote with the per-layer outputs the
// generator printed in DIR/log.txt.gz, and names the first differing value.
// Exit status: 0 all compared layers match, 1 a mismatch, 2 bad input.
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>

#include "testbench/reference/generator_log.h"
#include "app/layer_dump.h"
#include "tools/layer_fold.h"

namespace fs = std::filesystem;

namespace {

constexpr int kMatch = 0, kMismatch = 1, kBadInput = 2;

// The logs are gzip files; gzip itself is the simplest correct decoder.
bool read_gzip(const fs::path& path, std::string& text) {
    const std::string cmd = "gzip -dc '" + path.string() + "'";
    FILE* pipe = popen(cmd.c_str(), "r");
    if (!pipe) return false;
    char buf[65536];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) text.append(buf, n);
    return pclose(pipe) == 0;
}

}  // namespace

// The tool links the simulator library (for the dump reader and the log
// parser), which pulls in libsystemc; that library references sc_main even
// though this program never starts a simulation.
extern "C" int sc_main(int, char**) { return 2; }

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: ai8xsim-layer-diff OUTDIR VECTOR_DIR\n");
        return kBadInput;
    }
    const fs::path outdir = argv[1];
    const fs::path log_path = fs::path(argv[2]) / "log.txt.gz";
    if (!fs::is_directory(outdir)) {
        std::fprintf(stderr, "ai8xsim-layer-diff: %s: not a directory\n", outdir.c_str());
        return kBadInput;
    }
    std::string text;
    if (!fs::is_regular_file(log_path) || !read_gzip(log_path, text)) {
        std::fprintf(stderr, "ai8xsim-layer-diff: %s: cannot read (gzip -dc failed)\n", log_path.c_str());
        return kBadInput;
    }
    ai8x::reference::GeneratorLog log;
    try {
        std::istringstream in(text);
        log = ai8x::reference::parse_generator_log(in, log_path.string());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "ai8xsim-layer-diff: %s\n", e.what());
        return kBadInput;
    }

    int compared = 0;
    for (const auto& c : log.layers) {
        const fs::path dump_path = outdir / ("layer_" + std::to_string(c.layer) + ".txt");
        if (!fs::exists(dump_path)) {
            std::printf("layer %d: no dump\n", c.layer);
            continue;
        }
        ai8x::LayerOutput got;
        try {
            got = ai8x::read_layer_dump(dump_path.string());
        } catch (const std::exception& e) {
            std::fprintf(stderr, "ai8xsim-layer-diff: %s\n", e.what());
            return kBadInput;
        }
        const auto& want = c.expected;
        // The engine writes every channel position of every output pass; the
        // log prints only the network's channels, so extra dumped channels are
        // ignored. Layers the generator programs folded are unfolded first.
        const ai8x::AlignedDump aligned = ai8x::align_dump(got, want);
        if (!aligned.shape_ok) {
            std::printf("layer %d: MISMATCH shape: expected %s, dump has %ux%ux%u\n", c.layer,
                        want.shape_string().c_str(), got.channels, got.rows, got.cols);
            return kMismatch;
        }
        if (!aligned.layout.empty()) std::printf("layer %d: comparing %s\n", c.layer, aligned.layout.c_str());
        ++compared;
        for (int ch = 0; ch < want.channels; ++ch)
            for (int r = 0; r < want.height; ++r)
                for (int x = 0; x < want.width; ++x) {
                    const int64_t e = want.at(ch, r, x);
                    const int64_t a = aligned.values.at(ch, r, x);
                    if (e != a) {
                        std::printf("layer %d: MISMATCH at channel %d row %d column %d: expected %lld, actual %lld\n",
                                    c.layer, ch, r, x, static_cast<long long>(e), static_cast<long long>(a));
                        return kMismatch;
                    }
                }
        std::printf("layer %d: OK (%s)\n", c.layer, want.shape_string().c_str());
    }
    for (const auto& s : log.skipped) std::printf("log %s (not compared)\n", s.c_str());
    if (compared == 0) {
        std::fprintf(stderr, "ai8xsim-layer-diff: no layer of %s has a dump in %s\n", log_path.c_str(), outdir.c_str());
        return kBadInput;
    }
    return kMatch;
}
