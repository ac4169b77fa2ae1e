// Package clocktimer is the SM's clock and timer unit, a two-phase unit
// (package rtl) mirroring the Verilog module clock_timer (instance
// sm_top.u_clock_timer). It models:
//
//   - the 64-bit SM cycle counter cycle_q, clock.start at reset, read as
//     %clock (clock_o, low 32 bits, wraps silently), %clock_hi
//     (clock_hi_o) and %clock64 (clock64_o) (seed 003);
//   - the global nanosecond timer gtimer_q: after N cycles it holds exactly
//     floor(timer.start_ns + N*1000/clock.mhz), kept without floating point
//     or division by a remainder accumulator (gtimer_frac_q); %globaltimer
//     (globaltimer_o, _lo_o, _hi_o) is that value rounded down to a multiple
//     of timer.resolution_ns, so it advances in steps (seed 003 calls the
//     behaviour target-specific; 32 ns is the default, see config.Timer);
//   - per-warp nanosleep: sleep_valid_i/sleep_warp_i/sleep_ns_i (one port
//     per scheduler) start a warp's sleep of floor(ns*MHz/1000) cycles
//     (ns capped at 1 ms); sleeping_o holds the warp's bit during those
//     cycles, starting the cycle after the request.
//
// SleepDuration, a plain function outside the unit, chooses the duration
// of a warp-level nanosleep from its lanes' t operands (sleep.mode exact or
// uniform, run.seed through NewRNG): one duration per warp, derived from
// the smallest t, so every lane stays within its [0, 2t] and all wake
// together (seed 000).
//
// Advance skips n idle cycles at once (same result as stepping), and
// NextWake says when the next sleeping warp wakes, for the SM's
// fast-forward.
//
// Not modelled: clock gating or frequency changes (one fixed clock.mhz), a
// timer shared between SMs or driven by a separate clock domain, waking a
// warp early (nothing cancels a sleep), more than MaxWarps (64) warp slots.
// docs/clock-timer.md has the ports, timing and integration contract.
package clocktimer
