// Something that wants to see every completed bus transaction (trace recorder,
// statistics). The AHB interconnect calls it after the target has answered.
#pragma once

#include <cstdint>
#include <string>

#include <systemc>
#include <tlm>

namespace ai8x {

struct BusEvent {
    std::string initiator;            // name the initiator registered with the bus
    tlm::tlm_command command;         // TLM_READ_COMMAND / TLM_WRITE_COMMAND
    uint64_t address = 0;             // absolute bus address
    unsigned length = 0;              // 1, 2 or 4 bytes
    uint32_t data = 0;                // value written or read (little-endian, zero-extended)
    tlm::tlm_response_status status;  // what the target answered
    sc_core::sc_time time;            // simulated time of the access (including annotated delay)
};

class BusObserver {
public:
    virtual ~BusObserver() = default;
    virtual void on_transaction(const BusEvent& ev) = 0;
};

}  // namespace ai8x
