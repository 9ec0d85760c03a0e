// Firmware memory checker: watches the CPU's stores into SRAM and reports the
// ones that corrupt memory, naming the storing function and the variable or
// heap block it overran, long before the corruption makes the firmware fault
// somewhere unrelated (a bus fault inside printf, say).
//
// The layout comes from the ELF image: variables (.data/.bss objects with
// their sizes) and the linker script's markers (__data_start, __bss_end,
// __heap_start, __stack_limit or __heap_end, __stack_top). Four kinds of store
// are recorded, once per storing instruction ("site") with a count, and read
// as findings: the sites of one function that corrupted one object the same
// way (an unrolled copy loop is many sites), one line each:
//  - object_overrun / object_underrun: a site that first wrote variable A later
//    writes outside A (padding, another variable, the heap): an array loop
//    running off its end. A site whose first store hits padding is charged to
//    the variable before the padding. Library copy/fill routines and startup
//    code, which write many variables by design, are not tracked this way.
//  - heap_overrun / heap_metadata / heap_unallocated: a store into the heap
//    outside every block that newlib's allocator handed out (_malloc_r,
//    _realloc_r, _free_r are observed on entry and return): past a block's end,
//    into a block's header, or into space not allocated at all.
//  - stack_overflow: a store at or above SP while SP is below the stack limit.
//  - flash_write: a store into read-only memory (the run then stops).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "firmware/host/elf_image.h"

namespace ai8x {

class CortexM4;

struct MemoryFault {
    std::string kind;          // see the list above
    uint32_t site = 0;         // address of the storing instruction
    std::string function;      // the site as symbol+offset
    std::string routine;       // the function alone (symbol, or the address without one)
    std::string object;        // variable, heap block or region the store overran
    uint32_t object_size = 0;  // its size in bytes
    uint32_t first_address = 0;
    // How far the stores went: bytes past the object's end (for an underrun,
    // before its start; for a stack overflow, below the stack limit).
    uint32_t extent_past_end = 0;
    uint64_t count = 0;   // stores by this site of this kind
    double first_us = 0;  // simulated time of the first one
    uint64_t first_instruction = 0;

    // One line with the extent and count: "unload_outputs+0x16 wrote up to 4056
    // byte(s) past the end of ml_data32 (40 bytes), first at 0x20000090 (4056 stores)".
    std::string summary() const;
    // The first store alone, as logged when it happens.
    std::string first_notice() const;
};

// The sites of one routine that corrupted one object in one way: what the run
// prints at its end, one line each (the sites stay in the run JSON and, as
// they happen, under -v debug).
struct MemoryFinding {
    const MemoryFault* first = nullptr;  // its first site
    uint32_t extent_past_end = 0;        // the furthest of its sites
    std::size_t sites = 0;
    uint64_t stores = 0;
    // "cnn_unload wrote up to 972 byte(s) past the end of ml_data32 (176 bytes): 4 sites,
    // 832 stores; first cnn_unload+0x16 at 0x200002b0, 14071.2 us".
    std::string summary() const;
};
// The findings of `faults`, in order of their first store.
std::vector<MemoryFinding> memory_findings(const std::vector<MemoryFault>& faults);
// Logs the findings as warnings (a header line and one line each) and every
// site at debug level; nothing when there are none.
void log_memory_findings(const std::vector<MemoryFault>& faults);

class MemoryChecker {
public:
    // Reads the layout from the CPU's image and registers the CPU hooks; call
    // before the simulation starts. Returns false (checker inactive) when the
    // image lacks the layout markers, and logs why.
    bool attach(CortexM4& cpu);

    const std::vector<MemoryFault>& faults() const { return faults_; }  // in order of first occurrence

private:
    struct Block {  // a live heap block
        uint32_t size;
        uint32_t caller;  // return address of the allocation
    };
    struct Site {
        // Index in objects_ of the first variable this site wrote; -1 none yet,
        // -2 never bound (copy/fill/startup code).
        int object = -1;
        uint32_t pc = 0;    // the storing instruction
        uint32_t last = 0;  // address of its previous store
        int base = -1;      // Unicorn id of the base register it addresses through; -1 unknown
    };
    // Whether a store at `address` by a site whose previous store was at `last`
    // starts over on a new buffer (a new call) rather than continuing a run.
    static bool starts_over(uint32_t last, uint32_t address, uint32_t buffer_start);
    // The store now being made, identified without an exact PC: the block
    // running and how many stores it made before this one.
    Site& site_of_current_store();
    uint32_t store_instruction(uint32_t block, unsigned ordinal) const;
    int base_register(uint32_t pc) const;  // Unicorn id of the store's base register (R0-R12), or -1

    void on_write(uint32_t address, unsigned size);
    void check(uint32_t address, unsigned size);
    void check_heap(uint32_t pc, uint32_t address, unsigned size);
    void report(const std::string& kind, uint32_t pc, const std::string& object, uint32_t object_size, uint32_t address,
                uint32_t extent);
    bool untracked_site(uint32_t pc) const;
    void watch_allocator();

    CortexM4* cpu_ = nullptr;
    const ElfImage* image_ = nullptr;
    uint32_t data_begin_ = 0, data_end_ = 0;  // .data + .bss
    uint32_t heap_begin_ = 0, heap_end_ = 0;
    uint32_t stack_limit_ = 0, stack_top_ = 0;
    std::vector<ElfSymbol> objects_;
    std::vector<int32_t> owner_;  // per byte of [data_begin_, data_end_): index in objects_, -1 for padding
    std::unordered_map<uint64_t, Site> sites_;                        // by (block start << 16 | store ordinal)
    uint64_t block_serial_ = ~uint64_t(0);                            // block of the last store seen
    unsigned store_ordinal_ = 0;                                      // stores of that block so far
    std::vector<std::pair<uint32_t, uint32_t>> untracked_;            // [begin, end) of copy/fill/startup code
    std::map<uint32_t, Block> blocks_;                                // by user address
    int in_allocator_ = 0;                                            // allocator calls in progress
    std::vector<std::pair<uint32_t, uint32_t>> pending_allocations_;  // (size, caller) of open _malloc_r calls
    struct PendingRealloc {
        uint32_t old_ptr, size, caller;
    };
    std::vector<PendingRealloc> pending_reallocs_;
    std::vector<MemoryFault> faults_;
    std::map<std::pair<uint32_t, std::string>, size_t> fault_index_;  // (site, kind) -> faults_
};

}  // namespace ai8x
