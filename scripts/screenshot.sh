#!/usr/bin/env bash
# Regenerates docs/img/waveform.png, the README's waveform picture: the
# examples kernel trap_divergent (a warp whose lanes diverge on a key, one
# lane traps) runs on the small preset with the SM tracer, over cycles
# 36..62 (the divergence, the trap and the end of the run); GTKWave opens
# the VCD with the save file written beside it, under a virtual X server,
# and ImageMagick's `import` takes the screenshot.
#
# Needs xvfb-run and gtkwave (scripts/deps.sh installs them) and ImageMagick
# (apt-get install imagemagick x11-apps). Usage: scripts/screenshot.sh [out.png]
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-docs/img/waveform.png}"
example="${EXAMPLE:-trap_divergent}"
window="${WINDOW:-36:62}"

if ! command -v xvfb-run >/dev/null 2>&1 || ! command -v gtkwave >/dev/null 2>&1; then
  bash scripts/deps.sh
fi
if ! command -v import >/dev/null 2>&1; then
  echo "screenshot: ImageMagick's import is missing: apt-get install imagemagick x11-apps" >&2
  exit 1
fi

tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
go run ./trace/internal/tracerun -example "$example" -preset small -window "$window" -o "$tmp/waveform.vcd"

# Inside the virtual display: start GTKWave, wait until its window is up
# and drawn, grab the screen.
cat >"$tmp/shot.sh" <<'INNER'
set -eu
cd "$3"
gtkwave "$1" "$2" >gtkwave.log 2>&1 &
pid=$!
for _ in $(seq 1 40); do
  if command -v xwininfo >/dev/null 2>&1 && xwininfo -root -tree 2>/dev/null | grep -q 'GTKWave'; then
    break
  fi
  sleep 0.5
done
sleep 3
import -window root "$4"
kill "$pid" 2>/dev/null || true
INNER
xvfb-run -a -s "-screen 0 1600x1000x24" bash "$tmp/shot.sh" waveform.vcd waveform.gtkw "$tmp" "$tmp/shot.png"
mkdir -p "$(dirname "$out")"
# Drop the bottom of the screen (closed groups below the timers).
convert "$tmp/shot.png" -crop 1600x862+0+0 +repage -strip "$out"
echo "wrote $out"
