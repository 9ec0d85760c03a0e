#include "app/rtl_testbench.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include <spdlog/spdlog.h>

#include "model/accelerator.h"
#include "model/engine/layer_config.h"
#include "model/sequencing.h"

namespace fs = std::filesystem;

namespace ai8x {

namespace {

// The testbench's CNN_ENA is quadrant 0's enable (run_test.sv: x16proc[0]).
constexpr uint32_t kEnableQuadrant = 0;

std::string hex_digits(const MemoryFileWord& w) {
    static const char hex[] = "0123456789abcdef";
    std::string s;
    for (unsigned d = w.digits; d-- > 0;) {
        const unsigned shift = 4 * (d % 16);
        const bool known = (w.known[d / 16] >> shift & 0xF) != 0;
        s += known ? hex[w.value[d / 16] >> shift & 0xF] : 'x';
    }
    return s;
}

std::string word_text(uint32_t v, bool written) {
    char s[9];
    std::snprintf(s, sizeof s, "%08x", v);
    return written ? std::string(s) : std::string(8, 'x');
}

// Every .dat file of one folder of `dir`, each resolved to the part its name
// names among the memory kinds that use that folder.
std::vector<RtlFileOfPart> read_folder_files(const DeviceConfig& cfg, const std::string& dir, const std::string& sub,
                                             const std::vector<const RtlMemoryFiles*>& kinds) {
    std::map<std::string, std::pair<const RtlMemoryFiles*, RtlMemoryPart>> by_name;
    std::string expected_names;
    for (const RtlMemoryFiles* k : kinds) {
        for (const RtlMemoryPart& p : rtl_memory_parts(cfg, *k)) by_name[p.file] = {k, p};
        expected_names += (expected_names.empty() ? "" : " or ") + k->name;
    }
    std::vector<RtlFileOfPart> out;
    const fs::path folder = fs::path(dir) / sub;
    if (!fs::is_directory(folder)) return out;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(folder))
        if (e.is_regular_file() && e.path().extension() == ".dat") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
        const auto it = by_name.find(f.filename().string());
        if (it == by_name.end())
            throw RtlFolderError(f.string() + ": names no memory of the " + cfg.name + " (expected " + expected_names +
                                 ", " + cfg.source_path + " rtl_testbench)");
        RtlFileOfPart file{it->second.first, it->second.second, f.string(), {}};
        const ArrayGeometry& g = *rtl_memory_geometry(cfg, file.kind->memory);
        file.words = read_memory_file(file.path, g.word_bits);
        for (const MemoryFileWord& w : file.words)
            if (w.address >= file.part.words)
                throw MemoryFileError(file.path + ":" + std::to_string(w.line) + ": word address 0x" +
                                      to_hex(w.address).substr(2) + " is beyond the " +
                                      std::to_string(file.part.words) + " words of this part");
        out.push_back(std::move(file));
    }
    return out;
}

// The files of every folder the description names for `member` (preload or expected).
std::vector<RtlFileOfPart> read_part_files(const DeviceConfig& cfg, const std::string& dir,
                                           std::string RtlMemoryFiles::*member) {
    std::map<std::string, std::vector<const RtlMemoryFiles*>> by_folder;
    for (const RtlMemoryFiles& k : cfg.rtl_testbench.memory_files)
        if (!(k.*member).empty()) by_folder[k.*member].push_back(&k);
    std::vector<RtlFileOfPart> out;
    for (const auto& [sub, kinds] : by_folder)
        for (auto& f : read_folder_files(cfg, dir, sub, kinds)) out.push_back(std::move(f));
    return out;
}

bool contains(const std::vector<uint32_t>& v, uint32_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

}  // namespace

std::string RtlMismatch::summary() const {
    std::string s = file + ": " + instance + " word " + to_hex(word) + " (bus " + to_hex(bus_address) + "): expected " +
                    expected + ", got " + got;
    s += layer >= 0 ? ", last written by layer " + std::to_string(layer) : ", no layer wrote this memory";
    s += " (" + std::to_string(mismatches) + " mismatching, " + std::to_string(matches) + " matching words)";
    return s;
}

RtlTestbench::RtlTestbench(const DeviceConfig& cfg, const RtlFolder& folder, Accelerator& accel)
    : cfg_(cfg), folder_(folder), accel_(accel), cnn_en_(register_fields(cfg).REG_CTL.CNN_EN) {
    preloads_ = read_part_files(cfg, folder.dir, &RtlMemoryFiles::preload_folder);
    expected_ = read_part_files(cfg, folder.dir, &RtlMemoryFiles::expected_folder);
    // The RTL would load x into the memory; the model's memories hold values.
    for (const RtlFileOfPart& f : preloads_)
        for (const MemoryFileWord& w : f.words)
            if (hex_digits(w).find('x') != std::string::npos)
                throw MemoryFileError(f.path + ":" + std::to_string(w.line) + ": preload value " + hex_digits(w) +
                                      " has unknown (x) digits");
}

void RtlTestbench::display(const std::string& line) {
    display_.push_back(line);
    if (on_display) on_display(line);
}

void RtlTestbench::on_transaction(const BusEvent& ev) {
    if (ev.command != tlm::TLM_WRITE_COMMAND || start_) return;
    const bool enabled = cnn_en_.is_set(accel_.state().quadrant[kEnableQuadrant].ctl);
    const bool rising = enabled && !was_enabled_;
    was_enabled_ = enabled;
    if (!rising) return;
    start_ = ev.time;
    load_preloads();
    display("CNN enabled");
    check_first_layer_input();
}

void RtlTestbench::load_preloads() {
    AcceleratorState& s = accel_.state();
    for (const RtlFileOfPart& f : preloads_) {
        if (!contains(folder_.load_groups, f.part.quadrant)) continue;
        const bool data = f.kind->memory == "data_sram";
        for (const MemoryFileWord& w : f.words) {
            const uint64_t at = f.part.first_word + w.address;
            if (data) {
                s.data_sram_arrays[f.part.instance].words[at] = uint32_t(w.value[0]);
                s.data_sram_arrays[f.part.instance].written[at] = 1;
                continue;
            }
            KernelWord& k = s.kernel_arrays[f.part.instance].words[at];
            for (unsigned b = 0; b < 9; ++b) {
                // The file's first byte is bus byte 0, the word's last in fill order (KernelWord).
                const unsigned shift = 8 * (8 - b);
                k[8 - b] = uint8_t((shift >= 64 ? w.value[1] >> (shift - 64) : w.value[0] >> shift) & 0xFF);
            }
            s.kernel_arrays[f.part.instance].written[at] = 1;
        }
    }
}

// A preload folder whose first layer reads data memory that no preload and no
// CPU write filled: the file that would have filled it is missing. (Folders
// without load tasks, and FIFO-fed inferences, take their input otherwise.)
void RtlTestbench::check_first_layer_input() {
    if (folder_.load_groups.empty() || !on_bad_input) return;
    const AcceleratorState& s = accel_.state();
    const SequencePlan plan = plan_sequence(s);
    if (!plan.runs() || plan.fifo_mode || plan.layers().empty()) return;
    std::vector<EngineWarning> ignored;
    const std::optional<LayerConfig> c = decode_layer(s, plan.layers().front(), plan.enabled_quadrants, ignored);
    if (!c) return;
    const RtlMemoryFiles* data = nullptr;
    for (const RtlMemoryFiles& k : cfg_.rtl_testbench.memory_files)
        if (k.memory == "data_sram" && !k.preload_folder.empty()) data = &k;
    if (!data) return;
    const uint64_t pixels = uint64_t{c->in_rows} * c->in_cols;
    // The words input_fetch reads: four pixels a word (CHW), else passes * operands words a pixel.
    const uint64_t words = c->chw_input ? (pixels + 3) / 4 : pixels * c->passes * c->operands;
    for (const LayerProcessor& p : c->processors) {
        const uint32_t instance = uint32_t(p.global) / cfg_.processors_per_data_sram;
        const std::vector<uint8_t>& written = s.data_written[instance];
        uint64_t w = c->read_base;
        while (w < c->read_base + words && w < written.size() && written[w]) ++w;
        if (w == c->read_base + words || w >= written.size()) continue;
        for (const RtlMemoryPart& part : rtl_memory_parts(cfg_, *data)) {
            if (part.instance != instance || w < part.first_word || w >= part.first_word + part.words) continue;
            const fs::path file = fs::path(folder_.dir) / data->preload_folder / part.file;
            if (fs::exists(file)) return;  // present but short: the comparison will show it
            on_bad_input(file.string() + ": missing: layer " + std::to_string(c->layer) + " reads " +
                         s.names.data_sram[instance] + " from word " + to_hex(w - part.first_word) +
                         " of this part (processor " + std::to_string(p.global) +
                         "), which no preload file and no CPU write filled");
            return;
        }
    }
}

// Cycles between the master enable and the rise of the processors' enable:
// a FIFO-fed inference without streaming starts its first layer only when
// the whole frame is in (the generator sets REG_STREAM1 to the frame size),
// and every stall of such an inference is that wait. The generator's
// estimate (latency.txt), which the folder's verify-output.py requires
// CNN Cycles to equal, counts no time for the program to fill the FIFOs
// however fast it is, so the testbench's CNN_ENA (x16proc[0].xproc.xuut.cnnena,
// the processor's enable) rises when the frame is complete (docs/rtl-flow.md).
// In streaming mode the layers start on a prefill and run while words arrive:
// the count keeps every stall there.
uint64_t RtlTestbench::frame_wait_cycles() const {
    const SequencePlan plan = plan_sequence(accel_.state());
    if (!plan.fifo_mode || plan.streaming) return 0;
    return accel_.last_timing().stall_cycles;
}

void RtlTestbench::on_irq(bool level) {
    if (!level || !start_ || cnn_cycles_) return;
    // run_test.sv: the fall is seen enable_delay_ns later (chk_clk), and the
    // cycle count is ceil((end - start) / period) - 1 with the CNN clock's period.
    const double hz = accel_.inference_clock_hz() > 0 ? accel_.inference_clock_hz() : accel_.cnn_clock_hz();
    const double end_ps = sc_core::sc_time_stamp().to_seconds() * 1e12 + folder_.enable_delay_ns * 1e3;
    const double period_ps = 1e12 / hz;
    frame_wait_ = frame_wait_cycles();
    const double span = (end_ps - start_->to_seconds() * 1e12) / period_ps - double(frame_wait_);
    // The times are whole picoseconds: a span a hair above an integer is that integer.
    cnn_cycles_ = uint64_t(std::max(0.0, std::ceil(span - 1e-9) - 1));
    take_dumps();
    display("CNN Cycles = " + std::to_string(*cnn_cycles_));
    compare_expected();
}

void RtlTestbench::take_dumps() {
    AcceleratorState& s = accel_.state();
    for (const RtlMemoryFiles& k : cfg_.rtl_testbench.memory_files) {
        if (k.dump_folder.empty() || k.memory != "data_sram") continue;
        for (const RtlMemoryPart& part : rtl_memory_parts(cfg_, k)) {
            if (!contains(folder_.dump_groups, part.quadrant)) continue;
            const DataSramArray& a = s.data_sram_arrays[part.instance];
            RtlDump d{&k, part, {}, {}, -1};
            d.words.assign(a.words.begin() + part.first_word, a.words.begin() + part.first_word + part.words);
            d.written.assign(a.written.begin() + part.first_word, a.written.begin() + part.first_word + part.words);
            for (size_t l = 0; l < a.activity.by_layer.size(); ++l)
                if (a.activity.by_layer[l].writes) d.last_layer = int(l);
            dumps_.push_back(std::move(d));
        }
    }
}

void RtlTestbench::compare_expected() {
    std::optional<RtlMismatch>& first = mismatch_;
    uint64_t mismatches = 0, matches = 0;
    for (const RtlFileOfPart& e : expected_) {
        const RtlDump* dump = nullptr;
        for (const RtlDump& d : dumps_)
            if (d.kind == e.kind && d.part.file == e.part.file) dump = &d;
        const ArrayGeometry& g = *rtl_memory_geometry(cfg_, e.kind->memory);
        for (const MemoryFileWord& w : e.words) {
            const bool written = dump && dump->written[w.address];
            const uint32_t got = dump ? dump->words[w.address] : 0;
            if (written && ((got ^ uint32_t(w.value[0])) & uint32_t(w.known[0])) == 0) {
                ++matches;
                continue;
            }
            if (mismatches++ || first) continue;
            const uint64_t word = e.part.first_word + w.address;
            const uint32_t in_quadrant = e.part.instance % g.instances_per_quadrant;
            first = RtlMismatch{
                fs::path(e.path).parent_path().filename().string() + "/" + e.part.file,
                accel_.state().names.data_sram[e.part.instance],
                w.address,
                g.base + e.part.quadrant * g.quadrant_stride + in_quadrant * g.instance_stride + word * g.slot_bytes,
                hex_digits(w),
                dump ? word_text(got, written) : "nothing (run_test.sv does not dump this quadrant)",
                dump ? dump->last_layer : -1};
        }
    }
    matched_words_ = matches;
    if (first) {
        first->mismatches = mismatches;
        first->matches = matches;
    }
}

}  // namespace ai8x
