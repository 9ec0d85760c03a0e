#include "app/run_console.h"

namespace ai8x {

Verdict RunConsole::put(char c) {
    text_ += c;
    if (echo_) {
        std::fputc(c, echo_);
        if (c == '\n') std::fflush(echo_);
    }
    if (c != '\n') {
        line_ += c;
        return Verdict::kNone;
    }
    Verdict v = Verdict::kNone;
    // The first verdict counts: a FAIL cannot be undone by later output.
    if (line_.find("*** PASS ***") != std::string::npos) v = Verdict::kPass;
    if (line_.find("*** FAIL ***") != std::string::npos) v = Verdict::kFail;
    line_.clear();
    if (v != Verdict::kNone && verdict_ == Verdict::kNone) verdict_ = v;
    return v;
}

}  // namespace ai8x
