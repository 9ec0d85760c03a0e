// PLACEHOLDER until the firmware runner lands (owned by the CPU/firmware work).
#include <cstdio>
#include "testbench/app/run_options.h"
namespace ai8x {
int run_command(const RunOptions&) {
    std::fprintf(stderr, "ai8xsim run: the firmware runner is not built into this version yet\n");
    return kRunUsageError;
}
}  // namespace ai8x
