// `ai8xsim run` on folders of the vendor's RTL simulation (app/rtl_folder_kind.h):
// a --rtl folder passes with its CNN Cycles line equal to latency.txt; a
// preload folder's dumps pass its own verify-output.py; a corrupted expected
// dump or preload, a missing or malformed preload, a fail() call and
// run_test.sv's time-out each fail the run, saying what and where.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "app/run_session.h"
#include "testbench/unit/app/app_test_support.h"
#include "testbench/unit/test_support.h"
#include "build_paths.h"

namespace rtl_run_test {

using namespace ai8x;
using namespace ai8x::test;
namespace fs = std::filesystem;

const std::string kRtlVectors = std::string(AI8XSIM_SHARED_DIR) + "/vectors-rtl";
// MAX78000 --rtl: the program checks its own output; latency.txt's total is 736.
const std::string kArmFolder = "rtl-conv1d-1-0d84f0";
// MAX78002 --rtl-preload --result-output: data/ preloads, data-expected/ dumps.
const std::string kPreloadFolder = "rtl87-conv1d-pool-1-688e03";

RunOptions rtl_options(const std::string& dir) {
    RunOptions o;
    o.vector_dir = dir;
    o.build_dir = firmware_cache();
    o.quiet_console = true;
    return o;
}

// A writable copy of the shared folder `name` in `scratch` (../shared is read-only).
std::string copy_of(const std::string& name, const ScratchDir& scratch) {
    const fs::path to = scratch.path / name;
    fs::copy(fs::path(kRtlVectors) / name, to, fs::copy_options::recursive);
    for (const auto& e : fs::recursive_directory_iterator(to))
        fs::permissions(e.path(), fs::perms::owner_write, fs::perm_options::add);
    return to.string();
}

std::string text_of(const fs::path& path) {
    std::ifstream in(path);
    REQUIRE(in);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Replaces the first match of `pattern` in `path` by `with`; the file must have one.
void edit(const fs::path& path, const std::string& pattern, const std::string& with) {
    const std::string before = text_of(path);
    const std::string after =
        std::regex_replace(before, std::regex(pattern), with, std::regex_constants::format_first_only);
    REQUIRE(after != before);
    std::ofstream(path, std::ios::trunc) << after;
}

std::string all_messages(const RunResult& r) {
    std::string s;
    for (const std::string& m : r.messages) s += m + "\n";
    return s;
}

TEST_CASE("rtl run: a --rtl folder passes with CNN Cycles equal to latency.txt's total", "[rtl][run]") {
    std::FILE* out = std::tmpfile();
    REQUIRE(out);
    RunOptions o = rtl_options(kRtlVectors + "/" + kArmFolder);
    o.quiet_console = false;
    const RunResult r = run_in_process(o, {out, nullptr});
    std::rewind(out);
    std::string printed;
    for (int c; (c = std::fgetc(out)) != EOF;) printed += char(c);
    std::fclose(out);
    INFO(all_messages(r) << printed);
    REQUIRE(r.exit_code == kRunPass);
    CHECK(r.folder_kind == "rtl");
    const nlohmann::json& rtl = r.kind_fields.at("rtl");
    CHECK(rtl.at("category") == "rtl");
    CHECK(rtl.at("pass_reached") == true);
    CHECK(rtl.at("fail_calls").empty());
    CHECK(rtl.at("cnn_cycles") == 736);
    CHECK(rtl.at("latency_txt").at("total") == 736);
    CHECK(r.report.cnn_cycles == 736);
    // The testbench's lines, as run_test.sv $displays them.
    CHECK(contains(printed, "CNN enabled\n"));
    CHECK(contains(printed, "\nCNN Cycles = 736\n"));
    CHECK(contains(printed, "pass() reached on the arm core, called from main+"));
}

TEST_CASE("rtl run: a preload folder's dumps pass its own verify-output.py", "[rtl][run]") {
    ScratchDir scratch("rtl-run-out");
    RunOptions o = rtl_options(kRtlVectors + "/" + kPreloadFolder);
    o.out_dir = (scratch.path / "out").string();
    const RunResult r = run_in_process(o);
    INFO(all_messages(r));
    REQUIRE(r.exit_code == kRunPass);
    const nlohmann::json& rtl = r.kind_fields.at("rtl");
    CHECK(rtl.at("category") == "rtl87");
    CHECK(rtl.at("preload_files") == 1);
    CHECK(rtl.at("expected_files") == 9);
    CHECK(rtl.at("matched_words") == 90);
    CHECK(rtl.at("verify_output").at("exit_code") == 0);
    // The dumps under the testbench's names, beside a copy of data-expected/.
    for (const auto& e : fs::directory_iterator(fs::path(kRtlVectors) / kPreloadFolder / "data-expected")) {
        const std::string out_name =
            std::regex_replace(e.path().filename().string(), std::regex("^DRAM_"), "DRAM_out_");
        CHECK(fs::is_regular_file(scratch.path / "out" / "data-output" / out_name));
        CHECK(fs::is_regular_file(scratch.path / "out" / "data-expected" / e.path().filename()));
    }
    CHECK(contains(text_of(scratch.path / "out" / "run_test.log.fail"), "CNN Cycles = "));
}

TEST_CASE("rtl run: a corrupted expected dump fails, naming file, instance and word", "[rtl][run]") {
    ScratchDir scratch("rtl-run-expected");
    const std::string dir = copy_of(kPreloadFolder, scratch);
    edit(fs::path(dir) / "data-expected" / "DRAM_x16_0_proc_4_ram_0.dat", R"(@0801 [0-9a-f]{8})", "@0801 12345678");
    RunOptions o = rtl_options(dir);
    o.out_dir = (scratch.path / "out").string();
    const RunResult r = run_in_process(o);
    const std::string said = all_messages(r);
    INFO(said);
    CHECK(r.exit_code == kRunFail);
    CHECK(contains(said, "data-expected/DRAM_x16_0_proc_4_ram_0.dat: cnn.q0.p4.sram word 0x801"));
    CHECK(contains(said, "expected 12345678"));
    const nlohmann::json& m = r.kind_fields.at("rtl").at("mismatch");
    CHECK(m.at("word") == 0x801);
    CHECK(m.at("expected") == "12345678");
    CHECK_FALSE(m.at("instance").get<std::string>().empty());
    CHECK(m.at("mismatching_words") == 1);
    // The folder's own script sees the same, but exits 0: it resets its count of
    // mismatches before the cycle check, so only more than 10 fail it.
    const nlohmann::json& verify = r.kind_fields.at("rtl").at("verify_output");
    CHECK(contains(verify.at("output").get<std::string>(), "Data mismatch at address 0801"));
}

TEST_CASE("rtl run: a corrupted preload fails, naming the dump that differs", "[rtl][run]") {
    ScratchDir scratch("rtl-run-preload");
    const std::string dir = copy_of(kPreloadFolder, scratch);
    edit(fs::path(dir) / "data" / "DRAM_x16_0_proc_0_ram_0.dat", R"(@0001 [0-9a-f]{8})", "@0001 0000ffff");
    const RunResult r = run_in_process(rtl_options(dir));
    const std::string said = all_messages(r);
    INFO(said);
    CHECK(r.exit_code == kRunFail);
    // The first word that differs: the expected file, the memory instance, the
    // word and what data-expected/ holds there.
    const std::string expected_word =
        std::regex_replace(text_of(fs::path(dir) / "data-expected" / "DRAM_x16_0_proc_0_ram_0.dat"),
                           std::regex(R"([\s\S]*?@0800 ([0-9a-f]{8})[\s\S]*)"), "$1");
    REQUIRE(expected_word.size() == 8);
    CHECK(contains(said, "dump differs from data-expected/DRAM_x16_0_proc_0_ram_0.dat: cnn.q0.p0.sram word 0x800"));
    CHECK(contains(said, "expected " + expected_word + ", got "));
    const nlohmann::json& m = r.kind_fields.at("rtl").at("mismatch");
    CHECK(m.at("word") == 0x800);
    CHECK(m.at("expected") == expected_word);
    CHECK(m.at("mismatching_words") > 0);
}

TEST_CASE("rtl run: a missing preload stops the run, naming the file", "[rtl][run]") {
    ScratchDir scratch("rtl-run-missing");
    const std::string dir = copy_of(kPreloadFolder, scratch);
    fs::remove(fs::path(dir) / "data" / "DRAM_x16_0_proc_0_ram_0.dat");
    const RunResult r = run_in_process(rtl_options(dir));
    const std::string said = all_messages(r);
    INFO(said);
    CHECK(r.exit_code == kRunUsageError);
    CHECK(contains(said, "data/DRAM_x16_0_proc_0_ram_0.dat: missing"));
}

// A malformed line of a preload or of an expected dump (line 3 of each here;
// x and z are digits of $readmemh, g is not) stops the run, naming file and line.
TEST_CASE("rtl run: a malformed .dat line is named by file and line", "[rtl][run]") {
    const struct {
        std::string file, word, malformed;
    } cases[] = {{"data/DRAM_x16_0_proc_0_ram_0.dat", "0002", "0000g096"},
                 {"data-expected/DRAM_x16_0_proc_4_ram_0.dat", "0802", "12g45678"}};
    for (const auto& c : cases) {
        ScratchDir scratch("rtl-run-malformed");
        const std::string dir = copy_of(kPreloadFolder, scratch);
        edit(fs::path(dir) / c.file, "@" + c.word + " [0-9a-f]{8}", "@" + c.word + " " + c.malformed);
        const RunResult r = run_in_process(rtl_options(dir));
        const std::string said = all_messages(r);
        INFO(said);
        CHECK(r.exit_code == kRunUsageError);
        CHECK(contains(said, c.file + ":3: value '" + c.malformed + "' is not hexadecimal"));
    }
}

TEST_CASE("rtl run: fail() fails the run, naming where it was called", "[rtl][run]") {
    ScratchDir scratch("rtl-run-fail");
    const std::string dir = copy_of(kArmFolder, scratch);
    edit(fs::path(dir) / "test.c", R"(\n  pass\(\);)", "\n  fail();\n  pass();");
    const RunResult r = run_in_process(rtl_options(dir));
    const std::string said = all_messages(r);
    INFO(said);
    CHECK(r.exit_code == kRunFail);
    CHECK(contains(said, "fail() was called on the arm core from main+"));
    CHECK(r.kind_fields.at("rtl").at("fail_calls").size() == 1);
}

TEST_CASE("rtl run: run_test.sv's time-out ends a run that never reaches pass()", "[rtl][run]") {
    ScratchDir scratch("rtl-run-timeout");
    const std::string dir = copy_of(kArmFolder, scratch);
    // 0.001 x 10 ms: the program cannot get past its set-up in 10 us.
    edit(fs::path(dir) / "run_test.sv", R"(REPEAT_TIMEOUT = [0-9.]+)", "REPEAT_TIMEOUT = 0.001");
    const RunResult r = run_in_process(rtl_options(dir));
    const std::string said = all_messages(r);
    INFO(said);
    CHECK(r.exit_code != kRunPass);
    CHECK(r.exit_code != kRunUsageError);
    CHECK(contains(said, "0.01"));
    CHECK(r.kind_fields.at("rtl").at("pass_reached") == false);
}

// MAX78000 --rtl-preload --fifo --result-output: the program pushes the input
// into FIFO 0 after the start; verify-output.py requires CNN Cycles to equal
// latency.txt's total (5410).
const std::string kFifoFolder = "rtlp-fifo-hwc-nonsquare-59446c";

TEST_CASE("rtl run: a FIFO-fed inference counts its cycles from the complete frame", "[rtl][run][fifo]") {
    ScratchDir scratch("rtl-run-fifo");
    RunOptions o = rtl_options(kRtlVectors + "/" + kFifoFolder);
    o.out_dir = (scratch.path / "out").string();
    const RunResult r = run_in_process(o);
    INFO(all_messages(r));
    REQUIRE(r.exit_code == kRunPass);
    const nlohmann::json& rtl = r.kind_fields.at("rtl");
    CHECK(rtl.at("cnn_cycles") == 5410);
    CHECK(rtl.at("verify_output").at("exit_code") == 0);
    // The accelerator was busy longer: it waited for the program to fill the FIFO first.
    const uint64_t wait = rtl.at("fifo_frame_wait_cycles").get<uint64_t>();
    CHECK(wait > 0);
    CHECK(r.report.cnn_cycles == 5410 + wait);
}

TEST_CASE("rtl run: a slower FIFO loader lengthens the wait, not CNN Cycles", "[rtl][run][fifo]") {
    ScratchDir scratch("rtl-run-fifo-slow");
    const std::string dir = copy_of(kFifoFolder, scratch);
    // A delay loop before each push: the frame takes longer to arrive.
    edit(fs::path(dir) / "test.c", R"(\n(\s*)\*\(\(volatile uint32_t \*\) 0x50000008\) = \*in0\+\+;)",
         "\n$1for (volatile int d = 0; d < 20; ++d) {}\n$1*((volatile uint32_t *) 0x50000008) = *in0++;");
    const RunResult fast = run_in_process(rtl_options(kRtlVectors + "/" + kFifoFolder));
    const RunResult slow = run_in_process(rtl_options(dir));
    INFO(all_messages(slow));
    REQUIRE(fast.exit_code == kRunPass);
    REQUIRE(slow.exit_code == kRunPass);
    CHECK(slow.kind_fields.at("rtl").at("cnn_cycles") == 5410);
    CHECK(slow.kind_fields.at("rtl").at("fifo_frame_wait_cycles").get<uint64_t>() >
          fast.kind_fields.at("rtl").at("fifo_frame_wait_cycles").get<uint64_t>() + 187 * 20);
}

// MAX78002 --rtl-preload --fifo --result-output, streaming: layer 0 is a
// broadcast depth-wise convolution on processors 0x000f000f000f000f, whose
// outputs stay in each quadrant's own memory (positions 0-3, 16-19, 32-35,
// 48-51), where layer 1 reads them.
const std::string kSpreadDepthwiseFolder = "rtl87p-fifostream-depthwise-quantpool-3a9795";

TEST_CASE("rtl run: a depth-wise layer spread over the quadrants keeps each output in its quadrant",
          "[rtl][run][fifo]") {
    const RunResult r = run_in_process(rtl_options(kRtlVectors + "/" + kSpreadDepthwiseFolder));
    const std::string said = all_messages(r);
    INFO(said);
    CHECK(r.exit_code == kRunPass);
    const nlohmann::json& rtl = r.kind_fields.at("rtl");
    CHECK(rtl.at("expected_files") == 14);
    CHECK(rtl.at("matched_words") == 2240);
    CHECK_FALSE(rtl.contains("mismatch"));
    // Layer 1 subsamples (1x1 pooling, stride 2) its producer's 14 rows and
    // counts 13, up to the last row it reads: no mismatch of the stream plan.
    for (const auto& w : r.report.warnings) CHECK_FALSE(contains(w.message, "differs from the producer's output"));
}

// MAX78000 --rtl --mlator --mlator-noverify: check_output() reads the output
// through the memory translator only.
const std::string kMlatorFolder = "rtl-mlator-589b91";

TEST_CASE("rtl run: check_output() reads the output through the mlator", "[rtl][run][mlator]") {
    const RunResult r = run_in_process(rtl_options(kRtlVectors + "/" + kMlatorFolder));
    INFO(all_messages(r));
    CHECK(r.exit_code == kRunPass);
    CHECK(r.kind_fields.at("rtl").at("pass_reached") == true);
    CHECK(r.kind_fields.at("rtl").at("fail_calls").empty());
}

TEST_CASE("rtl run: the mlator's byte select decides what check_output() sees", "[rtl][run][mlator]") {
    ScratchDir scratch("rtl-run-mlator");
    const std::string dir = copy_of(kMlatorFolder, scratch);
    // Channel 0's checks read byte 1 (channel 1) instead: the expected values no longer match.
    edit(fs::path(dir) / "test.c", R"(0x00010008; // Enable mlator, byte 0)", "0x00030008; // Enable mlator, byte 0");
    const RunResult r = run_in_process(rtl_options(dir));
    const std::string said = all_messages(r);
    INFO(said);
    CHECK(r.exit_code == kRunFail);
    CHECK(contains(said, "fail() was called on the arm core from main+"));
}

}  // namespace rtl_run_test
