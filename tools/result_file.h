// Result files that survive an interrupted run, and the job files that hand a
// run's work to GNU parallel or a Slurm job array. Shared by ai8xsim-sweep and
// the conformance runner (docs/scale-out.md).
#pragma once

#include <stdexcept>
#include <utility>
#include <string>
#include <vector>

namespace ai8x::tools {

struct ResultFileError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A line-per-result file kept open for appending. Every line goes to the
// kernel in one write() as soon as it is known, so a killed process keeps
// every finished line and at most loses the one it was writing; such a torn
// last line is dropped when the file is opened again.
class AppendFile {
public:
    // Opens `path`. With `resume`, the complete lines already there are kept
    // (see take_lines()) and a torn last line is cut off; the first
    // line must then be `header` (or the file empty/missing). Without
    // `resume`, the file is started anew with `header` (if not empty).
    AppendFile(const std::string& path, const std::string& header, bool resume);
    ~AppendFile();
    AppendFile(const AppendFile&) = delete;
    AppendFile& operator=(const AppendFile&) = delete;

    // The lines found on opening (header excluded), without their newlines;
    // handed over once (a long run need not keep them).
    std::vector<std::string> take_lines() { return std::move(kept_); }
    // Appends `line` and a newline in one write().
    void append(const std::string& line);
    const std::string& path() const { return path_; }

private:
    std::string path_;
    int fd_ = -1;
    std::vector<std::string> kept_;
};

// The complete lines of `path` (a torn last line is left out); empty if the
// file does not exist. Throws ResultFileError if it exists but cannot be read.
std::vector<std::string> read_complete_lines(const std::string& path);

// `text` as one word for /bin/sh (single-quoted unless it needs no quoting).
std::string shell_quote(const std::string& text);

// `argv` as one shell command line.
std::string shell_command(const std::vector<std::string>& argv);

// Writes `dir`/jobs.txt (one complete shell command per line, for
// `parallel < jobs.txt`) and `dir`/slurm.sh (a job-array script whose task i
// runs line i+1 of jobs.txt), each atomically. `name` names the Slurm job.
void write_job_files(const std::string& dir, const std::vector<std::string>& commands, const std::string& name);

// Writes `content` to `path` through a temporary file and a rename.
void write_atomically(const std::string& path, const std::string& content);

}  // namespace ai8x::tools
