// `ai8xsim info`, exercised through the built executable: the map lists every
// window the accelerator decodes, at the address the board maps it, and bad
// device files are refused with exit code 2.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "app/platform.h"
#include "app/platform_map.h"
#include "testbench/unit/test_support.h"
#include "tlm/device_config.h"
#include "build_paths.h"

namespace fs = std::filesystem;

namespace {

using ai8x::test::contains;

struct InfoOutcome {
    int exit_code = -1;
    std::string out, err;
};

fs::path scratch_dir() {
    const fs::path d = fs::temp_directory_path() / ("ai8xsim-info-" + std::to_string(getpid()));
    fs::create_directories(d);
    return d;
}

InfoOutcome run_info_cli(const std::string& args) {
    const fs::path d = scratch_dir();
    const std::string cmd = std::string("'") + AI8XSIM_BINARY + "' " + args + " >'" + (d / "out").string() + "' 2>'" +
                            (d / "err").string() + "'";
    const int status = std::system(cmd.c_str());
    InfoOutcome o;
    o.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    o.out = ai8x::test::slurp(d / "out");
    o.err = ai8x::test::slurp(d / "err");
    fs::remove_all(d);
    return o;
}

// Every window of `module` and its descendants, by name.
void collect_windows(const nlohmann::json& module, std::map<std::string, nlohmann::json>& out) {
    for (const auto& w : module.at("windows")) out[w.at("name").get<std::string>()] = w;
    for (const auto& c : module.at("children")) collect_windows(c, out);
}

}  // namespace

TEST_CASE("info: --json places every accelerator window, with the board's base and size", "[cli][info]") {
    const ai8x::DeviceConfig cfg = ai8x::load_device_config(ai8x::default_device_config_path());
    ai8x::Platform platform(cfg);

    const InfoOutcome o = run_info_cli("info --json");
    INFO(o.err);
    REQUIRE(o.exit_code == 0);
    const nlohmann::json map = nlohmann::json::parse(o.out);
    CHECK(map.at("device") == cfg.name);

    // The accelerator's own windows all sit in its subtree.
    const std::string accel_name = platform.accelerator().name();
    const nlohmann::json* accel = nullptr;
    for (const auto& m : map.at("modules"))
        if (m.at("name") == accel_name) accel = &m;
    REQUIRE(accel != nullptr);
    std::map<std::string, nlohmann::json> windows;
    collect_windows(*accel, windows);

    const auto expected = platform.accelerator().windows();
    // Besides them, the register windows of the SoC peripherals the accelerator holds (cnn.fast_fifo).
    size_t peripherals_inside = 0;
    for (ai8x::Peripheral* p : platform.peripherals().peripherals())
        peripherals_inside += std::string(p->name()).rfind(accel_name + ".", 0) == 0;
    CHECK(peripherals_inside == 1);
    CHECK(windows.size() == expected.size() + peripherals_inside);
    for (const ai8x::AddressWindow& w : expected) {
        INFO(w.name);
        REQUIRE(windows.count(w.name) == 1);
        const nlohmann::json& j = windows.at(w.name);
        CHECK(j.at("base").get<uint64_t>() == w.base);
        CHECK(j.at("size").get<uint64_t>() == w.size);
        CHECK(j.at("type") == (w.is_register_block ? "registers" : "memory"));
        if (w.is_register_block)
            CHECK(j.at("registers").get<size_t>() == platform.accelerator().register_bank(w.name)->registers().size());
    }

    // A few instances against the device file's numbers.
    const auto& q0_data = windows.at(accel_name + ".q0.data_sram").at("instances");
    REQUIRE(q0_data.size() == cfg.data_sram.instances_per_quadrant);
    CHECK(q0_data[0].at("base").get<uint64_t>() == 0x50400000);
    // Each instance names the processor that owns its storage.
    CHECK(q0_data[1].at("owner") == accel_name + ".q0.p4.sram");
    CHECK(q0_data[0].at("words") == 8192);
    CHECK(q0_data[0].at("word_bits") == 32);
    CHECK(q0_data[1].at("base").get<uint64_t>() == 0x50400000 + cfg.data_sram.instance_stride);
    const auto& q3_kernel = windows.at(accel_name + ".q3.kernel").at("instances");
    REQUIRE(q3_kernel.size() == cfg.kernel_mem.instances_per_quadrant);
    CHECK(q3_kernel[0].at("base").get<uint64_t>() == 0x50d80000);
    CHECK(q3_kernel[0].at("words") == cfg.kernel_mem.words);
    CHECK(q3_kernel[0].at("word_bits") == 72);
    CHECK(windows.at(accel_name + ".q2.bias").at("instances").size() == 1);
    CHECK(windows.at(accel_name + ".q1.tram").at("instances").size() == 16);
}

TEST_CASE("info: the text map shows ranges, word geometry and the CPU side", "[cli][info]") {
    const InfoOutcome o = run_info_cli("info");
    INFO(o.err);
    REQUIRE(o.exit_code == 0);
    CHECK(contains(o.out, "MAX78000"));
    for (const char* text : {"q0.data_sram", "0x50400000-0x50407fff", "8192 x 32 bit = 32 KiB", "0x50d80000",
                             "768 x 72 bit = 6912 B", "registers", "flash", "0x10000000-0x1007ffff", "peripherals"}) {
        INFO(text);
        CHECK(contains(o.out, text));
    }
}

TEST_CASE("info: missing and malformed device files exit 2 naming the file", "[cli][info]") {
    const fs::path d = fs::temp_directory_path() / ("ai8xsim-info-cfg-" + std::to_string(getpid()));
    fs::create_directories(d);
    const std::string bad = (d / "broken.yaml").string();
    std::ofstream(bad) << "device: [unclosed\n";
    const InfoOutcome malformed = run_info_cli("info --config " + bad);
    CHECK(malformed.exit_code == 2);
    CHECK(contains(malformed.err, bad));
    CHECK(malformed.out.empty());
    const InfoOutcome missing = run_info_cli("info --json --config /nonexistent-device.yaml");
    CHECK(missing.exit_code == 2);
    CHECK(contains(missing.err, "/nonexistent-device.yaml"));
    fs::remove_all(d);
}

TEST_CASE("info: a window goes to the module its name ends in, else to the fallback", "[info]") {
    // The accelerator as a module tree (cnn -> quadrants -> processors), with a
    // foreign module of the same short name outside it.
    using ai8x::MapModule;
    std::vector<MapModule> top = {
        {"board.cnn",
         "sc_module",
         {},
         {},
         {{"board.cnn.q2", "sc_module", {}, {}, {{"board.cnn.q2.p37", "sc_module", {}, {}, {}}}}}},
        {"board.q2", "sc_module", {}, {}, {}},
    };
    const auto window = [](const std::string& name) {
        return ai8x::MapWindow{name, ai8x::MapWindow::Kind::AcceleratorMemory, 0, 4, -1, {}};
    };
    for (const char* name : {"q2.p37.tram", "q2.regs", "fifo", "cnn.q2.p37"})
        ai8x::place_window(top, window(name), "board.cnn", "board.cnn");

    const MapModule& cnn = top[0];
    const MapModule& q2 = cnn.children[0];
    const MapModule& p37 = q2.children[0];
    REQUIRE(p37.windows.size() == 2);
    CHECK(p37.windows[0].name == "q2.p37.tram");
    CHECK(p37.windows[1].name == "cnn.q2.p37");
    REQUIRE(q2.windows.size() == 1);
    CHECK(q2.windows[0].name == "q2.regs");
    REQUIRE(cnn.windows.size() == 1);
    CHECK(cnn.windows[0].name == "fifo");
    CHECK(top[1].windows.empty());  // outside the scope

    // Unscoped, the first module in tree order (parents first) that fits wins.
    ai8x::place_window(top, window("q2.cpu_side"), "", "board.cnn");
    REQUIRE(q2.windows.size() == 2);
    CHECK(q2.windows[1].name == "q2.cpu_side");
    CHECK(top[1].windows.empty());
    // Nothing fits and no fallback module: the window is dropped, not misplaced.
    ai8x::place_window(top, window("nowhere"), "board.cnn", "no.such.module");
    CHECK(cnn.windows.size() == 1);
}

TEST_CASE("info: the wiring list names each wire's writer and readers, and SoC peripherals show their registers",
          "[cli][info]") {
    const InfoOutcome o = run_info_cli("info --json");
    INFO(o.err);
    REQUIRE(o.exit_code == 0);
    const nlohmann::json map = nlohmann::json::parse(o.out);
    std::map<std::string, nlohmann::json> wires;
    for (const auto& w : map.at("wires")) wires[w.at("name").get<std::string>()] = w;
    // The CNN clock from GCR, the power masks from GCFR, an interrupt to the NVIC.
    REQUIRE(wires.count("cnn_clock_hz") == 1);
    CHECK(wires["cnn_clock_hz"].at("writer") == "soc.gcr.cnn_clock_hz");
    CHECK(wires["cnn_clock_hz"].at("readers") == nlohmann::json::array({"cnn.cnn_clock"}));
    REQUIRE(wires.count("cnn_isolation") == 1);
    CHECK(wires["cnn_isolation"].at("readers") == nlohmann::json::array({"cnn.power.isolation"}));
    REQUIRE(wires.count("irq_sema") == 1);
    const std::string nvic_input = wires["irq_sema"].at("readers").at(0).get<std::string>();
    CHECK(nvic_input.rfind("nvic.irq", 0) == 0);
    // The CNN interrupt from the accelerator to its NVIC input (configs: cpu.interrupts.cnn).
    REQUIRE(wires.count("cnn_irq") == 1);
    CHECK(wires["cnn_irq"].at("writer") == "cnn.irq");
    const std::string cnn_line =
        "nvic.irq" + std::to_string(ai8x::load_device_config(ai8x::default_device_config_path()).cnn_irq);
    CHECK(wires["cnn_irq"].at("readers") == nlohmann::json::array({cnn_line}));

    std::map<std::string, nlohmann::json> windows;
    for (const auto& m : map.at("modules")) collect_windows(m, windows);
    REQUIRE(windows.count("soc.gcr") == 1);
    CHECK(windows["soc.gcr"].at("type") == "registers");
    CHECK(windows["soc.gcr"].at("registers").get<int>() > 0);

    const InfoOutcome text = run_info_cli("info");
    CHECK(contains(text.out, "wiring"));
    CHECK(contains(text.out, "soc.gcfr.isolation"));
}

TEST_CASE("The RTL testbench's trigger to the camera interface is on the board's wiring list", "[cli][info][camera]") {
    const ai8x::DeviceConfig cfg = ai8x::load_device_config(ai8x::default_device_config_path());
    ai8x::Platform platform(cfg);
    const auto find = [&platform](const std::string& wire) -> const ai8x::Platform::WireLink* {
        for (const auto& w : platform.wiring())
            if (w.wire == wire) return &w;
        return nullptr;
    };
    CHECK(find("camera_trigger") == nullptr);  // no testbench, no trigger
    const ai8x::RtlTestbenchControl& tb = platform.add_rtl_testbench();
    const ai8x::Platform::WireLink* trig = find("camera_trigger");
    REQUIRE(trig != nullptr);
    CHECK(trig->writer == tb.trig.name());
    REQUIRE(trig->readers.size() == 1);
    CHECK(trig->readers[0].find("pcif.trigger") != std::string::npos);
    CHECK(trig->channel == &tb.trig);
}
