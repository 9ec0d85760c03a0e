// Random legal layer generator for the register-level differential test.
//
// A seed draws one layer the way a network description would state it (plain
// tensors, weights and bias, plus the placement choices the generator's user
// makes: processors, memory offsets, kernel offset, bias group) and then
// composes, independently of model/engine, the bus writes that the vendor's
// generator (ai8x-synthesis izer: backend/max7800x.py register composition,
// kernels.py kernel packing) would emit for it: per-layer registers of every
// used quadrant, data memory image, kernel words, bias bytes and the control
// sequence that starts the accelerator. The expected result comes from
// testbench/reference computed on the plain tensors.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "testbench/reference/layer_params.h"
#include "testbench/reference/tensor.h"
#include "tlm/device_config.h"

namespace ai8x::test {

struct BusWrite {
    uint64_t address;
    uint32_t value;
    unsigned bytes;  // 1 or 4
};

struct RandomLayer {
    uint64_t seed = 0;
    reference::LayerParams params;
    std::vector<reference::Tensor> inputs;  // element-wise operands, each (C, H, W); conv1d: W == 1
    reference::Weights weights;
    reference::Bias bias;  // empty: no bias

    // Placement (what the network author / generator chooses).
    std::vector<int> in_processors;  // global processor of channel c % size(), pass c / size()
    int in_passes = 1;               // multi-pass: input words per pixel and processor
    bool chw = false;                // CHW ("big data"): four pixels of one channel per word
    int out_first_processor = 0;     // output channel m goes to processor out_first_processor + m % out_positions
    int out_positions = 1;           // output processors; more channels take further output passes
    int out_passes = 1;              // output expansion: channel m is written in pass m / out_positions
    int weight_bits = 8;
    // Passthrough: per quadrant, the local processor where that quadrant's
    // outputs start (its input processors' channels are packed from there).
    std::vector<int> passthrough_out_start;
    uint32_t in_word = 0;      // read pointer (word inside each instance)
    uint32_t out_word = 0;     // write pointer (word inside each instance)
    int write_gap = 0;         // extra words between two output pixels
    uint32_t kernel_word = 0;  // first kernel memory word of every used processor
    int bias_quadrant = -1;
    uint32_t bias_offset = 0;

    // MAX78002 only (docs/random-layer-test.md): the layer's index among the
    // 128 (REG_LCNT_MAX starts and ends there), 1-bit weights of -1/+1
    // (REG_CTL.TIMESHFT), kernel bypass (every weight 1, no kernel memory)
    // and the read-ahead bits (LCTL.RD_AHEAD, POST.TCALC with several passes).
    int layer = 0;
    bool binary = false;
    bool bypass = false;
    bool read_ahead = false;
    // calcx4 (LREG_POST.CALCX4, 3x3 8-bit convolutions whose output channels
    // fill whole passes in groups of four): the kernels go to four blocks as
    // izer apbaccess.write_kern places the reordered kernel stream of
    // kernels.py; the mask range is one block (the generator's first layer)
    // or all four (its other layers).
    bool calcx4 = false;
    bool calcx4_one_block = false;
    // A snoop unit (1 or 2; 0: none) watches this layer's output words: one
    // word with its value (hit) or another value, or a range of words with a
    // range of top bytes (model/snoop.h); the test composes its registers from
    // the reference output and checks the accumulators afterwards.
    int snoop_unit = 0;
    bool snoop_hit = false;
    bool snoop_range = false;

    std::string describe() const;
};

// Whether `cfg` is a MAX78002-style description (layer-major registers with
// the kernel range split into LREG_MCNT1/LREG_MCNT2): the generator then draws
// and composes for that device.
bool max78002_layout(const DeviceConfig& cfg);

// Draws a legal layer from `seed` (deterministic for a given seed).
RandomLayer generate_random_layer(uint64_t seed, const DeviceConfig& cfg);

// Everything the firmware would write before the start, in order: control
// registers, per-layer registers, kernel words (four-write protocol), bias
// bytes, input data words.
std::vector<BusWrite> compose_layer_writes(const RandomLayer& layer, const DeviceConfig& cfg);

// The REG_CTL writes of cnn_start(): slaves first with the run bit, then the
// master without and with it.
std::vector<BusWrite> compose_start_writes(const RandomLayer& layer, const DeviceConfig& cfg);

// Quadrants whose registers the layer uses (input, output and bias quadrants).
std::vector<int> used_quadrants(const RandomLayer& layer, const DeviceConfig& cfg);

// Bus address of the data memory word holding output channel `m` at output
// pixel `pixel`, and the byte lane (8-bit output) inside it; 32-bit outputs
// use the whole word (lane 0).
struct OutputLocation {
    uint64_t address;
    unsigned lane;
};
OutputLocation output_location(const RandomLayer& layer, const DeviceConfig& cfg, int m, int pixel);

}  // namespace ai8x::test
