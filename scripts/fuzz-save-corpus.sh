#!/usr/bin/env bash
# Saves a long fuzzing run (the OUT_DIR of scripts/fuzz-cpu-budget.sh) into the
# repository, so that the one-CPU-hour run survives its machine and another
# session continues it (docs/fuzzing.md):
#   scripts/fuzz-save-corpus.sh LONG_DIR [FUZZ_BUILD_DIR]
# For every harness folder LONG_DIR/NAME:
#   - the inputs it found (LONG_DIR/NAME/corpus) and the committed corpus
#     (testbench/fuzz/corpus/NAME) are merged by the harness itself
#     (libFuzzer's -merge=1 keeps the smallest inputs that together cover
#     every feature) into a new folder, which then replaces the committed one;
#   - the ledger testbench/fuzz/long-run.tsv gets the CPU seconds, segments and
#     executions of the segments not booked before, the last coverage, the
#     corpus size after the merge and the findings.
# What is booked is written to LONG_DIR/NAME/booked_segments and
# booked_cpu_seconds, so saving the same LONG_DIR again (or again after the
# run went on) adds only what is new. A segment still running is not booked
# (its CPU time is not in cpu_seconds yet): save after the run ends, or pause
# it first (touch LONG_DIR/PAUSE). FUZZ_BUILD_DIR holds the harnesses (default
# build/fuzz). Then commit testbench/fuzz/corpus and testbench/fuzz/long-run.tsv.
set -uo pipefail

usage="usage: scripts/fuzz-save-corpus.sh LONG_DIR [FUZZ_BUILD_DIR]"
long="${1:?$usage}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${2:-$repo/build/fuzz}"
timeout="${AI8XSIM_FUZZ_TIMEOUT:-120}"
source "$repo/scripts/fuzz-common.sh"
committed="$fuzz_corpus_dir"
ledger="$fuzz_ledger"

die() { echo "fuzz-save-corpus: $*" >&2; exit 2; }

[ -d "$long" ] || die "$long: no such folder (the OUT_DIR of scripts/fuzz-cpu-budget.sh)"
mapfile -t dirs < <(ls -d "$long"/fuzz_*/ 2> /dev/null)
(( ${#dirs[@]} )) || die "$long: no harness folder (fuzz_*) in it"
[ -f "$ledger" ] || printf '%s\n' "$fuzz_ledger_header" > "$ledger"
fuzz_ledger_check "$ledger"
mkdir -p "$committed"

merge() {  # merge NAME: LONG_DIR/NAME/corpus + committed corpus -> new committed corpus
  local name="$1" new="$committed/.$1.new" old="$committed/.$1.old"
  local inputs=("$long/$name/corpus")
  [ -d "$committed/$name" ] && inputs+=("$committed/$name")
  rm -rf "$new" "$old"
  mkdir -p "$new"
  # As in scripts/fuzz-cpu-budget.sh: the harness's leak check needs the
  # stacks as roots, which CI's LSAN_OPTIONS turns off. The merge runs the
  # inputs in a child process and goes on past one that crashes or hangs.
  if ! env -u LSAN_OPTIONS "$build/$name" -merge=1 -timeout="$timeout" -rss_limit_mb=2048 \
    "$new" "${inputs[@]}" > "$long/$name/merge.log" 2>&1; then
    rm -rf "$new"
    die "$name: the merge failed (see $long/$name/merge.log); $committed/$name is unchanged"
  fi
  # Built next to the committed folder, swapped in by two renames.
  [ -d "$committed/$name" ] && mv "$committed/$name" "$old"
  mv "$new" "$committed/$name" && rm -rf "$old"
}

book() {  # book NAME: adds the segments not booked before to the harness's ledger row
  local name="$1" dir="$long/$1"
  local cpu booked_cpu segment
  cpu="$(cat "$dir/cpu_seconds" 2> /dev/null || echo 0)"
  # What the ledger already holds of cpu_seconds: what an earlier save booked,
  # else what a resumed run started from (scripts/fuzz-cpu-budget.sh).
  booked_cpu="$(cat "$dir/booked_cpu_seconds" 2> /dev/null || cat "$dir/resumed_cpu_seconds" 2> /dev/null || echo 0)"
  [[ "$cpu" =~ ^[0-9]+$ && "$booked_cpu" =~ ^[0-9]+$ ]] ||
    die "$dir/cpu_seconds, booked_cpu_seconds or resumed_cpu_seconds does not hold a whole number"
  (( cpu >= booked_cpu )) || die "$dir/cpu_seconds ($cpu) is below what was booked from it ($booked_cpu)"
  # A segment is finished when the runner wrote its exit code (after its CPU
  # time went into cpu_seconds).
  local log logs new_logs=() segments=()
  mapfile -t logs < <(fuzz_logs "$dir")
  for log in "${logs[@]}"; do
    segment="${log##*.}"
    [ -f "$dir/rc.$segment" ] || { echo "fuzz-save-corpus: $name segment $segment not finished, not booked"; continue; }
    grep -qx "$segment" "$dir/booked_segments" 2> /dev/null && continue
    new_logs+=("$log"); segments+=("$segment")
  done

  local row old_cpu=0 old_segments=0 old_execs=0 old_cov='?' old_ft='?' files old_findings=none
  row="$(fuzz_ledger_row "$ledger" "$name")"
  [ -n "$row" ] && IFS=$'\t' read -r _ old_cpu old_segments old_execs old_cov old_ft _ old_findings <<< "$row"
  local execs cov ft findings
  execs="$(fuzz_executions "${new_logs[@]}")"
  read -r cov ft <<< "$(fuzz_coverage "${new_logs[@]}")"
  [ "$cov" = '?' ] && { cov="$old_cov"; ft="$old_ft"; }
  files="$(ls "$committed/$name" | wc -l)"
  # Every finding ever made stays listed (each is a fixed bug by now).
  findings="$( { [ "$old_findings" != none ] && tr ' ' '\n' <<< "$old_findings"
                 fuzz_findings "$dir" | tr ' ' '\n'; } | grep -v '^$' | sort -u | tr '\n' ' ' | sed 's/ $//')"
  row="$(printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s' "$name" $(( old_cpu + cpu - booked_cpu )) \
    $(( old_segments + ${#segments[@]} )) $(( old_execs + execs )) "$cov" "$ft" "$files" "${findings:-none}")"

  # The rows in the harnesses' order, then any other (a harness since removed).
  local other names
  mapfile -t names < <(printf '%s\n' "${fuzz_harnesses[@]}" "$name" | cat - <(cut -f 1 "$ledger" | tail -n +2) |
    awk '!seen[$0]++')
  {
    printf '%s\n' "$fuzz_ledger_header"
    for other in "${names[@]}"; do
      if [ "$other" = "$name" ]; then printf '%s\n' "$row"; else fuzz_ledger_row "$ledger" "$other"; fi
    done
  } > "$ledger.new" && mv "$ledger.new" "$ledger"
  (( ${#segments[@]} )) && printf '%s\n' "${segments[@]}" >> "$dir/booked_segments"
  echo "$cpu" > "$dir/booked_cpu_seconds"
  echo "fuzz-save-corpus: $name: $files inputs in $committed/$name; booked $(( cpu - booked_cpu )) CPU s," \
    "${#segments[@]} segment(s), $execs executions"
}

for dir in "${dirs[@]}"; do
  dir="${dir%/}"; name="${dir##*/}"
  [ -x "$build/$name" ] || die "$build/$name: no such harness (build it: cmake --build $build --target fuzz)"
  [ -d "$dir/corpus" ] || die "$dir/corpus: no such folder"
done
for dir in "${dirs[@]}"; do
  dir="${dir%/}"; name="${dir##*/}"
  merge "$name"
  book "$name"
done
