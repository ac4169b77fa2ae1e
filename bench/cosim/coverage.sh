#!/usr/bin/env bash
# Coverage of the SM RTL's stage modules (issue 15 item 5, docs/sm-rtl.md
# section 10) under the examples plus random programs, at the small
# preset under lrr, gto and two_level, all merged into one directory:
# per policy `smsim cosim --sm --examples --coverage DIR` and
# `smsim cosim --sm --random N --seed S --coverage DIR`. Prints the
# per-file table; DIR/summary.md lists every line point never hit and
# DIR/annotated/ holds verilator_coverage's annotated sources. The first
# run of each policy builds its coverage bench (make -C verilog sm-cov).
# Exit 1 if a run mismatches.
# Usage: bench/cosim/coverage.sh [DIR] [N] [SEED]   (defaults out/sm-coverage, 300, 1)
set -euo pipefail
cd "$(dirname "$0")/../.."
dir="${1:-out/sm-coverage}"
n="${2:-300}"
seed="${3:-1}"
rm -rf "$dir"
go build -o bin/smsim ./cmd/smsim
for pol in lrr gto two_level; do
  echo "== $pol: examples" >&2
  bin/smsim cosim --sm --examples --preset small --set sched.policy="$pol" --coverage "$dir" --quiet
  echo "== $pol: $n random programs (seed $seed)" >&2
  bin/smsim cosim --sm --random "$n" --seed "$seed" --preset small --set sched.policy="$pol" --coverage "$dir" --quiet
done
sed -n '/^| file/,/^| all/p' "$dir/summary.md"
echo "lines never run: $dir/summary.md; annotated sources: $dir/annotated/"
