"""Result.plot_cycles and Result.plot_memory (matplotlib, imported only when plotting)."""


def _axes(ax, rows=1, size=(8, 4)):
    import matplotlib.pyplot as plt

    if ax is not None:
        return ax.figure, ax
    fig, ax = plt.subplots(rows, 1, figsize=size, squeeze=True)
    return fig, ax


def _layer_energy(result):
    """{layer: microjoules} of the energy estimate (empty without one)."""
    energy = result.energy or {}
    return {e["layer"]: e["total_uj"] for e in energy.get("layers", [])}


def plot_cycles(result, ax=None):
    """Bars of CNN cycles per layer (left axis) and, when the run has an
    energy estimate, each layer's energy in microjoules (right axis)."""
    fig, ax = _axes(ax)
    layers = [l["layer"] for l in result.layer_cycles]
    cycles = [l["cycles"] or 0 for l in result.layer_cycles]
    energy = _layer_energy(result)
    width = 0.4 if energy else 0.8
    ax.bar([x - (width / 2 if energy else 0) for x in range(len(layers))], cycles, width, label="CNN cycles",
           color="tab:blue")
    ax.set_xticks(range(len(layers)))
    ax.set_xticklabels([str(n) for n in layers])
    ax.set_xlabel("layer")
    ax.set_ylabel("CNN cycles")
    ax.set_title("%s: %d CNN cycles%s" % (_name(result), result.cycles,
                                          ", %.1f uJ" % sum(energy.values()) if energy else ""))
    if energy:
        right = ax.twinx()
        right.bar([x + width / 2 for x in range(len(layers))], [energy.get(n, 0.0) for n in layers], width,
                  label="energy", color="tab:orange")
        right.set_ylabel("energy (uJ%s)" % ("" if result.energy.get("status") == "calibrated" else ", uncalibrated"))
        handles = ax.get_legend_handles_labels()[0] + right.get_legend_handles_labels()[0]
        ax.legend(handles, [h.get_label() for h in handles], loc="upper right")
    return fig


def plot_memory(result, ax=None):
    """One horizontal bar per memory instance (data, kernel and bias
    memories): its capacity in words, the used words' ranges filled in, and
    the instance's name and fill. A full instance is drawn red: what does
    not fit shows where it would go."""
    memory = result.memory
    kinds = [k for k in ("data_sram", "kernel", "bias") if any(m["memory"] == k for m in memory)]
    if ax is None:
        import matplotlib.pyplot as plt

        heights = [max(1.5, 0.12 * sum(m["memory"] == k for m in memory)) for k in kinds]
        fig, axes = plt.subplots(len(kinds), 1, figsize=(9, sum(heights) + 1),
                                 gridspec_kw={"height_ratios": heights}, squeeze=False)
        axes = [a[0] for a in axes]
    else:
        fig, axes = ax.figure, [ax] * len(kinds)
    for a, kind in zip(axes, kinds):
        _memory_kind(a, [m for m in memory if m["memory"] == kind], kind)
    fig.suptitle("%s: memory occupancy after the run" % _name(result))
    fig.tight_layout()
    return fig


def _memory_kind(ax, instances, kind):
    for row, m in enumerate(instances):
        full = m["used"] >= m["words"]
        ax.barh(row, m["words"], color="0.9", edgecolor="0.6", height=0.8)
        ax.broken_barh([(first, last - first + 1) for first, last in m["ranges"]], (row - 0.4, 0.8),
                       color="tab:red" if full else "tab:green")
    ax.set_yticks(range(len(instances)))
    ax.set_yticklabels(["%s %s" % (m["name"], _fill(m)) for m in instances], fontsize=6)
    ax.invert_yaxis()
    ax.set_xlabel("%s words" % kind)


def _fill(m):
    """The used share of an instance: "<1%" rather than "0%" for a few words."""
    share = 100 * m["used"] / m["words"] if m["words"] else 0
    return "<1%" if 0 < share < 0.5 else "%d%%" % round(share)


def _name(result):
    import os

    return os.path.basename(os.path.normpath(result.folder)) if result.folder else "bundled example"
