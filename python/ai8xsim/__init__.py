"""ai8xsim in Python: the MAX78000/MAX78002 CNN accelerator simulator as a
package for notebooks and training flows (docs/python.md).

    import ai8xsim
    r = ai8xsim.run("../shared/vectors/demo-mnist")
    print(r.passed, r.cycles, r.layer(0).values.shape)

Runs happen in this process (the GIL is released while they build and
simulate); sweeps run their points as `ai8xsim run` processes, several at once.
"""

from ._errors import Error, RunError
from ._run import run
from ._result import Layer, Result
from ._compare import Mismatch, compare, generator_layers
from ._commands import ReplayResult, info, replay
from ._log import set_log_level
from ._sweep import sweep

__all__ = [
    "Error",
    "Layer",
    "Mismatch",
    "ReplayResult",
    "Result",
    "RunError",
    "compare",
    "generator_layers",
    "info",
    "replay",
    "run",
    "set_log_level",
    "sweep",
]
