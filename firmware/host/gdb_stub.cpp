#include "firmware/host/gdb_stub.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <systemc>
#include <vector>

namespace ai8x {

namespace {

using gdb::parse_hex;

// Largest packet GDB may send us (qSupported PacketSize, hex digits): an
// "M" packet then carries up to about 2000 bytes.
constexpr size_t kPacketSize = 0x4000;
constexpr uint32_t kMaxMemoryReply = (kPacketSize - 16) / 2;
constexpr const char* kSigTrap = "05";
constexpr const char* kSigInt = "02";

// "ADDR,LEN" -> both; nothing when malformed.
std::optional<std::pair<uint32_t, uint32_t>> address_length(const std::string& text) {
    const auto comma = text.find(',');
    if (comma == std::string::npos) return std::nullopt;
    const auto a = parse_hex(text.substr(0, comma));
    const auto n = parse_hex(text.substr(comma + 1));
    if (!a || !n || *a > 0xffffffffu || *n > 0xffffffffu) return std::nullopt;
    return std::make_pair(uint32_t(*a), uint32_t(*n));
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

GdbStub::GdbStub(gdb::Server& server, CortexM4& cpu) : server_(server), cpu_(cpu) { cpu_.attach_debugger(this); }

const std::string& GdbStub::target_xml() {
    // The M-profile core registers GDB's Arm support expects; numbered in
    // order (r0-r12 0-12, sp 13, lr 14, pc 15, xpsr 16), as CortexM4 numbers them.
    static const std::string xml = [] {
        std::string regs;
        for (int i = 0; i <= 12; ++i)
            regs += "<reg name=\"r" + std::to_string(i) + "\" bitsize=\"32\" type=\"uint32\" group=\"general\"/>";
        regs +=
            "<reg name=\"sp\" bitsize=\"32\" type=\"data_ptr\" group=\"general\"/>"
            "<reg name=\"lr\" bitsize=\"32\" type=\"uint32\" group=\"general\"/>"
            "<reg name=\"pc\" bitsize=\"32\" type=\"code_ptr\" group=\"general\"/>"
            "<reg name=\"xpsr\" bitsize=\"32\" type=\"uint32\" group=\"general\"/>";
        return "<?xml version=\"1.0\"?><!DOCTYPE target SYSTEM \"gdb-target.dtd\">"
               "<target version=\"1.0\"><architecture>arm</architecture>"
               "<feature name=\"org.gnu.gdb.arm.m-profile\">" +
               regs + "</feature></target>";
    }();
    return xml;
}

void GdbStub::stopped(const DebugStop& why) {
    if (ended_) return;
    if (!server_.connected()) {
        spdlog::info("gdb: waiting for GDB on 127.0.0.1:{}", server_.port());
        server_.accept_connection();
        spdlog::info("gdb: connected");
    }
    last_stop_ = why;
    if (running_) server_.send_packet(stop_reply(why));
    running_ = false;
    resumed_ = false;
    while (!resumed_ && !ended_) {
        const auto packet = server_.read_packet();
        if (!packet) {
            end_session("GDB disconnected; the run continues to its verdict");
            return;
        }
        const auto reply = answer(*packet);
        if (reply) server_.send_packet(*reply);
    }
}

bool GdbStub::interrupt_requested() {
    if (ended_) return false;
    if (server_.interrupt_requested()) return true;
    if (!server_.connected()) end_session("GDB disconnected; the run continues to its verdict");
    return false;
}

void GdbStub::finish(int exit_code) {
    if (ended_ || !server_.connected()) return;
    if (running_) server_.send_packet("W" + gdb::to_hex(std::string(1, char(exit_code & 0xff))));
    running_ = false;
    ended_ = true;
    server_.close_connection();
}

void GdbStub::kill() {
    spdlog::info("gdb: kill: stopping the simulation");
    killed_ = true;
    end_session(nullptr);
    cpu_.halt();
    sc_core::sc_stop();
}

void GdbStub::end_session(const char* why) {
    if (why) spdlog::warn("gdb: {}", why);
    ended_ = true;
    cpu_.detach_debugger();
    server_.close_connection();
}

std::string GdbStub::stop_reply(const DebugStop& why) const {
    std::string r = std::string("T") + (why.kind == DebugStop::kInterrupt ? kSigInt : kSigTrap);
    if (why.kind == DebugStop::kWatchpoint) {
        const char* kind = why.watch == WatchKind::kWrite  ? "watch"
                           : why.watch == WatchKind::kRead ? "rwatch"
                                                           : "awatch";
        r += std::string(kind) + ":" + fmt::format("{:x}", why.data_address) + ";";
    }
    return r + "thread:1;";
}

std::optional<std::string> GdbStub::answer(const std::string& packet) {
    if (packet.empty()) return std::string();
    const std::string args = packet.substr(1);
    switch (packet[0]) {
        case '?': return stop_reply(last_stop_);
        case 'q': return query(packet);
        case 'Q':
            if (packet == "QStartNoAckMode") {
                server_.send_packet("OK");
                server_.set_no_ack();
                return std::nullopt;
            }
            return std::string();
        case 'H':  // one thread: any selection is fine
        case 'T': return std::string("OK");
        case 'g': {
            std::string r;
            for (int i = 0; i < CortexM4::kDebugRegisters; ++i) r += gdb::le32_hex(cpu_.debug_register(i));
            return r;
        }
        case 'G': {
            if (args.size() != size_t(8 * CortexM4::kDebugRegisters)) return std::string("E01");
            std::vector<uint32_t> values;
            for (int i = 0; i < CortexM4::kDebugRegisters; ++i) {
                const auto v = gdb::parse_le32_hex(args.substr(size_t(8 * i), 8));
                if (!v) return std::string("E01");
                values.push_back(*v);
            }
            for (int i = 0; i < CortexM4::kDebugRegisters; ++i) cpu_.set_debug_register(i, values[size_t(i)]);
            return std::string("OK");
        }
        case 'p': {
            const auto n = parse_hex(args);
            if (!n || *n >= uint64_t(CortexM4::kDebugRegisters)) return std::string("E01");
            return gdb::le32_hex(cpu_.debug_register(int(*n)));
        }
        case 'P': {
            const auto eq = args.find('=');
            const auto n = parse_hex(args.substr(0, eq));
            const auto v = eq == std::string::npos ? std::nullopt : gdb::parse_le32_hex(args.substr(eq + 1));
            if (!n || !v || *n >= uint64_t(CortexM4::kDebugRegisters)) return std::string("E01");
            cpu_.set_debug_register(int(*n), *v);
            return std::string("OK");
        }
        case 'm': return read_memory(args);
        case 'M': return write_memory(args, false);
        case 'X': return write_memory(args, true);
        case 'Z': return breakpoint(args, true);
        case 'z': return breakpoint(args, false);
        case 'c':
        case 's': return resume(packet.substr(0, 1), args);
        case 'C':
        case 'S': {  // the signal is not delivered (bare metal): as c / s
            const auto semi = args.find(';');
            return resume(std::string(1, char(packet[0] - 'A' + 'a')),
                          semi == std::string::npos ? std::string() : args.substr(semi + 1));
        }
        case 'v': return v_packet(packet);
        case 'D':
            server_.send_packet("OK");
            spdlog::info("gdb: detached; the run continues");
            end_session(nullptr);
            return std::nullopt;
        case 'k': kill(); return std::nullopt;  // no reply to k
        default: return std::string();
    }
}

std::string GdbStub::query(const std::string& packet) {
    if (starts_with(packet, "qSupported"))
        return fmt::format("PacketSize={:x};qXfer:features:read+;QStartNoAckMode+", kPacketSize);
    if (starts_with(packet, "qXfer:features:read:")) {
        // qXfer:features:read:ANNEX:OFFSET,LENGTH
        const std::string rest = packet.substr(std::string("qXfer:features:read:").size());
        const auto colon = rest.find(':');
        if (colon == std::string::npos || rest.substr(0, colon) != "target.xml") return "E00";
        const auto range = address_length(rest.substr(colon + 1));
        if (!range) return "E00";
        const std::string& xml = target_xml();
        if (range->first >= xml.size()) return "l";
        const std::string part = xml.substr(range->first, range->second);
        return (range->first + part.size() >= xml.size() ? "l" : "m") + gdb::escape(part);
    }
    if (packet == "qAttached") return "1";  // GDB's quit then detaches: the run goes on
    if (packet == "qC") return "QC1";
    if (packet == "qfThreadInfo") return "m1";
    if (packet == "qsThreadInfo") return "l";
    if (starts_with(packet, "qSymbol")) return "OK";
    return std::string();
}

std::string GdbStub::read_memory(const std::string& args) {
    const auto range = address_length(args);
    if (!range) return "E01";
    const uint32_t size = std::min(range->second, kMaxMemoryReply);
    std::vector<uint8_t> data(size);
    if (!cpu_.debug_read(range->first, data.data(), size)) return "E14";  // EFAULT
    return gdb::to_hex(data.data(), data.size());
}

std::string GdbStub::write_memory(const std::string& args, bool binary) {
    const auto colon = args.find(':');
    if (colon == std::string::npos) return "E01";
    const auto range = address_length(args.substr(0, colon));
    if (!range) return "E01";
    std::vector<uint8_t> data;
    if (binary) {
        const std::string raw = gdb::unescape(args.substr(colon + 1));
        data.assign(raw.begin(), raw.end());
    } else {
        auto hex = gdb::from_hex(args.substr(colon + 1));
        if (!hex) return "E01";
        data = std::move(*hex);
    }
    if (data.size() != range->second) return "E01";
    if (data.empty()) return "OK";  // GDB probes X support with a zero-length write
    return cpu_.debug_write(range->first, data.data(), uint32_t(data.size())) ? "OK" : "E14";
}

std::string GdbStub::breakpoint(const std::string& args, bool insert) {
    // TYPE,ADDR,KIND (KIND: instruction size for 0/1, byte count for 2-4)
    const auto comma = args.find(',');
    if (comma != 1) return std::string();
    const auto range = address_length(args.substr(2));
    if (!range) return "E01";
    const char type = args[0];
    if (type == '0' || type == '1') {  // software and hardware breakpoints are the same hook
        if (insert)
            cpu_.add_breakpoint(range->first);
        else
            cpu_.remove_breakpoint(range->first);
        return "OK";
    }
    if (type < '2' || type > '4') return std::string();
    const WatchKind kind = type == '2' ? WatchKind::kWrite : type == '3' ? WatchKind::kRead : WatchKind::kAccess;
    if (insert)
        cpu_.add_watchpoint(range->first, range->second, kind);
    else
        cpu_.remove_watchpoint(range->first, range->second, kind);
    return "OK";
}

std::optional<std::string> GdbStub::resume(const std::string& action, const std::string& address) {
    if (!address.empty()) {
        const auto a = parse_hex(address);
        if (!a) return std::string("E01");
        cpu_.set_debug_register(15, uint32_t(*a));
    }
    cpu_.resume(action == "s");
    running_ = true;
    resumed_ = true;
    return std::nullopt;
}

std::optional<std::string> GdbStub::v_packet(const std::string& packet) {
    if (packet == "vCont?") return std::string("vCont;c;C;s;S");
    if (starts_with(packet, "vCont;")) {
        // One thread: the first action applies (vCont;s:1;c -> step).
        std::string action = packet.substr(6);
        action = action.substr(0, action.find_first_of(";:"));
        if (action.empty()) return std::string("E01");
        const char a = char(std::tolower(static_cast<unsigned char>(action[0])));
        if (a != 'c' && a != 's') return std::string();
        return resume(std::string(1, a), {});
    }
    if (starts_with(packet, "vKill")) {
        server_.send_packet("OK");
        kill();
        return std::nullopt;
    }
    return std::string();  // vMustReplyEmpty and anything else unsupported
}

}  // namespace ai8x
