// Cycle statistics of a conformance run: our per-layer CNN cycles (from
// `ai8xsim run --json`) against the generator's latency estimate, judged by
// the criteria of issue #6 on vectors without streaming, and shown side by
// side (not judged) for streaming layers, whose estimate is a rough rule.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace ai8x::conformance {

struct LayerCycles {
    int layer = 0;
    std::optional<uint64_t> ours;    // layers[].cycles: the layer's own work
    std::optional<uint64_t> theirs;  // layers[].estimate: meta.json "Layer N"
    bool streaming = false;          // part of a streaming chain (layers[].stream_span)
};

// One vector's timing as the runner saw it. `has_data` is false when the run
// gave no usable result (failed known-answer test, error, time-out, not run):
// its figures are then not judged but it is reported as missing.
struct VectorCycles {
    std::string name;
    std::string kind;     // "plain", "fifo", "streaming" (vector_catalog)
    std::string verdict;  // the runner's verdict, shown for missing data
    bool expected_failure = false;
    // The generator gave this vector a latency estimate (meta.json latency_cycles
    // not empty). Without one (MAX78002 vectors) its timing is not judged at all:
    // neither passing nor failing, only counted as not judged.
    bool has_estimate = true;
    bool has_data = false;
    uint64_t cnn_cycles = 0;                 // whole inference, FIFO stalls included
    uint64_t stall_cycles = 0;               // cycles waiting for FIFO input words
    std::optional<uint64_t> estimate_total;  // meta.json latency_cycles.Total
    std::vector<LayerCycles> layers;
};

// The criteria of issue #6 for vectors without streaming.
struct TimingCriteria {
    double layer_tolerance = 0.02;  // every layer within 2 %
    double min_exact_share = 0.95;  // at least 95 % of layers exact
    double total_tolerance = 0.01;  // every vector's total within 1 %
};

struct WorstLayer {
    std::string vector;
    int layer = 0;
    uint64_t ours = 0, theirs = 0;
    double error = 0;  // (ours - theirs) / theirs, signed
};

struct WorstTotal {
    std::string vector;
    uint64_t ours = 0, theirs = 0;
    double error = 0;
};

struct StreamingVectorRow {
    std::string name;
    uint64_t chain_ours = 0, chain_theirs = 0;  // sums over streaming layers
    std::size_t chain_layers = 0;
    uint64_t stall_cycles = 0;
    uint64_t cnn_cycles = 0;
    std::optional<uint64_t> estimate_total;
};

struct FifoRow {
    std::string name;
    uint64_t work = 0;  // cnn_cycles - stall_cycles: what is compared
    uint64_t stall_cycles = 0;
    uint64_t cnn_cycles = 0;
    std::optional<uint64_t> estimate_total;
};

struct CycleStats {
    // Vectors without streaming (plain and FIFO).
    std::size_t judged_vectors = 0;
    std::size_t layers_compared = 0, layers_exact = 0, layers_within = 0;
    std::optional<WorstLayer> worst_layer;           // largest |error|
    std::vector<WorstLayer> layers_outside;          // beyond layer_tolerance
    std::vector<std::string> layers_without_figure;  // "vector layer N: no estimate" etc.
    std::size_t totals_compared = 0, totals_within = 0;
    std::optional<WorstTotal> worst_total;
    std::vector<WorstTotal> totals_outside;
    // FIFO vectors: the generator's estimate ignores the input FIFO, so their
    // total is compared without stall cycles; the stalls are listed here.
    std::vector<FifoRow> fifo_rows;
    // Vectors whose run gave no timing data; `expected` ones do not gate.
    std::vector<std::string> missing, missing_expected;
    // Vectors without a generator estimate: not judged (any kind, any verdict).
    std::vector<std::string> without_estimate;
    // Streaming vectors: shown, not judged.
    std::vector<StreamingVectorRow> streaming_rows;
    std::vector<double> streaming_layer_ratios;               // ours / theirs per streaming layer
    std::size_t chain_free_layers = 0, chain_free_exact = 0;  // non-streaming layers of streaming vectors
    std::vector<std::string> streaming_missing;               // no data or no figure

    // Empty when every criterion holds; otherwise one phrase per failed one.
    std::vector<std::string> unmet;
};

// Reads one `ai8xsim run --json` result into `v` (cnn_cycles, stall_cycles,
// estimate_total, layers). Returns an explanation when a field is missing or
// has the wrong type; `v` is then left without data.
std::optional<std::string> read_run_cycles(const nlohmann::json& run, VectorCycles& v);

CycleStats compute_cycle_stats(const std::vector<VectorCycles>& vectors, const TimingCriteria& criteria = {});

// The block the runner prints after its table, ending with the line
// "timing: criteria met" or "timing: criteria NOT met: <which>".
std::string format_cycle_stats(const CycleStats& stats, const TimingCriteria& criteria = {});

}  // namespace ai8x::conformance
