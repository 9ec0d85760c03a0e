#!/usr/bin/env bash
# Tabulates a long fuzzing run of scripts/fuzz-cpu-budget.sh: per harness the
# CPU seconds used, segments, executions summed over the segments, the last
# coverage figures, corpus size and any finding (crash-, leak-, timeout-,
# oom- or slow-unit- file). Usage: scripts/fuzz-summary.sh FUZZ_LONG_DIR
set -uo pipefail
long="${1:?usage: scripts/fuzz-summary.sh FUZZ_LONG_DIR}"

printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' harness "CPU s" segments executions "exec/CPU s" cov ft "corpus" findings
echo '|---|---|---|---|---|---|---|---|---|'
for dir in "$long"/fuzz_*/; do
  dir="${dir%/}"; name="${dir##*/}"
  cpu="$(cat "$dir/cpu_seconds" 2> /dev/null || echo 0)"
  segments="$(ls "$dir"/log.* 2> /dev/null | wc -l)"
  execs=0
  for log in "$dir"/log.*; do
    n="$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$')"
    execs=$(( execs + ${n:-0} ))
  done
  # The last status line of the latest segment that printed one (a segment
  # just resumed may not have yet).
  status="$(ls -v "$dir"/log.* 2> /dev/null | xargs -r cat | grep -E '^#[0-9]+' | tail -n 1)"
  cov="$(grep -oE 'cov: [0-9]+' <<< "$status" | grep -oE '[0-9]+')"
  ft="$(grep -oE 'ft: [0-9]+' <<< "$status" | grep -oE '[0-9]+')"
  corpus="$(ls "$dir/corpus" | wc -l)"
  findings="$(cd "$dir" && ls -d crash-* leak-* timeout-* oom-* slow-unit-* 2> /dev/null | tr '\n' ' ')"
  rate=0; (( cpu > 0 )) && rate=$(( execs / cpu ))
  printf '| `%s` | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$cpu" "$segments" "$execs" "$rate" \
    "${cov:-?}" "${ft:-?}" "$corpus" "${findings:-none}"
done
