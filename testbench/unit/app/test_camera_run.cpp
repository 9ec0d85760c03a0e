// Runs fed by the camera interface (docs/camera.md): an RTL camera folder
// passes with every word of its input.csv read and none lost, its stream
// started by the program's sim->trig; an embedded-C camera folder builds
// against our pcif_defines_af2.h and passes from its log's sample input; a
// waveform shorter than the picture ends at run_test.sv's time-out with the
// camera's stall named.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "app/run_session.h"
#include "testbench/unit/app/app_test_support.h"
#include "testbench/unit/test_support.h"
#include "build_paths.h"

namespace camera_run_test {

using namespace ai8x;
using namespace ai8x::test;
namespace fs = std::filesystem;

const fs::path kShared = AI8XSIM_SHARED_DIR;
// MAX78000 --rtl --riscv --fast-fifo --input-csv --input-fifo: a 3x8x32 HWC
// picture (256 words, 888) at a row every 80 ns; the RISC-V core reads the
// camera and fills the fast FIFO.
const std::string kRtlCamera = "rtl-riscv-csv-fastfifostream-32-hwc-3bc639";
constexpr int kRtlCameraWords = 8 * 32;

RunOptions quiet_run(const fs::path& dir) {
    RunOptions o;
    o.vector_dir = dir.string();
    o.build_dir = firmware_cache();
    o.quiet_console = true;
    return o;
}

std::string all_messages(const RunResult& r) {
    std::string s;
    for (const std::string& m : r.messages) s += m + "\n";
    return s;
}

// A writable copy of vectors-rtl/`name` in `scratch`.
fs::path copy_of(const std::string& name, const ScratchDir& scratch) {
    const fs::path to = scratch.path / name;
    fs::copy(kShared / "vectors-rtl" / name, to, fs::copy_options::recursive);
    for (const auto& e : fs::recursive_directory_iterator(to))
        fs::permissions(e.path(), fs::perms::owner_write, fs::perm_options::add);
    return to;
}

// Keeps the header and the first `rows` rows of a waveform file.
void keep_rows(const fs::path& csv, std::size_t rows) {
    std::ifstream in(csv);
    REQUIRE(in);
    std::ostringstream kept;
    std::string line;
    for (std::size_t n = 0; n <= rows && std::getline(in, line); ++n) kept << line << '\n';
    in.close();
    std::ofstream(csv, std::ios::trunc) << kept.str();
}

TEST_CASE("camera run: an RTL camera folder passes, its stream started by sim->trig", "[camera][rtl][run]") {
    const RunResult r = run_in_process(quiet_run(kShared / "vectors-rtl" / kRtlCamera));
    INFO(all_messages(r));
    REQUIRE(r.exit_code == kRunPass);
    CHECK(r.kind_fields.at("rtl").at("pass_reached") == true);
    const nlohmann::json& cam = r.kind_fields.at("camera");
    CHECK(cam.at("started") == true);
    // Started at the trigger, in load_input(): the camera FIFO never overflowed
    // while the program was loading weights (a stream started at the capture
    // enable, before, loses all but the FIFO's depth).
    CHECK(cam.at("words_captured") == kRtlCameraWords);
    CHECK(cam.at("words_read") == kRtlCameraWords);
    CHECK(cam.at("words_lost") == 0);
}

TEST_CASE("camera run: an embedded-C camera folder builds against our pcif headers and passes",
          "[camera][run][max78002]") {
    // --riscv --fast-fifo --input-csv: cnn.c and main_riscv.c both include
    // pcif.c; no input.csv, so the log's sample input feeds the camera.
    const fs::path dir = kShared / "vectors-max78002-options" / "e87-riscv-csv-fastfifo-hwc-nonsquare-73274e";
    const RunResult r = run_in_process(quiet_run(dir));
    INFO(all_messages(r));
    REQUIRE(r.exit_code == kRunPass);
    const nlohmann::json& cam = r.kind_fields.at("camera");
    CHECK(cam.at("started") == true);
    CHECK(cam.at("words_lost") == 0);
    CHECK(cam.at("words_read") == cam.at("words_captured"));
}

TEST_CASE("camera run: with REG_CTL.FIFOGRP clear each camera byte reaches its own quadrant",
          "[camera][run][max78002]") {
    // --riscv --fast-fifo with HWC input on processors 0, 16, 32: the generator
    // clears FIFOGRP, and the fast FIFO sends byte b of each 0x00BBGGRR camera
    // word to processor 16 b. It pushes words without a room check at its own
    // pace (180 ns a row), which the network keeps up with only because each
    // output pixel is written as it is computed (model/timing/scan_cost.cpp):
    // with a row's writes at its end it lost words and timed out.
    const RunResult r = run_in_process(
        quiet_run(kShared / "vectors-max78002-options" / "e87-riscv-csv-fastfifostream-group-notvga-hwc-2443fa"));
    INFO(all_messages(r));
    CHECK(r.exit_code == kRunPass);
    CHECK(r.kind_fields.at("camera").at("words_lost") == 0);
}

TEST_CASE("camera run: a waveform shorter than the picture ends at run_test.sv's time-out, naming the stall",
          "[camera][rtl][run]") {
    ScratchDir scratch("camera-run-short");
    const fs::path dir = copy_of(kRtlCamera, scratch);
    // The header, the VSYNC pulse and about half of the picture's rows.
    keep_rows(dir / "input.csv", 2500);
    const RunResult r = run_in_process(quiet_run(dir));
    const std::string said = all_messages(r);
    INFO(said);
    CHECK(r.exit_code == kRunSimError);
    CHECK(r.kind_fields.at("rtl").at("pass_reached") == false);
    CHECK(contains(said, "no verdict within 15"));  // run_test.sv: REPEAT_TIMEOUT = 1.5 (x 10 ms)
    CHECK(contains(said, "the camera waveform " + (dir / "input.csv").string() + " ended (2500 rows"));
    const nlohmann::json& cam = r.kind_fields.at("camera");
    CHECK(cam.at("finished") == true);
    CHECK(cam.at("words_captured").get<int>() < kRtlCameraWords);
    CHECK(contains(said, "after " + std::to_string(cam.at("words_captured").get<int>()) + " words"));
}

}  // namespace camera_run_test
