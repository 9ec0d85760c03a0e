#!/usr/bin/env python3
"""1,000 runs of one vector in one Python process: resident memory of the
first hundred runs against the last hundred (target: within 5 %), and no
crash. Layer arrays are captured and read on every run.

  PYTHONPATH=build/release/python /usr/bin/python3 bench/python_soak.py [--runs 1000] [VECTOR_DIR]
"""

import argparse
import os
import sys
import time

import ai8xsim

HERE = os.path.dirname(os.path.abspath(__file__))


def resident_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("vector", nargs="?", default=os.path.join(HERE, "..", "..", "shared", "vectors",
                                                                  "demo-mnist-extrasmall"))
    parser.add_argument("--runs", type=int, default=1000)
    args = parser.parse_args()
    sizes, start = [], time.monotonic()
    for i in range(args.runs):
        r = ai8xsim.run(args.vector)
        assert r.passed and sum(int(l.values.sum() != 0) for l in r.layers) > 0, i
        sizes.append(resident_kib())
    tenth = max(1, min(100, args.runs // 10))
    first, last = sum(sizes[:tenth]) / tenth, sum(sizes[-tenth:]) / tenth
    growth = 100 * (last / first - 1)
    print("%d runs of %s in %.0f s; RSS mean of the first %d runs %.0f KiB, of the last %d %.0f KiB (%+.2f %%); "
          "min %d, max %d KiB" % (args.runs, os.path.basename(os.path.normpath(args.vector)),
                                  time.monotonic() - start, tenth, first, tenth, last, growth, min(sizes),
                                  max(sizes)))
    return 0 if growth <= 5 else 1


if __name__ == "__main__":
    sys.exit(main())
