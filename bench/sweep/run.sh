#!/usr/bin/env bash
# What parallel points buy: a 20-point sweep (bench/sweep/bench.yaml: the
# 48-warp benchmark kernel, lat.global x 10 values x sched.policy x 2) run
# with --workers 1 and --workers 2, side by side, each into a fresh
# directory, PAIRS times in turn. Prints each run's wall-clock time, the
# medians and their ratio. The issue's target: 2 workers take at most 0.6x
# the time of 1; the script exits 1 when it is missed.
#
# Usage: bench/sweep/run.sh [pairs]   (default 3)
set -euo pipefail
cd "$(dirname "$0")/../.."
. bench/lib.sh
pairs="${1:-3}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/smsim" ./cmd/smsim
timed() { # workers, out dir: prints seconds
  local s e
  s=$(date +%s.%N)
  "$tmp/smsim" sweep bench/sweep/bench.yaml -o "$2" --workers "$1" 2>/dev/null
  e=$(date +%s.%N)
  awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f\n", e - s }'
}
: >"$tmp/w1"; : >"$tmp/w2"
for i in $(seq "$pairs"); do
  a=$(timed 1 "$tmp/out1-$i")
  b=$(timed 2 "$tmp/out2-$i")
  echo "pair $i: 1 worker ${a} s, 2 workers ${b} s" >&2
  echo "$a" >>"$tmp/w1"; echo "$b" >>"$tmp/w2"
done
m1=$(median <"$tmp/w1"); m2=$(median <"$tmp/w2")
ratio=$(awk -v a="$m1" -v b="$m2" 'BEGIN { printf "%.3f", b / a }')
n=$(($(wc -l <"$tmp/out1-1/results.csv") - 1))
printf 'sweep of %d points: 1 worker %s s, 2 workers %s s (median of %s pairs); ratio %s (target <= 0.6; %s cores, load %s)\n' \
  "$n" "$m1" "$m2" "$pairs" "$ratio" "$(nproc)" "$(load)"
if ! cmp -s "$tmp/out1-1/results.csv" "$tmp/out2-1/results.csv"; then
  echo "the two sweeps' results differ" >&2
  exit 1
fi
if awk -v r="$ratio" 'BEGIN { exit !(r > 0.6) }'; then
  echo "target missed: 2 workers take ${ratio}x the time of 1 (at most 0.6x)" >&2
  exit 1
fi
