#!/usr/bin/env python3
"""Compares the run JSONs of two conformance work folders (old and new build).

Usage: bench/compare_runs.py OLD_WORK_DIR NEW_WORK_DIR

Each folder holds one <vector>.json per vector (ai8xsim-conformance
--work-dir). Every field must be equal except the host's wall-clock times,
which differ from run to run: cnn_cycles, per-layer cycles, stall_cycles,
hazards, dropped words, instruction counts, simulated time, the firmware's
console (its stopwatch output included), activity counters, outputs. Prints one
line per differing vector and a summary; exits 1 if any vector differs or is
missing on one side.
"""
import json
import os
import sys

# Host time, not simulation results.
IGNORED = {"wall_seconds", "inference_wall_seconds"}


def load(folder):
    runs = {}
    for name in sorted(os.listdir(folder)):
        if name.endswith(".json"):
            with open(os.path.join(folder, name)) as f:
                runs[name[:-5]] = json.load(f)
    return runs


def differences(old, new, path=""):
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(set(old) | set(new)):
            if key in IGNORED:
                continue
            if key not in old or key not in new:
                yield f"{path}.{key}: only in {'new' if key in new else 'old'}"
                continue
            yield from differences(old[key], new[key], f"{path}.{key}")
    elif isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            yield f"{path}: {len(old)} vs {len(new)} entries"
            return
        for i, (a, b) in enumerate(zip(old, new)):
            yield from differences(a, b, f"{path}[{i}]")
    elif old != new:
        yield f"{path}: {str(old)[:60]} -> {str(new)[:60]}"


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    old, new = load(sys.argv[1]), load(sys.argv[2])
    bad = 0
    for name in sorted(set(old) | set(new)):
        if name not in old or name not in new:
            print(f"{name}: missing in {'old' if name not in old else 'new'}")
            bad += 1
            continue
        diffs = list(differences(old[name], new[name]))
        if diffs:
            bad += 1
            print(f"{name}: {len(diffs)} difference(s): " + "; ".join(diffs[:4]))
    print(f"{len(set(old) & set(new))} vectors compared, {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
