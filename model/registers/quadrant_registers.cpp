// Field tables of the quadrant registers. Bit positions were worked out from how
// the network generator composes each value and from the register comments it
// emits; docs/register-map.md explains them in prose. Every register stores all
// 32 written bits: bits outside the listed fields are kept as written because
// nothing documents how the silicon treats them, and the layer engine decides
// what it reads.
#include "model/registers/quadrant_registers.h"

namespace ai8x {

namespace {

std::vector<RegisterDef> global_registers(const DeviceConfig& cfg) {
    return {
        {"REG_CTL", REG_CTL_OFFSET, 0, RegAccess::RW, "quadrant control and status",
         {{"CNN_EN", 0, 1, "start/run; the master quadrant's write of 1 starts the sequencer"},
          {"RDY_SEL", 1, 2, "memory ready wait states"},
          {"CLK_EN", 3, 1, "quadrant clock enable"},
          {"CALCMAX", 4, 1, "external ready (CALCMAX)"},
          {"POOL_EN", 5, 1, "pipeline disable / pooling enable"},
          {"BIGDATA", 6, 1, "first streaming layer uses big-data (HWC) input"},
          {"APBCLK_EN", 7, 1, "keep APB clock running (snoop loop)"},
          {"ONESHOT", 8, 1, "run one layer per start"},
          {"EXT_SYNC", 9, 3, "[1:0] master quadrant number, [2] wait for the master (slave)"},
          {"CNN_IRQ", 12, 1, "inference complete; interrupt pending until cleared"},
          {"POOLRND", 13, 1, "round average pooling"},
          {"STREAM_EN", 14, 1, "streaming mode"},
          {"FIFO_EN", 15, 1, "input FIFO enabled for this quadrant"},
          {"MLAT_LD", 16, 1, "load read latency data from REG_MLAT"},
          {"MLATCH_SEL", 17, 2, "read latency select"},
          {"LILBUF", 19, 1, "small FIFO buffer for streaming"},
          {"MEXPRESS", 20, 1, "packed (express) kernel memory loading"},
          {"SIMPLE1B", 21, 1, "simple 1-bit weights"},
          {"FFIFO_EN", 22, 1, "fast FIFO enable"},
          {"FIFOGRP", 23, 1, "FIFO group mode"},
          {"FCLK_DLY", 24, 6, "FIFO clock delay"},
          {"TIMESHFT", 30, 1, "binary quantization / time shift"},
          {"QUPAC", 31, 1, "quad-packed fast FIFO"}}},
        {"REG_SRAM", REG_SRAM_OFFSET, 0, RegAccess::RW, "SRAM power and timing control (0x40e from firmware)",
         {{"EXTACC", 0, 1, "external access"},
          {"RMARGIN_EN", 1, 1, "read margin enable"},
          {"RMARGIN", 2, 4, "read margin"},
          {"RA", 6, 2, "read assist"},
          {"WNEG_VOL", 8, 2, "negative write voltage"},
          {"WNEG_EN", 10, 1, "negative write voltage enable"},
          {"WPULSE", 11, 3, "write pulse width"},
          {"DS", 15, 1, "deep sleep"},
          {"PD", 16, 1, "power down"},
          {"LSDRAM", 19, 1, "light sleep data memory"},
          {"LSMRAM", 20, 1, "light sleep kernel memory"},
          {"LSTRAM", 21, 1, "light sleep TRAM"},
          {"LSBRAM", 22, 1, "light sleep bias memory"}}},
        {"REG_LCNT_MAX", REG_LCNT_MAX_OFFSET, 0, RegAccess::RW, "last layer and start layer",
         {{"LCNT", 0, 5, "index of the last layer to run"}, {"START", 8, 5, "first layer (0 on this device)"}}},
        {"REG_SRAM_TEST", REG_SRAM_TEST_OFFSET, 0, RegAccess::RW, "memory built-in self test (stored only)",
         {{"BIST_DATA_EX", 0, 1, "run data memory BIST"},
          {"BIST_MASK_EX", 2, 1, "run kernel memory BIST"},
          {"BIST_TRAM_EX", 4, 1, "run TRAM BIST"},
          {"BIST_BIAS_EX", 6, 1, "run bias memory BIST"}}},
        {"REG_IFRM", cfg.layer_register_offset + uint64_t(LREG_IFRM_SLOT) * cfg.layer_register_stride, 0,
         RegAccess::RW, "streaming input frame size (occupies per-layer slot 19 of layer 0)",
         {{"IFRM", 0, 20, "input frame size in words per FIFO"}}},
        {"REG_MLAT", cfg.mlat_offset, 0, RegAccess::RW, "read latency data", {{"MLATDAT", 0, 32, "latency data"}}},
    };
}

const std::vector<LayerRegisterInfo> kLayerTable = {
    {LREG_RCNT, "LREG_RCNT", "row count",
     {{"RCNT_MAX", 0, 10, "last row index including padding"}, {"RCNT_PAD", 16, 2, "rows of top padding"}}},
    {LREG_CCNT, "LREG_CCNT", "column count",
     {{"CCNT_MAX", 0, 10, "last column index including padding"}, {"CCNT_PAD", 16, 2, "columns of left padding"}}},
    {LREG_ONED, "LREG_ONED", "1-D convolution and element-wise control",
     {{"TSCNT_MAX", 0, 4, "last time slot (passes - 1)"},
      {"ONED_SAD", 4, 4, "kernel start offset for 1-D"},
      {"ONED_WIDTH", 8, 4, "1-D kernel width / 1x1 flag (bit 8)"},
      {"ONED_EN", 12, 1, "1-D convolution"},
      {"EWISE_EN", 13, 1, "element-wise operation"},
      {"EWISE_FUNC", 14, 2, "element-wise function (sub, add, or, xor)"},
      {"PREPOOL", 16, 1, "pool before the element-wise operation"},
      {"2D_CONV", 17, 1, "convolution after the element-wise operation"},
      {"EWISE_CNT", 18, 4, "element-wise operand count - 1"}}},
    {LREG_PRCNT, "LREG_PRCNT", "pooling rows",
     {{"PRCNT_MAX", 0, 4, "(pool rows - 1) * dilation"}, {"PRCNT_INC", 4, 4, "pool row dilation - 1"}}},
    {LREG_PCCNT, "LREG_PCCNT", "pooling columns",
     {{"PCCNT_MAX", 0, 4, "(pool columns - 1) * dilation"}, {"PCCNT_INC", 4, 4, "pool column dilation - 1"}}},
    {LREG_STRIDE, "LREG_STRIDE", "stride", {{"STRIDE", 0, 2, "stride - 1"}, {"MP_STRIDE", 4, 17, "multi-pass stride"}}},
    {LREG_WPTR_BASE, "LREG_WPTR_BASE", "output write pointer base",
     {{"WPTR_BASE", 0, 17, "word address in data memory: instance (bits 16:13) and word"}}},
    {LREG_WPTR_TOFFS, "LREG_WPTR_TOFFS", "write pointer time-slot offset", {{"WPTR_TOFF", 0, 17, "offset per pass"}}},
    {LREG_WPTR_MOFFS, "LREG_WPTR_MOFFS", "write pointer mask offset", {{"WPTR_MOFF", 0, 17, "offset per mask group"}}},
    {LREG_WPTR_CHOFFS, "LREG_WPTR_CHOFFS", "write pointer channel offset",
     {{"WPTR_CHOFF", 0, 17, "offset between output channel groups (32-bit output)"}}},
    {LREG_RPTR_BASE, "LREG_RPTR_BASE", "input read pointer base", {{"RPTR_BASE", 0, 17, "word address in data memory"}}},
    {LREG_LCTL, "LREG_LCTL", "layer control",
     {{"SSLAVE", 0, 4, "slave select"},
      {"MSLAVE", 4, 1, "mask slave"},
      {"MASTER", 5, 1, "master (always set)"},
      {"PARALLEL", 6, 1, "big data / parallel input"},
      {"POOL_EN", 7, 1, "pooling enabled"},
      {"MAXPL_EN", 8, 1, "max pooling (clear: average)"},
      {"ACT_EN", 9, 1, "ReLU activation"},
      {"CPAD_ONLY", 10, 1, "channel padding only"},
      {"SRAMLSRC", 11, 1, "read input from other quadrants' memory"},
      {"CNNSI_EN", 12, 4, "sum partial results of these quadrants"},
      {"BIGDWRT", 16, 1, "32-bit output"},
      {"BROADCAST", 29, 1, "broadcast mode (depth-wise with groups)"},
      {"BYPASS", 30, 1, "bypass the multiplier"}}},
    {LREG_MCNT, "LREG_MCNT", "kernel memory range",
     {{"MCNT_MAX", 0, 16, "last kernel memory word"}, {"MCNT_SAD", 16, 16, "first kernel memory word"}}},
    {LREG_TPTR, "LREG_TPTR", "TRAM pointer",
     {{"TPTR_MAX", 0, 12, "last TRAM address"}, {"TPTR_SAD", 16, 12, "TRAM start address"}}},
    {LREG_ENA, "LREG_ENA", "processor enables",
     {{"PRO_EN", 0, 16, "enabled processors"}, {"MASK_EN", 16, 16, "enabled kernel masks"}}},
    {LREG_POST, "LREG_POST", "post-processing",
     {{"BPTR_SAD", 0, 12, "bias memory start"},
      {"BPTR_EN", 12, 1, "add bias"},
      {"SCALE_REG", 13, 4, "output shift amount"},
      {"SCALE_SHFT", 17, 1, "output shift direction (1: right)"},
      {"XPMP_CNT", 18, 4, "flatten pass count, upper bits"},
      {"MASK_SIZE", 22, 2, "weight width (0: 8, 1: 1, 2: 2, 3: 4 bits)"},
      {"TS_EN", 24, 1, "time-slot / passthrough enable"},
      {"ONEXONE_EN", 25, 1, "1x1 passthrough"},
      {"OUT_ABS", 26, 1, "absolute value activation"},
      {"FLATTEN_EN", 27, 1, "flatten"},
      {"DECONV_EN", 28, 1, "transposed convolution"},
      {"CALCX4", 29, 1, "calcx4 kernel layout"},
      {"DW_EN", 30, 1, "depth-wise (channel-wise) convolution"},
      {"TCALC", 31, 1, "tcalc"}}},
    {LREG_STREAM1, "LREG_STREAM1", "streaming start",
     {{"STREAM_START", 0, 14, "producer progress before the first read (layer 0: input pixels)"},
      {"FIFO_GO", 25, 1, "not on this device; stored only"}}},
    {LREG_STREAM2, "LREG_STREAM2", "streaming deltas",
     {{"INVOL", 0, 4, "sum of earlier layers' input passes"},
      {"DELTA1", 4, 5, "threshold increase per column step"},
      {"DELTA2", 16, 12, "threshold increase per row step"}}},
    {LREG_FMAX, "LREG_FMAX", "streaming frame buffer rollover", {{"FBUF_MAX", 0, 17, "input ring size in words (0: no ring)"}}},
    {LREG_LCTL2, "LREG_LCTL2", "layer control 2",
     {{"INPCHEXP", 0, 4, "input channel expansion (passes - 1)"},
      {"WPTR_INC", 4, 4, "write pointer increment"},
      {"XPCH_MAX", 8, 9, "output channel span times weight width"}}},
};

}  // namespace

const std::vector<LayerRegisterInfo>& layer_register_table() { return kLayerTable; }

std::string layer_register_name(unsigned kind) {
    for (const LayerRegisterInfo& i : kLayerTable)
        if (i.kind == kind) return i.name;
    return "LREG_" + std::to_string(kind);
}

void add_quadrant_registers(RegisterBank& bank, QuadrantRegisters& regs, const DeviceConfig& cfg) {
    uint32_t* const global_cells[] = {&regs.ctl, &regs.sram, &regs.lcnt_max, &regs.sram_test, &regs.ifrm, &regs.mlat};
    const std::vector<RegisterDef> globals = global_registers(cfg);
    for (size_t i = 0; i < globals.size(); ++i) bank.add(globals[i], global_cells[i]);

    for (const LayerRegisterInfo& info : kLayerTable) {
        if (info.kind >= cfg.layer_register_count) continue;  // a device with fewer kinds
        for (uint32_t layer = 0; layer < cfg.max_layers; ++layer) {
            RegisterDef d;
            d.name = "L" + std::to_string(layer) + "_" + info.name;
            d.offset = cfg.layer_register_offset + uint64_t(info.kind) * cfg.layer_register_stride + 4ull * layer;
            d.meaning = info.meaning;
            d.fields = info.fields;
            bank.add(std::move(d), &regs.lreg[info.kind][layer]);
        }
    }
}

}  // namespace ai8x
