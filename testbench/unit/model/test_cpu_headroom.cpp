// CpuHeadroom (model/engine/cpu_headroom.h): reading the kernel's CPU counters
// and deciding from two samples whether a core is spare. No test here sleeps
// or measures time: the decisions are checked on given counters.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "model/engine/cpu_headroom.h"

using namespace ai8x;

namespace {

// A /proc/stat "cpu" line: user nice system idle iowait irq softirq steal guest guest_nice.
std::string stat_text(uint64_t user, uint64_t nice, uint64_t system, uint64_t idle, uint64_t steal = 0) {
    return "cpu  " + std::to_string(user) + " " + std::to_string(nice) + " " + std::to_string(system) + " " +
           std::to_string(idle) + " 0 0 0 " + std::to_string(steal) + " 7 7\n" +
           "cpu0 1 2 3 4 5 6 7 8 0 0\nintr 1 2 3\n";
}

}  // namespace

TEST_CASE("cpu headroom: the aggregate cpu line is read, guest time not counted twice", "[engine][threads]") {
    const auto c = CpuHeadroom::parse(stat_text(100, 50, 20, 300, 5));
    REQUIRE(c.valid);
    CHECK(c.busy == 100 + 20 + 5);              // user + system + irq + softirq + steal; nice is not busy
    CHECK(c.total == 100 + 50 + 20 + 300 + 5);  // the eight first columns
    // Old kernels print only four columns.
    const auto old = CpuHeadroom::parse("cpu 10 0 5 85\n");
    REQUIRE(old.valid);
    CHECK(old.busy == 15);
    CHECK(old.total == 100);
    for (const char* bad : {"", "intr 1 2 3\n", "cpu 1 2\n", "cpu0 1 2 3 4\n"}) {
        INFO(bad);
        CHECK_FALSE(CpuHeadroom::parse(bad).valid);
    }
}

TEST_CASE("cpu headroom: a core is spare when half a core was idle or niced", "[engine][threads]") {
    const auto at = [](uint64_t user, uint64_t nice, uint64_t system, uint64_t idle) {
        return CpuHeadroom::parse(stat_text(user, nice, system, idle));
    };
    const auto start = at(1000, 1000, 1000, 1000);
    bool known = false;
    // Two cores over 100 ticks each (200 in all): we keep one busy, the other idles.
    CHECK(CpuHeadroom::spare(start, at(1100, 1000, 1000, 1100), 2, known));
    CHECK(known);
    // The other core runs a nice 19 job: it yields to us, so it counts as spare.
    CHECK(CpuHeadroom::spare(start, at(1100, 1100, 1000, 1000), 2, known));
    // The other core runs normal-priority work (user or system time): not spare.
    CHECK_FALSE(CpuHeadroom::spare(start, at(1150, 1000, 1050, 1000), 2, known));
    CHECK(known);
    // Exactly half a core left is enough; less is not.
    CHECK(CpuHeadroom::spare(start, at(1150, 1000, 1000, 1050), 2, known));
    CHECK_FALSE(CpuHeadroom::spare(start, at(1160, 1000, 1000, 1040), 2, known));
    // Counters that did not advance, went back, or could not be read decide nothing.
    CHECK_FALSE(CpuHeadroom::spare(start, start, 2, known));
    CHECK_FALSE(known);
    CHECK_FALSE(CpuHeadroom::spare(start, at(900, 1000, 1000, 1200), 2, known));
    CHECK_FALSE(known);
    CHECK_FALSE(CpuHeadroom::spare(start, CpuHeadroom::Counters{}, 2, known));
    CHECK_FALSE(known);
}

TEST_CASE("cpu headroom: before a full window, or without counters, the answer is yes", "[engine][threads]") {
    // The first answer stands until a window of samples says otherwise; a host
    // without /proc/stat never takes the engine's threads away.
    const auto dir = std::filesystem::temp_directory_path() / ("ai8xsim-headroom-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    {
        std::ofstream(dir / "stat") << stat_text(1000, 0, 1000, 0);
        CpuHeadroom busy((dir / "stat").string());
        CHECK(busy.spare_core());
    }
    CpuHeadroom missing((dir / "no-such-file").string());
    CHECK(missing.spare_core());
    CHECK(missing.spare_core());
    std::filesystem::remove_all(dir);
}

TEST_CASE("cpu headroom: only sample() reads the counters and changes the answer", "[engine][threads]") {
    // The simulation thread asks spare_core() in an inference; reading
    // /proc/stat there cost 50-180 us on a virtual machine, so asking reads
    // nothing and the pool's worker samples between inferences.
    const auto dir = std::filesystem::temp_directory_path() / ("ai8xsim-headroom-s-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "stat").string();
    std::ofstream(path) << stat_text(1000, 0, 1000, 1000);
    CpuHeadroom probe(path, std::chrono::milliseconds(0));
    // Both cores busy with normal-priority work since the first read.
    std::ofstream(path) << stat_text(1100, 0, 1100, 1000);
    CHECK(probe.spare_core());  // nothing sampled yet: the first answer stands
    probe.sample();
    CHECK_FALSE(probe.spare_core());
    CHECK_FALSE(probe.spare_core());
    // Counters that did not advance leave the answer as it was.
    probe.sample();
    CHECK_FALSE(probe.spare_core());
    // Then one core idles.
    std::ofstream(path) << stat_text(1200, 0, 1100, 1100);
    probe.sample();
    CHECK(probe.spare_core());
    // A window not yet over: the counters are not even read.
    CpuHeadroom slow(path, std::chrono::hours(1));
    std::ofstream(path) << stat_text(1300, 0, 1200, 1100);
    slow.sample();
    CHECK(slow.spare_core());
    std::filesystem::remove_all(dir);
}
