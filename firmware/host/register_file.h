// A block of 32-bit peripheral registers described as a table (name, offset,
// reset value, writable bits), with at most one handler per side effect.
// Used by the SoC peripheral models; the accelerator has its own banks.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

namespace ai8x {

struct RegisterSpec {
    const char* name;
    uint32_t offset;
    uint32_t reset;
    uint32_t writable;  // bits the bus may change; others keep their value (read-only: 0)
};

class RegisterFile {
public:
    using WriteHandler = std::function<void(uint32_t written)>;  // after the value is stored
    using ReadHandler = std::function<uint32_t()>;               // computes the value read

    RegisterFile(std::string block, std::initializer_list<RegisterSpec> specs);

    void on_write(const std::string& reg, WriteHandler h) { find(reg).on_write = std::move(h); }
    void on_read(const std::string& reg, ReadHandler h) { find(reg).on_read = std::move(h); }
    uint32_t& value(const std::string& reg) { return find(reg).value; }
    void reset();

    // `size` bytes at `offset` (1, 2 or 4, naturally aligned, within one
    // register). Returns false when no register is there or the access is
    // misaligned; the caller answers with a bus error.
    bool read(uint32_t offset, unsigned size, uint32_t& data);
    bool write(uint32_t offset, unsigned size, uint32_t data);

    const std::string& block() const { return block_; }

private:
    struct Reg {
        RegisterSpec spec;
        uint32_t value;
        WriteHandler on_write;
        ReadHandler on_read;
    };
    Reg& find(const std::string& name);
    Reg* at(uint32_t offset, unsigned size);

    std::string block_;
    std::vector<Reg> regs_;
};

}  // namespace ai8x
