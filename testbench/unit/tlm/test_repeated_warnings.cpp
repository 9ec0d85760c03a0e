// tlm/repeated_warnings.h: the first occurrence of each kind is a warning,
// the repeats go to the debug level, and one line counts them at the end.
#include <catch2/catch.hpp>

#include <spdlog/spdlog.h>

#include "testbench/unit/log_capture.h"
#include "tlm/repeated_warnings.h"

using ai8x::RepeatedWarnings;
using ai8x::test::LogCapture;

namespace {

// The logger's level for the scope of one test.
struct ScopedLogLevel {
    spdlog::level::level_enum saved = spdlog::get_level();
    explicit ScopedLogLevel(spdlog::level::level_enum level) { spdlog::set_level(level); }
    ~ScopedLogLevel() { spdlog::set_level(saved); }
};

}  // namespace

TEST_CASE("repeated warnings: one warning per kind, the repeats counted in one line when the owner goes",
          "[warnings]") {
    ScopedLogLevel info(spdlog::level::info);
    LogCapture log;
    {
        RepeatedWarnings w("dev");
        for (int i = 0; i < 5; ++i) w.warn("store to X", "dev: store to X, word " + std::to_string(i));
        w.warn("read of Y", "dev: read of Y");
        CHECK(log.count("dev: store to X, word") == 1);
        CHECK(log.contains("dev: store to X, word 0"));
        CHECK(log.count("dev: read of Y") == 1);
        CHECK(w.count("store to X") == 5);
        CHECK(w.count("read of Y") == 1);
        CHECK(w.count("never") == 0);
        CHECK_FALSE(log.contains("more time"));  // the summary waits for the end
    }
    CHECK(log.count("dev: store to X: 4 more time(s) after the first, not printed (each under -v debug)") == 1);
    CHECK_FALSE(log.contains("read of Y: "));  // a kind seen once has nothing to sum up
}

TEST_CASE("repeated warnings: under -v debug every occurrence is logged", "[warnings]") {
    ScopedLogLevel debug(spdlog::level::debug);
    LogCapture log;
    RepeatedWarnings w("dev");
    for (int i = 0; i < 3; ++i) w.warn("store to X", "dev: store to X, word " + std::to_string(i));
    CHECK(log.count("warning: dev: store to X, word 0") == 1);
    CHECK(log.count("debug: dev: store to X, word") == 2);
    CHECK(log.count("dev: store to X, word") == 3);
}
