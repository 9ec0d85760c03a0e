// `ai8xsim run` on a folder of the vendor's RTL simulation (generator --rtl,
// --rtl-preload; docs/rtl-flow.md): the folder kind (app/folder_kind.h) that
// builds its test.c (and test_riscv.c) against our testbench environment
// (firmware/rtl), takes the time-out from run_test.sv, plays the testbench
// around the run (app/rtl_testbench.h: preloads, dumps, "CNN Cycles = N") and
// decides the verdict as the testbench does: pass() reached with no fail()
// before it, the dumps equal to data-expected/, and, where run_test.sv runs
// verify-output.py, the cycle count equal to latency.txt's (and the script's
// own verdict with --out).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/folder_kind.h"
#include "app/rtl_folder.h"
#include "app/rtl_testbench.h"

namespace ai8x {

// The headers of our testbench environment (firmware/rtl/include); the
// generator's embedded-C camera programs include its pcif_defines_af2.h too.
std::string rtl_environment_include_dir();

class RtlFolderKind : public FolderKind {
public:
    std::string name() const override { return "rtl"; }
    std::string check_folder(const std::string& dir) const override;
    void configure(RunContext& ctx) override;
    FirmwareSources firmware_sources(const RunContext& ctx) const override;
    void before_start(RunContext& ctx) override;
    void attach(RunContext& ctx) override;
    std::string known_answer(const RunContext& ctx) const override;
    std::string known_answer_evidence(const RunContext&) const override { return "pass() was reached"; }
    bool declared_failure(const RunContext& ctx) const override;
    void print_summary(RunContext& ctx) override;
    void write_outputs(RunContext& ctx) override;

private:
    struct Call {
        std::string core;    // "arm" or "riscv"
        std::string caller;  // where pass()/fail() was called from
    };
    // Why the run fails as the testbench judges it, or nothing.
    std::optional<std::string> failure() const;
    void attach_control(RunContext& ctx);
    void attach_testbench(RunContext& ctx);
    void write_run_folder(RunContext& ctx);
    void add_json_fields(RunContext& ctx) const;

    std::optional<RtlFolder> folder_;
    std::unique_ptr<RtlTestbench> testbench_;
    std::optional<Call> passed_;  // the Arm's pass()
    std::vector<Call> fails_;
    std::optional<std::string> bad_input_;  // a preload the run needs is missing
    std::string log_;                       // the testbench's log: console and $display lines in order
    std::optional<int> verify_exit_;        // verify-output.py's exit status (--out)
    std::string verify_output_;
};

}  // namespace ai8x
