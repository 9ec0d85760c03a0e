#!/usr/bin/env python3
"""Sums a callgrind profile's self cost (instructions) by part of the simulator.

Usage: bench/callgrind_groups.py PROFILE.out [PROFILE.out ...]

Made with
  valgrind --tool=callgrind --callgrind-out-file=P.out build/release/ai8xsim run DIR --quiet
Instruction counts do not depend on the machine's load, unlike wall time, so
two builds can be compared on a shared machine. Self cost per function, as
callgrind_annotate prints it, is put into the first group whose pattern
matches the function or its library (order matters).
"""
import re
import subprocess
import sys

GROUPS = [
    ("process start (dynamic linking)", r"ld-linux|/ld-2"),
    ("device description (YAML)", r"yaml|YAML"),
    ("CPU emulation (Unicorn)", r"libunicorn|\[\?\?\?\]$"),
    ("CPU glue: blocks, polls, interrupts", r"UnicornCpu|CortexM4|RiscvCore|thumb_"),
    ("bus path (AHB, register banks, power)", r"AhbBus|Accelerator::b_transport|RegisterBank|PowerControl|"
     r"simple_target_socket|callback_binder|Register::|FifoBlock|FastFifo|InputFifos|InferenceTimer|tlm_"),
    ("SystemC kernel", r"libsystemc|sc_core"),
    ("stream controller and scheduler", r"Stream(Controller|Scheduler|Session)|ScanCost"),
    ("layer engine (convolution, memories)", r"ai8x::"),
    ("malloc, memcpy, libstdc++", r"libc\.so|libstdc\+\+|malloc|free|memcpy|memset|memmove"),
    ("other", r"."),
]


def groups(profile):
    out = subprocess.run(["callgrind_annotate", "--threshold=100", profile], capture_output=True, text=True,
                         check=True).stdout
    total = 0
    sums = {name: 0 for name, _ in GROUPS}
    for line in out.splitlines():
        m = re.match(r"\s*([\d,]+)\s+\([\s\d.]+%\)\s+(.*)$", line)
        if not m:
            continue
        cost, what = int(m.group(1).replace(",", "")), m.group(2)
        if "PROGRAM TOTALS" in what:
            total = cost
            continue
        for name, pattern in GROUPS:
            if re.search(pattern, what):
                sums[name] += cost
                break
    return total, sums


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    results = [(p, *groups(p)) for p in sys.argv[1:]]
    print("| part | " + " | ".join(p.rsplit("/", 1)[-1].replace(".out", "") for p, _, _ in results) + " |")
    print("|---" * (len(results) + 1) + "|")
    for name, _ in GROUPS:
        cells = [f"{s[name] / 1e6:.0f}M ({100 * s[name] / t:.0f} %)" if t else "-" for _, t, s in results]
        print(f"| {name} | " + " | ".join(cells) + " |")
    print("| **total** | " + " | ".join(f"**{t / 1e6:.0f}M**" for _, t, _ in results) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
