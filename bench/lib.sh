# Helpers the benchmark scripts share; source it: . bench/lib.sh (from
# the repository root).

# load prints the 1-minute load average.
load() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo ?; }

# median prints the median of the numbers on stdin, one per line (the
# mean of the middle two for an even count); it fails on no input.
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) exit 1; print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# run_bench BENCH PKG BENCHTIME COUNT [FLAG...] runs one benchmark of the
# package ./PKG on one core (GOMAXPROCS=1), shows its result lines on
# stderr and keeps the output in $out (for bench_field).
run_bench() {
  bench="$1"
  out="$(GOMAXPROCS=1 go test -run '^$' -bench "^$1\$" -benchtime "$3" -count "$4" "${@:5}" "./$2")"
  echo "$out" | grep -E '^Benchmark' >&2
}

# bench_field UNIT prints the values of UNIT of the last run_bench.
bench_field() { bench_values "$bench" "$1"; }

# bench_values BENCH UNIT prints, from the `go test -bench` output in
# $out, the values of UNIT (e.g. MB/s) in the lines of benchmark BENCH.
bench_values() { echo "$out" | awk -v name="$1" -v unit="$2" '$1 ~ "^" name { for (i = 1; i < NF; i++) if ($(i+1) == unit) print $i }'; }
