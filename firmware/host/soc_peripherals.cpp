#include "firmware/host/soc_peripherals.h"

#include <cctype>

#include <spdlog/spdlog.h>

#include "firmware/host/elf_image.h"
#include "firmware/host/gpio.h"
#include "firmware/host/sema.h"
#include "tlm/sync_hint.h"

namespace ai8x {

namespace {
std::string module_name_of(const std::string& instance) {
    std::string s = instance;
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}
}  // namespace

template <class T, class... Args>
T* SocPeripherals::make(const std::string& instance, Args&&... args) {
    owned_.push_back(std::make_unique<T>(module_name_of(instance).c_str(), cfg_, std::forward<Args>(args)...));
    attach(*owned_.back());
    return static_cast<T*>(owned_.back().get());
}

SocPeripherals::SocPeripherals(sc_core::sc_module_name name, const DeviceConfig& cfg)
    : sc_module(name), socket("socket"), cfg_(cfg) {
    socket.register_b_transport(this, &SocPeripherals::b_transport);
    socket.register_transport_dbg(this, &SocPeripherals::transport_dbg);
    socket.register_get_direct_mem_ptr(this, &SocPeripherals::get_direct_mem_ptr);
    for (const PeripheralDescription& p : cfg.registers->peripherals)
        for (const PeripheralInstance& i : p.instances)
            if (!p.core_bus)  // the core's own (the System Control Space): the Cortex-M4 holds it
                slots_.push_back(
                    {&i, p.size, nullptr, std::make_unique<Link>(("to_" + module_name_of(i.name)).c_str())});
    for (const PeripheralDescription& p : cfg.registers->peripherals)
        for (const PeripheralInstance& i : p.instances) {
            if (p.core_bus) continue;
            if (p.name == regs::gcr::kName)
                gcr_ = make<Gcr>(i.name);
            else if (p.name == regs::gcfr::kName)
                gcfr_ = make<Gcfr>(i.name);
            else if (p.name == regs::fcr::kName)
                fcr_ = make<Fcr>(i.name);
            else if (p.name == regs::simctl::kName)
                simctl_ = make<SimControl>(i.name);
            else if (p.name == regs::sema::kName)
                make<Sema>(i.name);
            else if (p.name == regs::gpio::kName)
                make<Gpio>(i.name, i.name);
            else if (p.name != regs::fast_fifo::kName && p.name != regs::rtl_tb::kName && p.name != regs::pcif::kName)
                // not the accelerator's fast FIFO, the RTL testbench's block nor the camera interface (the board
                // attaches them)
                make<Peripheral>(i.name, i.name);
        }
    if (!gcr_ || !gcfr_ || !fcr_ || !simctl_)
        throw ConfigError(cfg.source_path +
                          ": peripherals: GCR, GCFR, FCR and SIMCTL are needed (the model needs them)");
}

SocPeripherals::~SocPeripherals() = default;

void SocPeripherals::attach(Peripheral& p) {
    for (Slot& s : slots_)
        if (s.instance == &p.instance()) {
            if (s.module) throw std::logic_error(std::string(name()) + ": " + p.name() + " attached twice");
            s.module = &p;
            s.link->bind(p.socket);
            peripherals_.push_back(&p);
            return;
        }
    throw std::logic_error(std::string(name()) + ": " + p.name() + " is not a peripheral of this description");
}

Peripheral* SocPeripherals::find(const std::string& instance) const {
    for (Peripheral* p : peripherals_)
        if (p->instance().name == instance) return p;
    return nullptr;
}

SocPeripherals::Slot* SocPeripherals::decode(uint64_t address, unsigned size) {
    for (Slot& s : slots_)
        if (s.module && address >= s.instance->base && address + size <= s.instance->base + s.size) return &s;
    return nullptr;
}

// A router as in the TLM-2.0 examples: the peripheral sees offsets from its base.
void SocPeripherals::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    const uint64_t address = trans.get_address();
    Slot* s = decode(address, trans.get_data_length());
    if (!s) {
        spdlog::warn("{}: {} of {} byte(s) at {}: no peripheral decodes this address", name(),
                     trans.is_read() ? "read" : "write", trans.get_data_length(), hex32(uint32_t(address)));
        trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    trans.set_address(address - s->instance->base);
    (*s->link)->b_transport(trans, delay);
    trans.set_address(address);
}

// The peripheral at the address answers in its own offsets, as for an access;
// elsewhere the answer (no synchronisation) holds up to the neighbouring windows.
bool SocPeripherals::get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
    SyncHint* hint = trans.get_extension<SyncHint>();
    const uint64_t address = trans.get_address();
    Slot* s = decode(address, 1);
    if (!hint || !s) {
        if (hint)
            for (const Slot& other : slots_) {
                if (!other.module) continue;
                const uint64_t first = other.instance->base, last = first + other.size - 1;
                if (last < address) hint->narrow(last + 1, UINT64_MAX);
                if (first > address) hint->narrow(0, first - 1);
            }
        return false;
    }
    const uint64_t base = s->instance->base;
    hint->narrow(base, base + s->size - 1);
    hint->start -= base;
    hint->end -= base;
    trans.set_address(address - base);
    (*s->link)->get_direct_mem_ptr(trans, dmi);
    trans.set_address(address);
    hint->start += base;
    hint->end += base;
    return false;  // no peripheral grants direct access
}

unsigned SocPeripherals::transport_dbg(tlm::tlm_generic_payload& trans) {
    const uint64_t address = trans.get_address();
    Slot* s = decode(address, trans.get_data_length());
    if (!s) return 0;
    trans.set_address(address - s->instance->base);
    const unsigned n = (*s->link)->transport_dbg(trans);
    trans.set_address(address);
    return n;
}

}  // namespace ai8x
