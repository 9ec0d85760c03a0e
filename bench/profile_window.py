#!/usr/bin/env python3
"""Where the host time of one inference goes, in instructions (callgrind).

Usage: bench/profile_window.py [--threads N] AI8XSIM VECTOR_DIR [VECTOR_DIR ...]

Runs `AI8XSIM run DIR --quiet` under callgrind, counting from the CNN start
request (Accelerator::request_start) to the completion interrupt
(InferenceTimer::on_irq) -- the window the bench's infer_ms times -- with
one dump after every layer the engine runs. Instruction counts do not depend
on the machine's load, so two builds can be compared on a shared machine.
Prints, per vector, the window: the start (CPU and SystemC until the
sequencer starts), each layer split into the dot-product kernel, the input fetch, the weights, the output writes and the rest of the
engine (set-up, bias, allocation), and what is not a layer: SystemC, the CPU,
the timing model. Needs valgrind; symbols suffice (no
debug information needed). Default --threads 1: a worker's instructions are
counted in its own thread and would be missed.
"""
import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

# First match wins: self cost of a function goes to the first part whose
# pattern matches its name (or its library).
PARTS = [
    ("kernel", r"ComputePixels|compute_pixels|accumulate_dots|avx2_rows|portable_rows"),
    ("input", r"fetch_inputs|fetch_processor|fetch_conv_image|copy_values|pool_into|pool_plane|scan_instance|"
              r"make_conv_image|ReceptiveFields|stream_plane|stream_words|max_pool|avg_pool|eltwise|pixel_channels|"
              r"move_pixels|plain_pixels|(one|two|four)_pass"),
    ("weights", r"fetch_weights|pack_weights|make_weight_rows|unpack_weight|spread_depthwise|decode_weights|"
                r"decode_kernels|decode_byte_runs|decode_narrow_run|locate_run|kernel_run|fetch_packed_weights|"
                r"zero_packed|zero_unset|decoding_table|decode_column_blocks|bytes_to_columns|interleave_(quads|pairs|steps)|columns(4|8|16)|"
                r"(sse2|plain)_(columns|quads|pairs)"),
    ("writes", r"OutputWriter|RingShadow|finish_output"),
    ("stream", r"Stream(Controller|Scheduler|Session)|ScanCost|InputFifo|FifoBlock|FastFifo|CnnEdges"),
    ("CPU and bus", r"libunicorn|\[\?\?\?\]$|UnicornCpu|CortexM4|RiscvCore|thumb_|AhbBus|RegisterBank|PowerControl|PowerDomain|"
                    r"simple_target_socket|Accelerator::b_transport|Accelerator::decode|tlm_|SocPeripherals|"
                    r"InferenceTimer|Register::"),
    ("SystemC", r"libsystemc|sc_core"),
    ("engine other", r"ai8x::|libc\.so|libstdc\+\+|malloc|free|memset|memcpy|memmove"),
    ("other", r"."),
]
LAYER_PARTS = ["kernel", "input", "weights", "writes", "engine other"]  # the layer engine's parts
REST_PARTS = ["stream", "CPU and bus", "SystemC", "other"]


class Names:
    """Callgrind's compressed names ("fn=(12) name" defines, "fn=(12)" refers), kept across the dumps of a run."""

    def __init__(self):
        self.table = {}

    def resolve(self, kind, value):
        m = re.match(r"\((\d+)\)\s*(.*)$", value)
        if not m:
            return value
        key = (kind, m.group(1))
        if m.group(2):
            self.table[key] = m.group(2)
        return self.table.get(key, value)


def self_costs(dump, names):
    """Self cost (Ir) per part of one dump, read from the file itself: a cost
    line right after a calls= line is a call's inclusive cost and is skipped
    (callgrind_annotate would count the functions still active at a
    mid-run dump with their whole inclusive cost)."""
    sums = {name: 0 for name, _ in PARTS}
    per_function = {}
    ob = fn = ""
    after_calls = False
    with open(dump) as f:
        for line in f:
            line = line.rstrip("\n")
            key, _, value = line.partition("=")
            if key in ("ob", "cob", "fn", "cfn", "fl", "fi", "fe", "cfi", "cfl"):
                resolved = names.resolve(key.lstrip("c").replace("fi", "fl").replace("fe", "fl"), value)
                if key == "ob":
                    ob = resolved
                elif key == "fn":
                    fn = resolved
                continue
            if key == "calls":
                after_calls = True
                continue
            if not line or not (line[0].isdigit() or line[0] in "+-*"):
                continue
            if after_calls:
                after_calls = False
                continue
            what = f"{fn} [{ob}]"
            per_function[what] = per_function.get(what, 0) + int(line.split()[-1])
    for what, cost in per_function.items():
        for name, pattern in PARTS:
            if re.search(pattern, what):
                sums[name] += cost
                break
    return sum(per_function.values()), sums


def profile(binary, vector, threads, work):
    base = os.path.join(work, os.path.basename(vector.rstrip("/")))
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + base,
           "--zero-before=ai8x::Accelerator::request_start()",
           "--dump-before=ai8x::AcceleratorState::clear_layer_activity()", "--dump-after=ai8x::LayerEngine::run_layer*",
           "--dump-before=ai8x::InferenceTimer::on_irq*", binary, "run", vector, "--quiet",
           "--threads", str(threads)]
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    dumps = sorted(glob.glob(base + ".*"), key=lambda p: int(p.rsplit(".", 1)[1]))
    # Dump 1 ends where the sequencer starts the inference, the next ones
    # after each layer, then one at the interrupt; later ones are after the
    # window. The first dump after the zeroing also holds what the functions
    # active at that moment ran before it (callgrind keeps their costs), so
    # only its summary counts.
    start, layers, rest, names = None, [], None, Names()
    for d in dumps:
        with open(d) as f:
            head = f.read(4096)
        trigger = next((l for l in head.splitlines() if l.startswith("desc: Trigger:")), "")
        costs = self_costs(d, names)  # every dump, in order, for the name table
        if "clear_layer_activity" in trigger and start is None:
            start = int(re.search(r"^summary: (\d+)", head, re.M).group(1))
        elif "run_layer" in trigger:
            layers.append(costs)
        elif "on_irq" in trigger and rest is None:
            rest = costs
    return start or 0, layers, rest


def mega(n):
    return f"{n / 1e6:.2f}"


def report(vector, start, layers, rest):
    window = start + sum(t for t, _ in layers) + (rest[0] if rest else 0)
    print(f"\n### {os.path.basename(vector.rstrip('/'))}: window {mega(window)}M instructions\n")
    columns = LAYER_PARTS + REST_PARTS
    print("| layer | total | " + " | ".join(columns) + " |")
    print("|---" * (len(columns) + 2) + "|")
    print(f"| start request to the first layer | {mega(start)} |" + " |" * len(columns))
    rows = [(f"{i}", t, s) for i, (t, s) in enumerate(layers)]
    if rest:
        rows.append(("after the last layer", rest[0], rest[1]))
    sums = {name: 0 for name, _ in PARTS}
    for label, total, s in rows:
        for k in sums:
            sums[k] += s[k]
        print(f"| {label} | {mega(total)} | " + " | ".join(mega(s[c]) for c in columns) + " |")
    print(f"| **window** | **{mega(window)}** | " + " | ".join(mega(sums[c]) for c in columns) + " |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("binary")
    ap.add_argument("vectors", nargs="+")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="ai8xsim-window-") as work:
        for v in a.vectors:
            start, layers, rest = profile(a.binary, v, a.threads, work)
            if not layers and not rest:
                print(f"{v}: no inference window recorded (did the run start the CNN?)", file=sys.stderr)
                return 1
            report(v, start, layers, rest)
    return 0


if __name__ == "__main__":
    sys.exit(main())
