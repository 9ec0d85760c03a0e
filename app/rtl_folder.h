// A folder of the vendor's RTL simulation (generator --rtl / --rtl-preload):
// what its run_test.sv, latency.txt and RISC-V linker script tell the
// testbench, read once so that the run (app/rtl_testbench.h), the firmware
// builder and the reports take it from one place. docs/rtl-flow.md.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ai8x {

// run_test.sv, latency.txt or the linker script is unusable; what() names the file (and line).
struct RtlFolderError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The camera stream run_test.sv feeds the PCIF pins from (generator --input-csv).
struct RtlCameraStream {
    std::string csv_file;                 // relative to the folder (`define CSV_FILE)
    std::optional<double> row_period_ns;  // each row held this long (--input-csv-period)
    std::optional<uint32_t>
        pixel_clock_divider;  // rows clocked every N+1 pclk_ai edges (--input-sync, --input-pix-clk)
};

// A memory region of the RISC-V program's linker script.
struct RtlMemoryRegion {
    std::string name;
    uint64_t origin = 0, length = 0;
};

// Where the RISC-V program lives (its *_simulation_riscv.ld): the region of
// .text (its flash, starting at the boot address the Arm writes) and of .bss.
struct RtlRiscvLayout {
    std::string linker_script;  // file name in the folder
    RtlMemoryRegion flash, sram;
};

// latency.txt: the generator's estimate, total first, then startup and one line per layer.
struct RtlLatency {
    uint64_t total = 0;
    std::optional<uint64_t> startup;
    std::vector<uint64_t> layers;
};

struct RtlFolder {
    std::string dir;
    std::string arm_source;    // `define ARM_PROG_SOURCE (test.c)
    std::string riscv_source;  // `define RISCV_PROG_SOURCE (test_riscv.c), empty for an Arm-only test
    std::optional<RtlRiscvLayout> riscv_layout;
    // What the folder's Makefile.ARM_PROG / Makefile.RISCV_PROG compile the
    // programs with: MXC_OPTIMIZE_CFLAGS (the vendor's -O0) and the -D flags of
    // PROJ_CFLAGS. Empty without the makefile.
    std::vector<std::string> arm_cflags, riscv_cflags;
    std::optional<double> timeout_ms;   // defparam REPEAT_TIMEOUT (in units of 10 ms)
    std::vector<uint32_t> load_groups;  // load_cnn_mems_N at the rise of the CNN enable
    std::vector<uint32_t> dump_groups;  // dump_cnn_mems_N at its fall
    double enable_delay_ns = 10;        // `assign #D chk_clk = CNN_ENA`: the fall is seen D later
    bool runs_verify_output = false;    // $system(verify-output.py) after the cycle count
    std::optional<RtlCameraStream> camera;
    std::optional<RtlLatency> latency;
};

// Whether `dir` is an RTL-simulation folder: it has a run_test.sv that names
// the Arm program (`define ARM_PROG_SOURCE).
bool is_rtl_folder(const std::string& dir);

// The kind of RTL-simulation folder `dir` is, for summaries ("" if it is none):
// "rtl-camera" (a camera stream from input.csv), "rtl-riscv" / "rtl87-riscv"
// (a RISC-V program too; MAX78000 / MAX78002), "rtl87" (other MAX78002
// folders), "rtlp" (MAX78000, preloads or dumps), "rtl" (the rest).
std::string rtl_folder_category(const std::string& dir);

// Reads run_test.sv, latency.txt and the RISC-V linker script of `dir`.
// Throws RtlFolderError naming the file when one is missing or malformed.
RtlFolder read_rtl_folder(const std::string& dir);

// The same for a run_test.sv given as text (`name` in messages); the folder's
// other files are not read.
RtlFolder parse_run_test_sv(const std::string& text, const std::string& name);
RtlLatency parse_latency_txt(const std::string& text, const std::string& name);
RtlRiscvLayout parse_riscv_linker_script(const std::string& text, const std::string& name);
std::vector<std::string> parse_makefile_cflags(const std::string& text);

}  // namespace ai8x
