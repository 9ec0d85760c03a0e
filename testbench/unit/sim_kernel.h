// SystemC kernels for the unit tests: what a test elaborates dies with a
// kernel of its own, as a run's board dies with its kernel (app/simulation_turn.h).
//
// Why: SystemC keeps a process when the module that declared it is
// destroyed; the process becomes a top-level object of its kernel. A bench
// destroyed on a kernel that lives on leaves its SC_THREADs behind, and the
// next sc_start on that kernel runs them on the destroyed module: undefined
// behaviour that only the sanitizers report (UBSan: "member access within
// address ... which does not point to an object of type 'ai8x::Accelerator'"),
// with a warning W505 when the next bench reuses the name. So every test
// case starts on a fresh kernel (test_main.cpp), and a bench refuses to be
// elaborated beside the processes of a destroyed one (require_no_left_behind_processes).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include <systemc>

namespace ai8x::test {

inline void make_kernel_current(sc_core::sc_simcontext* kernel) {
    sc_core::sc_curr_simcontext = sc_core::sc_default_global_context = kernel;
}

// A kernel of its own for the object's lifetime, the previous one current
// again afterwards. Declare it before the objects it is for: they must die
// before it. The process's first kernel is never deleted (the SystemC
// library's static events belong to it), only this one.
class OwnKernel {
public:
    OwnKernel() : previous_(sc_core::sc_get_curr_simcontext()), kernel_(new sc_core::sc_simcontext) {
        make_kernel_current(kernel_);
    }
    ~OwnKernel() {
        make_kernel_current(previous_);
        delete kernel_;
    }
    OwnKernel(const OwnKernel&) = delete;
    OwnKernel& operator=(const OwnKernel&) = delete;

private:
    sc_core::sc_simcontext* previous_;
    sc_core::sc_simcontext* kernel_;
};

// Processes of the current kernel whose module is gone (a process is a
// top-level object only once its module was destroyed: the tests spawn none
// from outside a module).
inline std::vector<std::string> left_behind_processes() {
    std::vector<std::string> names;
    for (const sc_core::sc_object* o : sc_core::sc_get_top_level_objects())
        if (dynamic_cast<const sc_core::sc_process_b*>(o)) names.push_back(o->name());
    return names;
}

// Throws, naming them, if the current kernel holds processes of a destroyed
// module: a bench elaborated beside them would run them at its first sc_start.
inline void require_no_left_behind_processes(const std::string& bench) {
    const std::vector<std::string> left = left_behind_processes();
    if (left.empty()) return;
    std::string names;
    for (const std::string& n : left) names += (names.empty() ? "" : ", ") + n;
    throw std::logic_error(bench + ": the SystemC kernel still holds " + std::to_string(left.size()) +
                           " process(es) of a destroyed module (" + names +
                           "), which its first sc_start would run on freed memory: one bench per test case "
                           "(each test case and section starts on a fresh kernel), or an OwnKernel for each");
}

}  // namespace ai8x::test
