// Where a run's camera waveform comes from: the generator's command line and
// input comment, the sample input its log prints, and the waveform derived
// from it, which must be the generator's own input.csv row for row.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

#include "app/camera_folder.h"
#include "testbench/unit/test_support.h"

using namespace ai8x;
namespace fs = std::filesystem;

namespace {

const fs::path kRtlVectors = fs::path(AI8XSIM_SHARED_DIR) / "vectors-rtl";
const fs::path kE87Camera = fs::path(AI8XSIM_SHARED_DIR) / "vectors-max78002-options/e87-csv-fifostream-hd8-hwc-8208b3";

std::vector<fs::path> rtl_camera_folders() {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(kRtlVectors))
        if (fs::is_regular_file(e.path() / "input.csv")) out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

std::string csv_text(const CameraWaveform& w) {
    std::ostringstream out;
    write_camera_csv(out, w);
    return out.str();
}

}  // namespace

TEST_CASE("The generator's camera options are read from its command line", "[camera]") {
    const GeneratorCameraArgs a = parse_generator_camera_args(
        "ai8xize.py --rtl --fifo --input-csv input.csv --input-fifo --input-csv-period 160 --input-csv-format 565");
    CHECK(a.csv_name == "input.csv");
    CHECK(a.format == 565);
    CHECK(a.period_ns == 160);
    CHECK(a.retrace == 5);
    CHECK_FALSE(a.sync);
    const GeneratorCameraArgs s = parse_generator_camera_args(
        "ai8xize.py --input-csv=cam.csv --input-sync --input-pix-clk 11 --input-csv-retrace 7");
    CHECK(s.csv_name == "cam.csv");
    CHECK(s.sync);
    CHECK(s.pix_clk == 11);
    CHECK(s.retrace == 7);
    CHECK(s.period_ns == 80);  // the generator's default
    CHECK(parse_generator_camera_args("ai8xize.py --fifo").csv_name.empty());
}

TEST_CASE("load_input's comment gives the camera input's layout and shape", "[camera]") {
    const auto hwc = parse_data_input_comment("x\n// Data input: HWC 3x8x1920\n");
    REQUIRE(hwc);
    CHECK_FALSE(hwc->chw);
    CHECK(hwc->shape() == "3x8x1920");
    const auto chw = parse_data_input_comment("// Data input: CHW 3x32x32");
    REQUIRE(chw);
    CHECK(chw->chw);
    CHECK_FALSE(parse_data_input_comment("// Input data: HWC"));
}

TEST_CASE("A camera folder's request names its evidence, options and input", "[camera]") {
    const CameraRequest r = read_camera_request(kE87Camera.string());
    CHECK(r.uses_camera);
    CHECK(r.evidence == "cnn.c: includes pcif_defines_af2.h");
    CHECK(r.args.sync);
    CHECK(r.args.pix_clk == 11);
    REQUIRE(r.input);
    CHECK(r.input->shape() == "3x8x1920");
    CHECK_FALSE(read_camera_request((fs::path(test::kVectors) / "demo-mnist").string()).uses_camera);
}

TEST_CASE("The waveform derived from a log's sample input is the generator's input.csv, row for row", "[camera]") {
    const std::vector<fs::path> folders = rtl_camera_folders();
    REQUIRE(folders.size() >= 10);
    std::set<int> formats;
    for (const fs::path& dir : folders) {
        INFO(dir.filename().string());
        const CameraRequest r = read_camera_request(dir.string());
        REQUIRE(r.uses_camera);
        formats.insert(r.args.format);
        // Derive it as for a folder without input.csv: from the log.
        test::ScratchDir scratch("camera-derive");
        fs::copy_file(dir / "log.txt.gz", scratch.path / "log.txt.gz");
        CameraRequest without_csv = r;
        without_csv.args.csv_name = "missing.csv";
        const CameraFeed derived = camera_feed_for_run(scratch.path.string(), without_csv, "", 0);
        CHECK(test::contains(derived.origin, "sample input"));
        CHECK(csv_text(derived.waveform) == test::slurp(dir / "input.csv"));
    }
    CHECK(formats == std::set<int>{555, 565, 888});
}
