#include "firmware/host/camera/camera_waveform.h"

#include <cctype>
#include <fstream>
#include <sstream>

namespace ai8x {

namespace {

constexpr const char* kHeader = "vsync,href,pclk,d";

std::string trim_csv_text(const std::string& s) {
    std::size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return s.substr(b, e - b);
}

[[noreturn]] void fail_at_line(const std::string& source, uint32_t line, const std::string& what) {
    throw CameraInputError(source + ":" + std::to_string(line) + ": " + what);
}

// One hexadecimal field (as %H reads it: hex digits, no prefix).
uint32_t hex_field(const std::string& text, const char* name, const std::string& source, uint32_t line) {
    const std::string f = trim_csv_text(text);
    if (f.empty() || f.size() > 8)
        fail_at_line(source, line, std::string("field ") + name + " '" + f + "' is not a hex number");
    uint32_t v = 0;
    for (char c : f) {
        if (!std::isxdigit(static_cast<unsigned char>(c)))
            fail_at_line(source, line, std::string("field ") + name + " '" + f + "' is not a hex number");
        v = v * 16 + uint32_t(std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : std::tolower(c) - 'a' + 10);
    }
    return v;
}

bool pin_field(const std::string& text, const char* name, const std::string& source, uint32_t line) {
    const uint32_t v = hex_field(text, name, source, line);
    if (v > 1) fail_at_line(source, line, std::string("pin ") + name + " is " + trim_csv_text(text) + ", not 0 or 1");
    return v == 1;
}

CameraRow parse_row(const std::string& text, const std::string& source, uint32_t line) {
    std::vector<std::string> fields;
    std::stringstream ss(text);
    for (std::string f; std::getline(ss, f, ',');) fields.push_back(f);
    if (!text.empty() && text.back() == ',') fields.emplace_back();
    if (fields.size() != 4)
        fail_at_line(source, line, "expected 4 fields vsync,href,pclk,d, found " + std::to_string(fields.size()));
    CameraRow row;
    row.vsync = pin_field(fields[0], "vsync", source, line);
    row.href = pin_field(fields[1], "href", source, line);
    row.pclk = pin_field(fields[2], "pclk", source, line);
    const uint32_t d = hex_field(fields[3], "d", source, line);
    if (d > kCameraDataMask)
        fail_at_line(source, line, "data " + trim_csv_text(fields[3]) + " is wider than the 12 data pins");
    row.data = uint16_t(d);
    return row;
}

}  // namespace

std::string CameraWaveform::where(std::size_t index) const {
    if (index < lines.size()) return source + ":" + std::to_string(lines[index]);
    return source + ", row " + std::to_string(index + 1);
}

CameraWaveform parse_camera_csv(std::istream& text, const std::string& source) {
    CameraWaveform wave;
    wave.source = source;
    std::string line;
    uint32_t number = 0;
    bool header = false;
    while (std::getline(text, line)) {
        ++number;
        const std::string t = trim_csv_text(line);
        if (t.empty()) continue;  // %H skips blank lines
        if (!header) {
            if (t != kHeader)
                fail_at_line(source, number, "expected the header '" + std::string(kHeader) + "', found '" + t + "'");
            header = true;
            continue;
        }
        wave.rows.push_back(parse_row(t, source, number));
        wave.lines.push_back(number);
    }
    if (!header) fail_at_line(source, number ? number : 1, "empty: expected the header '" + std::string(kHeader) + "'");
    if (wave.rows.empty()) fail_at_line(source, number, "no rows after the header");
    return wave;
}

CameraWaveform read_camera_csv(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw CameraInputError(path + ": cannot open the camera waveform");
    return parse_camera_csv(in, path);
}

void write_camera_csv(std::ostream& out, const CameraWaveform& wave) {
    static const char* digits = "0123456789abcdef";
    out << kHeader << '\n';
    std::string hex;
    for (const CameraRow& r : wave.rows) {
        hex.clear();
        for (uint16_t d = r.data; d != 0 || hex.size() < 2; d >>= 4) hex.insert(hex.begin(), digits[d & 0xF]);
        out << int(r.vsync) << ',' << int(r.href) << ',' << int(r.pclk) << ',' << hex << '\n';
    }
}

}  // namespace ai8x
