// Leftover temporaries (firmware/host/temporary_files.h): NAME.tmp<pid> files
// of a killed run. Those of one known process are removed after a kill, one
// folder level deep; abandoned ones (process gone, old enough) are removed
// where a build looks, and nothing else is: not a running process's, not a
// fresh one, not a name that only looks similar. The firmware builder clears
// an entry's and the shim staging folder's abandoned temporaries when it builds.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "firmware/host/firmware_builder.h"
#include "firmware/host/temporary_files.h"
#include "testbench/unit/test_support.h"
#include "tlm/device_config.h"

using namespace ai8x;
namespace fs = std::filesystem;

namespace {

// The number of a process that has ended (forked, exited, reaped).
long ended_process() {
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) _exit(0);
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    return pid;
}

void touch(const fs::path& p, std::chrono::hours age = std::chrono::hours(0)) {
    fs::create_directories(p.parent_path());
    std::ofstream(p) << "partial";
    fs::last_write_time(p, fs::file_time_type::clock::now() - age);
}

}  // namespace

TEST_CASE("temporaries: a process's NAME.tmp<pid> files go, one folder level deep, others stay", "[temporaries]") {
    const ai8x::test::ScratchDir scratch("temporaries-pid");
    const fs::path& dir = scratch.path;
    const std::string pid = "424242";
    touch(dir / ("run.json.tmp" + pid));
    touch(dir / "entry" / ("firmware.elf.tmp" + pid));
    touch(dir / "entry" / ("link.tmp" + pid) / "memory.ld");
    touch(dir / "entry" / "deeper" / ("x.tmp" + pid));  // past where ai8xsim writes
    touch(dir / ("run.json.tmp" + pid + "0"));          // another process
    touch(dir / "plain.tmp");
    remove_temporary_files(dir.string(), std::stol(pid));
    CHECK_FALSE(fs::exists(dir / ("run.json.tmp" + pid)));
    CHECK_FALSE(fs::exists(dir / "entry" / ("firmware.elf.tmp" + pid)));
    CHECK_FALSE(fs::exists(dir / "entry" / ("link.tmp" + pid)));
    CHECK(fs::exists(dir / "entry" / "deeper" / ("x.tmp" + pid)));
    CHECK(fs::exists(dir / ("run.json.tmp" + pid + "0")));
    CHECK(fs::exists(dir / "plain.tmp"));
}

TEST_CASE("temporaries: only abandoned ones go: process gone and written an hour ago or more", "[temporaries]") {
    const ai8x::test::ScratchDir scratch("temporaries-abandoned");
    const fs::path& dir = scratch.path;
    const std::string gone = std::to_string(ended_process());
    const std::string alive = std::to_string(getpid());
    const auto old = std::chrono::hours(2);
    touch(dir / ("firmware.elf.tmp" + gone), old);
    touch(dir / ("link.tmp" + gone) / "memory.ld", old);
    fs::last_write_time(dir / ("link.tmp" + gone), fs::file_time_type::clock::now() - old);
    touch(dir / ("layout.txt.tmp" + gone));  // fresh: perhaps another host's build
    touch(dir / ("riscv.elf.tmp" + alive), old);
    touch(dir / "sub" / ("x.tmp" + gone), old);  // not this folder's
    touch(dir / "notes.tmp", old);
    touch(dir / ("notes.tmp" + gone + "b"), old);
    CHECK(remove_abandoned_temporary_files(dir.string()) == 2);
    CHECK_FALSE(fs::exists(dir / ("firmware.elf.tmp" + gone)));
    CHECK_FALSE(fs::exists(dir / ("link.tmp" + gone)));
    CHECK(fs::exists(dir / ("layout.txt.tmp" + gone)));
    CHECK(fs::exists(dir / ("riscv.elf.tmp" + alive)));
    CHECK(fs::exists(dir / "sub" / ("x.tmp" + gone)));
    CHECK(fs::exists(dir / "notes.tmp"));
    CHECK(fs::exists(dir / ("notes.tmp" + gone + "b")));
    // With no minimum age, the fresh one is abandoned too.
    CHECK(remove_abandoned_temporary_files(dir.string(), 0) == 1);
    CHECK(remove_abandoned_temporary_files((dir / "no-such-folder").string()) == 0);
}

TEST_CASE("temporaries: a build clears what an earlier killed build of its entry left", "[temporaries][builder]") {
    const ai8x::test::ScratchDir scratch("temporaries-builder");
    const fs::path& dir = scratch.path;
    fs::create_directories(dir / "app");
    std::ofstream(dir / "app" / "main.c") << "int main(void) { return 0; }\n";
    const fs::path cache = dir / "cache";
    const DeviceConfig cfg = load_device_config(default_device_config_path());
    FirmwareBuilder builder(cfg, cache.string());
    const fs::path entry = fs::path(builder.build((dir / "app").string()).elf_path).parent_path();

    // As if a build of this entry and one of the shim were killed two hours
    // ago, midway: no image, no shim objects, temporaries lying about.
    const std::string gone = std::to_string(ended_process());
    const auto old = std::chrono::hours(2);
    fs::remove(entry / "firmware.elf");
    for (const auto& e : fs::directory_iterator(cache))
        if (e.path().filename().string().rfind("_shim-objects-", 0) == 0) fs::remove_all(e.path());
    const fs::path staged = cache / "_shim-staging" / ("0123456789abcdef-0.tmp" + gone);
    touch(entry / ("firmware.elf.tmp" + gone), old);
    touch(entry / ("link.tmp" + gone) / "memory.ld", old);
    touch(staged / "startup.o", old);
    for (const fs::path& folder : {entry / ("link.tmp" + gone), staged})
        fs::last_write_time(folder, fs::file_time_type::clock::now() - old);

    const FirmwareBuild again = builder.build((dir / "app").string());
    CHECK_FALSE(again.from_cache);
    CHECK(fs::exists(again.elf_path));
    CHECK_FALSE(fs::exists(entry / ("firmware.elf.tmp" + gone)));
    CHECK_FALSE(fs::exists(entry / ("link.tmp" + gone)));
    CHECK_FALSE(fs::exists(staged));
}
