#include "tools/result_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <unistd.h>

namespace ai8x::tools {

namespace {

std::string errno_text() { return std::strerror(errno); }

// Reads all of `path`; false if it does not exist.
bool read_all(const std::string& path, std::string& text) {
    if (::access(path.c_str(), F_OK) != 0) return false;
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ResultFileError(path + ": cannot read: " + errno_text());
    std::ostringstream s;
    s << in.rdbuf();
    text = s.str();
    return true;
}

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    size_t start = 0;
    for (size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1)
        lines.push_back(text.substr(start, nl - start));
    return lines;  // a last line without its newline is torn: left out
}

void write_whole(int fd, const std::string& data, const std::string& path) {
    size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw ResultFileError(path + ": write failed: " + errno_text());
        done += static_cast<size_t>(n);
    }
}

}  // namespace

std::vector<std::string> read_complete_lines(const std::string& path) {
    std::string text;
    if (!read_all(path, text)) return {};
    return split_lines(text);
}

AppendFile::AppendFile(const std::string& path, const std::string& header, bool resume) : path_(path) {
    std::string text;
    const bool existed = resume && read_all(path, text);
    std::vector<std::string> lines = existed ? split_lines(text) : std::vector<std::string>{};
    if (!lines.empty() && !header.empty() && lines.front() != header)
        throw ResultFileError(path + ": its first line '" + lines.front() + "' is not the header '" + header +
                              "' of this run; --resume needs the file an identical run wrote");
    size_t keep = 0;  // bytes of complete lines
    for (const auto& l : lines) keep += l.size() + 1;
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | (existed ? 0 : O_TRUNC), 0644);
    if (fd_ < 0) throw ResultFileError(path + ": cannot open for writing: " + errno_text());
    // A torn last line (the writer was killed mid-row) is cut off before appending.
    if (existed && ::ftruncate(fd_, static_cast<off_t>(keep)) != 0)
        throw ResultFileError(path + ": cannot cut off a torn last line: " + errno_text());
    if (::lseek(fd_, 0, SEEK_END) < 0) throw ResultFileError(path + ": cannot seek: " + errno_text());
    if (lines.empty()) {
        if (!header.empty()) write_whole(fd_, header + "\n", path_);
    } else {
        kept_.assign(lines.begin() + (header.empty() ? 0 : 1), lines.end());
    }
}

AppendFile::~AppendFile() {
    if (fd_ >= 0) ::close(fd_);
}

void AppendFile::append(const std::string& line) {
    // One write() per line: with O_APPEND semantics not needed (one writer),
    // the kernel has the whole line or none of it if this process dies.
    write_whole(fd_, line + "\n", path_);
}

std::string shell_quote(const std::string& text) {
    const bool plain = !text.empty() && text.find_first_not_of(
                                            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                            "0123456789_-+=.,/:@%") == std::string::npos;
    if (plain) return text;
    std::string out = "'";
    for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string shell_command(const std::vector<std::string>& argv) {
    std::string cmd;
    for (const auto& a : argv) cmd += (cmd.empty() ? "" : " ") + shell_quote(a);
    return cmd;
}

void write_atomically(const std::string& path, const std::string& content) {
    const std::string tmp = path + ".tmp" + std::to_string(::getpid());
    {
        std::ofstream out(tmp, std::ios::binary);
        out << content;
        out.flush();
        if (!out) {
            std::remove(tmp.c_str());
            throw ResultFileError(path + ": cannot write (temporary file " + tmp + ")");
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::remove(tmp.c_str());
        throw ResultFileError(path + ": cannot rename " + tmp + " into place: " + errno_text());
    }
}

void write_job_files(const std::string& dir, const std::vector<std::string>& commands, const std::string& name) {
    if (commands.empty()) throw ResultFileError("no jobs to write into " + dir);
    std::string jobs;
    for (const auto& c : commands) jobs += c + "\n";
    const std::string jobs_path = dir + "/jobs.txt";
    write_atomically(jobs_path, jobs);

    // Slurm reads #SBATCH lines only before the first command, and does not
    // expand quotes in them: the log path is the folder as given.
    std::ostringstream s;
    s << "#!/bin/bash\n"
      << "# " << name << ": " << commands.size() << " jobs, one per line of jobs.txt (docs/scale-out.md).\n"
      << "# Submit with: sbatch " << dir << "/slurm.sh   (add --array=...%N to limit running tasks)\n"
      << "#SBATCH --job-name=" << name << "\n"
      << "#SBATCH --array=0-" << commands.size() - 1 << "\n"
      << "#SBATCH --ntasks=1\n"
      << "#SBATCH --cpus-per-task=1\n"
      << "#SBATCH --output=" << dir << "/slurm-%A_%a.out\n"
      << "set -eu\n"
      << "line=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" " << shell_quote(jobs_path) << ")\n"
      << "if [ -z \"$line\" ]; then echo \"no job $SLURM_ARRAY_TASK_ID in " << jobs_path << "\" >&2; exit 2; fi\n"
      << "exec /bin/sh -c \"$line\"\n";
    write_atomically(dir + "/slurm.sh", s.str());
}

}  // namespace ai8x::tools
