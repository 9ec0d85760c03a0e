#include "model/accel_state.h"

#include <algorithm>

namespace ai8x {

AcceleratorState::AcceleratorState(const DeviceConfig& c) : cfg(c) { reset(); }

namespace {
// Sizes `v` to n copies of `fill`, or overwrites it in place when it already
// has that size: register banks and memory ports keep references into this
// storage, so a reset after construction must not reallocate it.
template <typename Outer, typename Inner>
void clear_to(Outer& v, std::size_t n, const Inner& fill) {
    if (v.size() != n) {
        v.assign(n, fill);
        return;
    }
    for (auto& e : v) {
        if (e.size() == fill.size()) std::copy(fill.begin(), fill.end(), e.begin());
        else e = fill;
    }
}
}  // namespace

void AcceleratorState::reset() {
    const uint32_t quads = cfg.quadrants;
    clear_to(data_sram, cfg.data_sram.instances_total(quads), std::vector<uint32_t>(cfg.data_sram.words, 0));
    clear_to(tram, cfg.tram.instances_total(quads), std::vector<uint16_t>(cfg.tram.words, 0));
    clear_to(kernel, cfg.kernel_mem.instances_total(quads), std::vector<KernelWord>(cfg.kernel_mem.words, KernelWord{}));
    clear_to(bias, cfg.bias_mem.instances_total(quads), std::vector<uint8_t>(cfg.bias_mem.words, 0));
    clear_to(data_written, cfg.data_sram.instances_total(quads), std::vector<uint8_t>(cfg.data_sram.words, 0));
    clear_to(kernel_written, cfg.kernel_mem.instances_total(quads), std::vector<uint8_t>(cfg.kernel_mem.words, 0));
    clear_to(bias_written, cfg.bias_mem.instances_total(quads), std::vector<uint8_t>(cfg.bias_mem.words, 0));
    if (quadrant.size() != quads) quadrant.resize(quads);
    for (auto& q : quadrant) {
        q.ctl = q.sram = q.lcnt_max = q.sram_test = q.ifrm = q.mlat = 0;
        clear_to(q.lreg, cfg.layer_register_count, std::vector<uint32_t>(cfg.max_layers, 0));
    }
    fifo_ctl = fifo_stat = aon_ctl = 0;
}

}  // namespace ai8x
