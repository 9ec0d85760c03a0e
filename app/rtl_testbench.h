// What the vendor's run_test.sv does while the CNN runs, for an RTL-simulation
// folder on the virtual board (docs/rtl-flow.md):
//  - at the first rise of the CNN enable (quadrant 0 starts an inference) its
//    load_cnn_mems_N tasks load the preload files of quadrant N (data/*.dat,
//    masks/*.dat) into the memory instances the device description names;
//  - at the fall (the inference completes) its dump_cnn_mems_N tasks dump the
//    data memories of quadrant N, and it prints "CNN Cycles = N", measured
//    from the rise to the fall as run_test.sv measures it (a FIFO-fed
//    inference's processors start when the frame is in: frame_wait_cycles()).
// Afterwards the dumps are compared with data-expected/*.dat (the comparison
// the folder's verify-output.py makes, naming the first mismatch) and, with a
// run folder, written there in the testbench's format.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/rtl_folder.h"
#include "app/rtl_memory_file.h"
#include "model/registers/register_fields.h"
#include "tlm/bus_observer.h"
#include "tlm/device_config.h"

namespace ai8x {

class Accelerator;

// One memory file of the folder, resolved to the memory part it names.
struct RtlFileOfPart {
    const RtlMemoryFiles* kind = nullptr;
    RtlMemoryPart part;
    std::string path;  // in the folder
    std::vector<MemoryFileWord> words;
};

// A part's words at the fall of the CNN enable.
struct RtlDump {
    const RtlMemoryFiles* kind = nullptr;
    RtlMemoryPart part;
    std::vector<uint32_t> words;
    std::vector<uint8_t> written;
    int last_layer = -1;  // the last layer of the inference that wrote the instance (-1: none)
};

// The first word of an expected dump that the model's dump does not match.
struct RtlMismatch {
    std::string file;      // data-expected/NAME
    std::string instance;  // cnn.q0.p4.sram
    uint64_t word = 0;     // address in the file (word of the part)
    uint64_t bus_address = 0;
    std::string expected, got;  // hex digits as the files write them (x: unknown / never written)
    int layer = -1;             // last layer that wrote the instance (-1: none did)
    uint64_t mismatches = 0;    // in all expected files
    uint64_t matches = 0;
    std::string summary() const;
};

class RtlTestbench : public BusObserver {
public:
    // Reads the folder's preload and expected files. Throws MemoryFileError or
    // RtlFolderError naming the file (and line) when one is malformed or names
    // no memory part of the device.
    RtlTestbench(const DeviceConfig& cfg, const RtlFolder& folder, Accelerator& accel);

    // Sees the write that raises quadrant 0's CNN enable.
    void on_transaction(const BusEvent& ev) override;
    // The CNN interrupt line: its rise is the end of the inference.
    void on_irq(bool level);

    // Each line the testbench $displays ("CNN enabled", "CNN Cycles = N"), when it does.
    std::function<void(const std::string&)> on_display;
    // A preload the first layer needs is missing: the run cannot go on (exit 2).
    std::function<void(const std::string& problem)> on_bad_input;

    bool enabled() const { return start_.has_value(); }
    bool completed() const { return cnn_cycles_.has_value(); }
    std::optional<uint64_t> cnn_cycles() const { return cnn_cycles_; }
    // CNN cycles from the master enable to the processors' (CNN Cycles counts from there).
    uint64_t fifo_frame_wait() const { return frame_wait_; }
    const std::vector<std::string>& display_lines() const { return display_; }
    const std::vector<RtlDump>& dumps() const { return dumps_; }
    size_t preload_files() const { return preloads_.size(); }
    size_t expected_files() const { return expected_.size(); }

    // The dumps against data-expected/ (compared at the fall, as run_test.sv
    // runs verify-output.py then); nothing when every word matches or there
    // was no fall yet.
    const std::optional<RtlMismatch>& mismatch() const { return mismatch_; }
    // Words of data-expected/ that matched.
    uint64_t matched_words() const { return matched_words_; }

private:
    void load_preloads();
    void check_first_layer_input();
    uint64_t frame_wait_cycles() const;
    void take_dumps();
    void compare_expected();
    void display(const std::string& line);

    const DeviceConfig& cfg_;
    const RtlFolder& folder_;
    Accelerator& accel_;
    RegField cnn_en_;
    std::vector<RtlFileOfPart> preloads_, expected_;
    bool was_enabled_ = false;
    std::optional<sc_core::sc_time> start_;
    std::optional<uint64_t> cnn_cycles_;
    uint64_t frame_wait_ = 0;
    std::vector<RtlDump> dumps_;
    std::optional<RtlMismatch> mismatch_;
    uint64_t matched_words_ = 0;
    std::vector<std::string> display_;
};

}  // namespace ai8x
