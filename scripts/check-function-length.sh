#!/usr/bin/env bash
# The 80-line rule (docs/ci.md): no function of the product's C++ code in
# app/, model/, tlm/ and firmware/host/ (tests live elsewhere) is longer than
# MAX lines, from the line of its name to its closing brace. Universal Ctags
# finds every function definition with its end line; a lambda counts towards
# the function that holds it. Lists each offender as FILE:LINE, its length and
# its name, longest first; exits 1 if there is any.
#
# --known FILE lists functions that were longer before the check ran in CI
# (FILE NAME LINES per line, `#` comments): each may stay, at no more than its
# LINES, until it is split. A listed function that grew, or that is no longer
# over MAX (split, renamed or gone: delete its line), fails the check too, so
# the list only shrinks. The ctest `style:function-length` runs it with
# scripts/function-length-known.txt.
#
# Usage: scripts/check-function-length.sh [--max N] [--known FILE] [FOLDER...]
set -euo pipefail

max=80
known=/dev/null
while [[ ${1:-} == --max || ${1:-} == --known ]]; do
    [[ $1 == --max ]] && max=$2 || known=$(realpath "$2")
    shift 2
done
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
# Against the known list: unlisted offenders, listed ones grown, listed ones gone
# (only the entries under the folders checked count).
report=$(awk -v max="$max" -v known_file="$known" -v folders="${folders[*]}" '
    function checked(file,   n, d, i) {
        n = split(folders, d, " ")
        for (i = 1; i <= n; ++i) if (index(file, d[i] "/") == 1) return 1
        return 0 }
    BEGIN { while ((getline line < known_file) > 0) {
                sub(/#.*/, "", line)
                if (split(line, f) == 3 && checked(f[1])) { allowed[f[1] " " f[2]] = f[3]; listed[f[1] " " f[2]] = 1 } } }
    NF { file = $1; sub(/:[0-9]+$/, "", file); key = file " " $4
         if (!(key in allowed)) { print "new:   " $0; next }
         delete listed[key]
         if ($2 > allowed[key]) print "grown: " $0 " (listed at " allowed[key] ")"
         else known++ }
    END { for (key in listed) print "split: " key " is not over " max " lines (split, renamed or gone): delete its line from the known list"
          if (known) print "known: " known " listed function(s) still over " max " lines" > "/dev/stderr" }
    ' <<<"$offenders")
if [[ -n $report ]]; then
    echo "$report"
    echo "check-function-length: $(wc -l <<<"$report") problem(s) with functions longer than $max lines" >&2
    exit 1
fi
echo "check-function-length: no function in ${folders[*]} is longer than $max lines$([[ $known == /dev/null ]] || echo " but those listed in $known")"
