/* MAX78000 GPIO ports: register layout and the configuration calls generated
 * firmware makes (CNN boost pin). */
#ifndef AI8XSIM_GPIO_H
#define AI8XSIM_GPIO_H

#include <stdint.h>
#include "device_map.h"

typedef struct {
    volatile uint32_t en0;        /* 0x00 GPIO function enable */
    volatile uint32_t en0_set;    /* 0x04 */
    volatile uint32_t en0_clr;    /* 0x08 */
    volatile uint32_t outen;      /* 0x0C output enable */
    volatile uint32_t outen_set;  /* 0x10 */
    volatile uint32_t outen_clr;  /* 0x14 */
    volatile uint32_t out;        /* 0x18 output level */
    volatile uint32_t out_set;    /* 0x1C */
    volatile uint32_t out_clr;    /* 0x20 */
    volatile uint32_t in;         /* 0x24 input level */
} mxc_gpio_regs_t;

#define MXC_GPIO0 ((mxc_gpio_regs_t *) MXC_BASE_GPIO0)
#define MXC_GPIO1 ((mxc_gpio_regs_t *) MXC_BASE_GPIO1)
#define MXC_GPIO2 ((mxc_gpio_regs_t *) MXC_BASE_GPIO2)

#define MXC_GPIO_PIN_0 ((uint32_t) (1UL << 0))
#define MXC_GPIO_PIN_1 ((uint32_t) (1UL << 1))
#define MXC_GPIO_PIN_2 ((uint32_t) (1UL << 2))
#define MXC_GPIO_PIN_3 ((uint32_t) (1UL << 3))
#define MXC_GPIO_PIN_4 ((uint32_t) (1UL << 4))
#define MXC_GPIO_PIN_5 ((uint32_t) (1UL << 5))
#define MXC_GPIO_PIN_6 ((uint32_t) (1UL << 6))
#define MXC_GPIO_PIN_7 ((uint32_t) (1UL << 7))

typedef enum { MXC_GPIO_FUNC_IN, MXC_GPIO_FUNC_OUT, MXC_GPIO_FUNC_ALT1, MXC_GPIO_FUNC_ALT2,
               MXC_GPIO_FUNC_ALT3, MXC_GPIO_FUNC_ALT4 } mxc_gpio_func_t;
typedef enum { MXC_GPIO_PAD_NONE, MXC_GPIO_PAD_PULL_UP, MXC_GPIO_PAD_PULL_DOWN } mxc_gpio_pad_t;
typedef enum { MXC_GPIO_VSSEL_VDDIO, MXC_GPIO_VSSEL_VDDIOH } mxc_gpio_vssel_t;

typedef struct {
    mxc_gpio_regs_t *port;
    uint32_t mask;
    mxc_gpio_func_t func;
    mxc_gpio_pad_t pad;
    mxc_gpio_vssel_t vssel;
} mxc_gpio_cfg_t;

int MXC_GPIO_Config(const mxc_gpio_cfg_t *cfg);
void MXC_GPIO_OutSet(mxc_gpio_regs_t *port, uint32_t mask);
void MXC_GPIO_OutClr(mxc_gpio_regs_t *port, uint32_t mask);
uint32_t MXC_GPIO_OutGet(mxc_gpio_regs_t *port, uint32_t mask);

#endif
