// The ai8xsim command line, exercised through the built executable: exit codes
// and messages for good and bad arguments, and replay verdicts.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tlm/device_config.h"

namespace fs = std::filesystem;

#include "testbench/unit/test_support.h"
#include "build_paths.h"

namespace {

struct CliOutcome {
    int exit_code = -1;
    std::string out, err;
};

struct CliScratch {
    fs::path dir;
    explicit CliScratch(const std::string& purpose = "files")
        : dir(fs::temp_directory_path() / ("ai8xsim-cli-" + purpose + "-" + std::to_string(getpid()))) {
        fs::create_directories(dir);
    }
    ~CliScratch() { fs::remove_all(dir); }
    std::string file(const std::string& name, const std::string& text) const {
        std::ofstream(dir / name) << text;
        return (dir / name).string();
    }
};

using ai8x::test::contains;
using ai8x::test::hex_word;
using ai8x::test::slurp;

// Runs `ai8xsim ARGS` (ARGS already shell-quoted where needed).
CliOutcome run_cli(const std::string& args) {
    CliScratch s("output");
    const std::string cmd = std::string("'") + AI8XSIM_BINARY + "' " + args + " >'" + (s.dir / "out").string() +
                            "' 2>'" + (s.dir / "err").string() + "'";
    const int status = std::system(cmd.c_str());
    CliOutcome o;
    o.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    o.out = slurp(s.dir / "out");
    o.err = slurp(s.dir / "err");
    return o;
}

}  // namespace

TEST_CASE("cli: --version and --help succeed", "[cli]") {
    const CliOutcome v = run_cli("--version");
    CHECK(v.exit_code == 0);
    CHECK(contains(v.out, AI8XSIM_VERSION));
    const CliOutcome h = run_cli("--help");
    CHECK(h.exit_code == 0);
    CHECK(contains(h.out, "run"));
    CHECK(contains(h.out, "replay"));
    CHECK(contains(h.out, "--log-level"));
    const CliOutcome rh = run_cli("run --help");
    CHECK(rh.exit_code == 0);
    for (const char* opt : {"--build-dir", "--config", "--json", "--trace-out", "--dump-layers", "--timeout", "--set",
                            "--quiet", "--threads"}) {
        INFO(opt);
        CHECK(contains(rh.out, opt));
    }
}

TEST_CASE("cli: unknown options and subcommands exit 2 with a message", "[cli]") {
    for (const char* args : {"--frobnicate", "run --frobnicate", "replay x.trace --frobnicate", "fly", "-v loud"}) {
        INFO(args);
        const CliOutcome o = run_cli(args);
        CHECK(o.exit_code == 2);
        CHECK_FALSE(o.err.empty());
    }
    CHECK(contains(run_cli("--frobnicate").err, "--frobnicate"));
}

TEST_CASE("cli: bad run arguments exit 2 before anything runs", "[cli]") {
    struct Case {
        const char* args;
        const char* message;
    };
    const Case cases[] = {
        {"run --timeout abc", "--timeout"},
        {"run --timeout -5", "--timeout"},
        {"run --set 0x50100000", "expected ADDR=VALUE"},
        {"run --set 0x50100000=0x100000000", "got '0x50100000=0x100000000'"},
        {"run --set zz=1", "got 'zz=1'"},
        {"run /nonexistent-vector-dir", "/nonexistent-vector-dir"},
        {"run --config /nonexistent.yaml", "/nonexistent.yaml"},
        {"run --threads 0", "--threads"},
        {"run --threads two", "--threads"},
        {"run --threads 65", "--threads"},
    };
    for (const auto& c : cases) {
        INFO(c.args);
        const CliOutcome o = run_cli(c.args);
        CHECK(o.exit_code == 2);
        CHECK(contains(o.err, c.message));
    }
}

TEST_CASE("cli: replay rejects missing and malformed traces with exit 2", "[cli][replay]") {
    CliScratch s;
    CHECK(run_cli("replay").exit_code == 2);
    const CliOutcome missing = run_cli("replay " + (s.dir / "none.trace").string());
    CHECK(missing.exit_code == 2);
    CHECK(contains(missing.err, "none.trace: cannot open trace file"));
    const std::string bad = s.file("bad.trace", "# fine\nwrite32 0x50400000\n");
    const CliOutcome o = run_cli("replay " + bad);
    CHECK(o.exit_code == 2);
    CHECK(contains(o.err, bad + ":2: expected write32 ADDR VALUE, got 1 argument"));
    const std::string good = s.file("good.trace", "write32 0x50400000 1\n");
    const CliOutcome badcfg = run_cli("replay " + good + " --config " + s.file("cfg.yaml", "name: [unclosed\n"));
    CHECK(badcfg.exit_code == 2);
    CHECK(contains(badcfg.err, "cfg.yaml"));
}

TEST_CASE("cli: replay on the virtual board passes and fails like its checks", "[cli][replay]") {
    const ai8x::DeviceConfig cfg = ai8x::load_device_config(ai8x::default_device_config_path());
    // Two words of data memory in quadrant 0 and the first word of quadrant 1.
    const uint64_t a = cfg.data_sram.base;
    const uint64_t b = a + cfg.data_sram.slot_bytes;
    const uint64_t c = cfg.data_sram.base + cfg.data_sram.quadrant_stride;
    CliScratch s;
    const std::string pass = s.file("pass.trace", "write32 " + hex_word(a) +
                                                      " 0x12345678\n"
                                                      "write32 " +
                                                      hex_word(b) +
                                                      " 0x9abcdef0\n"
                                                      "write32 " +
                                                      hex_word(c) +
                                                      " 0x0badcafe\n"
                                                      "read32  " +
                                                      hex_word(a) +
                                                      " 0x12345678\n"
                                                      "read32  " +
                                                      hex_word(b) +
                                                      " 0x9abcdef0\n"
                                                      "read32  " +
                                                      hex_word(c) + " 0x0badcafe\n");
    const CliOutcome ok = run_cli("replay " + pass);
    INFO(ok.err);
    CHECK(ok.exit_code == 0);

    const std::string fail = s.file("fail.trace", "write32 " + hex_word(a) +
                                                      " 0x12345678\n"
                                                      "read32  " +
                                                      hex_word(a) + " 0x12345679\n");
    const CliOutcome bad = run_cli("replay " + fail);
    CHECK(bad.exit_code == 1);
    CHECK(contains(bad.err,
                   fail + ":2: read32 at " + hex_word(a) + ": expected 0x12345679 (mask 0xffffffff), got 0x12345678"));
}
