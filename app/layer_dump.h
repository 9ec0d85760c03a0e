// `ai8xsim run --dump-layers OUTDIR`: the text files holding each layer's
// output tensor (format described in docs/layer-dumps.md), and their reader
// for the comparison tool.
#pragma once

#include <string>
#include <vector>

#include "model/engine/layer_engine.h"

namespace ai8x {

// Writes OUTDIR/layer_<n>.txt for every captured layer (creates OUTDIR).
// Throws std::runtime_error naming the file that cannot be written.
void write_layer_dumps(const std::vector<LayerOutput>& layers, const std::string& dir);

// Reads one dump file; throws std::runtime_error naming the file and line.
LayerOutput read_layer_dump(const std::string& path);

}  // namespace ai8x
