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
#
# Each harness also reads the committed corpus, testbench/fuzz/corpus/NAME,
# so a run starts where the saved long runs got to; libFuzzer writes new
# inputs only to the first folder, OUT_DIR/NAME/corpus, never to that one.
# scripts/fuzz-save-corpus.sh OUT_DIR merges the new inputs into it and books
# the CPU time in the ledger, testbench/fuzz/long-run.tsv. To continue that
# run on another machine (machines are not kept between sessions):
#   AI8XSIM_FUZZ_RESUME=1 nice -n 19 scripts/fuzz-cpu-budget.sh 3600 BUILD NEW_OUT_DIR
# starts each harness's CPU count at what the ledger holds for it, so each runs
# only for the remainder of the budget (a harness already past it not at all).
set -uo pipefail

budget="${1:?usage: scripts/fuzz-cpu-budget.sh CPU_SECONDS [FUZZ_BUILD_DIR [OUT_DIR]]}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${2:-$repo/build/fuzz}"
long="${3:-$build/fuzz-long}"
timeout="${AI8XSIM_FUZZ_TIMEOUT:-120}"
ticks_per_second="$(getconf CLK_TCK)"
resume="${AI8XSIM_FUZZ_RESUME:-0}"
source "$repo/scripts/fuzz-common.sh"
committed="$fuzz_corpus_dir"
ledger="$fuzz_ledger"

[ -d "$build/fuzz-seeds" ] || { echo "fuzz-cpu-budget: no seeds in $build/fuzz-seeds (run scripts/fuzz.sh once first)" >&2; exit 2; }
read -r -a harnesses <<< "${AI8XSIM_FUZZ_ONLY:-${fuzz_harnesses[*]}}"
if [ "$resume" = 1 ]; then
  [ -f "$ledger" ] || { echo "fuzz-cpu-budget: AI8XSIM_FUZZ_RESUME=1 but there is no ledger $ledger" >&2; exit 2; }
  fuzz_ledger_check "$ledger"
fi

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
  if [ ! -f "$dir/cpu_seconds" ]; then
    # A fresh folder. Resuming, it starts from the CPU time the ledger holds;
    # resumed_cpu_seconds tells scripts/fuzz-save-corpus.sh that this much of
    # cpu_seconds is booked already, and fuzz-summary.sh that this folder's
    # executions took only the rest.
    local booked=0
    if [ "$resume" = 1 ]; then
      booked="$(fuzz_ledger_row "$ledger" "$name" | cut -f 2)"
      booked="${booked:-0}"
      echo "fuzz-cpu-budget: $name resumes at the $booked CPU s of $ledger"
    fi
    echo "$booked" > "$dir/resumed_cpu_seconds"
    echo "$booked" > "$dir/cpu_seconds"
  fi
  # New finds go to the first folder; the committed corpus is only read.
  local inputs=("$dir/corpus")
  [ -d "$committed/$name" ] && inputs+=("$committed/$name")
  inputs+=("$build/fuzz-seeds/$name")
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
    env -u LSAN_OPTIONS "$build/$name" "${inputs[@]}" \
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
