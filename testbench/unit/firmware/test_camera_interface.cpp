// The camera interface as firmware sees it through the bus: the words of a
// fed waveform arrive at the pixel clock's pace, the FIFO holds its depth and
// counts what it loses, the flags and the interrupt follow, the trigger starts
// the stream.
#include <catch2/catch.hpp>

#include <tlm_utils/simple_initiator_socket.h>

#include "build_paths.h"
#include "firmware/host/camera/camera_image.h"
#include "firmware/host/camera/camera_interface.h"
#include "testbench/unit/test_support.h"
#include "tlm/wire.h"

using namespace ai8x;

namespace {

const DeviceConfig& config() {
    static const DeviceConfig cfg = load_device_config(default_device_config_path());
    return cfg;
}

// Offsets and bits from the description (configs: peripherals PCIF).
const PeripheralDescription& pcif() { return *config().registers->find_peripheral("PCIF"); }
uint64_t offset(const char* reg) { return pcif().find(reg)->offset; }
RegField field(const char* reg, const char* name) { return pcif().find(reg)->find(name)->field(); }

const uint64_t kCtrl = offset("CTRL"), kIntEn = offset("INT_EN"), kIntFl = offset("INT_FL"),
               kFifoData = offset("FIFO_DATA"), kFifoSize = offset("FIFO_SIZE");
// Single image (READ_MODE 1), 888 pixels, one word per pixel, interface enabled.
const uint32_t kSingle888ThreeChannel =
    field("CTRL", "READ_MODE").with(0, 1) | field("CTRL", "THREE_CH_EN").mask() | field("CTRL", "PCIF_SYS").mask();
const uint32_t kNotEmpty = field("INT_FL", "FIFO_NOT_EMPTY_STATUS").mask(),
               kImgDone = field("INT_FL", "IMG_DONE").mask(), kFifoFull = field("INT_FL", "FIFO_FULL").mask();

// The CPU's side: word accesses at offsets from the interface's base.
struct Master : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<Master, 32> socket{"socket"};
    explicit Master(sc_core::sc_module_name n) : sc_module(n) {}

    uint32_t access(tlm::tlm_command cmd, uint64_t offset, uint32_t data) {
        REQUIRE(test::blocking_access(socket, cmd, offset, data, 4) == tlm::TLM_OK_RESPONSE);
        return data;
    }
    void write(uint64_t offset, uint32_t v) { access(tlm::TLM_WRITE_COMMAND, offset, v); }
    uint32_t read(uint64_t offset) { return access(tlm::TLM_READ_COMMAND, offset, 0); }
};

struct IrqProbe : sc_core::sc_module {
    WireIn<bool> in{"in", [this](const bool& v) { rises += v ? 1 : 0; }};
    int rises = 0;
    explicit IrqProbe(sc_core::sc_module_name n) : sc_module(n) {}
};

// `pixels` RGB pixels in one row, values 3p, 3p+1, 3p+2 (red, green, blue).
CameraWaveform row_of(int pixels) {
    CameraImage im{3, 1, pixels, {}};
    im.bytes.resize(std::size_t(3 * pixels));
    for (int c = 0; c < 3; ++c)
        for (int p = 0; p < pixels; ++p) im.bytes[std::size_t(c * pixels + p)] = uint8_t(3 * p + c + 1);
    return encode_camera_waveform(im, CameraEncoding{}, "row.csv");
}

uint32_t pixel_word(int p) { return uint32_t(3 * p + 1) | uint32_t(3 * p + 2) << 8 | uint32_t(3 * p + 3) << 16; }

struct Bench {
    DeviceConfig cfg = config();
    CameraInterface pcif{"pcif", cfg};
    Master cpu{"cpu"};
    Bench() { cpu.socket.bind(pcif.socket); }
};

void run_ns(double ns) { sc_core::sc_start(ns, sc_core::SC_NS); }

}  // namespace

TEST_CASE("The camera's words arrive at the row pace, one 0BGR word per pixel", "[camera][periph]") {
    Bench b;
    b.pcif.connect(row_of(4), CameraTiming{100, std::nullopt, 0});
    run_ns(0);
    CHECK(b.cpu.read(kFifoSize) == 8);
    b.cpu.write(kCtrl, kSingle888ThreeChannel);
    b.pcif.start_stream();
    CHECK((b.cpu.read(kIntFl) & kNotEmpty) == 0);
    std::vector<uint32_t> words;
    std::vector<double> at_ns;
    for (int polls = 0; polls < 20000 && words.size() < 4; ++polls) {
        run_ns(100);
        if (b.cpu.read(kIntFl) & kNotEmpty) {
            words.push_back(b.cpu.read(kFifoData));
            at_ns.push_back(sc_core::sc_time_stamp().to_seconds() * 1e9);
        }
    }
    REQUIRE(words.size() == 4);
    for (int p = 0; p < 4; ++p) CHECK(words[std::size_t(p)] == pixel_word(p));
    // Lead-in, VSYNC pulse and gap: 80 pixel times of 3 rows; each byte 6 rows;
    // the third byte's PCLK edge (row 2 of its pixel time) completes the word.
    const double first_word_row = 80 * 3 + 2 * 6 + 1;
    CHECK(at_ns[0] == Approx(first_word_row * 100));
    CHECK(at_ns[1] - at_ns[0] == Approx(3 * 6 * 100));
    CHECK((b.cpu.read(kIntFl) & kNotEmpty) == 0);  // all read
}

TEST_CASE("A full camera FIFO loses what comes next and says so", "[camera][periph][bad-input]") {
    Bench b;
    b.pcif.connect(row_of(12), CameraTiming{10, std::nullopt, 0});
    b.cpu.write(kCtrl, kSingle888ThreeChannel);
    b.pcif.start_stream();
    run_ns(1e6);  // the whole waveform, nobody reading
    CHECK((b.cpu.read(kIntFl) & kFifoFull) != 0);
    std::vector<uint32_t> words;
    while (b.cpu.read(kIntFl) & kNotEmpty) words.push_back(b.cpu.read(kFifoData));
    REQUIRE(words.size() == 8);
    CHECK(words.front() == pixel_word(0));
    CHECK(words.back() == pixel_word(7));
    const CameraInterface::Summary s = b.pcif.summary();
    CHECK(s.words_lost == 4);
    CHECK(s.finished);
    CHECK(b.pcif.stall_reason() ==
          "the camera waveform row.csv ended (" + std::to_string(s.rows) +
              " rows, a row every 10 ns) after 8 words, 8 of them read, 4 lost to a full FIFO");
}

TEST_CASE("IMG_DONE interrupts at the end of the frame without any access", "[camera][periph]") {
    Bench b;
    WireSet wires;
    IrqProbe probe("probe");
    REQUIRE(b.pcif.irq());
    probe.in.bind(wires.connect(*b.pcif.irq(), "pcif_irq"));
    // Two frames: the second VSYNC rise ends the first.
    CameraWaveform w = row_of(2);
    const std::vector<CameraRow> once = w.rows;
    w.rows.insert(w.rows.end(), once.begin(), once.end());
    b.pcif.connect(w, CameraTiming{10, std::nullopt, 0});
    run_ns(0);
    b.cpu.write(kCtrl, kSingle888ThreeChannel);
    b.cpu.write(kIntEn, kImgDone);
    b.pcif.start_stream();
    run_ns(1e6);
    CHECK(probe.rises == 1);
    CHECK((b.cpu.read(kIntFl) & kImgDone) != 0);
    b.cpu.write(kIntFl, kImgDone);  // write 1 to clear
    CHECK((b.cpu.read(kIntFl) & kImgDone) == 0);
}

TEST_CASE("Nothing is captured before the trigger's rising edge", "[camera][periph]") {
    Bench b;
    sc_core::sc_signal<bool> trig("trig");
    b.pcif.trigger.bind(trig);
    b.pcif.connect(row_of(1), CameraTiming{10, std::nullopt, 0});
    run_ns(0);
    b.cpu.write(kCtrl, kSingle888ThreeChannel);
    run_ns(1e5);
    CHECK(b.pcif.summary().words_captured == 0);
    CHECK(b.pcif.stall_reason() == "the camera stream was never started (the program did not write sim->trig)");
    trig.write(true);
    run_ns(1e5);
    CHECK(b.cpu.read(kFifoData) == pixel_word(0));
}

TEST_CASE("Both devices have the camera interface at the MSDK's address and interrupt", "[camera][periph]") {
    const auto pcif_of = [](const DeviceConfig& c) -> const PeripheralInstance* {
        for (const PeripheralDescription& p : c.registers->peripherals)
            for (const PeripheralInstance& i : p.instances)
                if (i.name == "PCIF") return &i;
        return nullptr;
    };
    const DeviceConfig max78000 = config();
    const DeviceConfig max78002 = load_device_config(AI8XSIM_SOURCE_DIR "/configs/max78002.yaml");
    const PeripheralInstance* a = pcif_of(max78000);
    const PeripheralInstance* b = pcif_of(max78002);
    REQUIRE(a);
    REQUIRE(b);
    CHECK(a->base == 0x4000E000);
    CHECK(b->base == 0x4000E000);
    CHECK(a->interrupt == 91);   // the MAX78000's numbering: cnn 101
    CHECK(b->interrupt == 107);  // the MAX78002's: cnn 117
    CHECK(a->interrupt - int(max78000.cnn_irq) == b->interrupt - int(max78002.cnn_irq));
}
