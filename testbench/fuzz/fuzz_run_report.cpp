// libFuzzer harness: the run-JSON reader of `ai8xsim report` (an older or
// hand-edited run JSON becomes an HTML page or a message naming the field).
// report_command() turns every std::exception into exit code 2 with the
// message, so that is the boundary checked here.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>

#include <nlohmann/json.hpp>

#include "app/report_html.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        const nlohmann::json run = nlohmann::json::parse(data, data + size);
        (void)ai8x::render_report_html(run, "fuzz");
    } catch (const std::exception&) {
    }
    return 0;
}
