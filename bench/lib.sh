# Helpers the benchmark scripts share; source it: . bench/lib.sh (from
# the repository root).

# load prints the 1-minute load average.
load() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo ?; }

# median prints the median of the numbers on stdin, one per line (the
# mean of the middle two for an even count); it fails on no input.
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) exit 1; print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# bench_values BENCH UNIT prints, from the `go test -bench` output in
# $out, the values of UNIT (e.g. MB/s) in the lines of benchmark BENCH.
bench_values() { echo "$out" | awk -v name="$1" -v unit="$2" '$1 ~ "^" name { for (i = 1; i < NF; i++) if ($(i+1) == unit) print $i }'; }
