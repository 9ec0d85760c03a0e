#include "firmware/host/register_file.h"

#include <stdexcept>

namespace ai8x {

RegisterFile::RegisterFile(std::string block, std::initializer_list<RegisterSpec> specs) : block_(std::move(block)) {
    for (const auto& s : specs) regs_.push_back({s, s.reset, nullptr, nullptr});
}

void RegisterFile::reset() {
    for (auto& r : regs_) r.value = r.spec.reset;
}

RegisterFile::Reg& RegisterFile::find(const std::string& name) {
    for (auto& r : regs_)
        if (name == r.spec.name) return r;
    throw std::logic_error(block_ + ": no register named " + name);
}

RegisterFile::Reg* RegisterFile::at(uint32_t offset, unsigned size) {
    if ((size != 1 && size != 2 && size != 4) || offset % size) return nullptr;
    for (auto& r : regs_)
        if (offset / 4 * 4 == r.spec.offset) return &r;
    return nullptr;
}

bool RegisterFile::read(uint32_t offset, unsigned size, uint32_t& data) {
    Reg* r = at(offset, size);
    if (!r) return false;
    uint32_t word = r->on_read ? r->on_read() : r->value;
    unsigned shift = 8 * (offset % 4);
    data = size == 4 ? word : (word >> shift) & ((1u << (8 * size)) - 1);
    return true;
}

bool RegisterFile::write(uint32_t offset, unsigned size, uint32_t data) {
    Reg* r = at(offset, size);
    if (!r) return false;
    unsigned shift = 8 * (offset % 4);
    uint32_t lanes = size == 4 ? 0xFFFFFFFFu : ((1u << (8 * size)) - 1) << shift;
    uint32_t mask = lanes & r->spec.writable;
    r->value = (r->value & ~mask) | ((data << shift) & mask);
    if (r->on_write) r->on_write(r->value);
    return true;
}

}  // namespace ai8x
