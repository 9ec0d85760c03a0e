// Output files that readers never see half-written: the content goes to a
// temporary file beside the target, which is renamed over it when complete.
#pragma once

#include <functional>
#include <ostream>
#include <string>

namespace ai8x {

// Calls `body` with a stream to the temporary file, then renames it to
// `path`. Throws std::runtime_error naming the path if any step fails (the
// temporary file is removed).
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& body);

// Empty when `path` can be written (a temporary file beside it can be
// created), else a message naming the path. For checking options before a long run.
std::string check_writable(const std::string& path);

}  // namespace ai8x
