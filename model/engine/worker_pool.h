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
#pragma once

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
    // host has a core to spare (CpuHeadroom); otherwise it runs inline.
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

    // The thread count `--threads` defaults to: two, or one on a single-core host.
    static unsigned default_threads();

private:
    struct Job;
    void worker_main(unsigned slot);
    void run_items(Job& job, unsigned slot);
    static void run_inline(std::size_t count, const Body& body);

    std::unique_ptr<CpuHeadroom> headroom_;  // set with only_with_spare_core
    std::vector<std::thread> workers_;
    std::mutex submit_;  // one for_each at a time uses the workers

    std::mutex mutex_;  // guards everything below
    std::condition_variable work_ready_;
    std::condition_variable work_done_;
    Job* job_ = nullptr;            // the job workers may join; null when closed
    unsigned long generation_ = 0;  // counts jobs, so a worker joins each at most once
    unsigned joined_ = 0;           // workers inside the current job
    bool stopping_ = false;
    unsigned long shared_calls_ = 0;  // written under submit_
};

}  // namespace ai8x
