#!/usr/bin/env bash
# Full verification, as CI runs it:
#   1. Release build, every unit test through ctest;
#   2. a second build with AddressSanitizer + UndefinedBehaviorSanitizer
#      (clang, which also builds the libFuzzer harnesses) and the unit tests
#      again under it;
#   3. the libFuzzer harnesses, each fuzzing for 60 s of CPU time
#      (docs/fuzzing.md);
#   4. the conformance runner over all golden vectors with the Release build,
#      over the generator-options vectors (../shared/vectors-max78000-options,
#      RISC-V and fast-FIFO firmware among them; AI8XSIM_OPTIONS_VECTORS),
#      over the MAX78002 vectors (VECTORS_DIR-max78002) and the MAX78002
#      generator-options vectors (VECTORS_DIR-max78002-options), each with their
#      own expected failures, over the vendor's RTL-simulation folders
#      (VECTORS_DIR-rtl, docs/rtl-flow.md) and over a small sample with the
#      sanitizer build, every convolution also computed by each SIMD target of
#      the layer engine and its plain path, which must agree (AI8XSIM_DOT_KERNEL=check);
#   5. the silicon anchors (ai8xsim-bench --anchors-only: every anchor within
#      its tolerance, docs/silicon-anchors.md);
#   6. the same results from both builds on a sample (scripts/check-determinism.sh);
#   7. the layer engine's thread pool under ThreadSanitizer (scripts/check-thread-pool-tsan.sh);
#   8. the Python package: pytest, the README's install line, the example notebook.
# Every step runs even if an earlier one failed; the exit code is non-zero if
# any failed. Usage: scripts/test.sh [VECTORS_DIR]   (or AI8XSIM_VECTORS=...)
set -uo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
vectors="${1:-${AI8XSIM_VECTORS:-$repo/../shared/vectors}}"
options_vectors="${AI8XSIM_OPTIONS_VECTORS:-$repo/../shared/vectors-max78000-options}"
release="$repo/build/release"
sanitize="$repo/build/sanitize"
jobs="$(nproc)"
# A few vectors of each kind; the sanitizer build is several times slower.
sanitizer_sample='^(demo-mnist-extrasmall|demo-kws20_v3|t-test-conv1d-1|t-test-burnin_64x8x8|t-test-fifo-hwc)$'

# Every ASan check (leaks included) and every UBSan check aborts the test
# process on the first finding, so ctest reports it as a failure.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# LeakSanitizer does not scan thread stacks: SystemC runs processes on its own
# mmap'ed coroutine stacks with PROT_NONE guard pages, and the leak checker's
# stack scan faults on them at exit ("Tracer caught signal 11"), seen on
# about half the runs of tests that elaborate SC_THREADs. Without stacks as
# roots the check is stricter (a block only a stack points to counts as leaked).
export LSAN_OPTIONS="use_stacks=0"
export SC_COPYRIGHT_MESSAGE=DISABLE
# One firmware build cache for every step (release and sanitizer tests,
# conformance runs): each vector's image is compiled once per CI run on a cold
# machine, and not at all on a machine whose cache is warm. Entries are keyed
# by the content of everything that goes into the image.
export AI8XSIM_FIRMWARE_CACHE="${AI8XSIM_FIRMWARE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ai8xsim}"

source "$repo/scripts/cmake-generator.sh"
source "$repo/scripts/shared-folders.sh"
results=()
failed=0
# CPU seconds (user + system) of every finished child process so far: on a
# shared machine the wall time of a step depends on the other load, this does not.
# `times` must run in this shell (not a pipe or $(...) subshell, which has no
# children): it writes to a file, read into CHILD_CPU.
cpu_file="$(mktemp)"
trap 'rm -f "$cpu_file"' EXIT
read_child_cpu() {
  times > "$cpu_file"
  CHILD_CPU="$(awk 'NR == 2 { split($0, t, /[ms ]+/); print int(t[1] * 60 + t[2] + t[3] * 60 + t[4]) }' "$cpu_file")"
}
step() {  # step NAME COMMAND...: runs and records one step
  local name="$1"; shift
  local t0=$SECONDS cpu0
  read_child_cpu
  cpu0=$CHILD_CPU
  echo
  echo "=== $name"
  local verdict=PASS
  "$@" || { verdict=FAIL; failed=1; }
  read_child_cpu
  results+=("$verdict  $name ($((SECONDS - t0)) s, CPU $((CHILD_CPU - cpu0)) s)")
}

build() {  # build DIR CMAKE-ARGS... [-- TARGET...]
  local dir="$1"; shift
  local args=() targets=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do args+=("$1"); shift; done
  [ $# -gt 0 ] && shift && targets=(--target "$@")
  local generator
  cmake_generator "$dir"
  cmake -S "$repo" -B "$dir" "${generator[@]}" "${args[@]}" && cmake --build "$dir" -j"$jobs" "${targets[@]}"
}

unit_tests() {  # unit_tests DIR [CTEST-ARGS...]
  local dir="$1"; shift
  ctest --test-dir "$dir" -j"$jobs" --output-on-failure "$@"
}

conformance_release() {  # keeps its output so the summary can end with its count
  require_folder "$vectors" && "$release/ai8xsim-conformance" "$vectors" -j2 --timeout 300 --budget 30 \
    --expected-failures "$expected" | tee "$release/conformance.txt"
}

conformance_options() {
  require_folder "$options_vectors" && "$release/ai8xsim-conformance" "$options_vectors" -j2 --timeout 300 \
    --budget 30 | tee "$release/conformance-options.txt"
}

silicon_anchors() {
  require_folder "$vectors" && require_folder "$vectors-max78002" &&
    "$release/ai8xsim-bench" "$vectors" --anchors-only
}

# The Python package (python/, docs/python.md) against the release build's
# extension module: its pytest tests (the ctest entries python:*, left out of
# the unit-test step), the README's install line (pip, into a scratch folder,
# reusing the release build) with the one-line run, and the example notebook
# executed top to bottom. Debian's Python and Jupyter (/usr/bin first: the
# kernel and the packages are Debian's).
python_install_line() {
  local target rc
  target="$(mktemp -d)"
  (cd "$repo" && PATH="/usr/bin:$PATH" AI8XSIM_BUILD_DIR="$release" \
    python3 -m pip install -q --no-build-isolation --no-deps --target "$target" . &&
    PATH="/usr/bin:$PATH" PYTHONPATH="$target" python3 -c \
      "import ai8xsim; r = ai8xsim.run('../shared/vectors/demo-mnist'); print(r.passed, r.cycles); assert r.passed")
  rc=$?
  rm -rf "$target"
  return $rc
}

python_notebook() {
  local out rc
  out="$(mktemp -d)"
  (cd "$repo/examples/notebooks" && PATH="/usr/bin:$PATH" PYTHONPATH="$release/python" \
    python3 -m jupyter nbconvert --to notebook --execute --ExecutePreprocessor.timeout=600 \
    --output-dir "$out" explore.ipynb)
  rc=$?
  rm -rf "$out"
  return $rc
}

conformance_rtl() {  # the folder check in this shell (not the pipeline), so a missing folder is summarised
  require_folder "$vectors-rtl" && "$release/ai8xsim-conformance" "$vectors-rtl" -j2 --timeout 600 --budget 25 \
    --expected-failures "$repo/testbench/conformance/expected_failures_rtl.txt" | tee "$release/conformance-rtl.txt"
}

"$repo/scripts/setup.sh" || { echo "setup failed: packages are missing"; exit 1; }
# Both builds are unity builds (CMAKE_UNITY_BUILD: a few sources per compiler
# run, so the heavy SystemC/JSON/Catch2 headers are parsed once per batch, not
# once per file): about 40 % less compile time (docs/ci.md).
step "release build" build "$release" -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=ON
step "unit tests (release)" unit_tests "$release" -E '^python:'
step "python package (pytest)" unit_tests "$release" -R '^python:' --no-tests=error
step "python package (pip install line)" python_install_line
step "python package (example notebook)" python_notebook
# clang, -O1 and line tables only: a third of the compile time of g++ -O2 -g
# with per-file compilation (docs/ci.md), and ASan reports still name file and
# line. The same build holds the libFuzzer harnesses (AI8XSIM_FUZZ), whose
# regression inputs run among its unit tests. Only what the sanitizer steps
# run is built (not the bench or the register-map writer).
step "sanitizer build" build "$sanitize" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAI8XSIM_SANITIZE=ON -DAI8XSIM_PYTHON=OFF \
  -DAI8XSIM_FUZZ=ON -DCMAKE_UNITY_BUILD=ON -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" \
  -- ai8xsim ai8xsim-conformance ai8xsim-sweep ai8xsim-layer-diff \
  unit_tests_tlm unit_tests_model unit_tests_firmware unit_tests_app unit_tests_conformance fuzz
# The firmware build test only runs the ARM cross-compiler; the release step ran it.
step "unit tests (ASan+UBSan)" unit_tests "$sanitize" -E "golden vector builds"
# Same run JSON (minus wall-clock fields), layer dumps and traces from both builds.
step "determinism (release vs ASan+UBSan build)" \
  "$repo/scripts/check-determinism.sh" "$release/ai8xsim" "$sanitize/ai8xsim" "$vectors"
# The layer engine's thread pool and its tests under ThreadSanitizer (a
# build of those few files only, build/tsan-pool; `run --threads`).
step "thread pool (ThreadSanitizer)" "$repo/scripts/check-thread-pool-tsan.sh" "$repo/build/tsan-pool"
# Every parser of outside input, 60 CPU seconds each, all at once on both
# cores (docs/fuzzing.md); the harnesses were built with the sanitizer build.
step "fuzzing (60 s per harness)" "$repo/scripts/fuzz.sh" 60 "$sanitize" "$release/ai8xsim"
# --budget bounds the whole run: vectors not started in time count as failed.
expected="$repo/testbench/conformance/expected_failures.txt"
# Every convolution of the conformance runs is also computed by the plain path
# and every SIMD target the machine runs; a difference fails the vector
# (model/engine/dot_kernel.h, docs/determinism.md).
export AI8XSIM_DOT_KERNEL=check
step "conformance (release, all vectors)" conformance_release
step "conformance (release, generator-options vectors)" conformance_options

# The second device's vectors, with their own list of known failures (docs/max78002.md).
step "conformance (release, MAX78002 vectors)" \
  conformance "$release" "$vectors-max78002" -j2 --timeout 300 --budget 15 \
  --expected-failures "$repo/testbench/conformance/expected_failures_max78002.txt"
step "conformance (release, MAX78002 generator-options vectors)" \
  conformance "$release" "$vectors-max78002-options" -j2 --timeout 300 --budget 15 \
  --expected-failures "$repo/testbench/conformance/expected_failures_max78002_options.txt"

# The vendor's RTL-simulation folders (docs/rtl-flow.md): each run's dumps go to its work folder,
# where the folder's own verify-output.py checks them; with their own list of known failures.
step "conformance (release, RTL-simulation folders)" conformance_rtl

# The silicon anchors (docs/silicon-anchors.md): the firmware's stopwatch on
# the simulator against public board measurements, from simulated cycles only,
# so deterministic; an anchor outside its tolerance (or not run) fails the step.
step "silicon anchors (release)" silicon_anchors

step "conformance (ASan+UBSan, sample)" \
  conformance "$sanitize" "$vectors" -j2 --timeout 900 --budget 15 --filter "$sanitizer_sample" \
  --expected-failures "$expected"

echo
echo "=== summary"
printf '%s\n' "${results[@]}"
report_missing_folders
# Last line: the golden-vector count of the release conformance run.
if [ -f "$release/conformance-rtl.txt" ]; then
  echo "conformance (RTL folders): $(tail -n 1 "$release/conformance-rtl.txt")"
fi
if [ -f "$release/conformance-options.txt" ]; then
  echo "conformance (options): $(tail -n 1 "$release/conformance-options.txt")"
fi
if [ -f "$release/conformance.txt" ]; then
  grep '^timing: ' "$release/conformance.txt"
  echo "conformance: $(tail -n 1 "$release/conformance.txt")"
fi
exit $failed
