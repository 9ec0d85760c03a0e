#!/usr/bin/env bash
# Runs every libFuzzer harness until it has used CPU_SECONDS of processor time
# (not wall time: on a busy machine a wall-clock limit gives a harness whatever
# the other jobs leave it). scripts/fuzz.sh runs it for CI (60 s each, into
# FUZZ_BUILD_DIR/fuzz-out, from scratch); the long runs of docs/fuzzing.md:
#   nice -n 19 scripts/fuzz-cpu-budget.sh 3600 [FUZZ_BUILD_DIR [OUT_DIR]]
# All harnesses run at once; the kernel shares the cores between them, so no
# core idles while the last harnesses finish. OUT_DIR defaults to
# FUZZ_BUILD_DIR/fuzz-long. AI8XSIM_FUZZ_TIMEOUT: seconds (wall) one input may
# take before it counts as a hang (default 120: long runs share the machine).
#
# A run can be paused and resumed without losing what it found: create
# FUZZ_BUILD_DIR/fuzz-long/PAUSE and every harness is interrupted (libFuzzer
# prints its statistics and exits), the runner waits until the file is gone
# and starts the harness again on its grown corpus. CPU time is summed over
# these segments in fuzz-long/NAME/cpu_seconds, so stopping the whole script
# and starting it again continues where it stopped. Each segment's libFuzzer
# log is kept (fuzz-long/NAME/log.N); scripts/fuzz-summary.sh tabulates them.
set -uo pipefail

budget="${1:?usage: scripts/fuzz-cpu-budget.sh CPU_SECONDS [FUZZ_BUILD_DIR [OUT_DIR]]}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${2:-$repo/build/fuzz}"
long="${3:-$build/fuzz-long}"
timeout="${AI8XSIM_FUZZ_TIMEOUT:-120}"
ticks_per_second="$(getconf CLK_TCK)"

[ -d "$build/fuzz-seeds" ] || { echo "fuzz-cpu-budget: no seeds in $build/fuzz-seeds (run scripts/fuzz.sh once first)" >&2; exit 2; }
harnesses=(fuzz_trace fuzz_word_image fuzz_device_config fuzz_elf fuzz_run_report fuzz_vector_catalog fuzz_arguments)
read -r -a harnesses <<< "${AI8XSIM_FUZZ_ONLY:-${harnesses[*]}}"

cpu_ticks() {  # cpu_ticks PID: user + system time of the process in clock ticks
  local stat
  stat="$(cat "/proc/$1/stat" 2> /dev/null)" || { echo 0; return; }
  stat="${stat##*) }"  # the command name may hold spaces; fields follow ") "
  read -r -a fields <<< "$stat"
  echo $(( fields[11] + fields[12] ))
}

run_harness() {  # run_harness NAME: segments until the budget is used
  local name="$1" dir="$long/$1"
  mkdir -p "$dir/corpus"
  [ -f "$dir/cpu_seconds" ] || echo 0 > "$dir/cpu_seconds"
  while :; do
    local used; used="$(cat "$dir/cpu_seconds")"
    (( used >= budget )) && break
    while [ -e "$long/PAUSE" ]; do sleep 1; done
    local segment=$(( $(ls "$dir"/log.* 2> /dev/null | wc -l) + 1 ))
    # -timeout is wall time per input: an input slower than that is a hang
    # (timeout-*), one that makes the harness allocate 2 GiB is an oom-*.
    # Slow-unit reports use the same limit: below it, a slow input on a busy
    # machine is a harness that waited for the CPU, not a slow parser.
    # LSAN_OPTIONS of scripts/test.sh (use_stacks=0) is for SystemC's
    # coroutine stacks; a harness has none, and its leak check needs the
    # stacks as roots.
    env -u LSAN_OPTIONS "$build/$name" "$dir/corpus" "$build/fuzz-seeds/$name" \
      -timeout="$timeout" -report_slow_units="$timeout" -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$dir/" \
      > "$dir/log.$segment" 2>&1 &
    local pid=$! ticks=0
    while kill -0 "$pid" 2> /dev/null; do
      sleep 1
      local now; now="$(cpu_ticks "$pid")"
      (( now > ticks )) && ticks=$now
      if (( used + ticks / ticks_per_second >= budget )) || [ -e "$long/PAUSE" ]; then
        kill -INT "$pid" 2> /dev/null
      fi
    done
    wait "$pid"
    local rc=$?
    echo $(( used + ticks / ticks_per_second )) > "$dir/cpu_seconds"
    echo "$rc" > "$dir/rc.$segment"
    # 72 is libFuzzer's exit code after an interrupt (our stop); anything
    # else non-zero is a finding, kept in $dir, and ends this harness.
    if (( rc != 0 && rc != 72 )); then
      echo "fuzz-cpu-budget: $name stopped with exit code $rc (see $dir/log.$segment)" >&2
      return 1
    fi
  done
}

mkdir -p "$long"
failed=0
for name in "${harnesses[@]}"; do run_harness "$name" & done
for job in $(jobs -p); do wait "$job" || failed=1; done
"$repo/scripts/fuzz-summary.sh" "$long"
exit $failed
