#include "app/atomic_file.h"

#include <cstdio>
#include <fstream>
#include <stdexcept>

#include <unistd.h>

namespace ai8x {

namespace {

std::string temporary_name(const std::string& path) { return path + ".tmp" + std::to_string(getpid()); }

}  // namespace

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& body) {
    const std::string tmp = temporary_name(path);
    {
        std::ofstream out(tmp);
        if (!out) throw std::runtime_error(path + ": cannot write (temporary file " + tmp + ")");
        try {
            body(out);
        } catch (...) {
            out.close();
            std::remove(tmp.c_str());
            throw;
        }
        out.flush();
        if (!out) {
            out.close();
            std::remove(tmp.c_str());
            throw std::runtime_error(tmp + ": write failed");
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::remove(tmp.c_str());
        throw std::runtime_error(path + ": cannot rename " + tmp + " into place");
    }
}

std::string check_writable(const std::string& path) {
    const std::string tmp = temporary_name(path);
    std::ofstream probe(tmp);
    if (!probe) return path + ": cannot write (no such directory or no permission)";
    probe.close();
    std::remove(tmp.c_str());
    return {};
}

}  // namespace ai8x
