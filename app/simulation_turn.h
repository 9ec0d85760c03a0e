// A turn at the process's SystemC kernel, for whatever elaborates or
// simulates a design in-process (a run, a replay, `info`'s platform map).
//
// SystemC keeps one simulation kernel per process and a kernel elaborates one
// design, so callers take turns, one at a time (a mutex), each on a kernel of
// its own: on entry a used kernel is set aside, not deleted (its owner may
// still hold its objects); on exit `dismantle` destroys what the turn built
// that outlives the turn object (the board of a RunContext declared before
// it), then the turn's kernel is deleted and a fresh one takes its place, so
// that nothing of the turn outlives it. The process's first kernel is never
// deleted: the SystemC library's own static events (sc_event::none) belong to
// it. SystemC objects declared after the turn object die before it and need
// no `dismantle`.
#pragma once

#include <functional>
#include <mutex>

namespace ai8x {

class SimulationTurn {
public:
    explicit SimulationTurn(std::function<void()> dismantle = {});
    ~SimulationTurn();
    SimulationTurn(const SimulationTurn&) = delete;
    SimulationTurn& operator=(const SimulationTurn&) = delete;

private:
    std::lock_guard<std::mutex> lock_;
    std::function<void()> dismantle_;
};

}  // namespace ai8x
