#include "firmware/host/memory_checker.h"

#include <algorithm>
#include <map>
#include <tuple>

#include <spdlog/fmt/fmt.h>
#include <spdlog/spdlog.h>

#include "firmware/host/cortex_m4.h"
#include "firmware/host/thumb_stores.h"

namespace ai8x {

namespace {

// Routines that write many variables by design (copy, fill, startup's .data
// copy and .bss clear): a site inside them is not bound to the first variable
// it wrote. Heap and stack checks still apply to their stores.
const char* const kUntrackedFunctions[] = {
    "Reset_Handler",   "memset",          "memcpy", "memmove", "__aeabi_memset", "__aeabi_memcpy",    "__aeabi_memclr",
    "__aeabi_memclr4", "__aeabi_memcpy4", "strcpy", "strncpy", "strcat",         "__libc_init_array",
};

// newlib-nano keeps each block's size in the word before the pointer it returns.
constexpr uint32_t kChunkHeaderBytes = 4;

}  // namespace

std::string MemoryFault::first_notice() const {
    const std::string at = hex32(first_address);
    if (kind == "object_overrun" || kind == "heap_overrun")
        return fmt::format("{} wrote past the end of {} ({} bytes) at {}", function, object, object_size, at);
    if (kind == "object_underrun")
        return fmt::format("{} wrote before the start of {} ({} bytes) at {}", function, object, object_size, at);
    if (kind == "heap_metadata")
        return fmt::format("{} wrote into the allocator's header of {}, at {}", function, object, at);
    if (kind == "heap_unallocated")
        return fmt::format("{} wrote into heap memory no allocation handed out, at {}", function, at);
    if (kind == "stack_overflow")
        return fmt::format("{} wrote below the stack limit at {}: the {} overflowed", function, at, object);
    if (kind == "flash_write")
        return fmt::format("{} wrote to read-only memory (flash) at {}, inside {}", function, at, object);
    return fmt::format("{}: {} at {}", kind, function, at);
}

std::string MemoryFault::summary() const {
    const std::string stores = fmt::format("{} store{}", count, count == 1 ? "" : "s");
    const std::string at = hex32(first_address);
    if (kind == "object_overrun" || kind == "heap_overrun")
        return fmt::format("{} wrote up to {} byte(s) past the end of {} ({} bytes), first at {} ({})", function,
                           extent_past_end, object, object_size, at, stores);
    if (kind == "object_underrun")
        return fmt::format("{} wrote up to {} byte(s) before the start of {} ({} bytes), first at {} ({})", function,
                           extent_past_end, object, object_size, at, stores);
    if (kind == "stack_overflow")
        return fmt::format("{} wrote {} byte(s) below the stack limit: the {} overflowed, first at {} ({})", function,
                           extent_past_end, object, at, stores);
    return first_notice() + " (" + stores + ")";
}

std::string MemoryFinding::summary() const {
    const MemoryFault& f = *first;
    std::string what;
    if (f.kind == "object_overrun")
        what = fmt::format("{} wrote up to {} byte(s) past the end of {} ({} bytes)", f.routine, extent_past_end,
                           f.object, f.object_size);
    else if (f.kind == "heap_overrun")  // the block's name says its size
        what = fmt::format("{} wrote up to {} byte(s) past the end of {}", f.routine, extent_past_end, f.object);
    else if (f.kind == "object_underrun")
        what = fmt::format("{} wrote up to {} byte(s) before the start of {} ({} bytes)", f.routine, extent_past_end,
                           f.object, f.object_size);
    else if (f.kind == "heap_metadata")
        what = fmt::format("{} wrote into the allocator's header of {}", f.routine, f.object);
    else if (f.kind == "heap_unallocated")
        what = fmt::format("{} wrote into heap memory no allocation handed out", f.routine);
    else if (f.kind == "stack_overflow")
        what = fmt::format("{} wrote {} byte(s) below the stack limit: the {} overflowed", f.routine, extent_past_end,
                           f.object);
    else if (f.kind == "flash_write")
        what = fmt::format("{} wrote to read-only memory (flash), inside {}", f.routine, f.object);
    else
        what = fmt::format("{}: {}", f.kind, f.routine);
    return fmt::format("{}: {} site{}, {} store{}; first {} at {}, {:.1f} us", what, sites, sites == 1 ? "" : "s",
                       stores, stores == 1 ? "" : "s", f.function, hex32(f.first_address), f.first_us);
}

std::vector<MemoryFinding> memory_findings(const std::vector<MemoryFault>& faults) {
    std::vector<MemoryFinding> findings;
    std::map<std::tuple<std::string, std::string, std::string>, std::size_t> index;  // kind, routine, object
    for (const MemoryFault& f : faults) {
        const auto [it, fresh] = index.try_emplace({f.kind, f.routine, f.object}, findings.size());
        if (fresh) findings.push_back({&f, 0, 0, 0});
        MemoryFinding& g = findings[it->second];
        g.extent_past_end = std::max(g.extent_past_end, f.extent_past_end);
        ++g.sites;
        g.stores += f.count;
    }
    return findings;
}

void log_memory_findings(const std::vector<MemoryFault>& faults) {
    if (faults.empty()) return;
    const std::vector<MemoryFinding> findings = memory_findings(faults);
    spdlog::warn(
        "memory checker: the firmware corrupted memory, {} finding(s) from {} store site(s) (each site: "
        "-v debug, run JSON firmware_faults):",
        findings.size(), faults.size());
    for (const MemoryFinding& g : findings) spdlog::warn("  [{}] {}", g.first->kind, g.summary());
    for (const MemoryFault& f : faults) spdlog::debug("memory checker:   site [{}] {}", f.kind, f.summary());
}

bool MemoryChecker::attach(CortexM4& cpu) {
    cpu_ = &cpu;
    image_ = cpu.image();
    if (!image_) return false;
    const auto data_begin = image_->find_symbol("__data_start");
    const auto bss_end = image_->find_symbol("__bss_end");
    const auto heap_begin = image_->find_symbol("__heap_start");
    const auto heap_end = image_->find_symbol("__heap_end");
    const auto stack_top = image_->find_symbol("__stack_top");
    auto stack_limit = image_->find_symbol("__stack_limit");
    if (!stack_limit) stack_limit = heap_end;
    if (!data_begin || !bss_end || !heap_begin || !heap_end || !stack_top || *data_begin > *bss_end ||
        *heap_begin > *heap_end || *stack_limit > *stack_top) {
        spdlog::info("memory checker off: {} lacks the layout symbols of firmware/startup/sections.ld", image_->path());
        return false;
    }
    data_begin_ = *data_begin;
    data_end_ = *bss_end;
    heap_begin_ = *heap_begin;
    heap_end_ = *heap_end;
    stack_limit_ = *stack_limit;
    stack_top_ = *stack_top;

    objects_ = image_->objects_in(data_begin_, data_end_);
    owner_.assign(data_end_ - data_begin_, -1);
    for (size_t i = 0; i < objects_.size(); ++i)
        for (uint32_t a = objects_[i].address; a < objects_[i].address + objects_[i].size; ++a)
            if (owner_[a - data_begin_] < 0) owner_[a - data_begin_] = int32_t(i);  // aliases: the first name
    for (const char* name : kUntrackedFunctions)
        if (auto f = image_->symbol(name); f && !f->object)
            untracked_.emplace_back(f->address, f->address + std::max<uint32_t>(f->size, 2));

    if (heap_begin_ < data_end_ || stack_limit_ < heap_end_) {
        spdlog::info("memory checker off: {} does not lay out .data/.bss, heap and stack in that order",
                     image_->path());
        return false;
    }
    // Every store, not only those into .data/.bss/heap: the checker numbers
    // the stores of each block to find the instruction that made one.
    cpu.watch_writes(1, 0, [this](uint32_t address, unsigned size) { on_write(address, size); });
    cpu.on_protected_write = [this](uint32_t address, uint32_t pc) {
        const auto object = image_->object_at(address);
        report("flash_write", pc, object ? object->name : hex32(address), object ? object->size : 0, address, 0);
    };
    watch_allocator();
    spdlog::debug("memory checker: {} variables in [{}, {}), heap [{}, {}), stack [{}, {})", objects_.size(),
                  hex32(data_begin_), hex32(data_end_), hex32(heap_begin_), hex32(heap_end_), hex32(stack_limit_),
                  hex32(stack_top_));
    return true;
}

void MemoryChecker::watch_allocator() {
    // newlib's reentrant entry points: malloc/calloc/free/realloc all end up here.
    // Stores made while one of them runs are the allocator's own bookkeeping.
    auto watch = [this](const char* name, std::function<void()> entry, std::function<void()> done) {
        const auto f = image_->symbol(name);
        if (!f || f->object) return;
        cpu_->observe_calls(
            f->address,
            [this, done](sc_core::sc_time, sc_core::sc_time) {
                if (done) done();
                --in_allocator_;
            },
            [this, entry] {
                ++in_allocator_;
                if (entry) entry();
            });
    };
    watch(
        "_malloc_r",
        [this] {
            pending_allocations_.emplace_back(cpu_->read_register(UC_ARM_REG_R1),
                                              cpu_->read_register(UC_ARM_REG_LR) & ~1u);
        },
        [this] {
            if (pending_allocations_.empty()) return;
            const auto [size, caller] = pending_allocations_.back();
            pending_allocations_.pop_back();
            if (const uint32_t ptr = cpu_->read_register(UC_ARM_REG_R0)) blocks_[ptr] = {size, caller};
        });
    watch(
        "_realloc_r",
        [this] {
            pending_reallocs_.push_back({cpu_->read_register(UC_ARM_REG_R1), cpu_->read_register(UC_ARM_REG_R2),
                                         cpu_->read_register(UC_ARM_REG_LR) & ~1u});
        },
        [this] {
            if (pending_reallocs_.empty()) return;
            const PendingRealloc r = pending_reallocs_.back();
            pending_reallocs_.pop_back();
            const uint32_t ptr = cpu_->read_register(UC_ARM_REG_R0);
            if (ptr == 0) return;  // failed: the old block stays
            blocks_.erase(r.old_ptr);
            blocks_[ptr] = {r.size, r.caller};
        });
    watch("_free_r", [this] { blocks_.erase(cpu_->read_register(UC_ARM_REG_R1)); }, {});
    watch("_calloc_r", {}, {});  // its _malloc_r call registers the block
}

bool MemoryChecker::untracked_site(uint32_t pc) const {
    for (const auto& [begin, end] : untracked_)
        if (pc >= begin && pc < end) return true;
    return false;
}

void MemoryChecker::on_write(uint32_t address, unsigned size) {
    // Every store is counted, so that the ordinal of a store in its block
    // matches the block's code; only those below the stack region are checked.
    const uint64_t serial = cpu_->block_serial();
    if (serial != block_serial_) {
        block_serial_ = serial;
        store_ordinal_ = 0;
    }
    ++store_ordinal_;
    if (address >= stack_limit_ || address < data_begin_ || in_allocator_ > 0) return;
    check(address, size);
}

MemoryChecker::Site& MemoryChecker::site_of_current_store() {
    const uint32_t block = cpu_->block_start();
    const unsigned ordinal = store_ordinal_ - 1;
    auto [it, fresh] = sites_.try_emplace((uint64_t(block) << 16) | (ordinal & 0xFFFF));
    if (fresh) {
        it->second.pc = store_instruction(block, ordinal);
        if (it->second.pc != block || ordinal == 0) it->second.base = base_register(it->second.pc);
        if (untracked_site(it->second.pc)) it->second.object = -2;
    }
    return it->second;
}

int MemoryChecker::base_register(uint32_t pc) const {
    uint16_t half[2] = {0, 0};
    if (!cpu_->read_memory(pc, half, 4) && !cpu_->read_memory(pc, half, 2)) return -1;
    if (thumb_store_preindexed(half[0], half[1])) return -1;  // judged by where it lands instead
    const int reg = thumb_store_base(half[0]);
    if (reg < 0 || reg > 12) return -1;  // SP-relative stores address the stack, not a variable
    return UC_ARM_REG_R0 + reg;          // R0-R12 are consecutive in Unicorn's numbering
}

uint32_t MemoryChecker::store_instruction(uint32_t block, unsigned ordinal) const {
    // Walk the block's instructions, counting their stores, up to the one that
    // made store number `ordinal`. A block is straight-line code; a bound keeps
    // a mismatch (a store skipped inside an IT block) from running away.
    constexpr unsigned kMaxBlockBytes = 4096;
    unsigned seen = 0;
    for (uint32_t at = block; at - block < kMaxBlockBytes;) {
        uint16_t half[2] = {0, 0};
        if (!cpu_->read_memory(at, half, 2)) break;
        if (thumb_length(half[0]) == 4 && !cpu_->read_memory(at + 2, &half[1], 2)) break;
        seen += thumb_store_count(half[0], half[1]);
        if (seen > ordinal) return at;
        at += thumb_length(half[0]);
    }
    return block;  // not found: name the block
}

void MemoryChecker::check(uint32_t address, unsigned size) {
    Site& site = site_of_current_store();
    const uint32_t pc = site.pc;
    const uint32_t sp = cpu_->read_register(UC_ARM_REG_SP);
    // PUSH/STMDB store below the SP they have not yet lowered.
    constexpr uint32_t kMaxPushBytes = 64;
    if (sp < stack_limit_ + kMaxPushBytes && address + kMaxPushBytes >= sp) {
        report("stack_overflow", pc, "stack", stack_top_ - stack_limit_, address, stack_limit_ - address);
        return;
    }
    const uint32_t last = site.last;
    site.last = address;
    if (site.object != -2 && site.base >= 0) {
        // The pointer the store goes through still points into variable A but
        // the store lands past A's end: an overrun of A, whichever object it hits.
        const uint32_t base = cpu_->read_register(site.base);
        if (base >= data_begin_ && base < data_end_ && owner_[base - data_begin_] >= 0) {
            const ElfSymbol& object = objects_[size_t(owner_[base - data_begin_])];
            if (address + size > object.address + object.size && address >= object.address) {
                report("object_overrun", pc, object.name, object.size, address,
                       address + size - (object.address + object.size));
                return;
            }
        }
    }
    if (address < data_end_) {
        const int first = owner_[address - data_begin_];
        const uint32_t last_byte = std::min(address + size - 1, data_end_ - 1);
        const int last_owner = owner_[last_byte - data_begin_];
        int& bound = site.object;
        if (bound == -2) return;
        if (bound >= 0 && first >= 0 && first != bound && starts_over(last, address, objects_[size_t(first)].address))
            bound = -1;  // the same code called again on another variable
        if (bound == -1) {
            if (first >= 0) {
                bound = first;
                if (last_owner == first) return;
            } else {
                // First store of this site lands in padding: charge the variable before it.
                auto after = std::upper_bound(objects_.begin(), objects_.end(), address,
                                              [](uint32_t a, const ElfSymbol& s) { return a < s.address; });
                if (after == objects_.begin()) return;
                bound = int(after - objects_.begin()) - 1;
            }
        } else if (first == bound && last_owner == bound) {
            return;
        }
        const ElfSymbol& object = objects_[size_t(bound)];
        if (address < object.address)
            report("object_underrun", pc, object.name, object.size, address, object.address - address);
        else
            report("object_overrun", pc, object.name, object.size, address,
                   address + size - (object.address + object.size));
        return;
    }
    if (address >= heap_begin_ && address < heap_end_) {
        // A site that was filling a variable and now writes the heap ran off
        // the variable's end, unless it starts over at a block of its own.
        if (site.object >= 0 && blocks_.count(address) && starts_over(last, address, address)) site.object = -1;
        if (site.object >= 0) {
            const ElfSymbol& object = objects_[size_t(site.object)];
            report("object_overrun", pc, object.name, object.size, address,
                   address + size - (object.address + object.size));
            return;
        }
        check_heap(pc, address, size);
    }
}

bool MemoryChecker::starts_over(uint32_t last, uint32_t address, uint32_t buffer_start) {
    // A loop running off an array's end reaches the next buffer's start from
    // just below it; a new call jumps there from elsewhere.
    constexpr uint32_t kContinuation = 64;
    return address == buffer_start && !(last < buffer_start && buffer_start - last <= kContinuation);
}

void MemoryChecker::check_heap(uint32_t pc, uint32_t address, unsigned size) {
    auto name = [this](uint32_t ptr, const Block& b) {
        return fmt::format("heap block at {} ({} bytes, allocated from {})", hex32(ptr), b.size,
                           image_->describe(b.caller));
    };
    auto next = blocks_.upper_bound(address);  // first block starting after the store
    if (next != blocks_.end() && address < next->first && address + size > next->first - kChunkHeaderBytes) {
        report("heap_metadata", pc, name(next->first, next->second), next->second.size, address, 0);
        return;
    }
    if (next == blocks_.begin()) {
        report("heap_unallocated", pc, "heap", heap_end_ - heap_begin_, address, 0);
        return;
    }
    const auto block = std::prev(next);
    const uint32_t end = block->first + block->second.size;
    if (address + size <= end) return;  // inside the block
    report("heap_overrun", pc, name(block->first, block->second), block->second.size, address, address + size - end);
}

void MemoryChecker::report(const std::string& kind, uint32_t pc, const std::string& object, uint32_t object_size,
                           uint32_t address, uint32_t extent) {
    const auto key = std::make_pair(pc, kind);
    const auto found = fault_index_.find(key);
    if (found != fault_index_.end()) {
        MemoryFault& f = faults_[found->second];
        ++f.count;
        f.extent_past_end = std::max(f.extent_past_end, extent);
        return;
    }
    MemoryFault f;
    f.kind = kind;
    f.site = pc;
    f.function = cpu_->describe(pc);
    f.routine = f.function.substr(0, f.function.rfind('+'));
    f.object = object;
    f.object_size = object_size;
    f.first_address = address;
    f.extent_past_end = extent;
    f.count = 1;
    f.first_us = cpu_->local_time().to_seconds() * 1e6;
    f.first_instruction = cpu_->instructions();
    fault_index_.emplace(key, faults_.size());
    faults_.push_back(f);
    // Each site as it happens is detail (-v debug); the run's end prints the findings.
    spdlog::debug("memory checker: {} (first store of this site)", f.first_notice());
}

}  // namespace ai8x
