"""ai8xsim.set_log_level: the command line's -v/--log-level."""

from . import _core

_LEVELS = ("trace", "debug", "info", "warn", "error", "critical", "off")


def set_log_level(level):
    """The simulator's log messages (on stderr) from LEVEL on: trace, debug,
    info, warn (the default, as on the command line), error, critical or off."""
    if level not in _LEVELS:
        raise ValueError("log level %r: expected one of %s" % (level, ", ".join(_LEVELS)))
    _core.set_log_level(level)
