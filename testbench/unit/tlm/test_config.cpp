// Device-description loader: the bundled file loads with the documented numbers,
// and every kind of broken file is rejected with a message naming file and key.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <unistd.h>

#include "tlm/device_config.h"
#include "build_paths.h"

using namespace ai8x;

namespace {

std::string bundled_text() {
    std::ifstream in(AI8XSIM_SOURCE_DIR "/configs/max78000.yaml");
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Writes `text` to a fresh temporary file and returns its path.
std::string temp_file(const std::string& text) {
    char name[] = "/tmp/ai8xsim_cfg_XXXXXX";
    const int fd = mkstemp(name);
    REQUIRE(fd >= 0);
    close(fd);
    std::ofstream(name) << text;
    return name;
}

// The bundled file with the first line matching `pattern` replaced by `line`.
std::string edited(const std::string& pattern, const std::string& line) {
    const std::string text = bundled_text();
    std::smatch m;
    const std::regex re(pattern);
    REQUIRE(std::regex_search(text, m, re));
    return m.prefix().str() + line + m.suffix().str();
}

std::string load_error(const std::string& text) {
    const std::string path = temp_file(text);
    try {
        load_device_config(path);
    } catch (const ConfigError& e) {
        std::remove(path.c_str());
        const std::string msg = e.what();
        CHECK(msg.find(path) != std::string::npos);  // every message names the file
        return msg;
    }
    std::remove(path.c_str());
    FAIL("file was accepted: " << text.substr(0, 200));
    return {};
}

}  // namespace

TEST_CASE("bundled MAX78000 description loads with hex addresses decoded", "[config]") {
    const DeviceConfig c = load_device_config(AI8XSIM_SOURCE_DIR "/configs/max78000.yaml");
    CHECK(c.name == "MAX78000");
    CHECK(c.quadrants == 4);
    CHECK(c.processors_total() == 64);
    CHECK(c.quadrant_regs.base == 0x50100000u);
    CHECK(c.quadrant_regs.quadrant_stride == 0x400000u);
    CHECK(c.layer_register_offset == 0x10);
    CHECK(c.layer_register_count == 21);
    CHECK(c.layer_register_stride == 0x80);
    CHECK(c.kernel_mem.base == 0x50180000u);
    CHECK(c.kernel_mem.words == 768);
    CHECK(c.kernel_mem.slot_bytes == 16);
    CHECK(c.tram.words == 3072);
    CHECK(c.bias_mem.words == 512);
    CHECK(c.data_sram.instances_total(c.quadrants) == 16);
    REQUIRE(c.cpu_regions.size() == 2);
    CHECK(c.cpu_regions[0].name == "flash");
    CHECK_FALSE(c.cpu_regions[0].writable);
    CHECK(c.cpu_regions[1].size == 0x20000u);
    CHECK(c.clocks.pclk_hz == 50e6);
    CHECK(c.bus.accel_reg_wait_states == 1);
}

TEST_CASE("default path honours AI8XSIM_CONFIG", "[config]") {
    unsetenv("AI8XSIM_CONFIG");
    CHECK(default_device_config_path() == std::string(AI8XSIM_SOURCE_DIR "/configs/max78000.yaml"));
    setenv("AI8XSIM_CONFIG", "/somewhere/else.yaml", 1);
    CHECK(default_device_config_path() == "/somewhere/else.yaml");
    unsetenv("AI8XSIM_CONFIG");
}

TEST_CASE("missing file is a ConfigError naming it", "[config]") {
    try {
        load_device_config("/nonexistent/dev.yaml");
        FAIL("accepted a missing file");
    } catch (const ConfigError& e) {
        CHECK(std::string(e.what()).find("/nonexistent/dev.yaml") != std::string::npos);
    }
}

TEST_CASE("malformed YAML is rejected with a line number", "[config]") {
    const std::string msg = load_error("device: MAX78000\naccelerator: [1, 2\n");
    CHECK(msg.find("malformed YAML") != std::string::npos);
}

TEST_CASE("missing key is named by its full path", "[config]") {
    const std::string msg = load_error(edited(R"(\n    words: 3072\n)", "\n"));
    CHECK(msg.find("memories.tram.words") != std::string::npos);
    CHECK(msg.find("missing") != std::string::npos);
}

TEST_CASE("missing section is named", "[config]") {
    const std::string msg = load_error(edited(R"(\nclocks:)", "\nclocks_renamed:"));
    CHECK(msg.find("clocks") != std::string::npos);
    CHECK(msg.find("missing") != std::string::npos);
}

TEST_CASE("mistyped number is rejected", "[config]") {
    const std::string msg = load_error(edited(R"(quadrants: 4)", "quadrants: four"));
    CHECK(msg.find("accelerator.quadrants") != std::string::npos);
    CHECK(msg.find("'four'") != std::string::npos);
}

TEST_CASE("bad hex digits and negative numbers are rejected", "[config]") {
    CHECK(load_error(edited(R"(base: 0x50180000)", "base: 0x5018zz00")).find("memories.kernel.base") !=
          std::string::npos);
    CHECK(load_error(edited(R"(max_layers: 32)", "max_layers: -32")).find("accelerator.max_layers") !=
          std::string::npos);
}

TEST_CASE("a mapping where a number belongs is rejected", "[config]") {
    const std::string msg = load_error(edited(R"(fifo_depth: 8)", "fifo_depth: { a: 1 }"));
    CHECK(msg.find("accelerator.fifo_depth") != std::string::npos);
}

TEST_CASE("mistyped boolean is rejected", "[config]") {
    const std::string msg = load_error(edited(R"(writable: false)", "writable: maybe"));
    CHECK(msg.find("cpu.regions[0].writable") != std::string::npos);
}

TEST_CASE("zero count is inconsistent", "[config]") {
    const std::string msg = load_error(edited(R"(words: 512)", "words: 0"));
    CHECK(msg.find("memories.bias.words") != std::string::npos);
}

TEST_CASE("overlapping blocks are inconsistent", "[config]") {
    // Move the bias memory on top of the TRAM of quadrant 0.
    const std::string msg = load_error(edited(R"(base: 0x50108000)", "base: 0x50110000"));
    CHECK(msg.find("overlaps") != std::string::npos);
}

TEST_CASE("instances wider than their stride are inconsistent", "[config]") {
    const std::string msg = load_error(edited(R"(instance_stride: 0x8000)", "instance_stride: 0x4000"));
    CHECK(msg.find("memories.data_sram.instance_stride") != std::string::npos);
}

TEST_CASE("per-layer registers must fit in the quadrant block", "[config]") {
    const std::string msg = load_error(edited(R"(count: 21 )", "count: 90 "));
    CHECK(msg.find("registers.layer_registers") != std::string::npos);
}

TEST_CASE("processor counts must agree across sections", "[config]") {
    const std::string msg = load_error(edited(R"(processors_per_quadrant: 16)", "processors_per_quadrant: 8"));
    CHECK(msg.find("instances_per_quadrant") != std::string::npos);
}

// --- register_map: the one description of every accelerator register ---

TEST_CASE("register_map loads every register and field of the bundled description", "[config][registers]") {
    const DeviceConfig cfg = load_device_config(AI8XSIM_SOURCE_DIR "/configs/max78000.yaml");
    REQUIRE(cfg.registers);
    const RegisterMap& m = *cfg.registers;
    CHECK(m.quadrant.size() == 6);
    CHECK(m.layer.size() == 20);  // 21 slots, slot 19 is REG_IFRM of layer 0
    const RegField stride = m.field(m.layer_register("LREG_STRIDE"), "STRIDE");
    CHECK(stride.lsb == 0);
    CHECK(stride.width == 4);  // pool strides 1..16
    const RegField start = m.field(m.quadrant_register("REG_LCNT_MAX"), "START");
    CHECK(start.get(0x00000305u) == 3);
    CHECK(start.with(0x00000305u, 1) == 0x00000105u);
    CHECK(m.quadrant_register("REG_IFRM").offset == 0x990);
    CHECK(cfg.mlat_offset == 0x1000);
    CHECK(m.layer_register("LREG_LCTL2").offset == 0x10 + 20 * 0x80);
    CHECK(m.fifo_register("FIFO_WR").count == cfg.fifo_count);
    CHECK(m.layer_register_name(19) == "LREG_19");
    CHECK_THROWS_AS(m.quadrant_register("REG_NOPE"), ConfigError);
    CHECK_THROWS_AS(m.field(m.quadrant_register("REG_CTL"), "NOPE"), ConfigError);
}

TEST_CASE("overlapping fields are rejected naming register and field", "[config][registers]") {
    const std::string msg = load_error(edited(R"(name: RDY_SEL,    bits: "2:1")", R"(name: RDY_SEL,    bits: "2:0")"));
    CHECK(msg.find("register_map.quadrant.REG_CTL.fields.RDY_SEL.bits") != std::string::npos);
    CHECK(msg.find("overlaps field CNN_EN") != std::string::npos);
}

TEST_CASE("a field beyond bit 31 is rejected", "[config][registers]") {
    const std::string msg = load_error(edited(R"(name: QUPAC,      bits: "31")", R"(name: QUPAC,      bits: "32")"));
    CHECK(msg.find("register_map.quadrant.REG_CTL.fields.QUPAC.bits") != std::string::npos);
    CHECK(msg.find("beyond bit 31") != std::string::npos);
}

TEST_CASE("duplicate register and field names are rejected", "[config][registers]") {
    const std::string reg = load_error(edited(R"(- name: REG_SRAM_TEST)", "- name: REG_SRAM"));
    CHECK(reg.find("register_map.quadrant.REG_SRAM") != std::string::npos);
    CHECK(reg.find("duplicate register name") != std::string::npos);
    const std::string field = load_error(edited(R"(name: CLK_EN,)", "name: CNN_EN,"));
    CHECK(field.find("register_map.quadrant.REG_CTL.fields.CNN_EN") != std::string::npos);
    CHECK(field.find("duplicate field name") != std::string::npos);
}

TEST_CASE("a per-layer kind in a used or missing slot is rejected", "[config][registers]") {
    CHECK(load_error(edited(R"(slot: 20)", "slot: 0")).find("slot already used by LREG_RCNT") != std::string::npos);
    CHECK(load_error(edited(R"(slot: 20)", "slot: 21")).find("register_map.layer.LREG_LCTL2.slot") !=
          std::string::npos);
    // A global register in a per-layer kind's slot would alias that kind's registers.
    const std::string alias = load_error(edited(R"(offset: 0x990 )", "offset: 0x010 "));
    CHECK(alias.find("register_map.layer.LREG_RCNT") != std::string::npos);
    CHECK(alias.find("layer 0's copy has the address of REG_IFRM") != std::string::npos);
}

TEST_CASE("the RISC-V core and the dual-core SoC blocks come from the device file", "[config][riscv]") {
    const DeviceConfig c = load_device_config(AI8XSIM_SOURCE_DIR "/configs/max78000.yaml");
    CHECK(c.riscv.hz > 0);
    CHECK(c.riscv.cnn_irq < c.riscv.irq_count);
    CHECK(c.riscv.sram.base >= c.cpu_regions[1].base);
    CHECK(c.riscv.sram.base + c.riscv.sram.size <= c.cpu_regions[1].base + c.cpu_regions[1].size);
    CHECK(c.riscv.arm_sram_size <= c.riscv.sram.base - c.cpu_regions[1].base);  // the cores' SRAM shares do not overlap
    CHECK(c.soc.fast_fifo.size > 0);
    // An interrupt number the controller does not have is refused, naming the key.
    CHECK(c.riscv.present);
    CHECK(c.riscv.cnn_fifo_irq < c.riscv.irq_count);
    CHECK_THAT(load_error(edited("cnn_irq: 57", "cnn_irq: 64")), Catch::Contains("riscv.cnn_irq"));
    CHECK_THAT(load_error(edited("cnn_fifo_irq: 56", "cnn_fifo_irq: 64")), Catch::Contains("riscv.cnn_fifo_irq"));
    CHECK(c.soc.arm_irq_from_riscv == 79);  // peripherals SEMA: RISCV_IRQn
    CHECK_THAT(load_error(edited("interrupt: 79 ", "interrupt: 104 ")), Catch::Contains("peripherals.SEMA.interrupt"));
}
