#include "app/vcd_writer.h"

#include <algorithm>
#include <functional>
#include <ostream>

#include "app/atomic_file.h"

namespace ai8x {

namespace {

// Writes one value change: "1!" for a wire, "b101 !" for a vector, x when unknown.
void put_value(std::ostream& out, const std::optional<uint64_t>& value, unsigned width, const std::string& id) {
    if (width == 1) {
        out << (value ? (*value ? '1' : '0') : 'x') << id << '\n';
        return;
    }
    char bits[66];
    std::size_t n = 0;
    if (!value) {
        bits[n++] = 'x';
    } else {
        unsigned top = 63;
        while (top > 0 && !(*value >> top & 1)) --top;
        for (unsigned b = top + 1; b-- > 0;) bits[n++] = char('0' + (*value >> b & 1));
    }
    out << 'b';
    out.write(bits, std::streamsize(n));
    out << ' ' << id << '\n';
}

unsigned bits_for(uint64_t v) {
    unsigned n = 1;
    while (n < 64 && (v >> n) != 0) ++n;
    return n;
}

}  // namespace

int VcdWriter::add_signal(const std::string& scope, const std::string& name, unsigned width,
                          std::optional<uint64_t> initial) {
    signals_.push_back({scope, name, std::max(1u, width), initial});
    return int(signals_.size() - 1);
}

void VcdWriter::change(uint64_t time, int signal, std::optional<uint64_t> value) {
    changes_.push_back({time, signal, value});
}

std::string VcdWriter::identifier(std::size_t n) {
    // Identifier codes are strings of the printable characters '!' (33) to '~' (126).
    constexpr std::size_t kBase = 94;
    std::string id;
    do {
        id += char('!' + n % kBase);
        n /= kBase;
    } while (n > 0);
    return id;
}

void VcdWriter::write_definitions(std::ostream& out, const std::vector<unsigned>& widths) const {
    // Scopes nest by their dotted names, in the order signals first name them.
    std::function<void(const std::string&)> emit = [&](const std::string& prefix) {
        for (std::size_t i = 0; i < signals_.size(); ++i)
            if (signals_[i].scope == prefix)
                out << "$var wire " << widths[i] << " " << identifier(i) << " " << signals_[i].name
                    << (widths[i] > 1 ? " [" + std::to_string(widths[i] - 1) + ":0]" : "") << " $end\n";
        std::vector<std::string> children;
        for (const Signal& s : signals_) {
            const std::string& scope = s.scope;
            if (prefix.empty() ? scope.empty() : scope.compare(0, prefix.size() + 1, prefix + ".") != 0) continue;
            const std::size_t from = prefix.empty() ? 0 : prefix.size() + 1;
            const std::string child = scope.substr(from, scope.find('.', from) - from);
            if (std::find(children.begin(), children.end(), child) == children.end()) children.push_back(child);
        }
        for (const std::string& child : children) {
            out << "$scope module " << child << " $end\n";
            emit(prefix.empty() ? child : prefix + "." + child);
            out << "$upscope $end\n";
        }
    };
    emit("");
}

void VcdWriter::write(const std::string& path) const {
    std::vector<unsigned> widths;
    for (const Signal& s : signals_) widths.push_back(s.width);
    for (const Change& c : changes_)
        if (c.value && widths[c.signal] > 1) widths[c.signal] = std::max(widths[c.signal], bits_for(*c.value));
    for (std::size_t i = 0; i < signals_.size(); ++i)
        if (signals_[i].initial && widths[i] > 1) widths[i] = std::max(widths[i], bits_for(*signals_[i].initial));

    std::vector<Change> sorted = changes_;
    std::stable_sort(sorted.begin(), sorted.end(), [](const Change& a, const Change& b) { return a.time < b.time; });

    write_file_atomically(path, [&](std::ostream& out) {
        out << "$version ai8xsim $end\n";
        for (const std::string& c : comments_) out << "$comment " << c << " $end\n";
        out << "$timescale " << timescale_ << " $end\n";
        write_definitions(out, widths);
        out << "$enddefinitions $end\n";
        std::vector<std::optional<uint64_t>> now;
        std::vector<std::string> ids;
        out << "#0\n$dumpvars\n";
        for (std::size_t i = 0; i < signals_.size(); ++i) {
            now.push_back(signals_[i].initial);
            ids.push_back(identifier(i));
            put_value(out, now[i], widths[i], ids[i]);
        }
        out << "$end\n";
        // One block per time; of several changes of a signal at that time the last wins.
        std::vector<std::optional<uint64_t>> next = now;
        std::vector<bool> touched(signals_.size(), false);
        std::vector<int> order;
        for (std::size_t b = 0; b < sorted.size();) {
            const uint64_t time = sorted[b].time;
            std::size_t e = b;
            order.clear();
            for (; e < sorted.size() && sorted[e].time == time; ++e) {
                next[sorted[e].signal] = sorted[e].value;
                if (!touched[sorted[e].signal]) order.push_back(sorted[e].signal);
                touched[sorted[e].signal] = true;
            }
            bool stamped = false;
            for (int s : order) {
                touched[s] = false;
                if (next[s] == now[s]) continue;
                if (!stamped) out << '#' << time << '\n';
                stamped = true;
                now[s] = next[s];
                put_value(out, now[s], widths[s], ids[s]);
            }
            b = e;
        }
    });
}

}  // namespace ai8x
