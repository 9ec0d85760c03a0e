// A small persistent thread pool for the layer engine's pure computation
// (issue #14 item 3): the calling thread plus `threads - 1` workers share the
// items of one for_each() call.
//
// Items are claimed in increasing order from a shared counter, so the caller
// never waits for a worker that has not woken up yet: if the machine is busy
// and the worker is not scheduled, the caller simply runs every item itself.
// Which thread runs which item is therefore not fixed; callers keep results
// deterministic by having every item write only its own, disjoint outputs.
//
// Only pure computation belongs in a body: no SystemC process, no logging, no
// shared counters. The pool never calls anything but the bodies it is given.
//
// Hand-offs: a sleeping worker is woken through the kernel (a futex), which
// on a virtual machine costs the caller about 10 us and the worker 25-35 us
// before it runs (measured, bench/README.md, "threads round"). While a Hold
// is alive (the layer engine holds the pool for an inference's layers), a
// worker done with a call spins for up to kSpin before it sleeps, and the
// next call finds it ready; the caller likewise spins for the worker's last item.
// Neither spins without a Hold, so an idle simulation never burns a core.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ai8x {

class CpuHeadroom;

class WorkerPool {
public:
    // index: the item, in [0, count). slot: which thread runs it, in
    // [0, threads()): per-thread scratch space is indexed by it.
    using Body = std::function<void(std::size_t index, unsigned slot)>;

    // `threads` counts the calling thread: 1 starts no worker (for_each then
    // runs every item in order on the caller), 0 is taken as 1. With
    // `only_with_spare_core`, a call is offered to the workers only while the
    // host has a core to spare (CpuHeadroom); otherwise it runs inline. The
    // first worker samples the host's load every CpuHeadroom::kMinWindow while
    // it sleeps; a call only reads the last answer (no file read, no system call).
    explicit WorkerPool(unsigned threads, bool only_with_spare_core = false);
    // Stops and joins every worker.
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    unsigned threads() const { return static_cast<unsigned>(workers_.size()) + 1; }

    // Runs body(i, slot) once for every i in [0, count) and returns when all
    // have finished. If bodies throw, items not yet claimed are skipped and
    // the exception of the lowest throwing index is rethrown here: items are
    // claimed in order, so that is the exception a plain loop would have met
    // first. A call from inside a body (nested), from a second thread while
    // the pool is busy, or with one thread runs the items in order on the
    // calling thread, all with slot 0, as does a call made while the host has
    // no spare core (only_with_spare_core). Returns whether the items were
    // offered to the workers.
    bool for_each(std::size_t count, const Body& body);

    // for_each() calls whose items were offered to the workers (the others ran
    // inline): lets tests see that a computation really was shared.
    unsigned long shared_calls() const { return shared_calls_; }

    // How often a worker has fallen asleep (found no work, or spun for
    // kSpin without any): lets tests see that spinning ends.
    unsigned long sleeps() const;

    // The thread count without `--threads`: two on a host with three cores
    // or more, else one. On two cores the simulation thread has one and
    // everything else (the system, other processes, a hypervisor's work) the
    // other; measured on a 2-vCPU VM (bench/README.md, "Auto threads
    // round"), the worker's wake-up from sleep took 75 us, a share's
    // hand-off to a core other work had just left came with cold caches, and
    // two threads were never faster than one on any demo.
    static unsigned default_threads() { return threads_for_cores(std::thread::hardware_concurrency()); }
    static unsigned threads_for_cores(unsigned cores) { return cores > 2 ? 2 : 1; }

    // How long an idle worker spins for the next call while the pool is held.
    static constexpr std::chrono::microseconds kSpin{2000};

    // While alive, a worker that finishes its part of a call spins for the
    // next one (at most kSpin at a time) instead of sleeping: for a burst of
    // calls close together, e.g. an inference's layers. Holds nest; a pool
    // without workers (or null) ignores them, and so does a pool that shares
    // only with a spare core while there is none.
    class Hold {
    public:
        explicit Hold(WorkerPool* pool);
        ~Hold();
        Hold(const Hold&) = delete;
        Hold& operator=(const Hold&) = delete;

    private:
        WorkerPool* pool_;
    };

private:
    struct Job;
    void worker_main(unsigned slot);
    // Spins until a job newer than `seen` is published, the pool stops, the
    // hold ends or kSpin passes; true when there may be something to do.
    bool spin_for_work(unsigned long seen) const;
    // Joins the published job if it is newer than `seen` (under mutex_).
    Job* join_job(unsigned long& seen);
    // Waits on work_ready_ for a job newer than `seen` or the stop; worker
    // `slot` 1 of a pool with a headroom probe samples it meanwhile.
    void sleep_until_work(std::unique_lock<std::mutex>& lock, unsigned long seen, unsigned slot);
    void close_job();
    void run_items(Job& job, unsigned slot);
    static void run_inline(std::size_t count, const Body& body);
    bool hold();  // false: not held (no workers, no spare core, another thread's call)
    void release();

    std::unique_ptr<CpuHeadroom> headroom_;  // set with only_with_spare_core
    std::vector<std::thread> workers_;
    std::mutex submit_;  // one for_each at a time uses the workers

    mutable std::mutex mutex_;  // guards the plain members below; the atomics change under it too
    std::condition_variable work_ready_;
    std::condition_variable work_done_;
    Job* job_ = nullptr;                        // the job workers may join; null when closed
    std::atomic<unsigned long> generation_{0};  // counts jobs and wake-ups to spin; spinners watch it
    std::atomic<unsigned> joined_{0};           // workers inside the current job
    std::atomic<bool> stopping_{false};
    std::atomic<unsigned> holds_{0};  // live Holds: idle workers spin
    unsigned sleeping_ = 0;           // workers waiting on work_ready_
    unsigned long sleeps_ = 0;        // times a worker began waiting on it
    bool caller_waiting_ = false;     // the caller waits on work_done_
    unsigned long shared_calls_ = 0;  // written under submit_
};

}  // namespace ai8x
