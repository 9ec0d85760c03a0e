// Options of `ai8xsim run`, filled by the command line (cli.cpp) or an
// in-process caller, and consumed by the run's stages (run_session.h).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ai8x {

struct RegisterOverride {
    uint64_t address = 0;  // register address the firmware writes
    uint32_t value = 0;    // value stored instead of what the firmware wrote
};

struct RunOptions {
    std::string vector_dir;       // generator output folder; empty = bundled example
    std::string build_dir;        // firmware build cache; empty = default cache
    std::string config_path;      // device description; empty = bundled MAX78000
    std::string json_out;         // --json FILE
    std::string trace_out;        // --trace-out FILE
    std::string dump_layers_dir;  // --dump-layers OUTDIR
    bool capture_layers = false;  // keep every layer's output in the result (in-process runs)
    std::string vcd_out;          // --vcd FILE
    std::string timeline_out;     // --timeline FILE
    double timeout_ms = 10000.0;  // --timeout: simulated milliseconds without a verdict
    bool timeout_given = false;   // timeout_ms set by the caller: a folder's own (run_test.sv) does not replace it
    std::string out_dir;          // --out DIR: an RTL-simulation folder's run folder (dumps, log)
    std::string camera_file;      // --camera FILE: .csv waveform or picture (docs/camera.md)
    double camera_period_ns = 0;  // --camera-period: asynchronous row period; 0: the folder's
    std::vector<RegisterOverride> overrides;  // --set ADDR=VALUE (repeatable)
    bool quiet_console = false;               // do not stream the firmware console to stdout
    bool check_memory = true;                 // --check-memory / --no-check-memory (firmware memory checker)
    bool fast_forward_polls = true;           // --no-poll-fast-forward: execute every pass of FIFO polling loops
    bool fifo_run_ahead = true;               // --no-fifo-run-ahead: every FIFO push and status read synchronises
    unsigned threads = 0;                     // --threads N: layer-engine threads; 0 = WorkerPool::default_threads()
    int gdb_port = -1;                        // --gdb PORT: serve GDB on 127.0.0.1 (0 = any free port); -1 = off
};

// Exit codes of `ai8xsim run` (see README).
enum RunExit : int { kRunPass = 0, kRunFail = 1, kRunUsageError = 2, kRunSimError = 3 };

// `ai8xsim run`: builds (if needed), loads and runs the firmware, streaming
// its console to stdout and messages to stderr, writes the files asked for,
// and returns a RunExit code. The same as run_in_process (run_session.h)
// with the command line's sinks.
int run_command(const RunOptions& opts);

}  // namespace ai8x
