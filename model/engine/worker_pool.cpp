#include "model/engine/worker_pool.h"

#include "model/engine/cpu_headroom.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <system_error>

namespace ai8x {

namespace {

// Set while this thread runs a body, so that a nested for_each() runs inline
// instead of waiting for workers that may all be busy with the outer call.
thread_local bool t_in_body = false;

// One pause of a spin loop: tells the core (and a hypervisor watching for
// spinning) that this is a wait.
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#else
    std::atomic_signal_fence(std::memory_order_seq_cst);
#endif
}

// Spins until `done()` or `limit` has passed; returns done().
template <typename Done>
bool spin_until(Done done, std::chrono::microseconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    for (unsigned i = 1;; ++i) {
        if (done()) return true;
        if (i % 64 == 0 && std::chrono::steady_clock::now() >= deadline) return false;
        cpu_relax();
    }
}

class InBody {
public:
    InBody() : outer_(t_in_body) { t_in_body = true; }
    ~InBody() { t_in_body = outer_; }
    InBody(const InBody&) = delete;
    InBody& operator=(const InBody&) = delete;

private:
    bool outer_;
};

}  // namespace

struct WorkerPool::Job {
    Job(const Body& b, std::size_t n) : body(b), count(n) {}
    const Body& body;
    const std::size_t count;
    std::atomic<std::size_t> next{0};  // the next unclaimed item
    std::atomic<bool> failed{false};   // a body threw: claim nothing more
    std::mutex error_mutex;
    std::size_t error_index = std::numeric_limits<std::size_t>::max();
    std::exception_ptr error;
};

WorkerPool::WorkerPool(unsigned threads, bool only_with_spare_core) {
    if (only_with_spare_core && threads > 1) headroom_ = std::make_unique<CpuHeadroom>();
    const unsigned workers = std::max(threads, 1u) - 1;
    workers_.reserve(workers);
    try {
        for (unsigned slot = 1; slot <= workers; ++slot) workers_.emplace_back([this, slot] { worker_main(slot); });
    } catch (const std::system_error&) {
        // The host refused another thread: work with the ones it gave.
    }
}

WorkerPool::~WorkerPool() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    work_ready_.notify_all();
    for (std::thread& t : workers_) t.join();
}

WorkerPool::Hold::Hold(WorkerPool* pool) : pool_(pool && pool->hold() ? pool : nullptr) {}

WorkerPool::Hold::~Hold() {
    if (pool_) pool_->release();
}

bool WorkerPool::hold() {
    if (workers_.empty()) return false;
    {
        // A pool that shares only with a spare core spins only with one.
        std::unique_lock<std::mutex> submit(submit_, std::try_to_lock);
        if (!submit.owns_lock() || (headroom_ && !headroom_->spare_core())) return false;
    }
    // Sleeping workers are left asleep: an inference with nothing to share
    // then pays no wake-up (about 10 us of the caller's); the first shared
    // call wakes them, and they spin from then on.
    holds_.fetch_add(1);
    return true;
}

void WorkerPool::release() { holds_.fetch_sub(1); }

unsigned long WorkerPool::sleeps() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return sleeps_;
}

void WorkerPool::run_inline(std::size_t count, const Body& body) {
    InBody in_body;
    for (std::size_t i = 0; i < count; ++i) body(i, 0);
}

void WorkerPool::run_items(Job& job, unsigned slot) {
    InBody in_body;
    while (!job.failed.load(std::memory_order_relaxed)) {
        const std::size_t i = job.next.fetch_add(1, std::memory_order_relaxed);
        if (i >= job.count) return;
        try {
            job.body(i, slot);
        } catch (...) {
            std::lock_guard<std::mutex> lock(job.error_mutex);
            if (i < job.error_index) {
                job.error_index = i;
                job.error = std::current_exception();
            }
            job.failed.store(true, std::memory_order_relaxed);
        }
    }
}

bool WorkerPool::for_each(std::size_t count, const Body& body) {
    if (count == 0) return false;
    std::unique_lock<std::mutex> submit(submit_, std::defer_lock);
    // Inline: one item, a nested call, another thread's call in progress, or no spare core.
    const bool shared =
        !workers_.empty() && count > 1 && !t_in_body && submit.try_lock() && (!headroom_ || headroom_->spare_core());
    if (!shared) {
        run_inline(count, body);
        return false;
    }

    ++shared_calls_;
    Job job(body, count);
    bool wake = false;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        job_ = &job;
        generation_.fetch_add(1);
        wake = sleeping_ > 0;  // spinning workers see the generation change
    }
    if (wake) work_ready_.notify_all();
    run_items(job, 0);
    close_job();
    if (job.error) std::rethrow_exception(job.error);
    return true;
}

void WorkerPool::close_job() {
    {
        // A worker looking for work now finds nothing to join.
        std::lock_guard<std::mutex> lock(mutex_);
        job_ = nullptr;
    }
    // Wait only for the workers still inside the job: spinning while held
    // (a worker's last item is short), then asleep.
    if (holds_.load(std::memory_order_relaxed) > 0) spin_until([this] { return joined_.load() == 0; }, kSpin);
    std::unique_lock<std::mutex> lock(mutex_);
    caller_waiting_ = true;
    work_done_.wait(lock, [this] { return joined_.load() == 0; });
    caller_waiting_ = false;
}

WorkerPool::Job* WorkerPool::join_job(unsigned long& seen) {
    const unsigned long now = generation_.load();
    if (job_ == nullptr || now == seen) return nullptr;
    seen = now;
    joined_.fetch_add(1);
    return job_;
}

bool WorkerPool::spin_for_work(unsigned long seen) const {
    bool held = true;
    const bool news = spin_until(
        [&] {
            if (generation_.load() != seen || stopping_.load()) return true;
            held = holds_.load(std::memory_order_relaxed) > 0;
            return !held;
        },
        kSpin);
    return news && held;
}

void WorkerPool::worker_main(unsigned slot) {
    unsigned long seen = 0;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        if (stopping_) return;
        if (Job* job = join_job(seen)) {
            lock.unlock();
            run_items(*job, slot);
            lock.lock();
            if (joined_.fetch_sub(1) == 1 && caller_waiting_) work_done_.notify_all();
            continue;
        }
        seen = generation_.load();  // a wake-up to spin, or nothing new
        if (holds_.load() > 0) {
            lock.unlock();
            const bool news = spin_for_work(seen);
            lock.lock();
            if (news) continue;
        }
        ++sleeping_;
        ++sleeps_;
        sleep_until_work(lock, seen, slot);
        --sleeping_;
    }
}

void WorkerPool::sleep_until_work(std::unique_lock<std::mutex>& lock, unsigned long seen, unsigned slot) {
    const auto news = [&] { return stopping_ || generation_.load() != seen; };
    // One worker samples the host's load while it sleeps, off the simulation
    // thread and outside any inference (CpuHeadroom::sample).
    if (!headroom_ || slot != 1) {
        work_ready_.wait(lock, news);
        return;
    }
    while (!work_ready_.wait_for(lock, CpuHeadroom::kMinWindow, news)) {
        lock.unlock();
        headroom_->sample();
        lock.lock();
    }
}

}  // namespace ai8x
