/* Waits for the interrupt by spinning on a variable (generator --no-wfi style):
 * the handler must preempt the loop. */
#define WAIT_FOR_IRQ() ((void) 0)
#include "../common/irq_roundtrip.h"
