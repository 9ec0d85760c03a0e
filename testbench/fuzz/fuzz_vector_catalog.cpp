// libFuzzer harness: the readers of a vector folder's meta.json (the
// conformance runner's catalog and the run's generator estimate) and of the
// vectors' INDEX.md table. Each reader gets the whole input.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>

#include "app/generator_estimate.h"
#include "testbench/conformance/vector_catalog.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    {
        std::istringstream in(text);
        (void)ai8x::conformance::parse_index_kinds(in);
    }
    try {
        std::istringstream in(text);
        (void)ai8x::conformance::parse_total_latency(in, "meta.json");
    } catch (const ai8x::conformance::CatalogError&) {
    }
    try {
        std::istringstream in(text);
        (void)ai8x::parse_generator_estimate(in, "meta.json");
    } catch (const std::runtime_error&) {
    }
    return 0;
}
