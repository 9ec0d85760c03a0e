#!/usr/bin/env bash
# The 80-line rule (docs/ci.md): no function of the product's C++ code in
# app/, model/, tlm/ and firmware/host/ (tests live elsewhere) is longer than
# MAX lines, from the line of its name to its closing brace. Universal Ctags
# finds every function definition with its end line; a lambda counts towards
# the function that holds it. Lists each offender as FILE:LINE, its length and
# its name, longest first; exits 1 if there is any.
#
# Usage: scripts/check-function-length.sh [--max N] [FOLDER...]
set -euo pipefail

max=80
if [[ ${1:-} == --max ]]; then
    max=$2
    shift 2
fi
cd "$(dirname "$0")/.."
folders=("$@")
[[ ${#folders[@]} -gt 0 ]] || folders=(app model tlm firmware/host)

if ! command -v ctags >/dev/null || ! ctags --version 2>/dev/null | grep -q "Universal Ctags"; then
    echo "check-function-length: Universal Ctags is needed (apt-get install universal-ctags)" >&2
    exit 2
fi

mapfile -t sources < <(find "${folders[@]}" -type f \( -name '*.cpp' -o -name '*.h' \) | sort)
offenders=$(ctags -x --_xformat='%{input}:%{line} %{end} %{scope}::%{name}' --languages=C++ --kinds-C++=f \
                  --fields=+ne -o - "${sources[@]}" |
            awk -v max="$max" '{ length_ = $2 - substr($1, index($1, ":") + 1) + 1;
                                 sub(/^__anon[0-9a-f]*::/, "", $3); gsub(/::__anon[0-9a-f]*/, "", $3);
                                 if (length_ > max) printf "%s %d lines %s\n", $1, length_, $3 }' |
            sort -k2,2nr -k1,1)
if [[ -n $offenders ]]; then
    echo "$offenders"
    echo "check-function-length: $(wc -l <<<"$offenders") function(s) longer than $max lines" >&2
    exit 1
fi
echo "check-function-length: no function in ${folders[*]} is longer than $max lines"
