// Lines a layer dump up with the tensor the generator's log prints, for
// layers the generator programs in a folded form:
//  * multi-pass element-wise passthrough: the passes are programmed as extra
//    rows (dump P channels x H*W*m pixels, log P*m channels x H x W; pixel n
//    of the dump is pixel n / m, pass n % m);
//  * dilated 1-D convolution: the data is folded into rows of `dilation`
//    columns (dump C x R x D, log C x L x 1; the log's element j is the dump's
//    row-major element k*D + j for the leading rows k the fold adds).
#pragma once

#include <string>

#include "model/engine/layer_engine.h"
#include "testbench/reference/tensor.h"

namespace ai8x {

struct AlignedDump {
    bool shape_ok = false;     // false: no known layout gives the log's shape
    std::string layout;        // empty for a plain dump, else how it was unfolded
    reference::Tensor values;  // the dump in the log's shape (when shape_ok)
};

// `want` is the log's tensor; for folded 1-D data its values choose the
// leading-row offset (the first offset whose values match, else row 0).
AlignedDump align_dump(const LayerOutput& got, const reference::Tensor& want);

}  // namespace ai8x
