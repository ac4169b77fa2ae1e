#!/usr/bin/env bash
# Every benchmark of the project, side by side in one run (these machines
# are noisy: compare figures from the same run only).
set -euo pipefail
cd "$(dirname "$0")/.."
bench/sm/run.sh
bench/vcd/writer.sh
for s in bench/*/run.sh; do
  [ "$s" = bench/sm/run.sh ] && continue
  "$s"
done
