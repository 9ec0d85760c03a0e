#!/usr/bin/env bash
# scripts/shared-folders.sh: a conformance step over a missing shared folder
# fails, says which folder, and the summary names it; an existing folder runs
# the runner with the step's arguments. Usage: test_shared_folders.sh REPO
set -uo pipefail
repo="$1"
source "$repo/scripts/shared-folders.sh"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# A stand-in runner that records its arguments.
mkdir -p "$work/build" "$work/vectors"
printf '#!/bin/sh\necho "runner $*"\n' > "$work/build/ai8xsim-conformance"
chmod +x "$work/build/ai8xsim-conformance"

out="$(conformance "$work/build" "$work/vectors" -j2 --budget 15)" || fail "existing folder: step failed"
[ "$out" = "runner $work/vectors -j2 --budget 15" ] || fail "existing folder: runner got '$out'"
[ ${#missing_folders[@]} -eq 0 ] || fail "existing folder recorded as missing"

conformance "$work/build" "$work/vectors-max78002" -j2 > "$work/step.txt" && fail "missing folder: step passed"
grep -qx "missing shared folder of vectors: $work/vectors-max78002" "$work/step.txt" ||
  fail "missing folder: step output '$(cat "$work/step.txt")'"
grep -q runner "$work/step.txt" && fail "missing folder: the runner ran"
[ "$(report_missing_folders)" = "missing shared folder of vectors: $work/vectors-max78002" ] ||
  fail "summary: '$(report_missing_folders)'"
echo "PASS"
