// A 32-bit little-endian ELF executable (ARM or RISC-V) read into memory: the bytes to
// load (program headers), the function/object symbols, kept so that
// messages can name the code at a PC ("cnn_start+0x1c") and the variable at a
// data address ("ml_data32+0x48"), the linker script's address markers
// (__heap_start, __stack_top...) and the allocated sections (the memory checker's layout).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ai8x {

// The file is missing, unreadable or not an executable for the expected machine; what() names the file.
struct ElfError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct ElfSegment {
    uint32_t address = 0;        // physical (load) address
    std::vector<uint8_t> bytes;  // file contents (p_filesz bytes)
    // Bytes the segment occupies in memory (p_memsz): `bytes`, then zeros. The
    // zeros are not stored: a corrupt header may claim gigabytes of them, and
    // only the loader, knowing the device's memories, can refuse that.
    uint32_t size = 0;
};

struct ElfSymbol {
    uint32_t address = 0;  // of a function: Thumb bit cleared
    uint32_t size = 0;
    std::string name;
    bool object = false;  // STT_OBJECT (a variable); false: STT_FUNC
};

// An allocated section (SHF_ALLOC): where it lives when the program runs.
struct ElfSection {
    std::string name;
    uint32_t address = 0;
    uint32_t size = 0;
    bool writable = false;  // SHF_WRITE
    bool nobits = false;    // SHT_NOBITS (.bss): no file bytes
};

class ElfImage {
public:
    // Reads `path`, an executable for `machine` (ELF e_machine: EM_ARM 40,
    // EM_RISCV 243); throws ElfError with the path and the reason.
    static ElfImage load(const std::string& path, uint16_t machine = 40);
    // The same from the file's bytes; `path` names it in messages.
    static ElfImage parse(const std::vector<uint8_t>& file, const std::string& path, uint16_t machine = 40);

    const std::string& path() const { return path_; }
    uint32_t entry() const { return entry_; }
    const std::vector<ElfSegment>& segments() const { return segments_; }

    // "name+0xoff" for the symbol that contains `address`, or hex if none does.
    std::string describe(uint32_t address) const;
    // Address of a symbol by name; throws ElfError if absent.
    uint32_t symbol_address(const std::string& name) const;
    // Address of a symbol by name, or nothing if the image has no such symbol.
    std::optional<uint32_t> find_symbol(const std::string& name) const;
    // The whole symbol (address and size), or nothing.
    std::optional<ElfSymbol> symbol(const std::string& name) const;
    // Function and object symbols, sorted by address.
    const std::vector<ElfSymbol>& symbols() const { return symbols_; }
    // Variables (STT_OBJECT, size > 0) whose bytes lie in [begin, end), sorted by address.
    std::vector<ElfSymbol> objects_in(uint32_t begin, uint32_t end) const;
    // The variable containing `address`, or nothing.
    std::optional<ElfSymbol> object_at(uint32_t address) const;
    // The function containing `address`, or nothing.
    std::optional<ElfSymbol> function_at(uint32_t address) const;
    const std::vector<ElfSection>& sections() const { return sections_; }

private:
    std::string path_;
    uint32_t entry_ = 0;
    std::vector<ElfSegment> segments_;
    std::vector<ElfSymbol> symbols_;  // sorted by address
    // Global symbols without a type: addresses the linker script defines
    // (__bss_end, __heap_start, __stack_top...); found by find_symbol only, as
    // they name no code or variable.
    std::vector<ElfSymbol> linker_symbols_;
    std::vector<ElfSection> sections_;
};

std::string hex32(uint32_t value);

}  // namespace ai8x
