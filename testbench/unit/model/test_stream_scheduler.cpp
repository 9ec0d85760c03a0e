// Stream scheduler (docs/streaming.md §9 step 4) on the golden vectors'
// registers: the §8 properties (no hazard, no overrun, no deadlock, smallest
// threshold margin = the generator's --increase-start, rings large enough),
// per-position costs that add up to the timing model's layer cycles, the §6.1
// hazard with a deliberately reduced delta, a delta sweep, and producer-first
// scheduling as a negative control. Register values come from each vector's
// cnn.c at test time.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "model/stream/stream_session.h"
#include "model/timing/scan_cost.h"
#include "testbench/unit/model/stream_vectors.h"
#include "testbench/unit/test_support.h"

using namespace ai8x;

namespace {

using test::kVectors;

struct Loaded {
    DeviceConfig cfg;
    test::GoldenVector vec;
    std::unique_ptr<AcceleratorState> state;
};

Loaded load(const std::string& name) {
    Loaded l{load_device_config(default_device_config_path()), test::load_vector(kVectors + "/" + name), nullptr};
    l.state = std::make_unique<AcceleratorState>(l.cfg);
    test::apply_vector(l.vec, *l.state);
    return l;
}

bool has_kind(const std::vector<StreamHazard>& hazards, int layer, const std::string& kind) {
    return std::any_of(hazards.begin(), hazards.end(),
                       [&](const StreamHazard& h) { return h.layer == layer && h.kind == kind; });
}

}  // namespace

TEST_CASE("streaming vectors schedule without hazards or deadlock and never overrun a ring", "[stream][scheduler]") {
    const std::vector<std::string> names = test::streaming_vector_names(kVectors);
    REQUIRE(names.size() >= 16);
    for (const auto& name : names) {
        INFO("vector " << name);
        Loaded l = load(name);
        StreamSession session(*l.state, l.cfg.timing);
        const StreamPlan& plan = session.plan();
        REQUIRE(!plan.chain.empty());
        session.run_with_frame(test::fifo_frame(l.vec, l.cfg));
        const StreamScheduler& s = session.scheduler();
        CHECK(s.done());
        CHECK(s.consumed_words() == plan.frame_words);
        for (const auto& h : s.hazards()) UNSCOPED_INFO(h.kind << " layer " << h.layer << ": " << h.message);
        CHECK(s.hazards().empty());
        for (std::size_t k = 0; k < plan.chain.size(); ++k) {
            const auto& r = s.layers()[k];
            INFO("chain layer " << k);
            std::printf("%s layer %d: work %llu cycles, span %llu..%llu, margin %lld, ring %llu/%llu px\n",
                        name.c_str(), r.layer, (unsigned long long)r.work_cycles, (unsigned long long)r.first_cycle,
                        (unsigned long long)r.last_cycle, (long long)(k ? r.min_margin : 0),
                        (unsigned long long)r.max_ring_pixels, (unsigned long long)r.ring_pixels);
            CHECK(r.max_ring_pixels <= r.ring_pixels);
            // The generator's default --increase-start (2) is the whole margin (§8).
            if (k > 0) CHECK(r.min_margin == 2);
            // Each position costs what it costs in a non-streaming layer (§7).
            const LayerConfig& c = plan.chain[k].cfg;
            CHECK(r.work_cycles ==
                  static_cast<uint64_t>(
                      TimingModel(l.cfg.timing).layer_breakdown(c, layer_timeslots(*l.state, c)).total()));
        }
        // Consumers run interleaved with their producers: a consumer reads real data before its producer ends.
        for (std::size_t k = 1; k < plan.chain.size(); ++k)
            CHECK(s.layers()[k].first_read_cycle < s.layers()[k - 1].last_cycle);
    }
}

TEST_CASE("per-position scan costs add up to the timing model's layer cycles", "[stream][timing]") {
    const std::vector<std::string> names = {"demo-cats-dogs", "t-test-fifostream-expandcontract",
                                            "t-test-fifostream-pool-stride"};
    for (const auto& name : names) {
        Loaded l = load(name);
        const StreamPlan plan = make_stream_plan(*l.state);
        for (const StreamLayer& s : plan.chain) {
            const LayerWalk walk = layer_walk(s.cfg, l.cfg.timing, layer_timeslots(*l.state, s.cfg));
            const ScanCost cost(walk, l.cfg.timing);
            REQUIRE(cost.frame_rows() == s.scan_rows);
            REQUIRE(cost.frame_cols() == s.scan_cols);
            int64_t sum = cost.setup();
            for (int64_t r = 0; r < cost.frame_rows(); ++r)
                for (int64_t c = 0; c < cost.frame_cols(); ++c) sum += cost.position(r, c);
            CHECK(sum == TimingModel(l.cfg.timing).layer_breakdown(walk).total());
        }
    }
}

// The chip writes each output pixel's channels as it computes it, so a FIFO-fed
// layer takes input words between pixels (the vendor's camera programs push
// words without a room check and pass at its paces): an output row's writes
// are spread evenly over its output positions, not charged at its last one.
TEST_CASE("an output row's writes are charged where each output pixel is computed", "[stream][timing]") {
    Loaded l = load("demo-cats-dogs");
    const StreamPlan plan = make_stream_plan(*l.state);
    REQUIRE(!plan.chain.empty());
    const StreamLayer& first = plan.chain[0];
    const LayerWalk walk = layer_walk(first.cfg, l.cfg.timing, layer_timeslots(*l.state, first.cfg));
    REQUIRE(walk.kernel_rows == 3);
    REQUIRE(walk.kernel_cols == 3);
    REQUIRE(walk.output_channels == 16);
    const ScanCost cost(walk, l.cfg.timing);
    // Rows 1 and 2 are data rows (one padding row above); row 2 completes output pixels, row 1 none.
    const int64_t quiet = 1, busy = 2;
    int64_t least = INT64_MAX, most = 0, writes = 0;
    for (int64_t c = walk.kernel_cols - 1; c < cost.frame_cols(); ++c) {
        // The difference is the position's writes, less the write state a position without output costs.
        const int64_t extra = cost.position(busy, c) - cost.position(quiet, c) + l.cfg.timing.write_state;
        least = std::min(least, extra);
        most = std::max(most, extra);
        writes += extra;
    }
    CHECK(writes == walk.output_cols() * walk.output_channels * l.cfg.timing.write_state);
    CHECK(most - least <= 1);
    CHECK(most <= walk.output_channels * l.cfg.timing.write_state);  // one pixel's channels, not a row's
}

TEST_CASE("a reduced row delta makes the consumer read before the producer wrote", "[stream][scheduler][hazard]") {
    Loaded l = load("demo-cats-dogs");
    const StreamPlan generated = make_stream_plan(*l.state);
    REQUIRE(generated.chain.size() >= 2);
    const StreamLayer& consumer = generated.chain[1];
    const int q = consumer.cfg.lead_quadrant;
    const int layer = consumer.layer();
    // Lower DELTA2 by 4 (cats-dogs: 132 -> 128), as a misprogrammed register would.
    uint32_t& reg = l.state->quadrant[q].lreg[LREG_STREAM2][layer];
    const uint32_t delta2 = (reg >> 16) & 0xfff;
    REQUIRE(delta2 >= 4);
    reg = (reg & ~(0xfffu << 16)) | ((delta2 - 4) << 16);

    StreamSession session(*l.state, l.cfg.timing);
    session.run_with_frame(test::fifo_frame(l.vec, l.cfg));
    const auto& hazards = session.hazards();
    REQUIRE(has_kind(hazards, layer, "read_before_write"));
    CHECK(has_kind(hazards, layer, "stale_read"));
    const StreamScheduler& s = session.scheduler();
    const auto it = std::find_if(hazards.begin(), hazards.end(),
                                 [&](const StreamHazard& h) { return h.kind == "read_before_write"; });
    // The first read whose threshold falls below its need, recomputed from the §4.4/§6.1 formulas.
    const StreamLayer& c = session.plan().chain[1];
    const StreamLayer& p = session.plan().chain[0];
    uint32_t first_i = 0;
    int64_t t = 0, n = 0;
    for (uint32_t i = 0; i < c.cfg.pooled_rows; ++i) {
        t = int64_t{c.start} + int64_t{i} * (c.scan_cols - 1) * c.delta1 + int64_t{i} * c.delta2;
        n = (int64_t{c.cfg.pool_stride} * i + c.cfg.pool_rows - 1 + p.cfg.kernel_rows - 1) * p.scan_cols +
            (c.cfg.pool_cols - 1 + p.cfg.kernel_cols - 1) + 1;
        if (t < n) {
            first_i = i;
            break;
        }
    }
    REQUIRE(t < n);
    CHECK(s.threshold(1, first_i, 0) == t);
    CHECK(s.need(1, first_i, 0) == n);
    std::printf("%s\n", it->message.c_str());
    const std::string where = "read (" + std::to_string(first_i) + ",0)";
    CHECK(it->message.find(where) != std::string::npos);
    CHECK(it->message.find("completed " + std::to_string(t) + " scan positions but needs " + std::to_string(n)) !=
          std::string::npos);
    CHECK(it->count >= 1);
    CHECK(it->cycle > 0);
    // The address is a slot of layer 1's input ring in data memory.
    CHECK(it->address >= l.cfg.data_sram.base);
    CHECK((it->address - l.cfg.data_sram.base) % l.cfg.data_sram.instance_stride / l.cfg.data_sram.slot_bytes >=
          c.ring_offset);
    CHECK((it->address - l.cfg.data_sram.base) % l.cfg.data_sram.instance_stride / l.cfg.data_sram.slot_bytes <
          c.ring_offset + c.fmax);
    CHECK(it->message.find("DELTA2=" + std::to_string(delta2 - 4)) != std::string::npos);

    // The data path computes with what the ring held: the known answer no longer matches.
    const EngineResult r = session.finish(false);
    CHECK(!r.hazards.empty());
    CHECK(test::compare_expected(l.vec, *l.state).has_value());
}

TEST_CASE("sweeping the consumer's deltas gives bit-exact results down to a threshold and hazards below it",
          "[stream][scheduler][hazard]") {
    const Loaded base = load("demo-cats-dogs");
    const StreamPlan plan = make_stream_plan(*base.state);
    REQUIRE(plan.chain.size() >= 2);
    const int q = plan.chain[1].cfg.lead_quadrant;
    const int layer = plan.chain[1].layer();
    const uint32_t generated = base.state->quadrant[q].lreg[LREG_STREAM2][layer];
    const uint32_t d2 = (generated >> 16) & 0xfff;
    REQUIRE(d2 >= 8);

    // DELTA2 from the generated value down by 8: every value either passes bit-exact
    // without hazards or reports hazards; the passing ones form a range ending at the generated one.
    int lowest_clean = -1;
    bool hazard_seen = false;
    for (uint32_t v = d2; v + 8 >= d2; --v) {
        Loaded l = load("demo-cats-dogs");
        uint32_t& reg = l.state->quadrant[q].lreg[LREG_STREAM2][layer];
        reg = (reg & ~(0xfffu << 16)) | (v << 16);
        StreamSession session(*l.state, l.cfg.timing);
        session.run_with_frame(test::fifo_frame(l.vec, l.cfg));
        session.finish(false);
        const bool clean = session.hazards().empty();
        const bool exact = !test::compare_expected(l.vec, *l.state).has_value();
        std::printf("DELTA2 %u: %s, %zu hazard kinds\n", v, exact ? "PASS" : "FAIL", session.hazards().size());
        INFO("DELTA2 " << v);
        if (clean) {
            CHECK(exact);
            CHECK(!hazard_seen);  // no clean value below a hazardous one
            lowest_clean = static_cast<int>(v);
        } else {
            hazard_seen = true;
            CHECK(!exact);
        }
        if (v == 0) break;
    }
    CHECK(lowest_clean >= 0);
    CHECK(static_cast<uint32_t>(lowest_clean) <= d2);
    CHECK(hazard_seen);
}

TEST_CASE("producer-first scheduling overruns the consumer's ring (negative control)", "[stream][scheduler]") {
    for (const std::string name : {"demo-cats-dogs", "t-test-fifostream-notvga40x30-hwc"}) {
        INFO("vector " << name);
        Loaded l = load(name);
        StreamSession session(*l.state, l.cfg.timing, StreamScheduler::Policy::ProducerFirst);
        session.run_with_frame(test::fifo_frame(l.vec, l.cfg));
        CHECK(session.scheduler().done());
        CHECK(has_kind(session.hazards(), session.plan().chain[1].layer(), "overrun"));
    }
}
