#include "app/timeline_writer.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "app/atomic_file.h"

namespace ai8x {

namespace {

// Processes and threads of the trace (Chrome trace events name them by number).
constexpr int kCpu = 1, kCnn = 2;
constexpr int kPhasesThread = 1, kSleepThread = 2, kInferencePhaseThread = 3;  // in kCpu
constexpr int kSequencerThread = 1, kFifoThread = 2;                           // in kCnn
constexpr int kQuadrantThread0 = 10, kStreamLayerThread0 = 100;                // + quadrant / + layer

double us(sc_core::sc_time t) { return t.to_seconds() * 1e6; }

nlohmann::json complete(const std::string& name, const char* category, int pid, int tid, sc_core::sc_time from,
                        sc_core::sc_time to, nlohmann::json args = nlohmann::json::object()) {
    return {{"name", name},         {"cat", category},        {"ph", "X"}, {"pid", pid}, {"tid", tid}, {"ts", us(from)},
            {"dur", us(to - from)}, {"args", std::move(args)}};
}

nlohmann::json metadata(const char* what, int pid, int tid, const std::string& name) {
    nlohmann::json e{{"name", what}, {"ph", "M"}, {"pid", pid}, {"args", {{"name", name}}}};
    if (tid >= 0) e["tid"] = tid;
    return e;
}

// The trace's events as JSON text, one per line: serialised as they come, so
// a long streaming run does not hold tens of thousands of JSON objects.
struct EventList {
    std::string text;
    std::size_t count = 0;
    void push_back(const nlohmann::json& event) {
        if (count++) text += ",\n";
        text += event.dump();
    }
};

}  // namespace

void write_timeline(const WaveformRecorder& r, const std::vector<FirmwarePhases::Span>& phases,
                    const std::vector<std::string>& quadrant_names, const std::string& path) {
    EventList events;
    events.push_back(metadata("process_name", kCpu, -1, "cpu"));
    events.push_back(metadata("process_name", kCnn, -1, "cnn"));
    events.push_back(metadata("thread_name", kCpu, kPhasesThread, "firmware phases"));
    events.push_back(metadata("thread_name", kCpu, kSleepThread, "sleep (WFI)"));
    // FIFO firmware loads its input while the CNN runs: the inference phase
    // gets its own row so that the phases' slices never cross.
    events.push_back(metadata("thread_name", kCpu, kInferencePhaseThread, "inference phase"));
    events.push_back(metadata("thread_name", kCnn, kSequencerThread, "cnn"));
    events.push_back(metadata("thread_name", kCnn, kFifoThread, "cnn.fifo"));
    for (std::size_t q = 0; q < quadrant_names.size(); ++q)
        events.push_back(metadata("thread_name", kCnn, kQuadrantThread0 + int(q), quadrant_names[q]));

    for (const auto& p : phases)
        events.push_back(complete(p.phase, "phase", kCpu, kPhasesThread, p.when.from, p.when.to));
    for (std::size_t i = 0; i < r.inferences().size(); ++i) {
        const auto& inf = r.inferences()[i];
        if (!inf.cycles) continue;  // the run ended before the inference did
        const sc_core::sc_time end = r.time_of(i, *inf.cycles);
        nlohmann::json args{{"cycles", *inf.cycles}, {"cnn_clock_hz", inf.hz}};
        events.push_back(complete("inference", "phase", kCpu, kInferencePhaseThread, inf.start, end, args));
        events.push_back(complete("inference", "cnn", kCnn, kSequencerThread, inf.start, end, args));
    }

    std::vector<int> stream_threads;
    for (const auto& l : r.layers()) {
        const nlohmann::json args{
            {"layer", l.layer}, {"cycles", l.end - l.first}, {"passes", l.passes}, {"streaming", l.streaming}};
        const std::string name = "layer " + std::to_string(l.layer);
        const sc_core::sc_time from = r.time_of(l.inference, l.first), to = r.time_of(l.inference, l.end);
        if (l.streaming) {
            // Streaming layers overlap each other: one thread each.
            const int tid = kStreamLayerThread0 + l.layer;
            if (std::find(stream_threads.begin(), stream_threads.end(), tid) == stream_threads.end()) {
                stream_threads.push_back(tid);
                events.push_back(metadata("thread_name", kCnn, tid, "cnn.stream layer " + std::to_string(l.layer)));
            }
            events.push_back(complete(name, "layer", kCnn, tid, from, to, args));
            continue;
        }
        bool placed = false;
        for (std::size_t q = 0; q < quadrant_names.size(); ++q)
            if (l.quadrants >> q & 1) {
                events.push_back(complete(name, "layer", kCnn, kQuadrantThread0 + int(q), from, to, args));
                placed = true;
            }
        if (!placed) events.push_back(complete(name, "layer", kCnn, kSequencerThread, from, to, args));
    }
    for (const auto& s : r.stalls())
        events.push_back(complete("FIFO stall", "stall", kCnn, kFifoThread, r.time_of(s.inference, s.first),
                                  r.time_of(s.inference, s.end), {{"cycles", s.end - s.first}}));
    for (const auto& e : r.irq())
        events.push_back({{"name", e.level ? "CNN interrupt" : "CNN interrupt cleared"},
                          {"cat", "irq"},
                          {"ph", "i"},
                          {"s", "p"},
                          {"pid", kCnn},
                          {"tid", kSequencerThread},
                          {"ts", us(e.at)}});
    // WFI sleeps: from each falling asleep to the next wake-up (or the end of the run).
    for (std::size_t k = 0; k < r.sleep().size(); ++k) {
        if (!r.sleep()[k].level) continue;
        const sc_core::sc_time to = k + 1 < r.sleep().size() && !r.sleep()[k + 1].level ? r.sleep()[k + 1].at : r.end();
        events.push_back(complete("WFI", "sleep", kCpu, kSleepThread, r.sleep()[k].at, to));
    }

    write_file_atomically(path, [&](std::ostream& out) {
        out << "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n" << events.text << "\n]}\n";
    });
}

}  // namespace ai8x
