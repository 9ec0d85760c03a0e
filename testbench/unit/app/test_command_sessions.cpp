// `replay` and `info` in-process (the Python package's calls): each takes its
// turn on a simulation kernel of its own (app/simulation_turn.h), so they
// repeat in one process, between runs, and answer bad input with the command
// line's message instead of throwing.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "app/info_command.h"
#include "app/replay_command.h"
#include "app/run_session.h"
#include "testbench/unit/app/app_test_support.h"
#include "build_paths.h"

using namespace ai8x;
using namespace ai8x::test;
namespace fs = std::filesystem;

namespace {

const std::string kMnist = std::string(AI8XSIM_SHARED_DIR) + "/vectors/demo-mnist-extrasmall";

}  // namespace

TEST_CASE("replay in process: twice in one process and between runs, the same answer", "[replay][session]") {
    const fs::path work = scratch("replay-session");
    RunOptions o = run_options_for(kMnist, work);
    o.trace_out = (work / "run.trace").string();
    REQUIRE(run_in_process(o).passed());
    const ReplayResult first = replay_in_process(ReplayOptions{o.trace_out, ""});
    REQUIRE(first.exit_code == kReplayPass);
    CHECK(first.trace.finished);
    CHECK(first.trace.commands_executed > 100);
    CHECK(first.messages.empty());
    const ReplayResult second = replay_in_process(ReplayOptions{o.trace_out, ""});
    CHECK(second.exit_code == kReplayPass);
    CHECK(second.trace.commands_executed == first.trace.commands_executed);
    CHECK(second.sim_time_us == first.sim_time_us);
    o.trace_out.clear();
    CHECK(run_in_process(o).passed());
    fs::remove_all(work);
}

TEST_CASE("replay in process: a malformed trace is a message, not an exception", "[replay][session]") {
    const fs::path work = scratch("replay-bad");
    const std::string trace = (work / "bad.trace").string();
    std::ofstream(trace) << "write32 nonsense\n";
    const ReplayResult r = replay_in_process(ReplayOptions{trace, ""});
    CHECK(r.exit_code == kReplayBadInput);
    REQUIRE(r.messages.size() == 1);
    CHECK(r.messages[0].find(trace) != std::string::npos);
    CHECK_FALSE(r.trace.finished);
    fs::remove_all(work);
}

TEST_CASE("info in process: the map of both devices, twice, and a run after it", "[info][session]") {
    const std::string dir = fs::path(default_device_config_path()).parent_path().string();
    const InfoResult a = info_in_process(InfoOptions{dir + "/max78000.yaml", true});
    const InfoResult b = info_in_process(InfoOptions{dir + "/max78002.yaml", true});
    const InfoResult again = info_in_process(InfoOptions{dir + "/max78000.yaml", true});
    REQUIRE(a.exit_code == 0);
    REQUIRE(b.exit_code == 0);
    CHECK(again.text == a.text);
    CHECK(b.text != a.text);
    CHECK(nlohmann::json::parse(a.text).is_object());
    const InfoResult bad = info_in_process(InfoOptions{dir + "/no-such-device.yaml", false});
    CHECK(bad.exit_code == 2);
    CHECK(bad.message.find("no-such-device.yaml") != std::string::npos);
    CHECK(bad.text.empty());
    const fs::path work = scratch("info-session");
    CHECK(run_in_process(run_options_for(kMnist, work)).passed());
    fs::remove_all(work);
}
