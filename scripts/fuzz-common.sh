# shellcheck shell=bash disable=SC2034  # (the variables are for the scripts that source this one)
# Shared by the fuzzing scripts (sourced, not run): the list of harnesses, the
# numbers read from a harness's libFuzzer logs, and the ledger of the
# one-CPU-hour run (testbench/fuzz/long-run.tsv, docs/fuzzing.md). One copy, so
# that scripts/fuzz-summary.sh and scripts/fuzz-save-corpus.sh count alike.

# The committed corpus (one folder per harness) and the ledger.
fuzz_corpus_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/testbench/fuzz/corpus"
fuzz_ledger="${fuzz_corpus_dir%/corpus}/long-run.tsv"
fuzz_harnesses=(fuzz_trace fuzz_word_image fuzz_device_config fuzz_elf fuzz_run_report fuzz_vector_catalog fuzz_arguments)

fuzz_executions() {  # fuzz_executions LOG...: executions summed over the segments' logs
  local log n total=0
  for log in "$@"; do
    n="$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$')"
    total=$(( total + ${n:-0} ))
  done
  echo "$total"
}

fuzz_coverage() {  # fuzz_coverage LOG...: "COV FT" of the last status line, in the order given ("? ?" if none)
  # The last status line of the latest segment that printed one (a segment
  # just resumed may not have yet).
  local status cov ft
  status="$( (( $# )) && cat "$@" | grep -E '^#[0-9]+' | tail -n 1)"
  cov="$(grep -oE 'cov: [0-9]+' <<< "$status" | grep -oE '[0-9]+')"
  ft="$(grep -oE 'ft: [0-9]+' <<< "$status" | grep -oE '[0-9]+')"
  echo "${cov:-?} ${ft:-?}"
}

fuzz_findings() {  # fuzz_findings DIR: the inputs a harness stopped on, one line, space-separated
  (cd "$1" && ls -d crash-* leak-* timeout-* oom-* slow-unit-* 2> /dev/null | tr '\n' ' ' | sed 's/ $//')
}

fuzz_logs() {  # fuzz_logs DIR: the segments' logs, in segment order
  ls -v "$1"/log.* 2> /dev/null
}

# The ledger: a header line, then one tab-separated row per harness with what
# every saved segment of the CPU-hour run added up to on all machines so far.
fuzz_ledger_header=$'harness\tcpu_seconds\tsegments\texecutions\tcov\tft\tcorpus_files\tfindings'

fuzz_ledger_check() {  # fuzz_ledger_check LEDGER: exits with a message naming the file and line if malformed
  awk -F '\t' -v header="$fuzz_ledger_header" -v file="$1" '
    function bad(why) { printf "%s:%d: %s\n", file, NR, why > "/dev/stderr"; failed = 1; exit 1 }
    NR == 1 { if ($0 != header) bad("the header must be the tab-separated line: " header); next }
    NF != 8 { bad("8 tab-separated fields expected, " NF " found") }
    $1 !~ /^fuzz_[a-z_]+$/ { bad("harness name expected, not \"" $1 "\"") }
    $1 in seen { bad($1 " has a second row") }
    { seen[$1] = 1 }
    $2 !~ /^[0-9]+$/ || $3 !~ /^[0-9]+$/ || $4 !~ /^[0-9]+$/ || $7 !~ /^[0-9]+$/ {
      bad("cpu_seconds, segments, executions and corpus_files must be whole numbers") }
    $5 !~ /^([0-9]+|\?)$/ || $6 !~ /^([0-9]+|\?)$/ { bad("cov and ft must be whole numbers or ?") }
    $8 == "" { bad("findings must be \"none\" or the names of the inputs") }
    END { if (!failed && NR == 0) { NR = 1; bad("empty file, the header line is missing") } }' "$1" || exit 2
}

fuzz_ledger_row() {  # fuzz_ledger_row LEDGER NAME: the harness's row (tab-separated), empty if it has none
  awk -F '\t' -v name="$2" 'NR > 1 && $1 == name' "$1"
}
