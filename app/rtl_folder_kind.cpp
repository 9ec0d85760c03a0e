#include "app/rtl_folder_kind.h"

#include <filesystem>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>
#include <systemc>

#include "app/rtl_run_folder.h"
#include "app/run_context.h"
#include "build_paths.h"

namespace fs = std::filesystem;

namespace ai8x {

namespace {

// The testbench environment the programs include (firmware/rtl).
const char* const kEnvironment = AI8XSIM_SOURCE_DIR "/firmware/rtl";

std::string in_folder(const std::string& dir, const std::string& file) { return (fs::path(dir) / file).string(); }

}  // namespace

std::string rtl_environment_include_dir() { return std::string(kEnvironment) + "/include"; }

std::string RtlFolderKind::check_folder(const std::string& dir) const {
    try {
        read_rtl_folder(dir);
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}

void RtlFolderKind::configure(RunContext& ctx) {
    folder_ = read_rtl_folder(ctx.vector_dir);
    // run_test.sv's REPEAT_TIMEOUT, unless the caller chose a time-out.
    if (folder_->timeout_ms && !ctx.opts.timeout_given) ctx.opts.timeout_ms = *folder_->timeout_ms;
}

FirmwareSources RtlFolderKind::firmware_sources(const RunContext& ctx) const {
    const std::string helpers = std::string(kEnvironment) + "/src/global_functions.c";
    FirmwareSources s;
    s.dir = ctx.vector_dir;
    s.arm = {in_folder(s.dir, folder_->arm_source), helpers};
    if (!folder_->riscv_source.empty()) s.riscv = {in_folder(s.dir, folder_->riscv_source), helpers};
    s.include_dirs = {rtl_environment_include_dir()};
    s.arm_flags = folder_->arm_cflags;
    s.riscv_flags = folder_->riscv_cflags;
    if (folder_->riscv_layout) {
        s.riscv_flash =
            FirmwareSources::Region{folder_->riscv_layout->flash.origin, folder_->riscv_layout->flash.length};
        s.riscv_sram = FirmwareSources::Region{folder_->riscv_layout->sram.origin, folder_->riscv_layout->sram.length};
    }
    return s;
}

void RtlFolderKind::before_start(RunContext& ctx) {
    if (!ctx.cfg.rtl_testbench.present)
        ctx.stop(kRunUsageError, ctx.cfg.source_path + ": the " + ctx.cfg.name +
                                     " description has no rtl_testbench: section, so the memory files of " +
                                     ctx.vector_dir + " name no memory");
    try {
        testbench_ = std::make_unique<RtlTestbench>(ctx.cfg, *folder_, *ctx.accel);
    } catch (const std::exception& e) {
        ctx.stop(kRunUsageError, e.what());
    }
    ctx.platform->add_rtl_testbench();
}

void RtlFolderKind::attach(RunContext& ctx) {
    attach_control(ctx);
    attach_testbench(ctx);
    // The log keeps the firmware's console too, in order with the testbench's lines.
    SimControl& sim = ctx.platform->peripherals().sim_control();
    auto console = sim.on_console;
    sim.on_console = [this, console](char c) {
        log_ += c;
        if (console) console(c);
    };
}

// pass() and fail() from either core, named by where they were called.
void RtlFolderKind::attach_control(RunContext& ctx) {
    RtlTestbenchControl& control = *ctx.platform->rtl_testbench();
    auto call = [&ctx](RtlTestbenchControl::Core core, uint32_t caller) {
        const bool arm = core == RtlTestbenchControl::Core::arm;
        const UnicornCpu& cpu = arm ? static_cast<const UnicornCpu&>(*ctx.cpu) : *ctx.riscv;
        return Call{arm ? "arm" : "riscv", cpu.describe(caller)};
    };
    auto say = [this, &ctx](const std::string& line) {
        log_ += line + "\n";
        if (std::FILE* out = ctx.out()) std::fprintf(out, "%s\n", line.c_str());
    };
    control.on_pass = [this, call, say](RtlTestbenchControl::Core core, uint32_t caller) {
        const Call c = call(core, caller);
        say("pass() reached on the " + c.core + " core, called from " + c.caller);
        if (core == RtlTestbenchControl::Core::arm && !passed_) passed_ = c;
    };
    control.on_fail = [this, call, say](RtlTestbenchControl::Core core, uint32_t caller) {
        const Call c = call(core, caller);
        say("fail() reached on the " + c.core + " core, called from " + c.caller);
        fails_.push_back(c);
    };
}

// The testbench around the CNN: its enable, its interrupt, the lines it prints.
void RtlFolderKind::attach_testbench(RunContext& ctx) {
    RtlTestbench* tb = testbench_.get();
    ctx.platform->bus().add_observer(tb);
    ctx.platform->listen_cnn_irq("rtl_testbench_monitor", [tb](bool level) { tb->on_irq(level); });
    tb->on_display = [this, &ctx](const std::string& line) {
        log_ += line + "\n";
        if (std::FILE* out = ctx.out()) std::fprintf(out, "%s\n", line.c_str());
    };
    CortexM4* cpu = ctx.cpu;
    RiscvCore* riscv = ctx.riscv;
    tb->on_bad_input = [this, &ctx, cpu, riscv](const std::string& problem) {
        bad_input_ = problem;
        ctx.say(problem);
        cpu->halt();
        if (riscv) riscv->halt();
        sc_core::sc_stop();
    };
}

std::optional<std::string> RtlFolderKind::failure() const {
    if (bad_input_) return *bad_input_;
    if (!fails_.empty())
        return "fail() was called on the " + fails_.front().core + " core from " + fails_.front().caller;
    if (!testbench_) return std::nullopt;
    if (const auto& m = testbench_->mismatch()) return "dump differs from " + m->summary();
    if (testbench_->expected_files() && !testbench_->completed())
        return "the CNN never finished, so nothing was dumped for data-expected/";
    const auto& latency = folder_->latency;
    if (folder_->runs_verify_output && latency && testbench_->cnn_cycles() &&
        *testbench_->cnn_cycles() != latency->total)
        return "CNN Cycles = " + std::to_string(*testbench_->cnn_cycles()) + ", but latency.txt says " +
               std::to_string(latency->total) + " (verify-output.py compares them)";
    return std::nullopt;
}

std::string RtlFolderKind::known_answer(const RunContext&) const {
    if (failure()) return "fail";
    return passed_ ? "pass" : "";
}

bool RtlFolderKind::declared_failure(const RunContext& ctx) const {
    // A program that ends without reaching pass() has not passed either.
    return failure().has_value() || (ctx.instruments->firmware_exit && !passed_);
}

void RtlFolderKind::print_summary(RunContext& ctx) {
    std::FILE* out = ctx.out();
    if (!out || !testbench_) return;
    std::string line = "[ai8xsim] RTL testbench: ";
    if (const auto why = failure())
        line += "FAIL: " + *why;
    else if (passed_)
        line += "PASS";
    else
        line += ctx.instruments->firmware_exit ? "FAIL: the program ended without reaching pass()"
                                               : "no verdict (pass() not reached)";
    if (testbench_->cnn_cycles()) line += "; CNN Cycles = " + std::to_string(*testbench_->cnn_cycles());
    if (folder_->latency) line += " (latency.txt " + std::to_string(folder_->latency->total) + ")";
    if (testbench_->preload_files()) line += "; " + std::to_string(testbench_->preload_files()) + " preload file(s)";
    if (testbench_->expected_files() && !testbench_->mismatch())
        line += "; " + std::to_string(testbench_->expected_files()) + " expected dump(s) match (" +
                std::to_string(testbench_->matched_words()) + " words)";
    std::fprintf(out, "%s\n", line.c_str());
}

void RtlFolderKind::write_outputs(RunContext& ctx) {
    // The testbench's verdict on stderr as any other run's error (a missing preload was said when found).
    if (bad_input_) ctx.result.exit_code = kRunUsageError;
    if (const auto why = failure(); why && !bad_input_) ctx.say(*why);
    if (!failure() && ctx.instruments->firmware_exit && !passed_)
        ctx.say("the program ended (exit code " + std::to_string(*ctx.instruments->firmware_exit) +
                ") without reaching pass()");
    if (!ctx.opts.out_dir.empty() && testbench_) write_run_folder(ctx);
    add_json_fields(ctx);
}

// --out: the testbench's run folder, and verify-output.py's verdict on it
// when run_test.sv asks for one (a failing script fails the run).
void RtlFolderKind::write_run_folder(RunContext& ctx) {
    const std::string& out = ctx.opts.out_dir;
    try {
        write_rtl_run_folder(out, *folder_, *testbench_, log_);
        if (folder_->runs_verify_output && testbench_->completed()) {
            const RtlVerifyOutcome v = run_verify_output(*folder_, out);
            verify_exit_ = v.exit_code;
            verify_output_ = v.output;
            if (v.exit_code != 0) {
                ctx.say(folder_->dir + "/verify-output.py " + out + " exited with " + std::to_string(v.exit_code),
                        v.output);
                if (ctx.result.exit_code == kRunPass) ctx.result.exit_code = kRunFail;
            }
        }
    } catch (const std::exception& e) {
        ctx.say(e.what());
        if (ctx.result.exit_code == kRunPass) ctx.result.exit_code = kRunSimError;
    }
}

void RtlFolderKind::add_json_fields(RunContext& ctx) const {
    nlohmann::json j;
    j["category"] = rtl_folder_category(folder_->dir);
    j["pass_reached"] = passed_.has_value();
    j["fail_calls"] = nlohmann::json::array();
    for (const Call& c : fails_) j["fail_calls"].push_back({{"core", c.core}, {"caller", c.caller}});
    const auto why = failure();
    j["failure"] = why ? nlohmann::json(*why) : nlohmann::json(nullptr);
    const auto cycles = testbench_ ? testbench_->cnn_cycles() : std::nullopt;
    j["cnn_cycles"] = cycles ? nlohmann::json(*cycles) : nlohmann::json(nullptr);
    if (folder_->latency)
        j["latency_txt"] = {{"total", folder_->latency->total},
                            {"startup", folder_->latency->startup ? nlohmann::json(*folder_->latency->startup)
                                                                  : nlohmann::json(nullptr)},
                            {"layers", folder_->latency->layers}};
    if (testbench_) {
        j["preload_files"] = testbench_->preload_files();
        j["expected_files"] = testbench_->expected_files();
        j["dumped_parts"] = testbench_->dumps().size();
        j["matched_words"] = testbench_->matched_words();
        j["fifo_frame_wait_cycles"] = testbench_->fifo_frame_wait();
    }
    if (const auto m = testbench_ ? testbench_->mismatch() : std::nullopt)
        j["mismatch"] = {{"file", m->file},         {"instance", m->instance},
                         {"word", m->word},         {"bus_address", m->bus_address},
                         {"expected", m->expected}, {"got", m->got},
                         {"layer", m->layer},       {"mismatching_words", m->mismatches}};
    if (!ctx.opts.out_dir.empty()) j["run_folder"] = ctx.opts.out_dir;
    if (verify_exit_) j["verify_output"] = {{"exit_code", *verify_exit_}, {"output", verify_output_}};
    ctx.result.kind_fields["rtl"] = j;
}

}  // namespace ai8x
