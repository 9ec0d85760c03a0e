/* GPIO configuration through the port registers (set/clear aliases). */
#include "mxc.h"

int MXC_GPIO_Config(const mxc_gpio_cfg_t *cfg)
{
    if (cfg == 0 || cfg->port == 0) return E_BAD_PARAM;
    cfg->port->en0_set = cfg->mask;  /* pin works as GPIO, not alternate function */
    if (cfg->func == MXC_GPIO_FUNC_OUT)
        cfg->port->outen_set = cfg->mask;
    else
        cfg->port->outen_clr = cfg->mask;
    return E_NO_ERROR;
}

void MXC_GPIO_OutSet(mxc_gpio_regs_t *port, uint32_t mask) { port->out_set = mask; }
void MXC_GPIO_OutClr(mxc_gpio_regs_t *port, uint32_t mask) { port->out_clr = mask; }
uint32_t MXC_GPIO_OutGet(mxc_gpio_regs_t *port, uint32_t mask) { return port->out & mask; }
