// OutputWriter::write8_series (issue #14): a channel's outputs written as one
// series must leave data memory, its written flags, the write counts and the
// warnings exactly as the same values written one by one with write8(), in
// one instance, across an instance boundary, beyond the last instance, and
// into a streaming ring (RingShadow::span).
#include <catch2/catch.hpp>

#include <functional>

#include "model/engine/output_writer.h"
#include "model/stream/ring_shadow.h"

using namespace ai8x;

namespace {

struct SeriesOutcome {
    std::vector<std::vector<uint32_t>> words;
    std::vector<std::vector<uint8_t>> written;
    std::vector<uint64_t> writes;  // per data memory instance, for layer 0
    std::vector<std::string> warnings;
};

// The bundled device, read once for all cases.
const DeviceConfig& writer_device() {
    static const DeviceConfig dev = load_device_config(default_device_config_path());
    return dev;
}

// Runs `write` on a fresh state (a few words set beforehand, so byte lanes
// must be merged into what is there) and collects what it left behind.
SeriesOutcome run_writes(const LayerConfig& cfg, const std::function<void(AcceleratorState&, OutputWriter&)>& write) {
    AcceleratorState state(writer_device());
    for (uint32_t i = 0; i < 64; ++i) state.data_sram[1][i] = 0x11223344u * (i + 1);
    std::vector<EngineWarning> warnings;
    {
        OutputWriter writer(state, cfg, warnings);
        write(state, writer);
    }
    SeriesOutcome out;
    for (std::size_t i = 0; i < state.data_sram.size(); ++i) {
        out.words.push_back(state.data_sram[i]);
        out.written.push_back(state.data_written[i]);
        out.writes.push_back(state.data_sram_arrays[i].activity.by_layer[0].writes);
    }
    for (const auto& w : warnings) out.warnings.push_back(w.message);
    return out;
}

std::vector<int8_t> values(std::size_t n) {
    std::vector<int8_t> v(n);
    for (std::size_t k = 0; k < n; ++k) v[k] = static_cast<int8_t>(static_cast<int>(k * 37 % 256) - 128);
    return v;
}

// The series' values as column 1 of rows of three, as a layer's result rows hold them.
constexpr std::size_t kValueStride = 3;
std::vector<int8_t> in_rows(const std::vector<int8_t>& v) {
    // One row more than the values need, so rows.data() + 1 stays inside it for an empty series.
    std::vector<int8_t> rows((v.size() + 1) * kValueStride, 99);
    for (std::size_t k = 0; k < v.size(); ++k) rows[k * kValueStride + 1] = v[k];
    return rows;
}

void check_same(const LayerConfig& cfg, uint32_t base, uint32_t t, uint64_t first, uint64_t stride, std::size_t n) {
    const std::vector<int8_t> v = values(n), rows = in_rows(v);
    const SeriesOutcome one_by_one = run_writes(cfg, [&](AcceleratorState&, OutputWriter& w) {
        for (std::size_t k = 0; k < n; ++k) w.write8(0, base, t, first + k * stride, v[k]);
    });
    const SeriesOutcome series = run_writes(cfg, [&](AcceleratorState&, OutputWriter& w) {
        w.write8_series(0, base, t, first, stride, rows.data() + 1, kValueStride, n);
    });
    CHECK(series.words == one_by_one.words);
    CHECK(series.written == one_by_one.written);
    CHECK(series.writes == one_by_one.writes);
    CHECK(series.warnings == one_by_one.warnings);
}

}  // namespace

TEST_CASE("output series writes equal single writes in data memory", "[engine][writer]") {
    const DeviceConfig& dev = writer_device();
    const uint32_t words = dev.data_sram.words;
    const uint32_t instance = 1u << dev.data_sram.pointer_shift();  // pointer of word 0 of instance 1
    LayerConfig cfg;
    cfg.layer = 0;
    cfg.write_group_offset = 3;
    SECTION("inside one instance, every byte lane, strides 1 and 2") {
        for (uint32_t t = 0; t < 8; ++t) {
            check_same(cfg, instance, t, 5, 1, 40);
            check_same(cfg, instance, t, 7, 2, 20);
        }
    }
    SECTION("a zero stride writes one word over and over") { check_same(cfg, instance, 2, 9, 0, 12); }
    SECTION("crossing into the next instance") { check_same(cfg, instance, 1, words - 10, 1, 30); }
    SECTION("running beyond the last instance warns once and drops the rest") {
        const uint32_t instances = dev.quadrants * dev.data_sram.instances_per_quadrant;
        const uint32_t last = (instances - 1) << dev.data_sram.pointer_shift();
        check_same(cfg, last, 0, words - 4, 1, 10);
    }
    SECTION("an empty series writes nothing") { check_same(cfg, instance, 0, 0, 1, 0); }
}

TEST_CASE("output series writes equal single writes into a streaming ring", "[engine][writer][stream]") {
    const DeviceConfig& dev = writer_device();
    const uint32_t shift = dev.data_sram.pointer_shift();
    LayerConfig cfg;
    cfg.layer = 0;
    cfg.write_group_offset = 0;
    const uint32_t start = 16, size = 6, inst = 1;
    const std::vector<int8_t> v = values(25), rows = in_rows(v);
    // What the consumer would read from every ring slot at several progress
    // counts, and the memory the ring leaves behind.
    const auto ring_view = [&](bool as_series, uint32_t base_word) {
        const uint32_t base = (inst << shift) + base_word;
        AcceleratorState state(dev);
        const auto before = state.data_sram.snapshot();
        RingShadow ring(state, start, size, 1);
        std::vector<EngineWarning> warnings;
        {
            OutputWriter writer(state, cfg, warnings);
            writer.set_sink(&ring);
            for (uint32_t t = 0; t < 4; ++t) {
                if (as_series)
                    writer.write8_series(0, base, t, 3, 2, rows.data() + 1, kValueStride, v.size());
                else
                    for (std::size_t k = 0; k < v.size(); ++k) writer.write8(0, base, t, 3 + k * 2, v[k]);
            }
        }
        std::vector<uint32_t> seen;
        for (uint64_t progress = 0; progress < 64; ++progress)
            for (uint32_t slot = start; slot < start + size; ++slot)
                seen.push_back(ring.slot_value(inst, slot, progress, before));
        ring.commit();
        for (uint32_t slot = 0; slot < start + size + 2; ++slot) {
            seen.push_back(state.data_sram[inst][slot]);
            seen.push_back(state.data_written[inst][slot]);
        }
        seen.push_back(static_cast<uint32_t>(state.data_sram_arrays[inst].activity.by_layer[0].writes));
        return seen;
    };
    CHECK(ring_view(true, start) == ring_view(false, start));
    // A series starting below the ring's start (those words go to memory) is written word by word.
    CHECK(ring_view(true, start - 5) == ring_view(false, start - 5));
}
