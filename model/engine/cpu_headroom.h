// Whether the host has a core to spare for the layer engine's worker thread
// right now (run without --threads, model/engine/worker_pool.h).
//
// A worker that shares a layer's computation only helps if it runs at once:
// when every core is busy with other normal-priority work, the caller ends up
// waiting for a worker the scheduler has put aside (measured: demo-cats-dogs'
// inference up to 60 % slower with two threads at load 20 on two cores). The
// probe compares the kernel's CPU time counters (/proc/stat) between two
// reads: time spent idle or in niced processes (background jobs at nice 19
// yield to us at once) counts as available. The decision changes how the
// work is spread, never its result.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

namespace ai8x {

class CpuHeadroom {
public:
    // `stat_path`: the kernel's counters (a test may give its own file);
    // `window`: the shortest time between two samples that decide.
    explicit CpuHeadroom(std::string stat_path = "/proc/stat", std::chrono::milliseconds window = kMinWindow);

    // The last decision: true when, over the last window sampled, at least
    // half a core was neither busy with normal-priority work (this process's
    // own simulation thread included) nor stolen by a hypervisor. Reads no
    // file: any thread may ask at any time, at the cost of an atomic load.
    // When the counters cannot be read or have not advanced, the previous
    // answer stands (at first: true).
    bool spare_core() const { return answer_.load(std::memory_order_relaxed); }

    // Reads the counters and, when at least `window` has passed since the
    // last sample that decided, decides again. Not for the simulation
    // thread in an inference: on a virtual machine one read of /proc/stat
    // takes 10 us warm and 50-180 us when the kernel's path is cold
    // (bench/README.md, "Auto threads round"); the pool's worker samples
    // while it sleeps (worker_pool.h). One thread at a time.
    void sample();

    static constexpr std::chrono::milliseconds kMinWindow{20};

    struct Counters {
        uint64_t busy = 0;   // user + system + irq + softirq + steal (normal priority, not ours to take)
        uint64_t total = 0;  // every column
        bool valid = false;
    };
    // The aggregate "cpu" line of a /proc/stat text (valid = false if absent or malformed).
    static Counters parse(const std::string& text);
    // The decision from two samples on `cores` cores; `known` is false (and
    // so is the result) when the samples are invalid or the counters did not advance.
    static bool spare(const Counters& before, const Counters& after, unsigned cores, bool& known);

private:
    Counters read() const;
    std::string path_;
    std::chrono::milliseconds window_;
    unsigned cores_;
    Counters last_;  // the sampling thread's own (the constructor's, then sample()'s)
    std::chrono::steady_clock::time_point last_time_;
    std::atomic<bool> answer_{true};
};

}  // namespace ai8x
