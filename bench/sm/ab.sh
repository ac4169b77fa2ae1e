#!/usr/bin/env bash
# A/B of the SM model's speed: the smsim binary built at BASE against the
# one built from the working tree, on the examples package's 48-warp
# integer loop (bench_intloop) at the h100 preset, tracing off.
#
#  1. Wall clock, side by side: RUNS alternations (at least 9) of
#     `smsim run bench_intloop --json` at ITERS loop iterations per thread,
#     GOMAXPROCS=1; warp-instructions/s of each run from the report's
#     warp_instructions and the run's wall time; the medians and their
#     ratio (new / base).
#  2. A load-independent count: valgrind --tool=callgrind instructions per
#     simulated warp-instruction, the marginal between a short and a long
#     run (so start-up and assembly cancel out), for both binaries.
#
# Usage: bench/sm/ab.sh [BASE] [RUNS] [ITERS] [NEWFLAGS]
#   BASE  default 595455a (the commit issue 14 started from)
#   RUNS  default 9; ITERS default 4000
#   NEWFLAGS  run flags for the working tree's binary only, e.g.
#         "--set mem.model=flat --set pipe.throttle=false" to time it with
#         the timing model a BASE from before those keys has (the h100
#         preset's memory system and pipe throttle; BASE rejects the keys)
# Prints one line per measurement and a summary; exit 0.
set -euo pipefail
cd "$(dirname "$0")/../.."
base="${1:-595455a}"
runs="${2:-9}"
iters="${3:-4000}"
read -r -a newflags <<<"${4:-}"
tmp="$(mktemp -d)"
trap 'git worktree remove --force "$tmp/base" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT

git worktree add --detach "$tmp/base" "$base" >/dev/null 2>&1
(cd "$tmp/base" && go build -o "$tmp/smsim-base" ./cmd/smsim)
go build -o "$tmp/smsim-new" ./cmd/smsim

# The launch, from the examples package (bench/sm/longrun writes it).
go run ./bench/sm/longrun -o "$tmp/args" -iters "$iters" >/dev/null
read -r -a args <"$tmp/args" || true # no newline at the end

winsts() { grep -o '"warp_instructions":[0-9]*' "$1" | head -1 | cut -d: -f2; }

flags_of() { # which -> the extra flags of that binary
  if [ "$1" = new ]; then echo "${newflags[@]}"; fi
}

run_once() { # BIN OUT [FLAGS...] -> prints warp-instr/s
  local t0 t1 n b o
  b=$1 o=$2
  shift 2
  t0=$(date +%s.%N)
  GOMAXPROCS=1 "$b" run "${args[@]}" "$@" --json >"$o"
  t1=$(date +%s.%N)
  n=$(winsts "$o")
  echo "$n $t0 $t1" | awk '{ printf "%.0f\n", $1 / ($3 - $2) }'
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

: >"$tmp/base.rates"
: >"$tmp/new.rates"
for i in $(seq 1 "$runs"); do
  # Alternate the order so that neither binary always runs first.
  if [ $((i % 2)) -eq 1 ]; then order="base new"; else order="new base"; fi
  for which in $order; do
    read -r -a extra <<<"$(flags_of "$which")"
    r=$(run_once "$tmp/smsim-$which" "$tmp/$which.json" "${extra[@]}")
    echo "$r" >>"$tmp/$which.rates"
    echo "run $i $which: $r warp-instructions/s" >&2
  done
done
bufs() { python3 -c 'import json, sys; print(json.dumps(json.load(open(sys.argv[1]))["buffers"], sort_keys=True))' "$1"; }
cmp -s <(bufs "$tmp/base.json") <(bufs "$tmp/new.json") \
  || echo "warning: the two binaries' output buffers differ" >&2
mb=$(median <"$tmp/base.rates")
mn=$(median <"$tmp/new.rates")
printf 'wall: base %s %.0f, new%s %.0f warp-instructions/s (medians of %d, GOMAXPROCS=1, %d iterations, load %s): ratio %.2f\n' \
  "$base" "$mb" "${4:+ ($4)}" "$mn" "$runs" "$iters" "$(cut -d' ' -f1 /proc/loadavg)" "$(echo "$mn / $mb" | bc -l)"

# Callgrind: the marginal instructions per warp-instruction between a
# short and a long run.
if command -v valgrind >/dev/null 2>&1; then
  short=$((iters / 20 + 50))
  long=$((iters / 4 + 250))
  go run ./bench/sm/longrun -o "$tmp/args-s" -iters "$short" >/dev/null
  go run ./bench/sm/longrun -o "$tmp/args-l" -iters "$long" >/dev/null
  ir() { # BIN ARGSFILE [FLAGS...] -> "Ir warp_instructions"
    local a b f
    b=$1 f=$2
    shift 2
    read -r -a a <"$f" || true
    # valgrind 3.19 does not know RDTSCP, which the Go runtime executes
    # when it times a contended runtime lock (rarely, under valgrind's one
    # thread): such a run dies of SIGILL and is repeated.
    for _ in $(seq 1 20); do
      if GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$b" run "${a[@]}" "$@" --json >"$tmp/cg.json" 2>"$tmp/cg.err"; then
        break
      fi
    done
    echo "$(grep -o 'Collected : [0-9]*' "$tmp/cg.err" | awk '{ print $3 }') $(winsts "$tmp/cg.json")"
  }
  for which in base new; do
    read -r -a extra <<<"$(flags_of "$which")"
    read -r is ws <<<"$(ir "$tmp/smsim-$which" "$tmp/args-s" "${extra[@]}")"
    read -r il wl <<<"$(ir "$tmp/smsim-$which" "$tmp/args-l" "${extra[@]}")"
    per=$(echo "($il - $is) / ($wl - $ws)" | bc -l)
    printf 'callgrind %s: %.0f instructions per warp-instruction (marginal between %d and %d warp-instructions)\n' "$which" "$per" "$ws" "$wl"
    echo "$per" >"$tmp/$which.cg"
  done
  printf 'callgrind ratio base/new: %.2f\n' "$(echo "$(cat "$tmp/base.cg") / $(cat "$tmp/new.cg")" | bc -l)"
fi
