#include "model/stream/stream_plan.h"

#include <algorithm>
#include <string>

#include "model/fifo/fast_fifo_routing.h"
#include "model/registers/quadrant_registers.h"
#include "model/registers/register_fields.h"
#include "model/sequencing.h"

namespace ai8x {

namespace {

void plan_warning(StreamPlan& p, int quadrant, int layer, const std::string& reg, const std::string& msg) {
    p.warnings.push_back({quadrant, layer, reg, msg, "", 1});  // no kind: every static check is kept
}

// log2 of the words of one data memory instance: the low bits of a pointer.
unsigned word_bits(const DeviceConfig& cfg) { return cfg.data_sram.pointer_shift(); }

struct Range {
    uint32_t instance, begin, end;  // words [begin, end) of a global instance
};

bool overlap(const Range& a, const Range& b) { return a.instance == b.instance && a.begin < b.end && b.begin < a.end; }

// The instances a layer reads: one per group of processors sharing a memory.
std::vector<uint32_t> read_instances(const DeviceConfig& cfg, const LayerConfig& c) {
    std::vector<uint32_t> out;
    for (const auto& p : c.processors) {
        const uint32_t inst = static_cast<uint32_t>(p.global) / cfg.processors_per_data_sram;
        if (std::find(out.begin(), out.end(), inst) == out.end()) out.push_back(inst);
    }
    return out;
}

// Fields of one chain layer that the generator never writes so.
void check_layer_fields(StreamPlan& p, const StreamLayer& s, uint32_t earlier_passes) {
    const int l = s.layer();
    const int q = s.cfg.lead_quadrant;
    if (s.start == 0) plan_warning(p, q, l, "LREG_STREAM1", "stream start is 0 in a streaming layer");
    if (s.fifo_go) plan_warning(p, q, l, "LREG_STREAM1", "FIFO_GO set; this device has no FIFO_GO, bit stored only");
    if (s.fmax % s.cfg.passes != 0)
        plan_warning(p, q, l, "LREG_FMAX",
                     "rollover " + std::to_string(s.fmax) + " is not a multiple of the " +
                         std::to_string(s.cfg.passes) + " input passes; ring slots drift between passes");
    if (s.invol != earlier_passes)
        plan_warning(p, q, l, "LREG_STREAM2",
                     "INVOL " + std::to_string(s.invol) + " differs from the sum of earlier passes " +
                         std::to_string(earlier_passes));
    if (s.cfg.flatten) plan_warning(p, q, l, "LREG_POST", "flatten in a streaming layer");
    if (s.cfg.conv_transpose || s.cfg.conv1d)
        plan_warning(
            p, q, l, "LREG_ONED",
            "1-D or transposed convolution in a streaming layer: the scan model assumes a 2-D stride-1 kernel");
    if (s.cfg.operands > 1)
        plan_warning(p, q, l, "LREG_ONED",
                     "element-wise operands in a streaming layer: rings hold interleaved operands");
}

// The TRAM entries and input rings of the chain layers must not overlap.
void check_overlaps(const DeviceConfig& cfg, StreamPlan& p, const StreamLayer& s,
                    std::vector<std::pair<int, std::pair<uint32_t, uint32_t>>>& trams, std::vector<Range>& rings) {
    const int l = s.layer();
    const int q = s.cfg.lead_quadrant;
    for (const auto& t : trams)
        if (s.tptr_sad <= t.second.second && t.second.first <= s.tptr_max)
            plan_warning(p, q, l, "LREG_TPTR",
                         "TRAM entries " + std::to_string(s.tptr_sad) + ".." + std::to_string(s.tptr_max) +
                             " overlap those of streaming layer " + std::to_string(t.first));
    trams.push_back({l, {s.tptr_sad, s.tptr_max}});
    for (uint32_t inst : read_instances(cfg, s.cfg)) {
        const Range r{inst, s.ring_offset, s.ring_offset + s.fmax};
        for (const Range& o : rings)
            if (overlap(r, o))
                plan_warning(p, q, l, "LREG_FMAX",
                             "input ring (instance " + std::to_string(inst) + ", words " + std::to_string(r.begin) +
                                 ".." + std::to_string(r.end - 1) + ") overlaps another streaming layer's ring");
        rings.push_back(r);
    }
}

// A consumer reads what its producer writes: the same size, passes interleaved
// per pixel. The MAX78002's row count ends at the last pooling window (the
// generator writes the last row read, layer_config.cpp decode_counts): the
// producer's rows below it, fewer than a pool stride, are never read.
void check_producer(StreamPlan& p, const StreamLayer& prod, const StreamLayer& s) {
    const LayerConfig& c = s.cfg;
    const bool rows_read =
        prod.out_rows == c.in_rows ||
        (prod.out_rows > c.in_rows && (prod.out_rows - c.pool_rows) / c.pool_stride + 1 == c.pooled_rows);
    if (prod.out_cols != s.cfg.in_cols || !rows_read)
        plan_warning(p, s.cfg.lead_quadrant, s.layer(), "LREG_CCNT",
                     "input " + std::to_string(s.cfg.in_rows) + "x" + std::to_string(s.cfg.in_cols) +
                         " differs from the producer's output " + std::to_string(prod.out_rows) + "x" +
                         std::to_string(prod.out_cols) + "; stream progress is counted in producer pixels");
    if (prod.cfg.write_pass_offset >= prod.cfg.write_stride && prod.cfg.output_passes > 1)
        plan_warning(p, prod.cfg.lead_quadrant, prod.layer(), "LREG_WPTR_CHOFFS",
                     "output passes are not interleaved per pixel (pass offset >= write stride) although the "
                     "next layer streams");
}

// The last chain layer's output must lie outside every ring.
void check_last_output(const DeviceConfig& cfg, StreamPlan& p, const std::vector<Range>& rings) {
    const unsigned bits = word_bits(cfg);
    const uint32_t mask = (1u << bits) - 1;
    const StreamLayer& last = p.chain.back();
    const LayerConfig& c = last.cfg;
    const uint64_t span = uint64_t{last.out_rows} * last.out_cols * c.write_stride +
                          uint64_t{c.output_passes > 0 ? c.output_passes - 1 : 0} * c.write_pass_offset;
    const uint32_t groups = (c.channel_positions + 3) / 4;
    for (uint32_t g = 0; g < groups; ++g) {
        const uint64_t ptr = c.write_base + uint64_t{g} * c.write_group_offset;
        const Range out{static_cast<uint32_t>(ptr >> bits), static_cast<uint32_t>(ptr & mask),
                        static_cast<uint32_t>(std::min<uint64_t>((ptr & mask) + span, cfg.data_sram.words))};
        for (const Range& r : rings)
            if (overlap(out, r)) {
                plan_warning(p, c.lead_quadrant, c.layer, "LREG_WPTR_BASE",
                             "output of the last streaming layer overlaps a streaming input ring (instance " +
                                 std::to_string(r.instance) + ")");
                break;
            }
    }
}

// Layer 0 is fed by the FIFOs: its ring must hold the start threshold and one pooling window.
void check_fifo_ring(StreamPlan& p) {
    const StreamLayer& s = p.chain.front();
    const LayerConfig& c = s.cfg;
    const uint64_t ring_pixels = uint64_t{s.fmax} * p.pixels_per_word() / c.passes;
    const uint64_t window = uint64_t{c.pool_rows - 1} * c.in_cols + c.pool_cols;
    if (s.start > ring_pixels)
        plan_warning(p, c.lead_quadrant, c.layer, "LREG_STREAM1",
                     "stream start " + std::to_string(s.start) + " pixels exceeds the input ring of " +
                         std::to_string(ring_pixels) + " pixels: the stream cannot start without overwriting data");
    if (ring_pixels < window)
        plan_warning(p, c.lead_quadrant, c.layer, "LREG_FMAX",
                     "input ring of " + std::to_string(ring_pixels) + " pixels cannot hold one pooling window (" +
                         std::to_string(window) + " pixels)");
    const uint32_t ops = c.operands;
    const uint32_t d1 = (c.pool_stride - 1) * ops;
    const uint32_t d2 = (c.pool_rows - 1) * c.in_cols * ops;
    if (s.delta1 != d1 || s.delta2 != d2)
        plan_warning(p, c.lead_quadrant, c.layer, "LREG_STREAM2",
                     "layer 0 deltas " + std::to_string(s.delta1) + "/" + std::to_string(s.delta2) +
                         " differ from the generator's " + std::to_string(d1) + "/" + std::to_string(d2) +
                         "; their role for the FIFO-fed layer is not modelled");
}

void static_checks(const AcceleratorState& state, StreamPlan& p) {
    uint32_t earlier_passes = 0;
    std::vector<Range> rings;
    std::vector<std::pair<int, std::pair<uint32_t, uint32_t>>> trams;
    for (std::size_t k = 0; k < p.chain.size(); ++k) {
        const StreamLayer& s = p.chain[k];
        check_layer_fields(p, s, earlier_passes);
        // calcx4 layers take their passes in fours (izer in_expand_invol).
        earlier_passes += s.cfg.calcx4 ? (s.cfg.passes + 3) / 4 * 4 : s.cfg.passes;
        check_overlaps(state.cfg, p, s, trams, rings);
        if (k > 0) check_producer(p, p.chain[k - 1], s);
    }
    if (!p.chain.empty()) check_last_output(state.cfg, p, rings);
    if (!p.chain.empty() && p.fifo_mode) check_fifo_ring(p);
}

// Master, layer range, FIFO enables and frame size from the sequencing rules and REG_CTL.
bool plan_master(const AcceleratorState& state, const SequencePlan& seq, StreamPlan& p) {
    const RegisterFields& f = register_fields(state.cfg);
    p.warnings = seq.warnings;  // FIFO mode reports them with the plan's (StreamSession::finish)
    p.quadrants = seq.enabled_quadrants;
    if (seq.master < 0) return false;
    p.master = seq.master;
    const QuadrantRegisters& mq = state.quadrant[seq.master];
    p.last_layer = seq.last_layer;
    p.first_layer = seq.first_layer;
    p.fifo_mode = seq.fifo_mode;
    p.streaming = seq.streaming;
    // The fast FIFO feeds FIFO 0, or all four (model/fifo/fast_fifo_routing.h);
    // FIFO_CTL's enables are for the standard FIFOs.
    if (f.REG_CTL.FFIFO_EN.is_set(mq.ctl))
        p.fifo_enables = fast_fifo_targets(fast_fifo_routing(f, mq.ctl), state.cfg.fifo_count);
    else
        p.fifo_enables = f.FIFO_CTL.FIFO_ENA.get(state.fifo_ctl);
    p.frame_words = f.REG_IFRM.IFRM.get(mq.ifrm);
    return seq.layer_range_valid;
}

// The FIFO-fed first layer: its format, start threshold and frame size.
void plan_fifo_input(const AcceleratorState& state, StreamPlan& p, std::vector<EngineWarning>& decode_warnings) {
    const RegisterFields& f = register_fields(state.cfg);
    const int l0 = p.first_layer;
    if (p.fifo_mode) {
        if (std::optional<LayerConfig> c0 = decode_layer(state, l0, p.quadrants, decode_warnings)) {
            p.chw = c0->chw_input;
            p.layer0_start = f.LREG_STREAM1.STREAM_START.get(state.quadrant[c0->lead_quadrant].lreg[LREG_STREAM1][l0]);
            const uint64_t pixels = uint64_t{c0->in_rows} * c0->in_cols;
            const uint64_t expect = c0->chw_input ? (pixels + 3) / 4 : pixels;
            if (p.frame_words == 0)
                plan_warning(p, p.master, l0, "REG_IFRM", "input frame size is 0 in FIFO mode");
            else if (p.frame_words != expect)
                plan_warning(p, p.master, l0, "REG_IFRM",
                             "frame of " + std::to_string(p.frame_words) + " words per FIFO, layer " +
                                 std::to_string(l0) + " reads " + std::to_string(expect));
        }
        if (p.fifo_enables == 0) plan_warning(p, p.master, l0, "FIFO_CTL", "FIFO mode without any enabled FIFO");
    }
    if (p.streaming && p.fifo_mode && !f.REG_CTL.LILBUF.is_set(state.quadrant[p.master].ctl))
        plan_warning(p, p.master, l0, "REG_CTL",
                     "streaming with FIFOs but LILBUF clear; generated firmware always sets it");
}

// One chain layer from its lead quadrant's stream registers and its decoded
// configuration; other enabled quadrants must agree.
StreamLayer chain_layer(const AcceleratorState& state, StreamPlan& p, const LayerConfig& c) {
    const DeviceConfig& cfg = state.cfg;
    const RegisterFields& f = register_fields(cfg);
    const int q = c.lead_quadrant, l = c.layer;
    auto lreg = [&](int quadrant, unsigned kind) { return state.quadrant[quadrant].lreg[kind][l]; };
    StreamLayer s;
    const uint32_t s1 = lreg(q, LREG_STREAM1), s2 = lreg(q, LREG_STREAM2), tp = lreg(q, LREG_TPTR);
    s.start = f.LREG_STREAM1.STREAM_START.get(s1);
    s.fifo_go = f.LREG_STREAM1.FIFO_GO.is_set(s1);
    s.invol = f.LREG_STREAM2.INVOL.get(s2);
    s.delta1 = f.LREG_STREAM2.DELTA1.get(s2);
    s.delta2 = f.LREG_STREAM2.DELTA2.get(s2);
    s.fmax = f.LREG_FMAX.FBUF_MAX.get(lreg(q, LREG_FMAX));
    s.tptr_max = f.LREG_TPTR.TPTR_MAX.get(tp);
    s.tptr_sad = f.LREG_TPTR.TPTR_SAD.get(tp);
    s.scan_rows = c.pooled_rows + 2 * c.pad_rows;
    s.scan_cols = c.pooled_cols + 2 * c.pad_cols;
    s.out_rows = s.scan_rows >= c.kernel_rows ? s.scan_rows - c.kernel_rows + 1 : 0;
    s.out_cols = s.scan_cols >= c.kernel_cols ? s.scan_cols - c.kernel_cols + 1 : 0;
    s.ring_offset = c.read_base & ((1u << word_bits(cfg)) - 1);
    for (int oq : p.quadrants) {
        if (oq == q || f.LREG_ENA.PRO_EN.get(lreg(oq, LREG_ENA)) == 0) continue;
        for (unsigned kind :
             {unsigned(LREG_STREAM1), unsigned(LREG_STREAM2), unsigned(LREG_FMAX), unsigned(LREG_RPTR_BASE)})
            if (lreg(oq, kind) != lreg(q, kind))
                plan_warning(p, oq, l, layer_register_name(cfg, kind),
                             "differs from quadrant " + std::to_string(q) + "; using quadrant " + std::to_string(q));
    }
    s.cfg = c;
    return s;
}

// The streaming chain (§2.7): consecutive streaming layers from the first on.
// Returns the first layer after it.
int build_chain(const AcceleratorState& state, const SequencePlan& seq, StreamPlan& p,
                std::vector<EngineWarning>& decode_warnings) {
    int l = p.first_layer;
    if (!p.streaming) return l;
    for (; l <= p.last_layer; ++l) {
        // The lead quadrant of a layer is the first enabled quadrant with processors;
        // the generator writes the same stream values to every used quadrant.
        std::optional<LayerConfig> c = decode_layer(state, l, p.quadrants, decode_warnings);
        if (!c || !layer_streams(state, seq, c->lead_quadrant, l)) break;
        if (p.chain.size() == state.cfg.max_stream_layers) {
            plan_warning(p, c->lead_quadrant, l, "LREG_FMAX",
                         "more than " + std::to_string(state.cfg.max_stream_layers) +
                             " streaming layers; the rest run as non-streaming layers");
            break;
        }
        p.chain.push_back(chain_layer(state, p, *c));
    }
    if (p.chain.empty())
        plan_warning(p, p.master, p.first_layer, "LREG_FMAX",
                     "REG_CTL streaming bit set but layer " + std::to_string(p.first_layer) +
                         " has no rollover; nothing streams");
    return l;
}

// Rollover values after the chain mean the registers intended a longer or gapped chain.
void check_after_chain(const AcceleratorState& state, StreamPlan& p, int after) {
    const RegisterFields& f = register_fields(state.cfg);
    for (int k = after + (p.streaming ? 1 : 0); k <= p.last_layer; ++k)
        for (int q : p.quadrants)
            if (f.LREG_FMAX.FBUF_MAX.get(state.quadrant[q].lreg[LREG_FMAX][k]) != 0) {
                plan_warning(p, q, k, "LREG_FMAX",
                             p.streaming ? "rollover set on a layer after the streaming chain ended; ignored"
                                         : "rollover set while REG_CTL streaming bit is clear; ignored");
                break;
            }
}

}  // namespace

StreamPlan make_stream_plan(const AcceleratorState& state) {
    StreamPlan p;
    p.device = &state.cfg;
    p.release_on_window = state.cfg.stream_release_on_window;
    // Quadrants, master and layer range: model/sequencing.h.
    const SequencePlan seq = plan_sequence(state);
    if (!plan_master(state, seq, p)) return p;
    std::vector<EngineWarning> decode_warnings;
    plan_fifo_input(state, p, decode_warnings);
    const int after = build_chain(state, seq, p, decode_warnings);
    check_after_chain(state, p, after);
    static_checks(state, p);
    return p;
}

}  // namespace ai8x
