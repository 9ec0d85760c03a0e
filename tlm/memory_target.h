// Plain RAM or ROM on the bus (the Cortex-M4 flash and SRAM). Grants DMI so the
// CPU model can reach it without a transaction per access.
#pragma once

#include <cstdint>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

namespace ai8x {

class MemoryTarget : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<MemoryTarget, 32> socket;

    // `base` is the absolute bus address of byte 0; transactions carry absolute addresses.
    MemoryTarget(sc_core::sc_module_name name, uint64_t base, uint64_t size, bool writable);

    uint8_t* data() { return bytes_.data(); }
    uint64_t base() const { return base_; }
    uint64_t size() const { return bytes_.size(); }

private:
    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    unsigned transport_dbg(tlm::tlm_generic_payload& trans);
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);

    // Checks range, command and options; on success returns the offset of the first byte.
    bool check(tlm::tlm_generic_payload& trans, uint64_t& offset);

    uint64_t base_;
    bool writable_;
    std::vector<uint8_t> bytes_;
};

}  // namespace ai8x
