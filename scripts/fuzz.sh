#!/usr/bin/env bash
# Runs every libFuzzer harness (docs/fuzzing.md) for SECONDS each, as many at
# once as there are cores, and fails if any found a crash, leak, timeout or
# out-of-memory input. Usage:
#   scripts/fuzz.sh SECONDS [FUZZ_BUILD_DIR [AI8XSIM_BINARY]]
# AI8XSIM_FUZZ_JOBS sets how many run at once (default: the number of cores).
# FUZZ_BUILD_DIR is a clang build with -DAI8XSIM_FUZZ=ON (default build/fuzz;
# built here if it does not exist yet). The seeds come from the repository and
# ../shared (testbench/fuzz/make_seeds.sh); with AI8XSIM_BINARY (default
# build/release/ai8xsim, if present) a recorded trace and run JSON join them.
# What each harness found is kept in FUZZ_BUILD_DIR/fuzz-out/NAME/ (log, new
# corpus entries, crash-*/leak-*/timeout-*/oom-* inputs); the last lines print
# executions and coverage per harness.
set -uo pipefail

seconds="${1:?usage: scripts/fuzz.sh SECONDS [FUZZ_BUILD_DIR [AI8XSIM_BINARY]]}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${2:-$repo/build/fuzz}"
ai8xsim="${3:-$repo/build/release/ai8xsim}"
jobs="${AI8XSIM_FUZZ_JOBS:-$(nproc)}"

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAI8XSIM_FUZZ=ON \
    -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang || exit 1
fi
cmake --build "$build" --target fuzz -j"$jobs" || exit 1

all=(fuzz_trace fuzz_word_image fuzz_device_config fuzz_elf fuzz_run_report fuzz_vector_catalog fuzz_arguments)
# AI8XSIM_FUZZ_ONLY="fuzz_elf fuzz_trace" runs a subset.
read -r -a harnesses <<< "${AI8XSIM_FUZZ_ONLY:-${all[*]}}"
out="$build/fuzz-out"
[ -x "$ai8xsim" ] || ai8xsim=""
"$repo/testbench/fuzz/make_seeds.sh" "$build/fuzz-seeds" "$ai8xsim" || exit 1

run_one() {  # run_one NAME: one harness, its findings in $out/NAME
  local name="$1" dir="$out/$1"
  rm -rf "$dir"
  mkdir -p "$dir/corpus"
  # -rss_limit_mb: an input that makes a parser allocate gigabytes is a finding
  # (oom-*), as is one that takes more than -timeout seconds (timeout-*).
  # LSAN_OPTIONS of scripts/test.sh (use_stacks=0) is for SystemC's coroutine
  # stacks; a harness has none, and its leak check needs the stacks as roots.
  env -u LSAN_OPTIONS "$build/$name" "$dir/corpus" "$build/fuzz-seeds/$name" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$dir/" > "$dir/log" 2>&1
  echo $? > "$dir/rc"
}
export -f run_one
export out build seconds
printf '%s\n' "${harnesses[@]}" | xargs -P "$jobs" -I{} bash -c 'run_one {}'

failed=0
printf '%-22s %12s %8s %8s %8s  %s\n' harness executions exec/s cov ft findings
for name in "${harnesses[@]}"; do
  dir="$out/$name"
  execs="$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$dir/log" | grep -oE '[0-9]+$')"
  rate="$(grep -oE 'stat::average_exec_per_sec: *[0-9]+' "$dir/log" | grep -oE '[0-9]+$')"
  # The last status line of the run carries the final coverage figures.
  status="$(grep -E '^#[0-9]+' "$dir/log" | tail -n 1)"
  cov="$(grep -oE 'cov: [0-9]+' <<< "$status" | grep -oE '[0-9]+')"
  ft="$(grep -oE 'ft: [0-9]+' <<< "$status" | grep -oE '[0-9]+')"
  findings="$(cd "$dir" && ls -d crash-* leak-* timeout-* oom-* slow-unit-* 2> /dev/null | tr '\n' ' ')"
  if [ "$(cat "$dir/rc")" != 0 ] || [ -n "$findings" ]; then
    failed=1
    findings="${findings:-exit code $(cat "$dir/rc")} (see $dir/log)"
  fi
  printf '%-22s %12s %8s %8s %8s  %s\n' "$name" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "${findings:-none}"
done
exit $failed
