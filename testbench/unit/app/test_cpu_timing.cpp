// CPU side of the timing model: the firmware's own stopwatch against the
// accelerator's cycles, the per-phase times of `run --json`, and the
// flash wait states of the device file reaching the CPU.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <sys/wait.h>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "firmware/host/elf_image.h"
#include "firmware/host/firmware_builder.h"
#include "firmware/host/thumb_timing.h"
#include "app/report_html.h"
#include "app/run_options.h"
#include "testbench/unit/app/app_test_support.h"
#include "testbench/unit/test_support.h"
#include "tlm/device_config.h"
#include "build_paths.h"

using namespace ai8x;
using namespace ai8x::test;
namespace fs = std::filesystem;

namespace {

std::string vector_path(const std::string& name) { return std::string(AI8XSIM_SHARED_DIR) + "/vectors/" + name; }

// Runs `ai8xsim run` as a child process (SystemC elaborates one design per
// process, and several tests here compare two runs) and returns its JSON.
nlohmann::json run_timed(const std::string& dir, const fs::path& work, const std::string& config = {}) {
    static int serial = 0;
    const fs::path out = work / ("run" + std::to_string(serial++) + ".json");
    std::string cmd = std::string("'") + AI8XSIM_BINARY + "' run '" + dir + "' --quiet --build-dir '" +
                      ai8x::test::firmware_cache() + "\' --json '" + out.string() + "'";
    if (!config.empty()) cmd += " --config '" + config + "'";
    const int status = std::system(cmd.c_str());
    const int rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    INFO(cmd << " -> exit " << rc);
    REQUIRE((rc == 0 || rc == 1));
    return read_json(out.string());
}

// Upper bound of the cycles the named functions (those the image has: static
// helpers may be inlined away) take when each instruction runs once: every
// instruction at its Cortex-M4 price (thumb_timing), as if every branch were
// taken and every instruction waited the largest wait state of one access.
double code_cycles_bound(const ElfImage& image, std::initializer_list<const char*> functions, const DeviceConfig& cfg,
                         uint32_t worst_wait) {
    auto halfword_at = [&](uint32_t address) -> uint16_t {
        for (const auto& seg : image.segments())
            if (address >= seg.address && address + 2 <= seg.address + seg.bytes.size())
                return uint16_t(seg.bytes[address - seg.address] | (seg.bytes[address - seg.address + 1] << 8));
        return 0;
    };
    double cycles = 0;
    for (const char* f : functions) {
        const auto s = image.symbol(f);
        if (!s) continue;
        const uint32_t begin = s->address & ~1u;
        for (uint32_t at = begin; at < begin + s->size;) {
            const uint16_t hw1 = halfword_at(at);
            const bool wide = (hw1 >> 11) >= 0x1D;
            const ThumbCost c = thumb_instruction_cost(hw1, wide ? halfword_at(at + 2) : 0, false, cfg.cpu_timing);
            cycles += c.cycles + (c.branch ? cfg.cpu_timing.branch_refill_cycles : 0) + worst_wait;
            at += wide ? 4 : 2;
        }
    }
    return cycles;
}

// Sum of the words in use of one kind of accelerator memory after the run.
uint64_t used_words(const nlohmann::json& run, const std::string& memory) {
    uint64_t words = 0;
    for (const auto& m : run.at("memory"))
        if (m.at("memory") == memory) words += m.at("used").get<uint64_t>();
    return words;
}

// What generated firmware prints after the run: "Approximate inference time: N us",
// or for FIFO firmware "Approximate data loading and inference time: N us".
const std::regex kStopwatchLine(R"(Approximate (?:data loading and )?inference time: (\d+) us)");

// Runs the firmware in `dir` and checks its stopwatch against cnn_cycles / cnn_clock_hz.
// Returns the run's JSON for further checks.
nlohmann::json check_stopwatch(const std::string& dir, const fs::path& work) {
    const DeviceConfig cfg = load_device_config(default_device_config_path());
    const std::string cache = ai8x::test::firmware_cache();
    const nlohmann::json run = run_timed(dir, work);
    REQUIRE(run.at("result") == "pass");

    std::smatch m;
    const std::string console = run.at("console").get<std::string>();
    REQUIRE(std::regex_search(console, m, kStopwatchLine));
    const double firmware_us = std::stod(m[1]);
    const double silicon_us = run.at("cnn_cycles").get<double>() / run.at("cnn_clock_hz").get<double>() * 1e6;

    // The stopwatch starts a few instructions before the CNN starts (rest of
    // MXC_TMR_SW_Start, CNN_START's LED write, the enable store in cnn_start) and
    // stops in the completion interrupt after the exception entry, CNN_ISR's
    // acknowledge writes and MXC_TMR_SW_Stop. Bound both stretches by the code
    // involved, each instruction run once at its price (these functions have no
    // loops) plus the largest wait state of one memory access.
    const ElfImage image = ElfImage::load(FirmwareBuilder(cfg, cache).build(dir).elf_path);
    const uint32_t worst_wait = std::max({cfg.bus.flash_wait_states, cfg.bus.sram_wait_states,
                                          cfg.bus.accel_reg_wait_states, cfg.bus.accel_mem_wait_states});
    const double latency_cycles =
        double(cfg.cpu_timing.exception_entry_cycles) +
        code_cycles_bound(image, {"CNN_ISR", "MXC_TMR_SW_Stop", "timer_index", "simctl_time_us"}, cfg, worst_wait) +
        code_cycles_bound(image, {"MXC_TMR_SW_Start", "LED_On", "cnn_start"}, cfg, worst_wait);
    // The stopwatch reads whole microseconds at both ends: up to 1 us either way.
    const double tolerance_us = latency_cycles / cfg.clocks.cpu_hz * 1e6 + 1.0;
    INFO(dir << ": firmware " << firmware_us << " us, cycles/clock " << silicon_us << " us (" << run.at("cnn_cycles")
             << " cycles, " << run.value("stall_cycles", nlohmann::json(0)) << " of them FIFO stalls), tolerance "
             << tolerance_us << " us");
    CHECK(firmware_us >= silicon_us - 1.0);  // the stopwatch cannot stop before the CNN is done
    CHECK(firmware_us <= silicon_us + tolerance_us);
    return run;
}

// Every golden vector whose firmware feeds the input through the FIFOs (its
// main.c prints the "data loading and inference" stopwatch line).
std::vector<std::string> fifo_vector_names() {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(std::string(AI8XSIM_SHARED_DIR) + "/vectors"))
        if (slurp(e.path() / "main.c").find("Approximate data loading and inference time") != std::string::npos)
            names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

}  // namespace

TEST_CASE("inference timer: firmware stopwatch agrees with CNN cycles / CNN clock within the interrupt latency",
          "[cpu][vectors]") {
    // The golden t-test vectors are generated without CNN_INFERENCE_TIMER (no
    // stopwatch); the FIFO vectors have their own test below.
    const auto name =
        GENERATE(as<std::string>{}, "demo-kws20_v3", "demo-mnist", "demo-mnist-extrasmall", "demo-cifar-10");
    const fs::path work = scratch("stopwatch");
    check_stopwatch(vector_path(name), work);
    fs::remove_all(work);
}

TEST_CASE("inference timer: FIFO firmware's stopwatch agrees with CNN cycles, FIFO stalls included",
          "[cpu][vectors][fifo]") {
    // FIFO firmware starts the CNN, then loads the input ("data loading and
    // inference time"): loading happens inside the CNN's busy interval, and the
    // cycles the CNN waits for FIFO words are part of cnn_cycles, so the same
    // agreement must hold. The golden t-test vectors are generated without
    // CNN_INFERENCE_TIMER; a copy with the define in cnn.h compiles the
    // generator's own stopwatch code that is there behind #ifdef.
    const std::vector<std::string> names = fifo_vector_names();
    REQUIRE(std::find(names.begin(), names.end(), "demo-cats-dogs") != names.end());
    REQUIRE(names.size() > 1);
    const fs::path work = scratch("stopwatch-fifo");
    uint64_t vectors_with_stalls = 0;
    for (const std::string& name : names) {
        INFO(name);
        const fs::path dir = work / name;
        fs::copy(vector_path(name), dir, fs::copy_options::recursive);
        std::string header = slurp(dir / "cnn.h");
        if (header.find("#define CNN_INFERENCE_TIMER") == std::string::npos) {
            const std::string anchor = "#include <stdint.h>\n";
            const auto at = header.find(anchor);
            REQUIRE(at != std::string::npos);
            header.insert(at + anchor.size(), "#define CNN_INFERENCE_TIMER MXC_TMR0\n");
            std::ofstream(dir / "cnn.h") << header;
        }
        const nlohmann::json run = check_stopwatch(dir.string(), work);
        if (run.value("stall_cycles", uint64_t{0}) > 0) ++vectors_with_stalls;
    }
    // The stalls must actually be exercised, or this would only repeat the test above.
    CHECK(vectors_with_stalls > 0);
    fs::remove_all(work);
}

TEST_CASE("phases: kws20 has every phase, weights grow with the kernel words loaded", "[cpu][phases][vectors]") {
    const fs::path work = scratch("phases");
    const nlohmann::json kws = run_timed(vector_path("demo-kws20_v3"), work);
    const nlohmann::json small = run_timed(vector_path("demo-mnist-extrasmall"), work);
    for (const char* phase : {"weights", "bias", "configure", "input", "inference", "unload_check"}) {
        INFO(phase);
        REQUIRE(kws.at("phases").at(phase).is_number());
        CHECK(kws.at("phases").at(phase).get<double>() > 0);
    }
    // The inference phase is the accelerator's time.
    CHECK(kws["phases"]["inference"].get<double>() ==
          Approx(kws["cnn_cycles"].get<double>() / kws["cnn_clock_hz"].get<double>() * 1e6));

    const uint64_t kws_words = used_words(kws, "kernel"), small_words = used_words(small, "kernel");
    INFO("kernel words: kws20 " << kws_words << ", mnist-extrasmall " << small_words);
    REQUIRE(kws_words > small_words);
    CHECK(kws["phases"]["weights"].get<double>() > small["phases"]["weights"].get<double>());
    fs::remove_all(work);
}

TEST_CASE("phases: a firmware that does not load biases reports no bias phase", "[cpu][phases][vectors]") {
    const fs::path work = scratch("nobias");
    const fs::path dir = work / "mnist-nobias";
    fs::copy(vector_path("demo-mnist-extrasmall"), dir, fs::copy_options::recursive);
    // Drop the call from main(): the function is then never run (or dropped by the linker).
    std::string main_c = slurp(dir / "main.c");
    const std::regex call(R"(\n\s*cnn_load_bias\(\);[^\n]*)");
    REQUIRE(std::regex_search(main_c, call));
    std::ofstream(dir / "main.c") << std::regex_replace(main_c, call, "");

    const nlohmann::json run = run_timed(dir.string(), work);
    CHECK(run.at("phases").at("bias").is_null());
    CHECK(run.at("phases").at("weights").is_number());
    CHECK(run.at("phases").at("configure").is_number());
    fs::remove_all(work);
}

TEST_CASE("cost model: more flash wait states lengthen the weight load, not the inference", "[cpu][config][vectors]") {
    const fs::path work = scratch("flashws");
    const std::string base_config = default_device_config_path();
    const DeviceConfig cfg = load_device_config(base_config);
    const std::string text = slurp(base_config);
    const std::regex ws(R"(flash_wait_states:\s*\d+)");
    REQUIRE(std::regex_search(text, ws));
    const fs::path slow = work / "slow-flash.yaml";
    std::ofstream(slow) << std::regex_replace(text, ws,
                                              "flash_wait_states: " + std::to_string(cfg.bus.flash_wait_states + 4));
    REQUIRE(load_device_config(slow.string()).bus.flash_wait_states == cfg.bus.flash_wait_states + 4);

    const nlohmann::json fast_run = run_timed(vector_path("demo-mnist-extrasmall"), work);
    const nlohmann::json slow_run = run_timed(vector_path("demo-mnist-extrasmall"), work, slow.string());
    CHECK(slow_run["phases"]["weights"].get<double>() > fast_run["phases"]["weights"].get<double>());
    CHECK(slow_run["cnn_cycles"] == fast_run["cnn_cycles"]);
    CHECK(slow_run["result"] == "pass");
    fs::remove_all(work);
}

TEST_CASE("cost model: the device file must give the CPU timing", "[cpu][config]") {
    const fs::path work = scratch("cputiming");
    const std::string text = slurp(default_device_config_path());
    const std::regex key(R"(\n\s*cycles_per_instruction:[^\n]*)");
    REQUIRE(std::regex_search(text, key));
    const fs::path broken = work / "no-cpi.yaml";
    std::ofstream(broken) << std::regex_replace(text, key, "");
    CHECK_THROWS_WITH(load_device_config(broken.string()),
                      Catch::Contains("cpu.timing.cycles_per_instruction") && Catch::Contains("missing"));
    fs::remove_all(work);
}

TEST_CASE("report page: phases table in main()'s order, absent phases as a dash", "[cpu][phases][report]") {
    const nlohmann::json run = {{"result", "pass"},
                                {"cnn_cycles", 100},
                                {"layers", nlohmann::json::array()},
                                {"phases",
                                 {{"weights", 12.5},
                                  {"bias", nullptr},
                                  {"configure", 1.0},
                                  {"input", 3.0},
                                  {"inference", 2.0},
                                  {"unload_check", 0.5}}}};
    const std::string page = render_report_html(run, "phases");
    const auto at = [&](const std::string& s) { return page.find(s); };
    REQUIRE(at("id=\"phases\"") != std::string::npos);
    CHECK(at(">weights<") < at(">bias<"));
    CHECK(at(">bias<") < at(">configure<"));
    CHECK(at(">inference<") < at(">unload_check<"));
    CHECK(page.find("12.5") != std::string::npos);
    CHECK(page.find(">bias</td><td>&ndash;") != std::string::npos);
}
