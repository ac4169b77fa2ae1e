package config

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseKiBs reads a list of sizes in KiB (l1.smem_carveouts): rising,
// comma-separated, each 0..16384; "" is the empty list. It returns bytes.
func ParseKiBs(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		k, err := strconv.Atoi(f)
		switch {
		case err != nil:
			return nil, fmt.Errorf("%q is not a whole number of KiB", f)
		case k < 0 || k > 16384:
			return nil, fmt.Errorf("%d KiB is outside 0..16384", k)
		case len(out) > 0 && k*1024 <= out[len(out)-1]:
			return nil, fmt.Errorf("%d KiB does not rise above %d KiB", k, out[len(out)-1]/1024)
		}
		out = append(out, k*1024)
	}
	return out, nil
}

// Carveout returns the shared-memory carveout of a launch whose resident
// CTAs need need bytes of shared memory, as the driver picks it: the
// smallest of l1.smem_carveouts that holds both l1.smem_carveout_bytes
// (the preference) and need. Without a list the carveout is
// l1.smem_carveout_bytes. ok is false when the carveout cannot hold need.
// The list is taken as valid (Validate checks it).
func (l L1) Carveout(need int) (carveout int, ok bool) {
	list, _ := ParseKiBs(l.SmemCarveouts)
	if len(list) == 0 {
		return l.SmemCarveoutBytes, need <= l.SmemCarveoutBytes
	}
	want := max(need, l.SmemCarveoutBytes)
	for _, c := range list {
		if c >= want {
			return c, true
		}
	}
	return list[len(list)-1], false
}
