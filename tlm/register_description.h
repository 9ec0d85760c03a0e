// The registers as the device description (configs/<device>.yaml) declares
// them: the accelerator's (section register_map) and the SoC peripherals'
// (section peripherals). Every register's offset, access and reset, and every
// field's bit range, reset and meaning. This is the only place register fields
// are defined; register banks, the peripheral modules, the generated field
// accessors (ai8xsim-reggen, docs/architecture.md "Registers") and
// docs/register-map.md are built from it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ai8x {

enum class RegAccess {
    RW,   // read/write storage
    RO,   // read-only: writes are refused with a command error
    WO,   // write-only: reads return 0
    W1C,  // reads the value; writing 1 to a bit clears it, writing 0 leaves it
};

const char* to_string(RegAccess a);

// A bit field of a 32-bit register value, resolved from the description. Cheap
// to copy and to apply: behaviour code keeps these in structs built once.
struct RegField {
    unsigned lsb = 0;
    unsigned width = 0;  // 0: the field does not exist (get() reads 0)

    uint32_t mask() const { return width == 0 ? 0 : (width >= 32 ? ~0u : ((1u << width) - 1)) << lsb; }
    uint32_t get(uint32_t reg) const { return (reg & mask()) >> lsb; }
    bool is_set(uint32_t reg) const { return (reg & mask()) != 0; }
    // `reg` with this field replaced by `value` (bits beyond the field's width dropped).
    uint32_t with(uint32_t reg, uint32_t value) const { return (reg & ~mask()) | ((value << lsb) & mask()); }
    // Bit `i` of a field that holds one bit per FIFO/quadrant/processor.
    bool bit(uint32_t reg, unsigned i) const { return i < width && ((reg >> (lsb + i)) & 1u); }
    // `reg` with bit `i` of the field set to `on` (unchanged for i beyond the width).
    uint32_t with_bit(uint32_t reg, unsigned i, bool on) const {
        if (i >= width) return reg;
        const uint32_t b = 1u << (lsb + i);
        return on ? reg | b : reg & ~b;
    }
    unsigned msb() const { return lsb + width - 1; }
};

struct FieldDescription {
    std::string name;
    unsigned lsb = 0;
    unsigned width = 1;
    uint32_t reset = 0;  // field value after reset
    std::string meaning;
    // A key field (configs: `key:`): a write takes effect only when it holds
    // `key` here, and the field keeps its stored value (AIRCR.VECTKEY).
    bool keyed = false;
    uint32_t key = 0;

    RegField field() const { return RegField{lsb, width}; }
};

struct RegisterDescription {
    std::string name;
    uint64_t offset = 0;      // bytes from the block base (per-layer kinds: of layer 0)
    uint32_t slot = 0;        // per-layer kinds only: LREG slot index (kinds placed by offset: after the slots)
    bool has_slot = true;     // per-layer kinds: placed by slot (false: by an explicit offset)
    uint64_t layer_step = 0;  // per-layer kinds: bytes between the copies of two layers
    uint32_t layers = 0;      // per-layer kinds: layers that have this register (from layer 0)
    uint32_t count = 1;       // >1: an array of `count` registers `step` bytes apart (name + index)
    uint64_t step = 4;
    RegAccess access = RegAccess::RW;
    uint32_t reset = 0;  // the fields' resets combined
    std::string meaning;
    std::vector<FieldDescription> fields;

    const FieldDescription* find(const std::string& field_name) const;
};

// One copy of a peripheral on the bus (GPIO has three).
struct PeripheralInstance {
    std::string name;  // "GPIO0"; its module is called the same in lower case ("soc.gpio0")
    uint64_t base = 0;
    int interrupt = -1;  // Cortex-M4 interrupt (NVIC input) it raises; -1: none
};

// A kind of SoC register block (configs: peripherals): its registers once, and
// where each copy of it sits. Registers may leave out their fields: a register
// whose bits the model gives no meaning stores what is written.
struct PeripheralDescription {
    std::string name;   // "GPIO"
    uint64_t size = 0;  // bytes each instance decodes
    std::string meaning;
    // On the Cortex-M4's private peripheral bus (configs: `bus: core`, the
    // System Control Space): the core maps it; not in cpu.peripherals, not a
    // module of the SoC.
    bool core_bus = false;
    std::vector<PeripheralInstance> instances;
    std::vector<RegisterDescription> registers;

    const RegisterDescription* find(const std::string& register_name) const;
};

// The four register groups of the accelerator and the SoC peripherals.
struct RegisterMap {
    std::string source_path;                    // device file (for messages)
    std::vector<RegisterDescription> quadrant;  // global registers of each quadrant block
    std::vector<RegisterDescription> layer;     // per-layer kinds, in slot order
    std::vector<RegisterDescription> fifo;      // FIFO block
    std::vector<RegisterDescription> aon;       // always-on block
    std::vector<PeripheralDescription> peripherals;

    // Lookups by name; they throw ConfigError naming the device file when the
    // description lacks the register or field (code asks only for what it uses).
    const RegisterDescription& quadrant_register(const std::string& name) const;
    const RegisterDescription& layer_register(const std::string& name) const;
    const RegisterDescription& fifo_register(const std::string& name) const;
    const RegisterDescription& aon_register(const std::string& name) const;
    RegField field(const RegisterDescription& reg, const std::string& field_name) const;
    // The peripheral kind called `name`, or nullptr; the kind of instance `instance`, or nullptr.
    const PeripheralDescription* find_peripheral(const std::string& name) const;
    const PeripheralDescription* peripheral_of_instance(const std::string& instance) const;

    // For the generated binding (registers/cnn.cpp, tools/reggen.cpp): register
    // `name` of group `group` ("quadrant", "layer", "fifo", "aon"), nullptr when
    // an optional one is missing; field `field` of it, width 0 when an optional
    // one (or its register) is missing. A missing required one is a ConfigError
    // naming the device file.
    const RegisterDescription* find_register(const char* group, const char* name, bool required) const;
    RegField bind(const RegisterDescription* reg, const char* group, const char* reg_name, const char* field,
                  bool required) const;

    // Name of per-layer slot `slot` ("LREG_<n>" for a slot no kind uses).
    std::string layer_register_name(unsigned slot) const;
    // The per-layer kind called `name`, or nullptr when this device has none.
    const RegisterDescription* find_layer_register(const std::string& name) const;
    // Offset of layer `layer`'s copy of per-layer kind `d` inside the quadrant block.
    static uint64_t layer_offset(const RegisterDescription& d, uint32_t layer) {
        return d.offset + d.layer_step * layer;
    }
};

}  // namespace ai8x
