// The parallel camera interface (PCIF) as a SoC peripheral (configs
// peripherals PCIF; the registers of the MSDK's cameraif_regs.h): the pins
// fed by a camera waveform (CameraStream), the capture logic that packs
// their bytes into words (PixelCapture), the word FIFO the firmware reads
// through FIFO_DATA (CameraFifo), and the flags and interrupt around them.
//
// The stream starts at the rising edge of `trigger` (run_test.sv's
// @(posedge sim.trig[0]); the testbench block drives it when the program
// writes sim->trig); without a trigger bound, when capture is first enabled
// (a free-running camera). The pins are evaluated lazily: every register access
// first applies the waveform's rows up to the access's instant, so a program
// that polls INT_FL sees words arrive at the pace of the pixel clock, and a
// slow camera stalls whatever waits for its words. While an interrupt is
// enabled, a process also wakes at the next row that produces something.
// docs/camera.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <systemc>

#include "firmware/host/camera/camera_fifo.h"
#include "firmware/host/camera/camera_stream.h"
#include "firmware/host/camera/pixel_capture.h"
#include "registers/soc.h"

namespace ai8x {

class CameraInterface : public Peripheral {
public:
    // trig[0] of the testbench block (optional): its rising edge starts the stream.
    sc_core::sc_port<sc_core::sc_signal_in_if<bool>, 1, sc_core::SC_ZERO_OR_MORE_BOUND> trigger;

    SC_HAS_PROCESS(CameraInterface);
    CameraInterface(sc_core::sc_module_name name, const DeviceConfig& cfg);

    // What the pins are fed with (before the simulation runs). Without a
    // feed the pins stay low and nothing is captured.
    void connect(CameraWaveform wave, CameraTiming timing);
    bool connected() const { return stream_.has_value(); }
    // Starts the stream now (what a rising trigger does).
    void start_stream();

    struct Summary {
        bool connected = false, started = false, finished = false;
        std::size_t rows_applied = 0, rows = 0;
        uint64_t words_captured = 0, words_read = 0, words_lost = 0, frames = 0;
        std::string source, pace;
    };
    Summary summary() const;
    // Why a program waiting for camera data would wait forever, or empty:
    // "the camera waveform input.csv ended at its last row (276870 rows)
    // after 15360 words, all read". For a run that ends at its timeout.
    std::string stall_reason() const;

    const char* kind() const override { return "ai8x_camera_interface"; }

private:
    void end_of_elaboration() override;
    void interrupt_watch();
    // Applies the waveform up to `now_ps`.
    void catch_up(uint64_t now_ps);
    uint64_t access_instant_ps();
    void take(const CaptureEvent& ev);
    CaptureConfig capture_config() const;
    void update_irq();
    void schedule_wake();

    uint32_t read_int_fl();
    uint32_t read_fifo_data();
    void write_ctrl(uint32_t value);
    void write_timing_codes(uint32_t value);
    void write_int_en(uint32_t value);
    void write_int_fl(uint32_t value);

    regs::pcif::VER VER{*this};
    regs::pcif::FIFO_SIZE FIFO_SIZE{*this};
    regs::pcif::CTRL CTRL{*this};
    regs::pcif::INT_EN INT_EN{*this};
    regs::pcif::INT_FL INT_FL{*this};
    regs::pcif::DS_TIMING_CODES DS_TIMING_CODES{*this};
    regs::pcif::FIFO_DATA FIFO_DATA{*this};

    std::optional<CameraStream> stream_;
    PixelCapture capture_;
    CameraFifo fifo_;
    sc_core::sc_event wake_;
};

}  // namespace ai8x
