#!/usr/bin/env python3
"""Sweep a streaming layer's DELTA1/DELTA2 (LREG_STREAM2) through `ai8xsim run --set`.

For every value the firmware's own writes of that register are overridden in
every quadrant it writes, the vector runs on the virtual board, and one line
reports the firmware's verdict and the hazards of the run JSON
(docs/streaming.md §6). Example:

    tools/stream_delta_sweep.py ../shared/vectors/demo-cats-dogs --layer 1 \
        --field delta2 --values 124-132
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import yaml

FIELDS = {"delta1": (4, 0x1F), "delta2": (16, 0xFFF)}


def stream2_writes(cnn_c, layer, config):
    """(address, value) of every generated write of LREG_STREAM2 (per-layer kind 17) for `layer`."""
    with open(config) as f:
        regs = yaml.safe_load(f)["registers"]
    quad, lreg = regs["quadrant"], regs["layer_registers"]
    offset = lreg["offset"] + 17 * lreg["stride"] + 4 * layer
    pattern = re.compile(r"\*\(\(volatile uint32_t \*\) (0x[0-9a-fA-F]+)\) = (0x[0-9a-fA-F]+);")
    found = []
    with open(cnn_c) as f:
        for line in f:
            m = pattern.search(line)
            if not m:
                continue
            rel = int(m[1], 16) - quad["base"]
            if rel >= 0 and rel % quad["quadrant_stride"] == offset:
                found.append((int(m[1], 16), int(m[2], 16)))
    return found


def parse_values(text):
    out = []
    for part in text.split(","):
        if "-" in part:
            lo, hi = (int(x, 0) for x in part.split("-"))
            out.extend(range(hi, lo - 1, -1))
        else:
            out.append(int(part, 0))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("vector")
    ap.add_argument("--layer", type=int, default=1)
    ap.add_argument("--field", choices=sorted(FIELDS), default="delta2")
    ap.add_argument("--values", required=True, help="e.g. 120-132 or 128,130,132")
    ap.add_argument("--config", default=os.path.join(os.path.dirname(__file__), "..", "configs", "max78000.yaml"))
    ap.add_argument("--ai8xsim", default=os.path.join(os.path.dirname(__file__), "..", "build", "release", "ai8xsim"))
    args = ap.parse_args()

    cnn_c = os.path.join(args.vector, "cnn.c")
    writes = stream2_writes(cnn_c, args.layer, args.config)
    if not writes:
        sys.exit(f"{cnn_c}: no LREG_STREAM2 write for layer {args.layer}; is it a streaming layer?")
    shift, mask = FIELDS[args.field]
    generated = (writes[0][1] >> shift) & mask
    print(f"{args.vector}: layer {args.layer} {args.field} generated {generated} "
          f"({len(writes)} quadrant writes)")
    with tempfile.TemporaryDirectory() as tmp:
        for v in parse_values(args.values):
            if v > mask or v < 0:
                sys.exit(f"value {v} does not fit the {args.field} field (max {mask})")
            cmd = [args.ai8xsim, "run", args.vector, "--quiet", "--config", args.config,
                   "--json", os.path.join(tmp, "r.json")]
            for address, value in writes:
                cmd += ["--set", f"0x{address:08x}=0x{(value & ~(mask << shift)) | (v << shift):08x}"]
            rc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
            try:
                with open(os.path.join(tmp, "r.json")) as f:
                    report = json.load(f)
            except (OSError, ValueError):
                report = {"result": "error", "hazards": []}
            hazards = report.get("hazards", [])
            kinds = ", ".join(f"{h['kind']} L{h['layer']} @0x{h['address']:08x} cycle {h['cycle']} x{h['count']}"
                              for h in hazards)
            mark = " (generated)" if v == generated else ""
            print(f"{args.field}={v:5d}{mark}: {report.get('result', '?').upper():5s} exit {rc} "
                  f"cycles {report.get('cnn_cycles', 0)} hazards {len(hazards)} {kinds}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
