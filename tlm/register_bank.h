// Declarative memory-mapped registers, in the style of a datasheet table: each
// register has a name, an offset, a reset value, an access kind and named bit
// fields with a one-line meaning. Behaviour that goes beyond storing a value is
// attached as one handler per side effect (on_read / on_write).
//
// A register's value lives in a caller-supplied uint32_t cell (usually inside
// AcceleratorState), so that the layer engine sees exactly what the firmware
// wrote through the bus. Bus accesses must be aligned 32-bit words; anything
// else is answered with an error response, as is a write to a read-only register.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <memory>
#include <string>
#include <vector>

#include <tlm>

#include "tlm/register_description.h"

namespace ai8x {

struct FieldDef {
    std::string name;
    unsigned lsb = 0;
    unsigned width = 1;
    std::string meaning;

    uint32_t mask() const { return RegField{lsb, width}.mask(); }
    uint32_t get(uint32_t reg) const { return RegField{lsb, width}.get(reg); }
};

struct RegisterDef {
    std::string name;
    uint64_t offset = 0;  // bytes from the bank base, multiple of 4
    uint32_t reset = 0;
    RegAccess access = RegAccess::RW;
    std::string meaning;
    std::vector<FieldDef> fields;

    const FieldDef* field(const std::string& field_name) const;
};

// The bank's form of a described register: instance `name` at `offset` (a
// per-layer kind or an array element has one instance per layer or index).
RegisterDef register_def(const RegisterDescription& d, std::string name, uint64_t offset);

class Register {
public:
    Register(RegisterDef def, uint32_t* cell);

    const RegisterDef& def() const { return def_; }
    const std::string& name() const { return def_.name; }

    // Stored value, without side effects (what the hardware itself sees).
    uint32_t value() const { return *cell_; }
    // Hardware-side update (status bits), without side effects.
    void set(uint32_t v) { *cell_ = v; }
    // Field by name; throws std::out_of_range for an unknown field (a programming error).
    uint32_t field(const std::string& field_name) const;
    void set_field(const std::string& field_name, uint32_t v);
    void reset() { *cell_ = def_.reset; }

    // Value the bus sees on a read; default: the stored value (0 for WO).
    std::function<uint32_t(const Register&)> on_read;
    // Called after a bus write stored `value()`; `old_value` is what it held before.
    std::function<void(Register&, uint32_t old_value)> on_write;

private:
    RegisterDef def_;
    uint32_t* cell_;
};

class RegisterBank {
public:
    // `base` is the absolute bus address of offset 0 (used in messages).
    RegisterBank(std::string name, uint64_t base);

    Register& add(RegisterDef def, uint32_t* cell);

    Register* find(uint64_t offset);
    Register* find(const std::string& register_name);
    const std::vector<std::unique_ptr<Register>>& registers() const { return regs_; }
    const std::string& name() const { return name_; }
    uint64_t base() const { return base_; }

    // Serves a bus transaction whose address is `offset` bytes into the bank.
    void transport(tlm::tlm_generic_payload& trans, uint64_t offset);

    // Debug read/write without side effects; false if no register lives at `offset`.
    bool peek(uint64_t offset, uint32_t& value) const;
    bool poke(uint64_t offset, uint32_t value);

    // From now on, any bus write to the register at `offset` stores `value` instead of
    // what was written (the write's side effects still run). Returns false if no register.
    bool set_override(uint64_t offset, uint32_t value);
    // Offsets of overrides that no bus write has hit yet: the user asked to force a
    // register the firmware never writes, which silently changes nothing.
    std::vector<uint64_t> unapplied_overrides() const;

    void reset();

private:
    std::string name_;
    uint64_t base_;
    std::vector<std::unique_ptr<Register>> regs_;
    std::map<uint64_t, Register*> by_offset_;
    // The same registers indexed by offset / 4 (null: none there), for the
    // lookup on every bus access; offsets past kMaxWordTable words stay in
    // by_offset_ only.
    static constexpr uint64_t kMaxWordTable = 1u << 16;
    std::vector<Register*> by_word_;
    std::map<uint64_t, uint32_t> overrides_;
    std::set<uint64_t> applied_overrides_;
};

}  // namespace ai8x
