// The RTL testbench's run folder (`ai8xsim run RTLDIR --out DIR`): what the
// vendor's testbench leaves in its target folder, in the same names and
// formats, so that the folder's own verify-output.py runs on it unchanged:
//   DIR/data-output/DRAM_out_...dat   the dumps taken at the fall of the CNN enable
//   DIR/data-expected/, DIR/latency.txt   copied from the folder (verify-output.py
//                                      reads them beside the dumps)
//   DIR/run_test.log.fail              the testbench's log ("CNN Cycles = N", the
//                                      console), under the name verify-output.py reads
// The folder itself (../shared is read-only) is never written.
#pragma once

#include <optional>
#include <string>

#include "app/rtl_folder.h"
#include "app/rtl_testbench.h"

namespace ai8x {

// Writes DIR's dumps, copies and log (run_test.log.fail). Throws
// std::runtime_error naming the path that cannot be written.
void write_rtl_run_folder(const std::string& out_dir, const RtlFolder& folder, const RtlTestbench& testbench,
                          const std::string& log);

// What the folder's verify-output.py said about DIR.
struct RtlVerifyOutcome {
    int exit_code = 0;  // the script's exit status (-1: it could not run)
    std::string output;
};

// Runs FOLDER/verify-output.py DIR with python3 ($AI8XSIM_PYTHON, else
// /usr/bin/python3, else python3 on PATH), as run_test.sv's $system does.
RtlVerifyOutcome run_verify_output(const RtlFolder& folder, const std::string& out_dir);

}  // namespace ai8x
