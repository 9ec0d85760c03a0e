#include "model/memories/memory_port.h"

#include <cstring>

#include <spdlog/spdlog.h>

namespace ai8x {

MemoryPort::MemoryPort(std::string name, CnnBlock block, const ArrayGeometry& geometry, uint32_t quadrant,
                       uint64_t base)
    : name_(std::move(name)), block_(block), geo_(geometry), quadrant_(quadrant), base_(base) {}

uint64_t MemoryPort::span() const {
    return uint64_t(geo_.instances_per_quadrant - 1) * geo_.instance_stride + uint64_t(geo_.words) * geo_.slot_bytes;
}

void MemoryPort::transport(tlm::tlm_generic_payload& trans, uint64_t offset) {
    const unsigned len = trans.get_data_length();
    const char* what = trans.is_write() ? "write" : "read";
    if ((len != 1 && len != 2 && len != 4) || offset % len || trans.get_byte_enable_ptr() ||
        trans.get_streaming_width() < len) {
        spdlog::error("{}: {} of {} byte(s) at 0x{:08x}: only aligned 8/16/32-bit accesses", name_, what, len,
                      address_of(offset));
        trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
        return;
    }
    const uint64_t instance = geo_.instance_stride ? offset / geo_.instance_stride : 0;
    const uint64_t within = geo_.instance_stride ? offset % geo_.instance_stride : offset;
    const uint64_t word = within / geo_.slot_bytes;
    if (instance >= geo_.instances_per_quadrant || word >= geo_.words_of(uint32_t(instance))) {
        spdlog::error("{}: {} at 0x{:08x}: between memory instances (no word here)", name_, what, address_of(offset));
        trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    const unsigned in_slot = static_cast<unsigned>(within % geo_.slot_bytes);
    const unsigned lane = in_slot & ~3u;
    const unsigned shift = 8 * (in_slot & 3u);
    const uint32_t len_mask = len == 4 ? 0xffffffffu : ((1u << (8 * len)) - 1);
    uint8_t* data = trans.get_data_ptr();
    uint32_t v = 0;
    if (trans.is_read()) {
        v = (read_lanes(uint32_t(instance), uint32_t(word), lane) >> shift) & len_mask;
        std::memcpy(data, &v, len);  // little-endian host, like the bus
    } else if (trans.is_write()) {
        std::memcpy(&v, data, len);
        write_lanes(uint32_t(instance), uint32_t(word), lane, v << shift, len_mask << shift);
    }
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace ai8x
