// Register-bank machinery: declarative definitions, reset values, fields,
// access kinds, handlers, alignment rules and the override table.
#include <catch2/catch.hpp>

#include <cstring>

#include "tlm/register_bank.h"

using namespace ai8x;

namespace {

struct Access {
    tlm::tlm_response_status status;
    uint32_t data;
};

Access bus(RegisterBank& bank, tlm::tlm_command cmd, uint64_t offset, uint32_t data = 0, unsigned len = 4) {
    tlm::tlm_generic_payload t;
    uint8_t buf[4];
    std::memcpy(buf, &data, 4);
    t.set_command(cmd);
    t.set_address(bank.base() + offset);
    t.set_data_ptr(buf);
    t.set_data_length(len);
    t.set_streaming_width(len);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    bank.transport(t, offset);
    uint32_t out = 0;
    std::memcpy(&out, buf, 4);
    return {t.get_response_status(), out};
}
Access rd(RegisterBank& b, uint64_t off) { return bus(b, tlm::TLM_READ_COMMAND, off); }
Access wr(RegisterBank& b, uint64_t off, uint32_t v) { return bus(b, tlm::TLM_WRITE_COMMAND, off, v); }

struct Fixture {
    uint32_t ctl = 0xdead, stat = 0, cmd = 0, flags = 0;
    RegisterBank bank{"blk", 0x40000000};
    Fixture() {
        bank.add({"CTL",
                  0x0,
                  0x00000008,
                  RegAccess::RW,
                  "control",
                  {{"EN", 0, 1, "enable"}, {"MODE", 4, 3, "mode select"}, {"DONE", 12, 1, "done flag"}}},
                 &ctl);
        bank.add({"STAT", 0x4, 0x5, RegAccess::RO, "status", {{"LEVEL", 0, 4, "fill level"}}}, &stat);
        bank.add({"CMD", 0x8, 0, RegAccess::WO, "command", {}}, &cmd);
        bank.add({"FLAGS", 0x10, 0xff, RegAccess::W1C, "sticky flags", {}}, &flags);
    }
};

}  // namespace

TEST_CASE("registers take their reset values from the table", "[register_bank]") {
    Fixture f;
    CHECK(f.ctl == 0x8);  // the cell is overwritten by the reset value
    CHECK(f.stat == 0x5);
    CHECK(f.flags == 0xff);
    f.ctl = 0x1234;
    f.bank.reset();
    CHECK(f.ctl == 0x8);
}

TEST_CASE("fields decode and encode by name", "[register_bank]") {
    Fixture f;
    Register& r = *f.bank.find("CTL");
    r.set(0x1051);
    CHECK(r.field("EN") == 1);
    CHECK(r.field("MODE") == 5);
    CHECK(r.field("DONE") == 1);
    r.set_field("MODE", 2);
    CHECK(r.value() == 0x1021);
    r.set_field("MODE", 0xff);  // clipped to the field width
    CHECK(r.value() == 0x1071);
    CHECK_THROWS_AS(r.field("NOPE"), std::out_of_range);
    CHECK(r.def().field("DONE")->mask() == 0x1000u);
}

TEST_CASE("RW registers store what the bus writes and read it back", "[register_bank]") {
    Fixture f;
    CHECK(wr(f.bank, 0x0, 0xcafe0001).status == tlm::TLM_OK_RESPONSE);
    CHECK(f.ctl == 0xcafe0001u);
    CHECK(rd(f.bank, 0x0).data == 0xcafe0001u);
}

TEST_CASE("RO registers refuse writes, WO read as zero, W1C clears written ones", "[register_bank]") {
    Fixture f;
    CHECK(wr(f.bank, 0x4, 0x1).status == tlm::TLM_COMMAND_ERROR_RESPONSE);
    CHECK(f.stat == 0x5);
    CHECK(rd(f.bank, 0x4).data == 0x5u);
    CHECK(wr(f.bank, 0x8, 0x77).status == tlm::TLM_OK_RESPONSE);
    CHECK(f.cmd == 0x77u);
    const Access a = rd(f.bank, 0x8);
    CHECK(a.status == tlm::TLM_OK_RESPONSE);
    CHECK(a.data == 0u);
    CHECK(wr(f.bank, 0x10, 0x0f).status == tlm::TLM_OK_RESPONSE);
    CHECK(f.flags == 0xf0u);
}

TEST_CASE("only aligned 32-bit accesses reach a register", "[register_bank]") {
    Fixture f;
    CHECK(bus(f.bank, tlm::TLM_WRITE_COMMAND, 0x0, 0xff, 1).status == tlm::TLM_BURST_ERROR_RESPONSE);
    CHECK(bus(f.bank, tlm::TLM_READ_COMMAND, 0x0, 0, 2).status == tlm::TLM_BURST_ERROR_RESPONSE);
    CHECK(bus(f.bank, tlm::TLM_WRITE_COMMAND, 0x2, 0xff, 4).status == tlm::TLM_BURST_ERROR_RESPONSE);
    CHECK(f.ctl == 0x8);
    CHECK(rd(f.bank, 0xc).status == tlm::TLM_ADDRESS_ERROR_RESPONSE);  // hole between registers
}

TEST_CASE("write and read handlers run once per access", "[register_bank]") {
    Fixture f;
    Register& r = *f.bank.find(uint64_t{0});
    int writes = 0;
    uint32_t seen_old = 0, seen_new = 0;
    r.on_write = [&](Register& reg, uint32_t old) {
        ++writes;
        seen_old = old;
        seen_new = reg.value();
    };
    r.on_read = [](const Register& reg) { return reg.value() | 0x80000000u; };
    wr(f.bank, 0x0, 0x3);
    CHECK(writes == 1);
    CHECK(seen_old == 0x8);
    CHECK(seen_new == 0x3);
    CHECK(rd(f.bank, 0x0).data == 0x80000003u);
    CHECK(f.ctl == 0x3);  // the read handler does not change storage
}

TEST_CASE("an override replaces the value the firmware writes", "[register_bank]") {
    Fixture f;
    CHECK(f.bank.set_override(0x0, 0x00000042));
    CHECK_FALSE(f.bank.set_override(0xc, 1));
    int writes = 0;
    f.bank.find(uint64_t{0})->on_write = [&](Register&, uint32_t) { ++writes; };
    wr(f.bank, 0x0, 0xffffffff);
    CHECK(f.ctl == 0x42u);
    CHECK(writes == 1);
    wr(f.bank, 0x10, 0x1);  // other registers unaffected
    CHECK(f.flags == 0xfeu);
}

TEST_CASE("overrides no write has hit are listed as unapplied", "[register_bank]") {
    Fixture f;
    REQUIRE(f.bank.set_override(0x0, 0x1));
    REQUIRE(f.bank.set_override(0x10, 0x2));
    CHECK(f.bank.unapplied_overrides() == std::vector<uint64_t>{0x0, 0x10});
    wr(f.bank, 0x4, 0x7);  // a write elsewhere (here refused: read-only) applies nothing
    CHECK(f.bank.unapplied_overrides() == std::vector<uint64_t>{0x0, 0x10});
    wr(f.bank, 0x10, 0xff);
    CHECK(f.bank.unapplied_overrides() == std::vector<uint64_t>{0x0});
    CHECK(rd(f.bank, 0x0).data == 0x8u);  // a read does not count as the firmware writing it
    CHECK(f.bank.unapplied_overrides() == std::vector<uint64_t>{0x0});
    wr(f.bank, 0x0, 0x5);
    CHECK(f.bank.unapplied_overrides().empty());
}

TEST_CASE("duplicate or misaligned offsets are refused when building a bank", "[register_bank]") {
    RegisterBank bank("b", 0);
    uint32_t a = 0, b = 0;
    bank.add({"A", 0x4, 0, RegAccess::RW, "", {}}, &a);
    CHECK_THROWS_AS(bank.add({"B", 0x4, 0, RegAccess::RW, "", {}}, &b), std::invalid_argument);
    CHECK_THROWS_AS(bank.add({"C", 0x6, 0, RegAccess::RW, "", {}}, &b), std::invalid_argument);
}
