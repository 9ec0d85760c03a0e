// Stream plan (docs/streaming.md §9 step 3): the chain decoded from each
// streaming vector's registers (cnn.c, as the firmware writes them) must equal
// what the generator's formulas (§3) give for the layer shapes INDEX.md states.
// The formulas are recomputed here from the shapes, independently of the decoder.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "model/stream/stream_plan.h"
#include "testbench/unit/model/stream_vectors.h"
#include "testbench/unit/test_support.h"

using namespace ai8x;

namespace {

using test::kVectors;

unsigned ceil_div(unsigned a, unsigned b) { return (a + b - 1) / b; }
unsigned round_up(unsigned a, unsigned m) { return ceil_div(a, m) * m; }

// --increase-start of the generator run (default 2), from meta.json.
unsigned increase_start(const std::string& name) {
    std::ifstream in(kVectors + "/" + name + "/meta.json");
    REQUIRE(in);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    const auto at = text.find("--increase-start");
    if (at == std::string::npos) return 2;
    return static_cast<unsigned>(std::stoul(text.substr(at + std::string("--increase-start").size() + 1)));
}

struct Expected {
    unsigned start, delta1, delta2, fmax, invol, tptr_sad, tptr_max;
};

// §3, MAX78000 branch, for layer `k` of the chain; processors hold 64 channels per pass.
Expected generator_values(const test::IndexVector& v, std::size_t k, unsigned inc) {
    const test::IndexLayer& l = v.layers[k];
    const unsigned passes = ceil_div(l.channels, 64);
    const unsigned ph = l.pool_rows, pw = l.pool_cols, sh = l.pool_stride_rows, sw = l.pool_stride_cols;
    const unsigned extra = std::max({1u, sw, pw});  // max(kernel stride, pool stride, pool width)
    Expected e{};
    if (k == 0) {
        e.start = ((ph - 1) * l.cols + pw) * ph;
        e.delta1 = sw - 1;
        e.delta2 = (ph - 1) * l.cols;
        e.fmax = v.chw ? 12 : round_up(e.start + (ph - 1) * l.cols + extra, passes);
    } else {
        const test::IndexLayer& p = v.layers[k - 1];
        const unsigned wp = p.pooled_cols() + 2 * p.pad_cols;
        e.start = wp * (p.kernel_rows - 1 + ph - 1) + (p.kernel_cols - 1) + pw + inc;
        e.delta1 = sw;
        e.delta2 = (sh - 1) * wp + pw;
        e.fmax = round_up(e.start + (ph - 1) * l.cols + extra, passes);
    }
    for (std::size_t m = 0; m < k; ++m) {
        const test::IndexLayer& q = v.layers[m];
        e.invol += ceil_div(q.channels, 64);
        e.tptr_sad += (q.pooled_cols() + 2 * q.pad_cols - q.kernel_cols + 1) * ceil_div(q.channels, 64);
    }
    e.tptr_max = e.tptr_sad + (l.pooled_cols() + 2 * l.pad_cols - l.kernel_cols + 1) - 1;
    return e;
}

}  // namespace

TEST_CASE("stream plan of every streaming vector matches the generator's formulas", "[stream][plan]") {
    const DeviceConfig cfg = load_device_config(default_device_config_path());
    const std::vector<std::string> names = test::streaming_vector_names(kVectors);
    REQUIRE(names.size() >= 16);
    REQUIRE(std::find(names.begin(), names.end(), "demo-cats-dogs") != names.end());
    for (const auto& name : names) {
        INFO("vector " << name);
        const test::IndexVector iv = test::index_vector(kVectors, name);
        AcceleratorState state(cfg);
        test::apply_vector(test::load_vector(kVectors + "/" + name), state);
        const StreamPlan plan = make_stream_plan(state);
        for (const auto& w : plan.warnings)
            UNSCOPED_INFO("warning layer " << w.layer << " " << w.reg << ": " << w.message);
        CHECK(plan.warnings.empty());
        CHECK(plan.fifo_mode);
        CHECK(plan.streaming);
        CHECK(plan.chw == iv.chw);
        const auto streaming_layers = static_cast<std::size_t>(
            std::count_if(iv.layers.begin(), iv.layers.end(), [](const test::IndexLayer& l) { return l.streaming; }));
        REQUIRE(plan.chain.size() == streaming_layers);
        const test::IndexLayer& first = iv.layers.front();
        const unsigned pixels = first.rows * first.cols;
        CHECK(plan.frame_words == (iv.chw ? ceil_div(pixels, 4) : pixels));
        const unsigned inc = increase_start(name);
        for (std::size_t k = 0; k < plan.chain.size(); ++k) {
            INFO("chain layer " << k);
            const StreamLayer& s = plan.chain[k];
            const Expected e = generator_values(iv, k, inc);
            CHECK(s.layer() == iv.layers[k].layer);
            CHECK(s.start == e.start);
            CHECK(s.delta1 == e.delta1);
            CHECK(s.delta2 == e.delta2);
            CHECK(s.fmax == e.fmax);
            CHECK(s.invol == e.invol);
            CHECK(s.tptr_sad == e.tptr_sad);
            CHECK(s.tptr_max == e.tptr_max);
            CHECK(s.scan_cols == iv.layers[k].pooled_cols() + 2 * iv.layers[k].pad_cols);
            CHECK(s.scan_rows == iv.layers[k].pooled_rows() + 2 * iv.layers[k].pad_rows);
        }
    }
}

TEST_CASE("stream plan warns about inconsistent streaming registers", "[stream][plan]") {
    const DeviceConfig cfg = load_device_config(default_device_config_path());
    AcceleratorState state(cfg);
    test::apply_vector(test::load_vector(kVectors + "/demo-cats-dogs"), state);
    REQUIRE(make_stream_plan(state).warnings.empty());

    auto has = [](const StreamPlan& p, int layer, const std::string& reg) {
        return std::any_of(p.warnings.begin(), p.warnings.end(),
                           [&](const EngineWarning& w) { return w.layer == layer && w.reg == reg; });
    };
    const int q = make_stream_plan(state).chain[1].cfg.lead_quadrant;
    SECTION("INVOL differing from the earlier passes") {
        state.quadrant[q].lreg[LREG_STREAM2][1] += 1;
        CHECK(has(make_stream_plan(state), 1, "LREG_STREAM2"));
    }
    SECTION("TRAM regions of two streaming layers overlapping") {
        state.quadrant[q].lreg[LREG_TPTR][1] = state.quadrant[q].lreg[LREG_TPTR][0];
        CHECK(has(make_stream_plan(state), 1, "LREG_TPTR"));
    }
    SECTION("layer 0 start beyond its ring") {
        const int q0 = make_stream_plan(state).chain[0].cfg.lead_quadrant;
        const uint32_t fmax = state.quadrant[q0].lreg[LREG_FMAX][0];
        state.quadrant[q0].lreg[LREG_STREAM1][0] = fmax + 1;
        CHECK(has(make_stream_plan(state), 0, "LREG_STREAM1"));
    }
    SECTION("rollover on a layer after the chain") {
        const StreamPlan before = make_stream_plan(state);
        const int after = before.chain.back().layer() + 2;
        state.quadrant[q].lreg[LREG_FMAX][after] = 16;
        const StreamPlan p = make_stream_plan(state);
        CHECK(p.chain.size() == before.chain.size());
        CHECK(has(p, after, "LREG_FMAX"));
    }
}
