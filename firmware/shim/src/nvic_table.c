/* RAM copy of the vector table, so interrupt handlers can be installed at run
 * time as the vendor SDK does. */
#include <string.h>
#include "mxc.h"

/* VTOR needs the table aligned to its size rounded up to a power of two. */
static uint32_t ram_vectors[MXC_IRQ_COUNT] __attribute__((aligned(512)));

void NVIC_SetRAM(void)
{
    if (SCB->VTOR == (uint32_t) ram_vectors) return;
    memcpy(ram_vectors, (const void *) SCB->VTOR, sizeof(ram_vectors));
    SCB->VTOR = (uint32_t) ram_vectors;
}

void MXC_NVIC_SetVector(IRQn_Type irqn, void (*handler)(void))
{
    NVIC_SetRAM();
    ram_vectors[(int32_t) irqn + 16] = (uint32_t) handler;
    NVIC_EnableIRQ(irqn);
}

uint32_t MXC_NVIC_GetVector(IRQn_Type irqn)
{
    return ((const volatile uint32_t *) SCB->VTOR)[(int32_t) irqn + 16];
}
