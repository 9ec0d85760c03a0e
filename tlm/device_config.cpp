// Device-description loader: YAML -> DeviceConfig, with every problem reported
// as "file:line: key.path: what is wrong" so that a user editing a new device
// file can fix it without reading C++.
#include "tlm/device_config.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "tlm/device_overlay.h"
#include "tlm/yaml_reader.h"
#include "build_paths.h"

namespace ai8x {

namespace {

ArrayGeometry read_array(const Reader& r, const YAML::Node& mems, const std::string& name) {
    const std::string path = "memories." + name;
    const YAML::Node n = r.need(mems, "memories", name);
    ArrayGeometry g;
    g.base = r.u64(n, path, "base");
    g.quadrant_stride = r.u64(n, path, "quadrant_stride");
    g.instances_per_quadrant = static_cast<uint32_t>(r.positive(n, path, "instances_per_quadrant"));
    g.instance_stride = r.u64(n, path, "instance_stride");
    g.words = static_cast<uint32_t>(r.positive(n, path, "words"));
    g.word_bits = static_cast<uint32_t>(r.positive(n, path, "word_bits"));
    g.slot_bytes = static_cast<uint32_t>(r.positive(n, path, "slot_bytes"));
    if (g.slot_bytes != 4 && g.slot_bytes != 16) r.fail(path + ".slot_bytes", "must be 4 or 16", &n);
    if (g.word_bits > 8 * g.slot_bytes && g.slot_bytes == 4)
        r.fail(path + ".word_bits", "a word wider than 32 bits needs 16-byte slots", &n);
    if (g.word_bits > 72) r.fail(path + ".word_bits", "words wider than 72 bits are not supported", &n);
    if (const YAML::Node list = n["words_by_instance"]) {
        if (!list.IsSequence() || list.size() != g.instances_per_quadrant)
            r.fail(path + ".words_by_instance", "expected one word count per instance of a quadrant", &list);
        for (size_t i = 0; i < list.size(); ++i) {
            YAML::Node item;  // the reader checks numbers of maps: wrap the list element
            item["words"] = list[i];
            const uint32_t w = static_cast<uint32_t>(
                r.positive(item, path + ".words_by_instance[" + std::to_string(i) + "]", "words"));
            if (w > g.words) r.fail(path + ".words_by_instance", "an instance larger than words (the largest)", &list);
            g.words_by_instance.push_back(w);
        }
    }
    if (n["pointer_instance_shift"]) {
        g.pointer_instance_shift = r.u32(n, path, "pointer_instance_shift");
        if (g.pointer_instance_shift > 24 || (1ull << g.pointer_instance_shift) < g.words)
            r.fail(path + ".pointer_instance_shift", "must leave room for the words of one instance", &n);
    }
    if (n["calcx4_block_stride"]) {
        g.calcx4_block_stride = r.u32(n, path, "calcx4_block_stride");
        if (4ull * g.calcx4_block_stride > g.words)
            r.fail(path + ".calcx4_block_stride", "four blocks must fit the words of one instance", &n);
    }
    const uint64_t instance_bytes = uint64_t(g.words) * g.slot_bytes;
    if (g.instances_per_quadrant > 1 && g.instance_stride < instance_bytes)
        r.fail(path + ".instance_stride", "instances overlap (stride smaller than words * slot_bytes)", &n);
    return g;
}

RegisterBlockGeometry read_block(const Reader& r, const YAML::Node& regs, const std::string& name, bool per_quadrant) {
    const std::string path = "registers." + name;
    const YAML::Node n = r.need(regs, "registers", name);
    RegisterBlockGeometry b;
    b.base = r.u64(n, path, "base");
    if (per_quadrant) b.quadrant_stride = r.u64(n, path, "quadrant_stride");
    b.size = r.positive(n, path, "size");
    if (b.base % 4 || b.size % 4) r.fail(path, "base and size must be multiples of 4", &n);
    return b;
}

// Bytes decoded by one quadrant's copy of an array.
uint64_t span(const ArrayGeometry& g) {
    return uint64_t(g.instances_per_quadrant - 1) * g.instance_stride + uint64_t(g.words) * g.slot_bytes;
}

struct Window {
    std::string key;
    uint64_t base, size;
};

// Two blocks decoding the same address would make the accelerator ambiguous.
BusTiming read_bus_timing(const Reader& r, const YAML::Node& root) {
    const YAML::Node bus = r.need(root, "", "bus");
    BusTiming b;
    b.accel_reg_wait_states = r.u32(bus, "bus", "accel_reg_wait_states");
    b.accel_mem_wait_states = r.u32(bus, "bus", "accel_mem_wait_states");
    b.accel_fifo_wait_states = r.u32(bus, "bus", "accel_fifo_wait_states");
    b.flash_wait_states = r.u32(bus, "bus", "flash_wait_states");
    b.sram_wait_states = r.u32(bus, "bus", "sram_wait_states");
    return b;
}

void check_overlaps(const Reader& r, const std::vector<Window>& w) {
    for (size_t i = 0; i < w.size(); ++i)
        for (size_t j = i + 1; j < w.size(); ++j)
            if (w[i].base < w[j].base + w[j].size && w[j].base < w[i].base + w[i].size) {
                std::ostringstream os;
                os << "address range overlaps " << w[i].key << " (0x" << std::hex << w[j].base << " vs 0x" << w[i].base
                   << ")";
                r.fail(w[j].key, os.str());
            }
}

// accelerator.stream_release: when a streaming layer may read (docs/streaming.md
// sections 4.4 and 12); absent means thresholds.
bool stream_release_on_window(const Reader& r, const YAML::Node& acc) {
    if (!acc["stream_release"]) return false;
    const std::string release = r.str(acc, "accelerator", "stream_release");
    if (release != "thresholds" && release != "window")
        r.fail("accelerator.stream_release", "expected thresholds or window, got '" + release + "'", &acc);
    return release == "window";
}

void read_accelerator(const Reader& r, const YAML::Node& root, DeviceConfig& c) {
    const YAML::Node acc = r.need(root, "", "accelerator");
    c.quadrants = static_cast<uint32_t>(r.positive(acc, "accelerator", "quadrants"));
    c.processors_per_quadrant = static_cast<uint32_t>(r.positive(acc, "accelerator", "processors_per_quadrant"));
    c.processors_per_data_sram = static_cast<uint32_t>(r.positive(acc, "accelerator", "processors_per_data_sram"));
    c.max_layers = static_cast<uint32_t>(r.positive(acc, "accelerator", "max_layers"));
    c.max_stream_layers = static_cast<uint32_t>(r.positive(acc, "accelerator", "max_stream_layers"));
    c.max_start_layer = r.u32(acc, "accelerator", "max_start_layer");
    if (c.max_start_layer >= c.max_layers) r.fail("accelerator.max_start_layer", "must be below max_layers", &acc);
    c.fifo_count = static_cast<uint32_t>(r.positive(acc, "accelerator", "fifo_count"));
    c.fifo_depth = static_cast<uint32_t>(r.positive(acc, "accelerator", "fifo_depth"));
    c.stream_release_on_window = stream_release_on_window(r, acc);
    if (c.processors_per_quadrant % c.processors_per_data_sram)
        r.fail("accelerator.processors_per_data_sram", "must divide processors_per_quadrant", &acc);
    if (c.max_stream_layers > c.max_layers) r.fail("accelerator.max_stream_layers", "cannot exceed max_layers", &acc);
}

void read_register_blocks(const Reader& r, const YAML::Node& root, DeviceConfig& c) {
    const YAML::Node regs = r.need(root, "", "registers");
    c.quadrant_regs = read_block(r, regs, "quadrant", true);
    c.fifo_regs = read_block(r, regs, "fifo", false);
    c.aon_regs = read_block(r, regs, "aon", false);
    const YAML::Node lr = r.need(regs, "registers", "layer_registers");
    c.layer_register_offset = r.u64(lr, "registers.layer_registers", "offset");
    c.layer_register_count = static_cast<uint32_t>(r.positive(lr, "registers.layer_registers", "count"));
    c.layer_register_stride = static_cast<uint32_t>(r.positive(lr, "registers.layer_registers", "stride"));
    c.layer_register_layer_stride = static_cast<uint32_t>(r.positive(lr, "registers.layer_registers", "layer_stride"));
    // Either the kinds are interleaved by layer (slot banks of max_layers words)
    // or the layers are (blocks of count words); nothing in between.
    const uint64_t slot_bank = uint64_t(c.layer_register_stride), layer_block = c.layer_register_layer_stride;
    const bool kinds_outer = layer_block == 4 && slot_bank >= 4ull * c.max_layers;
    const bool layers_outer = slot_bank == 4 && layer_block >= 4ull * c.layer_register_count;
    if (!kinds_outer && !layers_outer)
        r.fail("registers.layer_registers",
               "stride and layer_stride make two registers share a word (one of them must be 4 and the other "
               "span all layers or all kinds)",
               &lr);
    const uint64_t banks_end = c.layer_register_offset + uint64_t(c.layer_register_count - 1) * slot_bank +
                               uint64_t(c.max_layers - 1) * layer_block + 4;
    if (banks_end > c.quadrant_regs.size)
        r.fail("registers.layer_registers", "per-layer registers extend beyond registers.quadrant.size", &lr);
}

void read_memories(const Reader& r, const YAML::Node& root, DeviceConfig& c) {
    const YAML::Node mems = r.need(root, "", "memories");
    c.data_sram = read_array(r, mems, "data_sram");
    c.tram = read_array(r, mems, "tram");
    c.kernel_mem = read_array(r, mems, "kernel");
    c.bias_mem = read_array(r, mems, "bias");
    if (c.data_sram.word_bits != 32) r.fail("memories.data_sram.word_bits", "data memory words must be 32 bits", &mems);
    if (c.kernel_mem.word_bits != 72 || c.kernel_mem.slot_bytes != 16)
        r.fail("memories.kernel", "kernel words must be 72 bits in 16-byte slots", &mems);
    if (c.tram.instances_per_quadrant != c.processors_per_quadrant)
        r.fail("memories.tram.instances_per_quadrant", "must equal accelerator.processors_per_quadrant", &mems);
    if (c.kernel_mem.instances_per_quadrant != c.processors_per_quadrant)
        r.fail("memories.kernel.instances_per_quadrant", "must equal accelerator.processors_per_quadrant", &mems);
    if (c.data_sram.instances_per_quadrant * c.processors_per_data_sram != c.processors_per_quadrant)
        r.fail("memories.data_sram.instances_per_quadrant",
               "times accelerator.processors_per_data_sram must equal processors_per_quadrant", &mems);
}

// Every per-quadrant block must fit in its quadrant stride, and no two blocks may overlap.
void check_accelerator_windows(const Reader& r, const DeviceConfig& c) {
    std::vector<Window> windows;
    const auto add_quadrant_copies = [&](const std::string& key, uint64_t base, uint64_t stride, uint64_t size) {
        if (c.quadrants > 1 && stride < size) r.fail(key + ".quadrant_stride", "smaller than one quadrant's block");
        for (uint32_t q = 0; q < c.quadrants; ++q) windows.push_back({key, base + q * stride, size});
    };
    add_quadrant_copies("registers.quadrant", c.quadrant_regs.base, c.quadrant_regs.quadrant_stride,
                        c.quadrant_regs.size);
    add_quadrant_copies("memories.data_sram", c.data_sram.base, c.data_sram.quadrant_stride, span(c.data_sram));
    add_quadrant_copies("memories.tram", c.tram.base, c.tram.quadrant_stride, span(c.tram));
    add_quadrant_copies("memories.kernel", c.kernel_mem.base, c.kernel_mem.quadrant_stride, span(c.kernel_mem));
    add_quadrant_copies("memories.bias", c.bias_mem.base, c.bias_mem.quadrant_stride, span(c.bias_mem));
    windows.push_back({"registers.fifo", c.fifo_regs.base, c.fifo_regs.size});
    windows.push_back({"registers.aon", c.aon_regs.base, c.aon_regs.size});
    check_overlaps(r, windows);
}

void read_cpu_timing(const Section& ct, CpuTiming& t) {
    t.cycles_per_instruction = ct.positive32("cycles_per_instruction");
    t.exception_entry_cycles = ct.u32("exception_entry_cycles");
    t.exception_return_cycles = ct.u32("exception_return_cycles");
    t.load_cycles = ct.positive32("load_cycles");
    t.pipelined_load_cycles = ct.positive32("pipelined_load_cycles");
    t.store_cycles = ct.positive32("store_cycles");
    t.transfer_register_cycles = ct.u32("transfer_register_cycles");
    t.branch_refill_cycles = ct.u32("branch_refill_cycles");
}

void read_cpu(const Reader& r, const YAML::Node& root, DeviceConfig& c) {
    const YAML::Node cpu = r.need(root, "", "cpu");
    const YAML::Node regions = r.need(cpu, "cpu", "regions");
    if (!regions.IsSequence() || regions.size() == 0) r.fail("cpu.regions", "expected a non-empty list", &regions);
    for (size_t i = 0; i < regions.size(); ++i) {
        const std::string p = "cpu.regions[" + std::to_string(i) + "]";
        CpuRegion reg;
        reg.name = r.str(regions[i], p, "name");
        reg.base = r.u64(regions[i], p, "base");
        reg.size = r.positive(regions[i], p, "size");
        reg.writable = r.boolean(regions[i], p, "writable");
        c.cpu_regions.push_back(reg);
    }
    const YAML::Node periph = r.need(cpu, "cpu", "peripherals");
    c.peripheral_base = r.u64(periph, "cpu.peripherals", "base");
    c.peripheral_size = r.positive(periph, "cpu.peripherals", "size");
    const YAML::Node irq = r.need(cpu, "cpu", "interrupts");
    c.cnn_irq = r.u32(irq, "cpu.interrupts", "cnn");
    c.cnn_fifo_irq = r.u32(irq, "cpu.interrupts", "cnn_fifo");
    c.irq_count = static_cast<uint32_t>(r.positive(irq, "cpu.interrupts", "count"));
    if (c.irq_count > 240) r.fail("cpu.interrupts.count", "an ARMv7-M NVIC has at most 240 external interrupts", &irq);
    if (c.cnn_irq >= c.irq_count || c.cnn_fifo_irq >= c.irq_count)
        r.fail("cpu.interrupts", "an interrupt number is not below count", &irq);
    read_cpu_timing(Section(r, cpu, "cpu", "timing"), c.cpu_timing);
}

// The peripherals, and the two facts of them that code outside the peripheral
// models reads (SocConfig): looked up here by the names the family gives them.
void read_soc(const Reader& r, const YAML::Node& root, DeviceConfig& c, RegisterMap& map) {
    map.peripherals = read_peripherals(r, root, c.peripheral_base, c.peripheral_size);
    for (const PeripheralDescription& p : map.peripherals)
        for (const PeripheralInstance& i : p.instances)
            if (i.interrupt >= 0 && uint32_t(i.interrupt) >= c.irq_count)
                r.fail("peripherals." + i.name + ".interrupt", "must be below cpu.interrupts.count");
    const PeripheralDescription* fifo = map.find_peripheral("FAST_FIFO");
    const PeripheralDescription* sema = map.find_peripheral("SEMA");
    if (!fifo || !sema || sema->instances.front().interrupt < 0)
        r.fail("peripherals", "needs FAST_FIFO and SEMA (with its interrupt to the Cortex-M4)");
    c.soc.fast_fifo = {fifo->instances.front().base, 0, fifo->size};
    c.soc.arm_irq_from_riscv = static_cast<uint32_t>(sema->instances.front().interrupt);
}

void read_riscv(const Section& rv, RiscvConfig& c) {
    const auto block = [&rv](const std::string& name) {
        const Section b = rv.child(name);
        return RegisterBlockGeometry{b.u64("base"), 0, b.positive("size")};
    };
    c.present = true;
    c.hz = rv.hz("hz");
    c.march = rv.str("march");
    c.mabi = rv.str("mabi");
    c.libgcc_march = rv.str("libgcc_march");
    c.flash_max = rv.positive("flash_max");
    c.arm_sram_size = rv.positive("arm_sram_size");
    const RegisterBlockGeometry s = block("sram");
    c.sram = CpuRegion{"riscv_sram", s.base, s.size, true};
    c.intc = block("intc");
    c.cnn_irq = rv.u32("cnn_irq");
    c.irq_count = rv.positive32("irq_count");
    c.cnn_fifo_irq = rv.u32("cnn_fifo_irq");
    if (c.cnn_irq >= c.irq_count) rv.fail("cnn_irq", "must be below riscv.irq_count");
    if (c.cnn_fifo_irq >= c.irq_count) rv.fail("cnn_fifo_irq", "must be below riscv.irq_count");
    const Section rvt = rv.child("timing");
    c.cycles_per_instruction = rvt.positive32("cycles_per_instruction");
    c.interrupt_entry_cycles = rvt.u32("interrupt_entry_cycles");
    c.interrupt_return_cycles = rvt.u32("interrupt_return_cycles");
}

// clocks.cnn_clock.sources: CNNCLKSEL code -> pclk, ipo or ipll (ipll only on a device with a PLL).
void read_cnn_clock(const Reader& r, const YAML::Node& clk, ClockConfig& c) {
    const YAML::Node cnn = r.need(clk, "clocks", "cnn_clock");
    const YAML::Node sources = r.need(cnn, "clocks.cnn_clock", "sources");
    const YAML::Node dividers = r.need(cnn, "clocks.cnn_clock", "dividers");
    if (!sources.IsMap() || !dividers.IsMap()) r.fail("clocks.cnn_clock", "expected code: value mappings", &cnn);
    for (const auto& kv : sources) {
        YAML::Node code;  // the reader checks numbers of maps: wrap the key
        code["code"] = kv.first;
        const uint32_t k = r.u32(code, "clocks.cnn_clock.sources", "code");
        const std::string name = kv.second.IsScalar() ? kv.second.Scalar() : "";
        if (name != "pclk" && name != "ipo" && name != "ipll")
            r.fail("clocks.cnn_clock.sources", "expected pclk, ipo or ipll, got '" + name + "'", &kv.second);
        const auto source = name == "pclk"  ? ClockConfig::Source::Pclk
                            : name == "ipo" ? ClockConfig::Source::Ipo
                                            : ClockConfig::Source::Ipll;
        if (source == ClockConfig::Source::Ipll && c.ipll_hz <= 0)
            r.fail("clocks.cnn_clock.sources", "selects ipll, but clocks.ipll_hz is 0 (no PLL)", &kv.second);
        c.cnn_sources[k] = source;
    }
    for (const auto& kv : dividers) {
        YAML::Node entry;
        entry["code"] = kv.first;
        entry["divisor"] = kv.second;
        c.cnn_dividers[r.u32(entry, "clocks.cnn_clock.dividers", "code")] =
            static_cast<uint32_t>(r.positive(entry, "clocks.cnn_clock.dividers", "divisor"));
    }
}

void read_clocks_and_bus(const Reader& r, const YAML::Node& root, DeviceConfig& c) {
    const YAML::Node clk = r.need(root, "", "clocks");
    c.clocks.cpu_hz = r.hz(clk, "clocks", "cpu_hz");
    c.clocks.pclk_hz = r.hz(clk, "clocks", "pclk_hz");
    c.clocks.ipo_hz = r.hz(clk, "clocks", "ipo_hz");
    if (clk["ipll_hz"] && r.u64(clk, "clocks", "ipll_hz") != 0) c.clocks.ipll_hz = r.hz(clk, "clocks", "ipll_hz");
    read_cnn_clock(r, clk, c.clocks);

    c.bus = read_bus_timing(r, root);
}

void read_timing(const Reader& r, const YAML::Node& root, AccelTiming& t) {
    const YAML::Node tm = r.need(root, "", "timing");
    t.read_state = r.u32(tm, "timing", "read_state");
    t.tram_write = r.u32(tm, "timing", "tram_write");
    t.write_state = r.u32(tm, "timing", "write_state");
    t.flatten_setup = r.u32(tm, "timing", "flatten_setup");
    t.startup = r.u32(tm, "timing", "startup");
    t.peak_macs_per_processor_cycle = r.u32(tm, "timing", "peak_macs_per_processor_cycle");
    if (t.peak_macs_per_processor_cycle == 0) r.fail("timing.peak_macs_per_processor_cycle", "must be at least 1", &tm);
    for (const char* flag : {"kernel_offset_preread", "passthrough_pool_double_pass"})
        if (r.u32(tm, "timing", flag) > 1) r.fail(std::string("timing.") + flag, "must be 0 or 1", &tm);
    t.kernel_offset_preread = r.u32(tm, "timing", "kernel_offset_preread") == 1;
    t.passthrough_pool_double_pass = r.u32(tm, "timing", "passthrough_pool_double_pass") == 1;
    if (const YAML::Node pl = tm["pipeline"]) {
        t.pipeline.present = true;
        t.pipeline.output_fill_cycles = r.u32(pl, "timing.pipeline", "output_fill_cycles");
        t.pipeline.output_sync_ns = r.u32(pl, "timing.pipeline", "output_sync_ns");
    }
}

DeviceConfig parse(const YAML::Node& root, const DescriptionSources& sources) {
    const Reader r(sources);
    if (!root.IsMap()) r.fail("(top level)", "expected a mapping of sections", &root);
    DeviceConfig c;
    c.source_path = sources.top();
    c.name = r.str(root, "", "device");
    read_accelerator(r, root, c);
    read_register_blocks(r, root, c);
    RegisterMap map = read_register_map(r, root, c);
    c.mlat_offset = map.quadrant_register("REG_MLAT").offset;
    read_memories(r, root, c);
    check_accelerator_windows(r, c);
    read_cpu(r, root, c);
    read_soc(r, root, c, map);
    c.registers = std::make_shared<const RegisterMap>(std::move(map));
    // Optional: a device whose RISC-V core the project does not describe yet
    // leaves the section out; dual-core images are then refused.
    if (root["riscv"]) read_riscv(Section(r, root, "", "riscv"), c.riscv);
    read_clocks_and_bus(r, root, c);
    read_timing(r, root, c.timing);
    c.energy = read_energy_config(r, root);
    c.rtl_testbench = read_rtl_testbench_config(r, root, c);
    return c;
}

}  // namespace

DeviceConfig parse_device_config(const std::string& yaml_text, const std::string& source) {
    DescriptionSources sources(source);
    const YAML::Node root = load_description(yaml_text, source, sources);
    return parse(root, sources);
}

DeviceConfig load_device_config(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw ConfigError(path + ": cannot open device description");
    std::ostringstream text;
    text << in.rdbuf();
    return parse_device_config(text.str(), path);
}

std::string bundled_device_config_dir() {
    // A library installed elsewhere (cmake --install) may run where its source
    // tree no longer exists; its device files then sit under the install prefix.
    const std::string in_source = AI8XSIM_SOURCE_DIR "/configs";
    if (std::ifstream(in_source + "/max78000.yaml").good()) return in_source;
    return AI8XSIM_INSTALL_CONFIG_DIR;
}

std::string default_device_config_path() {
    if (const char* env = std::getenv("AI8XSIM_CONFIG"); env && *env) return env;
    return bundled_device_config_dir() + "/max78000.yaml";
}

}  // namespace ai8x
