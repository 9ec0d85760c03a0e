// The MAX78002 description: its numbers are the vendor generator's (tornadocnn.py
// DevAI87) and the MSDK header's, checked here against those sources' own
// formulas, and the per-layer addressing it needs (layer-major banks, kinds at
// their own offsets) is validated like the MAX78000's.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <unistd.h>

#include "testbench/unit/tlm/config_edit_support.h"
#include "tlm/device_config.h"
#include "build_paths.h"

using namespace ai8x;

namespace {

const char* kPath = AI8XSIM_SOURCE_DIR "/configs/max78002.yaml";

// Loads the MAX78002 file with the first match of `pattern` replaced by `line`;
// returns the error message (empty when it loads).
std::string max78002_error_after_edit(const std::string& pattern, const std::string& line) {
    return test::config_error_after_edit(kPath, pattern, line);
}

const RegisterDescription& layer_kind(const DeviceConfig& c, const std::string& name) {
    return c.registers->layer_register(name);
}

}  // namespace

TEST_CASE("MAX78002 description: geometry from the generator's constants", "[config][max78002]") {
    const DeviceConfig c = load_device_config(kPath);
    CHECK(c.name == "MAX78002");
    CHECK(c.max_layers == 128);       // MAX_LAYERS
    CHECK(c.max_start_layer == 127);  // MAX_LAYERS - 1
    const uint64_t apb = 0x50000000, cnn_base = 0x1000000, group = 0x1000000;
    CHECK(c.quadrant_regs.base == apb + cnn_base);  // ctl_addr(0, REG_CTL)
    CHECK(c.quadrant_regs.quadrant_stride == group);
    CHECK(c.bias_mem.base == apb + cnn_base + 0x180000);    // C_BRAM_BASE
    CHECK(c.tram.base == apb + cnn_base + 0x200000);        // C_TRAM_BASE
    CHECK(c.kernel_mem.base == apb + cnn_base + 0x400000);  // C_MRAM_BASE
    CHECK(c.data_sram.base == apb + cnn_base + 0x800000);   // C_SRAM_BASE
    CHECK(c.tram.words == 12288);                           // TRAM_SIZE
    CHECK(c.tram.instance_stride == 16384u * 4);            // TRAM_OFFS words
    CHECK(c.bias_mem.words == 2048);                        // BIAS_SIZE
    CHECK(c.kernel_mem.instance_stride == 8192u * 16);      // MASK_OFFS words of 16 bytes
    CHECK(c.data_sram.instance_stride == 8192u * 16);  // INSTANCE_SIZE * 16 bytes per memory (datainstance_from_addr)
    CHECK(c.data_sram.words == 5120u * 4);             // INSTANCE_WIDTH * P_SHARED
    CHECK(c.data_sram.pointer_shift() == 15);          // WRITE_PTR_SHIFT
    // mask_large(proc): the first processor of each quadrant has 4 x 1024 + 4 x 256 words, the rest 4 x 1024.
    for (uint32_t p = 0; p < c.processors_per_quadrant; ++p)
        CHECK(c.kernel_mem.words_of(p) == (p == 0 ? 4 * 1024 + 4 * 256 : 4 * 1024));
    CHECK(c.cnn_irq == 117);           // max78002.h CNN_IRQn
    CHECK(c.cnn_fifo_irq == 116);      // CNN_FIFO_IRQn
    CHECK(c.clocks.ipll_hz == 200e6);  // PLL_SPEED
}

TEST_CASE("MAX78002 per-layer registers sit where lreg_addr() puts them", "[config][max78002]") {
    const DeviceConfig c = load_device_config(kPath);
    // lreg_addr(group, reg, layer) = C_CNN*4 + reg*4 + layer*LREG_OFFS for reg <= MAX_LREG,
    // C_CNN*4 + reg*4 + layer*4 above (streaming registers); offsets from the quadrant block.
    const uint64_t c_cnn = 0x40000, lreg_offs = 0x100;
    const auto addr = [&](uint64_t reg, uint64_t layer, bool banked) {
        return c_cnn * 4 + reg * 4 + layer * (banked ? lreg_offs : 4);
    };
    const struct {
        const char* name;
        uint64_t reg;
        bool banked;
    } kinds[] = {{"LREG_NXTLYR", 0, true},        {"LREG_RCNT", 1, true},          {"LREG_LCTL", 12, true},
                 {"LREG_MCNT1", 14, true},        {"LREG_OCHAN", 16, true},        {"LREG_POST", 19, true},
                 {"LREG_STREAM1", 0x2000, false}, {"LREG_STREAM2", 0x2008, false}, {"LREG_FMAX", 0x2010, false}};
    for (const auto& k : kinds) {
        const RegisterDescription& d = layer_kind(c, k.name);
        INFO(k.name);
        CHECK(RegisterMap::layer_offset(d, 0) == addr(k.reg, 0, k.banked));
        CHECK(RegisterMap::layer_offset(d, 5) == addr(k.reg, 5, k.banked));
        CHECK(d.layers == (k.banked ? 128u : 8u));  // MAX_LAYERS, MAX_STREAM_LAYERS
    }
    CHECK(c.registers->quadrant_register("REG_IFRM").offset == 0x42018u * 4);
    CHECK(c.registers->quadrant_register("REG_MLAT").offset == 0x44000u * 4);
}

TEST_CASE("MAX78002 description: aliasing per-layer registers are rejected", "[config][max78002]") {
    // Streaming registers moved onto the per-layer bank of layer 0.
    const std::string onto_bank = max78002_error_after_edit(R"(offset: 0x108000)", "offset: 0x100004");
    CHECK(onto_bank.find("register_map.layer.") != std::string::npos);
    CHECK(onto_bank.find("has the address of") != std::string::npos);
    // A layer stride that makes layer 1's slots overlap layer 0's.
    const std::string stride = max78002_error_after_edit(R"(layer_stride: 0x100)", "layer_stride: 0x40");
    CHECK(stride.find("registers.layer_registers") != std::string::npos);
    // Kernel instance sizes: one per instance, none above `words`.
    CHECK(max78002_error_after_edit(R"(words_by_instance: \[5120,)", "words_by_instance: [6000,")
              .find("memories.kernel.words_by_instance") != std::string::npos);
    CHECK(max78002_error_after_edit(R"(interrupts: \{ cnn: 117)", "interrupts: { cnn: 130").find("cpu.interrupts") !=
          std::string::npos);
}

TEST_CASE("the MAX78002 has the dual-core SoC blocks and its RISC-V core", "[config][max78002][riscv]") {
    const DeviceConfig c = load_device_config(kPath);
    // The MSDK's MAX78002 split: SRAM5 for the RISC-V core, SRAM0-1 for the Arm;
    // the RISC-V interrupt numbers of max78002.h.
    REQUIRE(c.riscv.present);
    CHECK(c.riscv.sram.base == 0x20040000);
    CHECK(c.riscv.sram.size == 0x10000);
    CHECK(c.riscv.arm_sram_size == 0x10000);
    CHECK(c.riscv.cnn_irq == 57);
    CHECK(c.riscv.cnn_fifo_irq == 56);
    CHECK(c.soc.fast_fifo.size > 0);
    CHECK(c.registers->find_peripheral("SEMA"));
    CHECK(c.soc.arm_irq_from_riscv == 79);  // inherited from the MAX78000 (max78002.h RISCV_IRQn)
    // The Arm's RISC-V interrupt must be one the NVIC of this device has.
    CHECK(max78002_error_after_edit("\nclocks:\n", "\nperipherals:\n  - { name: SEMA, interrupt: 121 }\nclocks:\n")
              .find("peripherals.SEMA.interrupt") != std::string::npos);
}
