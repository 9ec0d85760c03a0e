// What an RTL-simulation folder tells the testbench: run_test.sv's programs,
// time-out, load and dump tasks, enable delay, verify-output.py call and camera
// stream; latency.txt; the RISC-V linker script's regions. Checked on texts as
// the generator writes them (izer/rtlsim.py) and on ../shared/vectors-rtl.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "app/rtl_folder.h"
#include "testbench/unit/test_support.h"

using namespace ai8x;

namespace {

const std::string kRtlVectors = std::string(AI8XSIM_SHARED_DIR) + "/vectors-rtl";

const char* const kPreloadRunTest = R"(// run_test.sv
`define ARM_PROG_SOURCE test.c
// Timeout: 14 ms
defparam REPEAT_TIMEOUT = 1.4;

always @(posedge `CNN_ENA) begin
  if (!start_ena) begin
    load_cnn_mems_0;
    load_cnn_mems_2;
    start_time  = $realtime;
  end
end

assign #10 chk_clk = `CNN_ENA;

always @(negedge chk_clk) begin
  if (start_ena) begin
    dump_cnn_mems_0;
    dump_cnn_mems_2;
    close_files;
  end
end

always @(posedge clkena3) begin
    chk_stat = $system({`TARGET_DIR,"/verify-output.py ",`TARGET_DIR});
end
)";

}  // namespace

TEST_CASE("rtl folder: run_test.sv of a preload test", "[rtl]") {
    const RtlFolder f = parse_run_test_sv(kPreloadRunTest, "run_test.sv");
    CHECK(f.arm_source == "test.c");
    CHECK(f.riscv_source.empty());
    REQUIRE(f.timeout_ms);
    CHECK(*f.timeout_ms == Approx(14.0));
    CHECK(f.load_groups == std::vector<uint32_t>{0, 2});
    CHECK(f.dump_groups == std::vector<uint32_t>{0, 2});
    CHECK(f.enable_delay_ns == 10);
    CHECK(f.runs_verify_output);
    CHECK_FALSE(f.camera);
}

TEST_CASE("rtl folder: run_test.sv of a camera test", "[rtl]") {
    const RtlFolder f = parse_run_test_sv(
        "`define ARM_PROG_SOURCE test.c\n`define RISCV_PROG_SOURCE test_riscv.c\n"
        "`define CSV_FILE {`TARGET_DIR,\"/input.csv\"}\n"
        "  while (!$feof(input_file))\n    begin\n      #180ns;\n    end\n",
        "run_test.sv");
    CHECK(f.riscv_source == "test_riscv.c");
    REQUIRE(f.camera);
    CHECK(f.camera->csv_file == "input.csv");
    REQUIRE(f.camera->row_period_ns);
    CHECK(*f.camera->row_period_ns == 180);
    CHECK_FALSE(f.timeout_ms);
}

TEST_CASE("rtl folder: a run_test.sv without the Arm program is refused", "[rtl]") {
    CHECK_THROWS_WITH(parse_run_test_sv("defparam REPEAT_TIMEOUT = 1.0;\n", "x/run_test.sv"),
                      Catch::Contains("x/run_test.sv: no `define ARM_PROG_SOURCE"));
    CHECK_THROWS_WITH(parse_run_test_sv("`define ARM_PROG_SOURCE test.c\ndefparam REPEAT_TIMEOUT = abc;\n", "r.sv"),
                      "r.sv:2: REPEAT_TIMEOUT 'abc' is not a number");
}

TEST_CASE("rtl folder: latency.txt is the total, the startup and one line per layer", "[rtl]") {
    const RtlLatency l = parse_latency_txt("85073\n1\n63884\n16844\n4012\n332\n", "latency.txt");
    CHECK(l.total == 85073);
    CHECK(l.startup == 1u);
    CHECK(l.layers == std::vector<uint64_t>{63884, 16844, 4012, 332});
    CHECK_THROWS_WITH(parse_latency_txt("85073\n1 2\n", "l.txt"), "l.txt:2: expected one cycle count, got '1 2'");
    CHECK_THROWS_WITH(parse_latency_txt("\n", "l.txt"), "l.txt: no total cycle count");
}

TEST_CASE("rtl folder: the RISC-V linker script places .text and .bss", "[rtl]") {
    const RtlRiscvLayout l = parse_riscv_linker_script(R"(
/* RVC :: ????? :: FLASH1     (rx) : ORIGIN = 0x10080000, LENGTH = 0x00080000 */
MEMORY {
    FLASH0  (rwx) : ORIGIN = 0x10000000, LENGTH = 0x00001000
    FLASH1  (rwx) : ORIGIN = 0x10001000, LENGTH = 0x0007F000
    SRAM2   (rwx) : ORIGIN = 0x20010000, LENGTH = 0x0000C000
}
SECTIONS {
    .text : { *(.text*) } > FLASH1
    .data : { *(.data*) } > SRAM2 AT>FLASH1
    .bss : { . = ALIGN(4); *(.bss*) } > SRAM2
})",
                                                       "x.ld");
    CHECK(l.flash.name == "FLASH1");
    CHECK(l.flash.origin == 0x10001000);
    CHECK(l.flash.length == 0x7F000);
    CHECK(l.sram.name == "SRAM2");
    CHECK(l.sram.origin == 0x20010000);
    CHECK_THROWS_WITH(
        parse_riscv_linker_script("MEMORY { A (rx) : ORIGIN = 0, LENGTH = 4 }\n.text : { } > B\n", "y.ld"),
        Catch::Contains("y.ld: region B is not in MEMORY"));
}

TEST_CASE("rtl folder: every folder of vectors-rtl reads", "[rtl][vectors]") {
    namespace fs = std::filesystem;
    REQUIRE(fs::is_directory(kRtlVectors));
    unsigned folders = 0, riscv = 0, camera = 0, preload = 0, latency = 0;
    for (const auto& e : fs::directory_iterator(kRtlVectors)) {
        if (!e.is_directory()) continue;
        const std::string dir = e.path().string();
        INFO(dir);
        REQUIRE(is_rtl_folder(dir));
        const RtlFolder f = read_rtl_folder(dir);
        ++folders;
        CHECK(f.arm_source == "test.c");
        CHECK(f.timeout_ms);
        riscv += f.riscv_layout.has_value();
        camera += f.camera.has_value();
        preload += !f.load_groups.empty();
        latency += f.latency.has_value();
        if (f.riscv_layout) CHECK(f.riscv_layout->flash.origin == 0x10001000);
        CHECK(f.runs_verify_output == fs::exists(e.path() / "verify-output.py"));
    }
    CHECK(folders == 301);
    CHECK(riscv == 25);
    CHECK(camera == 16);
    CHECK(latency == 179);
    CHECK(preload > 100);
}
