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

unsigned WorkerPool::default_threads() { return std::clamp(std::thread::hardware_concurrency(), 1u, 2u); }

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
    {
        std::lock_guard<std::mutex> lock(mutex_);
        job_ = &job;
        ++generation_;
    }
    work_ready_.notify_all();
    run_items(job, 0);
    {
        // Close the job (a worker waking up now finds nothing to join) and
        // wait only for the workers still inside it.
        std::unique_lock<std::mutex> lock(mutex_);
        job_ = nullptr;
        work_done_.wait(lock, [this] { return joined_ == 0; });
    }
    if (job.error) std::rethrow_exception(job.error);
    return true;
}

void WorkerPool::worker_main(unsigned slot) {
    unsigned long seen = 0;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        work_ready_.wait(lock, [&] { return stopping_ || (job_ != nullptr && generation_ != seen); });
        if (stopping_) return;
        seen = generation_;
        Job& job = *job_;
        ++joined_;
        lock.unlock();
        run_items(job, slot);
        lock.lock();
        if (--joined_ == 0) work_done_.notify_all();
    }
}

}  // namespace ai8x
