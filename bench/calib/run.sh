#!/usr/bin/env bash
# Calibration suite (issue 19, docs/calibration.md): builds smsim, runs the
# microbenchmarks of bench/calib, and prints per measurement where the
# model's figure comes from, the figure, the published figure, the band
# (±20% latency, ±25% bandwidth/throughput, exact counts) and PASS/FAIL.
#
#   source sm:     the kernel run by `smsim run` on the whole SM model
#   source memsys: the kernel's access pattern driven into memsys.Port alone
#   source pipe:   the kernel's issue pattern driven into pipethrottle alone
#
# At the h100 preset (mem.model hier, pipe.throttle true) every line is
# within its band; --set mem.model=flat,pipe.throttle=false shows the flat
# model's sm lines, most of which fail.
#
# Usage: bench/calib/run.sh [--preset NAME] [--only sm,memsys,pipe] [--strict]
#   --strict: exit 1 when a line fails.
# Regenerate the PTX after editing a .cu (clang-16):
#   bench/calib/run.sh --regen
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "${1:-}" = "--regen" ]; then
  for cu in bench/calib/*.cu; do
    clang-16 --cuda-device-only --cuda-gpu-arch=sm_90 -nocudainc -nocudalib \
      -S -O2 -x cuda "$cu" -o "${cu%.cu}.ptx"
  done
  exit 0
fi
mkdir -p bin
go build -o bin/smsim ./cmd/smsim
go run ./bench/calib/measure --smsim bin/smsim --dir bench/calib "$@"
