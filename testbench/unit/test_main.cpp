// Catch2 entry point shared by every unit-test binary.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <systemc>

#include "testbench/unit/sim_kernel.h"

// libsystemc references sc_main; tests drive sc_start() themselves instead.
int sc_main(int, char**) { return 0; }

namespace {

// The kernel the listener made last (a global: reachable to the leak checker
// when a SimulationTurn has put another in its place).
sc_core::sc_simcontext* g_kernel_made = nullptr;

// Every run of a test case's body (each SECTION path is one) after the first
// in a process starts on a fresh SystemC kernel, so test cases run together
// (`unit_tests_model "[power]"`) as they run under ctest, one per process:
// nothing an earlier one elaborated is left in the kernel to run
// (testbench/unit/sim_kernel.h). The kernel of the run before is deleted
// when this listener made it; its objects died with that run.
class KernelPerTestRun : public Catch::TestEventListenerBase {
public:
    using TestEventListenerBase::TestEventListenerBase;
    void sectionStarting(const Catch::SectionInfo& info) override {
        if (depth_++ == 0 && runs_++ > 0) start_on_fresh_kernel();
        TestEventListenerBase::sectionStarting(info);
    }
    void sectionEnded(const Catch::SectionStats& stats) override {
        --depth_;
        TestEventListenerBase::sectionEnded(stats);
    }

private:
    void start_on_fresh_kernel() {
        sc_core::sc_simcontext* const previous = g_kernel_made;
        g_kernel_made = new sc_core::sc_simcontext;
        ai8x::test::make_kernel_current(g_kernel_made);
        delete previous;
    }
    int depth_ = 0;
    int runs_ = 0;
};

}  // namespace

CATCH_REGISTER_LISTENER(KernelPerTestRun)

int main(int argc, char* argv[]) {
    // SystemC prints a banner on first use; keep test output readable.
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
    return Catch::Session().run(argc, argv);
}
