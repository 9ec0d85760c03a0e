#include "app/info_command.h"

#include <cstdio>

#include "app/platform.h"
#include "app/platform_map.h"
#include "app/simulation_turn.h"
#include "tlm/device_config.h"

namespace ai8x {

InfoResult info_in_process(const InfoOptions& opts) {
    InfoResult result;
    DeviceConfig cfg;
    try {
        cfg = load_device_config(opts.config_path.empty() ? default_device_config_path() : opts.config_path);
    } catch (const ConfigError& e) {
        result.message = e.what();
        return result;
    }
    SimulationTurn turn;
    // Elaborated only, never simulated: the map is what construction built,
    // with the Cortex-M4 a run adds (its interrupt inputs are wired then).
    Platform platform(cfg);
    platform.add_cpu();
    const PlatformMap map = describe_platform(platform);
    result.text = opts.json ? render_json(map).dump(2) + "\n" : render_text(map);
    result.exit_code = 0;
    return result;
}

int info_command(const InfoOptions& opts) {
    const InfoResult r = info_in_process(opts);
    if (r.exit_code != 0) std::fprintf(stderr, "ai8xsim info: %s\n", r.message.c_str());
    std::fputs(r.text.c_str(), stdout);
    return r.exit_code;
}

}  // namespace ai8x
