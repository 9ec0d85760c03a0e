// The run JSON carries streaming hazards and stall cycles in the documented
// shape (docs/streaming.md §11): "hazards" is always an array, each entry
// {layer, address, cycle, kind, count, message}; streaming layers have a span.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>
#include <unistd.h>

#include "app/run_report.h"
#include "testbench/unit/app/app_test_support.h"

using namespace ai8x;
using namespace ai8x::test;

TEST_CASE("run report: hazards are an array even when there are none", "[run][report]") {
    RunReport r;
    r.result = "pass";
    const nlohmann::json j = report_as_json(r);
    REQUIRE(j.contains("hazards"));
    CHECK(j["hazards"].is_array());
    CHECK(j["hazards"].empty());
    CHECK(j["stall_cycles"] == 0);
    CHECK(j["dropped_words"] == 0);
    CHECK(j["starved_fifos"].is_array());
    CHECK(j["starved_fifos"].empty());
}

TEST_CASE("run report: starved FIFOs are listed by index", "[run][report]") {
    RunReport r;
    r.result = "error";
    r.starved_fifos = {1, 2};
    const nlohmann::json j = report_as_json(r);
    REQUIRE(j["starved_fifos"].is_array());
    CHECK(j["starved_fifos"] == nlohmann::json::array({1, 2}));
}

TEST_CASE("run report: a hazard keeps its layer and address and cycle and kind and count", "[run][report]") {
    RunReport r;
    r.result = "fail";
    r.stall_cycles = 152;
    r.layers.push_back(
        {1, uint64_t{152332}, 10, std::nullopt, std::nullopt, std::make_pair(uint64_t{0}, uint64_t{448792})});
    r.hazards.push_back({1, 0x50c091ccu, 15301, "read_before_write", 3968, "layer 1 read (2,0) ..."});
    const nlohmann::json j = report_as_json(r);
    REQUIRE(j["hazards"].size() == 1);
    const auto& h = j["hazards"][0];
    CHECK(h["layer"] == 1);
    CHECK(h["address"] == 0x50c091ccu);
    CHECK(h["cycle"] == 15301);
    CHECK(h["kind"] == "read_before_write");
    CHECK(h["count"] == 3968);
    CHECK(j["stall_cycles"] == 152);
    CHECK(j["layers"][0]["stream_span"][1] == 448792);
}
