// ai8xsim-regdoc: renders docs/register-map.md from the device description
// (app/register_map_doc.h) to stdout, or to a file with -o.
//
//   build/ai8xsim-regdoc -o docs/register-map.md [--config configs/max78000.yaml]
#include <cstdio>
#include <fstream>
#include <iostream>

#include <CLI/CLI.hpp>

#include "app/register_map_doc.h"

// The renderer lives in the app library, which pulls in libsystemc; that
// library references sc_main even though this program never simulates.
extern "C" int sc_main(int, char**) { return 2; }

int main(int argc, char** argv) {
    CLI::App app{"Render the accelerator register map document from the device description"};
    std::string config = ai8x::default_device_config_path();
    std::string template_path = ai8x::default_register_map_template_path();
    std::string out;
    app.add_option("--config", config, "device description");
    app.add_option("--template", template_path, "prose with {{...}} table markers");
    app.add_option("-o,--output", out, "write here instead of stdout");
    CLI11_PARSE(app, argc, argv);
    try {
        const ai8x::DeviceConfig cfg = ai8x::load_device_config(config);
        std::ifstream in(template_path);
        if (!in) throw std::runtime_error(template_path + ": cannot read");
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const std::string doc = ai8x::render_register_map(cfg, text);
        if (out.empty()) {
            std::cout << doc;
        } else {
            std::ofstream f(out, std::ios::binary);
            if (!(f << doc)) throw std::runtime_error(out + ": cannot write");
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "ai8xsim-regdoc: %s\n", e.what());
        return 2;
    }
    return 0;
}
