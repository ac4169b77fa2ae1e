// Package vcd writes, reads and compares Value Change Dump files, the
// four-state waveform format of IEEE 1364-2005 §18 that GTKWave and most
// HDL simulators use. The simulator dumps its signals with a Writer; tests
// and tools read dumps back with a Reader and compare two dumps (ours
// against Verilator's, or against a golden file) with Diff.
//
// # What it does
//
//   - Writer: declarations (nested $scope module/begin/fork/function/task,
//     $var wire/reg/integer/real/... of any width, with an optional
//     [msb:lsb] range, and GTKWave's "string" type), compact identifier
//     codes, an initial $dumpvars section holding every variable, and then
//     change-only output at strictly increasing times. Bit values are
//     written with VCD left-extension ("b101 !", "bx0 !", "1!"), reals with
//     the shortest exact representation, strings with escapes (see
//     Writer.SetString). Output is buffered; errors are sticky, as with
//     encoding/csv.Writer and bufio.Writer. The writer is built for speed
//     (no fmt on the hot path, no allocation per change): see
//     BenchmarkWriter and bench/vcd/writer.sh.
//   - Reader: a streaming parser (Header, Next, ReadAll) that resolves
//     scopes into full dotted names such as
//     "sm_top.u_warp_sched.g_warp[3].pc_q". In Strict mode it is a
//     validator for the subset of VCD this package writes plus what
//     common simulators emit; in non-strict mode it tolerates what
//     GTKWave tolerates. It never panics on any input (FuzzReader).
//   - Diff: compares two files signal by signal by hierarchical name and
//     reports the first differing time and signal and the number of
//     differences.
//
// # What it does not do
//
//   - Extended VCD (IEEE 1364 §18.3, port dumps), FST, LXT or compressed
//     input: the Reader reads plain VCD text only. Convert with GTKWave's
//     tools (vcd2fst, fst2vcd) where needed.
//   - $dumplimit, $dumpoff/$dumpon generation, $timezero, $attrbegin
//     attributes, event variables' trigger semantics, and GTKWave's nine
//     states (u, w, l, h, -) in the Writer. The non-strict Reader passes
//     nine-state characters through and skips attributes.
//   - Signed or negative values: SetBig takes non-negative integers only;
//     write two's complement with SetUint or SetBits.
//   - Validation by external tools: GTKWave's vcd2fst accepts malformed
//     files silently (unknown codes, decreasing times, bad widths are
//     dropped or guessed), so a vcd2fst exit status of 0 proves little.
//     Use a strict Reader to validate a file; the package's tests run
//     vcd2fst only to check that GTKWave loads what the Writer writes.
//
// # Conventions
//
// Identifier codes are printable ASCII 33–126, least significant digit
// first (IDCode). Before the first time stamp a variable is x (reals 0,
// strings empty) unless set; the first SetTime writes the time stamp and
// the $dumpvars section. A Reader's values are lower case and extended to
// the declared width.
package vcd
