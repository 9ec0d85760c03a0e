// The log lines a test provokes: a sink added to the default logger for the
// capture's lifetime (every level the logger passes on), each line as
// "LEVEL: MESSAGE".
#pragma once

#include <algorithm>
#include <memory>
#include <string>

#include <spdlog/sinks/ringbuffer_sink.h>
#include <spdlog/spdlog.h>

namespace ai8x::test {

struct LogCapture {
    std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt> sink = std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(256);
    LogCapture() {
        sink->set_pattern("%l: %v");  // "warning: cnn.fifo: ..."
        spdlog::default_logger()->sinks().push_back(sink);
    }
    ~LogCapture() {
        auto& sinks = spdlog::default_logger()->sinks();
        sinks.erase(std::remove(sinks.begin(), sinks.end(), sink), sinks.end());
    }
    LogCapture(const LogCapture&) = delete;
    LogCapture& operator=(const LogCapture&) = delete;
    // How many of the captured lines (the last 256) contain `text`.
    std::size_t count(const std::string& text) const {
        std::size_t n = 0;
        for (const std::string& line : sink->last_formatted())
            if (line.find(text) != std::string::npos) ++n;
        return n;
    }
    bool contains(const std::string& text) const { return count(text) > 0; }
};

}  // namespace ai8x::test
