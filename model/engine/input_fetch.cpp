#include "model/engine/input_fetch.h"

#include <algorithm>
#include <map>
#include <string>

#include "model/engine/worker_pool.h"

namespace ai8x {

namespace {

using Plane = std::vector<int8_t>;

// Applies the pooling window (or plain subsampling for a 1x1 window).
Plane pool_plane(const Plane& in, const LayerConfig& c) {
    const uint32_t col_stride = c.conv1d ? 1 : c.pool_stride;
    Plane out(static_cast<std::size_t>(c.pooled_rows) * c.pooled_cols);
    int8_t window[256];
    for (uint32_t pr = 0; pr < c.pooled_rows; ++pr) {
        for (uint32_t pc = 0; pc < c.pooled_cols; ++pc) {
            std::size_t n = 0;
            for (uint32_t r = 0; r < c.pool_rows; r += c.pool_row_step)
                for (uint32_t col = 0; col < c.pool_cols; col += c.pool_col_step)
                    window[n++] = in[(pr * c.pool_stride + r) * c.in_cols + pc * col_stride + col];
            int8_t v = window[0];
            if (c.pool_enabled)
                v = c.pool_max ? arith::max_pool(window, n) : arith::avg_pool(window, n, c.pool_rounding);
            out[pr * c.pooled_cols + pc] = v;
        }
    }
    return out;
}

Plane combine(const std::vector<Plane>& operands, arith::EltwiseOp op) {
    Plane out(operands.front().size());
    int8_t values[16];
    for (std::size_t k = 0; k < out.size(); ++k) {
        for (std::size_t o = 0; o < operands.size(); ++o) values[o] = operands[o][k];
        out[k] = arith::eltwise8(op, values, operands.size());
    }
    return out;
}

int8_t pool_window(const int8_t* window, std::size_t n, const LayerConfig& c) {
    if (!c.pool_enabled) return window[0];
    return c.pool_max ? arith::max_pool(window, n) : arith::avg_pool(window, n, c.pool_rounding);
}

// The words one streaming (instance, pass) reads, in the order stream_plane()
// uses them: per pooled position, per window pixel, per operand. Each read goes
// through the source at the time of its position, so a pixel shared by two
// overlapping windows may differ between them, as on hardware. The words do
// not depend on the byte lane: the processors sharing a data memory instance
// read the same words (each takes its own byte), so they are fetched once per
// instance and pass.
std::vector<uint32_t> stream_words(const LayerConfig& c, const InputWordSource& source, uint32_t instance,
                                   uint32_t pass) {
    const uint32_t col_stride = c.conv1d ? 1 : c.pool_stride;
    const uint32_t ops = c.operands < 16 ? c.operands : 16;  // the field is four bits wide
    std::vector<uint32_t> words;
    words.reserve(std::size_t{c.pooled_rows} * c.pooled_cols * c.pool_rows * c.pool_cols * ops);
    for (uint32_t pr = 0; pr < c.pooled_rows; ++pr) {
        for (uint32_t pc = 0; pc < c.pooled_cols; ++pc) {
            const uint64_t position = uint64_t{pr} * c.pooled_cols + pc;
            for (uint32_t r = 0; r < c.pool_rows; ++r) {
                for (uint32_t col = 0; col < c.pool_cols; ++col) {
                    const uint64_t px = uint64_t{pr * c.pool_stride + r} * c.in_cols + pc * col_stride + col;
                    for (uint32_t o = 0; o < ops; ++o) {
                        const uint64_t offset =
                            c.chw_input ? px / 4 : px * c.pixel_pitch + uint64_t{pass} * c.operands + o;
                        words.push_back(source.word(instance, offset, position));
                    }
                }
            }
        }
    }
    return words;
}

// One (processor, pass) plane of a streaming layer from the words its
// instance read (stream_words()): the processor's byte of each, pooled and
// combined.
Plane stream_plane(const LayerConfig& c, const std::vector<uint32_t>& words, unsigned lane) {
    const uint32_t col_stride = c.conv1d ? 1 : c.pool_stride;
    Plane out(static_cast<std::size_t>(c.pooled_rows) * c.pooled_cols);
    int8_t window[256];
    int8_t operand_windows[16][256];
    int8_t values[16];
    const uint32_t ops = c.operands < 16 ? c.operands : 16;  // the field is four bits wide
    std::size_t next = 0;
    if (ops == 1 && !c.chw_input) {
        // One operand, HWC: every read of the window is this processor's lane
        // of the next word, in window order (as below, without the operand
        // bookkeeping).
        const unsigned shift = 8 * lane;
        const std::size_t n = std::size_t{c.pool_rows} * c.pool_cols;
        for (std::size_t position = 0; position < out.size(); ++position, next += n) {
            for (std::size_t k = 0; k < n; ++k) window[k] = static_cast<int8_t>(words[next + k] >> shift);
            out[position] = pool_window(window, n, c);
        }
        return out;
    }
    for (uint32_t pr = 0; pr < c.pooled_rows; ++pr) {
        for (uint32_t pc = 0; pc < c.pooled_cols; ++pc) {
            const uint64_t position = uint64_t{pr} * c.pooled_cols + pc;
            std::size_t n = 0;
            for (uint32_t r = 0; r < c.pool_rows; ++r) {
                for (uint32_t col = 0; col < c.pool_cols; ++col, ++n) {
                    const uint64_t px = uint64_t{pr * c.pool_stride + r} * c.in_cols + pc * col_stride + col;
                    const unsigned byte = c.chw_input ? static_cast<unsigned>(px % 4) : lane;
                    for (uint32_t o = 0; o < ops; ++o) {
                        values[o] = static_cast<int8_t>(words[next++] >> (8 * byte));
                        operand_windows[o][n] = values[o];
                    }
                    window[n] = ops == 1 ? values[0] : arith::eltwise8(c.eltwise_op, values, ops);
                }
            }
            int8_t v;
            if (ops > 1 && c.pool_before_eltwise) {
                for (uint32_t o = 0; o < ops; ++o) values[o] = pool_window(operand_windows[o], n, c);
                v = arith::eltwise8(c.eltwise_op, values, ops);
            } else {
                v = pool_window(window, n, c);
            }
            out[position] = v;
        }
    }
    return out;
}

// The words of a streaming layer, per (data memory instance, pass).
using StreamReads = std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>>;

// Reads, pools and combines processor `i`'s planes into `planes`. Pure: reads
// the state (and a streaming layer's words, read beforehand), writes only
// `planes` and the returned scan.
ProcessorScan fetch_processor(const AcceleratorState& state, const LayerConfig& c, std::size_t i,
                              const StreamReads* stream_reads, std::vector<Plane>& planes) {
    const DeviceConfig& dev = state.cfg;
    const uint32_t pixels = c.in_rows * c.in_cols;
    const uint32_t words = dev.data_sram.words;
    const LayerProcessor& p = c.processors[i];
    const uint32_t instance = static_cast<uint32_t>(p.global) / dev.processors_per_data_sram;
    const std::vector<uint32_t>& mem = state.data_sram[instance];
    const unsigned lane = static_cast<unsigned>(p.local) % dev.processors_per_data_sram;
    const std::vector<uint8_t>& written = state.data_written[instance];
    ProcessorScan scan;
    scan.first_unwritten_px = pixels;
    uint32_t current_px = 0;  // pixel of the read in progress

    auto read_byte = [&](uint64_t word, unsigned byte) -> int8_t {
        if (word >= words) {
            scan.out_of_range = true;
            return 0;
        }
        if (written[word]) {
            scan.last_written_px = std::max<int64_t>(scan.last_written_px, current_px);
        } else {
            if (scan.unwritten++ == 0) scan.first_unwritten = word;
            scan.first_unwritten_px = std::min(scan.first_unwritten_px, current_px);
        }
        return static_cast<int8_t>(mem[word] >> (8 * byte));
    };

    planes.resize(c.passes);
    for (uint32_t j = 0; j < c.passes && stream_reads; ++j)
        planes[j] = stream_plane(c, stream_reads->at({instance, j}), lane);
    for (uint32_t j = 0; j < c.passes && !stream_reads; ++j) {
        std::vector<Plane> operand_planes(c.operands, Plane(pixels));
        for (uint32_t o = 0; o < c.operands; ++o) {
            Plane& raw = operand_planes[o];
            for (uint32_t px = 0; px < pixels; ++px) {
                current_px = px;
                if (c.chw_input)
                    raw[px] = read_byte(uint64_t{c.read_base} + px / 4, px % 4);
                else
                    raw[px] = read_byte(
                        uint64_t{c.read_base} + uint64_t{px} * c.pixel_pitch + uint64_t{j} * c.operands + o, lane);
            }
        }
        Plane plane;
        if (c.operands == 1) {
            plane = pool_plane(operand_planes[0], c);
        } else if (c.pool_before_eltwise) {
            for (auto& op : operand_planes) op = pool_plane(op, c);
            plane = combine(operand_planes, c.eltwise_op);
        } else {
            plane = pool_plane(combine(operand_planes, c.eltwise_op), c);
        }
        planes[j] = std::move(plane);
    }
    return scan;
}

// Host-side threading threshold: processors are fetched on several threads
// when the layer reads at least this many input values in all (about 0.1 ms
// of one core's work); smaller layers stay on the calling thread.
constexpr uint64_t kMinParallelReads = uint64_t{1} << 17;

bool fetch_in_parallel(const LayerConfig& c, const InputWordSource* source, const WorkerPool* pool) {
    if (!pool || pool->threads() < 2 || c.processors.size() < 2) return false;
    const uint64_t window = source ? uint64_t{c.pool_rows} * c.pool_cols : 1;
    const uint64_t positions = source ? uint64_t{c.pooled_rows} * c.pooled_cols : uint64_t{c.in_rows} * c.in_cols;
    return positions * window * c.passes * c.operands * c.processors.size() >= kMinParallelReads;
}

}  // namespace

uint64_t book_input_reads(const AcceleratorState& state, const LayerConfig& c, const std::vector<ProcessorScan>& scans,
                          std::vector<EngineWarning>& warnings) {
    const DeviceConfig& dev = state.cfg;
    const uint32_t pixels = c.in_rows * c.in_cols;
    uint64_t word_reads = 0;
    const auto layer = static_cast<std::size_t>(c.layer);
    std::vector<uint32_t> hwc_instances;  // sorted and made unique below
    for (std::size_t i = 0; i < c.processors.size(); ++i) {
        const LayerProcessor& p = c.processors[i];
        const uint32_t instance = static_cast<uint32_t>(p.global) / dev.processors_per_data_sram;
        const ProcessorScan& scan = scans[i];
        if (c.chw_input) {
            const uint64_t reads = uint64_t{c.passes} * ((pixels + 3) / 4);
            word_reads += reads;
            state.data_sram_arrays[instance].activity.by_layer[layer].reads += reads;
        } else {
            hwc_instances.push_back(instance);
        }
        // Every pooled value the processor receives is written into its TRAM.
        state.tram_arrays[p.global].activity.by_layer[layer].writes +=
            uint64_t{c.passes} * c.pooled_rows * c.pooled_cols;
        // The generator folds long (dilated) 1-D inputs into rows and leaves the
        // rest of the last row unloaded; those reads only reach outputs past
        // the network's, so an unwritten tail shorter than a row is not reported.
        const bool partial_last_row =
            scan.last_written_px < int64_t{scan.first_unwritten_px} && pixels - scan.first_unwritten_px < c.in_cols;
        if (scan.unwritten && !partial_last_row)
            warnings.push_back({p.quadrant, c.layer, "LREG_RPTR_BASE",
                                "processor " + std::to_string(p.local) + " reads data memory instance " +
                                    std::to_string(instance) + " word " + to_hex(scan.first_unwritten) +
                                    " that neither the CPU nor a layer wrote (read pointer " + to_hex(c.read_base) +
                                    ")",
                                "unwritten_read", scan.unwritten});
        if (scan.out_of_range)
            warnings.push_back({p.quadrant, c.layer, "LREG_RPTR_BASE",
                                "processor " + std::to_string(p.local) + " reads beyond data memory instance " +
                                    std::to_string(instance) + " (read pointer " + to_hex(c.read_base) +
                                    "); out-of-range words read as 0",
                                "read_beyond_memory"});
    }
    // One HWC word feeds the four processors that share the instance.
    std::sort(hwc_instances.begin(), hwc_instances.end());
    hwc_instances.erase(std::unique(hwc_instances.begin(), hwc_instances.end()), hwc_instances.end());
    for (uint32_t instance : hwc_instances)
        state.data_sram_arrays[instance].activity.by_layer[layer].reads += uint64_t{pixels} * c.passes * c.operands;
    word_reads += uint64_t{hwc_instances.size()} * pixels * c.passes * c.operands;
    return word_reads;
}

InputPlanes fetch_inputs(const AcceleratorState& state, const LayerConfig& c, std::vector<EngineWarning>& warnings,
                         const InputWordSource* source) {
    const DeviceConfig& dev = state.cfg;
    InputPlanes result;
    result.rows = c.pooled_rows;
    result.cols = c.pooled_cols;
    result.passes = c.passes;
    result.planes.resize(c.processors.size());

    if (c.chw_input && (c.passes > 1 || c.operands > 1))
        warnings.push_back({c.lead_quadrant, c.layer, "LREG_LCTL",
                            "CHW input combined with multi-pass or element-wise operands is not "
                            "modelled; reading as single-pass CHW",
                            "unsupported_combination"});

    // The reads themselves (pure, possibly on several threads), then the
    // counters and warnings processor by processor, in the order of a plain loop.
    // A streaming layer's words go through the source on this thread first,
    // once per data memory instance and pass (the processors sharing an
    // instance read the same words, each its own byte), in processor order.
    StreamReads stream_reads;
    for (std::size_t i = 0; i < c.processors.size() && source; ++i) {
        const uint32_t instance = static_cast<uint32_t>(c.processors[i].global) / dev.processors_per_data_sram;
        for (uint32_t j = 0; j < c.passes; ++j) {
            std::vector<uint32_t>& words = stream_reads[{instance, j}];
            if (words.empty()) words = stream_words(c, *source, instance, j);
        }
    }
    std::vector<ProcessorScan> scans(c.processors.size());
    auto fetch = [&](std::size_t i, unsigned) {
        scans[i] = fetch_processor(state, c, i, source ? &stream_reads : nullptr, result.planes[i]);
    };
    if (fetch_in_parallel(c, source, state.compute_pool))
        state.compute_pool->for_each(c.processors.size(), fetch);
    else
        for (std::size_t i = 0; i < c.processors.size(); ++i) fetch(i, 0);

    result.word_reads = book_input_reads(state, c, scans, warnings);
    return result;
}

}  // namespace ai8x
