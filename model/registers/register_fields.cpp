#include "model/registers/register_fields.h"

#include <memory>
#include <algorithm>
#include <mutex>
#include <utility>
#include <vector>

namespace ai8x {

const RegisterFields& register_fields(const DeviceConfig& cfg) {
    if (!cfg.registers) throw ConfigError(cfg.source_path + ": device description has no register_map");
    // The layer engine asks per layer: this thread's last answer first, no
    // lock. Sharing its owner with cfg.registers means the same description
    // (the weak reference keeps the control block from being reused), which
    // is alive, so its entry below is still there.
    struct LastAnswer {
        std::weak_ptr<const RegisterMap> map;
        const RegisterFields* fields = nullptr;
    };
    thread_local LastAnswer last;
    if (last.fields && !last.map.owner_before(cfg.registers) && !cfg.registers.owner_before(last.map))
        return *last.fields;
    // Keyed by the shared description: copies of a DeviceConfig share it, and
    // whoever holds the fields holds a copy. An entry goes with the last copy
    // (a process running many simulations loads many), and before any look-up,
    // so a new description at a freed one's address is never taken for it.
    static std::mutex mutex;
    static std::vector<std::pair<std::weak_ptr<const RegisterMap>, std::unique_ptr<const RegisterFields>>> resolved;
    const std::lock_guard<std::mutex> lock(mutex);
    resolved.erase(std::remove_if(resolved.begin(), resolved.end(), [](const auto& e) { return e.first.expired(); }),
                   resolved.end());
    const auto found = std::find_if(resolved.begin(), resolved.end(),
                                    [&cfg](const auto& e) { return e.first.lock() == cfg.registers; });
    const RegisterFields* fields = found != resolved.end() ? found->second.get() : nullptr;
    if (!fields) {
        resolved.emplace_back(cfg.registers, std::make_unique<const RegisterFields>(*cfg.registers));
        fields = resolved.back().second.get();
    }
    last = {cfg.registers, fields};
    return *fields;
}

KernelRangeFields kernel_range_fields(const RegisterFields& f) {
    if (f.LREG_MCNT.MCNT_MAX.width != 0) return {f.LREG_MCNT.MCNT_MAX, f.LREG_MCNT.MCNT_SAD, LREG_MCNT, LREG_MCNT};
    return {f.LREG_MCNT1.MCNT_MAX, f.LREG_MCNT2.MCNT_SAD, LREG_MCNT1, LREG_MCNT2};
}

}  // namespace ai8x
