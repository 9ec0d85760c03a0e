#include "tlm/register_bank.h"

#include <cstring>
#include <stdexcept>

#include <spdlog/spdlog.h>

namespace ai8x {

const FieldDef* RegisterDef::field(const std::string& field_name) const {
    for (const FieldDef& f : fields)
        if (f.name == field_name) return &f;
    return nullptr;
}

RegisterDef register_def(const RegisterDescription& d, std::string name, uint64_t offset) {
    RegisterDef r;
    r.name = std::move(name);
    r.offset = offset;
    r.reset = d.reset;
    r.access = d.access;
    r.meaning = d.meaning;
    for (const FieldDescription& f : d.fields) r.fields.push_back({f.name, f.lsb, f.width, f.meaning});
    return r;
}

Register::Register(RegisterDef def, uint32_t* cell) : def_(std::move(def)), cell_(cell) {}

uint32_t Register::field(const std::string& field_name) const {
    const FieldDef* f = def_.field(field_name);
    if (!f) throw std::out_of_range("register " + def_.name + " has no field " + field_name);
    return f->get(*cell_);
}

void Register::set_field(const std::string& field_name, uint32_t v) {
    const FieldDef* f = def_.field(field_name);
    if (!f) throw std::out_of_range("register " + def_.name + " has no field " + field_name);
    *cell_ = (*cell_ & ~f->mask()) | ((v << f->lsb) & f->mask());
}

RegisterBank::RegisterBank(std::string name, uint64_t base) : name_(std::move(name)), base_(base) {}

Register& RegisterBank::add(RegisterDef def, uint32_t* cell) {
    if (def.offset % 4) throw std::invalid_argument(name_ + "." + def.name + ": offset not word aligned");
    if (by_offset_.count(def.offset))
        throw std::invalid_argument(name_ + "." + def.name + ": offset already used by " +
                                    by_offset_[def.offset]->name());
    regs_.push_back(std::make_unique<Register>(std::move(def), cell));
    Register& r = *regs_.back();
    r.reset();
    by_offset_[r.def().offset] = &r;
    const uint64_t word = r.def().offset / 4;
    if (word < kMaxWordTable) {
        if (by_word_.size() <= word) by_word_.resize(word + 1, nullptr);
        by_word_[word] = &r;
    }
    return r;
}

Register* RegisterBank::find(uint64_t offset) {
    // Registers sit at word-aligned offsets (add checks), so an aligned offset
    // inside the table is answered by it; anything else by the map.
    if (offset % 4 == 0 && offset / 4 < by_word_.size()) return by_word_[offset / 4];
    if (offset / 4 < kMaxWordTable && offset % 4 == 0) return nullptr;
    auto it = by_offset_.find(offset);
    return it == by_offset_.end() ? nullptr : it->second;
}

Register* RegisterBank::find(const std::string& register_name) {
    for (auto& r : regs_)
        if (r->name() == register_name) return r.get();
    return nullptr;
}

void RegisterBank::transport(tlm::tlm_generic_payload& trans, uint64_t offset) {
    const uint64_t addr = base_ + offset;
    const char* what = trans.is_write() ? "write" : "read";
    if (trans.get_data_length() != 4 || offset % 4 || trans.get_byte_enable_ptr() || trans.get_streaming_width() < 4) {
        spdlog::error("{}: {} of {} byte(s) at 0x{:08x}: registers take aligned 32-bit words only", name_, what,
                      trans.get_data_length(), addr);
        trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
        return;
    }
    Register* r = find(offset);
    if (!r) {
        spdlog::error("{}: {} at 0x{:08x}: no register at this address", name_, what, addr);
        trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    uint8_t* data = trans.get_data_ptr();
    if (trans.is_read()) {
        uint32_t v = 0;
        if (r->def().access != RegAccess::WO) v = r->on_read ? r->on_read(*r) : r->value();
        std::memcpy(data, &v, 4);  // host is little-endian like the bus
    } else if (trans.is_write()) {
        if (r->def().access == RegAccess::RO) {
            spdlog::error("{}: write to read-only register {} at 0x{:08x}", name_, r->name(), addr);
            trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
            return;
        }
        uint32_t v;
        std::memcpy(&v, data, 4);
        if (auto o = overrides_.find(offset); o != overrides_.end()) {
            spdlog::debug("{}: {} written 0x{:08x}, override stores 0x{:08x}", name_, r->name(), v, o->second);
            v = o->second;
            applied_overrides_.insert(offset);
        }
        const uint32_t old = r->value();
        r->set(r->def().access == RegAccess::W1C ? old & ~v : v);
        if (r->on_write) r->on_write(*r, old);
    }
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

bool RegisterBank::peek(uint64_t offset, uint32_t& value) const {
    auto it = by_offset_.find(offset);
    if (it == by_offset_.end()) return false;
    value = it->second->value();
    return true;
}

bool RegisterBank::poke(uint64_t offset, uint32_t value) {
    Register* r = find(offset);
    if (!r) return false;
    r->set(value);
    return true;
}

bool RegisterBank::set_override(uint64_t offset, uint32_t value) {
    if (!find(offset)) return false;
    overrides_[offset] = value;
    return true;
}

std::vector<uint64_t> RegisterBank::unapplied_overrides() const {
    std::vector<uint64_t> offsets;
    for (const auto& [offset, value] : overrides_)
        if (!applied_overrides_.count(offset)) offsets.push_back(offset);
    return offsets;
}

void RegisterBank::reset() {
    for (auto& r : regs_) r->reset();
}

}  // namespace ai8x
