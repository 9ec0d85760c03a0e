// Reader for the log that the vendor's network generator writes with
// --verbose: the per-layer configuration table and, for every simulated layer,
// its input data, kernels, bias and output. Each layer becomes a self-contained
// test case for the reference model (and for anything else that computes one
// layer from values rather than registers).
//
// Parameters the log does not print are recovered from the printed shapes:
// dilation (from the output length) and transposed-convolution output padding.
// Layers that cannot be turned into a case are listed in `skipped` with the reason.
#pragma once

#include <istream>
#include <string>
#include <vector>

#include "testbench/reference/layer_params.h"
#include "testbench/reference/tensor.h"

namespace ai8x::reference {

struct LogLayerCase {
    int layer = 0;
    LayerParams params;
    std::vector<Tensor> inputs;  // one per operand, before pooling
    Weights weights;             // empty for passthrough
    Bias bias;
    Tensor expected;  // the layer's final printed output
};

struct GeneratorLog {
    std::vector<LogLayerCase> layers;
    std::vector<std::string> skipped;  // "layer N: reason"
};

// `source` names the log in error messages. Throws std::runtime_error with the
// source and line number when the text is not a generator log.
GeneratorLog parse_generator_log(std::istream& text, const std::string& source);

}  // namespace ai8x::reference
