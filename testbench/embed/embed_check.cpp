// An outside virtual platform's view of the accelerator: its own TLM initiator
// bound straight to Accelerator::socket (one target for every window), the
// installed device file, and a write/read-back of one word in each kind of
// block. Prints "embed: PASS" and exits 0 only if every word comes back.
#include <cstdint>
#include <cstdio>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "model/accelerator.h"
#include "tlm/device_config.h"

namespace {

struct Probe : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<Probe, 32> socket{"socket"};
    const ai8x::DeviceConfig& cfg;
    int failures = 0;

    SC_HAS_PROCESS(Probe);
    Probe(sc_core::sc_module_name name, const ai8x::DeviceConfig& c) : sc_module(name), cfg(c) { SC_THREAD(run); }

    // One 32-bit access; false if the target answered with an error.
    bool access(tlm::tlm_command cmd, uint64_t address, uint32_t& word) {
        tlm::tlm_generic_payload p;
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        p.set_command(cmd);
        p.set_address(address);
        p.set_data_ptr(reinterpret_cast<unsigned char*>(&word));
        p.set_data_length(4);
        p.set_streaming_width(4);
        p.set_byte_enable_ptr(nullptr);
        p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        socket->b_transport(p, delay);
        return p.is_response_ok();
    }

    void check(const char* what, uint64_t address, uint32_t value) {
        uint32_t back = 0;
        const bool ok = access(tlm::TLM_WRITE_COMMAND, address, value) && access(tlm::TLM_READ_COMMAND, address, back);
        std::printf("embed: %-10s 0x%08llx wrote 0x%08x read 0x%08x\n", what, static_cast<unsigned long long>(address),
                    value, back);
        if (!ok || back != value) ++failures;
    }

    void run() {
        check("data_sram", cfg.data_sram.base, 0x12345678);
        check("tram", cfg.tram.base, 0x0000beef);      // 16-bit words
        check("bias", cfg.bias_mem.base, 0x0000005a);  // 8-bit words
        check("LREG_RCNT", cfg.quadrant_regs.base + cfg.layer_register_offset, 0x0001001c);
    }
};

}  // namespace

int sc_main(int, char*[]) {
    const ai8x::DeviceConfig cfg = ai8x::load_device_config(EMBED_DEVICE_FILE);
    ai8x::Accelerator accelerator("cnn", cfg);
    Probe probe("probe", cfg);
    probe.socket.bind(accelerator.socket);
    sc_core::sc_start();
    std::printf("embed: %s\n", probe.failures == 0 ? "PASS" : "FAIL");
    return probe.failures == 0 ? 0 : 1;
}
