#!/usr/bin/env bash
# The SM lockstep's speed (docs/sm-rtl.md section 6), in cycles/s, in one
# run on one kernel (examples/bench_intloop.ptx, one CTA of 256 threads at
# the small preset, the launch of cosim's TestSMLockstep): the Go SM alone,
# the Verilated SM alone (records off; and writing its records into
# /dev/null), and the two in lockstep. Checks issue 15's targets, lockstep
# at 25% or more of the slower side's standalone speed and the Go SM at 2x
# or more the Verilated SM's; exit 1 if one is missed. The first run builds
# the bench (make -C verilog sm).
# Each way runs RUNS times; the table shows the best run of each (the one
# least disturbed by other load on the machine).
# Usage: bench/cosim/sm.sh [iterations] [runs]   (defaults 5000: 220,092 cycles; 3)
set -euo pipefail
cd "$(dirname "$0")/../.."
iters="${1:-5000}"
runs="${2:-3}"
out="$(SMSIM_SM_ITERS="$iters" go test -run '^$' -bench '^BenchmarkCosimSM$' -benchtime "${runs}x" -count 1 ./bench/cosim)"
echo "$out" | grep -E '^Benchmark' >&2
echo "$out" | awk -v load="$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo ?)" '
  /^BenchmarkCosimSM\// {
    n = split($1, p, "/"); way = p[n]; sub(/-[0-9]+$/, "", way)
    for (i = 1; i < NF; i++) {
      if ($(i+1) == "cycles/s") rate[way] = $i
      if ($(i+1) == "cpu-cycles/s") cpu[way] = $i
      if ($(i+1) == "cycles") cycles = $i
    }
  }
  END {
    if (!("lockstep" in rate)) { print "no benchmark results" > "/dev/stderr"; exit 1 }
    g = rate["go"]; r = rate["rtl"]; rr = rate["rtl-records"]; l = rate["lockstep"]
    printf "SM cosim speed, bench_intloop, %d cycles, load %s (cycles/s)\n", cycles, load
    printf "%12s %12s %12s %12s %16s %10s\n", "go", "rtl", "rtl+records", "lockstep", "lockstep/slower", "go/rtl"
    slow = (g < r) ? g : r
    share = 100 * l / slow
    printf "%12.0f %12.0f %12.0f %12.0f %15.0f%% %9.1fx\n", g, r, rr, l, share, g / r
    printf "the Verilated SM over its own CPU time: %.0f (records off), %.0f (records written)\n", cpu["rtl"], cpu["rtl-records"]
    missed = 0
    if (share < 25) { print "below the target: lockstep under 25% of the slower side"; missed = 1 }
    if (g < 2 * r) { print "below the target: the Go SM under 2x the Verilated SM"; missed = 1 }
    if (missed) exit 1
    print "targets met: lockstep at 25% or more of the slower side, the Go SM at 2x or more the Verilated SM"
  }'
