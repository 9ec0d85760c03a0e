#!/usr/bin/env bash
# The layer engine's thread pool (model/engine/worker_pool.*) and its unit
# tests (testbench/unit/model/test_worker_pool.cpp) built with ThreadSanitizer
# and run: a data race or a lock-order problem in the pool fails this check.
# Only the pool and its test are built (a few seconds of compiling), not the
# simulator: ThreadSanitizer cannot share a build with ASan, and SystemC's
# coroutine stacks confuse it anyway. Usage: scripts/check-thread-pool-tsan.sh [WORK_DIR]
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="${1:-$repo/build/tsan-pool}"
mkdir -p "$work"
cxx="${CXX:-g++}"
# Catch2's own main: the pool test needs no SystemC.
printf '#define CATCH_CONFIG_MAIN\n#include <catch2/catch.hpp>\n' >"$work/main.cpp"
"$cxx" -std=c++17 -O1 -g -fsanitize=thread -fno-omit-frame-pointer -pthread -I"$repo" \
  "$work/main.cpp" "$repo/model/engine/worker_pool.cpp" "$repo/model/engine/cpu_headroom.cpp" \
  "$repo/testbench/unit/model/test_worker_pool.cpp" \
  -o "$work/worker_pool_tsan"
# Any report is an error (exit code 66), and several rounds give the
# scheduler more chances to interleave the threads differently.
export TSAN_OPTIONS="halt_on_error=1:exitcode=66"
for round in 1 2 3 4 5; do
  "$work/worker_pool_tsan" --order rand --rng-seed "$round"
done
echo "thread pool: no ThreadSanitizer report in 5 rounds"
