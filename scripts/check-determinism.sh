#!/usr/bin/env bash
# Runs a sample of golden vectors (plain, FIFO, streaming) with two ai8xsim
# binaries, e.g. the Release and the ASan+UBSan builds of scripts/test.sh, and
# checks that both write the same run JSON apart from its wall-clock fields,
# the same layer dumps, bus trace, VCD and timeline (docs/determinism.md).
# Usage: scripts/check-determinism.sh AI8XSIM_A AI8XSIM_B [VECTORS_DIR]
set -uo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ $# -lt 2 ]; then
  echo "usage: $0 AI8XSIM_A AI8XSIM_B [VECTORS_DIR]" >&2
  exit 2
fi
bin_a="$1"
bin_b="$2"
vectors="${3:-$repo/../shared/vectors}"
sample=(demo-mnist-extrasmall t-test-fifo-hwc t-test-fifostream-nonsquare-hwc)

# The wall-clock fields are listed once, in app/run_report.h (wall_clock_fields()).
fields="$(sed -n 's/.*static const std::vector<std::string> fields = {\(.*\)};.*/\1/p' "$repo/app/run_report.h" |
  tr -d '" ')"
if [ -z "$fields" ]; then
  echo "cannot read the wall-clock fields from $repo/app/run_report.h" >&2
  exit 2
fi
strip="del($(echo "$fields" | sed 's/\([a-z_][a-z_0-9]*\)/.\1/g'))"

work="$(mktemp -d "${TMPDIR:-/tmp}/ai8xsim-determinism-XXXXXX")"
trap 'rm -rf "$work"' EXIT
export SC_COPYRIGHT_MESSAGE=DISABLE
status=0
for v in "${sample[@]}"; do
  for side in a b; do
    bin="bin_$side"
    out="$work/$side/$v"
    mkdir -p "$out"
    if ! "${!bin}" run "$vectors/$v" --quiet --build-dir "$work/firmware" --json "$out/run.json" \
      --dump-layers "$out/layers" --trace-out "$out/trace.txt" --vcd "$out/waves.vcd" \
      --timeline "$out/timeline.json"; then
      echo "FAIL   $v: ${!bin} did not pass"
      status=1
    fi
    jq -S "$strip" "$out/run.json" >"$out/run-without-wall-clock.json" && rm "$out/run.json"
  done
  if diff -r "$work/a/$v" "$work/b/$v" >"$work/diff.txt"; then
    echo "same   $v ($(find "$work/a/$v" -type f | wc -l) files: run JSON without $fields, layer dumps, trace, VCD, timeline)"
  else
    echo "DIFFER $v"
    head -n 20 "$work/diff.txt"
    status=1
  fi
done
exit $status
