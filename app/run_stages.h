// The stages of `ai8xsim run`, in the order run_in_process (run_session.h)
// calls them on one RunContext. A stage that finds the run cannot go on says
// why and throws RunStopped (RunContext::stop); the folder's kind
// (folder_kind.h) adds its own steps where each stage says.
#pragma once

#include "app/run_context.h"

namespace ai8x {

// The folder and its kind, the outputs' writability, and the device
// description: the one the firmware names, or --config (they must agree).
void choose_device(RunContext& ctx);
// The firmware image(s), from the cache when built before; a board with
// larger memories when the image does not fit the silicon's.
void build_firmware(RunContext& ctx);
// The board: bus, memories, peripherals, accelerator, the cores with their
// images, the options that shape the run (threads, fast-forwards, --set),
// then the kind's preloads.
void assemble_board(RunContext& ctx);
// Part of assemble_board (app/run_camera.cpp): the camera interface's feed,
// when the firmware reads the camera or --camera names one.
void connect_camera(RunContext& ctx);
// Why the firmware may be waiting for camera data that never comes, or empty.
std::string camera_stall(const RunContext& ctx);
// Part of collect_results: the camera's summary (the run JSON's "camera":
// source, pace, rows played, words captured, read and lost), when it was fed.
void collect_camera(RunContext& ctx);
// What watches the run: GDB, the bus trace, the inference timer, the firmware
// phases, the memory checker, the waveform recorder, the console, then the
// kind's own.
void attach_instruments(RunContext& ctx);
// Runs SystemC until the firmware's verdict, an error or the time-out.
void simulate(RunContext& ctx);
// The run's exit code, known-answer test and error message; tells GDB.
void decide_verdict(RunContext& ctx);
// The report's figures from the board: phases, activity, energy, layers,
// warnings, memory, instruction counts; the layer outputs when asked for.
void collect_results(RunContext& ctx);
// The summary lines, then the files asked for (layer dumps, VCD, timeline,
// the kind's own, the run JSON); a file that cannot be written turns a pass
// into an error.
void write_outputs(RunContext& ctx);

}  // namespace ai8x
