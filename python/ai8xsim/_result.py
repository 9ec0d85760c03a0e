"""What one run found: Result and its layers."""

import json as _json
import os
import re

_LAYER_LINE = re.compile(r"^// Layer (\d+)(?: \((.*?)\))?: (.*)$")


def layer_descriptions(folder):
    """{layer: (name, description)} from the header comment of the
    generator's cnn.c ("// Layer 3 (conv3): 56x8x8, avg pool ..., 12x4x4
    output"; the name is the network YAML's `name`, else None)."""
    found = {}
    try:
        with open(os.path.join(folder, "cnn.c"), encoding="utf-8", errors="replace") as f:
            for line in f:
                m = _LAYER_LINE.match(line.rstrip("\n"))
                if m and int(m.group(1)) not in found:
                    found[int(m.group(1))] = (m.group(2), m.group(3))
                elif found and not line.startswith("//"):
                    break  # the header comment has ended
    except OSError:
        pass
    return found


class Layer:
    """One layer's output as the chip left it in data memory right after the
    layer ran: `values` is a NumPy int64 array of shape (channels, rows,
    columns) (`layout` "CHW": channel-major, then row, then column, as the
    --dump-layers files). `name` is the network's name of the layer (None
    when the network YAML gave none), `description` the generator's line
    for it ("60x28x28, max pool 2x2 ..., 16x16 output").

    The chip's shape is the one the layer is programmed with, which is the
    network's except where the generator folds data (1-D data in rows of
    the dilation, passes of an element-wise layer as extra rows):
    ai8xsim.compare lines such layers up with the network's tensors."""

    layout = "CHW"

    def __init__(self, index, values, name=None, description=None):
        self.index = index
        self.values = values
        self.name = name
        self.description = description

    @property
    def shape(self):
        return self.values.shape

    def __array__(self, dtype=None):
        return self.values if dtype is None else self.values.astype(dtype)

    def __repr__(self):
        label = "layer %d" % self.index + (" (%s)" % self.name if self.name else "")
        return "<Layer %s: %s %s>" % (label, "x".join(str(n) for n in self.shape), self.layout)


class Result:
    """What `ai8xsim.run` found: every figure of the run JSON (docs/reports.md)
    and every layer's output. `json` is the run JSON as a dict; the
    properties below are its fields by name."""

    def __init__(self, core, folder):
        self._core = core
        self.folder = folder
        self._json = None
        self._layers = None

    # The verdict, straight from the run (no JSON composed).
    @property
    def passed(self):
        """True when the firmware's known-answer test passed and nothing went wrong after it."""
        return self._core.passed

    @property
    def exit_code(self):
        """The command line's exit code: 0 pass, 1 fail, 3 simulation error."""
        return self._core.exit_code

    @property
    def verdict(self):
        """"pass", "fail" or "error"."""
        return self._core.verdict

    @property
    def kat(self):
        """The firmware's known-answer test: "pass", "fail" or None (not reached)."""
        return self._core.kat or None

    @property
    def cycles(self):
        """CNN cycles of the inference."""
        return self._core.cnn_cycles

    @property
    def error(self):
        """Why a run with verdict "error" went wrong (None otherwise)."""
        return self._core.error

    @property
    def messages(self):
        """What the command line says on stderr about the run ("ai8xsim run: ..." lines, without the prefix)."""
        return list(self._core.messages)

    @property
    def console(self):
        """The firmware's console output."""
        return self._core.console

    @property
    def folder_kind(self):
        return self._core.folder_kind

    @property
    def json(self):
        """The run JSON (what `ai8xsim run --json FILE` writes) as a dict."""
        if self._json is None:
            self._json = _json.loads(self._core.json_text())
        return self._json

    # Figures of the run JSON.
    @property
    def layer_cycles(self):
        """Per layer: layer, cycles, macs, estimate (the generator's), utilization."""
        return self.json["layers"]

    @property
    def phases(self):
        """Simulated microseconds of each firmware phase (None: no such phase)."""
        return self.json["phases"]

    @property
    def energy(self):
        """The energy estimate (docs/energy-model.md), or None."""
        return self.json.get("energy")

    @property
    def warnings(self):
        """Misprogramming found by the layer engine and unused --set overrides."""
        return self.json["warnings"]

    @property
    def hazards(self):
        return self.json["hazards"]

    @property
    def activity(self):
        """MACs per processor, reads and writes per memory, busy cycles per quadrant, per layer (docs/activity.md)."""
        return self.json.get("activity")

    @property
    def memory(self):
        """The memory map: per data, kernel and bias memory instance its name,
        capacity in words, words used and the used ranges."""
        return self.json["memory"]

    @property
    def stall_cycles(self):
        return self.json["stall_cycles"]

    @property
    def cnn_clock_hz(self):
        return self.json["cnn_clock_hz"]

    @property
    def sim_time_us(self):
        return self.json["sim_time_us"]

    @property
    def wall_seconds(self):
        """Host seconds the run took (folder to verdict)."""
        return self._core.wall_seconds

    # The layers.
    @property
    def layers(self):
        """Every layer's output (a list of Layer, in layer order); empty when
        the run was made with capture_layers=False."""
        if self._layers is None:
            described = layer_descriptions(self.folder) if self.folder else {}
            self._layers = [Layer(n, values, *described.get(n, (None, None)))
                            for n, values in self._core.layer_arrays()]
        return self._layers

    def layer(self, n):
        """The output of layer number `n` (a Layer; its values are a NumPy array)."""
        for layer in self.layers:
            if layer.index == n:
                return layer
        if not self.layers:
            raise KeyError("layer %d: the run kept no layer outputs (capture_layers=False)" % n)
        raise KeyError("layer %d: the run has layers %d to %d" % (n, self.layers[0].index, self.layers[-1].index))

    def plot_cycles(self, ax=None):
        """Per-layer CNN cycles and energy as bars (matplotlib); returns the figure."""
        from ._plot import plot_cycles
        return plot_cycles(self, ax)

    def plot_memory(self, ax=None):
        """Occupancy of every data, kernel and bias memory instance (matplotlib); returns the figure."""
        from ._plot import plot_memory
        return plot_memory(self, ax)

    def __repr__(self):
        name = os.path.basename(os.path.normpath(self.folder)) if self.folder else "bundled example"
        return "<Result %s: %s, %d CNN cycles>" % (name, self.verdict, self.cycles)
