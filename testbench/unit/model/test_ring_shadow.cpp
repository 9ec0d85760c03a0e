// Ring shadow (docs/streaming.md §4.1, §4.7): what a ring slot holds after the
// writer made n steps — the intended word, an older lap (stale), a newer lap
// (overrun) or the memory's previous content — and the final memory image.
#include <catch2/catch.hpp>

#include <random>

#include "model/stream/ring_shadow.h"

using namespace ai8x;

namespace {

// A writer producing word d = 100 + d at unwrapped offset start + d, `unit` words per step.
void fill(RingShadow& ring, uint32_t instance, uint32_t start, uint32_t words) {
    for (uint32_t d = 0; d < words; ++d) *ring.word(instance, start + d) = 100 + d;
}

}  // namespace

TEST_CASE("ring shadow returns the slot content at the writer's progress", "[stream][ring]") {
    const DeviceConfig cfg = load_device_config(default_device_config_path());
    AcceleratorState state(cfg);
    const uint32_t start = 16, size = 4, inst = 1;
    std::vector<std::vector<uint32_t>> before = state.data_sram.snapshot();
    before[inst][start + 1] = 0xabcd;  // what memory held before the inference
    RingShadow ring(state, start, size, 1);
    fill(ring, inst, start, 10);  // words 0..9 into a ring of four slots

    // Slot start+1 receives words 1, 5, 9.
    CHECK(ring.slot_value(inst, start + 1, 0, before) == 0xabcd);  // nothing written yet
    CHECK(ring.slot_value(inst, start + 1, 1, before) == 0xabcd);  // word 0 went to slot 0
    CHECK(ring.slot_value(inst, start + 1, 2, before) == 101);     // word 1
    CHECK(ring.slot_value(inst, start + 1, 5, before) == 101);     // word 5 not yet
    CHECK(ring.slot_value(inst, start + 1, 6, before) == 105);     // overwritten by word 5
    CHECK(ring.slot_value(inst, start + 1, 100, before) == 109);   // the last lap
    // Outside the ring the shadow never answers: memory as it was.
    CHECK(ring.slot_value(inst, start + size, 100, before) == before[inst][start + size]);

    // Reads through a source: consumer word n at read position p sees slot n mod size at progress[p].
    const std::vector<uint64_t> progress = {2, 6};
    const RingSource source(ring, progress, start, size, before);
    CHECK(source.word(inst, 1, 0) == 101);  // intended word
    CHECK(source.word(inst, 1, 1) == 105);  // overrun: a newer lap
    CHECK(source.word(inst, 5, 0) == 101);  // stale: word 5 not written, slot still holds word 1

    // Committed memory holds the last word written to each slot.
    ring.commit();
    CHECK(state.data_sram[inst][start + 0] == 108);
    CHECK(state.data_sram[inst][start + 1] == 109);
    CHECK(state.data_sram[inst][start + 2] == 106);
    CHECK(state.data_sram[inst][start + 3] == 107);
}

TEST_CASE("ring shadow counts progress in writer steps of several words", "[stream][ring]") {
    const DeviceConfig cfg = load_device_config(default_device_config_path());
    AcceleratorState state(cfg);
    const std::vector<std::vector<uint32_t>> before = state.data_sram.snapshot();
    // Two words per output pixel (two passes), ring of six words = three pixels.
    RingShadow ring(state, 0, 6, 2);
    fill(ring, 0, 0, 12);
    CHECK(ring.slot_value(0, 3, 1, before) == 0);  // pixel 1 (words 2, 3) not written after one step
    CHECK(ring.slot_value(0, 3, 2, before) == 103);
    CHECK(ring.slot_value(0, 3, 5, before) == 109);  // pixel 4 (words 8, 9) overwrote it
}

// commit() takes each slot's last written word from the laps' top down; a
// per-word replay in write order is the definition. Gaps make a slot's last
// word come from an earlier lap, or leave the slot as memory had it.
TEST_CASE("ring shadow commit leaves each slot with the last word written to it", "[stream][ring]") {
    const DeviceConfig cfg = load_device_config(default_device_config_path());
    std::mt19937 gen(26);
    for (int trial = 0; trial < 40; ++trial) {
        INFO("trial " << trial);
        const uint32_t start = 8 + gen() % 8, size = 1 + gen() % 12, words = gen() % 60, inst = gen() % 4;
        const bool sparse = trial % 2 == 1;
        AcceleratorState state(cfg);
        std::vector<uint32_t> expected = state.data_sram[inst];
        std::vector<uint8_t> expected_written = state.data_written[inst];
        RingShadow ring(state, start, size, 1);
        for (uint32_t d = 0; d < words; ++d) {
            if (sparse && gen() % 3 == 0) continue;  // this offset never written
            const uint32_t value = 1000 * (trial + 1) + d;
            *ring.word(inst, start + d) = value;
            expected[start + d % size] = value;
            expected_written[start + d % size] = 1;
        }
        ring.commit();
        CHECK(state.data_sram[inst] == expected);
        CHECK(state.data_written[inst] == expected_written);
    }
}

// A source reading its producer's own ring answers the consistent reads from
// the word itself (RingShadow::current); every read must still be what the
// slot held at the read's progress (slot_value, the definition), stale,
// overrun, never written and other rings' reads included.
TEST_CASE("ring source reads equal the slot contents at each read's progress", "[stream][ring]") {
    const DeviceConfig cfg = load_device_config(default_device_config_path());
    std::mt19937 gen(2611);
    for (int trial = 0; trial < 60; ++trial) {
        INFO("trial " << trial);
        const uint32_t start = 4 + gen() % 8, size = 1 + gen() % 10, unit = 1 + gen() % 3, inst = gen() % 3;
        AcceleratorState state(cfg);
        std::vector<std::vector<uint32_t>> before = state.data_sram.snapshot();
        for (uint32_t k = 0; k < 40; ++k) before[inst][k] = 0x5000 + k;
        RingShadow ring(state, start, size, unit);
        const uint32_t words = gen() % 80;
        for (uint32_t d = 0; d < words; ++d)
            if (trial % 3 == 0 || gen() % 4 != 0) *ring.word(inst, start + d) = 7000 + d;
        std::vector<uint64_t> progress(50);
        for (uint64_t& p : progress) p = gen() % (words / unit + 3);
        // Its own ring (same start and size), and a reader whose ring starts one word later.
        for (const uint32_t read_offset : {start, start + 1}) {
            const RingSource source(ring, progress, read_offset, size, before);
            for (int read = 0; read < 300; ++read) {
                const uint64_t offset = gen() % 90, position = gen() % 60;  // positions past the record included
                const uint64_t at = position < progress.size() ? progress[position] : ~uint64_t{0} / 2;
                const uint32_t slot = static_cast<uint32_t>(read_offset + offset % size);
                CHECK(source.word(inst, offset, position) == ring.slot_value(inst, slot, at, before));
            }
        }
    }
}
