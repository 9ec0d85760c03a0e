// The firmware's console as `ai8xsim run` sees it: collects the text, echoes
// it, and recognises the known-answer test's verdict lines that generated
// main() prints ("*** PASS ***" / "*** FAIL ***").
#pragma once

#include <cstdio>
#include <string>

namespace ai8x {

enum class Verdict { kNone, kPass, kFail };

class RunConsole {
public:
    explicit RunConsole(std::FILE* echo) : echo_(echo) {}  // echo = nullptr: quiet

    // One character from the firmware. Returns the verdict if this character
    // completed a verdict line, kNone otherwise.
    Verdict put(char c);

    const std::string& text() const { return text_; }
    Verdict verdict() const { return verdict_; }

private:
    std::FILE* echo_;
    std::string text_;
    std::string line_;
    Verdict verdict_ = Verdict::kNone;
};

}  // namespace ai8x
