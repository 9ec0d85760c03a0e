#include "model/registers/register_fields.h"

#include <memory>
#include <algorithm>
#include <mutex>
#include <utility>
#include <vector>

namespace ai8x {

namespace {

// The model stores per-layer registers by LayerRegisterKind, found by name.
const RegisterDescription& layer_kind(const RegisterMap& map, const std::string& name, LayerRegisterKind) {
    return map.layer_register(name);
}

// Snoop control (MAX78002 only; all widths 0 where the device has none).
SnoopFields lookup_snoop_fields(const RegisterMap& m) {
    SnoopFields s;
    const RegisterDescription* c1 = nullptr;
    for (const RegisterDescription& r : m.quadrant)
        if (r.name == "REG_SNP1_C1") c1 = &r;
    if (c1) {
        s.enable = m.field(*c1, "ENABLE");
        s.stop = m.field(*c1, "STOP");
        s.link = m.field(*c1, "LINK");
        s.acc_en = m.field(*c1, "ACC_EN");
        s.hit_en = m.field(*c1, "HIT_EN");
        s.max_en = m.field(*c1, "MAX_EN");
        s.count_mode = m.field(*c1, "COUNT_MODE");
        s.value_sel = m.field(*c1, "VALUE_SEL");
        s.layer = m.field(m.quadrant_register("REG_SNP1_C2"), "LAYER");
    }
    return s;
}

// Clock, memory power, BIST/zeroing and the kernel memories' power-down.
PowerFields lookup_power_fields(const RegisterMap& m, const RegisterDescription& c) {
    PowerFields pw;
    pw.clk_en = m.field(c, "CLK_EN");
    const RegisterDescription& sram = m.quadrant_register("REG_SRAM");
    pw.deep_sleep = m.field(sram, "DS");
    pw.power_down = m.field(sram, "PD");
    const char* const light_sleep[] = {"LSDRAM", "LSMRAM", "LSTRAM", "LSBRAM"};
    const RegisterDescription& test = m.quadrant_register("REG_SRAM_TEST");
    const char* const bist_start[] = {"BIST_DATA_EX", "BIST_MASK_EX", "BIST_TRAM_EX", "BIST_BIAS_EX"};
    for (unsigned k = 0; k < PowerFields::kMemoryKinds; ++k) {
        pw.light_sleep[k] = m.field(sram, light_sleep[k]);
        pw.bist_start[k] = m.field(test, bist_start[k]);
    }
    pw.bist_fail = m.field(test, "BIST_FAIL");
    pw.bist_done = m.field(test, "BIST_DONE");
    pw.bist_finished = m.field(test, "BIST_FINISHED");
    if (test.find("ZERO_EX")) {
        pw.zero_start = m.field(test, "ZERO_EX");
        pw.zero_select = m.field(test, "MEM_SEL");
        pw.zero_done = m.field(test, "ZERO_DONE");
    }
    pw.kernel_power_down = m.field(m.aon_register("AON_CTL"), "PWR_DOWN");
    return pw;
}

}  // namespace

RegisterFields::RegisterFields(const RegisterMap& m) {
    const RegisterDescription& c = m.quadrant_register("REG_CTL");
    ctl.cnn_en = m.field(c, "CNN_EN");
    ctl.master_sel = m.field(c, "MASTER_SEL");
    ctl.ext_sync = m.field(c, "EXT_SYNC");
    ctl.cnn_irq = m.field(c, "CNN_IRQ");
    ctl.poolrnd = m.field(c, "POOLRND");
    ctl.stream_en = m.field(c, "STREAM_EN");
    ctl.fifo_en = m.field(c, "FIFO_EN");
    ctl.lilbuf = m.field(c, "LILBUF");
    ctl.mexpress = m.field(c, "MEXPRESS");
    ctl.ffifo_en = m.field(c, "FFIFO_EN");
    ctl.qupac = m.field(c, "QUPAC");
    ctl.timeshft = m.field(c, "TIMESHFT");
    ctl.oneshot = m.field(c, "ONESHOT");
    if (c.find("PIPELINE_DIS")) ctl.pipeline_dis = m.field(c, "PIPELINE_DIS");

    const RegisterDescription& l = m.quadrant_register("REG_LCNT_MAX");
    lcnt.last = m.field(l, "LCNT");
    lcnt.first = m.field(l, "START");
    ifrm = m.field(m.quadrant_register("REG_IFRM"), "IFRM");

    LayerFields& f = layer;
    const auto& rcnt = layer_kind(m, "LREG_RCNT", LREG_RCNT);
    f.rcnt_max = m.field(rcnt, "RCNT_MAX");
    f.rcnt_pad = m.field(rcnt, "RCNT_PAD");
    const auto& ccnt = layer_kind(m, "LREG_CCNT", LREG_CCNT);
    f.ccnt_max = m.field(ccnt, "CCNT_MAX");
    f.ccnt_pad = m.field(ccnt, "CCNT_PAD");
    if (rcnt.find("RCNT_PADEN")) {
        f.rcnt_pad_en = m.field(rcnt, "RCNT_PADEN");
        f.ccnt_pad_en = m.field(ccnt, "CCNT_PADEN");
        f.ccnt_diff = m.field(ccnt, "CCNT_DIFF");
    }
    const auto& oned = layer_kind(m, "LREG_ONED", LREG_ONED);
    f.tscnt_max = m.field(oned, "TSCNT_MAX");
    f.oned_sad = m.field(oned, "ONED_SAD");
    f.oned_width = m.field(oned, "ONED_WIDTH");
    f.oned_en = m.field(oned, "ONED_EN");
    f.ewise_en = m.field(oned, "EWISE_EN");
    f.ewise_func = m.field(oned, "EWISE_FUNC");
    f.prepool = m.field(oned, "PREPOOL");
    f.ewise_cnt = m.field(oned, "EWISE_CNT");
    const auto& prcnt = layer_kind(m, "LREG_PRCNT", LREG_PRCNT);
    const auto& pccnt = layer_kind(m, "LREG_PCCNT", LREG_PCCNT);
    f.prcnt_max = m.field(prcnt, "PRCNT_MAX");
    f.pccnt_max = m.field(pccnt, "PCCNT_MAX");
    if (prcnt.find("PRCNT_INC")) {
        f.prcnt_inc = m.field(prcnt, "PRCNT_INC");
        f.pccnt_inc = m.field(pccnt, "PCCNT_INC");
    }
    const auto& stride = layer_kind(m, "LREG_STRIDE", LREG_STRIDE);
    f.stride = m.field(stride, "STRIDE");
    if (stride.find("MP_STRIDE")) f.mp_stride = m.field(stride, "MP_STRIDE");
    f.wptr_base = m.field(layer_kind(m, "LREG_WPTR_BASE", LREG_WPTR_BASE), "WPTR_BASE");
    f.wptr_toff = m.field(layer_kind(m, "LREG_WPTR_TOFFS", LREG_WPTR_TOFFS), "WPTR_TOFF");
    f.wptr_moff = m.field(layer_kind(m, "LREG_WPTR_MOFFS", LREG_WPTR_MOFFS), "WPTR_MOFF");
    f.wptr_choff = m.field(layer_kind(m, "LREG_WPTR_CHOFFS", LREG_WPTR_CHOFFS), "WPTR_CHOFF");
    f.rptr_base = m.field(layer_kind(m, "LREG_RPTR_BASE", LREG_RPTR_BASE), "RPTR_BASE");
    const auto& lctl = layer_kind(m, "LREG_LCTL", LREG_LCTL);
    f.parallel = m.field(lctl, "PARALLEL");
    f.pool_en = m.field(lctl, "POOL_EN");
    f.maxpl_en = m.field(lctl, "MAXPL_EN");
    f.act_en = m.field(lctl, "ACT_EN");
    f.bigdwrt = m.field(lctl, "BIGDWRT");
    f.broadcast = m.field(lctl, "BROADCAST");
    f.bypass = m.field(lctl, "BYPASS");
    if (const RegisterDescription* mcnt = m.find_layer_register("LREG_MCNT")) {
        f.mcnt_max = m.field(*mcnt, "MCNT_MAX");
        f.mcnt_sad = m.field(*mcnt, "MCNT_SAD");
    } else {  // the kernel range in two registers
        f.mcnt_max = m.field(layer_kind(m, "LREG_MCNT1", LREG_MCNT1), "MCNT_MAX");
        f.mcnt_sad = m.field(layer_kind(m, "LREG_MCNT2", LREG_MCNT2), "MCNT_SAD");
        f.mcnt_max_kind = LREG_MCNT1;
        f.mcnt_sad_kind = LREG_MCNT2;
    }
    const auto& tptr = layer_kind(m, "LREG_TPTR", LREG_TPTR);
    f.tptr_max = m.field(tptr, "TPTR_MAX");
    f.tptr_sad = m.field(tptr, "TPTR_SAD");
    const auto& ena = layer_kind(m, "LREG_ENA", LREG_ENA);
    f.pro_en = m.field(ena, "PRO_EN");
    f.mask_en = m.field(ena, "MASK_EN");
    const auto& post = layer_kind(m, "LREG_POST", LREG_POST);
    f.bptr_sad = m.field(post, "BPTR_SAD");
    f.bptr_en = m.field(post, "BPTR_EN");
    f.scale_reg = m.field(post, "SCALE_REG");
    f.scale_shft = m.field(post, "SCALE_SHFT");
    f.xpmp_cnt = m.field(post, "XPMP_CNT");
    f.mask_size = m.field(post, "MASK_SIZE");
    f.out_abs = m.field(post, "OUT_ABS");
    f.flatten_en = m.field(post, "FLATTEN_EN");
    f.deconv_en = m.field(post, "DECONV_EN");
    if (post.find("DW_EN")) f.dw_en = m.field(post, "DW_EN");
    if (post.find("CALCX4")) f.calcx4 = m.field(post, "CALCX4");
    if (const RegisterDescription* ochan = m.find_layer_register("LREG_OCHAN"))
        f.ochan_max = m.field(*ochan, "OCHAN_MAX");
    const auto& s1 = layer_kind(m, "LREG_STREAM1", LREG_STREAM1);
    f.stream_start = m.field(s1, "STREAM_START");
    f.fifo_go = m.field(s1, "FIFO_GO");
    const auto& s2 = layer_kind(m, "LREG_STREAM2", LREG_STREAM2);
    f.invol = m.field(s2, "INVOL");
    f.delta1 = m.field(s2, "DELTA1");
    f.delta2 = m.field(s2, "DELTA2");
    f.fbuf_max = m.field(layer_kind(m, "LREG_FMAX", LREG_FMAX), "FBUF_MAX");
    const auto& lctl2 = layer_kind(m, "LREG_LCTL2", LREG_LCTL2);
    f.inpchexp = m.field(lctl2, "INPCHEXP");
    f.wptr_inc = m.field(lctl2, "WPTR_INC");
    f.xpch_max = m.field(lctl2, "XPCH_MAX");

    if (const RegisterDescription* next = m.find_layer_register("LREG_NXTLYR")) {
        f.next_layer = m.field(*next, "NEXT_LAYER");
        f.link_en = m.field(*next, "LINK_EN");
        f.stop = m.field(*next, "STOP");
    }

    fifo.enable = m.field(m.fifo_register("FIFO_CTL"), "FIFO_ENA");
    fifo.cpl = m.field(m.fifo_register("FIFO_CTL"), "FIFO_CPL");
    fifo.full = m.field(m.fifo_register("FIFO_STAT"), "FULL");

    snoop = lookup_snoop_fields(m);
    power = lookup_power_fields(m, c);
}

const RegisterFields& register_fields(const DeviceConfig& cfg) {
    if (!cfg.registers) throw ConfigError(cfg.source_path + ": device description has no register_map");
    // Keyed by the shared description: copies of a DeviceConfig share it, and
    // whoever holds the fields holds a copy. An entry goes with the last copy
    // (a process running many simulations loads many), and before any look-up,
    // so a new description at a freed one's address is never taken for it.
    static std::mutex mutex;
    static std::vector<std::pair<std::weak_ptr<const RegisterMap>, std::unique_ptr<const RegisterFields>>> resolved;
    const std::lock_guard<std::mutex> lock(mutex);
    resolved.erase(std::remove_if(resolved.begin(), resolved.end(), [](const auto& e) { return e.first.expired(); }),
                   resolved.end());
    for (const auto& [map, fields] : resolved)
        if (map.lock() == cfg.registers) return *fields;
    resolved.emplace_back(cfg.registers, std::make_unique<const RegisterFields>(*cfg.registers));
    return *resolved.back().second;
}

}  // namespace ai8x
