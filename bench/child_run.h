#pragma once
// One child process of the bench: ai8xsim runs whose output the bench does not
// read (it reads their --json file), timed and measured from outside.

#include <string>
#include <vector>

namespace ai8x::bench {

struct ChildRun {
    int status = -1;     // exit code; -1 if it could not start or did not exit normally
    double wall_s = 0;   // fork to exit
    long maxrss_kb = 0;  // the child's peak resident set (wait4)
};

// Runs args[0] (a path, no PATH search) with stdout and stderr discarded.
ChildRun run_child(const std::vector<std::string>& args);

}  // namespace ai8x::bench
