#!/usr/bin/env bash
# Installs what the build and the tests need, only when missing: Verilator,
# GTKWave's command-line tools (vcd2fst), clang-16 (CUDA C -> PTX), Yosys,
# Slurm and munge, Chromium.
# Quiet and quick when everything is already there.
set -euo pipefail
need=()
command -v verilator >/dev/null 2>&1 || need+=(verilator)
command -v vcd2fst   >/dev/null 2>&1 || need+=(gtkwave)
command -v clang-16  >/dev/null 2>&1 || need+=(clang-16)
command -v yosys     >/dev/null 2>&1 || need+=(yosys)
command -v xvfb-run  >/dev/null 2>&1 || need+=(xvfb)
# smsim sweep's tests: a single-node Slurm (munged, slurmctld, slurmd) and
# headless Chromium for report.html.
[ -x /usr/sbin/slurmctld ] && [ -x /usr/sbin/slurmd ] && command -v sbatch >/dev/null 2>&1 || need+=(slurm-wlm)
[ -x /usr/sbin/munged ]    || need+=(munge)
[ -x /usr/bin/chromium ]   || need+=(chromium)
if [ ${#need[@]} -gt 0 ]; then
  echo "deps: installing ${need[*]}" >&2
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq >/dev/null
  $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
go mod download
# staticcheck (for make test), pinned by its module version: release
# 2026.2.2 is module version v0.8.2 (the proxy knows only the latter).
# Outside CI a machine without the module proxy goes without it; in CI
# make test fails when it is missing.
sc="$(go env GOPATH)/bin/staticcheck"
if ! { [ -x "$sc" ] && "$sc" -version 2>/dev/null | grep -q '(0\.8\.2)'; }; then
  go install honnef.co/go/tools/cmd/staticcheck@v0.8.2 >/dev/null 2>&1 \
    || echo "deps: staticcheck did not install" >&2
fi
