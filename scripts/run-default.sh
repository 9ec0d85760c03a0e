#!/usr/bin/env bash
# Installs what is missing, builds ai8xsim (Release) and runs the bundled
# example network. Extra arguments are passed to ai8xsim.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$repo/build/release"

"$repo/scripts/setup.sh"
source "$repo/scripts/cmake-generator.sh"
cmake_generator "$build"
cmake -S "$repo" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j"$(nproc)" --target ai8xsim
# The SystemC library prints its banner before ai8xsim starts; keep it out.
export SC_COPYRIGHT_MESSAGE="${SC_COPYRIGHT_MESSAGE:-DISABLE}"
exec "$build/ai8xsim" "$@"
