#include "app/info_command.h"

#include <cstdio>

#include "app/platform.h"
#include "app/platform_map.h"
#include "tlm/device_config.h"

namespace ai8x {

int info_command(const InfoOptions& opts) {
    constexpr int kBadInput = 2;
    DeviceConfig cfg;
    try {
        cfg = load_device_config(opts.config_path.empty() ? default_device_config_path() : opts.config_path);
    } catch (const ConfigError& e) {
        std::fprintf(stderr, "ai8xsim info: %s\n", e.what());
        return kBadInput;
    }
    // Elaborated only, never simulated: the map is what construction built.
    Platform platform(cfg);
    const PlatformMap map = describe_platform(platform);
    const std::string text = opts.json ? render_json(map).dump(2) + "\n" : render_text(map);
    std::fputs(text.c_str(), stdout);
    return 0;
}

}  // namespace ai8x
