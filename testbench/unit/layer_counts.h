// What a layer's shape, as the generator's log prints it, implies for the
// work the hardware does: the network's multiply-accumulates, and the channel
// positions the hardware computes for a channel count. Test oracles: derived
// from the log and the generator's rules, never from the engine.
#pragma once

#include <algorithm>
#include <cstdint>

#include "testbench/reference/generator_log.h"
#include "tlm/device_config.h"

namespace ai8x::test {

// The channel positions the hardware computes for `channels` channels: more
// channels than processors are spread over passes of equal width rounded up
// to whole data-memory groups (izer unload.py out_expand, out_expand_thresh;
// 100 channels are 2 passes of 52); fewer take one processor each.
inline uint64_t computed_channels(uint64_t channels, const DeviceConfig& cfg) {
    const uint64_t processors = cfg.processors_total(), group = cfg.processors_per_data_sram;
    if (channels <= processors) return channels;
    const uint64_t passes = (channels + processors - 1) / processors;
    const uint64_t per_pass = (channels + passes - 1) / passes;
    return passes * std::min(processors, (per_pass + group - 1) / group * group);
}

// Multiply-accumulates the network's layer asks for; 0 when its shape does not
// fix them (passthrough, grouped, or a dilated 1-D convolution, which runs as a
// 2-D one on data folded into rows).
inline uint64_t implied_macs(const reference::LogLayerCase& c) {
    namespace ref = ai8x::reference;
    const ref::LayerParams& p = c.params;
    const bool dilated = p.dilation[0] != 1 || p.dilation[1] != 1;
    if (p.op == ref::Op::Passthrough || c.inputs.empty() || p.groups != 1 || dilated) return 0;
    const ref::Tensor& in = c.inputs.front();
    const uint64_t outputs = uint64_t(c.expected.channels) * c.expected.height * c.expected.width;
    if (p.flatten)
        return outputs * uint64_t(in.channels) * in.height * in.width / (uint64_t(p.pool_size[0]) * p.pool_size[1]);
    const uint64_t taps = p.op == ref::Op::Conv1d ? uint64_t(p.kernel[0]) : uint64_t(p.kernel[0]) * p.kernel[1];
    return outputs * uint64_t(in.channels) * taps;
}

// The multiply-accumulates the hardware does for it: every computed channel
// position of the output against every one of the input.
inline uint64_t hardware_macs(const reference::LogLayerCase& c, const DeviceConfig& cfg) {
    if (implied_macs(c) == 0) return 0;
    const uint64_t out_c = c.expected.channels, in_c = c.inputs.front().channels;
    return implied_macs(c) / (out_c * in_c) * computed_channels(out_c, cfg) * computed_channels(in_c, cfg);
}

}  // namespace ai8x::test
