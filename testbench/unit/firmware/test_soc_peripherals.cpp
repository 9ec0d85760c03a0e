// SoC peripheral registers as firmware sees them through the bus.
#include <catch2/catch.hpp>

#include <tlm_utils/simple_initiator_socket.h>

#include "firmware/host/rtl_testbench_control.h"
#include "firmware/host/soc_peripherals.h"
#include "firmware/host/system_control_space.h"
#include "tlm/sync_hint.h"
#include "tlm/wire.h"

using namespace ai8x;

namespace {

struct Master : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<Master, 32> socket{"socket"};
    explicit Master(sc_core::sc_module_name n) : sc_module(n) {}

    tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t addr, uint32_t& data, unsigned size = 4) {
        tlm::tlm_generic_payload t;
        t.set_command(cmd);
        t.set_address(addr);
        t.set_data_ptr(reinterpret_cast<unsigned char*>(&data));
        t.set_data_length(size);
        t.set_streaming_width(size);
        sc_core::sc_time d = sc_core::SC_ZERO_TIME;
        socket->b_transport(t, d);
        return t.get_response_status();
    }
    void write(uint64_t addr, uint32_t v) { REQUIRE(access(tlm::TLM_WRITE_COMMAND, addr, v) == tlm::TLM_OK_RESPONSE); }
    // The interconnect's answer to a DMI query for `addr` carrying a SyncHint.
    SyncHint hint_at(uint64_t addr) {
        tlm::tlm_generic_payload t;
        SyncHint hint;
        t.set_address(addr);
        t.set_extension(&hint);
        tlm::tlm_dmi dmi;
        CHECK_FALSE(socket->get_direct_mem_ptr(t, dmi));  // no peripheral grants direct access
        t.clear_extension(&hint);
        return hint;
    }
    uint32_t read(uint64_t addr) {
        uint32_t v = 0;
        REQUIRE(access(tlm::TLM_READ_COMMAND, addr, v) == tlm::TLM_OK_RESPONSE);
        return v;
    }
};

DeviceConfig config() { return load_device_config(default_device_config_path()); }

// Every value a wire takes, as the module reading it sees them.
template <class T>
struct Probe : sc_core::sc_module {
    WireIn<T> in{"in", [this](const T& v) { seen.push_back(v); }};
    std::vector<T> seen;
    explicit Probe(sc_core::sc_module_name n) : sc_module(n) {}
};

// Binds `out` through a wire to a probe.
template <class T>
Probe<T>& probe(WireSet& wires, WireOut<T>& out, const char* name) {
    static std::vector<std::unique_ptr<Probe<T>>> probes;
    probes.push_back(std::make_unique<Probe<T>>((std::string(name) + "_probe").c_str()));
    probes.back()->in.bind(wires.connect(out, name));
    return *probes.back();
}

}  // namespace

TEST_CASE("GCR.PCLKDIV selects the CNN clock source and divider", "[periph][clock]") {
    DeviceConfig cfg = config();
    SocPeripherals p("soc", cfg);
    Master m("m");
    m.socket.bind(p.socket);
    WireSet wires;
    const std::vector<double>& seen = probe(wires, p.gcr().cnn_clock_hz, "cnn_clock").seen;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);  // elaboration: the probe joins its wire

    const uint64_t pclkdiv = 0x40000018;
    m.write(pclkdiv, 4u << 14);                 // PCLK, divide by 1: the clock it had
    m.write(pclkdiv, (1u << 17) | (4u << 14));  // IPO, divide by 1
    m.write(pclkdiv, (1u << 17) | (2u << 14));  // IPO, divide by 8
    m.write(pclkdiv, 0);                        // PCLK, divide by 2
    m.write(pclkdiv, 3u << 17);                 // code 3: the PLL's, which the MAX78000 has not: IPO
    REQUIRE(seen.size() == 4);
    CHECK(seen[0] == Approx(cfg.clocks.ipo_hz));
    CHECK(seen[1] == Approx(cfg.clocks.ipo_hz / 8));
    CHECK(seen[2] == Approx(cfg.clocks.pclk_hz / 2));
    CHECK(seen[3] == Approx(cfg.clocks.ipo_hz / 2));
}

TEST_CASE("GPIO set and clear aliases act on the output register", "[periph][gpio]") {
    DeviceConfig cfg = config();
    SocPeripherals p("soc", cfg);
    Master m("m");
    m.socket.bind(p.socket);
    const uint64_t gpio2 = 0x40080400;
    m.write(gpio2 + 0x1C, 0x24);  // OUT_SET
    m.write(gpio2 + 0x20, 0x04);  // OUT_CLR
    CHECK(m.read(gpio2 + 0x18) == 0x20);
    CHECK(m.read(gpio2 + 0x1C) == 0);  // aliases read as zero
}

TEST_CASE("unknown peripheral addresses and the simulation-control ID", "[periph]") {
    DeviceConfig cfg = config();
    SocPeripherals p("soc", cfg);
    Master m("m");
    m.socket.bind(p.socket);
    uint32_t v = 0;
    CHECK(m.access(tlm::TLM_READ_COMMAND, 0x40000014, v) == tlm::TLM_ADDRESS_ERROR_RESPONSE);  // GCR hole
    CHECK(m.access(tlm::TLM_READ_COMMAND, 0x4E000000, v) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK(m.read(p.sim_control().base() + 0x20) == 0x53494D43);
    std::string out;
    p.sim_control().on_console = [&](char c) { out += c; };
    m.write(p.sim_control().base(), 'h');
    m.write(p.sim_control().base(), 'i');
    CHECK(out == "hi");
}

TEST_CASE("GCR.CLKCTRL: an enabled oscillator is ready at once and a clock switch is done", "[periph][clock]") {
    DeviceConfig cfg = config();
    SocPeripherals p("soc", cfg);
    Master m("m");
    m.socket.bind(p.socket);
    const uint64_t clkctrl = 0x40000008;
    const uint32_t ipo_en = 1u << 19, ipo_rdy = 1u << 27, sysclk_rdy = 1u << 13;
    CHECK(m.read(clkctrl) == 0);
    m.write(clkctrl, ipo_en | (4u << 9));  // IPO on, SYSCLK_SEL 4
    CHECK(m.read(clkctrl) == (ipo_en | ipo_rdy | sysclk_rdy | (4u << 9)));
    m.write(clkctrl, ipo_rdy);  // IPO off: not ready, whatever was written there
    CHECK(m.read(clkctrl) == sysclk_rdy);
}

TEST_CASE("the RTL programs' trim and wake-up registers store what is written", "[periph][rtl]") {
    DeviceConfig cfg = config();
    SocPeripherals p("soc", cfg);
    Master m("m");
    m.socket.bind(p.socket);
    // TME, MCR IPO_MTRIM, PWRSEQ LPWKEN0..3
    for (uint64_t a : {0x40000C00ull, 0x40006C04ull, 0x40006808ull, 0x40006810ull, 0x40006818ull, 0x40006820ull}) {
        m.write(a, 0x5A);
        CHECK(m.read(a) == 0x5A);
    }
    m.write(0x40006814, 0xFF);  // LPWKST2: write 1 to clear, nothing sets it
    CHECK(m.read(0x40006814) == 0);
}

TEST_CASE("the RTL testbench block: on the bus once attached, pass/fail name core and caller, TRIG pulses trig",
          "[periph][rtl]") {
    DeviceConfig cfg = config();
    SocPeripherals p("soc", cfg);
    Master m("m");
    m.socket.bind(p.socket);
    const uint64_t base = 0x4F001000;
    uint32_t v = 0;
    CHECK(m.access(tlm::TLM_READ_COMMAND, base + 0x14, v) == tlm::TLM_ADDRESS_ERROR_RESPONSE);  // not an RTL run
    RtlTestbenchControl tb("rtl_testbench", cfg);
    p.attach(tb);
    std::vector<std::pair<bool, uint32_t>> verdicts;  // (pass, caller), Arm then RISC-V
    std::vector<RtlTestbenchControl::Core> cores;
    tb.on_pass = [&](RtlTestbenchControl::Core c, uint32_t caller) {
        verdicts.push_back({true, caller});
        cores.push_back(c);
    };
    tb.on_fail = [&](RtlTestbenchControl::Core c, uint32_t caller) {
        verdicts.push_back({false, caller});
        cores.push_back(c);
    };
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    CHECK(m.read(base + 0x14) == 0x52544C54);  // "RTLT"
    m.write(base + 0x04, 0x100);               // PASS_ARM
    m.write(base + 0x10, 0x200);               // FAIL_RV
    CHECK(verdicts == std::vector<std::pair<bool, uint32_t>>{{true, 0x100}, {false, 0x200}});
    CHECK(cores ==
          std::vector<RtlTestbenchControl::Core>{RtlTestbenchControl::Core::arm, RtlTestbenchControl::Core::riscv});

    CHECK_FALSE(tb.trig.read());
    m.write(base + 0x00, 0);  // sim->trig = 0;
    sc_core::sc_start(0.5, sc_core::SC_NS);
    CHECK(tb.trig.read());
    sc_core::sc_start(1, sc_core::SC_NS);
    CHECK_FALSE(tb.trig.read());
    CHECK(tb.trig_count() == 1);
}

TEST_CASE("NVIC enable/pending bits and VTOR", "[nvic]") {
    const DeviceConfig cfg = config();
    SystemControlSpace scs("scs", cfg, 0x10000000);
    CHECK(scs.vtor() == 0x10000000);
    CHECK(scs.write(0xD08, 0x20001234));
    CHECK(scs.vtor() == 0x20001200);                 // TBLOFF is bits 31:7
    CHECK(scs.write(0x100 + 12, 1u << (101 - 96)));  // ISER3: enable IRQ 101
    CHECK(scs.enabled(101));
    CHECK_FALSE(scs.next_interrupt());
    scs.set_pending(101, true);
    scs.set_pending(7, true);  // pending but not enabled
    REQUIRE(scs.next_interrupt());
    CHECK(*scs.next_interrupt() == 101);
    CHECK(scs.write(0x180 + 12, 1u << 5));  // ICER3
    CHECK_FALSE(scs.next_interrupt());
    uint32_t v;
    CHECK_FALSE(scs.read(0x400, v));
}

TEST_CASE("SCB SCR keeps the sleep bits and AIRCR the priority grouping behind its key", "[nvic]") {
    const DeviceConfig cfg = config();
    SystemControlSpace scs("scs", cfg, 0x10000000);
    uint32_t v = 1;
    REQUIRE(scs.read(0xD10, v));
    CHECK(v == 0);
    CHECK_FALSE(scs.sleep_deep());
    CHECK(scs.write(0xD10, 0xFFFFFFFF));  // only SLEEPONEXIT, SLEEPDEEP, SEVONPEND exist
    REQUIRE(scs.read(0xD10, v));
    CHECK(v == 0x16);
    CHECK(scs.sleep_deep());
    CHECK(scs.write(0xD10, v & ~0x4u));  // SCB->SCR &= ~SCB_SCR_SLEEPDEEP_Msk
    CHECK_FALSE(scs.sleep_deep());

    CHECK(scs.write(0xD0C, 0x00000500));  // no VECTKEY: ignored
    REQUIRE(scs.read(0xD0C, v));
    CHECK(v == 0xFA050000);
    CHECK(scs.write(0xD0C, 0x05FA0500));  // PRIGROUP 5 with the key
    REQUIRE(scs.read(0xD0C, v));
    CHECK(v == 0xFA050500);
    CHECK(scs.write(0xD0C, 0x05FB0300));  // a wrong key: ignored
    REQUIRE(scs.read(0xD0C, v));
    CHECK(v == 0xFA050500);
}

TEST_CASE("dual-core start-up: the RISC-V core is released at the FCR boot address when its clock runs",
          "[periph][riscv]") {
    DeviceConfig cfg = config();
    SocPeripherals p("soc", cfg);
    Master m("m");
    m.socket.bind(p.socket);
    WireSet wires;
    const std::vector<bool>& clock = probe(wires, p.gcr().riscv_clock_running, "riscv_clock").seen;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    const uint64_t pclkdis1 = 0x40000048, fcr = p.find("FCR")->base();
    const uint32_t cpu1 = 1u << 31;  // PCLKDIS1.CPU1 (MSDK MXC_SYS_PERIPH_CLOCK_CPU1 - 32)

    m.write(fcr + 0x10, 0x10004100);             // URVBOOTADDR
    m.write(pclkdis1, 0xFFFFFFFF & ~(1u << 9));  // semaphore clock only: the core stays in reset
    CHECK(clock.empty());
    m.write(pclkdis1, m.read(pclkdis1) & ~cpu1);  // MXC_SYS_ClockEnable(MXC_SYS_PERIPH_CLOCK_CPU1)
    REQUIRE(clock == std::vector<bool>{true});
    CHECK(p.fcr().boot_address() == 0x10004100);
}

TEST_CASE("SEMA: IRQ0 with EN and CM4_IRQ interrupts the Arm, and semaphores are test-and-set", "[periph][riscv]") {
    DeviceConfig cfg = config();
    SocPeripherals p("soc", cfg);
    Master m("m");
    m.socket.bind(p.socket);
    WireSet wires;
    Peripheral& sema = *p.find("SEMA");
    REQUIRE(sema.irq());
    CHECK(sema.instance().interrupt == int(cfg.soc.arm_irq_from_riscv));
    const std::vector<bool>& levels = probe(wires, *sema.irq(), "sema_irq").seen;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    const uint64_t irq0 = sema.base() + 0x40;
    m.write(irq0, (1u << 16));        // CM4_IRQ without EN: no interrupt
    m.write(irq0, 1u | (1u << 16));   // what main_riscv.c writes when done
    m.write(irq0, 1u & ~(1u << 16));  // what the Arm's WakeISR writes
    CHECK(levels == std::vector<bool>{true, false});

    const uint64_t sema3 = sema.base() + 3 * 4, status = sema.base() + 0x100;
    CHECK(m.read(sema3) == 0);  // was free: now taken
    CHECK(m.read(sema3) == 1);  // taken
    CHECK(m.read(status) == 1u << 3);
    m.write(sema3, 0);  // release
    CHECK(m.read(status) == 0);
    CHECK(m.read(sema3) == 0);
}

TEST_CASE("the fast FIFO window answers an error until the accelerator's fast FIFO is attached", "[periph][riscv]") {
    DeviceConfig cfg = config();
    SocPeripherals p("soc", cfg);
    Master m("m");
    m.socket.bind(p.socket);
    uint32_t v = 0;
    CHECK(m.access(tlm::TLM_READ_COMMAND, cfg.soc.fast_fifo.base + 4, v) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    Peripheral fifo("fast_fifo", cfg, "FAST_FIFO");  // its registers only, as a stand-in
    p.attach(fifo);
    CHECK(m.access(tlm::TLM_WRITE_COMMAND, cfg.soc.fast_fifo.base + 0x00, v = 0xa0) == tlm::TLM_OK_RESPONSE);
    CHECK(m.read(cfg.soc.fast_fifo.base + 0x00) == 0xa0);  // CR stores what is written
    CHECK(m.access(tlm::TLM_READ_COMMAND, cfg.soc.fast_fifo.base + 0x0C, v) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

namespace {
// A peripheral whose whole window races with SystemC time, as the fast FIFO's does.
struct RacingPeripheral : Peripheral {
    RacingPeripheral(sc_core::sc_module_name n, const DeviceConfig& cfg, const std::string& instance)
        : Peripheral(n, cfg, instance) {}
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi&) override {
        answer_sync_hint(trans, {{0, size() - 1}});
        return false;
    }
};
}  // namespace

TEST_CASE("a DMI query's SyncHint is answered in bus addresses by the peripheral at the address", "[periph][sync]") {
    DeviceConfig cfg = config();
    SocPeripherals p("soc", cfg);
    Master m("m");
    m.socket.bind(p.socket);
    RacingPeripheral fifo("fast_fifo", cfg, "FAST_FIFO");
    p.attach(fifo);
    const uint64_t first = cfg.soc.fast_fifo.base, last = first + cfg.soc.fast_fifo.size - 1;

    const SyncHint inside = m.hint_at(first + 4);
    CHECK(inside.synchronise);
    CHECK(inside.start == first);
    CHECK(inside.end == last);

    // Elsewhere no synchronisation, for a range that stops short of the FIFO's window.
    for (uint64_t address : {p.find("GCR")->base(), p.find("GCR")->base() + p.find("GCR")->size(), last + 1}) {
        INFO("address 0x" << std::hex << address);
        const SyncHint h = m.hint_at(address);
        CHECK_FALSE(h.synchronise);
        CHECK(h.start <= address);
        CHECK(h.end >= address);
        CHECK((h.end < first || h.start > last));
    }
}
