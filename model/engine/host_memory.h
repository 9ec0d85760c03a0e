// The host memory the layer engine works in. Each layer allocates its
// buffers (the padded image, the packed weights, the results) and frees them;
// the C library would hand large freed blocks back to the kernel, and a
// block from fresh pages costs a page fault per 4 KiB page at its first
// touch (about 2.6 us each on the CI's virtual machines: 30-60 of them, some
// 8-10 % of a small network's inference, invisible to instruction counts).
// So, once per process, before the first inference: freed memory is kept for
// reuse, and a first share of it (the device's data memory in bytes, what
// one layer can read) is touched then, outside every inference.
#pragma once

#include <cstddef>

namespace ai8x {

// Keeps freed host memory for reuse and pre-touches `bytes` of it; does the
// work once per process (later calls return at once). Returns false where
// the C library's allocator is not in use (not glibc, or a sanitizer's).
bool prepare_engine_memory(std::size_t bytes);

}  // namespace ai8x
