// ai8xsim entry point: the command line lives in testbench/app/cli.cpp.
#include "testbench/app/cli.h"
#include <systemc>

int sc_main(int argc, char* argv[]) { return ai8x::cli_main(argc, argv); }
