// The run JSON lists the engine's misprogramming warnings as "warnings": an
// array (empty when the network is clean) of
// {quadrant, layer, register, kind, count, message}.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>
#include <unistd.h>

#include "app/run_report.h"
#include "testbench/unit/app/app_test_support.h"

using namespace ai8x;
using namespace ai8x::test;

TEST_CASE("run report: warnings are an empty array for a clean run", "[run][report]") {
    RunReport r;
    r.result = "pass";
    const nlohmann::json j = report_as_json(r);
    REQUIRE(j.contains("warnings"));
    CHECK(j["warnings"].is_array());
    CHECK(j["warnings"].empty());
}

TEST_CASE("run report: a warning keeps quadrant, layer, register, kind and count", "[run][report]") {
    RunReport r;
    r.result = "fail";
    r.warnings.push_back({2, "cnn.q2", 5, "LREG_RPTR_BASE", "unwritten_read", 640, "processor 3 reads ..."});
    const nlohmann::json j = report_as_json(r);
    REQUIRE(j["warnings"].size() == 1);
    const nlohmann::json& w = j["warnings"][0];
    CHECK(w["quadrant"] == 2);
    CHECK(w["where"] == "cnn.q2");
    CHECK(w["layer"] == 5);
    CHECK(w["register"] == "LREG_RPTR_BASE");
    CHECK(w["kind"] == "unwritten_read");
    CHECK(w["count"] == 640);
    CHECK(w["message"] == "processor 3 reads ...");
}
