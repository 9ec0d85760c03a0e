// Poll fast-forward: a core spinning in a status-polling loop (firmware
// waiting for a FIFO to take a word) counts the passes instead of executing
// them, while no SystemC process can change the status it reads.
//
// It watches the bus accesses of each block. When the block about to run is
// the block that just ran, that pass's only bus access was a read of a
// synchronised range made without synchronising (nothing was due before the
// core's instant), no process has run since, and the block is a loop whose
// passes are all alike while the value it loads is, then every further pass
// would read the same status until the core's time reaches the next
// scheduled activity. Those passes are booked, on the core's books, exactly
// as executing them would book them, and so are the quantum ends whose wait
// would be left out (CoreQuantumKeeper::defer) and the chunk ends where the
// core would only begin the next chunk; the last pass, which would
// synchronise, runs for real. Cycles, instructions and times are the same as
// executing every pass (unit test "FIFO polls fast-forwarded").
#pragma once

#include <cstdint>
#include <unordered_map>

#include <systemc>

#include "firmware/host/block_books.h"
#include "firmware/host/core_quantum_keeper.h"

namespace ai8x {

class PollFastForward {
public:
    // What the fast-forward asks of the core it works for.
    class Core {
    public:
        // Stop the current chunk after this many instructions (BlockBooks::instret).
        virtual uint64_t chunk_end() const = 0;
        // Books one pass of the block [address, address + bytes) as executing
        // it books it up to its status read: entry, price, and the conversion
        // of its cycles to local time.
        virtual void book_pass(uint32_t address, uint32_t bytes) = 0;
        // True when that block is a polling loop whose passes are all alike
        // while the value it loads is, and nothing else watches it run. Asked
        // once per block.
        virtual bool poll_loop(uint32_t address, uint32_t bytes) = 0;
        // At the chunk's end: begins the next chunk as the core's main loop
        // would, when it would do nothing else between the two (no interrupt
        // to take, no sleep, no wait, no debugger). False, nothing changed, otherwise.
        virtual bool restart_chunk() = 0;

    protected:
        ~Core() = default;
    };

    // Works on the core's books and local time.
    PollFastForward(Core& core, BlockBooks& books, CoreQuantumKeeper& qk) : core_(core), books_(books), qk_(qk) {}

    // Off: every pass runs. A bus trace records every status read; a
    // debugger's breakpoints and watchpoints want every pass.
    bool enabled = true;
    uint64_t skipped() const { return skipped_; }

    // The bus path: an access of the block now executing begins.
    void access_begins() {
        if (polls_.serial != books_.block_base) {
            polls_ = BlockPolls{};
            polls_.serial = books_.block_base;
            polls_.block = books_.block_start;
            polls_.bytes = books_.block_end - books_.block_start;
        }
        ++polls_.accesses;
        polls_.quiet = false;
    }
    // ... it read a synchronised range without synchronising, the bus adding
    // `bus_delay`: a status poll that may be fast-forwarded if it is the
    // block's only access.
    void unsynchronised_read(sc_core::sc_time bus_delay) {
        if (polls_.accesses != 1) return;
        polls_.quiet = true;
        polls_.deltas = sc_core::sc_delta_count();
        polls_.bus_delay = bus_delay;
    }
    // The core is about to run the block [address, address + bytes), with its
    // local time fully accounted: books the passes that may be skipped. That
    // is when it is the same polling block again, right after a pass whose
    // only bus access was a status read that needed no synchronisation, and
    // no process has run since: the next passes read the same status until
    // the core's time reaches the next scheduled activity.
    void before_block(uint32_t address, uint32_t bytes) {
        const BlockPolls& p = polls_;
        if (enabled && p.quiet && p.serial == books_.block_base && address == p.block && bytes == p.bytes &&
            p.deltas == sc_core::sc_delta_count())
            skip(address, bytes);
    }

private:
    bool cached_poll_loop(uint32_t address, uint32_t bytes);
    // One pass on the books; false (books untouched) where it must run for real.
    bool pass(uint32_t address, uint32_t bytes, sc_core::sc_time next_activity);
    // The passes that fit after two booked ones, booked at once.
    void book_passes_at_once(const BlockBooks& first, sc_core::sc_time t1, sc_core::sc_time next_activity);
    void skip(uint32_t address, uint32_t bytes);

    Core& core_;
    BlockBooks& books_;
    CoreQuantumKeeper& qk_;
    // The bus accesses of the last block that made any.
    struct BlockPolls {
        uint64_t serial = UINT64_MAX;  // BlockBooks::block_base of that block
        uint32_t block = 0, bytes = 0;
        unsigned accesses = 0;
        bool quiet = false;          // one access: a synchronised read made without synchronising
        uint64_t deltas = 0;         // sc_delta_count() then: nothing has run since while it is unchanged
        sc_core::sc_time bus_delay;  // what the bus added to that read
    };
    BlockPolls polls_;
    std::unordered_map<uint64_t, bool> poll_loops_;  // Core::poll_loop by address and size
    uint64_t skipped_ = 0;
};

}  // namespace ai8x
