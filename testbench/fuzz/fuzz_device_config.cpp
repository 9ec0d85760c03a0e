// libFuzzer harness: the device description loader (configs/*.yaml through
// tlm/device_config.h), register map included. A file either loads or is
// refused with a ConfigError; nothing else may escape.
#include <cstddef>
#include <cstdint>
#include <string>

#include "tlm/device_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const ai8x::DeviceConfig config = ai8x::parse_device_config(text, "fuzz.yaml");
        (void)config.processors_total();
    } catch (const ai8x::ConfigError&) {
    }
    return 0;
}
