#include "model/engine/image_fetch.h"

#include "model/engine/pixel_channels.h"

#include <algorithm>
#include <cstring>

namespace ai8x {

namespace {

// The weight processors reading one data memory instance: each takes its
// byte lane of every word into its channels (channel = index * passes + pass).
struct InstanceReaders {
    uint32_t instance = 0;
    std::vector<std::pair<unsigned, uint32_t>> lanes;  // (byte lane, first channel)
};

std::vector<InstanceReaders> readers_by_instance(const AcceleratorState& state, const LayerConfig& c) {
    std::vector<InstanceReaders> groups;
    uint32_t weight_processor = 0;
    for (const LayerProcessor& p : c.processors) {
        if (!p.mask_enabled) continue;
        const uint32_t instance = static_cast<uint32_t>(p.global) / state.cfg.processors_per_data_sram;
        if (groups.empty() || groups.back().instance != instance) groups.push_back({instance, {}});
        const unsigned lane = static_cast<unsigned>(p.local) % state.cfg.processors_per_data_sram;
        groups.back().lanes.emplace_back(lane, weight_processor++ * c.passes);
    }
    return groups;
}

// What a processor of `instance` reads, as fetch_processor() records it (the
// words do not depend on the byte lane): word read_base + pixel * passes +
// pass, passes in the outer loop.
ProcessorScan scan_instance(const AcceleratorState& state, const LayerConfig& c, uint32_t instance) {
    const uint32_t pixels = c.in_rows * c.in_cols, words = state.cfg.data_sram.words;
    const std::vector<uint8_t>& written = state.data_written[instance];
    ProcessorScan scan;
    scan.first_unwritten_px = pixels;
    // The words read are one range; the usual case, every one inside memory
    // and written, is one search for an unwritten flag.
    const uint64_t count = uint64_t{pixels} * c.passes;
    if (count > 0 && uint64_t{c.read_base} + count <= words &&
        !std::memchr(written.data() + c.read_base, 0, static_cast<std::size_t>(count))) {
        scan.last_written_px = pixels - 1;
        return scan;
    }
    for (uint32_t j = 0; j < c.passes; ++j) {
        for (uint32_t px = 0; px < pixels; ++px) {
            const uint64_t word = uint64_t{c.read_base} + uint64_t{px} * c.passes + j;
            if (word >= words) {
                scan.out_of_range = true;
            } else if (written[word]) {
                scan.last_written_px = std::max<int64_t>(scan.last_written_px, px);
            } else {
                if (scan.unwritten++ == 0) scan.first_unwritten = word;
                scan.first_unwritten_px = std::min(scan.first_unwritten_px, px);
            }
        }
    }
    return scan;
}

// Where copy_values() puts pixel (r, c) of the input: base + r * row_pitch +
// c * col_pitch, then the channel.
template <typename T>
struct Destination {
    T* base;
    std::size_t row_pitch, col_pitch;
};

// The lanes of one processor group as locals: a store through T* (a char
// type for int8_t) could otherwise alias them and force reloads on every
// word.
template <std::size_t N>
struct Lanes {
    unsigned shift[N];
    uint32_t channel[N];
    // Lanes 0..3 to the channels of four consecutive weight processors (the
    // usual HWC group): lane k's value of pass j to channel[0] + k * passes + j.
    bool in_order(uint32_t passes) const {
        bool same = N == 4;
        for (std::size_t k = 0; k < N; ++k) same = same && shift[k] == 8 * k && channel[k] == channel[0] + k * passes;
        return same;
    }
};

// One row of pixels: `count` words (pixel by pixel, pass by pass) of which the
// first `inside` lie in memory (the rest read 0); each lane's byte to its
// channel (channel + pass) of the pixel's destination, pixels col_pitch apart.
template <typename T, std::size_t N>
void copy_row(const uint32_t* src, std::size_t count, std::size_t inside, uint32_t passes, T* row,
              std::size_t col_pitch, const Lanes<N>& lanes) {
    for (std::size_t w = 0, j = 0; w < count; ++w) {
        const uint32_t value = w < inside ? src[w] : 0;
        for (std::size_t k = 0; k < N; ++k) row[lanes.channel[k] + j] = static_cast<int8_t>(value >> lanes.shift[k]);
        if (++j == passes) j = 0, row += col_pitch;
    }
}

// The same for four lanes in order (Lanes::in_order), `row` at the first
// lane's channel: pixel by pixel, its `passes` words' bytes transposed into
// the channels (lane k's pass j to k * passes + j), pixels col_pitch apart.
// Pixels whose words all lie in memory go through pixel_channels.h's block
// moves; the rest (words beyond the instance read 0) value by value.
template <typename T>
void copy_row_in_order(const uint32_t* src, std::size_t count, std::size_t inside, uint32_t passes, T* row,
                       std::size_t col_pitch) {
    const std::size_t pixels = count / passes, whole = inside / passes;
    pixel_channels(src, whole, passes, row, col_pitch);
    row += whole * col_pitch;
    for (std::size_t px = whole; px < pixels; ++px, row += col_pitch)
        for (uint32_t j = 0; j < passes; ++j) {
            const std::size_t w = px * passes + j;
            const uint32_t value = w < inside ? src[w] : 0;
            for (unsigned k = 0; k < 4; ++k) row[k * passes + j] = static_cast<int8_t>(value >> (8 * k));
        }
}

// Copies the bytes of the N lanes of processor group `g` of every word it
// reads to their channels (channel + pass) of the pixel's destination
// (words beyond the instance read 0), row by row.
template <typename T, std::size_t N>
void copy_group(const AcceleratorState& state, const LayerConfig& c, const InstanceReaders& g, Destination<T> to) {
    Lanes<N> lanes;
    for (std::size_t k = 0; k < N; ++k) lanes.shift[k] = 8 * g.lanes[k].first, lanes.channel[k] = g.lanes[k].second;
    const bool in_order = lanes.in_order(c.passes);
    const uint32_t words = state.cfg.data_sram.words, passes = c.passes;
    const uint32_t* mem = state.data_sram[g.instance].data();
    // Rows that follow each other without a gap (no padding columns) are one.
    const bool gapless = to.row_pitch == c.in_cols * to.col_pitch;
    const uint32_t rows = gapless ? 1 : c.in_rows, cols = gapless ? c.in_rows * c.in_cols : c.in_cols;
    const std::size_t row_words = std::size_t{cols} * passes;
    uint64_t word = c.read_base;  // pixel by pixel, pass by pass
    for (uint32_t r = 0; r < rows; ++r, word += row_words) {
        T* row = to.base + r * to.row_pitch;
        const std::size_t inside =
            word < words ? static_cast<std::size_t>(std::min<uint64_t>(row_words, words - word)) : 0;
        const uint32_t* src = mem + (inside ? word : 0);  // not read when nothing is inside
        if (in_order)
            copy_row_in_order(src, row_words, inside, passes, row + lanes.channel[0], to.col_pitch);
        else
            copy_row(src, row_words, inside, passes, row, to.col_pitch, lanes);
    }
}

// Copies every input value of the weight processors to their channels.
template <typename T>
void copy_values(const AcceleratorState& state, const LayerConfig& c, const std::vector<InstanceReaders>& groups,
                 Destination<T> to) {
    for (const InstanceReaders& g : groups) {
        switch (g.lanes.size()) {
            case 1: copy_group<T, 1>(state, c, g, to); break;
            case 2: copy_group<T, 2>(state, c, g, to); break;
            case 3: copy_group<T, 3>(state, c, g, to); break;
            default: copy_group<T, 4>(state, c, g, to); break;
        }
    }
}

// Pools the channel-last values `raw` (in_rows x in_cols x channels) into the
// image, as pool_plane() does each plane: window values every pool step of
// its span, max, average or (pooling off) the window's first value.
void pool_into(const LayerConfig& c, const std::vector<int8_t>& raw, uint32_t spread, ConvImage& image) {
    const uint32_t col_stride = c.conv1d ? 1 : c.pool_stride, channels = image.channels;
    std::vector<std::size_t> window;  // offsets of the window's values from its first, in values
    for (uint32_t r = 0; r < c.pool_rows; r += c.pool_row_step)
        for (uint32_t col = 0; col < c.pool_cols; col += c.pool_col_step)
            window.push_back((std::size_t{r} * c.in_cols + col) * channels);
    if (!c.pool_enabled) window.resize(1);
    // Maximum (or the first value, pooling off) in int8, vectorisable; sums in int32.
    const bool average = c.pool_enabled && !c.pool_max;
    std::vector<int8_t> best(channels);
    std::vector<int32_t> sum(channels);
    for (uint32_t pr = 0; pr < c.pooled_rows; ++pr) {
        for (uint32_t pc = 0; pc < c.pooled_cols; ++pc) {
            const int8_t* first =
                raw.data() + (std::size_t{pr} * c.pool_stride * c.in_cols + pc * col_stride) * channels;
            int16_t* dst = image.at(pr * spread + c.pad_rows, pc * spread + c.pad_cols);
            if (!average) {
                int8_t* b = best.data();
                std::copy(first, first + channels, b);
                for (std::size_t k = 1; k < window.size(); ++k) {
                    const int8_t* v = first + window[k];
                    for (uint32_t ch = 0; ch < channels; ++ch) b[ch] = std::max(b[ch], v[ch]);
                }
                std::copy(b, b + channels, dst);
                continue;
            }
            std::fill(sum.begin(), sum.end(), 0);
            for (std::size_t offset : window)
                for (uint32_t ch = 0; ch < channels; ++ch) sum[ch] += first[offset + ch];
            for (uint32_t ch = 0; ch < channels; ++ch)
                dst[ch] = arith::saturate8(arith::avg_divide(sum[ch], int64_t(window.size()), c.pool_rounding));
        }
    }
}

}  // namespace

bool reads_image_directly(const LayerConfig& cfg, const InputWordSource* source) {
    // A pixel's words follow each other (no MP_STRIDE skip between pixels).
    return !source && !cfg.chw_input && cfg.operands == 1 && cfg.pixel_pitch == cfg.passes;
}

ConvImage fetch_conv_image(const AcceleratorState& state, const LayerConfig& c, uint32_t spread,
                           std::vector<EngineWarning>& warnings, uint64_t& word_reads) {
    const std::vector<InstanceReaders> groups = readers_by_instance(state, c);
    uint32_t channels = 0;
    for (const InstanceReaders& g : groups) channels += static_cast<uint32_t>(g.lanes.size()) * c.passes;
    ConvImage image(c.pooled_rows * spread + 2 * c.pad_rows, c.pooled_cols * spread + 2 * c.pad_cols, channels);
    const bool pooled = c.pool_rows != 1 || c.pool_cols != 1 || c.pool_stride != 1 || c.pooled_rows != c.in_rows ||
                        c.pooled_cols != c.in_cols;
    if (!pooled) {
        const std::size_t col_pitch = std::size_t{spread} * channels;
        copy_values<int16_t>(state, c, groups, {image.at(c.pad_rows, c.pad_cols), image.cols * col_pitch, col_pitch});
    } else {
        std::vector<int8_t> raw(std::size_t{c.in_rows} * c.in_cols * channels);
        copy_values<int8_t>(state, c, groups, {raw.data(), std::size_t{c.in_cols} * channels, channels});
        pool_into(c, raw, spread, image);
    }
    // One scan per instance read, handed to each processor reading it.
    std::vector<ProcessorScan> scans(c.processors.size());
    std::vector<std::pair<uint32_t, ProcessorScan>> done;
    for (std::size_t i = 0; i < c.processors.size(); ++i) {
        const uint32_t instance = static_cast<uint32_t>(c.processors[i].global) / state.cfg.processors_per_data_sram;
        auto it = std::find_if(done.begin(), done.end(), [&](const auto& d) { return d.first == instance; });
        if (it == done.end()) it = done.insert(done.end(), {instance, scan_instance(state, c, instance)});
        scans[i] = it->second;
    }
    word_reads = book_input_reads(state, c, scans, warnings);
    return image;
}

}  // namespace ai8x
