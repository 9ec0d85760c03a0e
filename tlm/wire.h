// Interrupt, clock and power links between modules: an sc_signal whose written
// value holds at once, and the ports that write and read it.
//
// A CPU model runs up to a quantum ahead of SystemC time and samples its
// interrupt lines between instructions, inside its quantum; a power domain must
// reset its registers in the same bus access that wrote the reset bit. Neither
// can wait for an update phase. So a Wire takes a written value at once (read()
// returns it), tells the readers that act on it (WireIn ports) at once, and
// notifies its value-changed events for ordinary processes in the next delta
// cycle, as any sc_signal would.
//
// WireOut and WireIn are optional ports: a module works unconnected (an
// accelerator embedded without a SoC, a SoC in a unit test without a CPU); the
// board binds what it has. `ai8xsim info` lists what is bound to what.
#pragma once

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <systemc>

namespace ai8x {

template <class T>
class Wire : public sc_core::sc_signal<T> {
public:
    explicit Wire(const char* name, const T& initial = T()) : sc_core::sc_signal<T>(name, initial) {}

    void write(const T& value) override {
        if (value == this->m_cur_val) return;
        this->m_new_val = value;
        this->do_update();  // current value now; value-changed events in the next delta cycle
        for (const auto& reader : readers_) reader(value);
    }

    const char* kind() const override { return "ai8x_wire"; }

    // A reader that acts on every change at once (WireIn registers itself).
    void add_reader(std::function<void(const T&)> reader) { readers_.push_back(std::move(reader)); }

private:
    std::vector<std::function<void(const T&)>> readers_;
};

// An output a module drives; it remembers the value it drove, connected or not.
template <class T>
class WireOut : public sc_core::sc_port<sc_core::sc_signal_inout_if<T>, 1, sc_core::SC_ZERO_OR_MORE_BOUND> {
public:
    explicit WireOut(const char* name, const T& initial = T())
        : sc_core::sc_port<sc_core::sc_signal_inout_if<T>, 1, sc_core::SC_ZERO_OR_MORE_BOUND>(name), value_(initial) {}

    void write(const T& value) {
        value_ = value;
        if (this->size() > 0) (*this)->write(value);
    }
    const T& read() const { return value_; }
    const char* kind() const override { return "sc_out"; }

private:
    T value_;
};

// An input whose module acts on every change of the Wire it is bound to, at
// once (inside the writer's bus access). Binding it to anything but a Wire is
// an error at the end of elaboration.
template <class T>
class WireIn : public sc_core::sc_port<sc_core::sc_signal_in_if<T>, 1, sc_core::SC_ZERO_OR_MORE_BOUND> {
public:
    WireIn(const char* name, std::function<void(const T&)> on_change)
        : sc_core::sc_port<sc_core::sc_signal_in_if<T>, 1, sc_core::SC_ZERO_OR_MORE_BOUND>(name),
          on_change_(std::move(on_change)) {}

    bool connected() const { return this->size() > 0; }
    const char* kind() const override { return "sc_in"; }

private:
    void end_of_elaboration() override {
        if (!connected()) return;
        auto* wire = dynamic_cast<Wire<T>*>(this->get_interface(0));
        if (!wire) throw std::logic_error(std::string(this->name()) + ": must be bound to an ai8x::Wire");
        wire->add_reader(on_change_);
    }

    std::function<void(const T&)> on_change_;
};

// A module that only listens to one wire: how an instrument outside the module
// tree (a trace recorder, a timer, a test bench) reads a line, so that the
// wiring list names it as a reader.
template <class T>
class WireListener : public sc_core::sc_module {
public:
    WireListener(sc_core::sc_module_name name, std::function<void(const T&)> on_change)
        : sc_core::sc_module(name), in("in", std::move(on_change)) {}

    WireIn<T> in;

    const char* kind() const override { return "ai8x_wire_listener"; }
};

}  // namespace ai8x

namespace ai8x {

// The wires of a board, owned in one place. Each starts at the value its
// writer drives and is bound to it.
class WireSet {
public:
    template <class T>
    Wire<T>& connect(WireOut<T>& writer, const char* name) {
        auto wire = std::make_shared<Wire<T>>(name, writer.read());
        writer.bind(*wire);
        wires_.push_back(wire);
        return *wire;
    }

private:
    std::vector<std::shared_ptr<void>> wires_;  // of every wire type
};

}  // namespace ai8x
