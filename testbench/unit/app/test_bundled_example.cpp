// `ai8xsim` without arguments runs the bundled hand-programmed layer
// (firmware/examples/first_layer), whose firmware checks the accelerator's
// output against its own C reference convolution.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include "build_paths.h"

namespace fs = std::filesystem;

namespace {

struct ExampleOutcome {
    int exit_code = -1;
    std::string out;
};

ExampleOutcome run_example_cli(const std::string& args) {
    ExampleOutcome r;
    const std::string cmd =
        "SC_COPYRIGHT_MESSAGE=DISABLE '" + std::string(AI8XSIM_BINARY) + "' " + args + " 2>/dev/null";
    FILE* p = popen(cmd.c_str(), "r");
    REQUIRE(p != nullptr);
    std::array<char, 4096> buf;
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
    int status = pclose(p);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

std::string read_all(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

TEST_CASE("ai8xsim with no arguments runs the bundled example and passes", "[app][bundled]") {
    ExampleOutcome r = run_example_cli("");
    INFO(r.out);
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("*** PASS ***") != std::string::npos);
    CHECK(r.out.find("0 of 256 outputs differ") != std::string::npos);
}

TEST_CASE("the bundled example's check fails when its reference is wrong", "[app][bundled]") {
    // Same firmware with the ReLU dropped from the reference only: the
    // accelerator still applies ReLU, so negative reference values must be
    // reported as mismatches.
    const fs::path src = fs::path(AI8XSIM_SOURCE_DIR) / "firmware/examples/first_layer";
    const fs::path dir = fs::temp_directory_path() / ("ai8xsim_first_layer_broken_" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::copy(src, dir);
    std::string main_c = read_all(dir / "main.c");
    const std::string relu = "return (int8_t) (v < 0 ? 0 : v);";
    const size_t at = main_c.find(relu);
    REQUIRE(at != std::string::npos);
    main_c.replace(at, relu.size(), "return (int8_t) v;");
    std::ofstream(dir / "main.c") << main_c;

    ExampleOutcome r = run_example_cli("run '" + dir.string() + "'");
    fs::remove_all(dir);
    INFO(r.out);
    CHECK(r.exit_code != 0);
    CHECK(r.out.find("*** FAIL ***") != std::string::npos);
    CHECK(r.out.find("*** PASS ***") == std::string::npos);
}
