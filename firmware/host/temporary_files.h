// ai8xsim never writes a file in place: it writes NAME.tmp<pid> (its own
// process id) and renames it when complete (app/atomic_file.h, the firmware
// builder's images and shim objects). A process killed mid-write leaves that
// temporary behind; these find and remove such leftovers by that name.
#pragma once

#include <string>

namespace ai8x {

// True if a process numbered `pid` runs on this host (including one of
// another user's, which this process may not signal).
bool process_runs(long pid);

// Removes every entry of `dir`, and of its direct subfolders, named
// NAME.tmp<pid> for this `pid`: what the programs that start runs
// (tools/process_pool.h) do after killing one. A firmware cache keeps an
// image's files one level down, hence the subfolders.
void remove_temporary_files(const std::string& dir, long pid);

// Removes the entries of `dir` (not of its subfolders) named NAME.tmp<N>
// whose process N no longer runs here and that were last written at least
// `min_age_seconds` ago: what a run killed outright (SIGKILL, Ctrl-C while
// compiling) left. The age keeps the temporaries of a process on another
// host that shares the folder (a firmware cache in a cluster's home) safe;
// a compile takes seconds. Returns how many it removed.
unsigned remove_abandoned_temporary_files(const std::string& dir, long min_age_seconds = 3600);

}  // namespace ai8x
