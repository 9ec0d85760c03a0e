#include "model/memories/kernel_memory_port.h"

#include <cstring>

#include <spdlog/spdlog.h>

#include "model/registers/register_fields.h"

namespace ai8x {

namespace {
// Slot byte that holds bus byte i of a word in the four-write layout
// (little-endian bus words): bus byte 0 is offset +0 bits 7..0, bytes 1..4
// offset +4 bits 31..0 and 5..8 offset +8, most significant first. A word
// keeps its bytes in fill order (KernelWord), bus byte i at KernelWord[8 - i].
constexpr unsigned kSlotByteOfWeight[9] = {0, 7, 6, 5, 4, 11, 10, 9, 8};
}  // namespace

KernelMemoryPort::KernelMemoryPort(std::string name, const DeviceConfig& cfg, uint32_t q, uint64_t base,
                                   std::vector<KernelArray*> instances, const uint32_t& ctl)
    : MemoryPort(std::move(name), CnnBlock::Kernel, cfg.kernel_mem, q, base),
      instances_(std::move(instances)),
      ctl_(ctl),
      mexpress_(register_fields(cfg).REG_CTL.MEXPRESS) {}

KernelWord& KernelMemoryPort::word_at(uint32_t instance, uint32_t word) { return instances_[instance]->words[word]; }

void KernelMemoryPort::transport(tlm::tlm_generic_payload& trans, uint64_t offset) {
    const bool express = mexpress_.is_set(ctl_);
    if (!express) streaming_ = false;
    if (express && trans.is_write() && trans.get_data_length() == 1 && (offset & 1)) {
        start_stream(offset);
        trans.set_response_status(tlm::TLM_OK_RESPONSE);
        return;
    }
    if (express && streaming_ && trans.is_write()) {
        if (trans.get_data_length() != 4 || offset % 4) {
            spdlog::error("{}: express kernel load at 0x{:08x}: expected a 32-bit word write, got {} byte(s)", name_,
                          address_of(offset), trans.get_data_length());
            trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
            return;
        }
        uint32_t v;
        std::memcpy(&v, trans.get_data_ptr(), 4);
        stream_word(v, offset);
        trans.set_response_status(tlm::TLM_OK_RESPONSE);
        return;
    }
    MemoryPort::transport(trans, offset);
}

void KernelMemoryPort::start_stream(uint64_t offset) {
    const uint64_t instance = offset / geo_.instance_stride;
    const uint64_t word = (offset % geo_.instance_stride) >> 2;
    streaming_ = false;
    stream_bytes_.clear();
    overflow_reported_ = false;
    if (instance >= geo_.instances_per_quadrant || word >= geo_.words_of(uint32_t(instance))) {
        spdlog::error("{}: express start address 0x{:08x} selects processor {} word {}, outside kernel memory", name_,
                      address_of(offset), instance, word);
        return;
    }
    streaming_ = true;
    stream_instance_ = uint32_t(instance);
    stream_word_ = uint32_t(word);
}

void KernelMemoryPort::stream_word(uint32_t value, uint64_t offset) {
    for (int shift = 24; shift >= 0; shift -= 8) stream_bytes_.push_back(uint8_t(value >> shift));
    while (stream_bytes_.size() >= 9) {
        if (stream_word_ >= geo_.words_of(stream_instance_)) {
            if (!overflow_reported_)
                spdlog::error("{}: express kernel load at 0x{:08x} runs past word {} of processor {}; dropped", name_,
                              address_of(offset), geo_.words_of(stream_instance_) - 1,
                              quadrant_ * geo_.instances_per_quadrant + stream_instance_);
            overflow_reported_ = true;
        } else {
            KernelWord& k = word_at(stream_instance_, stream_word_);
            std::copy(stream_bytes_.begin(), stream_bytes_.begin() + 9, k.rbegin());  // bus order, reversed
            mark_written(stream_instance_, stream_word_);
        }
        ++stream_word_;
        stream_bytes_.erase(stream_bytes_.begin(), stream_bytes_.begin() + 9);
    }
}

uint32_t KernelMemoryPort::read_lanes(uint32_t instance, uint32_t word, unsigned lane) {
    ++instances_[instance]->activity.bus.reads;
    const KernelWord& k = word_at(instance, word);
    std::array<uint8_t, 16> slot{};
    for (unsigned i = 0; i < 9; ++i) slot[kSlotByteOfWeight[i]] = k[8 - i];
    uint32_t v;
    std::memcpy(&v, &slot[lane], 4);
    return v;
}

void KernelMemoryPort::write_lanes(uint32_t instance, uint32_t word, unsigned lane, uint32_t value, uint32_t mask) {
    for (unsigned b = 0; b < 4; ++b)
        if (mask & (0xffu << (8 * b))) staged_[lane + b] = uint8_t(value >> (8 * b));
    if (lane != 12) return;
    // The write to the last lane executes the staged word.
    KernelWord& k = word_at(instance, word);
    for (unsigned i = 0; i < 9; ++i) k[8 - i] = staged_[kSlotByteOfWeight[i]];
    mark_written(instance, word);
}

void KernelMemoryPort::mark_written(uint32_t instance, uint32_t word) {
    // One committed 72-bit word is one write of the memory.
    instances_[instance]->written[word] = 1;
    ++instances_[instance]->activity.bus.writes;
}

}  // namespace ai8x
