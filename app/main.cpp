// ai8xsim entry point: the command line lives in app/cli.cpp.
//
// We provide main() ourselves (instead of libsystemc's) so the SystemC banner
// can be switched off before the kernel prints it: `run` streams the
// firmware console on stdout and a banner there would corrupt it.
#include <cstdlib>

#include <systemc>

#include "app/cli.h"

int sc_main(int argc, char* argv[]) { return ai8x::cli_main(argc, argv); }

int main(int argc, char* argv[]) {
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);  // a user's explicit setting wins
    return sc_core::sc_elab_and_sim(argc, argv);
}
