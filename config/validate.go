package config

import (
	"fmt"
	"reflect"
)

// Validate checks every key's own rule (range, enum, fixed value, syntax)
// and the rules between keys. It returns nil or an ErrorList with one error
// per broken rule, each naming the key to change.
func (c Config) Validate() error {
	var errs ErrorList
	bad := func(key, format string, args ...any) {
		errs = append(errs, &Error{Key: key, Msg: key + ": " + fmt.Sprintf(format, args...)})
	}
	root := reflect.ValueOf(&c).Elem()
	for _, k := range schema.leaves {
		f := schema.byKey[k]
		if msg := f.checkValue(f.value(root)); msg != "" {
			bad(k, "%s", msg)
		}
	}
	if len(errs) > 0 {
		return errs.Err() // the rules below assume sane single values
	}

	sm := c.SM
	if sm.MaxWarps%c.Sched.Count != 0 {
		bad("sched.count", "%d schedulers cannot share sm.max_warps=%d warps evenly; sm.max_warps must be a multiple of sched.count", c.Sched.Count, sm.MaxWarps)
	} else if per := sm.MaxWarps / c.Sched.Count; c.Sched.TwoLevelActive > per {
		bad("sched.two_level_active", "%d exceeds the %d warps of each scheduler (sm.max_warps / sched.count)", c.Sched.TwoLevelActive, per)
	}
	if sm.ID >= sm.Count {
		bad("sm.id", "%d is not below sm.count=%d (%%smid ranges over 0..%%nsmid-1)", sm.ID, sm.Count)
	}
	if sm.MaxCTAs > sm.MaxWarps {
		bad("sm.max_ctas", "%d exceeds sm.max_warps=%d (every resident CTA holds at least one warp)", sm.MaxCTAs, sm.MaxWarps)
	}
	if sm.MaxThreadsPerCTA > sm.MaxWarps*sm.WarpSize {
		bad("sm.max_threads_per_cta", "%d exceeds the %d threads of sm.max_warps=%d warps", sm.MaxThreadsPerCTA, sm.MaxWarps*sm.WarpSize, sm.MaxWarps)
	}

	// Registers.
	if sm.RegAllocUnit%sm.WarpSize != 0 {
		bad("sm.reg_alloc_unit", "%d is not a whole number of registers per thread (a multiple of %d)", sm.RegAllocUnit, sm.WarpSize)
	}
	if sm.Regfile%sm.RegAllocUnit != 0 {
		bad("sm.regfile", "%d is not a multiple of sm.reg_alloc_unit=%d", sm.Regfile, sm.RegAllocUnit)
	}
	g := c.RegPool.AllocGranularity
	if 8%g != 0 {
		bad("regpool.alloc_granularity", "%d does not divide 8, the step of setmaxnreg register counts", g)
	} else if (g*sm.WarpSize)%sm.RegAllocUnit != 0 {
		bad("regpool.alloc_granularity", "%d registers/thread (%d per warp) is not a whole number of sm.reg_alloc_unit=%d", g, g*sm.WarpSize, sm.RegAllocUnit)
	} else if need := roundUp(roundUp(sm.MaxRegsPerThread, g)*sm.WarpSize, sm.RegAllocUnit); need > sm.Regfile {
		bad("sm.max_regs_per_thread", "a warp of %d registers/thread needs %d registers; sm.regfile has %d", sm.MaxRegsPerThread, need, sm.Regfile)
	}

	// Shared memory.
	u := sm.SmemAllocUnit
	if u&(u-1) != 0 {
		bad("sm.smem_alloc_unit", "%d is not a power of two", u)
	} else {
		for _, kv := range []struct {
			key string
			v   int
		}{
			{"sm.smem_bytes", sm.SmemBytes},
			{"sm.reserved_smem_bytes", sm.ReservedSmemBytes},
			{"sm.max_smem_per_cta", sm.MaxSmemPerCTA},
		} {
			if kv.v%u != 0 {
				bad(kv.key, "%d is not a multiple of sm.smem_alloc_unit=%d", kv.v, u)
			}
		}
	}
	if sm.MaxSmemPerCTA+sm.ReservedSmemBytes > sm.SmemBytes {
		bad("sm.max_smem_per_cta", "%d plus sm.reserved_smem_bytes=%d exceeds sm.smem_bytes=%d", sm.MaxSmemPerCTA, sm.ReservedSmemBytes, sm.SmemBytes)
	}

	c.validateMem(bad)

	// Run control.
	if w, ms := c.Run.WatchdogCycles, uint64(c.Clock.MHz)*1000; w != 0 && w <= ms {
		bad("run.watchdog_cycles", "%d cycles is not longer than the longest nanosleep (1 ms = %d cycles at clock.mhz=%d); raise it or set 0", w, ms, c.Clock.MHz)
	}
	return errs.Err()
}

func roundUp(n, m int) int { return (n + m - 1) / m * m }

// validateMem checks the rules between the memory-system keys (l1, smem,
// l2, dram, const).
func (c Config) validateMem(bad func(key, format string, args ...any)) {
	l1 := c.L1
	if l1.SmemCarveoutBytes > l1.UnifiedBytes {
		bad("l1.smem_carveout_bytes", "%d exceeds l1.unified_bytes=%d", l1.SmemCarveoutBytes, l1.UnifiedBytes)
	} else if data, set := l1.UnifiedBytes-l1.SmemCarveoutBytes, l1.LineBytes*l1.Sets; data < set || data%set != 0 {
		bad("l1.smem_carveout_bytes", "leaves %d bytes of L1 data cache, not a positive multiple of l1.sets=%d lines of %d bytes (%d)", data, l1.Sets, l1.LineBytes, set)
	}
	if list, err := ParseKiBs(l1.SmemCarveouts); err == nil {
		set := l1.LineBytes * l1.Sets
		for _, cv := range list {
			if data := l1.UnifiedBytes - cv; data < set || data%set != 0 {
				bad("l1.smem_carveouts", "%d KiB leaves %d bytes of L1 data cache, not a positive multiple of l1.sets=%d lines of %d bytes (%d)", cv/1024, data, l1.Sets, l1.LineBytes, set)
				break
			}
		}
		if n := len(list); n > 0 && l1.SmemCarveoutBytes > list[n-1] {
			bad("l1.smem_carveout_bytes", "%d exceeds the largest of l1.smem_carveouts (%d KiB)", l1.SmemCarveoutBytes, list[n-1]/1024)
		}
	}
	if b := c.Smem.Banks; b&(b-1) != 0 {
		bad("smem.banks", "%d is not a power of two", b)
	}
	if b := c.Smem.BankBytes; b != 4 && b != 8 {
		bad("smem.bank_bytes", "%d is not 4 or 8", b)
	}
	l2 := c.L2
	if l2.CapacitySMs > c.SM.Count {
		bad("l2.capacity_sms", "%d exceeds sm.count=%d", l2.CapacitySMs, c.SM.Count)
	} else if slice := l2.Bytes / uint64(l2.CapacitySMs); slice < uint64(l1.LineBytes*l2.Assoc) {
		bad("l2.capacity_sms", "leaves a slice of %d bytes, less than one set of l2.assoc=%d lines", slice, l2.Assoc)
	}
	if l2.LatencyNear <= l1.HitLatency {
		bad("l2.latency_near", "%d is not above l1.hit_latency=%d", l2.LatencyNear, l1.HitLatency)
	}
	if l2.LatencyFar < l2.LatencyNear {
		bad("l2.latency_far", "%d is below l2.latency_near=%d", l2.LatencyFar, l2.LatencyNear)
	}
	if c.DRAM.Latency <= l2.LatencyNear {
		bad("dram.latency", "%d is not above l2.latency_near=%d", c.DRAM.Latency, l2.LatencyNear)
	}
	k := c.Const
	if k.LineBytes&(k.LineBytes-1) != 0 {
		bad("const_cache.line_bytes", "%d is not a power of two", k.LineBytes)
	} else if set := k.LineBytes * k.Assoc; k.Bytes < set || k.Bytes%set != 0 {
		bad("const_cache.bytes", "%d is not a positive multiple of const_cache.assoc=%d lines of const_cache.line_bytes=%d (%d)", k.Bytes, k.Assoc, k.LineBytes, set)
	}
}
