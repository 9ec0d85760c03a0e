// Every golden vector's generated firmware must compile and link unmodified
// against the shim and startup code.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <sstream>
#include <thread>

#include "firmware/host/firmware_builder.h"
#include "tlm/device_config.h"
#include "testbench/unit/test_support.h"
#include "build_paths.h"

using namespace ai8x;
namespace fs = std::filesystem;

namespace {

// Builds the firmware of every vector folder under `vectors` with the device
// description `config`; returns the number of folders and fails on any error.
size_t build_every_vector(const fs::path& vectors, const std::string& config) {
    REQUIRE(fs::is_directory(vectors));
    DeviceConfig cfg = load_device_config(config);
    FirmwareBuilder builder(cfg, ai8x::test::firmware_cache());

    std::vector<fs::path> dirs;
    for (const auto& e : fs::directory_iterator(vectors))
        if (e.is_directory()) dirs.push_back(e.path());
    std::sort(dirs.begin(), dirs.end());

    // Two builds at once (each is one compiler process): a cold cache is
    // filled in half the time on the two cores CI has.
    std::vector<std::string> errors(dirs.size());
    std::vector<char> enlarged(dirs.size(), 0);
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
        for (std::size_t i = next++; i < dirs.size(); i = next++) {
            try {
                FirmwareBuild b = builder.build(dirs[i].string());
                enlarged[i] = b.memory_enlarged;
                if (!fs::exists(b.elf_path)) errors[i] = "no ELF at " + b.elf_path;
            } catch (const BuildError& e) {
                errors[i] = std::string(e.what()) + "\n" + e.compiler_output.substr(0, 2000);
            } catch (const std::exception& e) {
                errors[i] = e.what();
            }
        }
    };
    std::thread helper(worker);
    worker();
    helper.join();

    std::ostringstream failed;
    size_t failures = 0;
    for (std::size_t i = 0; i < dirs.size(); ++i)
        if (!errors[i].empty()) {
            ++failures;
            failed << dirs[i].filename().string() << ": " << errors[i] << "\n";
        }
    const auto enlarged_count = std::count(enlarged.begin(), enlarged.end(), 1);
    INFO(dirs.size() << " vectors, " << enlarged_count << " linked with enlarged memories; failures:\n"
                     << failed.str());
    CHECK(failures == 0);
    return dirs.size();
}

}  // namespace

TEST_CASE("the firmware of every golden vector builds", "[builder][vectors]") {
    CHECK(build_every_vector(fs::path(AI8XSIM_SHARED_DIR) / "vectors", default_device_config_path()) >= 100);
}

TEST_CASE("the firmware of every MAX78002 golden vector builds", "[builder][vectors][max78002]") {
    CHECK(build_every_vector(fs::path(AI8XSIM_SHARED_DIR) / "vectors-max78002",
                             AI8XSIM_SOURCE_DIR "/configs/max78002.yaml") >= 100);
}

TEST_CASE("a compiler error is reported with the compiler's message", "[builder]") {
    const fs::path dir = fs::temp_directory_path() / ("ai8xsim-broken-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::ofstream(dir / "main.c") << "int main(void) { return undefined_thing; }\n";
    DeviceConfig cfg = load_device_config(default_device_config_path());
    FirmwareBuilder builder(cfg, (dir / "cache").string());
    try {
        builder.build(dir.string());
        FAIL("build of broken source succeeded");
    } catch (const BuildError& e) {
        CHECK(e.compiler_output.find("undefined_thing") != std::string::npos);
    }
    fs::remove_all(dir);
}

TEST_CASE("an unchanged folder is taken from the cache and a changed one is rebuilt", "[builder]") {
    const fs::path dir = fs::temp_directory_path() / ("ai8xsim-cache-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::ofstream(dir / "main.c") << "int main(void) { return 0; }\n";
    DeviceConfig cfg = load_device_config(default_device_config_path());
    FirmwareBuilder builder(cfg, (dir / "cache").string());
    FirmwareBuild first = builder.build(dir.string());
    CHECK_FALSE(first.from_cache);
    FirmwareBuild second = builder.build(dir.string());
    CHECK(second.from_cache);
    CHECK(second.elf_path == first.elf_path);
    std::ofstream(dir / "main.c") << "int main(void) { return 1; }\n";
    FirmwareBuild third = builder.build(dir.string());
    CHECK_FALSE(third.from_cache);
    CHECK(third.elf_path != first.elf_path);
    fs::remove_all(dir);
}

namespace {
// The shim object sets in a firmware cache, or the temporary folders left
// in its staging folder.
std::vector<std::string> shim_sets(const fs::path& cache, bool temporary) {
    std::vector<std::string> out;
    const fs::path where = temporary ? cache / "_shim-staging" : cache;
    if (!fs::is_directory(where)) return out;
    for (const auto& e : fs::directory_iterator(where)) {
        const std::string name = e.path().filename().string();
        if (temporary || name.rfind("_shim-objects-", 0) == 0) out.push_back(name);
    }
    return out;
}
}  // namespace

TEST_CASE("the shim is compiled once per device and shared by all its images, even when they are built at once",
          "[builder]") {
    const fs::path dir = fs::temp_directory_path() / ("ai8xsim-shim-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    // Eight folders of their own, built four at a time into an empty cache:
    // each may be the first to need the shim's objects.
    std::vector<fs::path> folders;
    for (int i = 0; i < 8; ++i) {
        folders.push_back(dir / ("f" + std::to_string(i)));
        fs::create_directories(folders.back());
        std::ofstream(folders.back() / "main.c") << "int main(void) { return " << i << "; }\n";
    }
    const fs::path cache = dir / "cache";
    DeviceConfig cfg = load_device_config(default_device_config_path());
    FirmwareBuilder builder(cfg, cache.string());
    std::vector<std::string> errors(folders.size());
    std::vector<std::thread> threads;
    std::atomic<std::size_t> next{0};
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&] {
            for (std::size_t i = next++; i < folders.size(); i = next++) try {
                    if (!fs::exists(builder.build(folders[i].string()).elf_path)) errors[i] = "no ELF";
                } catch (const std::exception& e) {
                    errors[i] = e.what();
                }
        });
    for (auto& t : threads) t.join();
    for (std::size_t i = 0; i < folders.size(); ++i) {
        INFO(folders[i].string());
        CHECK(errors[i].empty());
    }
    const auto sets = shim_sets(cache, false);
    REQUIRE(sets.size() == 1);
    CHECK(shim_sets(cache, true).empty());
    // One object per shim and startup source.
    std::size_t sources = 0, objects = 0;
    for (const char* sub : {"shim", "startup"})
        for (const auto& e : fs::recursive_directory_iterator(fs::path(AI8XSIM_SOURCE_DIR) / "firmware" / sub))
            sources += e.path().extension() == ".c";
    for (const auto& e : fs::directory_iterator(cache / sets[0])) objects += e.path().extension() == ".o";
    CHECK(objects == sources);
    CHECK(sources >= 2);

    // Another device's interrupt numbers are compiled into its own set.
    DeviceConfig other = load_device_config(AI8XSIM_SOURCE_DIR "/configs/max78002.yaml");
    FirmwareBuilder(other, cache.string()).build(folders[0].string());
    CHECK(shim_sets(cache, false).size() == 2);
    fs::remove_all(dir);
}
