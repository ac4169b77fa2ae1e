#!/usr/bin/env bash
# SM model speed and memory on one core, tracing off:
#  1. BenchmarkIntLoop (./pipeline): the examples package's 48-warp integer
#     loop kernel; prints simulated warp-instructions/s and cycles/s.
#  2. A run of the same kernel long enough for >= 10 M cycles through the
#     CLI, with the peak resident set size (GNU time or /proc polling).
# Usage: bench/sm/run.sh [benchtime] [count]   (default 3x 5)
set -euo pipefail
cd "$(dirname "$0")/../.."
. bench/lib.sh
benchtime="${1:-3x}"
count="${2:-5}"
run_bench BenchmarkIntLoop pipeline "$benchtime" "$count" -benchmem
wips="$(bench_field warp-instr/s | median)"
cps="$(bench_field cycles/s | median)"
printf 'sm model: %.0f warp-instructions/s, %.0f cycles/s (median of %s runs, GOMAXPROCS=1, load %s)\n' "$wips" "$cps" "$count" "$(load)"

# Memory over a long run: the same kernel with enough iterations for 10 M cycles.
go build -o bin/smsim ./cmd/smsim
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
go run ./bench/sm/longrun -o "$tmp/args" >/dev/null
# shellcheck disable=SC2046
GOMAXPROCS=1 bin/smsim run $(cat "$tmp/args") --json >"$tmp/out.json" &
pid=$!
peak=0
while kill -0 "$pid" 2>/dev/null; do
  rss=$(awk '/VmRSS/ { print $2 }' /proc/$pid/status 2>/dev/null || echo 0)
  [ "${rss:-0}" -gt "$peak" ] && peak=$rss
  sleep 0.2
done
wait "$pid" || true
cycles=$(grep -o '"cycles":[0-9]*' "$tmp/out.json" | head -1 | cut -d: -f2)
printf 'long run: %s cycles, peak RSS %.1f MB\n' "$cycles" "$(echo "$peak / 1024" | bc -l)"
