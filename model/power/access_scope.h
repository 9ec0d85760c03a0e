// Which part of the accelerator a bus window reaches: the power rules
// (model/power/power_control.h) decide each access by it. The module that owns
// a window states its scope (a quadrant's register bank and memory ports).
#pragma once

namespace ai8x {

enum class CnnBlock { Other, Registers, DataSram, Tram, Bias, Kernel };

struct AccessScope {
    int quadrant = -1;  // -1: not inside a quadrant (FIFO block, AON registers)
    CnnBlock block = CnnBlock::Other;
};

}  // namespace ai8x
