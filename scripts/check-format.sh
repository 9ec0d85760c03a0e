#!/usr/bin/env bash
# Fails when a C++ source of the project differs from what clang-format
# (.clang-format at the top) makes of it. With --fix, formats them instead.
# Firmware sources that mimic the vendor SDK or run on the target keep their
# own layout (their folders carry a .clang-format with DisableFormat).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
mapfile -t files < <(git ls-files '*.cpp' '*.h' | grep -v -e '^firmware/shim/' -e '^firmware/examples/' -e '^firmware/startup/')
if [ "${1:-}" = "--fix" ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
clang-format --dry-run --Werror "${files[@]}"
echo "check-format: ${#files[@]} files formatted as .clang-format says"
