// `ai8xsim report`: end to end from a real run to a rendered screenshot, plus
// the input errors. The page is rendered by headless Chromium so that a page a
// browser cannot draw (or draws blank) fails here, not in a reviewer's hands.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include "testbench/unit/test_support.h"
#include "build_paths.h"

namespace fs = std::filesystem;
using ai8x::test::slurp;

namespace {

const std::string kBinary = AI8XSIM_BINARY;
const char* const kChromium = "/usr/bin/chromium";

// Runs a shell command; returns its exit status (not the raw wait status).
int sh(const std::string& cmd) {
    const int st = std::system(cmd.c_str());
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

size_t count(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
    return n;
}

// Text of <section id="ID"> ... </section>, empty if absent.
std::string section(const std::string& html, const std::string& id) {
    const auto a = html.find("<section id=\"" + id + "\"");
    if (a == std::string::npos) return {};
    const auto b = html.find("</section>", a);
    return html.substr(a, b == std::string::npos ? std::string::npos : b - a);
}

uint32_t be32(const std::string& s, size_t at) {
    return uint32_t(uint8_t(s[at])) << 24 | uint32_t(uint8_t(s[at + 1])) << 16 | uint32_t(uint8_t(s[at + 2])) << 8 |
           uint32_t(uint8_t(s[at + 3]));
}

// Screenshots `html` at 1200x1600 into `png`; returns the file's bytes.
std::string screenshot(const fs::path& html, const fs::path& png) {
    fs::remove(png);
    const std::string cmd = std::string("timeout 120 ") + kChromium +
                            " --headless --disable-gpu --no-sandbox --screenshot=" + png.string() +
                            " --window-size=1200,1600 file://" + fs::absolute(html).string() + " >" + png.string() +
                            ".log 2>&1";
    INFO(cmd);
    CHECK(sh(cmd) == 0);
    REQUIRE(fs::exists(png));
    return slurp(png);
}

fs::path report_work_dir(const std::string& name) {
    // Under the build directory, so the screenshot stays for a human to look at.
    fs::path d = fs::path(kBinary).parent_path() / "report-test" / name;
    fs::create_directories(d);
    return d;
}

}  // namespace

TEST_CASE("report: a real run renders in headless Chromium with every section", "[report][chromium]") {
    if (access(kChromium, X_OK) != 0)
        FAIL(std::string(kChromium) + " is missing: install the `chromium` package (scripts/setup.sh)");

    const fs::path dir = report_work_dir("mnist-extrasmall");
    const fs::path json = dir / "run.json", html = dir / "report.html", png = dir / "report.png";
    const std::string vector = std::string(AI8XSIM_SHARED_DIR) + "/vectors/demo-mnist-extrasmall";
    REQUIRE(sh(kBinary + " run " + vector + " --quiet --json " + json.string()) == 0);
    REQUIRE(sh(kBinary + " report " + json.string() + " -o " + html.string()) == 0);

    const nlohmann::json run = nlohmann::json::parse(slurp(json));
    REQUIRE(run.at("layers").size() > 0);
    // The inference's host time is inside the whole command's host time.
    REQUIRE(run.at("inference_wall_seconds").is_number());
    CHECK(run.at("inference_wall_seconds").get<double>() > 0);
    CHECK(run.at("inference_wall_seconds").get<double>() < run.at("wall_seconds").get<double>());
    // The sample input the CPU loaded shows up as written data memory.
    uint64_t data_used = 0;
    for (const auto& m : run.at("memory"))
        if (m.at("memory") == "data_sram") data_used += m.at("used").get<uint64_t>();
    CHECK(data_used > 0);
    const std::string page = slurp(html);

    // Structure: one SVG in each drawn section, one table row per layer of the run.
    for (const char* id : {"timeline", "estimate", "memory", "activity", "energy"}) {
        INFO("section " << id);
        CHECK(count(section(page, id), "<svg") == 1);
    }
    // Heat map: one cell per processor and layer of the run's activity section.
    const auto& act = run.at("activity");
    CHECK(count(section(page, "activity"), "class=\"heat\"") == act.at("processors").size() * act.at("layers").size());
    CHECK(count(page, "class=\"layer-row\"") == run.at("layers").size());
    // Energy: the three phases, and three stacked parts per layer of the estimate.
    CHECK(count(section(page, "energy"), "class=\"energy-row\"") == 3);
    CHECK(count(section(page, "energy"), "<rect class=\"e-") == 3 * run.at("energy").at("layers").size());
    CHECK(section(page, "energy").find("(uncalibrated)") != std::string::npos);  // a MAX78000 vector
    // Self-contained: nothing fetched from elsewhere, no scripts.
    CHECK(page.find("<script") == std::string::npos);
    CHECK(page.find("src=\"http") == std::string::npos);
    CHECK(page.find("href=\"http") == std::string::npos);

    const std::string shot = screenshot(html, png);
    std::printf("report screenshot: %s\n", png.string().c_str());
    REQUIRE(shot.size() > 24);
    CHECK(shot.compare(0, 8, std::string("\x89PNG\r\n\x1a\n", 8)) == 0);
    CHECK(shot.compare(12, 4, "IHDR") == 0);
    CHECK(be32(shot, 16) == 1200);
    CHECK(be32(shot, 20) == 1600);

    // Not blank: an empty page of the same size compresses to far fewer bytes
    // than one with charts and tables on it.
    const fs::path blank_html = dir / "blank.html", blank_png = dir / "blank.png";
    std::ofstream(blank_html) << "<!DOCTYPE html><html><body></body></html>\n";
    const std::string blank = screenshot(blank_html, blank_png);
    INFO("report PNG " << shot.size() << " bytes, blank page " << blank.size() << " bytes");
    CHECK(shot.size() > 2 * blank.size());
}

TEST_CASE("report: text from the run is escaped into the page", "[report]") {
    const fs::path dir = report_work_dir("escape");
    const fs::path json = dir / "run.json", html = dir / "report.html";
    nlohmann::json run = {{"result", "fail"},
                          {"cnn_cycles", 10},
                          {"vector", "/x/<i>v&1"},
                          {"error", "bad <script>alert(1)</script>"},
                          {"layers", {{{"layer", 0}, {"cycles", 10}, {"macs", 1}}}}};
    std::ofstream(json) << run.dump();
    REQUIRE(sh(kBinary + " report " + json.string() + " -o " + html.string()) == 0);
    const std::string page = slurp(html);
    CHECK(page.find("<script>") == std::string::npos);
    CHECK(page.find("&lt;script&gt;") != std::string::npos);
    CHECK(page.find("<i>v&1") == std::string::npos);
    CHECK(page.find("&lt;i&gt;v&amp;1") != std::string::npos);
    CHECK(count(page, "class=\"layer-row\"") == 1);
}

TEST_CASE("report: missing, malformed or incomplete JSON exits 2 naming the file and the field", "[report]") {
    const fs::path dir = report_work_dir("errors");
    const fs::path err = dir / "stderr.txt", out = dir / "out.html";
    fs::remove(out);

    SECTION("missing file") {
        const fs::path json = dir / "no-such.json";
        CHECK(sh(kBinary + " report " + json.string() + " -o " + out.string() + " 2>" + err.string()) == 2);
        CHECK(slurp(err).find("no-such.json") != std::string::npos);
    }
    SECTION("malformed JSON") {
        const fs::path json = dir / "broken.json";
        std::ofstream(json) << "{\"result\": \"pass\", ";
        CHECK(sh(kBinary + " report " + json.string() + " -o " + out.string() + " 2>" + err.string()) == 2);
        CHECK(slurp(err).find("broken.json") != std::string::npos);
    }
    SECTION("missing field") {
        const fs::path json = dir / "nocycles.json";
        std::ofstream(json) << R"({"result": "pass", "layers": []})";
        CHECK(sh(kBinary + " report " + json.string() + " -o " + out.string() + " 2>" + err.string()) == 2);
        const std::string msg = slurp(err);
        CHECK(msg.find("nocycles.json") != std::string::npos);
        CHECK(msg.find("cnn_cycles") != std::string::npos);
    }
    CHECK_FALSE(fs::exists(out));
}
