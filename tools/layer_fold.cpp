#include "tools/layer_fold.h"

namespace ai8x {

namespace {

int64_t dump_at(const LayerOutput& d, uint64_t ch, uint64_t flat) { return d.values[ch * d.rows * d.cols + flat]; }

// The dump's channel `ch` read row-major from element `start` on, as a 1-D column.
bool matches_from(const LayerOutput& got, const reference::Tensor& want, uint64_t start) {
    for (int ch = 0; ch < want.channels; ++ch)
        for (int j = 0; j < want.height; ++j)
            if (dump_at(got, ch, start + j) != want.at(ch, j, 0)) return false;
    return true;
}

}  // namespace

AlignedDump align_dump(const LayerOutput& got, const reference::Tensor& want) {
    AlignedDump a;
    const uint64_t C = want.channels, H = want.height, W = want.width;
    const uint64_t got_pixels = uint64_t{got.rows} * got.cols;
    a.values = reference::Tensor(want.channels, want.height, want.width);

    if (got.channels >= C && got.rows == H && got.cols == W) {
        a.shape_ok = true;
        for (uint64_t ch = 0; ch < C; ++ch)
            for (uint64_t p = 0; p < H * W; ++p) a.values.values[ch * H * W + p] = dump_at(got, ch, p);
        return a;
    }

    // Passes folded into rows: P channels x (H*W*m) pixels.
    if (H * W > 0 && got_pixels % (H * W) == 0 && got.channels > 0) {
        const uint64_t m = got_pixels / (H * W), P = got.channels;
        if (m >= 2 && P * m >= C && P * (m - 1) < C) {
            a.shape_ok = true;
            a.layout =
                "passes folded into rows (" + std::to_string(m) + " passes of " + std::to_string(P) + " channels)";
            for (uint64_t ch = 0; ch < C; ++ch)
                for (uint64_t p = 0; p < H * W; ++p)
                    a.values.values[ch * H * W + p] = dump_at(got, ch % P, p * m + ch / P);
            return a;
        }
    }

    // 1-D data folded into rows of D columns, after some leading rows.
    if (W == 1 && got.cols > 1 && got.channels >= C && got_pixels >= H) {
        uint64_t start = 0;
        for (uint64_t k = 0; k * got.cols + H <= got_pixels; ++k)
            if (matches_from(got, want, k * got.cols)) {
                start = k * got.cols;
                break;
            }
        a.shape_ok = true;
        a.layout = "1-D data folded into " + std::to_string(got.rows) + "x" + std::to_string(got.cols) + ", from row " +
                   std::to_string(start / got.cols);
        for (uint64_t ch = 0; ch < C; ++ch)
            for (uint64_t j = 0; j < H; ++j) a.values.values[ch * H + j] = dump_at(got, ch, start + j);
        return a;
    }
    return a;
}

}  // namespace ai8x
