// Package trapunit is the SM trap unit (seed 002: BPT.DRAIN/PAUSE/
// PAUSE_QUIET/TRAP/INT, IDE.EN/DIS, RTT, the per-warp and global error
// status registers, the trap handler and the CPU's wake-up), a two-phase
// unit (package rtl) mirroring the Verilog module trap_unit. It also
// carries PTX trap and brkpt (seed 000) and the warp errors the pipeline
// detects.
//
// Every cycle the SM drives the live and launched warps, each warp's next
// PC, up to NumPorts events (ev_valid_i/ev_warp_i/ev_kind_i/ev_arg_i/
// ev_pc_next_i, processed in port order) and one host command. Eval
// computes the pulses of the cycle (enter_handler_o: redirect these warps
// to the handler; resume_o: send these warps back to resume_pc_o;
// host_ack_o/host_err_o) and the registered state the SM obeys next cycle
// (sm_trapped_o: hold launches; warp_paused_o: do not issue; the ESRs for
// S2R; irq_o/irq_cause_o for the host). docs/trap-unit.md gives the ports,
// the ESR layouts, the cycle behaviour, the host protocol, the seed
// sentence behind each rule and the integration contract.
//
// In short: an unmasked BPT.TRAP, a warp error, PTX trap or brkpt traps
// the SM and takes every live warp into the handler (saved PC: the
// instruction after the trapping one for the trapping warp, warp_pc_i for
// the others); BPT.PAUSE(_QUIET) stops a warp in the handler; the host
// may WAKE (continue in the handler) or RESUME (leave the handler at the
// saved PCs) only when every live warp is paused and the SM is trapped;
// all warps paused quietly return to user mode on their own; RTT returns
// one warp; IDE.DIS holds BPT.TRAP 1..6 pending until IDE.EN (7 is never
// held); BPT.INT interrupts the host without trapping. Without a trap
// handler (Params.HasHandler false) a trapped warp is stopped at once
// and the host decides: Host is a plain-Go host agent implementing the
// abort/resume policies of smsim run --on-trap and --on-break.
//
// Not modelled: the pipeline's side (draining for BPT.DRAIN, squashing,
// redirecting, freezing: the SM does it from these outputs), the memory
// system's late (L1) errors beyond accepting them whenever they arrive,
// several SMs, the PRI register interface of a real GPU (the host
// commands stand for its register pokes), and the trap handler code.
package trapunit
