#include "tlm/peripheral.h"

#include <cstring>

#include <spdlog/spdlog.h>

namespace ai8x {

namespace {

const PeripheralInstance* find_instance(const PeripheralDescription& d, const std::string& name) {
    for (const PeripheralInstance& i : d.instances)
        if (i.name == name) return &i;
    return nullptr;
}

const PeripheralDescription& described(const DeviceConfig& cfg, const std::string& instance) {
    if (const PeripheralDescription* d = cfg.registers->peripheral_of_instance(instance)) return *d;
    throw ConfigError(cfg.source_path + ": peripherals: no " + instance + " (the model needs it)");
}

uint32_t lane_mask(unsigned size) { return size >= 4 ? ~0u : (1u << (8 * size)) - 1; }

}  // namespace

// --- PeripheralRegister

PeripheralRegister::PeripheralRegister(Peripheral& owner, const char* name, bool required)
    : owner_(owner), name_(name), desc_(owner.description().find(name)) {
    if (!desc_ && required)
        throw ConfigError(owner.config().source_path + ": peripherals." + owner.description().name +
                          ".registers: no register " + name + " (the model needs it)");
    values_.assign(desc_ ? desc_->count : 1, 0);
    reset();
    if (desc_) owner.add(*this);
}

uint64_t PeripheralRegister::offset(unsigned index) const { return desc_ ? desc_->offset + index * desc_->step : 0; }

void PeripheralRegister::reset() {
    for (uint32_t& v : values_) v = desc_ ? desc_->reset : 0;
}

RegField PeripheralRegister::field(const char* field_name, bool required) const {
    if (desc_)
        if (const FieldDescription* f = desc_->find(field_name)) return f->field();
    if (required)
        throw ConfigError(owner_.config().source_path + ": peripherals." + owner_.description().name + ".registers." +
                          name_ + ": no field " + field_name + " (the model needs it)");
    return RegField{};
}

void PeripheralRegister::bus_write(unsigned index, unsigned lane, unsigned size, uint32_t data) {
    const uint32_t old = values_[index];
    const uint32_t mask = lane_mask(size) << (8 * lane);
    uint32_t word = (old & ~mask) | ((data << (8 * lane)) & mask);
    for (const FieldDescription& f : desc_->fields) {
        if (!f.keyed) continue;
        if (f.field().get(word) != f.key) return;  // without the key the write is ignored
        word = f.field().with(word, f.field().get(old));
    }
    switch (desc_->access) {
        case RegAccess::RO: return;  // the bus may write; the hardware keeps its value
        case RegAccess::W1C: values_[index] = old & ~(word & mask); break;
        default:
            if (write_)
                write_(index, word);
            else
                values_[index] = word;
    }
    for (const FieldHandler& h : field_handlers_)
        if (h.field.get(values_[index]) != h.field.get(old)) h.run(h.field.get(values_[index]));
}

uint32_t PeripheralRegister::bus_read(unsigned index, unsigned lane, unsigned size) {
    if (desc_->access == RegAccess::WO) return 0;
    const uint32_t word = read_ ? read_(index) : values_[index];
    return (word >> (8 * lane)) & lane_mask(size);
}

// --- Peripheral

Peripheral::Peripheral(sc_core::sc_module_name name, const DeviceConfig& cfg, const std::string& instance)
    : sc_module(name),
      socket("socket"),
      cfg_(cfg),
      desc_(&described(cfg, instance)),
      instance_(find_instance(*desc_, instance)) {
    socket.register_b_transport(this, &Peripheral::b_transport);
    socket.register_transport_dbg(this, &Peripheral::transport_dbg);
    socket.register_get_direct_mem_ptr(this, &Peripheral::get_direct_mem_ptr);
    if (instance_->interrupt >= 0) irq_ = std::make_unique<WireOut<bool>>("irq");
}

Peripheral::~Peripheral() = default;

bool Peripheral::get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) { return false; }

void Peripheral::set_irq(bool level) {
    if (irq_) irq_->write(level);
}

void Peripheral::build_decoder() {
    decoder_built_ = true;
    by_word_.assign(desc_->size / 4, nullptr);
    for (PeripheralRegister* r : declared_)
        for (unsigned i = 0; i < r->count(); ++i) by_word_[r->offset(i) / 4] = r;
    // Registers the model declares no member for store what is written.
    for (const RegisterDescription& d : desc_->registers) {
        if (by_word_[d.offset / 4]) continue;
        stored_.push_back(std::make_unique<PeripheralRegister>(*this, d.name.c_str()));
        for (unsigned i = 0; i < d.count; ++i) by_word_[(d.offset + i * d.step) / 4] = stored_.back().get();
    }
}

PeripheralRegister* Peripheral::register_at(uint64_t offset, unsigned& index) {
    if (!decoder_built_) build_decoder();
    if (offset >= desc_->size) return nullptr;
    PeripheralRegister* r = by_word_[offset / 4];
    if (r) index = static_cast<unsigned>((offset - r->offset()) / r->description()->step);
    return r;
}

std::vector<const PeripheralRegister*> Peripheral::registers() {
    if (!decoder_built_) build_decoder();
    std::vector<const PeripheralRegister*> out;
    for (const PeripheralRegister* r : by_word_)
        if (r && (out.empty() || out.back() != r)) out.push_back(r);
    return out;
}

void Peripheral::reset() {
    if (!decoder_built_) build_decoder();
    for (PeripheralRegister* r : declared_) r->reset();  // the stored ones included
}

tlm::tlm_response_status Peripheral::access(tlm::tlm_generic_payload& trans) {
    const uint64_t offset = trans.get_address();
    const unsigned size = trans.get_data_length();
    if ((size != 1 && size != 2 && size != 4) || offset % size || trans.get_byte_enable_ptr() ||
        trans.get_streaming_width() < size)
        return tlm::TLM_BURST_ERROR_RESPONSE;
    unsigned index = 0;
    PeripheralRegister* r = register_at(offset, index);
    if (!r) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
    const unsigned lane = offset % 4;
    uint32_t data = 0;
    if (trans.is_write()) {
        std::memcpy(&data, trans.get_data_ptr(), size);  // host is little-endian like the bus
        r->bus_write(index, lane, size, data);
    } else {
        data = r->bus_read(index, lane, size);
        std::memcpy(trans.get_data_ptr(), &data, size);
    }
    return tlm::TLM_OK_RESPONSE;
}

void Peripheral::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    delay_ = &delay;
    const tlm::tlm_response_status status = access(trans);
    no_delay_ = sc_core::SC_ZERO_TIME;
    delay_ = &no_delay_;
    if (status != tlm::TLM_OK_RESPONSE)
        spdlog::warn("{}: {} of {} byte(s) at 0x{:08x}: {}", name(), trans.is_read() ? "read" : "write",
                     trans.get_data_length(), base() + trans.get_address(),
                     status == tlm::TLM_ADDRESS_ERROR_RESPONSE ? "no such register" : "unsupported access");
    trans.set_response_status(status);
}

unsigned Peripheral::transport_dbg(tlm::tlm_generic_payload& trans) {
    // A debugger reads the stored words without side effects; its writes are refused.
    unsigned index = 0;
    PeripheralRegister* r = trans.is_read() && trans.get_data_length() == 4 && trans.get_address() % 4 == 0
                                ? register_at(trans.get_address(), index)
                                : nullptr;
    if (!r) return 0;
    const uint32_t v = r->value(index);
    std::memcpy(trans.get_data_ptr(), &v, 4);
    return 4;
}

}  // namespace ai8x
