//go:build !unix

package vcd

import "time"

// processCPU is not available here; benchmarks then report no cpu-MB/s.
func processCPU() time.Duration { return 0 }
