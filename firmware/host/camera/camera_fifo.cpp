#include "firmware/host/camera/camera_fifo.h"

namespace ai8x {

bool CameraFifo::push(uint32_t word) {
    if (full()) {
        ++lost_;
        return false;
    }
    slots_[(head_ + count_) % slots_.size()] = word;
    ++count_;
    ++in_;
    return true;
}

std::optional<uint32_t> CameraFifo::pop() {
    if (empty()) return std::nullopt;
    const uint32_t w = slots_[head_];
    head_ = unsigned((head_ + 1) % slots_.size());
    --count_;
    ++out_;
    return w;
}

}  // namespace ai8x
