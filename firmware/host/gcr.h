// Global control registers (soc.gcr): the clocks the rest of the board
// follows. Registers and fields: configs peripherals GCR; the CNN clock's
// source and divider codes: clocks.cnn_clock.
#pragma once

#include "registers/soc.h"
#include "tlm/wire.h"

namespace ai8x {

class Gcr : public Peripheral {
public:
    // The CNN clock PCLKDIV selects, in Hz. It starts at PCLK, the clock the
    // accelerator assumes until the firmware selects one.
    WireOut<double> cnn_clock_hz;
    // PCLKDIS0.CNN clear: the CNN's peripheral clock runs.
    WireOut<bool> cnn_clock_running;
    // PCLKDIS1.CPU1 clear: the RISC-V core's clock runs (its rising edge releases the core).
    WireOut<bool> riscv_clock_running;

    Gcr(sc_core::sc_module_name name, const DeviceConfig& cfg);

    // The CNN clock the current PCLKDIV selects, in Hz.
    double cnn_clock() const;
    // Sets PCLKDIS0.CNN (and the output) without a bus write: for a board that
    // starts other than from the SoC's reset (app/board_wiring.cpp).
    void preset_cnn_clock_running(bool running);

private:
    void write_clkctrl(uint32_t value);
    void write_ipll_ctrl(uint32_t value);
    void write_pclkdiv(uint32_t value);
    void change_cnn_gate(uint32_t gated);
    void change_cpu1_gate(uint32_t gated);
    void check_clock_codes() const;

    regs::gcr::CLKCTRL CLKCTRL{*this};
    regs::gcr::IPLL_CTRL IPLL_CTRL{*this};
    regs::gcr::PCLKDIV PCLKDIV{*this};
    regs::gcr::PCLKDIS0 PCLKDIS0{*this};
    regs::gcr::PCLKDIS1 PCLKDIS1{*this};
};

}  // namespace ai8x
