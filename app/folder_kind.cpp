#include "app/folder_kind.h"

#include <filesystem>
#include <optional>

#include "app/camera_folder.h"
#include "app/run_context.h"
#include "app/rtl_folder_kind.h"

namespace fs = std::filesystem;

namespace ai8x {

// A folder generated for the camera (--input-csv) includes the RTL testbench's
// camera header, pcif_defines_af2.h, in its embedded-C form too.
FirmwareSources FolderKind::firmware_sources(const RunContext& ctx) const {
    FirmwareSources s = FirmwareSources::of_folder(ctx.vector_dir);
    if (read_camera_request(ctx.vector_dir).uses_camera) s.include_dirs.push_back(rtl_environment_include_dir());
    return s;
}

namespace {

// Files the generator writes for the Arm core; a folder without cnn.c/cnn.h
// is plain firmware (e.g. firmware/examples) and needs only main.c.
const char* const kGeneratedFiles[] = {"cnn.c", "cnn.h", "weights.h", "sampledata.h", "sampleoutput.h"};
// check_output()'s return value for a match (CNN_OK in the generator's cnn.h).
constexpr uint32_t kGeneratedCnnOk = 1;

// The vendor generator's embedded-C folder (or hand-written firmware with a
// main.c). Its main() prints "*** PASS ***" or "*** FAIL ***" after
// check_output(), whose return value is the known-answer test's own result:
// kept apart from how the run ended, since a firmware that corrupts memory
// after its check (generated main() calls cnn_unload between check_output
// and the PASS line) may crash before it prints the verdict. In a dual-core
// folder the check is main_riscv.c's, on the RISC-V core.
class GeneratedFolder : public FolderKind {
public:
    std::string name() const override { return "generated"; }

    std::string check_folder(const std::string& dir) const override {
        if (!fs::is_directory(dir)) return dir + ": no such directory";
        if (!fs::is_regular_file(fs::path(dir) / "main.c")) return (fs::path(dir) / "main.c").string() + ": missing";
        const bool generated = fs::exists(fs::path(dir) / "cnn.c") || fs::exists(fs::path(dir) / "cnn.h");
        if (generated)
            for (const char* f : kGeneratedFiles)
                if (!fs::is_regular_file(fs::path(dir) / f))
                    return (fs::path(dir) / f).string() + ": missing (generator output is incomplete)";
        return {};
    }

    void attach(RunContext& ctx) override {
        for (UnicornCpu* core : {static_cast<UnicornCpu*>(ctx.cpu), static_cast<UnicornCpu*>(ctx.riscv)}) {
            if (!core || !core->image()) continue;
            if (const auto check = core->image()->symbol("check_output"); check && !check->object)
                core->observe_calls(check->address, [this, core](sc_core::sc_time, sc_core::sc_time) {
                    check_output_ok_ = core->return_value() == kGeneratedCnnOk;
                });
        }
    }

    std::string known_answer(const RunContext& ctx) const override {
        const Verdict printed = ctx.instruments->console->verdict();
        if (printed != Verdict::kNone) return printed == Verdict::kPass ? "pass" : "fail";
        if (check_output_ok_) return *check_output_ok_ ? "pass" : "fail";
        return {};
    }

    std::string known_answer_evidence(const RunContext& ctx) const override {
        return ctx.instruments->console->verdict() == Verdict::kPass ? "it printed *** PASS ***"
                                                                     : "check_output() returned CNN_OK";
    }

    bool declared_failure(const RunContext& ctx) const override {
        return ctx.instruments->console->verdict() == Verdict::kFail;
    }

private:
    std::optional<bool> check_output_ok_;
};

}  // namespace

std::unique_ptr<FolderKind> folder_kind_for(const std::string& dir) {
    // Kinds that recognise their folders by their files come here, first match wins.
    if (is_rtl_folder(dir)) return std::make_unique<RtlFolderKind>();
    return std::make_unique<GeneratedFolder>();
}

}  // namespace ai8x
