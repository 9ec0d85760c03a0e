#include "model/sequencing.h"

#include <string>

#include "model/registers/quadrant_registers.h"
#include "model/registers/register_fields.h"
#include "model/snoop.h"

namespace ai8x {

std::vector<int> SequencePlan::layers() const { return runs() ? order : std::vector<int>{}; }

namespace {

// The layer after `l`: NEXT_LAYER when its LINK_EN is set and the link is
// taken, otherwise the next index; -1 after a layer with STOP, after the last
// layer, or when the next one already ran (a link back ends the walk).
int following_layer(const AcceleratorState& state, const SequencePlan& p, int l, bool take_link,
                    const std::vector<bool>& ran, std::vector<EngineWarning>& w) {
    const RegisterFields& f = register_fields(state.cfg);
    const uint32_t reg = state.quadrant[p.master].lreg[LREG_NXTLYR][l];
    if (l == p.last_layer || f.LREG_NXTLYR.STOP.is_set(reg)) return -1;
    int next = l + 1;
    if (take_link && f.LREG_NXTLYR.LINK_EN.is_set(reg)) {
        next = static_cast<int>(f.LREG_NXTLYR.NEXT_LAYER.get(reg));
        if (next > p.last_layer)
            w.push_back({p.master, l, "LREG_NXTLYR",
                         "links to layer " + std::to_string(next) + " beyond the last layer " +
                             std::to_string(p.last_layer) + "; it runs"});
    }
    if (next < 0 || static_cast<uint32_t>(next) >= state.cfg.max_layers || ran[next]) return -1;
    return next;
}

// The layer order with every link taken: from the first layer on, each layer
// followed by following_layer(); each layer runs once.
std::vector<int> layer_order(const AcceleratorState& state, const SequencePlan& p, int first,
                             std::vector<EngineWarning>& w) {
    std::vector<int> out;
    std::vector<bool> ran(state.cfg.max_layers, false);
    for (int l = first; l >= 0 && static_cast<uint32_t>(l) < state.cfg.max_layers;) {
        out.push_back(l);
        ran[l] = true;
        l = following_layer(state, p, l, true, ran, w);
    }
    return out;
}

// One-shot: the layer this start runs (where the last one-shot start left
// off, or the first layer).
int oneshot_layer(const AcceleratorState& state, const SequencePlan& p) {
    const int resume = state.oneshot_resume;
    return resume >= p.first_layer && resume <= p.last_layer ? resume : p.first_layer;
}

}  // namespace

namespace {
bool tethered(const regs::quadrant::REG_CTL& f, uint32_t ctl, int q) {
    return f.EXT_SYNC.is_set(ctl) && f.MASTER_SEL.get(ctl) != static_cast<uint32_t>(q);
}
}  // namespace

int sequencing_master(const AcceleratorState& state) {
    const regs::quadrant::REG_CTL& f = register_fields(state.cfg).REG_CTL;
    bool any_enabled = false;
    for (std::size_t q = 0; q < state.quadrant.size(); ++q) any_enabled |= f.CNN_EN.is_set(state.quadrant[q].ctl);
    for (std::size_t q = 0; q < state.quadrant.size(); ++q) {
        const uint32_t ctl = state.quadrant[q].ctl;
        const bool candidate = any_enabled ? f.CNN_EN.is_set(ctl) : f.CLK_EN.is_set(ctl);
        if (candidate && !tethered(f, ctl, static_cast<int>(q))) return static_cast<int>(q);
    }
    return -1;
}

bool runs_on_its_own(const AcceleratorState& state, int q) {
    const regs::quadrant::REG_CTL& f = register_fields(state.cfg).REG_CTL;
    const uint32_t ctl = state.quadrant[q].ctl;
    return f.CNN_EN.is_set(ctl) && !tethered(f, ctl, q);
}

SequencePlan plan_sequence(const AcceleratorState& state) {
    const RegisterFields& f = register_fields(state.cfg);
    SequencePlan p;
    for (std::size_t q = 0; q < state.quadrant.size(); ++q)
        if (f.REG_CTL.CNN_EN.is_set(state.quadrant[q].ctl)) p.enabled_quadrants.push_back(static_cast<int>(q));
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
    p.fifo_mode = f.REG_CTL.FIFO_EN.is_set(mq.ctl);
    p.streaming = f.REG_CTL.STREAM_EN.is_set(mq.ctl);
    p.first_layer = static_cast<int>(f.REG_LCNT_MAX.START.get(mq.lcnt_max));
    p.last_layer = static_cast<int>(f.REG_LCNT_MAX.LCNT.get(mq.lcnt_max));
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
    p.oneshot = f.REG_CTL.ONESHOT.is_set(mq.ctl);
    if (p.runs() && p.oneshot) p.order = {oneshot_layer(state, p)};
    if (p.runs() && !p.oneshot) p.order = layer_order(state, p, p.first_layer, p.warnings);
    return p;
}

bool layer_streams(const AcceleratorState& state, const SequencePlan& plan, int lead_quadrant, int layer) {
    if (!plan.streaming || lead_quadrant < 0) return false;
    return register_fields(state.cfg).LREG_FMAX.FBUF_MAX.get(state.quadrant[lead_quadrant].lreg[LREG_FMAX][layer]) != 0;
}

SequenceRun::SequenceRun(AcceleratorState& state, const SequencePlan& plan)
    : state_(state),
      plan_(plan),
      snoop_(std::make_unique<SnoopUnits>(state, plan.master)),
      ran_(state.cfg.max_layers, false) {
    if (!plan.oneshot) state.oneshot_resume = -1;
}

SequenceRun::~SequenceRun() = default;

int SequenceRun::first() const { return plan_.runs() ? plan_.order.front() : -1; }

void SequenceRun::before(int layer) { snoop_->before(layer); }

int SequenceRun::after(int layer) {
    ran_[static_cast<std::size_t>(layer)] = true;
    const SnoopDecision snoop = snoop_->after();
    const bool take_link = !snoop.conditional_links || snoop.take_link;
    const int next = snoop.stop ? -1 : following_layer(state_, plan_, layer, take_link, ran_, unused_);
    if (!plan_.oneshot) return next;
    state_.oneshot_resume = next;  // -1: the next start begins at the first layer
    return -1;
}

}  // namespace ai8x
