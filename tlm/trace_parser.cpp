#include "tlm/trace_parser.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "tlm/trace_number.h"
#include "tlm/trace_word_file.h"

namespace ai8x {

namespace {

namespace fs = std::filesystem;

// The bus is 32 bits wide; addresses beyond that cannot be reached.
constexpr uint64_t kMaxAddress = 0xffffffffu;

class LineParser {
public:
    LineParser(const std::string& source, unsigned line, std::vector<std::string> tokens, const std::string& base_dir)
        : source_(source), line_(line), tokens_(std::move(tokens)), base_dir_(base_dir) {}

    TraceCommand parse() {
        const std::string& word = tokens_[0];
        cmd_.line = line_;
        if (parse_sized(word, "write", TraceOp::Write)) {
            expect_args(2, 2, "ADDR VALUE");
            cmd_.address = address(1);
            cmd_.value = value(2, "VALUE");
        } else if (parse_sized(word, "read", TraceOp::Read)) {
            expect_args(2, 3, "ADDR EXPECTED [MASK]");
            cmd_.address = address(1);
            cmd_.value = value(2, "EXPECTED");
            cmd_.mask = tokens_.size() > 3 ? value(3, "MASK") : full_mask();
        } else if (parse_sized(word, "poll", TraceOp::Poll)) {
            expect_args(3, 4, "ADDR EXPECTED [MASK] TIMEOUT");
            cmd_.address = address(1);
            cmd_.value = value(2, "EXPECTED");
            cmd_.mask = tokens_.size() > 4 ? value(3, "MASK") : full_mask();
            cmd_.timeout_ps = duration(tokens_.size() - 1);
        } else if (word == "wait_irq") {
            cmd_.op = TraceOp::WaitIrq;
            expect_args(1, 1, "TIMEOUT");
            cmd_.timeout_ps = duration(1);
        } else if (word == "load" || word == "check") {
            cmd_.op = word == "load" ? TraceOp::Load : TraceOp::Check;
            expect_args(2, 2, "ADDR FILE");
            cmd_.address = address(1);
            file(2);
            read_image();
        } else if (word == "dump") {
            cmd_.op = TraceOp::Dump;
            expect_args(3, 3, "ADDR LENGTH FILE");
            cmd_.address = address(1);
            cmd_.length = length(2);
            file(3);
        } else {
            fail("expected a command (write8/16/32, read8/16/32, poll8/16/32, wait_irq, load, dump, check), got '" +
                 word + "'");
        }
        return cmd_;
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw TraceParseError(source_ + ":" + std::to_string(line_) + ": " + what);
    }

    // "write32" -> Write, 4 bytes. Returns false if `word` does not start with `stem`.
    bool parse_sized(const std::string& word, const std::string& stem, TraceOp op) {
        if (word.rfind(stem, 0) != 0) return false;
        const std::string bits = word.substr(stem.size());
        if (bits == "8")
            cmd_.size = 1;
        else if (bits == "16")
            cmd_.size = 2;
        else if (bits == "32")
            cmd_.size = 4;
        else
            fail("expected " + stem + "8, " + stem + "16 or " + stem + "32, got '" + word + "'");
        cmd_.op = op;
        return true;
    }

    void expect_args(std::size_t min, std::size_t max, const std::string& usage) const {
        const std::size_t n = tokens_.size() - 1;
        if (n < min || n > max) {
            fail("expected " + tokens_[0] + " " + usage + ", got " + std::to_string(n) + " argument" +
                 (n == 1 ? "" : "s"));
        }
    }

    uint64_t number(std::size_t i, const std::string& what) const {
        const auto v = parse_number(tokens_[i]);
        if (!v) fail("expected " + what + " as a decimal or 0x-hexadecimal number, got '" + tokens_[i] + "'");
        return *v;
    }

    uint32_t full_mask() const { return cmd_.size == 4 ? 0xffffffffu : (1u << (cmd_.size * 8)) - 1; }

    uint64_t address(std::size_t i) const {
        const uint64_t a = number(i, "ADDR");
        if (a > kMaxAddress) fail("expected ADDR below 2^32, got '" + tokens_[i] + "'");
        // load/dump/check move 32-bit words; sized accesses must be naturally aligned.
        const unsigned align =
            cmd_.op == TraceOp::Write || cmd_.op == TraceOp::Read || cmd_.op == TraceOp::Poll ? cmd_.size : 4;
        if (a % align != 0) {
            fail("expected ADDR aligned to " + std::to_string(align) + " bytes, got '" + tokens_[i] + "'");
        }
        return a;
    }

    uint32_t value(std::size_t i, const std::string& what) const {
        const uint64_t v = number(i, what);
        if (v > full_mask()) {
            fail("expected " + what + " to fit in " + std::to_string(cmd_.size * 8) + " bits, got '" + tokens_[i] +
                 "'");
        }
        return static_cast<uint32_t>(v);
    }

    uint64_t length(std::size_t i) const {
        const uint64_t n = number(i, "LENGTH");
        if (n == 0 || n % 4 != 0) fail("expected LENGTH to be a non-zero multiple of 4, got '" + tokens_[i] + "'");
        if (n > kMaxAddress + 1 - cmd_.address) fail("expected ADDR + LENGTH to stay below 2^32");
        return n;
    }

    uint64_t duration(std::size_t i) const {
        const auto ps = parse_duration_ps(tokens_[i]);
        if (!ps || *ps == 0) {
            fail("expected TIMEOUT as a positive integer with unit ps/ns/us/ms/s (e.g. 10us), got '" + tokens_[i] +
                 "'");
        }
        return *ps;
    }

    void file(std::size_t i) {
        cmd_.file = tokens_[i];
        const fs::path p(cmd_.file);
        cmd_.path = p.is_absolute() ? p.string() : (fs::path(base_dir_) / p).string();
    }

    void read_image() {
        try {
            cmd_.words = read_word_file(cmd_.path);
        } catch (const WordFileError& e) {
            fail(std::string("expected a readable memory image: ") + e.what());
        }
        if (cmd_.words.empty()) fail("expected a non-empty memory image in '" + cmd_.file + "'");
        if (cmd_.words.size() * 4 > kMaxAddress + 1 - cmd_.address) {
            fail("expected ADDR + image size to stay below 2^32");
        }
    }

    const std::string& source_;
    unsigned line_;
    std::vector<std::string> tokens_;
    const std::string& base_dir_;
    TraceCommand cmd_;
};

}  // namespace

Trace parse_trace_text(const std::string& text, const std::string& source, const std::string& base_dir) {
    Trace trace;
    trace.source = source;
    std::istringstream in(text);
    std::string line;
    for (unsigned lineno = 1; std::getline(in, line); ++lineno) {
        std::istringstream words(line.substr(0, line.find('#')));
        std::vector<std::string> tokens;
        for (std::string t; words >> t;) tokens.push_back(t);
        if (tokens.empty()) continue;
        trace.commands.push_back(LineParser(source, lineno, std::move(tokens), base_dir).parse());
    }
    return trace;
}

Trace parse_trace_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw TraceParseError(path + ": cannot open trace file");
    std::ostringstream text;
    text << in.rdbuf();
    const fs::path parent = fs::path(path).parent_path();
    return parse_trace_text(text.str(), path, parent.empty() ? "." : parent.string());
}

}  // namespace ai8x
