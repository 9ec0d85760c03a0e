#include "app/camera_folder.h"

#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "firmware/host/camera/camera_image_file.h"

namespace fs = std::filesystem;

namespace ai8x {

namespace {

std::string read_source_text(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// The rest of the line after `marker`, or empty.
std::string line_after(const std::string& text, const std::string& marker) {
    const std::size_t at = text.find(marker);
    if (at == std::string::npos) return {};
    const std::size_t end = text.find('\n', at);
    return text.substr(at + marker.size(), end == std::string::npos ? std::string::npos : end - at - marker.size());
}

bool number_option(const std::string& token, const std::string& name, const std::string& value, double& out) {
    if (token != name) return false;
    try {
        out = std::stod(value);
    } catch (const std::exception&) {
    }
    return true;
}

// Why the sources touch the camera, or empty.
std::string camera_evidence(const std::string& file, const std::string& text) {
    if (text.find("\"pcif_defines_af2.h\"") != std::string::npos) return file + ": includes pcif_defines_af2.h";
    for (const char* name : {"MXC_PCIF", "MXC_CAMERAIF0"})
        if (text.find(name) != std::string::npos) return file + ": uses " + name;
    return {};
}

std::string gunzip_file(const std::string& path) {
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f) throw CameraInputError(path + ": cannot open the generator log");
    std::string text;
    char buf[1 << 16];
    int n;
    while ((n = gzread(f, buf, sizeof buf)) > 0) text.append(buf, std::size_t(n));
    int err = Z_OK;
    const std::string message = n < 0 ? gzerror(f, &err) : "";
    gzclose(f);
    if (n < 0) throw CameraInputError(path + ": not a readable gzip file: " + message);
    return text;
}

// The image in the firmware's input shape: the log prints what the network
// takes, but may group it differently (same values, same order).
CameraImage as_firmware_input(CameraImage im, const CameraRequest& request, const std::string& source) {
    if (!request.input) return im;
    const CameraInputShape& s = *request.input;
    if (std::size_t(s.channels) * s.height * s.width != im.bytes.size())
        throw CameraInputError(source + ": its sample input is " + im.shape() + ", the firmware reads " + s.shape());
    im.channels = s.channels, im.height = s.height, im.width = s.width;
    return im;
}

CameraEncoding encoding_for(const CameraRequest& request, const std::string& context) {
    CameraEncoding e;
    e.format = camera_format_from_number(request.args.format, context);
    e.chw = request.input && request.input->chw;
    e.retrace = request.args.retrace;
    return e;
}

CameraWaveform picture_waveform(const std::string& file, const CameraRequest& request) {
    const CameraImage im = read_camera_image(file);
    if (request.input) {
        const CameraInputShape& s = *request.input;
        if (im.channels != s.channels || im.height != s.height || im.width != s.width)
            throw CameraInputError(file + ": the picture is " + im.shape() +
                                   " (channels x height x width), the network's input is " + s.shape() + " (" +
                                   request.evidence + ")");
    }
    return encode_camera_waveform(im, encoding_for(request, file), file);
}

}  // namespace

std::string CameraInputShape::shape() const {
    return std::to_string(channels) + "x" + std::to_string(height) + "x" + std::to_string(width);
}

GeneratorCameraArgs parse_generator_camera_args(const std::string& command_line) {
    std::istringstream in(command_line);
    std::vector<std::string> t;
    for (std::string w; in >> w;) {
        const std::size_t eq = w.find('=');  // --opt=value as two tokens
        if (w.rfind("--", 0) == 0 && eq != std::string::npos) {
            t.push_back(w.substr(0, eq));
            t.push_back(w.substr(eq + 1));
        } else {
            t.push_back(w);
        }
    }
    GeneratorCameraArgs a;
    for (std::size_t i = 0; i < t.size(); ++i) {
        const std::string next = i + 1 < t.size() ? t[i + 1] : "";
        double v = 0;
        if (t[i] == "--input-csv") a.csv_name = next;
        if (t[i] == "--input-sync") a.sync = true;
        if (number_option(t[i], "--input-csv-format", next, v)) a.format = int(v);
        if (number_option(t[i], "--input-csv-retrace", next, v)) a.retrace = int(v);
        if (number_option(t[i], "--input-csv-period", next, v)) a.period_ns = v;
        if (number_option(t[i], "--input-pix-clk", next, v)) a.pix_clk = uint32_t(v);
    }
    return a;
}

std::optional<CameraInputShape> parse_data_input_comment(const std::string& source_text) {
    static const std::regex re(R"(// Data input: (HWC|CHW) (\d+)x(\d+)x(\d+))");
    std::smatch m;
    if (!std::regex_search(source_text, m, re)) return std::nullopt;
    return CameraInputShape{m[1] == "CHW", std::stoi(m[2]), std::stoi(m[3]), std::stoi(m[4])};
}

CameraRequest read_camera_request(const std::string& dir) {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.is_regular_file() && e.path().extension() == ".c") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    CameraRequest r;
    bool have_args = false;
    for (const fs::path& f : files) {
        const std::string text = read_source_text(f), name = f.filename().string();
        if (!r.uses_camera && !(r.evidence = camera_evidence(name, text)).empty()) r.uses_camera = true;
        const std::string cmd = line_after(text, "@generated by ai8xize.py");
        if (!have_args && !cmd.empty()) r.args = parse_generator_camera_args(cmd), have_args = true;
        if (!r.input) r.input = parse_data_input_comment(text);
    }
    return r;
}

CameraImage parse_generator_log_input(const std::string& text, const std::string& source) {
    static const std::regex header(R"(^(\d+)x(\d+)x(\d+) INPUT DATA(?: \d+)?:\s*$)");
    std::istringstream in(text);
    std::string line;
    uint32_t number = 0, start = 0;
    CameraImage im;
    std::vector<int> values;
    while (std::getline(in, line)) {
        ++number;
        std::smatch m;
        if (!start) {
            if (!std::regex_match(line, m, header)) continue;
            start = number;
            im.channels = std::stoi(m[1]), im.height = std::stoi(m[2]), im.width = std::stoi(m[3]);
            continue;
        }
        if (line.rfind("Channel #", 0) == 0) continue;
        if (line.find_first_not_of(" \t\r") == std::string::npos) break;  // the blank line after the last array
        if (line.find("...") != std::string::npos)
            throw CameraInputError(source + ":" + std::to_string(number) + ": the log abbreviates the input data");
        std::replace(line.begin(), line.end(), '[', ' ');
        std::replace(line.begin(), line.end(), ']', ' ');
        std::istringstream row(line);
        std::vector<int> numbers;
        for (int v; row >> v;) numbers.push_back(v);
        if (!row.eof()) break;  // not a line of numbers: the arrays have ended
        values.insert(values.end(), numbers.begin(), numbers.end());
    }
    if (!start) throw CameraInputError(source + ": no layer input data (\"CxHxW INPUT DATA:\") in the log");
    const std::size_t expected = std::size_t(im.channels) * im.height * im.width;
    if (values.size() != expected)
        throw CameraInputError(source + ":" + std::to_string(start) + ": the input data has " +
                               std::to_string(values.size()) + " values, " + im.shape() + " needs " +
                               std::to_string(expected) + " (lines missing from the log?)");
    im.bytes.reserve(expected);
    for (int v : values) im.bytes.push_back(uint8_t(v & 0xFF));  // the byte the camera sends (two's complement)
    return im;
}

CameraImage read_generator_log_input(const std::string& log_path) {
    return parse_generator_log_input(gunzip_file(log_path), log_path);
}

CameraFeed camera_feed_for_run(const std::string& dir, const CameraRequest& request, const std::string& camera_file,
                               double period_ns) {
    CameraFeed feed;
    const GeneratorCameraArgs& a = request.args;
    feed.timing.row_ns = period_ns > 0 ? period_ns : a.period_ns;
    if (a.sync && period_ns <= 0) feed.timing.sync_divider = a.pix_clk;
    const std::string format = std::to_string(a.format);
    const fs::path own = a.csv_name.empty() ? fs::path() : fs::path(dir) / a.csv_name;
    const fs::path log = fs::path(dir) / "log.txt.gz";
    if (!camera_file.empty()) {
        const bool picture = is_camera_image_file(camera_file);
        feed.waveform = picture ? picture_waveform(camera_file, request) : read_camera_csv(camera_file);
        feed.origin = picture ? camera_file + " (" + format + ")" : camera_file;
    } else if (!own.empty() && fs::is_regular_file(own)) {
        feed.waveform = read_camera_csv(own.string());
        feed.origin = own.string();
    } else if (fs::is_regular_file(log)) {
        const CameraImage im = as_firmware_input(read_generator_log_input(log.string()), request, log.string());
        feed.waveform = encode_camera_waveform(im, encoding_for(request, log.string()), log.string());
        feed.origin = log.string() + "'s sample input (" + format + ")";
    } else {
        throw CameraInputError(dir + ": the firmware reads the camera (" + request.evidence +
                               ") but the folder has no " +
                               (a.csv_name.empty() ? std::string("camera waveform") : a.csv_name) +
                               " and no generator log to derive one from; give one with --camera FILE");
    }
    return feed;
}

}  // namespace ai8x
