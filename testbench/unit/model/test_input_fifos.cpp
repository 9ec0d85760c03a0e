// Input FIFO block (docs/fifo.md §4, §5, §9): bounded queues, full flags at the
// configured depth, words lost to full or disabled FIFOs, independent FIFOs.
#include <catch2/catch.hpp>

#include <deque>
#include <optional>
#include <utility>
#include <vector>

#include "model/fifo/input_fifos.h"
#include "tlm/device_config.h"

using namespace ai8x;

TEST_CASE("input FIFOs fill to the configured depth and then drop words", "[fifo]") {
    const DeviceConfig cfg = load_device_config(default_device_config_path());
    REQUIRE(cfg.fifo_depth >= 2);
    InputFifos f(cfg.fifo_count, cfg.fifo_depth);
    for (uint32_t n = 0; n < cfg.fifo_depth; ++n) {
        CHECK(f.full_flags() == 0u);
        CHECK(f.push(1, 100 + n, true) == InputFifos::Push::Queued);
    }
    CHECK(f.full_flags() == 2u);  // FIFO 1 only
    CHECK(f.push(1, 999, true) == InputFifos::Push::DroppedFull);
    CHECK(f.occupancy(1) == cfg.fifo_depth);
    CHECK(f.dropped(1) == 1);
    CHECK(f.pop(1) == 100);  // oldest first; the dropped word never entered
    CHECK(f.full_flags() == 0u);
    CHECK(f.contents(1).back() == 100 + cfg.fifo_depth - 1);
}

TEST_CASE("a disabled input FIFO loses its words and the others are unaffected", "[fifo]") {
    InputFifos f(4, 8);
    CHECK(f.push(2, 7, false) == InputFifos::Push::DroppedDisabled);
    CHECK(f.occupancy(2) == 0);
    CHECK(f.push(0, 5, true) == InputFifos::Push::Queued);
    CHECK(f.occupancy(0) == 1);
    CHECK(f.dropped_total() == 1);
    f.clear(0);
    CHECK(f.occupancy(0) == 0);
}

TEST_CASE("enabled FIFOs that are empty next to a full one are reported as starved", "[fifo]") {
    InputFifos f(4, 2);
    const uint32_t enabled = 0x7;             // FIFOs 0-2
    CHECK(f.starved_by_full(enabled) == 0u);  // nothing full yet
    f.push(0, 1, true);
    f.push(0, 2, true);
    CHECK(f.starved_by_full(enabled) == 0x6u);  // FIFO 0 full, FIFOs 1 and 2 empty
    CHECK(f.starved_by_full(0x1) == 0u);        // FIFO 0 alone is just full
    f.push(1, 3, true);
    CHECK(f.starved_by_full(enabled) == 0x4u);
    f.push(3, 4, true);  // FIFO 3 is not enabled: not counted
    CHECK(f.starved_by_full(enabled) == 0x4u);
    f.pop(0);
    CHECK(f.starved_by_full(enabled) == 0u);  // no FIFO full any more
}

TEST_CASE("a FIFO word counts from its arrival on, and the next arrival is the earliest over all FIFOs", "[fifo]") {
    InputFifos f(4, 8);
    // A writer running ahead of SystemC time stamps each word with its own instant.
    for (uint64_t t : {10, 20, 30}) REQUIRE(f.push(0, uint32_t(t), true, t) == InputFifos::Push::Queued);
    REQUIRE(f.push(2, 25, true, 25) == InputFifos::Push::Queued);
    CHECK(f.arrived_by(0, 9) == 0);
    CHECK(f.arrived_by(0, 10) == 1);  // a word is there at its own instant
    CHECK(f.arrived_by(0, 29) == 2);
    CHECK(f.arrived_by(0, 1000) == 3);
    CHECK(f.arrived_by(1, 1000) == 0);
    CHECK(f.next_arrival_after(0) == std::optional<uint64_t>(10));
    CHECK(f.next_arrival_after(10) == std::optional<uint64_t>(20));
    CHECK(f.next_arrival_after(20) == std::optional<uint64_t>(25));  // FIFO 2's word comes before FIFO 0's third
    CHECK(f.next_arrival_after(25) == std::optional<uint64_t>(30));
    CHECK_FALSE(f.next_arrival_after(30).has_value());
    // Occupancy and the full flags count every queued word, arrived or not:
    // the writer sees the FIFO as it filled it.
    CHECK(f.occupancy(0) == 3);
    CHECK(f.pop(0) == 10);
    CHECK(f.arrived_by(0, 20) == 1);
    CHECK(f.next_arrival_after(0) == std::optional<uint64_t>(20));
    f.clear(0);
    CHECK(f.next_arrival_after(0) == std::optional<uint64_t>(25));
}

TEST_CASE("input FIFOs keep order, arrivals and flags across many wraps of their storage", "[fifo]") {
    // A reference queue per FIFO (a deque of words and arrivals) against the
    // FIFOs over pushes and pops that go round their storage many times, with
    // pops of empty FIFOs, drops at the depth and clears in between.
    const uint32_t depth = 5;
    InputFifos f(3, depth);
    std::vector<std::deque<std::pair<uint32_t, uint64_t>>> ref(3);
    uint32_t seed = 12345;
    const auto next = [&] { return seed = seed * 1103515245u + 12345u, (seed >> 16) & 0x7fff; };
    uint64_t now = 0;
    for (int step = 0; step < 5000; ++step) {
        const uint32_t fifo = next() % 3, op = next() % 16;
        now += next() % 3;
        if (op < 8) {
            const uint32_t word = next();
            const bool room = ref[fifo].size() < depth;
            CHECK(f.push(fifo, word, true, now) == (room ? InputFifos::Push::Queued : InputFifos::Push::DroppedFull));
            if (room) ref[fifo].emplace_back(word, now);
        } else if (op < 15) {
            CHECK(f.pop(fifo) == (ref[fifo].empty() ? 0u : ref[fifo].front().first));
            if (!ref[fifo].empty()) ref[fifo].pop_front();
        } else {
            f.clear(fifo);
            ref[fifo].clear();
        }
        uint32_t full = 0;
        std::optional<uint64_t> next_arrival;
        const uint64_t probe = now - std::min<uint64_t>(now, next() % 4);
        for (uint32_t i = 0; i < 3; ++i) {
            std::vector<uint32_t> words;
            uint32_t arrived = 0;
            for (const auto& [w, at] : ref[i]) {
                words.push_back(w);
                arrived += at <= probe;
                if (at > probe && (!next_arrival || at < *next_arrival)) next_arrival = at;
            }
            REQUIRE(f.contents(i) == words);
            REQUIRE(f.occupancy(i) == ref[i].size());
            REQUIRE(f.arrived_by(i, probe) == arrived);
            if (ref[i].size() == depth) full |= 1u << i;
        }
        REQUIRE(f.full_flags() == full);
        REQUIRE(f.next_arrival_after(probe) == next_arrival);
    }
}
