// Test helpers for the streaming tests: the layer shapes INDEX.md states for a
// vector (independent of the registers), and a vector applied to a fresh state.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "model/accel_state.h"
#include "testbench/unit/model/vector_loader.h"

namespace ai8x::test {

// One "- Layer N: CxHxW [streaming], <pooling>, conv2d with kernel size KxK, stride 1/1, pad P/P" line.
struct IndexLayer {
    int layer = 0;
    unsigned channels = 0, rows = 0, cols = 0;
    bool streaming = false;
    unsigned pool_rows = 1, pool_cols = 1, pool_stride_rows = 1, pool_stride_cols = 1;
    unsigned kernel_rows = 1, kernel_cols = 1, pad_rows = 0, pad_cols = 0;

    unsigned pooled_cols() const { return (cols - pool_cols) / pool_stride_cols + 1; }
    unsigned pooled_rows() const { return (rows - pool_rows) / pool_stride_rows + 1; }
};

struct IndexVector {
    std::string name;
    bool chw = false;
    bool fifo = false, streaming = false;
    std::vector<IndexLayer> layers;
};

// Throws std::runtime_error naming INDEX.md and the vector when absent or malformed.
IndexVector index_vector(const std::string& vectors_dir, const std::string& name);

// Names of the streaming vectors in INDEX.md.
std::vector<std::string> streaming_vector_names(const std::string& vectors_dir);

}  // namespace ai8x::test
