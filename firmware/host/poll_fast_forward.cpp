#include "firmware/host/poll_fast_forward.h"

#include <algorithm>

namespace ai8x {

bool PollFastForward::cached_poll_loop(uint32_t address, uint32_t bytes) {
    const uint64_t key = (uint64_t(bytes) << 32) | address;
    const auto cached = poll_loops_.find(key);
    if (cached != poll_loops_.end()) return cached->second;
    const bool loop = core_.poll_loop(address, bytes);
    poll_loops_.emplace(key, loop);
    return loop;
}

bool PollFastForward::pass(uint32_t address, uint32_t bytes, sc_core::sc_time next_activity) {
    BlockBooks& books = books_;
    CoreQuantumKeeper& qk = qk_;
    // The chunk's end: the core stops before the pass and begins the next chunk
    // with the same books (the pass then starts as here).
    if (books.instret >= core_.chunk_end() && !core_.restart_chunk()) return false;
    const sc_core::sc_time before = qk.get_local_time();
    const BlockBooks kept = books;
    core_.book_pass(address, bytes);
    const sc_core::sc_time at_read = qk.get_local_time();
    qk.set(at_read + polls_.bus_delay);
    // The quantum check after the read: a quantum's end whose wait is left out
    // changes only the keeper's books (the read stays unsynchronised).
    if (!(at_read < next_activity) || (qk.need_sync() && !qk.defer(next_activity))) {
        books = kept;
        qk.set(before);
        return false;
    }
    ++skipped_;
    return true;
}

void PollFastForward::skip(uint32_t address, uint32_t bytes) {
    if (!cached_poll_loop(address, bytes)) return;
    // Each skipped pass is replayed on the books exactly as executing it would
    // go: its entry (the loop's branch back: a refill) and block price at the
    // block start (stop if the chunk is used up), the time charged at its
    // status read (stop if that read would synchronise: an activity is due by
    // then), the bus's delay, and the quantum check after the access. Nothing
    // else happens in a pass: its registers come out as the previous pass left
    // them, and the status cannot change before the next scheduled activity,
    // since nothing but a SystemC process changes it.
    // The passes up to a quantum's or chunk's end are booked at once; the
    // pass that reaches it defers the quantum's end or begins the next chunk,
    // and booking goes on until a pass must run (a read due at or after the
    // next activity, a wait that cannot be left out, a chunk end the core
    // must see).
    const sc_core::sc_time next_activity = sc_core::sc_time_to_pending_activity();
    for (;;) {
        if (!pass(address, bytes, next_activity)) return;
        const BlockBooks first = books_;
        const sc_core::sc_time t1 = qk_.get_local_time();
        if (!pass(address, bytes, next_activity)) return;
        book_passes_at_once(first, t1, next_activity);
    }
}

// After one pass every further pass starts from the same entry state (the
// branch back, the block's last access) and books the same instructions,
// cycles and time: the second pass's increments are every later one's. The
// passes that fit are then booked at once: the stop conditions only grow
// with the pass count (instructions towards the chunk's end, the read's time
// towards the next activity, the time after it towards the quantum's end).
// The last pass, which stops, is replayed as before.
void PollFastForward::book_passes_at_once(const BlockBooks& first, sc_core::sc_time t1,
                                          sc_core::sc_time next_activity) {
    BlockBooks& books = books_;
    CoreQuantumKeeper& qk = qk_;
    const uint64_t chunk_end = core_.chunk_end();
    const BlockBooks second = books;
    const sc_core::sc_time t2 = qk.get_local_time();
    const uint64_t di = second.instret - first.instret, dc = second.cycles - first.cycles;
    const uint64_t dt = (t2 - t1).value(), bus = polls_.bus_delay.value();
    const uint64_t read_at = t2.value() + (dt - bus);  // the next pass's status read
    uint64_t fit = 0;
    if (di > 0 && dt > bus && books.instret < chunk_end && read_at < next_activity.value()) {
        fit = (chunk_end - books.instret + di - 1) / di;  // passes that start before the chunk's end
        const uint64_t reads = (next_activity.value() - 1 - read_at) / dt + 1;  // reads before the activity
        fit = std::min({fit, reads, uint64_t{1} << 32});
        // The quantum check after each pass: the largest count whose end needs
        // no sync (need_sync: SystemC time + local time reaching the sync point).
        const uint64_t end = sc_core::sc_time_stamp().value() + t2.value(), sync = qk.sync_point().value();
        if (end + fit * dt >= sync) fit = sync > end ? (sync - end - 1) / dt : 0;
    }
    books.instret = second.instret + fit * di;
    books.cycles = second.cycles + fit * dc;
    books.cycles_accounted = books.cycles;
    books.block_base = second.block_base + fit * di;
    books.block_cycles_base = second.block_cycles_base + fit * dc;
    qk.set(sc_core::sc_time::from_value(t2.value() + fit * dt));
    skipped_ += fit;
}

}  // namespace ai8x
