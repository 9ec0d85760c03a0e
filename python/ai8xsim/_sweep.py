"""ai8xsim.sweep: one run per point of a grid, several at once.

The points run as `ai8xsim run` processes through the process pool of
ai8xsim-sweep (tools/process_pool.h), not in this process: SystemC has one
simulation kernel per process, so in-process runs simulate one at a time
(app/run_session.h), while processes use every core; a point that crashes or
hangs is killed (timeout) and becomes an "error" row instead of taking the
notebook's kernel with it. The register axes are parsed as ai8xsim-sweep's
--grid and --grid-field (tools/sweep_grid.h).
"""

import inspect
import itertools
import json as _json
import os
import shutil
import tempfile

from . import _core
from ._errors import Error
from ._run import command_line, make_options

_RUN_OPTIONS = [p for p in inspect.signature(make_options).parameters if p != "folder"]


def _cli():
    """The `ai8xsim` command line of this package (its own copy when
    installed by pip, else the build tree's)."""
    own = os.path.join(os.path.dirname(__file__), "bin", "ai8xsim")
    return own if os.access(own, os.X_OK) else _core.BUILD_TREE_CLI


def _register_axis(key, fields):
    """(is_field, spec) of a register axis key: a field name of `fields`, an
    "ADDR[+ADDR..]:HI:LO" field, or an "ADDR[+ADDR..]" whole register."""
    if key in fields:
        return True, key
    return (True, key) if key.count(":") == 2 else (False, key)


def _values_text(values):
    return ",".join(str(int(v)) for v in values)


class _Grid:
    """The sweep's axes in the user's order: run options and registers."""

    def __init__(self, folder, grid, fields):
        self.keys = list(grid)
        self.option_values = {k: list(v) for k, v in grid.items() if k in _RUN_OPTIONS}
        register_keys = [k for k in self.keys if k not in _RUN_OPTIONS]
        specs = []
        for k in register_keys:
            is_field, spec = _register_axis(k, fields)
            specs.append((is_field, spec + "=" + _values_text(grid[k])))
        defs = ["%s=%s" % (name, f) for name, f in fields.items()]
        self.registers = _core.SweepGrid(os.path.join(folder, "cnn.c"), specs, defs)
        self.register_index = {k: i for i, k in enumerate(register_keys)}
        self.values = {k: self.option_values.get(k) or self.registers.values(self.register_index[k])
                       for k in self.keys}

    def points(self):
        """Every point as {axis: value index}; the last axis varies fastest."""
        for index in itertools.product(*(range(len(self.values[k])) for k in self.keys)):
            yield dict(zip(self.keys, index))

    def options(self, base, point):
        """The run options of `point`: the base options, its option values,
        its register overrides after the base's own --set list."""
        given = dict(base)
        for k in self.option_values:
            given[k] = self.option_values[k][point[k]]
        options = make_options(**given)
        index = [point[k] for k in self.register_index]
        if index:
            options.overrides = options.overrides + self.registers.overrides(index)
        return options


def _row(grid, point, outcome, work):
    """The point's row: its axis values, then what its run JSON says."""
    row = {k: grid.values[k][point[k]] for k in grid.keys}
    doc = None
    try:
        with open(os.path.join(work, "run.json"), encoding="utf-8") as f:
            doc = _json.load(f)
    except (OSError, ValueError):
        pass
    timed_out = outcome.timed_out
    row["verdict"] = doc["result"] if doc and not timed_out else "error"
    row["exit_code"] = (None if timed_out or outcome.spawn_failed
                        else -1 if outcome.signalled else outcome.exit_code)
    doc = doc or {}
    row["cnn_cycles"] = doc.get("cnn_cycles")
    row["stall_cycles"] = doc.get("stall_cycles")
    row["hazards"] = len(doc["hazards"]) if "hazards" in doc else None
    row["inference_us"] = (doc.get("phases") or {}).get("inference")
    energy = doc.get("energy") or {}
    row["inference_uj"] = (energy.get("phases") or {}).get("inference_uj")
    row["wall_s"] = outcome.wall_seconds
    row["error"] = _point_error(doc, outcome, work)
    return row


def _point_error(doc, outcome, work):
    if outcome.timed_out:
        return "timed out"
    if outcome.spawn_failed:
        return outcome.error
    if doc.get("error"):
        return doc["error"]
    if doc:
        return None
    try:  # no run JSON: the run's own message is the last thing it said
        with open(os.path.join(work, "run.log"), encoding="utf-8", errors="replace") as f:
            lines = [l.rstrip("\n") for l in f if l.startswith("ai8xsim run: ")]
        return lines[-1][len("ai8xsim run: "):] if lines else "no run JSON (exit code %s)" % outcome.exit_code
    except OSError:
        return "no run JSON"


def sweep(folder, grid, *, fields=None, jobs=None, timeout=None, progress=None, frame=None, **options):
    """Runs `folder` once per point of `grid` and returns one row per point
    (grid order, the last axis varying fastest): a pandas DataFrame when
    pandas is installed (frame=None or True), else a list of dicts.

    grid: {axis: values}. An axis is
      * a register, "ADDR" or "ADDR+ADDR+..": each value is written whole
        (as ai8xsim-sweep --grid and run's --set);
      * a field, "ADDR[+ADDR..]:HI:LO" or a name of `fields`: each value
        replaces bits HI:LO of the value the generated cnn.c writes there
        (ai8xsim-sweep --grid-field);
      * an option of ai8xsim.run by name (e.g. "fifo_run_ahead": [True, False]).
    fields: {name: "ADDR[+ADDR..]:HI:LO"} (ai8xsim-sweep --field).
    jobs: runs at once (default: the number of cores); timeout: wall-clock
    seconds before a run is killed (default: none); progress(done, total)
    is called as points finish; other keywords are options of ai8xsim.run
    for every point.

    Each row: the axis values, then verdict ("pass", "fail", "error"),
    exit_code (None: killed for its time; -1: crashed), cnn_cycles,
    stall_cycles, hazards (count), inference_us (simulated), inference_uj
    (the energy estimate's inference), wall_s, error (why, for "error").
    """
    folder = os.fspath(folder)
    if not os.path.isdir(folder):
        raise Error("sweep", ["vector directory '%s' does not exist" % folder], 2)
    options.setdefault("build_dir", _core.default_firmware_cache())
    options["folder"] = folder
    make_options(**options)  # the base options are checked before anything runs
    table = _Grid(folder, grid, fields or {})
    points = list(table.points())
    scratch = tempfile.mkdtemp(prefix="ai8xsim-sweep-py-")
    try:
        rows = _run_points(table, points, options, scratch, jobs, timeout, progress)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return _as_frame(rows, frame)


def _run_points(table, points, options, scratch, jobs, timeout, progress):
    if not points:  # an axis without values
        return []
    cli, build_dir = _cli(), options["build_dir"]
    work = [os.path.join(scratch, "point-%d" % (i + 1)) for i in range(len(points))]
    descriptions = []
    for i, point in enumerate(points):
        os.makedirs(work[i])
        argv = [cli, "run"] + command_line(table.options(options, point)) + [
            "--json", os.path.join(work[i], "run.json")]
        descriptions.append(_core.Job(argv, os.path.join(work[i], "run.log"), os.path.join(work[i], "tmp"),
                                      [build_dir]))
    total = len(points)
    report = (lambda done, _: progress(done, total)) if progress else None
    # The first point builds the firmware into the cache; alone, so that the
    # others do not all build it at once.
    outcomes = _core.run_processes(descriptions[:1], 1, timeout or 0.0, report)
    first = _row(table, points[0], outcomes[0], work[0]) if points else None
    if first and first["exit_code"] == 2:
        raise Error("sweep", ["point 1: " + (first["error"] or "the run could not start")], 2)
    shifted = (lambda done, _: progress(done + 1, total)) if progress else None
    outcomes += _core.run_processes(descriptions[1:], jobs or os.cpu_count() or 1, timeout or 0.0, shifted)
    return [first] + [_row(table, p, o, w) for p, o, w in zip(points[1:], outcomes[1:], work[1:])]


def _as_frame(rows, frame):
    if frame is False:
        return rows
    try:
        import pandas
    except ImportError:
        if frame:
            raise
        return rows
    return pandas.DataFrame(rows)
