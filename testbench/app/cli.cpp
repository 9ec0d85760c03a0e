#include "testbench/app/cli.h"
#include <cstdio>
namespace ai8x {
int cli_main(int, char*[]) { std::puts("ai8xsim: under construction"); return 2; }
}
