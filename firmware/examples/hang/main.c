/* Never finishes: the simulator's timeout must catch it. */
#include "mxc.h"

volatile int never_set;

int main(void)
{
    while (!never_set) {
    }
    return 0;
}
