#!/usr/bin/env bash
# Tabulates a long fuzzing run of scripts/fuzz-cpu-budget.sh: per harness the
# CPU seconds used, segments, executions summed over the segments, the last
# coverage figures, corpus size and any finding (crash-, leak-, timeout-,
# oom- or slow-unit- file). Usage: scripts/fuzz-summary.sh FUZZ_LONG_DIR
set -uo pipefail
long="${1:?usage: scripts/fuzz-summary.sh FUZZ_LONG_DIR}"
source "$(dirname "${BASH_SOURCE[0]}")/fuzz-common.sh"

printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' harness "CPU s" segments executions "exec/CPU s" cov ft "corpus" findings
echo '|---|---|---|---|---|---|---|---|---|'
for dir in "$long"/fuzz_*/; do
  dir="${dir%/}"; name="${dir##*/}"
  cpu="$(cat "$dir/cpu_seconds" 2> /dev/null || echo 0)"
  # A resumed run's CPU seconds include those of earlier machines (the
  # ledger's); its executions are this folder's only.
  resumed="$(cat "$dir/resumed_cpu_seconds" 2> /dev/null || echo 0)"
  mapfile -t logs < <(fuzz_logs "$dir")
  execs="$(fuzz_executions "${logs[@]}")"
  read -r cov ft <<< "$(fuzz_coverage "${logs[@]}")"
  corpus="$(ls "$dir/corpus" | wc -l)"
  findings="$(fuzz_findings "$dir")"
  rate=0; (( cpu > resumed )) && rate=$(( execs / (cpu - resumed) ))
  printf '| `%s` | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$cpu" "${#logs[@]}" "$execs" "$rate" \
    "$cov" "$ft" "$corpus" "${findings:-none}"
done
