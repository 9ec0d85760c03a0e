// SoC peripherals as SystemC modules whose registers come from the device
// description (configs: peripherals), in the style of VCML's peripheral and
// reg<>: a peripheral declares its registers as members (the generated types
// of build/<dir>/generated/registers/<kind>.h, which also name every field),
// gives a register a handler for each side effect (write_xxx, read_xxx), and
// drives its interrupt through an output port. docs/architecture.md, "Adding a
// SoC peripheral", walks through one.
//
// Bus rules (every peripheral alike): accesses of 1, 2 or 4 bytes inside one
// register; a narrower write is merged into the register's word first. RW
// registers store the word, RO registers ignore writes, WO registers read 0,
// W1C registers clear the bits written as 1. An address with no register is
// answered with an address error (the CPU takes a bus fault there).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "tlm/device_config.h"
#include "tlm/register_description.h"
#include "tlm/wire.h"

namespace ai8x {

class Peripheral;

// One register (or register array: SEMA0..7) of a peripheral. Its offset,
// access and reset come from the description; the peripheral gives it handlers.
class PeripheralRegister {
public:
    // Binds register `name` of the owner's description. A `required` register
    // missing from a user's description is a ConfigError naming the file; an
    // optional one (a register some devices of the family lack) is then absent:
    // not on the bus, value 0.
    PeripheralRegister(Peripheral& owner, const char* name, bool required = true);
    PeripheralRegister(const PeripheralRegister&) = delete;
    PeripheralRegister& operator=(const PeripheralRegister&) = delete;

    bool present() const { return desc_ != nullptr; }
    const std::string& name() const { return name_; }
    unsigned count() const { return static_cast<unsigned>(values_.size()); }
    uint64_t offset(unsigned index = 0) const;
    const RegisterDescription* description() const { return desc_; }

    // The stored word, without side effects (what the hardware itself sees).
    uint32_t value(unsigned index = 0) const { return values_[index]; }
    operator uint32_t() const { return values_[0]; }
    // Hardware-side update (status bits), without side effects.
    void set(uint32_t v, unsigned index = 0) { values_[index] = v; }
    uint32_t get(RegField f, unsigned index = 0) const { return f.get(values_[index]); }
    bool is_set(RegField f, unsigned index = 0) const { return f.is_set(values_[index]); }
    void set(RegField f, uint32_t v, unsigned index = 0) { values_[index] = f.with(values_[index], v); }
    void reset();

    // Behaviour, one handler per side effect. A write handler replaces the
    // default store: it receives the written word (merged for narrow writes)
    // and stores what the hardware keeps. A field handler runs after the store
    // when the field's value changed, with its new value. A read handler gives
    // the word the bus reads (nothing is stored).
    template <class P>
    void on_write(void (P::*handler)(uint32_t value));
    template <class P>
    void on_write(void (P::*handler)(unsigned index, uint32_t value));
    template <class P>
    void on_change(RegField field, void (P::*handler)(uint32_t field_value));
    template <class P>
    void on_read(uint32_t (P::*handler)());
    template <class P>
    void on_read(uint32_t (P::*handler)(unsigned index));

    // A bus access to element `index`: `size` bytes at byte `lane` of the word.
    void bus_write(unsigned index, unsigned lane, unsigned size, uint32_t data);
    uint32_t bus_read(unsigned index, unsigned lane, unsigned size);

protected:
    // A field of this register: its bits as the loaded description gives them.
    // A `required` field the description lacks is a ConfigError naming the
    // file; an optional one reads as width 0 (absent: gets 0, sets nothing).
    RegField field(const char* field_name, bool required = true) const;

private:
    struct FieldHandler {
        RegField field;
        std::function<void(uint32_t)> run;
    };
    template <class P>
    P& owner_as() {
        return static_cast<P&>(owner_);
    }

    Peripheral& owner_;
    std::string name_;
    const RegisterDescription* desc_ = nullptr;
    std::vector<uint32_t> values_;
    std::function<void(unsigned, uint32_t)> write_;
    std::function<uint32_t(unsigned)> read_;
    std::vector<FieldHandler> field_handlers_;
};

class Peripheral : public sc_core::sc_module {
public:
    // Bus side: addresses are offsets from base() (the SoC interconnect
    // subtracts it, as a TLM router does).
    tlm_utils::simple_target_socket_optional<Peripheral, 32> socket;

    // Instance `instance` (e.g. "GPIO2") of the description's peripherals;
    // the SoC names its module after it in lower case ("gpio2").
    Peripheral(sc_core::sc_module_name name, const DeviceConfig& cfg, const std::string& instance);
    ~Peripheral() override;

    const DeviceConfig& config() const { return cfg_; }
    const PeripheralDescription& description() const { return *desc_; }
    const PeripheralInstance& instance() const { return *instance_; }
    uint64_t base() const { return instance_->base; }
    uint64_t size() const { return desc_->size; }

    // The interrupt output ("irq"): exists when the description names the
    // instance's interrupt (configs: peripherals[].interrupt); the board binds it
    // to that input of the CPU (a Wire).
    WireOut<bool>* irq() { return irq_.get(); }

    // The register at `offset` and the element there (nullptr: none).
    PeripheralRegister* register_at(uint64_t offset, unsigned& index);
    // Every register on the bus, the ones the model declares no member for
    // included (those store what is written).
    std::vector<const PeripheralRegister*> registers();
    void reset();

    const char* kind() const override { return "ai8x_peripheral"; }

protected:
    // Drives the interrupt output (nothing when the block has none).
    void set_irq(bool level);
    // A DMI query at `trans`'s offset: no peripheral grants direct access. A
    // peripheral whose registers race with SystemC processes (the fast FIFO,
    // drained by the accelerator on its own clock) answers the query's SyncHint
    // here (tlm/sync_hint.h), in offsets from base() like every access.
    virtual bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
    // The initiator's time offset of the access being served (its instant is
    // sc_time_stamp() plus this); a handler may add to it (time the access
    // takes). Zero outside a bus access.
    sc_core::sc_time& access_delay() { return *delay_; }

private:
    friend class PeripheralRegister;
    void add(PeripheralRegister& r) { declared_.push_back(&r); }
    void build_decoder();
    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    unsigned transport_dbg(tlm::tlm_generic_payload& trans);
    tlm::tlm_response_status access(tlm::tlm_generic_payload& trans);

    const DeviceConfig& cfg_;
    const PeripheralDescription* desc_;
    const PeripheralInstance* instance_;
    std::unique_ptr<WireOut<bool>> irq_;
    std::vector<PeripheralRegister*> declared_;                // members of the derived class
    std::vector<std::unique_ptr<PeripheralRegister>> stored_;  // described registers without a member
    std::vector<PeripheralRegister*> by_word_;                 // offset / 4 -> register (built on first access)
    bool decoder_built_ = false;
    sc_core::sc_time no_delay_;
    sc_core::sc_time* delay_ = &no_delay_;
};

template <class P>
void PeripheralRegister::on_write(void (P::*handler)(uint32_t)) {
    P* p = &owner_as<P>();
    write_ = [p, handler](unsigned, uint32_t v) { (p->*handler)(v); };
}

template <class P>
void PeripheralRegister::on_write(void (P::*handler)(unsigned, uint32_t)) {
    P* p = &owner_as<P>();
    write_ = [p, handler](unsigned i, uint32_t v) { (p->*handler)(i, v); };
}

template <class P>
void PeripheralRegister::on_change(RegField field, void (P::*handler)(uint32_t)) {
    P* p = &owner_as<P>();
    field_handlers_.push_back({field, [p, handler](uint32_t v) { (p->*handler)(v); }});
}

template <class P>
void PeripheralRegister::on_read(uint32_t (P::*handler)()) {
    P* p = &owner_as<P>();
    read_ = [p, handler](unsigned) { return (p->*handler)(); };
}

template <class P>
void PeripheralRegister::on_read(uint32_t (P::*handler)(unsigned)) {
    P* p = &owner_as<P>();
    read_ = [p, handler](unsigned i) { return (p->*handler)(i); };
}

}  // namespace ai8x
