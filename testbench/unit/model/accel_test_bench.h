// Test helper shared by the accelerator and memory tests: an Accelerator with an
// initiator socket bound to it and word/byte access helpers.
#pragma once

#include <cstring>

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "model/accelerator.h"
#include "testbench/unit/test_support.h"
#include "tlm/device_config.h"

namespace ai8x::test {

inline const DeviceConfig& max78000() {
    static const DeviceConfig cfg = load_device_config(AI8XSIM_SOURCE_DIR "/configs/max78000.yaml");
    return cfg;
}

inline const DeviceConfig& max78002() {
    static const DeviceConfig cfg = load_device_config(AI8XSIM_SOURCE_DIR "/configs/max78002.yaml");
    return cfg;
}

struct AccelBench : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<AccelBench, 32> init;
    Accelerator accel;

    explicit AccelBench(sc_core::sc_module_name n = "bench", const DeviceConfig& cfg = max78000())
        : sc_module(n), init("init"), accel("accel", cfg) {
        init.bind(accel.socket);
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
