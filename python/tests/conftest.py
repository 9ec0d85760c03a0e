"""Shared helpers of the package's tests (scripts/test.sh runs them against the
release build tree: PYTHONPATH=build/release/python)."""

import json
import os
import subprocess

import numpy as np
import pytest

import ai8xsim
from ai8xsim import _core

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.path.join(os.path.dirname(REPO), "shared")
VECTORS = os.path.join(SHARED, "vectors")
CLI = _core.BUILD_TREE_CLI
# The run JSON fields that measure the host's wall clock (app/run_report.h wall_clock_fields).
WALL_CLOCK_FIELDS = ("inference_wall_seconds", "wall_seconds")


def vector(name, folder="vectors"):
    path = os.path.join(SHARED, folder, name)
    assert os.path.isdir(path), "%s: missing (the tests need ../shared beside the repository)" % path
    return path


def without_wall_clock(doc):
    return {k: v for k, v in doc.items() if k not in WALL_CLOCK_FIELDS}


def cli_run(folder, *args):
    """`ai8xsim run FOLDER ARGS --quiet` as a process: (exit code, stderr)."""
    p = subprocess.run([CLI, "run", folder, "--quiet", *args], capture_output=True, text=True)
    return p.returncode, p.stderr


def read_dump(path):
    """A --dump-layers file (docs/layer-dumps.md), read here independently of the C++ reader."""
    with open(path) as f:
        lines = f.read().split("\n")
    assert lines[0].startswith("ai8xsim-layer-dump v1 layer ")
    c, h, w = (int(n) for n in lines[1].split()[1:])
    values = np.zeros((c, h, w), dtype=np.int64)
    pos = 2
    for ch in range(c):
        assert lines[pos] == "channel %d" % ch, (path, pos, lines[pos])
        pos += 1
        for r in range(h):
            values[ch, r, :] = [int(v) for v in lines[pos].split()] if w else []
            pos += 1
    return values


@pytest.fixture(scope="session")
def mnist_small():
    return vector("demo-mnist-extrasmall")


def read_json(path):
    with open(path) as f:
        return json.load(f)
