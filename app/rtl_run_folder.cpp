#include "app/rtl_run_folder.h"

#include <filesystem>
#include <fstream>
#include <stdexcept>

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
            "python3 " + shell_quote(script.string()) + " " + shell_quote(fs::absolute(out_dir).string()), v.output);
    } catch (const std::exception& e) {
        v.exit_code = -1;
        v.output = e.what();
    }
    return v;
}

}  // namespace ai8x
