"""ai8xsim.replay and ai8xsim.info: the commands of the same names, in this process."""

import json as _json
import os

from . import _core
from ._errors import Error


class ReplayResult:
    """What a replay found: `passed` (every check held), `exit_code` (the
    command line's), `failures` (each failed check: line, command, address,
    expected, actual, mask, message), `commands` executed, `sim_time_us`."""

    def __init__(self, d):
        self.exit_code = d["exit_code"]
        self.messages = d["messages"]
        self.failures = d["failures"]
        self.commands = d["commands"]
        self.sim_time_us = d["sim_time_us"]

    @property
    def passed(self):
        return self.exit_code == 0

    def __repr__(self):
        return "<ReplayResult: %d command(s), %d failed check(s)>" % (self.commands, len(self.failures))


def replay(trace, config=None):
    """Replays a bus trace (docs/trace-format.md) on the board without a CPU,
    as `ai8xsim replay TRACE [--config FILE]`. Returns a ReplayResult (failed
    checks are in it); raises Error with the command line's message when the
    trace or the description is malformed or the trace did not finish."""
    d = _core.replay(os.fspath(trace), "" if config is None else os.fspath(config))
    if d["exit_code"] in (2, 3):
        raise Error("replay", d["messages"], d["exit_code"])
    return ReplayResult(d)


_DEVICES = ("max78000", "max78002")


def info(device="max78000"):
    """The platform map of a device (`ai8xsim info --json`): the SystemC
    module tree with every address window, memory instance and register
    block, as a dict. `device` is "max78000", "max78002" or the path of a
    device description (YAML)."""
    config = os.fspath(device)
    if config.lower() in _DEVICES:
        config = os.path.join(_core.CONFIG_DIR, config.lower() + ".yaml")
    code, message, text = _core.info(config, True)
    if code != 0:
        raise Error("info", [message], code)
    return _json.loads(text)
