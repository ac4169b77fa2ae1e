#!/usr/bin/env bash
# Cosimulation throughput per unit and parameter set, in cycles/s: the Go
# unit alone, the Verilated unit alone (harness --replay) and the two in
# lockstep through the socket (batched, every output and register compared
# every cycle), all in the same run, with lockstep as a share of the slower
# side, checked against the target (lockstep at 25% or more of the slower
# side's standalone speed): exit 1 if a unit misses it. The first run
# builds the harnesses (make -C verilog).
# Usage: bench/cosim/run.sh [cycles]   (default 1000000)
set -euo pipefail
cd "$(dirname "$0")/../.."
cycles="${1:-1000000}"
out="$(go test -run '^$' -bench '^BenchmarkCosim$' -benchtime "${cycles}x" -count 1 ./bench/cosim)"
echo "$out" | grep -E '^Benchmark' >&2
echo "$out" | awk -v cycles="$cycles" -v load="$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo ?)" '
  /^BenchmarkCosim\// {
    n = split($1, p, "/"); way = p[n]; sub(/-[0-9]+$/, "", way)
    key = p[2] " " p[3]
    for (i = 1; i < NF; i++) if ($(i+1) == "cycles/s") rate[key, way] = $i
    if (!(key in seen)) { seen[key] = 1; order[++k] = key }
  }
  END {
    printf "cosim throughput, %d cycles each, load %s (cycles/s)\n", cycles, load
    printf "%-50s %12s %12s %12s %10s\n", "unit parameters", "go", "rtl", "lockstep", "lockstep/slower"
    for (i = 1; i <= k; i++) {
      key = order[i]; g = rate[key, "go"]; r = rate[key, "rtl"]; l = rate[key, "lockstep"]
      slow = (g < r) ? g : r
      share = (slow > 0) ? 100 * l / slow : 0
      mark = (share < 25) ? "  below the 25% target" : ""
      if (share < 25) missed++
      printf "%-50s %12.0f %12.0f %12.0f %9.0f%%%s\n", key, g, r, l, share, mark
    }
    if (k == 0) { print "no benchmark results" > "/dev/stderr"; exit 1 }
    if (missed) { printf "%d of %d parameter sets below the target\n", missed, k; exit 1 }
    printf "target met: lockstep at 25%% or more of the slower side for all %d parameter sets\n", k
  }'
