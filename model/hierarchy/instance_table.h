// A numbered set of objects that live elsewhere: in the module that owns them
// (a processor's TRAM, a quadrant's registers) or, for a state used without a
// module tree, in AcceleratorState's own detached storage. Element i is the
// object of global instance i; the layer engine indexes it like a vector.
#pragma once

#include <cstddef>
#include <iterator>
#include <vector>

namespace ai8x {

template <typename T>
class InstanceTable {
public:
    class iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = T;
        using difference_type = std::ptrdiff_t;
        using pointer = T*;
        using reference = T&;

        explicit iterator(T* const* at) : at_(at) {}
        T& operator*() const { return **at_; }
        T* operator->() const { return *at_; }
        iterator& operator++() {
            ++at_;
            return *this;
        }
        bool operator==(const iterator& o) const { return at_ == o.at_; }
        bool operator!=(const iterator& o) const { return at_ != o.at_; }

    private:
        T* const* at_;
    };

    void bind(std::vector<T*> items) { items_ = std::move(items); }

    T& operator[](std::size_t i) const { return *items_[i]; }
    std::size_t size() const { return items_.size(); }
    bool empty() const { return items_.empty(); }
    // A copy of every element (e.g. data memory before an inference).
    std::vector<T> snapshot() const {
        std::vector<T> copy;
        copy.reserve(items_.size());
        for (const T* item : items_) copy.push_back(*item);
        return copy;
    }
    iterator begin() const { return iterator(items_.data()); }
    iterator end() const { return iterator(items_.data() + items_.size()); }

private:
    std::vector<T*> items_;
};

}  // namespace ai8x
