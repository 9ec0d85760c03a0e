// The layer engine's thread pool (model/engine/worker_pool.h): every item runs
// exactly once whatever the thread count, exceptions reach the caller (the one
// a plain loop would meet first), nested and concurrent calls complete, and
// workers really take items. No test here measures time.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "model/engine/cpu_headroom.h"
#include "model/engine/worker_pool.h"

using namespace ai8x;

namespace {

// How often each item of [0, count) ran on `pool`, and the largest slot seen.
struct PoolTally {
    std::vector<std::atomic<int>> runs;
    std::atomic<unsigned> max_slot{0};
    explicit PoolTally(std::size_t count) : runs(count) {}
    void record(std::size_t i, unsigned slot) {
        runs[i].fetch_add(1);
        unsigned seen = max_slot.load();
        while (slot > seen && !max_slot.compare_exchange_weak(seen, slot)) {
        }
    }
    bool each_once() const {
        for (const auto& r : runs)
            if (r.load() != 1) return false;
        return true;
    }
};

}  // namespace

TEST_CASE("worker pool: every item runs exactly once for any thread and item count", "[engine][threads]") {
    for (unsigned threads : {0u, 1u, 2u, 3u, 5u}) {
        WorkerPool pool(threads);
        CHECK(pool.threads() == std::max(threads, 1u));
        for (std::size_t count : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{17}, std::size_t{4096}}) {
            INFO("threads " << threads << ", items " << count);
            PoolTally tally(count);
            pool.for_each(count, [&](std::size_t i, unsigned slot) { tally.record(i, slot); });
            CHECK(tally.each_once());
            CHECK(tally.max_slot.load() < pool.threads());
        }
    }
}

TEST_CASE("worker pool: zero items call nothing, and one thread runs the items in order", "[engine][threads]") {
    WorkerPool pool(3);
    bool called = false;
    pool.for_each(0, [&](std::size_t, unsigned) { called = true; });
    CHECK_FALSE(called);
    CHECK(pool.shared_calls() == 0);

    WorkerPool single(1);
    std::vector<std::size_t> order;
    std::vector<unsigned> slots;
    single.for_each(6, [&](std::size_t i, unsigned slot) {
        order.push_back(i);
        slots.push_back(slot);
    });
    CHECK(order == std::vector<std::size_t>{0, 1, 2, 3, 4, 5});
    CHECK(slots == std::vector<unsigned>(6, 0));
    CHECK(single.shared_calls() == 0);
}

namespace {

// Whichever thread claims item 0 waits until item 1 has run, which only
// another thread can claim: without a working worker this cannot finish.
// The wait has a generous bound so a broken pool fails instead of hanging.
void require_worker_takes_item(WorkerPool& pool) {
    const unsigned long calls = pool.shared_calls();
    std::mutex m;
    std::condition_variable cv;
    bool item1_done = false, item0_saw_item1 = false;
    std::thread::id item0_thread, item1_thread;
    pool.for_each(2, [&](std::size_t i, unsigned) {
        std::unique_lock<std::mutex> lock(m);
        if (i == 0) {
            item0_thread = std::this_thread::get_id();
            item0_saw_item1 = cv.wait_for(lock, std::chrono::seconds(60), [&] { return item1_done; });
        } else {
            item1_thread = std::this_thread::get_id();
            item1_done = true;
            cv.notify_all();
        }
    });
    CHECK(item0_saw_item1);
    CHECK(item0_thread != item1_thread);
    CHECK(pool.shared_calls() == calls + 1);
}

// Waits (at most a minute) until the workers of `pool` have fallen asleep
// `count` times since `before` (WorkerPool::sleeps()).
bool workers_fall_asleep(const WorkerPool& pool, unsigned long before, unsigned long count) {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (pool.sleeps() < before + count)
        if (std::chrono::steady_clock::now() > give_up)
            return false;
        else
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return true;
}

}  // namespace

TEST_CASE("worker pool: a worker takes items while the caller is busy with one", "[engine][threads]") {
    WorkerPool pool(2);
    require_worker_takes_item(pool);
    // The same from a worker spinning for work (held) as from a sleeping one.
    const WorkerPool::Hold hold(&pool);
    for (int round = 0; round < 20; ++round) require_worker_takes_item(pool);
}

TEST_CASE("worker pool: while held, every call runs each item once, nested holds too", "[engine][threads]") {
    for (unsigned threads : {1u, 2u, 3u}) {
        WorkerPool pool(threads);
        const WorkerPool::Hold hold(&pool);
        for (int round = 0; round < 300; ++round) {
            const std::size_t count = 1 + std::size_t(round) % 37;
            INFO("threads " << threads << ", round " << round);
            PoolTally tally(count);
            const WorkerPool::Hold inner(round % 3 == 0 ? &pool : nullptr);
            pool.for_each(count, [&](std::size_t i, unsigned slot) { tally.record(i, slot); });
            CHECK(tally.each_once());
        }
    }
    const WorkerPool::Hold none(nullptr);  // no pool: nothing to hold
}

TEST_CASE("worker pool: an idle worker sleeps, held or not, once its bounded spin is over", "[engine][threads]") {
    WorkerPool pool(3);
    CHECK(workers_fall_asleep(pool, 0, 2));  // started, nothing to do
    for (int round = 0; round < 3; ++round) {
        INFO("round " << round);
        const unsigned long before = pool.sleeps();
        const WorkerPool::Hold hold(&pool);  // the call wakes them; they spin after it
        PoolTally tally(16);
        pool.for_each(16, [&](std::size_t i, unsigned slot) { tally.record(i, slot); });
        CHECK(tally.each_once());
        // Still held: the spin is bounded (WorkerPool::kSpin), then each sleeps again.
        CHECK(workers_fall_asleep(pool, before, 2));
    }
    // Pools stop cleanly right after a hold ends, their workers still spinning.
    for (int round = 0; round < 20; ++round) {
        auto held = std::make_unique<WorkerPool>(2);
        {
            const WorkerPool::Hold hold(held.get());
            PoolTally tally(8);
            held->for_each(8, [&](std::size_t i, unsigned slot) { tally.record(i, slot); });
            CHECK(tally.each_once());
        }
        held.reset();
    }
}

TEST_CASE("worker pool: an exception in a body reaches the caller, the lowest index's", "[engine][threads]") {
    WorkerPool pool(3);
    for (std::size_t bad : {std::size_t{0}, std::size_t{1}, std::size_t{40}, std::size_t{99}}) {
        INFO("throwing item " << bad);
        PoolTally tally(100);
        try {
            pool.for_each(100, [&](std::size_t i, unsigned slot) {
                tally.record(i, slot);
                if (i >= bad) throw std::runtime_error("item " + std::to_string(i));
            });
            FAIL("no exception");
        } catch (const std::runtime_error& e) {
            // Every later item throws too; the loop's first is `bad`.
            CHECK(std::string(e.what()) == "item " + std::to_string(bad));
        }
        // Items before the first failure all ran (they were claimed before it).
        for (std::size_t i = 0; i < bad; ++i) CHECK(tally.runs[i].load() == 1);
    }
    // The pool still works after failures.
    PoolTally tally(64);
    pool.for_each(64, [&](std::size_t i, unsigned slot) { tally.record(i, slot); });
    CHECK(tally.each_once());
}

TEST_CASE("worker pool: an exception thrown on a worker thread propagates", "[engine][threads]") {
    // Two items, each claimed by a different thread (the first waits for the
    // second to start); the one that runs off the calling thread throws.
    WorkerPool pool(2);
    const std::thread::id caller = std::this_thread::get_id();
    std::mutex m;
    std::condition_variable cv;
    int started = 0;
    bool other_thread_ran = false;
    try {
        pool.for_each(2, [&](std::size_t, unsigned) {
            std::unique_lock<std::mutex> lock(m);
            ++started;
            cv.notify_all();
            cv.wait_for(lock, std::chrono::seconds(60), [&] { return started == 2; });
            if (std::this_thread::get_id() != caller) {
                other_thread_ran = true;
                throw std::logic_error("from a worker");
            }
        });
        FAIL("no exception");
    } catch (const std::logic_error& e) {
        CHECK(std::string(e.what()) == "from a worker");
    }
    CHECK(other_thread_ran);
}

TEST_CASE("worker pool: nested calls from inside a body complete, each item once", "[engine][threads]") {
    WorkerPool pool(2);
    constexpr std::size_t outer = 8, inner = 33;
    PoolTally tally(outer * inner);
    // Catch's assertions are not thread-safe: bodies only record, checks follow.
    pool.for_each(outer, [&](std::size_t i, unsigned) {
        pool.for_each(inner, [&](std::size_t j, unsigned slot) { tally.record(i * inner + j, slot); });
    });
    CHECK(tally.each_once());
    CHECK(tally.max_slot.load() == 0);  // nested calls run inline, on slot 0
}

TEST_CASE("worker pool: calls from two threads at once both complete", "[engine][threads]") {
    WorkerPool pool(2);
    constexpr std::size_t count = 2000;
    PoolTally a(count), b(count);
    std::thread other([&] {
        for (int round = 0; round < 20; ++round)
            pool.for_each(count / 20, [&](std::size_t i, unsigned slot) { a.record(round * (count / 20) + i, slot); });
    });
    for (int round = 0; round < 20; ++round)
        pool.for_each(count / 20, [&](std::size_t i, unsigned slot) { b.record(round * (count / 20) + i, slot); });
    other.join();
    CHECK(a.each_once());
    CHECK(b.each_once());
}

TEST_CASE("worker pool: pools start and stop cleanly, busy or idle", "[engine][threads]") {
    // Construction and destruction many times over: destruction joins every
    // worker (a stale thread would keep the test process alive or crash it).
    for (int round = 0; round < 50; ++round) {
        auto pool = std::make_unique<WorkerPool>(1 + round % 4);
        if (round % 2) {
            PoolTally tally(10);
            pool->for_each(10, [&](std::size_t i, unsigned slot) { tally.record(i, slot); });
            CHECK(tally.each_once());
        }
        pool.reset();
    }
    CHECK(WorkerPool::default_threads() >= 1);
    CHECK(WorkerPool::default_threads() <= 2);
    // Two cores or fewer: the simulation thread alone.
    CHECK(WorkerPool::threads_for_cores(0) == 1);  // unknown
    CHECK(WorkerPool::threads_for_cores(1) == 1);
    CHECK(WorkerPool::threads_for_cores(2) == 1);
    CHECK(WorkerPool::threads_for_cores(3) == 2);
    CHECK(WorkerPool::threads_for_cores(64) == 2);
}

TEST_CASE("worker pool: a pool that shares only with a spare core still runs every item once", "[engine][threads]") {
    // Whether it shares depends on the host's load at the moment; what it
    // runs must not.
    WorkerPool pool(2, true);
    for (int round = 0; round < 20; ++round) {
        // Now and then the worker sleeps long enough to sample the host's
        // load (CpuHeadroom::sample) while the caller may be reading the answer.
        if (round % 8 == 4) std::this_thread::sleep_for(CpuHeadroom::kMinWindow * 2);
        PoolTally tally(300);
        const bool shared = pool.for_each(300, [&](std::size_t i, unsigned slot) { tally.record(i, slot); });
        CHECK(tally.each_once());
        if (!shared) CHECK(tally.max_slot.load() == 0);
    }
    CHECK(pool.shared_calls() <= 20);
}
