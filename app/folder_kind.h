// What differs between the kinds of firmware folder `ai8xsim run` accepts:
// which files a folder needs, how its firmware is built, what happens before
// the simulation starts, how the firmware reports its verdict, and what the
// run writes besides the common outputs. Everything else (the device, the
// board, the instruments, the simulation, the common outputs) is the run's
// (app/run_stages.h), whatever the folder.
//
// A kind is an object made for one run, so it may keep what it observes
// (e.g. the value check_output() returned). Each hook is called once, by the
// stage named beside it; the defaults are what a plain firmware folder needs.
// A new kind is one class and one line in folder_kind_for (folder_kind.cpp).
#pragma once

#include <memory>
#include <string>

#include "firmware/host/firmware_builder.h"

namespace ai8x {

struct RunContext;

class FolderKind {
public:
    virtual ~FolderKind() = default;

    // Short name for messages ("generated", "rtl").
    virtual std::string name() const = 0;
    // choose_device, first: empty when `dir` holds what a run of this kind
    // needs, else a message naming the missing or malformed file.
    virtual std::string check_folder(const std::string& dir) const = 0;
    // choose_device, after check_folder: adjust the run's options from the
    // folder (e.g. its own time-out). Default: nothing.
    virtual void configure(RunContext&) {}
    // build_firmware: which sources make the image(s). Default: every C file
    // of the folder (FirmwareSources::of_folder).
    virtual FirmwareSources firmware_sources(const RunContext& ctx) const;
    // assemble_board, after the images are loaded and before anything runs:
    // preloads of memories, registers, peripherals. Default: nothing.
    virtual void before_start(RunContext&) {}
    // attach_instruments, last: observers of the kind's own (call observers,
    // console watchers). Default: nothing.
    virtual void attach(RunContext&) {}
    // verdict: the firmware's known-answer test, whatever happened after it:
    // "pass", "fail" or "" (not reached). Default: "".
    virtual std::string known_answer(const RunContext&) const { return {}; }
    // verdict: how the firmware showed its known-answer pass, for the message
    // of a run that went wrong afterwards ("it printed *** PASS ***").
    virtual std::string known_answer_evidence(const RunContext&) const { return {}; }
    // verdict: the firmware declared its failure (after core faults, before
    // the exit code). Default: no.
    virtual bool declared_failure(const RunContext&) const { return false; }
    // report, after the common summary lines on the console (e.g. the RTL
    // testbench's cycle line). Default: nothing.
    virtual void print_summary(RunContext&) {}
    // report, after the common outputs and before the run JSON is written: the
    // kind's own files, and fields added to the run JSON
    // (ctx.result.kind_fields). Default: nothing.
    virtual void write_outputs(RunContext&) {}
};

// The kind of `dir`: the first kind that recognises the folder, else the
// vendor generator's embedded-C folder (main.c, optionally cnn.c and the rest).
std::unique_ptr<FolderKind> folder_kind_for(const std::string& dir);

}  // namespace ai8x
