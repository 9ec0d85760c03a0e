#include "tlm/memory_target.h"

#include <cstring>

#include <spdlog/spdlog.h>

namespace ai8x {

MemoryTarget::MemoryTarget(sc_core::sc_module_name name, uint64_t base, uint64_t size, bool writable)
    : sc_module(name), socket("socket"), base_(base), writable_(writable), bytes_(size, 0) {
    socket.register_b_transport(this, &MemoryTarget::b_transport);
    socket.register_transport_dbg(this, &MemoryTarget::transport_dbg);
    socket.register_get_direct_mem_ptr(this, &MemoryTarget::get_direct_mem_ptr);
}

bool MemoryTarget::check(tlm::tlm_generic_payload& trans, uint64_t& offset) {
    const uint64_t addr = trans.get_address();
    const uint64_t len = trans.get_data_length();
    if (addr < base_ || addr - base_ + len > bytes_.size()) {
        trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return false;
    }
    if (trans.get_byte_enable_ptr() || trans.get_streaming_width() < len) {
        // Nothing on this board issues byte-enabled or streaming transfers to plain memory.
        trans.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
        return false;
    }
    if (trans.is_write() && !writable_) {
        spdlog::warn("{}: write to read-only memory at 0x{:08x}", name(), addr);
        trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
        return false;
    }
    offset = addr - base_;
    return true;
}

void MemoryTarget::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time&) {
    uint64_t offset = 0;
    if (!check(trans, offset)) return;
    if (trans.is_read())
        std::memcpy(trans.get_data_ptr(), &bytes_[offset], trans.get_data_length());
    else if (trans.is_write())
        std::memcpy(&bytes_[offset], trans.get_data_ptr(), trans.get_data_length());
    trans.set_dmi_allowed(true);
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

// Debug access (loaders, debuggers) may also fill read-only memory.
unsigned MemoryTarget::transport_dbg(tlm::tlm_generic_payload& trans) {
    const uint64_t addr = trans.get_address();
    if (addr < base_ || addr - base_ >= bytes_.size()) return 0;
    const uint64_t offset = addr - base_;
    const unsigned len = static_cast<unsigned>(std::min<uint64_t>(trans.get_data_length(), bytes_.size() - offset));
    if (trans.is_read())
        std::memcpy(trans.get_data_ptr(), &bytes_[offset], len);
    else if (trans.is_write())
        std::memcpy(&bytes_[offset], trans.get_data_ptr(), len);
    return len;
}

bool MemoryTarget::get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
    const uint64_t addr = trans.get_address();
    if (addr < base_ || addr - base_ >= bytes_.size()) return false;
    dmi.set_dmi_ptr(bytes_.data());
    dmi.set_start_address(base_);
    dmi.set_end_address(base_ + bytes_.size() - 1);
    dmi.set_granted_access(writable_ ? tlm::tlm_dmi::DMI_ACCESS_READ_WRITE : tlm::tlm_dmi::DMI_ACCESS_READ);
    dmi.set_read_latency(sc_core::SC_ZERO_TIME);
    dmi.set_write_latency(sc_core::SC_ZERO_TIME);
    return true;
}

}  // namespace ai8x
