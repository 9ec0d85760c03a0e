"""ai8xsim.run: `ai8xsim run` in this process."""

import os

from . import _core
from ._errors import RunError
from ._result import Result


def _path(value):
    return "" if value is None else os.fspath(value)


def _in_range(name, value, low, high, flag):
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError("%s=%r: expected a whole number from %d to %d (the command line's %s)"
                         % (name, value, low, high, flag))
    return value


def _overrides(values):
    """`set` as (address, value) pairs: a dict {address: value}, or
    "ADDR=VALUE" strings and (address, value) pairs, as --set takes them."""
    if values is None:
        return []
    items = values.items() if isinstance(values, dict) else values
    if isinstance(items, str):
        items = [items]
    pairs = []
    for item in items:
        if isinstance(item, str):
            parsed = _core.parse_override(item)
            if parsed is None:
                raise ValueError("set: expected ADDR=VALUE with 32-bit numbers, got '%s'" % item)
            pairs.append(parsed)
            continue
        address, value = item
        if not (0 <= int(address) < 2**32 and 0 <= int(value) < 2**32):
            raise ValueError("set: %r=%r is not a pair of 32-bit numbers" % (address, value))
        pairs.append((int(address), int(value)))
    return pairs


def make_options(folder=None, *, build_dir=None, config=None, json=None, trace_out=None, dump_layers=None,
                 vcd=None, timeline=None, timeout=10000.0, set=None, quiet=True, check_memory=True,
                 poll_fast_forward=True, fifo_run_ahead=True, threads=None, gdb=None, capture_layers=True):
    """The RunOptions of `run`'s arguments (see run)."""
    o = _core.RunOptions()
    for attribute, path in (("vector_dir", folder), ("build_dir", build_dir), ("config_path", config),
                            ("json_out", json), ("trace_out", trace_out), ("dump_layers_dir", dump_layers),
                            ("vcd_out", vcd), ("timeline_out", timeline)):
        setattr(o, attribute, _path(path))
    if not float(timeout) > 0:
        raise ValueError("timeout=%r: expected a positive number of simulated milliseconds" % (timeout,))
    o.timeout_ms = float(timeout)
    o.overrides = _overrides(set)
    for attribute, on in (("quiet_console", quiet), ("check_memory", check_memory),
                          ("fast_forward_polls", poll_fast_forward), ("fifo_run_ahead", fifo_run_ahead),
                          ("capture_layers", capture_layers)):
        setattr(o, attribute, bool(on))
    o.threads = 0 if threads is None else _in_range("threads", threads, 1, 64, "--threads")
    o.gdb_port = -1 if gdb is None else _in_range("gdb", gdb, 0, 65535, "--gdb")
    return o


def run(folder=None, *, build_dir=None, config=None, json=None, trace_out=None, dump_layers=None, vcd=None,
        timeline=None, timeout=10000.0, set=None, quiet=True, check_memory=True, poll_fast_forward=True,
        fifo_run_ahead=True, threads=None, gdb=None, capture_layers=True):
    """Runs the generated firmware of `folder` (the bundled example when None)
    on the virtual board, as `ai8xsim run FOLDER` does, and returns a Result.

    The options are those of `ai8xsim run` by name (README, "ai8xsim run"):
    build_dir, config, json (write the run JSON to this file), trace_out,
    dump_layers (write layer files to this folder), vcd, timeline, timeout
    (simulated milliseconds), set (registers forced: {address: value}, or
    "ADDR=VALUE" strings), check_memory, poll_fast_forward, fifo_run_ahead,
    threads, gdb. quiet=False copies the firmware console to the process's
    stdout as it comes (it is in Result.console either way);
    capture_layers=False leaves out the layer arrays (unless dump_layers
    writes them).

    Raises RunError with the command line's message when the run cannot
    start; a run that starts returns its Result whatever its verdict.
    """
    given = dict(locals())
    options = make_options(given.pop("folder"), **given)
    core = _core.run(options, console_to_stdout=not quiet)
    if not core.started:
        raise RunError(core.messages, core.exit_code)
    return Result(core, options.vector_dir)


def command_line(options):
    """The `ai8xsim run` arguments (after "run") that make the run of `options`."""
    args = [options.vector_dir] if options.vector_dir else []
    for flag, value in (("--build-dir", options.build_dir), ("--config", options.config_path),
                        ("--json", options.json_out), ("--trace-out", options.trace_out),
                        ("--dump-layers", options.dump_layers_dir), ("--vcd", options.vcd_out),
                        ("--timeline", options.timeline_out)):
        if value:
            args += [flag, value]
    args += ["--timeout", repr(options.timeout_ms)]
    for address, value in options.overrides:
        args += ["--set", "0x%08x=0x%08x" % (address, value)]
    if options.quiet_console:
        args.append("--quiet")
    for flag, on in (("check-memory", options.check_memory), ("poll-fast-forward", options.fast_forward_polls),
                     ("fifo-run-ahead", options.fifo_run_ahead)):
        args.append("--" + flag if on else "--no-" + flag)
    if options.threads:
        args += ["--threads", str(options.threads)]
    if options.gdb_port >= 0:
        args += ["--gdb", str(options.gdb_port)]
    return args
