#!/usr/bin/env bash
# ctest embed:installed_package — installs the build tree into a temporary
# prefix, builds the outside project next to this script against it with
# find_package(ai8xsim), runs it and expects "embed: PASS".
# Usage: run_embed_test.sh BUILD_DIR [CMAKE [CXX_COMPILER [COMPILER_LAUNCHER]]]
set -euo pipefail

build_dir="${1:?usage: run_embed_test.sh BUILD_DIR [CMAKE [CXX_COMPILER [LAUNCHER]]]}"
cmake="${2:-cmake}"
cxx="${3:-}"
launcher="${4:-}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

work="$(mktemp -d "${TMPDIR:-/tmp}/ai8xsim-embed.XXXXXX")"
trap 'rm -rf "$work"' EXIT

"$cmake" --install "$build_dir" --prefix "$work/prefix" >"$work/install.log" || {
  cat "$work/install.log"; exit 1; }

configure=(-S "$here" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix")
[[ -n "$cxx" ]] && configure+=(-DCMAKE_CXX_COMPILER="$cxx")
[[ -n "$launcher" ]] && configure+=(-DCMAKE_CXX_COMPILER_LAUNCHER="$launcher")
"$cmake" "${configure[@]}" >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; exit 1; }
"$cmake" --build "$work/build" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }

# The installed package must stand on its own, never point back into this tree.
source_dir="$(cd "$here/../.." && pwd)"
if grep -rlF "$source_dir" "$work/prefix/lib"*/cmake; then
  echo "run_embed_test.sh: the installed CMake package names the source tree $source_dir" >&2
  exit 1
fi

output="$(SC_COPYRIGHT_MESSAGE=DISABLE "$work/build/embed_check")"
echo "$output"
grep -qx "embed: PASS" <<<"$output"
