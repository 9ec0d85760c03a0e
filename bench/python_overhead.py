#!/usr/bin/env python3
"""What a run costs through Python against the command line, same run.

For each vector, alternately (so both see the same machine load): the
command line `ai8xsim run DIR --quiet --json F` as a process, and
`ai8xsim.run(DIR)` in this process (layer arrays captured, as by default).
Per side it keeps the median of --repeat runs of
  * wall: the host time of the whole call (process start to exit for the
    command line; the function call for Python, the result object made);
  * sim: the run JSON's `wall_seconds` (folder to verdict, the same stages
    on both sides).
Prints a table and the overhead of Python in percent (target: at most 10 %).

  PYTHONPATH=build/release/python /usr/bin/python3 bench/python_overhead.py \
      [--repeat 21] [VECTOR_DIR ...]   (default: the demo vectors of ../shared/vectors)
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import ai8xsim
from ai8xsim import _core

HERE = os.path.dirname(os.path.abspath(__file__))
DEMOS = ["demo-mnist-extrasmall", "demo-mnist", "demo-kws20_v3", "demo-cifar-10", "demo-cats-dogs"]


def cli_run(cli, folder, json_path):
    start = time.perf_counter()
    subprocess.run([cli, "run", folder, "--quiet", "--json", json_path], check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    with open(json_path) as f:
        return wall, json.load(f)["wall_seconds"]


def python_run(folder):
    start = time.perf_counter()
    r = ai8xsim.run(folder)
    r.layers  # the arrays made, as a user reading them pays for
    wall = time.perf_counter() - start
    assert r.passed, folder
    return wall, r.wall_seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("vectors", nargs="*")
    parser.add_argument("--repeat", type=int, default=21)
    parser.add_argument("--cli", default=_core.BUILD_TREE_CLI)
    args = parser.parse_args()
    shared = os.path.join(HERE, "..", "..", "shared", "vectors")
    vectors = args.vectors or [os.path.join(shared, d) for d in DEMOS]
    print("load average before: %s" % " ".join("%.2f" % x for x in os.getloadavg()))
    print("%-24s %10s %10s %10s %10s %9s %9s" % ("vector", "cli_wall", "py_wall", "cli_sim", "py_sim",
                                                  "wall_%", "sim_%"))
    worst = float("-inf")
    with tempfile.TemporaryDirectory() as tmp:
        json_path = os.path.join(tmp, "run.json")
        for folder in vectors:
            cli_run(args.cli, folder, json_path)  # firmware into the cache, untimed
            python_run(folder)
            cli, py = [], []
            for _ in range(args.repeat):
                cli.append(cli_run(args.cli, folder, json_path))
                py.append(python_run(folder))
            cw, cs = (statistics.median(x[i] for x in cli) for i in (0, 1))
            pw, ps = (statistics.median(x[i] for x in py) for i in (0, 1))
            wall_pct, sim_pct = 100 * (pw / cw - 1), 100 * (ps / cs - 1)
            worst = max(worst, wall_pct)
            print("%-24s %10.4f %10.4f %10.4f %10.4f %+8.1f%% %+8.1f%%" % (os.path.basename(folder), cw, pw, cs, ps,
                                                                           wall_pct, sim_pct))
            sys.stdout.flush()
    print("load average after: %s" % " ".join("%.2f" % x for x in os.getloadavg()))
    print("worst Python overhead on the whole call: %+.1f %% (target at most +10 %%)" % worst)
    return 0 if worst <= 10 else 1


if __name__ == "__main__":
    sys.exit(main())
