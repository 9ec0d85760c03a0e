// The memory checker's findings (memory_checker.h): the sites of one routine
// that corrupted one object in one way are one finding, with the furthest
// extent, the number of sites and the stores of all; another object, another
// routine or another kind is another finding; order is that of the first store.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "firmware/host/memory_checker.h"

namespace memory_findings_test {

using namespace ai8x;

MemoryFault site(const std::string& kind, const std::string& function, const std::string& object, uint32_t extent,
                 uint64_t count) {
    MemoryFault f;
    f.kind = kind;
    f.function = function;
    f.routine = function.substr(0, function.rfind('+'));
    f.object = object;
    f.object_size = 176;
    f.first_address = 0x20000344;
    f.extent_past_end = extent;
    f.count = count;
    f.first_us = 12.5;
    return f;
}

TEST_CASE("memory findings: one routine, one object, one kind is one finding", "[memcheck]") {
    const std::vector<MemoryFault> faults = {
        site("object_overrun", "cnn_unload+0x24", "ml_data32", 468, 324),
        site("heap_overrun", "cnn_unload+0x42", "heap block at 0x20000610", 8, 8),
        site("object_overrun", "cnn_unload+0x28", "ml_data32", 972, 180),
        site("object_overrun", "cnn_unload+0x2c", "ml_data32", 648, 180),
        site("object_overrun", "main+0x10", "ml_data32", 4, 1),
        site("object_underrun", "cnn_unload+0x30", "ml_data32", 4, 2),
    };
    const std::vector<MemoryFinding> findings = memory_findings(faults);
    REQUIRE(findings.size() == 4);
    CHECK(findings[0].first == &faults[0]);
    CHECK(findings[0].sites == 3);
    CHECK(findings[0].stores == 324 + 180 + 180);
    CHECK(findings[0].extent_past_end == 972);
    CHECK(findings[0].summary() ==
          "cnn_unload wrote up to 972 byte(s) past the end of ml_data32 (176 bytes): 3 sites, 684 stores; first "
          "cnn_unload+0x24 at 0x20000344, 12.5 us");
    CHECK(findings[1].first == &faults[1]);  // another object
    CHECK(findings[1].summary() ==
          "cnn_unload wrote up to 8 byte(s) past the end of heap block at 0x20000610: 1 site, 8 stores; first "
          "cnn_unload+0x42 at 0x20000344, 12.5 us");
    CHECK(findings[2].first == &faults[4]);  // another routine
    CHECK(findings[3].first == &faults[5]);  // another kind
    CHECK(memory_findings({}).empty());
}

}  // namespace memory_findings_test
