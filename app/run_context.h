// Everything one `ai8xsim run` builds up, stage by stage (app/run_stages.h):
// the options, the folder's kind, the device, the firmware, the board, the
// instruments watching it, and the result. Members come to life in the order
// declared and die in reverse: the instruments before the board they watch.
#pragma once

#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/firmware_phases.h"
#include "app/folder_kind.h"
#include "app/inference_timer.h"
#include "app/platform.h"
#include "app/run_console.h"
#include "app/run_options.h"
#include "app/run_result.h"
#include "app/waveform_recorder.h"
#include "firmware/host/firmware_builder.h"
#include "firmware/host/gdb_server.h"
#include "firmware/host/gdb_stub.h"
#include "firmware/host/memory_checker.h"
#include "tlm/trace_recorder.h"

namespace ai8x {

// Where a run's text goes while it runs. The command line: stdout and
// stderr; the in-process API: nowhere by default (the result keeps it all).
struct RunSinks {
    std::FILE* out = nullptr;  // the firmware's console and the summary lines (unless RunOptions::quiet_console)
    std::FILE* err = nullptr;  // "ai8xsim run: ..." messages as they happen
};

// A stage that finds the run cannot go on: the exit code and the message
// (already said through RunContext::say).
struct RunStopped : std::runtime_error {
    RunStopped(int code, const std::string& message) : std::runtime_error(message), exit_code(code) {}
    int exit_code;
};

// The observers attach_instruments puts on the board (each only when asked for).
struct RunInstruments {
    std::unique_ptr<gdb::Server> gdb_server;  // --gdb
    std::unique_ptr<GdbStub> gdb_stub;
    std::ofstream trace_file;  // --trace-out
    std::unique_ptr<TraceRecorder> recorder;
    std::unique_ptr<InferenceTimer> inference_timer;
    FirmwarePhases phases;
    MemoryChecker memory_checker;
    bool checking_memory = false;
    std::unique_ptr<WaveformRecorder> waves;  // --vcd, --timeline
    std::unique_ptr<RunConsole> console;
    // The firmware's cnn_disable() discards the data and bias memories; the
    // report's occupancy keeps what the network used before that.
    std::vector<RunReport::MemoryUse> memory_before_power_off;
    std::optional<int> firmware_exit;  // the code the firmware passed to exit()
};

struct RunContext {
    RunContext(const RunOptions& options, const RunSinks& sinks);
    RunContext(const RunContext&) = delete;
    RunContext& operator=(const RunContext&) = delete;

    // Says `message` as the command line does ("ai8xsim run: MESSAGE" on the
    // error sink), followed by `detail` as it is (a compiler's output), and
    // keeps both in result.messages.
    void say(const std::string& message, const std::string& detail = {});
    // say(), then stop the run with `exit_code` (throws RunStopped).
    [[noreturn]] void stop(int exit_code, const std::string& message, const std::string& detail = {});

    RunOptions opts;  // a copy: the folder's kind may adjust it (FolderKind::configure)
    RunSinks sinks;
    std::chrono::steady_clock::time_point wall_start;
    std::string vector_dir;
    std::unique_ptr<FolderKind> kind;
    DeviceConfig cfg;     // choose_device
    FirmwareBuild build;  // build_firmware
    // assemble_board
    std::unique_ptr<Platform> platform;
    CortexM4* cpu = nullptr;
    RiscvCore* riscv = nullptr;  // dual-core folders only
    Accelerator* accel = nullptr;
    std::unique_ptr<RunInstruments> instruments;  // attach_instruments (made with the context)
    RunResult result;                             // verdict, collect_results, write_outputs

    // The firmware console and summary lines' sink (null: quiet).
    std::FILE* out() const { return opts.quiet_console ? nullptr : sinks.out; }
    // Destroys the instruments, then the board (its SystemC modules): what
    // must go before the simulation context that holds them.
    void dismantle_board();
};

}  // namespace ai8x
