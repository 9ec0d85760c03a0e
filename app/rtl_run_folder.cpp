#include "app/rtl_run_folder.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <unistd.h>

#include "app/atomic_file.h"
#include "firmware/host/host_command.h"

namespace fs = std::filesystem;

namespace ai8x {

namespace {

constexpr const char* kLog = "run_test.log.fail";  // verify-output.py reads the log under this name

// `from` copied over `to` (a folder recursively); throws naming the path.
void copy_over(const fs::path& from, const fs::path& to) {
    std::error_code ec;
    fs::remove_all(to, ec);
    fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec);
    if (ec) throw std::runtime_error(to.string() + ": cannot copy " + from.string() + ": " + ec.message());
    // The folder may be read-only (../shared): the copies must stay writable for the next run.
    for (auto it = fs::recursive_directory_iterator(to, ec); !ec && it != fs::recursive_directory_iterator(); ++it)
        fs::permissions(it->path(), fs::perms::owner_write, fs::perm_options::add, ec);
    fs::permissions(to, fs::perms::owner_write, fs::perm_options::add, ec);
}

void write_rtl_dumps(const fs::path& out, const RtlTestbench& tb) {
    for (const RtlDump& d : tb.dumps()) {
        const fs::path folder = out / d.kind->dump_folder;
        fs::create_directories(folder);
        write_file_atomically((folder / d.part.dump_file).string(), [&d](std::ostream& o) {
            write_memory_dump(o, d.words.data(), d.written.data(), uint32_t(d.words.size()));
        });
    }
}

// The interpreter of the folder's script: $AI8XSIM_PYTHON when set, else the
// system's /usr/bin/python3 (Debian's, as CMakeLists.txt prefers it too), else
// python3 on PATH. Not PATH first: a version manager's shim there (pyenv's
// runs a chain of shell scripts) took 0.15 s of CPU a start, more than the rest
// of a preload folder's run; the vendor's verify-output.py needs only the
// standard library.
std::string script_python() {
    if (const char* chosen = std::getenv("AI8XSIM_PYTHON"); chosen && *chosen) return shell_quote(chosen);
    constexpr const char* kSystem = "/usr/bin/python3";
    if (::access(kSystem, X_OK) == 0) return kSystem;
    return "python3";
}

}  // namespace

void write_rtl_run_folder(const std::string& out_dir, const RtlFolder& folder, const RtlTestbench& tb,
                          const std::string& log) {
    const fs::path out(out_dir);
    std::error_code ec;
    fs::create_directories(out, ec);
    if (!fs::is_directory(out)) throw std::runtime_error(out_dir + ": cannot create the run folder");
    // Nothing of an earlier run stays to be taken for this one's.
    fs::remove(out / kLog, ec);
    std::vector<std::string> dump_folders;
    for (const RtlDump& d : tb.dumps())
        if (std::find(dump_folders.begin(), dump_folders.end(), d.kind->dump_folder) == dump_folders.end())
            dump_folders.push_back(d.kind->dump_folder);
    for (const std::string& f : dump_folders) fs::remove_all(out / f, ec);
    write_rtl_dumps(out, tb);
    for (const char* beside : {"data-expected", "latency.txt"})
        if (fs::exists(fs::path(folder.dir) / beside)) copy_over(fs::path(folder.dir) / beside, out / beside);
    write_file_atomically((out / kLog).string(), [&log](std::ostream& o) { o << log; });
}

RtlVerifyOutcome run_verify_output(const RtlFolder& folder, const std::string& out_dir) {
    const fs::path script = fs::absolute(fs::path(folder.dir) / "verify-output.py");
    RtlVerifyOutcome v;
    if (!fs::exists(script)) {
        v.exit_code = -1;
        v.output = script.string() + ": missing (run_test.sv runs it)";
        return v;
    }
    try {
        v.exit_code = run_host_command(
            script_python() + " " + shell_quote(script.string()) + " " + shell_quote(fs::absolute(out_dir).string()),
            v.output);
    } catch (const std::exception& e) {
        v.exit_code = -1;
        v.output = e.what();
    }
    return v;
}

}  // namespace ai8x
