#include "testbench/app/run_report.h"

#include <cstdio>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>
#include <unistd.h>

namespace ai8x {

void write_run_report(const RunReport& r, const std::string& path) {
    nlohmann::json j;
    j["result"] = r.result;
    j["console"] = r.console;
    j["cnn_cycles"] = r.cnn_cycles;
    j["layers"] = nlohmann::json::array();
    for (const auto& l : r.layers) {
        nlohmann::json e{{"layer", l.layer}, {"macs", l.macs}};
        e["cycles"] = l.cycles ? nlohmann::json(*l.cycles) : nlohmann::json(nullptr);
        j["layers"].push_back(e);
    }
    j["sim_time_us"] = r.sim_time_us;
    j["cpu_instructions"] = r.cpu_instructions;
    j["wall_seconds"] = r.wall_seconds;
    j["error"] = r.error ? nlohmann::json(*r.error) : nlohmann::json(nullptr);

    const std::string tmp = path + ".tmp" + std::to_string(getpid());
    {
        std::ofstream out(tmp);
        if (!out) throw std::runtime_error(path + ": cannot write (temporary file " + tmp + ")");
        // Console text is raw firmware output: replace invalid UTF-8 rather than throw.
        out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        if (!out) throw std::runtime_error(tmp + ": write failed");
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::remove(tmp.c_str());
        throw std::runtime_error(path + ": cannot rename " + tmp + " into place");
    }
}

}  // namespace ai8x
