#include "app/simulation_turn.h"

#include <set>
#include <utility>

#include <systemc>

namespace ai8x {

namespace {

std::mutex& turn_mutex() {
    static std::mutex m;
    return m;
}

// The kernels SimulationTurn made (and may delete); guarded by turn_mutex().
std::set<sc_core::sc_simcontext*>& made_here() {
    static std::set<sc_core::sc_simcontext*> made;
    return made;
}

// True while no design was elaborated in the current simulation context.
bool context_unused() {
    return sc_core::sc_get_status() == sc_core::SC_ELABORATION && sc_core::sc_get_top_level_objects().empty();
}

void install_fresh_context() {
    sc_core::sc_curr_simcontext = new sc_core::sc_simcontext;
    sc_core::sc_default_global_context = sc_core::sc_curr_simcontext;
    made_here().insert(sc_core::sc_curr_simcontext);
}

}  // namespace

SimulationTurn::SimulationTurn(std::function<void()> dismantle)
    : lock_(turn_mutex()), dismantle_(std::move(dismantle)) {
    if (!context_unused()) install_fresh_context();
}

SimulationTurn::~SimulationTurn() {
    if (dismantle_) dismantle_();
    sc_core::sc_simcontext* used = sc_core::sc_curr_simcontext;
    install_fresh_context();
    if (made_here().erase(used)) delete used;
}

}  // namespace ai8x
