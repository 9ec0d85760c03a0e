#include "firmware/host/unicorn_cpu.h"

#include "tlm/address_search.h"
#include "tlm/sync_hint.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstring>

namespace ai8x {

namespace {

constexpr uint64_t kPage = 0x1000;

uint64_t page_down(uint64_t a) { return a & ~(kPage - 1); }
uint64_t page_up(uint64_t a) { return (a + kPage - 1) & ~(kPage - 1); }

}  // namespace

void check_uc(uc_err err, const std::string& what) {
    if (err != UC_ERR_OK) throw std::runtime_error(what + ": " + uc_strerror(err));
}

UnicornCpu::UnicornCpu(sc_core::sc_module_name name, const DeviceConfig& cfg, uc_arch arch, uc_mode mode,
                       CoreTiming timing, uint16_t elf_machine)
    : sc_module(name),
      socket("socket"),
      cfg_(cfg),
      cycle_(sc_core::sc_time(1.0 / timing.hz, sc_core::SC_SEC)),
      timing_(timing),
      pricer_(BlockPricer::InstructionSet{[this](uint16_t halfword) { return instruction_bytes(halfword); },
                                          [this](uint16_t hw1, uint16_t hw2, bool& after_access) {
                                              return instruction_cycles(hw1, hw2, after_access);
                                          },
                                          timing.cycles_per_instruction},
              [this](uint32_t address, void* out, uint32_t bytes) {
                  return uc_mem_read(uc_, address, out, bytes) == UC_ERR_OK;
              }),
      poll_fast_forward_(*this, books_, qk_),
      elf_machine_(elf_machine) {
    if (tlm::tlm_global_quantum::instance().get() == sc_core::SC_ZERO_TIME)
        tlm::tlm_global_quantum::instance().set(sc_core::sc_time(1, sc_core::SC_US));
    check_uc(uc_open(arch, mode, &uc_), "Unicorn uc_open");
    issue_time_ = new IssueTime;
    bus_payload_.set_extension(issue_time_);  // the payload frees its extensions
    socket.register_invalidate_direct_mem_ptr(this, &UnicornCpu::invalidate_direct_mem_ptr);
}

UnicornCpu::~UnicornCpu() {
    if (uc_) uc_close(uc_);
}

void UnicornCpu::load_elf(const std::string& path) { image_ = ElfImage::load(path, elf_machine_); }

void UnicornCpu::halt() { halted_ = true; }

void UnicornCpu::observe_calls(uint32_t address, CallObserver done, std::function<void()> entry) {
    call_watches_.push_back(
        std::make_unique<CallWatch>(CallWatch{this, address & ~1u, std::move(done), std::move(entry)}));
}

void UnicornCpu::watch_writes(uint32_t begin, uint32_t end, WriteWatch written) {
    write_watches_.push_back(std::make_unique<WriteWatchRange>(WriteWatchRange{begin, end, std::move(written)}));
}

bool UnicornCpu::read_memory(uint32_t address, void* out, uint32_t bytes) const {
    return uc_mem_read(uc_, address, out, bytes) == UC_ERR_OK;
}

uint32_t UnicornCpu::read_register(int reg) const {
    uint32_t v = 0;
    uc_reg_read(uc_, reg, &v);
    return v;
}

sc_core::sc_time UnicornCpu::local_time() const { return local_time_at(books_.cycles); }

sc_core::sc_time UnicornCpu::local_time_at(uint64_t cycles) const {
    // `cycles` may lie before cycles_accounted (an instruction inside a block
    // whose whole cost is already accounted), hence the signed difference.
    const double pending = (double(cycles) - double(books_.cycles_accounted)) + double(wait_cycles_);
    return sc_core::sc_time_stamp() + qk_.get_local_time() + pending * cycle_;
}

std::string UnicornCpu::describe(uint32_t address) const { return image_ ? image_->describe(address) : hex32(address); }

void UnicornCpu::stop_with_error(const std::string& message) {
    if (error_) return;
    qk_.settle();  // the run stops at SystemC time: where the core's waits would have put it
    error_ = message;
    // The owner reports it (on_error / error()); here only for --log-level debug.
    spdlog::debug("{}: stopped: {}", name(), message);
    halt();
    if (on_error) on_error(message);
}

void UnicornCpu::map_memories() {
    for (const auto& r : cfg_.cpu_regions) {
        tlm::tlm_generic_payload trans;
        tlm::tlm_dmi dmi;
        trans.set_command(r.writable ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
        trans.set_address(r.base);
        if (!socket->get_direct_mem_ptr(trans, dmi) || dmi.get_start_address() > r.base ||
            dmi.get_end_address() < r.base + r.size - 1)
            throw std::runtime_error(std::string(name()) + ": the bus grants no direct access to " + r.name + " [" +
                                     hex32(uint32_t(r.base)) + ", +" + std::to_string(r.size) + ")");
        if (r.base % kPage || r.size % kPage)
            throw std::runtime_error(r.name + ": base and size must be multiples of 4 KiB (" + cfg_.source_path + ")");
        uint8_t* host = dmi.get_dmi_ptr() + (r.base - dmi.get_start_address());
        uint32_t perms = UC_PROT_READ | UC_PROT_EXEC | (r.writable ? UC_PROT_WRITE : 0);
        check_uc(uc_mem_map_ptr(uc_, r.base, r.size, perms, host), "mapping " + r.name);
    }
    survey_bus();

    uc_hook h;
    // A block hook, not a code hook: Unicorn then calls out once per block
    // instead of once per instruction, which dominated the simulation time.
    check_uc(uc_hook_add(uc_, &h, UC_HOOK_BLOCK, reinterpret_cast<void*>(&UnicornCpu::hook_block), this, 1, 0),
             "block hook");
    check_uc(
        uc_hook_add(uc_, &h, UC_HOOK_MEM_UNMAPPED, reinterpret_cast<void*>(&UnicornCpu::hook_unmapped), this, 1, 0),
        "unmapped-access hook");
    // Only called when a store hits read-only memory: costs nothing otherwise.
    check_uc(uc_hook_add(uc_, &h, UC_HOOK_MEM_WRITE_PROT, reinterpret_cast<void*>(&UnicornCpu::hook_write_protected),
                         this, 1, 0),
             "write-protection hook");
    install_wait_state_hooks();
    install_call_hooks();
    install_write_watches();
}

void UnicornCpu::install_write_watches() {
    for (const auto& w : write_watches_) {
        uc_hook h;
        check_uc(uc_hook_add(uc_, &h, UC_HOOK_MEM_WRITE, reinterpret_cast<void*>(&UnicornCpu::hook_watched_write),
                             w.get(), w->begin, w->end),
                 "write watch at " + hex32(w->begin));
    }
}

void UnicornCpu::install_wait_state_hooks() {
    // A memory hook makes Unicorn leave its fast path for every access in the
    // hooked range, so a region whose wait states are zero gets none.
    for (const auto& r : cfg_.cpu_regions) {
        const uint32_t ws = r.writable ? cfg_.bus.sram_wait_states : cfg_.bus.flash_wait_states;
        if (ws == 0) continue;
        // Flash is read-only to the firmware: only its data reads wait (fetches hit the cache).
        const int kinds = r.writable ? (UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE) : UC_HOOK_MEM_READ;
        wait_state_hooks_.push_back(std::make_unique<WaitStateHook>(WaitStateHook{this, ws}));
        uc_hook h;
        check_uc(uc_hook_add(uc_, &h, kinds, reinterpret_cast<void*>(&UnicornCpu::hook_wait_states),
                             wait_state_hooks_.back().get(), r.base, r.base + r.size - 1),
                 "wait-state hook for " + r.name);
    }
}

void UnicornCpu::install_call_hooks() {
    for (const auto& w : call_watches_) {
        uc_hook h;
        check_uc(uc_hook_add(uc_, &h, UC_HOOK_CODE, reinterpret_cast<void*>(&UnicornCpu::hook_call_entry), w.get(),
                             w->address, w->address),
                 "call hook at " + hex32(w->address));
    }
}

void UnicornCpu::survey_bus() {
    std::vector<std::pair<uint64_t, uint64_t>> blocks;  // of targets without direct access, [first, last]
    for (uint64_t a = 0; a <= UINT32_MAX;) {
        tlm::tlm_generic_payload query;
        tlm::tlm_dmi dmi;
        SyncHint hint;
        query.set_address(a);
        query.set_command(tlm::TLM_READ_COMMAND);
        query.set_extension(&hint);
        const bool direct = socket->get_direct_mem_ptr(query, dmi);
        query.clear_extension(&hint);
        const uint64_t last = std::max(a, std::min<uint64_t>({hint.end, dmi.get_end_address(), UINT32_MAX}));
        if (hint.decoded && !direct) {
            if (blocks.empty() || blocks.back().first != hint.block_start)
                blocks.emplace_back(hint.block_start, hint.block_end);
            bus_ranges_.push_back({a, uint32_t(last), hint.synchronise, hint.route});
        }
        a = last + 1;
    }
    // Each block one I/O window: an address in a hole of a block reaches the
    // bus, which answers it with an address error.
    for (const auto& [first, last] : blocks) {
        spdlog::debug("{}: bus window [{}, {}]", name(), hex32(uint32_t(first)), hex32(uint32_t(last)));
        map_bus_window(page_down(first), page_up(last + 1) - page_down(first));
    }
}

const UnicornCpu::BusRange* UnicornCpu::bus_range(uint32_t address, unsigned size) const {
    const std::size_t i = block_at_or_below(bus_ranges_, address, last_bus_range_);
    if (i == bus_ranges_.size()) return nullptr;
    const BusRange& r = bus_ranges_[i];
    return uint64_t(address) + std::max(1u, size) - 1 <= r.last ? &r : nullptr;
}

void UnicornCpu::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
    for (BusRange& r : bus_ranges_)
        if (r.base <= end && start <= r.last) r.route = nullptr;
}

void UnicornCpu::map_bus_window(uint64_t base, uint64_t size) {
    auto* w = new Mmio{this, base};
    windows_.emplace_back(w);
    check_uc(uc_mmio_map(uc_, base, size, &UnicornCpu::mmio_read, w, &UnicornCpu::mmio_write, w),
             "mapping bus window " + hex32(uint32_t(base)));
}

void UnicornCpu::load_image() {
    for (const auto& seg : image_->segments()) {
        const uint64_t end = uint64_t(seg.address) + seg.size;
        const CpuRegion* region = nullptr;
        for (const auto& r : cfg_.cpu_regions)
            if (seg.address >= r.base && end <= r.base + r.size) region = &r;
        if (!region)
            throw ElfError(image_->path() + ": segment [" + hex32(seg.address) + ", +" + std::to_string(seg.size) +
                           ") lies outside flash/SRAM of " + cfg_.source_path);
        // Backdoor load (like a programmer): bypasses the read-only protection of flash.
        check_uc(uc_mem_write(uc_, seg.address, seg.bytes.data(), seg.bytes.size()), "loading " + image_->path());
        // The zero fill after the file bytes (a region of this device holds it, checked above).
        const std::vector<uint8_t> zeros(seg.size - seg.bytes.size(), 0);
        if (!zeros.empty())
            check_uc(uc_mem_write(uc_, seg.address + uint32_t(seg.bytes.size()), zeros.data(), zeros.size()),
                     "loading " + image_->path());
    }
}

uint32_t UnicornCpu::read_word(uint32_t address) {
    uint32_t v = 0;
    if (uc_mem_read(uc_, address, &v, 4) != UC_ERR_OK)
        throw std::runtime_error("cannot read CPU memory at " + hex32(address));
    return v;
}

void UnicornCpu::write_word(uint32_t address, uint32_t value) {
    if (uc_mem_write(uc_, address, &value, 4) != UC_ERR_OK)
        throw std::runtime_error("cannot write CPU memory at " + hex32(address));
}

void UnicornCpu::sleep_until(const std::function<bool()>& awake, const sc_core::sc_event& event) {
    const bool waits = !awake() && !halted_;
    if (waits && on_sleep_change) on_sleep_change(true);
    while (!halted_ && !awake()) sc_core::wait(event);
    if (waits && on_sleep_change) on_sleep_change(false);
    qk_.reset();
    sleeping_ = false;
}

void UnicornCpu::begin_chunk() {
    const sc_core::sc_time left = qk_.quantum_left();
    uint64_t budget = left > sc_core::SC_ZERO_TIME ? std::max<uint64_t>(1, uint64_t(left / cycle_)) : 1;
    chunk_end_ = books_.instret + std::max<uint64_t>(1, budget / timing_.cycles_per_instruction);
    stopping_ = false;
    unmapped_address_.reset();
    protected_address_.reset();
}

void UnicornCpu::hook_block(uc_struct* uc, uint64_t address, uint32_t size, void* self) {
    // Called before each translated block; stopping here leaves the whole
    // block unexecuted, so the PC Unicorn reports is exactly where to resume.
    // A chunk therefore ends at the first block boundary past its budget.
    auto* cpu = static_cast<UnicornCpu*>(self);
    BlockBooks& books = cpu->books_;
    if (!cpu->sleeping_ && !cpu->halted_ && cpu->wait_cycles_ == 0 && books.cycles_accounted == books.cycles)
        cpu->poll_fast_forward_.before_block(uint32_t(address), size);
    if (cpu->sleeping_ || cpu->halted_ || books.instret >= cpu->chunk_end_) {
        cpu->stopping_ = true;
        cpu->stop_address_ = uint32_t(address);
        uc_emu_stop(uc);
        return;
    }
    cpu->pc_ = uint32_t(address);
    // The refill belongs to the branch, so a returning call's includes it.
    books.enter(uint32_t(address), cpu->timing_.branch_refill_cycles);
    // A return address is always a branch target, hence a block start. Two
    // observers of one function (or a tail call between observed functions)
    // share a return address: they return together.
    while (!cpu->open_calls_.empty() && uint32_t(address) == cpu->open_calls_.back().return_address)
        cpu->call_returned();
    books.count(uint32_t(address), size, cpu->pricer_.cost(uint32_t(address), size));
}

void UnicornCpu::book_pass(uint32_t address, uint32_t bytes) {
    books_.enter(address, timing_.branch_refill_cycles);  // what hook_block books for a pass
    books_.count(address, bytes, pricer_.cost(address, bytes));
    account_instructions();  // what the status read's bus access books
}

bool UnicornCpu::poll_loop(uint32_t address, uint32_t bytes) {
    // An observed function's entry hook fires on every pass.
    for (const auto& w : call_watches_)
        if (w->address >= address && w->address - address < bytes) return false;
    return idempotent_poll_loop(address, bytes);
}

bool UnicornCpu::restart_chunk() {
    // After a chunk the main loop synchronises when the quantum is used up;
    // otherwise, with nothing else to do, it begins the next chunk where this one stopped.
    if (qk_.need_sync() || !between_chunks_idle()) return false;
    begin_chunk();
    return true;
}

uint32_t UnicornCpu::instruction_cycles(uint16_t, uint16_t, bool&) const { return timing_.cycles_per_instruction; }

void UnicornCpu::hook_call_entry(uc_struct* uc, uint64_t, uint32_t, void* watch) {
    const auto* w = static_cast<const CallWatch*>(watch);
    UnicornCpu* cpu = w->cpu;
    // hook_block runs first; if it stopped Unicorn here, the instruction runs
    // again in the next chunk and is seen then.
    if (cpu->stopping_ || cpu->halted_) return;
    uint32_t ret = 0;
    uc_reg_read(uc, cpu->return_address_register(), &ret);
    // The block's cost is already in books_.cycles: take the time at the end of
    // this entry instruction, as if instructions were counted one by one.
    sc_core::sc_time entered = cpu->local_time();
    const BlockBooks& b = cpu->books_;
    if (w->address >= b.block_start && w->address < b.block_end)
        entered = cpu->local_time_at(b.block_cycles_base +
                                     cpu->block_cost(b.block_start, cpu->pricer_.through(b.block_start, w->address))
                                         .cycles[b.block_after_access]);
    cpu->open_calls_.push_back({w, ret & ~1u, entered});
    if (w->entry) w->entry();
}

void UnicornCpu::call_returned() {
    const OpenCall call = open_calls_.back();
    open_calls_.pop_back();
    call.watch->done(call.entered, local_time());
}

void UnicornCpu::hook_wait_states(uc_struct*, uc_mem_type, uint64_t, int, int64_t, void* hook) {
    const auto* h = static_cast<const WaitStateHook*>(hook);
    h->cpu->wait_cycles_ += h->cycles;
}

bool UnicornCpu::hook_write_protected(uc_struct*, uc_mem_type, uint64_t address, int, int64_t, void* self) {
    static_cast<UnicornCpu*>(self)->protected_address_ = address;
    return false;  // not handled: Unicorn stops with UC_ERR_WRITE_PROT
}

void UnicornCpu::hook_watched_write(uc_struct*, uc_mem_type, uint64_t address, int size, int64_t, void* watch) {
    const auto* w = static_cast<const WriteWatchRange*>(watch);
    w->written(uint32_t(address), unsigned(size));
}

bool UnicornCpu::hook_unmapped(uc_struct*, uc_mem_type, uint64_t address, int, int64_t, void* self) {
    static_cast<UnicornCpu*>(self)->unmapped_address_ = address;
    return false;  // not handled: Unicorn stops with an error
}

void UnicornCpu::account_instructions() {
    const double cycles = double(books_.cycles - books_.cycles_accounted) + double(wait_cycles_);
    qk_.inc(cycles * cycle_);
    books_.cycles_accounted = books_.cycles;
    wait_cycles_ = 0;
}

uint64_t UnicornCpu::mmio_read(uc_struct*, uint64_t offset, unsigned size, void* window) {
    auto* w = static_cast<Mmio*>(window);
    return w->cpu->bus_read(uint32_t(w->base + offset), size);
}

void UnicornCpu::mmio_write(uc_struct*, uint64_t offset, unsigned size, uint64_t value, void* window) {
    auto* w = static_cast<Mmio*>(window);
    w->cpu->bus_write(uint32_t(w->base + offset), size, value);
}

uint64_t UnicornCpu::bus_read(uint32_t address, unsigned size) {
    uint8_t data[8] = {};
    if (!bus_transport(tlm::TLM_READ_COMMAND, address, size, data)) return 0;
    uint64_t v = 0;
    std::memcpy(&v, data, size);
    return v;
}

void UnicornCpu::bus_write(uint32_t address, unsigned size, uint64_t value) {
    uint8_t data[8];
    std::memcpy(data, &value, sizeof data);
    bus_transport(tlm::TLM_WRITE_COMMAND, address, size, data);
}

bool UnicornCpu::bus_transport(tlm::tlm_command cmd, uint32_t address, unsigned size, uint8_t* data) {
    if (halted_) return false;  // after a fault, the rest of the block must not touch the bus
    if (bus_watches_) bus_access_watched(cmd, address, size);
    poll_fast_forward_.access_begins();
    account_instructions();
    const bool write = cmd == tlm::TLM_WRITE_COMMAND;
    // Only an access that neither looks at SystemC time nor wakes a process
    // may be made while quantum ends are owed (CoreQuantumKeeper::settle).
    if (!(access_time_neutral && access_time_neutral(address, write))) qk_.settle();
    // One payload for every access (the core makes one at a time): a payload
    // allocates its extension array, and one living in a member rather than on
    // this coroutine's stack is neither re-allocated per access nor, when the
    // simulation ends with the core suspended mid-access, mistaken for a leak.
    tlm::tlm_generic_payload& trans = bus_payload_;
    trans.set_command(cmd);
    trans.set_address(address);
    trans.set_data_ptr(data);
    trans.set_data_length(size);
    trans.set_streaming_width(size);
    trans.set_byte_enable_ptr(nullptr);
    trans.set_dmi_allowed(false);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    // FIFO pushes and status polls race with the accelerator draining the FIFOs:
    // catch up with SystemC time first so they happen at this core's own instant.
    // The accelerator serves them at sc_time_stamp() (the status is live state, not
    // a timed reply), so a push would land up to one quantum early and a poll
    // would see a FIFO state up to one quantum old.
    // An access may skip that when nothing is scheduled in the simulation up to
    // this core's instant: the accelerator changes and looks at FIFO state only
    // when one of its processes runs, so the state now is the state then, and a
    // spinning poll loop costs one sync per quantum instead of one per
    // iteration. A push made early is seen by nobody before the core's next
    // synchronisation, unless the accelerator is waiting for it or its time is
    // recorded (push_awaited): then it must come at its own instant.
    // An access whose outcome cannot change before this core's instant
    // (access_settled: no FIFO is full, so a push is queued and the status
    // reads the same) is made at once in any case: the pushed word carries
    // this core's instant (IssueTime), and the accelerator takes it only once
    // its own time has reached that instant.
    const sc_core::sc_time local = qk_.get_local_time();
    const BusRange* range = bus_range(address, size);
    const bool fifo = range && range->synchronise;  // a range the bus declared racing (SyncHint)
    const bool settled = fifo && access_settled && access_settled(address, write);
    bool synced = false;
    // (An awaited push syncs whatever is scheduled: asked first, it spares the
    // kernel query.)
    if (fifo && !settled && local > sc_core::SC_ZERO_TIME &&
        ((write && (!push_awaited || push_awaited())) || !(local < sc_core::sc_time_to_pending_activity()))) {
        qk_.sync();
        synced = true;
    }
    const sc_core::sc_time issued = qk_.get_local_time();
    issue_time_->at = simcontext()->time_stamp() + issued;  // sc_time_stamp(), inline
    sc_core::sc_time delay = issued;
    if (range && range->route)
        range->route->transport(trans, delay);  // what the bus does, without decoding the address again
    else
        socket->b_transport(trans, delay);
    qk_.set(delay);
    if (trans.is_response_error()) {
        stop_with_error(std::string("bus fault: ") + (cmd == tlm::TLM_READ_COMMAND ? "read" : "write") + " of " +
                        std::to_string(size) + " byte(s) at " + hex32(address) + " answered " +
                        trans.get_response_string() + ", in the instruction block at PC " + hex32(pc_) + " (" +
                        describe(pc_) + ")");  // Unicorn does not expose the exact PC inside a memory callback
        return false;
    }
    // A polling loop must let the accelerator's time advance (a quantum's end
    // with nothing scheduled up to the core's instant is owed instead).
    if (qk_.need_sync() && qk_.sync_or_defer()) synced = true;
    if (fifo && !write && !synced) poll_fast_forward_.unsynchronised_read(delay - issued);
    return true;
}

void UnicornCpu::stop_on_fault(uc_err err, uint32_t next, const std::string& core) {
    // Unicorn restores the exact PC of a faulting instruction; pc_ is only its block's start.
    const uint32_t at = (next >= books_.block_start && next < books_.block_end) ? next : pc_;
    const std::string where = " at PC " + hex32(at) + " (" + describe(at) + ")";
    if (unmapped_address_) {
        stop_with_error("bus fault: access to unmapped address " + hex32(uint32_t(*unmapped_address_)) + where);
    } else if (protected_address_) {
        const uint32_t address = uint32_t(*protected_address_);
        if (on_protected_write) on_protected_write(address, at);
        stop_with_error("bus fault: write to read-only memory at " + hex32(address) + " (" + describe(address) + ")" +
                        where);
    } else {
        stop_with_error(core + " exception: " + uc_strerror(err) + where + ", next PC " + hex32(next));
    }
}

void UnicornCpu::stop_inside_block(uint32_t address) {
    stopping_ = true;
    stop_address_ = address;
    // The block hook counted the whole block; only the instructions before
    // `address` ran. (Time already charged for the rest, at a bus access
    // earlier in the block, is not taken back.)
    BlockBooks& b = books_;
    if (address >= b.block_start && address < b.block_end) {
        const BlockCost ran = block_cost(b.block_start, address - b.block_start);
        b.instret = b.block_base + ran.instructions;
        b.cycles = b.block_cycles_base + ran.cycles[b.block_after_access];
        b.last_access = ran.instructions ? ran.ends_with_access : b.block_after_access;
    }
    b.cycles_accounted = std::min(b.cycles_accounted, b.cycles);
    b.fallthrough = address;  // resuming there is no branch
    // The entry hook of an observed function (observe_calls) at this address
    // ran before this stop (hooks run in the order added); the instruction
    // runs, and is seen, again when the core resumes.
    if (!open_calls_.empty() && open_calls_.back().watch->address == address) open_calls_.pop_back();
}

// ---------------------------------------------------------------- debugger access

bool UnicornCpu::in_cpu_memory(uint32_t address, uint32_t size) const {
    for (const auto& r : cfg_.cpu_regions)
        if (address >= r.base && uint64_t(address) + size <= r.base + r.size) return true;
    return false;
}

void UnicornCpu::drop_translations() {
    // Unicorn may decide while translating whether an instruction calls a
    // hook, so code translated before a hook came or went must be translated
    // again. (Unicorn's flush of everything takes seconds; this takes little.)
    for (const auto& r : cfg_.cpu_regions) uc_ctl_remove_cache(uc_, r.base, r.base + r.size);
}

bool UnicornCpu::debug_bus(tlm::tlm_command cmd, uint32_t address, uint8_t* data, uint32_t size) {
    // Whole aligned words as words (registers want 32-bit accesses), the rest byte by byte.
    for (uint32_t done = 0; done < size;) {
        const uint32_t at = address + done;
        const uint32_t n = (at % 4 == 0 && size - done >= 4) ? 4 : 1;
        tlm::tlm_generic_payload trans;
        trans.set_command(cmd);
        trans.set_address(at);
        trans.set_data_ptr(data + done);
        trans.set_data_length(n);
        trans.set_streaming_width(n);
        if (socket->transport_dbg(trans) != n) return false;
        done += n;
    }
    return true;
}

bool UnicornCpu::debug_read(uint32_t address, uint8_t* data, uint32_t size) {
    if (in_cpu_memory(address, size)) return uc_mem_read(uc_, address, data, size) == UC_ERR_OK;
    return debug_bus(tlm::TLM_READ_COMMAND, address, data, size);
}

bool UnicornCpu::debug_write(uint32_t address, const uint8_t* data, uint32_t size) {
    if (in_cpu_memory(address, size)) {
        // Like a programmer, the debugger may write flash.
        if (uc_mem_write(uc_, address, data, size) != UC_ERR_OK) return false;
        uc_ctl_remove_cache(uc_, address, uint64_t(address) + size);  // the code may have changed
        return true;
    }
    std::vector<uint8_t> copy(data, data + size);
    return debug_bus(tlm::TLM_WRITE_COMMAND, address, copy.data(), size);
}

}  // namespace ai8x
