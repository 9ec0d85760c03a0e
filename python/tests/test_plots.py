"""Result.plot_cycles and Result.plot_memory draw what the result holds."""

import matplotlib

matplotlib.use("Agg")

import ai8xsim  # noqa: E402
from conftest import vector  # noqa: E402


def test_plot_cycles_has_a_bar_per_layer_and_energy():
    r = ai8xsim.run(vector("demo-mnist"), capture_layers=False)
    fig = r.plot_cycles()
    cycles_ax, energy_ax = fig.axes
    assert [round(b.get_height()) for b in cycles_ax.patches] == [l["cycles"] for l in r.layer_cycles]
    assert [b.get_height() for b in energy_ax.patches] == [e["total_uj"] for e in r.energy["layers"]]


def test_plot_memory_has_a_row_per_instance():
    r = ai8xsim.run(vector("demo-mnist"), capture_layers=False)
    fig = r.plot_memory()
    labels = [t.get_text() for ax in fig.axes for t in ax.get_yticklabels()]
    assert len(labels) == len(r.memory)
    assert labels[0] == "%s %d%%" % (r.memory[0]["name"], round(100 * r.memory[0]["used"] / r.memory[0]["words"]))
    bias = [l for l in labels if ".bias " in l]
    used = {m["name"]: m["used"] for m in r.memory}
    assert all(l.endswith(" 0%") == (used[l.split()[0]] == 0) for l in bias)  # a few words show as "<1%"
