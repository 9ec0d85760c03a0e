// The register fields the model acts on. Their names are generated from the
// device family's description (build/<dir>/generated/registers/cnn.h, written
// by tools/reggen.cpp: one struct per register with a RegField per field);
// their bit positions are bound once from the description a run loads
// (configs/<device>.yaml or `run --config FILE`). Behaviour code reads bits only
// through these RegField values, never through masks and shifts of its own:
// a device with other field positions or widths needs only a YAML file.
#pragma once

#include "registers/cnn.h"
#include "tlm/device_config.h"

namespace ai8x {

using RegisterFields = regs::CnnFields;

// The fields of `cfg`'s description: bound on the first call for a description
// and kept, so callers may ask per layer or per inference. Code on a per-word
// path keeps the reference. A required field the description lacks is a
// ConfigError naming the file.
const RegisterFields& register_fields(const DeviceConfig& cfg);

// Where a layer's kernel memory range lives: LREG_MCNT holds both ends on the
// MAX78000, LREG_MCNT1 and LREG_MCNT2 hold one each on the MAX78002.
struct KernelRangeFields {
    RegField last, first;            // MCNT_MAX, MCNT_SAD
    unsigned last_kind, first_kind;  // the per-layer kinds holding them
};
KernelRangeFields kernel_range_fields(const RegisterFields& f);

}  // namespace ai8x
