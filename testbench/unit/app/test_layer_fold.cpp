// ai8xsim-layer-diff's unfolding of layers the generator programs folded:
// multi-pass passthrough (passes as extra rows) and dilated 1-D data (rows of
// `dilation` columns). Synthetic dumps with known layouts.
#include <catch2/catch.hpp>

#include "tools/layer_fold.h"

using namespace ai8x;

namespace {
LayerOutput dump(uint32_t c, uint32_t r, uint32_t w) {
    LayerOutput d;
    d.channels = c;
    d.rows = r;
    d.cols = w;
    d.values.resize(std::size_t(c) * r * w);
    for (std::size_t i = 0; i < d.values.size(); ++i) d.values[i] = int64_t(i) * 3 - 50;
    return d;
}
}  // namespace

TEST_CASE("layer fold: a dump of the log's shape is compared as it is", "[layer_diff]") {
    const LayerOutput d = dump(5, 2, 3);
    const AlignedDump a = align_dump(d, reference::Tensor(4, 2, 3));
    REQUIRE(a.shape_ok);
    CHECK(a.layout.empty());
    CHECK(a.values.at(3, 1, 2) == d.values[(3 * 2 + 1) * 3 + 2]);
}

TEST_CASE("layer fold: passes programmed as rows map back to channels", "[layer_diff]") {
    // 2 processors x 3 passes of a 2x2 image: dump 2 channels x 12 pixels.
    const LayerOutput d = dump(2, 6, 2);
    const AlignedDump a = align_dump(d, reference::Tensor(6, 2, 2));
    REQUIRE(a.shape_ok);
    CHECK_FALSE(a.layout.empty());
    // Channel j*2 + i, pixel p is dump channel i, pixel p*3 + j.
    for (int ch = 0; ch < 6; ++ch)
        for (int p = 0; p < 4; ++p)
            CHECK(a.values.at(ch, p / 2, p % 2) == d.values[std::size_t(ch % 2) * 12 + p * 3 + ch / 2]);
}

TEST_CASE("layer fold: folded 1-D data is found after its leading rows", "[layer_diff]") {
    const LayerOutput d = dump(1, 4, 3);  // 12 elements
    reference::Tensor want(1, 7, 1);
    for (int j = 0; j < 7; ++j) want.at(0, j, 0) = d.values[3 + j];  // starts at row 1
    const AlignedDump a = align_dump(d, want);
    REQUIRE(a.shape_ok);
    CHECK(a.layout.find("from row 1") != std::string::npos);
    CHECK(a.values.values == want.values);
    // Values that match at no row offset are compared from row 0, so they differ.
    want.at(0, 3, 0) = 999;
    const AlignedDump b = align_dump(d, want);
    REQUIRE(b.shape_ok);
    CHECK(b.layout.find("from row 0") != std::string::npos);
    CHECK(b.values.values != want.values);
}

TEST_CASE("layer fold: an unrelated shape is a shape mismatch", "[layer_diff]") {
    CHECK_FALSE(align_dump(dump(4, 3, 3), reference::Tensor(4, 2, 5)).shape_ok);
    CHECK_FALSE(align_dump(dump(2, 3, 3), reference::Tensor(4, 3, 3)).shape_ok);
}
