#!/usr/bin/env bash
# Runs every libFuzzer harness (docs/fuzzing.md) for SECONDS of CPU time each,
# all at once (scripts/fuzz-cpu-budget.sh), and fails if any found a crash,
# leak, timeout or out-of-memory input. Usage:
#   scripts/fuzz.sh SECONDS [FUZZ_BUILD_DIR [AI8XSIM_BINARY]]
# FUZZ_BUILD_DIR is a clang build with -DAI8XSIM_FUZZ=ON (default build/fuzz;
# built here if it does not exist yet). The seeds come from the repository and
# ../shared (testbench/fuzz/make_seeds.sh); with AI8XSIM_BINARY (default
# build/release/ai8xsim, if present) a recorded trace and run JSON join them.
# Each harness also reads the committed corpus of the long runs
# (testbench/fuzz/corpus/NAME), so it starts where they got to.
# What each harness found is kept in FUZZ_BUILD_DIR/fuzz-out/NAME/ (log, new
# corpus entries, crash-*/leak-*/timeout-*/oom-* inputs); the last lines print
# executions and coverage per harness. AI8XSIM_FUZZ_TIMEOUT: seconds one input
# may take (default 10).
set -uo pipefail

seconds="${1:?usage: scripts/fuzz.sh SECONDS [FUZZ_BUILD_DIR [AI8XSIM_BINARY]]}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${2:-$repo/build/fuzz}"
ai8xsim="${3:-$repo/build/release/ai8xsim}"
jobs="$(nproc)"

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAI8XSIM_FUZZ=ON \
    -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang || exit 1
fi
cmake --build "$build" --target fuzz -j"$jobs" || exit 1

# AI8XSIM_FUZZ_ONLY="fuzz_elf fuzz_trace" runs a subset (scripts/fuzz-cpu-budget.sh lists all).
out="$build/fuzz-out"
[ -x "$ai8xsim" ] || ai8xsim=""
"$repo/testbench/fuzz/make_seeds.sh" "$build/fuzz-seeds" "$ai8xsim" || exit 1

# From scratch each time (the long, resumable runs keep their own folder):
# every harness at once, each until it has used SECONDS of CPU time. Never
# resumed from the ledger: its CPU time belongs to the long run.
rm -rf "$out"
AI8XSIM_FUZZ_RESUME=0 AI8XSIM_FUZZ_TIMEOUT="${AI8XSIM_FUZZ_TIMEOUT:-10}" \
  "$repo/scripts/fuzz-cpu-budget.sh" "$seconds" "$build" "$out"
