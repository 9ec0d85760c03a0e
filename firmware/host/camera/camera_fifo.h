// The camera interface's data FIFO: captured words wait here until the
// firmware reads FIFO_DATA. A word that arrives while it is full is lost (the
// hardware has nowhere to put it); the losses are counted for the run's
// warnings. Its depth is the FIFO_SIZE register's value (configs).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace ai8x {

class CameraFifo {
public:
    explicit CameraFifo(unsigned depth) : slots_(depth ? depth : 1) {}

    // False when the FIFO was full: the word is dropped and counted.
    bool push(uint32_t word);
    std::optional<uint32_t> pop();
    void clear() { count_ = head_ = 0; }

    unsigned depth() const { return unsigned(slots_.size()); }
    unsigned level() const { return count_; }
    bool empty() const { return count_ == 0; }
    bool full() const { return count_ == slots_.size(); }

    uint64_t words_in() const { return in_; }
    uint64_t words_out() const { return out_; }
    uint64_t overflows() const { return lost_; }

private:
    std::vector<uint32_t> slots_;
    unsigned head_ = 0, count_ = 0;
    uint64_t in_ = 0, out_ = 0, lost_ = 0;
};

}  // namespace ai8x
