/* Waits for the interrupt in sleep mode (generated main()'s way). */
#define WAIT_FOR_IRQ() MXC_LP_EnterSleepMode()
#include "../common/irq_roundtrip.h"
