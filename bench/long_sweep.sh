#!/usr/bin/env bash
# Memory over a long sweep (issue #16, "long runs"): N consecutive runs of one
# vector in one ai8xsim-sweep, recording the sweep's resident memory every
# half second and each run's peak RSS (GNU time). Prints first/last samples
# and the means of the first and last 50 runs' peaks: flat means no growth.
# Usage: bench/long_sweep.sh [BUILD_DIR] [VECTOR_DIR] [N] [JOBS]
# A program, not a test: the numbers depend on the machine (README "Status").
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$repo/build/release}"
vector="${2:-$repo/../shared/vectors/demo-mnist-extrasmall}"
points="${3:-500}"
jobs="${4:-2}"
# A register the default vector never writes (the run warns override_unused),
# so every point is the same run. Another vector may need another: REGISTER=...
unused_register="${REGISTER:-0x5010004c}"

work="$(mktemp -d "${TMPDIR:-/tmp}/ai8xsim-long-sweep-XXXXXX")"
trap 'rm -rf "$work"' EXIT
cat >"$work/ai8xsim" <<WRAP
#!/bin/sh
exec /usr/bin/time -a -o "$work/child_rss.txt" -f "%M %x" "$build/ai8xsim" "\$@"
WRAP
chmod +x "$work/ai8xsim"
export SC_COPYRIGHT_MESSAGE=DISABLE

"$build/ai8xsim-sweep" "$vector" -o "$work/out.csv" --ai8xsim "$work/ai8xsim" \
  --grid "$unused_register=0:$((points - 1)):1" -j "$jobs" 2>"$work/sweep.log" &
sweep=$!
start=$SECONDS
# time, VmRSS, VmHWM (KiB), open fds, child processes
while [ -d "/proc/$sweep" ]; do
  awk -v t=$((SECONDS - start)) -v fds="$(ls "/proc/$sweep/fd" 2>/dev/null | wc -l)" \
    -v kids="$(cat /proc/$sweep/task/*/children 2>/dev/null | wc -w)" \
    '/^VmRSS/{r=$2} /^VmHWM/{h=$2} END{if (r) print t, r, h, fds, kids}' "/proc/$sweep/status" 2>/dev/null \
    >>"$work/samples.txt" || true
  sleep 0.5
done
wait $sweep
echo "points: $points in $((SECONDS - start)) s, -j $jobs, verdicts: $(tail -n +2 "$work/out.csv" | cut -d, -f2 | sort | uniq -c | xargs)"
echo "sweep (s, RSS KiB, peak KiB, fds, children) first: $(head -n 1 "$work/samples.txt")"
echo "sweep (s, RSS KiB, peak KiB, fds, children) last:  $(tail -n 1 "$work/samples.txt")"
echo "sweep RSS range KiB: $(awk 'NR==1{lo=hi=$2} {if($2<lo)lo=$2; if($2>hi)hi=$2} END{print lo" - "hi}' "$work/samples.txt")"
echo "sweep RSS KiB at each tenth of the run: $(awk '{r[NR]=$2} END{for(i=1;i<=10;i++) printf "%s ", r[int(NR*i/10)]}' "$work/samples.txt")"
awk '{print $1}' "$work/child_rss.txt" | sort -n | awk '{a[NR]=$1} END{print "runs peak RSS KiB: min " a[1] ", median " a[int((NR+1)/2)] ", max " a[NR]}'
awk '{a[NR]=$1} END{n=NR<50?NR:50; for(i=1;i<=n;i++){f+=a[i]; l+=a[NR-n+i]} printf "runs peak RSS KiB: mean of first %d %.0f, of last %d %.0f\n", n, f/n, n, l/n}' "$work/child_rss.txt"
