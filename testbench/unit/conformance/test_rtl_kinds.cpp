// The kinds the conformance runner counts an RTL-simulation folder under
// (vector_catalog.h rtl_kinds_of): from run_test.sv, data/ or
// data-expected/, input.csv, test_riscv.c and meta.json's device.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "testbench/conformance/vector_catalog.h"
#include "testbench/unit/test_support.h"
#include "build_paths.h"

namespace rtl_kinds_test {

using namespace ai8x::conformance;
using Kinds = std::vector<std::string>;
namespace fs = std::filesystem;

TEST_CASE("rtl kinds: a folder without run_test.sv is no RTL folder", "[conformance][rtl]") {
    ai8x::test::ScratchDir d("rtl-kinds-plain");
    d.write("meta.json", R"({"device": "MAX78000"})");
    d.write("main.c", "");
    CHECK(rtl_kinds_of(d.path.string()).empty());
}

TEST_CASE("rtl kinds: the program's input, the camera, the RISC-V core and the device", "[conformance][rtl]") {
    ai8x::test::ScratchDir d("rtl-kinds");
    d.write("run_test.sv", "`define ARM_PROG_SOURCE test.c\n");
    d.write("meta.json", R"({"device": "MAX78000"})");
    CHECK(rtl_kinds_of(d.path.string()) == Kinds{"rtl"});
    d.write("input.csv", "");
    d.write("test_riscv.c", "");
    CHECK(rtl_kinds_of(d.path.string()) == Kinds{"rtl", "camera", "riscv"});
    fs::create_directory(d.path / "data-expected");
    d.write("meta.json", R"({"device": "MAX78002"})");
    CHECK(rtl_kinds_of(d.path.string()) == Kinds{"rtlp", "camera", "riscv", "max78002"});
}

TEST_CASE("rtl kinds: the shared folders", "[conformance][rtl][vectors]") {
    const std::string rtl = std::string(AI8XSIM_SHARED_DIR) + "/vectors-rtl/";
    CHECK(rtl_kinds_of(rtl + "rtl-conv1d-1-0d84f0") == Kinds{"rtl"});
    CHECK(rtl_kinds_of(rtl + "rtl87-conv1d-pool-1-688e03") == Kinds{"rtlp", "max78002"});
    CHECK(rtl_kinds_of(rtl + "rtl-565-riscv-csv-fastfifostream-32-hwc-515d37") == Kinds{"rtl", "camera", "riscv"});
    CHECK(rtl_kinds_of(std::string(AI8XSIM_SHARED_DIR) + "/vectors/demo-mnist-extrasmall").empty());
}

}  // namespace rtl_kinds_test
