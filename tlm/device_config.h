// Device description loaded from configs/<device>.yaml (and the base file it
// names, tlm/device_overlay.h).
//
// Every number that is specific to a chip (addresses, geometry, clocks, timing,
// register fields) lives in the YAML files; code reads it from here, so another
// device of the family needs a YAML file, not C++.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "tlm/energy_config.h"
#include "tlm/register_description.h"
#include "tlm/rtl_testbench_config.h"

namespace ai8x {

// A malformed or incomplete device file. what() names the file and the key.
struct ConfigError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// One memory (or register) array that is replicated per processor/quadrant.
// Address of word `w` of instance `i` in quadrant `q`:
//   base + q * quadrant_stride + i * instance_stride + w * slot_bytes
struct ArrayGeometry {
    uint64_t base = 0;             // address of quadrant 0, instance 0, word 0
    uint64_t quadrant_stride = 0;  // bytes between quadrants
    uint32_t instances_per_quadrant = 0;
    uint64_t instance_stride = 0;  // bytes between instances inside a quadrant
    uint32_t words = 0;            // words per instance
    uint32_t word_bits = 0;        // width of one stored word (32 data, 16 TRAM, 72 kernel, 8 bias)
    uint32_t slot_bytes = 0;       // bus bytes occupied by one word (4 for data/TRAM/bias, 16 for kernel)
    // Instances of different sizes (MAX78002 kernel memories): words of instance i
    // of each quadrant; empty when every instance has `words` (then the largest).
    std::vector<uint32_t> words_by_instance;
    // Bit of a 32-bit-word memory pointer (write/read pointer registers) where
    // the instance number starts; 0 when it is log2 of the instance window.
    uint32_t pointer_instance_shift = 0;
    // Kernel memory only (MAX78002): words between the four blocks a calcx4
    // layer's kernels are split into (LREG_POST.CALCX4; model/engine/kernel_fetch);
    // 0 where the device has no calcx4.
    uint32_t calcx4_block_stride = 0;

    // Bit where a word pointer's instance number starts (log2 of the instance
    // window unless the description says otherwise).
    uint32_t pointer_shift() const {
        if (pointer_instance_shift) return pointer_instance_shift;
        uint32_t b = 0;
        while ((1ull << b) < words) ++b;
        return b;
    }
    // A word pointer (read/write pointer register value) split at pointer_shift():
    // the word inside its instance, and the instance.
    uint32_t pointer_word(uint32_t pointer) const { return pointer & ((1u << pointer_shift()) - 1); }
    uint32_t pointer_instance(uint32_t pointer) const { return pointer >> pointer_shift(); }
    // Words that exist in instance `i` of a quadrant (i < instances_per_quadrant).
    uint32_t words_of(uint32_t i) const { return words_by_instance.empty() ? words : words_by_instance[i]; }

    uint32_t instances_total(uint32_t quadrants) const { return quadrants * instances_per_quadrant; }
};

struct RegisterBlockGeometry {
    uint64_t base = 0;             // quadrant 0 block base
    uint64_t quadrant_stride = 0;  // 0 for blocks that exist once
    uint64_t size = 0;             // bytes decoded by the block
};

// A plain memory region of the Cortex-M4 side (flash, SRAM).
struct CpuRegion {
    std::string name;
    uint64_t base = 0;
    uint64_t size = 0;
    bool writable = true;
};

struct ClockConfig {
    double cpu_hz = 100e6;  // core clock after MXC_SYS_Clock_Select(IPO)
    double pclk_hz = 50e6;  // APB clock (CNN clock source "PCLK")
    double ipo_hz = 100e6;  // internal primary oscillator (CNN clock source "ITO/IPO")
    double ipll_hz = 0;     // PLL (CNN clock source "IPLL"); 0: the device has none

    // The CNN clock as GCR.PCLKDIV selects it (configs: clocks.cnn_clock): the
    // clock each CNNCLKSEL code selects and the divisor of each CNNCLKDIV code.
    enum class Source { Pclk, Ipo, Ipll };
    std::map<uint32_t, Source> cnn_sources;
    std::map<uint32_t, uint32_t> cnn_dividers;
    double hz_of(Source s) const { return s == Source::Pclk ? pclk_hz : s == Source::Ipo ? ipo_hz : ipll_hz; }
};

// Cost of the Cortex-M4's own work, in CPU clock cycles (configs: cpu.timing).
struct CpuTiming {
    uint32_t cycles_per_instruction = 1;   // base cost of every executed instruction
    uint32_t exception_entry_cycles = 0;   // interrupt taken: stacking and vector fetch
    uint32_t exception_return_cycles = 0;  // EXC_RETURN: unstacking
    // Cortex-M4 instruction classes dearer than the base (firmware/host/thumb_timing.*):
    uint32_t load_cycles = 1;               // a single LDR*
    uint32_t pipelined_load_cycles = 1;     // an LDR* right behind another load or store
    uint32_t store_cycles = 1;              // a single STR*
    uint32_t transfer_register_cycles = 0;  // LDM/STM/PUSH/POP/LDRD/STRD: base + this per register
    uint32_t branch_refill_cycles = 0;      // P: a taken branch costs base + P (pipeline refill)
};

struct BusTiming {
    uint32_t accel_reg_wait_states = 0;   // extra cycles per accelerator register access
    uint32_t accel_mem_wait_states = 0;   // extra cycles per accelerator memory access
    uint32_t accel_fifo_wait_states = 0;  // extra cycles per access to the input FIFO block (status, words)
    uint32_t flash_wait_states = 0;       // extra cycles per CPU data read from flash (fetches hit the cache)
    uint32_t sram_wait_states = 0;        // extra cycles per CPU data access to SRAM
};

// Cost in CNN clock cycles of each state the layer sequencer steps through
// (model/timing). The flags name hardware quirks that add states on this chip.
struct AccelTiming {
    uint32_t read_state = 1;     // one read of a data (or padding) word into the processors
    uint32_t tram_write = 1;     // one write of a read word into the processor's TRAM
    uint32_t write_state = 1;    // the write state after a column that produces no output
    uint32_t flatten_setup = 1;  // extra cycle of a layer with the flatten bit set
    uint32_t startup = 1;        // cycles from start until the first layer begins
    // Peak multiply-accumulates one processor performs per CNN clock (one 3x3
    // kernel applied to one input word); the denominator of a layer's utilization.
    uint32_t peak_macs_per_processor_cycle = 9;
    bool kernel_offset_preread = false;         // op-first multi-pass/element-wise layers pre-read by kernel offset
    bool passthrough_pool_double_pass = false;  // pooled passthrough with several output passes reads 2n-1 passes

    // The MAX78002's pipeline (REG_CTL.PIPELINE_DIS clear; timing.pipeline in the
    // device file, absent on the MAX78000): every output event (one output pixel
    // of one pass) costs output_fill_cycles more, plus output_sync_ns of fixed
    // time rounded up to whole CNN clocks (docs/timing-model.md, "MAX78002").
    struct Pipeline {
        bool present = false;  // the device file describes a pipeline
        uint32_t output_fill_cycles = 0;
        uint32_t output_sync_ns = 0;
    } pipeline;

    // Cycles each output event costs beyond the state walk during one inference:
    // never read from the file, resolved at the start of an inference from
    // `pipeline`, REG_CTL and the CNN clock (model/timing/pipeline.h); 0 otherwise.
    uint32_t output_extra = 0;
};

// The RISC-V core of a dual-core image (configs: riscv; docs/riscv.md). A
// device file without a riscv: section describes no usable RISC-V core: a
// dual-core image is then refused (firmware_builder).
struct RiscvConfig {
    bool present = false;  // the device file has a riscv: section
    double hz = 50e6;
    std::string march = "rv32imc", mabi = "ilp32";
    std::string libgcc_march = "rv32im";  // multilib of the toolchain whose libgcc the core can run
    uint64_t flash_max = 0;               // largest RISC-V image in flash
    CpuRegion sram;                       // its data memory, a part of the shared SRAM
    uint64_t arm_sram_size = 0;           // the Arm core's share of SRAM (from the SRAM base) when both run
    RegisterBlockGeometry intc;           // core-local interrupt/event/sleep controller
    uint32_t cnn_irq = 0;                 // CNN interrupt number on this core
    uint32_t cnn_fifo_irq = 0;            // CNN FIFO interrupt number on this core
    uint32_t irq_count = 0;
    uint32_t cycles_per_instruction = 1;
    uint32_t interrupt_entry_cycles = 0;
    uint32_t interrupt_return_cycles = 0;
};

// Two facts of the SoC peripherals (configs: peripherals) that code outside
// the peripheral models needs: where the fast FIFO sits (the CPU and the trace
// recorder treat its accesses specially) and the Arm's interrupt from the
// RISC-V core (the firmware builder compiles it into the shim).
struct SocConfig {
    RegisterBlockGeometry fast_fifo;  // peripherals.FAST_FIFO
    uint32_t arm_irq_from_riscv = 0;  // peripherals.SEMA.interrupt: raised by SEMA IRQ0.CM4_IRQ
};

struct DeviceConfig {
    std::string name;         // "MAX78000"
    std::string source_path;  // file it was loaded from (for messages)

    // Accelerator organisation
    uint32_t quadrants = 0;  // processor groups
    uint32_t processors_per_quadrant = 0;
    uint32_t processors_per_data_sram = 0;  // processors sharing one data memory instance
    uint32_t max_layers = 0;
    uint32_t max_stream_layers = 0;
    uint32_t max_start_layer = 0;              // highest REG_LCNT_MAX start layer the generator writes
    uint32_t layer_register_count = 0;         // per-layer register slots (LREG 0..N-1)
    uint32_t layer_register_stride = 0;        // bytes between two LREG slots of one layer
    uint32_t layer_register_layer_stride = 0;  // bytes between two layers' copies of one slot
    uint64_t layer_register_offset = 0;        // offset of LREG 0/layer 0 inside the quadrant block
    uint64_t mlat_offset = 0;                  // offset of REG_MLAT (from register_map) inside the quadrant block
    uint32_t fifo_count = 0;
    uint32_t fifo_depth = 0;
    // When a streaming layer after the first may read a pooling window
    // (accelerator.stream_release; docs/streaming.md §12): false ("thresholds",
    // the MAX78000) when its producer's scan has reached the LREG_STREAM1/2
    // threshold, true ("window", the MAX78002) once the window has been written.
    bool stream_release_on_window = false;

    // Every register and field (configs: register_map); shared, never changed after loading.
    std::shared_ptr<const RegisterMap> registers;

    // Register blocks
    RegisterBlockGeometry quadrant_regs;  // control, SRAM, layer count, per-layer registers
    RegisterBlockGeometry fifo_regs;      // FIFO control/status/data
    RegisterBlockGeometry aon_regs;       // always-on control

    // Memories
    ArrayGeometry data_sram;
    ArrayGeometry tram;
    ArrayGeometry kernel_mem;
    ArrayGeometry bias_mem;

    // Cortex-M4 side
    std::vector<CpuRegion> cpu_regions;
    uint64_t peripheral_base = 0;  // start of the MCU peripheral window (GCR, GCFR, timers, ...)
    uint64_t peripheral_size = 0;

    CpuTiming cpu_timing;       // configs: cpu.timing
    SocConfig soc;              // from configs: peripherals
    RiscvConfig riscv;          // configs: riscv
    uint32_t cnn_irq = 0;       // NVIC input of the accelerator's "inference done" interrupt
    uint32_t cnn_fifo_irq = 0;  // NVIC input of the FIFO interrupt
    uint32_t irq_count = 0;     // external interrupts of the device (vector table entries after the 16 core ones)

    ClockConfig clocks;
    BusTiming bus;
    AccelTiming timing;                // accelerator state costs (configs: timing:)
    EnergyConfig energy;               // energy coefficients (configs: energy:; absent: no estimate)
    RtlTestbenchConfig rtl_testbench;  // the vendor RTL testbench's memory files (configs: rtl_testbench:)

    uint32_t processors_total() const { return quadrants * processors_per_quadrant; }
};

// Loads and validates a device file. Throws ConfigError naming the file and key.
DeviceConfig load_device_config(const std::string& path);
// The same from the file's text; `source` names it in messages.
DeviceConfig parse_device_config(const std::string& yaml_text, const std::string& source);

// Folder of the bundled device files (configs/ in the source tree, else the
// copy under the install prefix).
std::string bundled_device_config_dir();

// Path of the bundled default device file: $AI8XSIM_CONFIG if set, else
// configs/max78000.yaml in the source tree, else the copy under the install
// prefix the libraries were configured with (share/ai8xsim/configs).
std::string default_device_config_path();

}  // namespace ai8x
