// Test helper shared by the accelerator and memory tests: an Accelerator with an
// initiator socket bound to it and word/byte access helpers.
#pragma once

#include <cstring>
#include <functional>

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "model/accelerator.h"
#include "model/registers/register_fields.h"
#include "testbench/unit/sim_kernel.h"
#include "testbench/unit/test_support.h"
#include "tlm/device_config.h"
#include "tlm/wire.h"
#include "build_paths.h"

namespace ai8x::test {

inline const DeviceConfig& max78000() {
    static const DeviceConfig cfg = load_device_config(AI8XSIM_SOURCE_DIR "/configs/max78000.yaml");
    return cfg;
}

inline const DeviceConfig& max78002() {
    static const DeviceConfig cfg = load_device_config(AI8XSIM_SOURCE_DIR "/configs/max78002.yaml");
    return cfg;
}

// CNN clock of the FIFO test benches (the MAX78000's default, as its firmware sets it).
constexpr double kBenchCnnHz = 50e6;

inline const regs::quadrant::REG_CTL& max78000_ctl_fields() { return register_fields(max78000()).REG_CTL; }

// Address of the register at `offset` in quadrant q's register block (MAX78000).
inline uint64_t qreg(uint32_t q, uint64_t offset) {
    return max78000().quadrant_regs.base + q * max78000().quadrant_regs.quadrant_stride + offset;
}

// Address of per-layer register `kind` of `layer` in quadrant q (MAX78000).
inline uint64_t lreg(uint32_t q, unsigned kind, unsigned layer) {
    return qreg(q, max78000().layer_register_offset + kind * max78000().layer_register_stride + 4 * layer);
}

// True if `a` lies in a data memory instance of some quadrant (MAX78000); the
// quadrant's other blocks sit between the quadrants' data memories.
inline bool in_data_memory(uint64_t a) {
    const ArrayGeometry& g = max78000().data_sram;
    for (uint32_t q = 0; q < max78000().quadrants; ++q) {
        const uint64_t start = g.base + q * g.quadrant_stride;
        if (a >= start && a < start + uint64_t{g.instances_per_quadrant} * g.instance_stride) return true;
    }
    return false;
}

// One bench per SystemC kernel: it refuses to be elaborated beside the
// processes of a destroyed one (testbench/unit/sim_kernel.h).
struct AccelBench : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<AccelBench, 32> init;
    Accelerator accel;
    // The accelerator's interrupt, wired to the bench: on_irq sees every edge
    // (read off the wire directly, so also in a test that never elaborates).
    std::function<void(bool level)> on_irq;
    Wire<bool> irq_wire;

    explicit AccelBench(sc_core::sc_module_name n = "bench", const DeviceConfig& cfg = max78000())
        : sc_module(n), init("init"), accel("accel", cfg), irq_wire("cnn_irq") {
        require_no_left_behind_processes(name());
        init.bind(accel.socket);
        accel.irq.bind(irq_wire);
        irq_wire.add_reader([this](bool level) {
            if (on_irq) on_irq(level);
        });
    }

    tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t addr, uint32_t& data, unsigned len) {
        return blocking_access(init, cmd, addr, data, len);
    }
    tlm::tlm_response_status write(uint64_t addr, uint32_t v, unsigned len = 4) {
        return access(tlm::TLM_WRITE_COMMAND, addr, v, len);
    }
    uint32_t read(uint64_t addr, unsigned len = 4) {
        uint32_t v = 0;
        REQUIRE(access(tlm::TLM_READ_COMMAND, addr, v, len) == tlm::TLM_OK_RESPONSE);
        return v;
    }
    tlm::tlm_response_status read_status(uint64_t addr, unsigned len = 4) {
        uint32_t v = 0;
        return access(tlm::TLM_READ_COMMAND, addr, v, len);
    }
};

}  // namespace ai8x::test
