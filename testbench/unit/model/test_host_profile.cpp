// The host-time probe (model/engine/host_profile.h, AI8XSIM_HOST_PROFILE):
// its laps add up to each layer's total, it books every layer the engine
// runs in order, its JSON has the fields docs/reports.md lists, a file it
// cannot write is reported, and profiling changes no result. No test here
// depends on how long anything takes.
#include <sys/mman.h>  // fresh pages for the page-fault count

#include <catch2/catch.hpp>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "model/engine/host_profile.h"
#include "model/engine/worker_pool.h"
#include "testbench/unit/model/engine_outcome.h"
#include "testbench/unit/test_support.h"

using namespace ai8x;

namespace {

double stage_sum(const HostProfile::Layer& l) {
    double sum = 0;
    for (double us : l.stage_us) sum += us;
    return sum;
}

}  // namespace

TEST_CASE("host profile: a layer's stages add up to its total, shared calls are counted", "[engine][profile]") {
    HostProfile profile;
    profile.start_inference();
    profile.start_layer(3, 10);
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    profile.lap(HostStage::decode);
    profile.lap(HostStage::kernel);
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    profile.lap(HostStage::kernel);
    profile.finish_layer(13);
    REQUIRE(profile.inferences().size() == 1u);
    REQUIRE(profile.inferences()[0].layers.size() == 1u);
    const HostProfile::Layer& l = profile.inferences()[0].layers[0];
    CHECK(l.layer == 3);
    CHECK(l.shared_calls == 3u);
    CHECK(l.stage_us[unsigned(HostStage::decode)] >= 200.0);
    CHECK(l.stage_us[unsigned(HostStage::kernel)] >= 200.0);
    CHECK(l.stage_us[unsigned(HostStage::input)] == 0.0);
    CHECK(stage_sum(l) == Approx(l.total_us).epsilon(1e-9));
    CHECK(profile.inferences()[0].engine_us >= l.total_us);
}

TEST_CASE("host profile: JSON names every stage of every layer, and an unwritable file is an error",
          "[engine][profile]") {
    HostProfile profile;
    profile.start_layer(0, 0);  // a layer outside an inference opens one
    profile.finish_layer(0);
    profile.start_inference();
    profile.start_layer(1, 0);
    profile.finish_layer(0);
    profile.start_layer(2, 0);
    profile.finish_layer(0);
    const nlohmann::json j = nlohmann::json::parse(profile.to_json());
    CHECK(j.at("host_profile") == 1);
    REQUIRE(j.at("inferences").size() == 2u);
    const nlohmann::json& second = j.at("inferences")[1];
    REQUIRE(second.at("layers").size() == 2u);
    CHECK(second.at("layers")[1].at("layer") == 2);
    for (const char* stage : {"decode", "input", "weights", "kernel", "writes", "other"})
        CHECK(second.at("layers")[0].at("stages_us").contains(stage));
    std::string error;
    CHECK_FALSE(profile.write("/nonexistent-dir/profile.json", error));
    CHECK(error.find("/nonexistent-dir/profile.json") != std::string::npos);
}

TEST_CASE("host profile: counts the page faults of a layer", "[engine][profile]") {
    HostProfile profile;
    constexpr std::size_t kPages = 32, kPage = 4096;
    void* fresh = mmap(nullptr, kPages * kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    REQUIRE(fresh != MAP_FAILED);
    profile.start_layer(0, 0);
    for (std::size_t p = 0; p < kPages; ++p) static_cast<volatile char*>(fresh)[p * kPage] = 1;  // first touches
    profile.finish_layer(0);
    munmap(fresh, kPages * kPage);
    const nlohmann::json j = nlohmann::json::parse(profile.to_json());
    CHECK(j.at("inferences")[0].at("layers")[0].at("page_faults").get<long>() >= static_cast<long>(kPages));
}

TEST_CASE("host profile: made from AI8XSIM_HOST_PROFILE only when it names a file", "[engine][profile]") {
    ::unsetenv("AI8XSIM_HOST_PROFILE");
    CHECK(HostProfile::from_environment() == nullptr);
    ::setenv("AI8XSIM_HOST_PROFILE", "", 1);
    CHECK(HostProfile::from_environment() == nullptr);
    const test::ScratchDir dir("host-profile");
    const std::string path = (dir.path / "profile.json").string();
    ::setenv("AI8XSIM_HOST_PROFILE", path.c_str(), 1);
    {
        std::unique_ptr<HostProfile> profile = HostProfile::from_environment();
        REQUIRE(profile != nullptr);
        profile->start_layer(5, 0);
        profile->finish_layer(0);
    }  // written when destroyed
    ::unsetenv("AI8XSIM_HOST_PROFILE");
    const nlohmann::json j = nlohmann::json::parse(test::slurp(path));
    CHECK(j.at("inferences")[0].at("layers")[0].at("layer") == 5);
}

TEST_CASE("host profile: the engine books every layer it runs, and computes the same", "[engine][profile][vectors]") {
    const DeviceConfig cfg = load_device_config(default_device_config_path());
    WorkerPool pool(2);
    HostProfile profile;
    const test::EngineOutcome plain = test::run_engine(cfg, "demo-kws20_v3", false, nullptr);
    const test::EngineOutcome profiled = test::run_engine(cfg, "demo-kws20_v3", false, &pool, &profile);
    test::require_same(plain, profiled);
    REQUIRE(profile.inferences().size() == 1u);
    const auto& layers = profile.inferences()[0].layers;
    REQUIRE(layers.size() == plain.layers.size());
    for (std::size_t i = 0; i < layers.size(); ++i) {
        INFO("layer " << i);
        CHECK(plain.layers[i].rfind(std::to_string(layers[i].layer) + " ", 0) == 0);
        CHECK(layers[i].total_us > 0.0);
        CHECK(stage_sum(layers[i]) == Approx(layers[i].total_us).epsilon(1e-9));
    }
}
