// Catch2 entry point shared by every unit-test binary.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <systemc>

// libsystemc references sc_main; tests drive sc_start() themselves instead.
int sc_main(int, char**) { return 0; }

int main(int argc, char* argv[]) {
    // SystemC prints a banner on first use; keep test output readable.
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
    return Catch::Session().run(argc, argv);
}
