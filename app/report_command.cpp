#include "app/report_command.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>
#include <unistd.h>

#include <filesystem>

#include "app/report_html.h"

namespace ai8x {

namespace {
constexpr int kReportInputError = 2;
}

int report_command(const ReportOptions& opts) {
    std::ifstream in(opts.run_json);
    if (!in) {
        std::fprintf(stderr, "ai8xsim report: %s: cannot open\n", opts.run_json.c_str());
        return kReportInputError;
    }
    std::string html;
    try {
        const nlohmann::json run = nlohmann::json::parse(in);
        std::string title = opts.title;
        if (title.empty() && run.is_object() && run.contains("vector") && run.at("vector").is_string())
            title = std::filesystem::path(run.at("vector").get<std::string>()).filename().string();
        if (title.empty()) title = opts.run_json;
        html = render_report_html(run, title);
    } catch (const nlohmann::json::parse_error& e) {
        std::fprintf(stderr, "ai8xsim report: %s: not valid JSON (byte %zu)\n", opts.run_json.c_str(), e.byte);
        return kReportInputError;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "ai8xsim report: %s: %s\n", opts.run_json.c_str(), e.what());
        return kReportInputError;
    }
    // Write beside the target and rename, so a reader never sees half a page.
    const std::string tmp = opts.html_out + ".tmp" + std::to_string(getpid());
    {
        std::ofstream out(tmp);
        out << html;
        if (!out) {
            std::fprintf(stderr, "ai8xsim report: %s: cannot write\n", tmp.c_str());
            std::remove(tmp.c_str());
            return kReportInputError;
        }
    }
    if (std::rename(tmp.c_str(), opts.html_out.c_str()) != 0) {
        std::fprintf(stderr, "ai8xsim report: %s: cannot rename %s into place\n", opts.html_out.c_str(), tmp.c_str());
        std::remove(tmp.c_str());
        return kReportInputError;
    }
    return 0;
}

}  // namespace ai8x
