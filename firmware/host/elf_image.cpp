#include "firmware/host/elf_image.h"

#include <elf.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

namespace ai8x {

std::string hex32(uint32_t value) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", value);
    return buf;
}

namespace {

// Copies a struct out of the file image, refusing reads past its end (a
// truncated or corrupt file must give a message, not a crash).
template <typename T>
T read_at(const std::vector<uint8_t>& file, uint64_t offset, const std::string& path, const char* what) {
    if (offset > file.size() || file.size() - offset < sizeof(T))
        throw ElfError(path + ": truncated ELF file (" + what + " at offset " + std::to_string(offset) + ")");
    T value;
    std::memcpy(&value, file.data() + offset, sizeof(T));
    return value;
}

}  // namespace

ElfImage ElfImage::load(const std::string& path, uint16_t machine) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ElfError(path + ": cannot open firmware image");
    const std::vector<uint8_t> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return parse(file, path, machine);
}

ElfImage ElfImage::parse(const std::vector<uint8_t>& file, const std::string& path, uint16_t machine) {
    auto eh = read_at<Elf32_Ehdr>(file, 0, path, "ELF header");
    if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) throw ElfError(path + ": not an ELF file");
    if (eh.e_ident[EI_CLASS] != ELFCLASS32 || eh.e_ident[EI_DATA] != ELFDATA2LSB)
        throw ElfError(path + ": not a 32-bit little-endian ELF file");
    if (eh.e_machine != machine)
        throw ElfError(path + ": not an " + std::string(machine == EM_ARM ? "ARM" : "RISC-V") +
                       " executable (e_machine " + std::to_string(eh.e_machine) + ")");
    if (eh.e_type != ET_EXEC) throw ElfError(path + ": not an executable (e_type " + std::to_string(eh.e_type) + ")");

    ElfImage img;
    img.path_ = path;
    img.entry_ = eh.e_entry;

    for (unsigned i = 0; i < eh.e_phnum; ++i) {
        auto ph =
            read_at<Elf32_Phdr>(file, uint64_t(eh.e_phoff) + uint64_t(i) * eh.e_phentsize, path, "program header");
        if (ph.p_type != PT_LOAD || ph.p_memsz == 0) continue;
        if (ph.p_filesz > ph.p_memsz || uint64_t(ph.p_offset) + ph.p_filesz > file.size())
            throw ElfError(path + ": program header " + std::to_string(i) + " points outside the file");
        if (uint64_t(ph.p_paddr) + ph.p_memsz > (uint64_t{1} << 32))
            throw ElfError(path + ": program header " + std::to_string(i) + " reaches past the 32-bit address space");
        // NOLOAD sections (.bss) have no file bytes; startup code clears them.
        if (ph.p_filesz == 0) continue;
        ElfSegment seg;
        seg.address = ph.p_paddr;
        seg.bytes.assign(file.begin() + ph.p_offset, file.begin() + ph.p_offset + ph.p_filesz);
        seg.size = ph.p_memsz;
        img.segments_.push_back(std::move(seg));
    }
    if (img.segments_.empty()) throw ElfError(path + ": no loadable segments");

    // Section names live in the string table that e_shstrndx designates.
    std::optional<Elf32_Shdr> shstrtab;
    if (eh.e_shstrndx != SHN_UNDEF && eh.e_shstrndx < eh.e_shnum)
        shstrtab = read_at<Elf32_Shdr>(file, uint64_t(eh.e_shoff) + uint64_t(eh.e_shstrndx) * eh.e_shentsize, path,
                                       "section name table header");
    auto string_at = [&file](uint64_t at) {
        if (at >= file.size()) return std::string();
        const char* begin = reinterpret_cast<const char*>(file.data() + at);
        return std::string(begin, strnlen(begin, file.size() - at));
    };
    for (unsigned i = 0; i < eh.e_shnum; ++i) {
        auto sh =
            read_at<Elf32_Shdr>(file, uint64_t(eh.e_shoff) + uint64_t(i) * eh.e_shentsize, path, "section header");
        if ((sh.sh_flags & SHF_ALLOC) && sh.sh_size > 0) {
            ElfSection sec;
            sec.name = shstrtab ? string_at(uint64_t(shstrtab->sh_offset) + sh.sh_name) : std::string();
            sec.address = sh.sh_addr;
            sec.size = sh.sh_size;
            sec.writable = (sh.sh_flags & SHF_WRITE) != 0;
            sec.nobits = sh.sh_type == SHT_NOBITS;
            img.sections_.push_back(std::move(sec));
        }
        if (sh.sh_type != SHT_SYMTAB) continue;
        auto strtab = read_at<Elf32_Shdr>(file, uint64_t(eh.e_shoff) + uint64_t(sh.sh_link) * eh.e_shentsize, path,
                                          "string table header");
        for (uint32_t off = 0; off + sizeof(Elf32_Sym) <= sh.sh_size; off += sizeof(Elf32_Sym)) {
            auto sym = read_at<Elf32_Sym>(file, uint64_t(sh.sh_offset) + off, path, "symbol");
            const int type = ELF32_ST_TYPE(sym.st_info);
            // Linker-script addresses: global, untyped, defined (an undefined
            // reference of the same kind names nothing).
            const bool linker_symbol =
                type == STT_NOTYPE && ELF32_ST_BIND(sym.st_info) == STB_GLOBAL && sym.st_shndx != SHN_UNDEF;
            if (type != STT_FUNC && type != STT_OBJECT && !linker_symbol) continue;
            uint64_t name_at = uint64_t(strtab.sh_offset) + sym.st_name;
            if (name_at >= file.size()) continue;
            std::string name = string_at(name_at);
            if (name.empty()) continue;
            if (linker_symbol)
                img.linker_symbols_.push_back({sym.st_value, 0, name, false});
            else
                img.symbols_.push_back(
                    {type == STT_FUNC ? sym.st_value & ~1u : sym.st_value, sym.st_size, name, type == STT_OBJECT});
        }
    }
    std::sort(img.symbols_.begin(), img.symbols_.end(),
              [](const ElfSymbol& a, const ElfSymbol& b) { return a.address < b.address; });
    return img;
}

std::string ElfImage::describe(uint32_t address) const {
    auto it = std::upper_bound(symbols_.begin(), symbols_.end(), address,
                               [](uint32_t a, const ElfSymbol& s) { return a < s.address; });
    while (it != symbols_.begin()) {
        --it;
        uint32_t end = it->address + std::max<uint32_t>(it->size, 1);
        if (address >= it->address && address < end) {
            uint32_t off = address - it->address;
            if (off == 0) return it->name;
            char buf[24];
            std::snprintf(buf, sizeof buf, "+0x%x", off);
            return it->name + buf;
        }
        if (it->size != 0) break;
    }
    return hex32(address);
}

uint32_t ElfImage::symbol_address(const std::string& name) const {
    if (auto a = find_symbol(name)) return *a;
    throw ElfError(path_ + ": no symbol '" + name + "'");
}

std::optional<uint32_t> ElfImage::find_symbol(const std::string& name) const {
    for (const auto& s : symbols_)
        if (s.name == name) return s.address;
    for (const auto& s : linker_symbols_)
        if (s.name == name) return s.address;
    return std::nullopt;
}

std::vector<ElfSymbol> ElfImage::objects_in(uint32_t begin, uint32_t end) const {
    std::vector<ElfSymbol> out;
    for (const auto& s : symbols_)
        if (s.object && s.size > 0 && s.address >= begin && uint64_t(s.address) + s.size <= end) out.push_back(s);
    return out;
}

std::optional<ElfSymbol> ElfImage::object_at(uint32_t address) const {
    for (const auto& s : symbols_)
        if (s.object && address >= s.address && address - s.address < s.size) return s;
    return std::nullopt;
}

std::optional<ElfSymbol> ElfImage::function_at(uint32_t address) const {
    for (const auto& s : symbols_)
        if (!s.object && address >= s.address && address - s.address < std::max<uint32_t>(s.size, 1)) return s;
    return std::nullopt;
}

std::optional<ElfSymbol> ElfImage::symbol(const std::string& name) const {
    for (const auto& s : symbols_)
        if (s.name == name) return s;
    return std::nullopt;
}

}  // namespace ai8x
