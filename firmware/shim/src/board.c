/* Board LEDs are shown by the simulation-control device (see --verbose logs). */
#include "mxc.h"

void LED_On(unsigned int idx) { if (idx < 32) SIMCTL->leds |= 1UL << idx; }
void LED_Off(unsigned int idx) { if (idx < 32) SIMCTL->leds &= ~(1UL << idx); }
void LED_Toggle(unsigned int idx) { if (idx < 32) SIMCTL->leds ^= 1UL << idx; }
