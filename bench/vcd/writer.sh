#!/usr/bin/env bash
# Measures the VCD Writer's throughput (BenchmarkWriter in ./vcd: 200
# signals, 50 1-bit, 100 32-bit, 50 8-bit, ~30% changing per time step) on
# one core and prints it in MB/s of VCD text written.
#
# Two figures: wall-clock MB/s (what `go test -bench` prints) and cpu-MB/s
# (bytes per second of process CPU time), the median of the runs each. On
# a quiet machine they agree; on a loaded one the wall-clock figure drops
# and the CPU-time figure is the one to trust.
# Usage: bench/vcd/writer.sh [benchtime] [count]   (default 2s 5)
set -euo pipefail
cd "$(dirname "$0")/../.."
. bench/lib.sh
benchtime="${1:-2s}"
count="${2:-5}"
run_bench BenchmarkWriter vcd "$benchtime" "$count"
wall="$(bench_field MB/s | median)" || { echo "writer.sh: no BenchmarkWriter result" >&2; exit 1; }
cpu="$(bench_field cpu-MB/s | median)" || cpu="n/a"
echo "vcd writer: ${wall} MB/s wall-clock, ${cpu} MB/s per CPU-second (median of ${count} runs, GOMAXPROCS=1, load $(load))"
