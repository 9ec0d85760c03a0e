/* Board LEDs: generated firmware marks CNN start/end with LED_On/LED_Off. */
#ifndef AI8XSIM_BOARD_H
#define AI8XSIM_BOARD_H

void LED_On(unsigned int idx);
void LED_Off(unsigned int idx);
void LED_Toggle(unsigned int idx);

#endif
