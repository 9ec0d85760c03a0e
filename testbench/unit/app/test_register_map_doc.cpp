// docs/register-map.md is generated from the device description: the committed
// file must be exactly what the description and the template render, and the
// comparison must notice a hand edit.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "app/register_map_doc.h"

using namespace ai8x;

namespace {

std::string committed_document() {
    std::ifstream in(default_register_map_path(), std::ios::binary);
    REQUIRE(in);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace

TEST_CASE("docs/register-map.md equals what the device description renders", "[regdoc]") {
    const DeviceConfig cfg = load_device_config(default_device_config_path());
    const std::string difference =
        register_map_difference(render_register_map(cfg), committed_document(), default_register_map_path());
    INFO(difference);
    CHECK(difference.empty());
}

TEST_CASE("a hand-edited register map is reported with the line and how to regenerate it", "[regdoc]") {
    const DeviceConfig cfg = load_device_config(default_device_config_path());
    const std::string rendered = render_register_map(cfg);
    std::string edited = rendered;
    const std::string from = "| 3:0 | `STRIDE` |";
    const std::size_t at = edited.find(from);
    REQUIRE(at != std::string::npos);
    edited.replace(at, from.size(), "| 1:0 | `STRIDE` |");  // someone "fixes" the table by hand

    const std::string difference = register_map_difference(rendered, edited, "docs/register-map.md");
    CHECK_FALSE(difference.empty());
    CHECK_THAT(difference, Catch::Contains("docs/register-map.md:"));
    CHECK_THAT(difference, Catch::Contains("| 1:0 | `STRIDE` |"));
    CHECK_THAT(difference, Catch::Contains("ai8xsim-regdoc -o docs/register-map.md"));
    CHECK(register_map_difference(rendered, rendered, "docs/register-map.md").empty());
}

TEST_CASE("the register map lists every described register and field", "[regdoc]") {
    const DeviceConfig cfg = load_device_config(default_device_config_path());
    const std::string doc = render_register_map(cfg);
    for (const auto* group :
         {&cfg.registers->quadrant, &cfg.registers->layer, &cfg.registers->fifo, &cfg.registers->aon})
        for (const RegisterDescription& r : *group) {
            INFO(r.name);
            CHECK(doc.find("### " + r.name) != std::string::npos);
            for (const FieldDescription& f : r.fields) CHECK(doc.find("`" + f.name + "`") != std::string::npos);
        }
    CHECK(doc.find("{{") == std::string::npos);  // every marker replaced
    CHECK_THROWS_AS(render_register_map(cfg, "{{no_such_table}}"), std::invalid_argument);
}
