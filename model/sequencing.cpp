#include "model/sequencing.h"

#include <string>

#include "model/registers/quadrant_registers.h"
#include "model/registers/register_fields.h"

namespace ai8x {

std::vector<int> SequencePlan::layers() const { return runs() ? order : std::vector<int>{}; }

namespace {

// The layer order: from the first layer on, each layer followed by the next
// index, or by NEXT_LAYER when its LINK_EN is set, until a layer with STOP or
// the last layer has run. Each layer runs once (a link back ends the walk).
std::vector<int> layer_order(const AcceleratorState& state, const SequencePlan& p, std::vector<EngineWarning>& w) {
    const LayerFields& f = register_fields(state.cfg).layer;
    const std::vector<uint32_t>& next = state.quadrant[p.master].lreg[LREG_NXTLYR];
    std::vector<int> out;
    std::vector<bool> ran(state.cfg.max_layers, false);
    for (int l = p.first_layer; l >= 0 && static_cast<uint32_t>(l) < state.cfg.max_layers && !ran[l];) {
        out.push_back(l);
        ran[l] = true;
        const uint32_t reg = next[l];
        if (l == p.last_layer || f.stop.is_set(reg)) break;
        if (f.link_en.is_set(reg)) {
            const int target = static_cast<int>(f.next_layer.get(reg));
            if (target > p.last_layer)
                w.push_back({p.master, l, "LREG_NXTLYR",
                             "links to layer " + std::to_string(target) + " beyond the last layer " +
                                 std::to_string(p.last_layer) + "; it runs"});
            l = target;
        } else {
            ++l;
        }
    }
    return out;
}

}  // namespace

bool runs_on_its_own(const AcceleratorState& state, int q) {
    const CtlFields& f = register_fields(state.cfg).ctl;
    const uint32_t ctl = state.quadrant[q].ctl;
    if (!f.cnn_en.is_set(ctl)) return false;
    const bool tethered = f.ext_sync.is_set(ctl) && f.master_sel.get(ctl) != static_cast<uint32_t>(q);
    return !tethered;
}

SequencePlan plan_sequence(const AcceleratorState& state) {
    const RegisterFields& f = register_fields(state.cfg);
    SequencePlan p;
    for (std::size_t q = 0; q < state.quadrant.size(); ++q)
        if (f.ctl.cnn_en.is_set(state.quadrant[q].ctl)) p.enabled_quadrants.push_back(static_cast<int>(q));
    if (p.enabled_quadrants.empty()) {
        p.warnings.push_back({-1, -1, "REG_CTL", "no quadrant enabled; nothing computed"});
        return p;
    }
    std::vector<int> masters;
    for (int q : p.enabled_quadrants)
        if (runs_on_its_own(state, q)) masters.push_back(q);
    if (masters.empty()) {
        p.warnings.push_back({p.enabled_quadrants.front(), -1, "REG_CTL",
                              "every enabled quadrant waits for another one (EXT_SYNC with MASTER_SEL naming another "
                              "quadrant); nothing computed"});
        return p;
    }
    p.master = masters.front();
    if (masters.size() > 1)
        p.warnings.push_back({masters[1], -1, "REG_CTL",
                              "quadrants " + std::to_string(masters.front()) + " and " + std::to_string(masters[1]) +
                                  " both run on their own; quadrant " + std::to_string(p.master) +
                                  "'s layer count rules"});

    const QuadrantRegisters& mq = state.quadrant[p.master];
    p.fifo_mode = f.ctl.fifo_en.is_set(mq.ctl);
    p.streaming = f.ctl.stream_en.is_set(mq.ctl);
    p.first_layer = static_cast<int>(f.lcnt.first.get(mq.lcnt_max));
    p.last_layer = static_cast<int>(f.lcnt.last.get(mq.lcnt_max));
    p.layer_range_valid = p.first_layer <= p.last_layer && static_cast<uint32_t>(p.last_layer) < state.cfg.max_layers;
    if (!p.layer_range_valid) {
        p.warnings.push_back({p.master, -1, "REG_LCNT_MAX",
                              "layer range " + std::to_string(p.first_layer) + ".." + std::to_string(p.last_layer) +
                                  " invalid; nothing computed"});
    } else if (static_cast<uint32_t>(p.first_layer) > state.cfg.max_start_layer) {
        p.warnings.push_back({p.master, p.first_layer, "REG_LCNT_MAX",
                              "start layer " + std::to_string(p.first_layer) + " above this device's maximum " +
                                  std::to_string(state.cfg.max_start_layer) +
                                  " (the generator never writes it); honoured"});
    }
    if (p.runs()) p.order = layer_order(state, p, p.warnings);
    return p;
}

bool layer_streams(const AcceleratorState& state, const SequencePlan& plan, int lead_quadrant, int layer) {
    if (!plan.streaming || lead_quadrant < 0) return false;
    return register_fields(state.cfg).layer.fbuf_max.get(state.quadrant[lead_quadrant].lreg[LREG_FMAX][layer]) != 0;
}

}  // namespace ai8x
