package trace_test

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/examples"
	"github.com/smsim/smsim/internal/exlaunch"
	"github.com/smsim/smsim/trace"
	"github.com/smsim/smsim/vcd"
)

var update = flag.Bool("update", false, "rewrite testdata/dumps.sha256")

// digestOptions are the option sets every example is dumped with in
// TestDumpDigests: the whole run, a window, a scope filter, a late start.
var digestOptions = []struct {
	name string
	opt  trace.Options
}{
	{"all", trace.Options{}},
	{"win", trace.Options{Start: 37, End: 400}},
	{"scope", trace.Options{Scopes: []string{"sm_top.g_warp[1]", "sm_top.u_perf_mon", "sm_top.u_warp_sched_1"}}},
	{"late", trace.Options{Start: 200}},
}

// digestCycles bounds the dumps of TestDumpDigests (sleep_lanes runs for
// millions of cycles: hundreds of MB of VCD).
const digestCycles = 100_000

// TestDumpDigests pins the tracer's output: every example kernel on both
// presets under every option set of digestOptions, dumped and compared by
// SHA-256 with testdata/dumps.sha256, so that a change meant to make the
// tracer faster shows at once if it changed a single byte of any dump.
// Each dump also passes the strict Reader. A change meant to change the
// output regenerates the file with -update (and the diff of the file
// shows which dumps changed).
func TestDumpDigests(t *testing.T) {
	if testing.Short() {
		// make test runs the suite once in full and the concurrent
		// packages again under -race -short: there the workers are
		// exercised by TestWorkersSameOutput, and pinning 200 dumps
		// again would cost minutes.
		t.Skip("-short: the 200 pinned dumps run in the full suite")
	}
	golden := filepath.Join("testdata", "dumps.sha256")
	var lines []string
	for _, preset := range []string{"h100", "small"} {
		cfg, err := config.Preset(preset)
		require.NoError(t, err)
		for _, e := range examples.All() {
			for _, o := range digestOptions {
				sm, err := exlaunch.NewByName(e.Name, cfg)
				if err != nil && preset == "small" {
					// A launch the small SM cannot hold (bench_intloop's
					// 768-thread CTAs): the example does not run there.
					continue
				}
				require.NoError(t, err, e.Name)

				var buf bytes.Buffer
				opt := o.opt
				if opt.End == 0 || opt.End > digestCycles {
					opt.End = digestCycles
				}
				tr, err := trace.Attach(sm, &buf, opt)
				require.NoError(t, err)
				_, err = sm.Run()
				require.NoError(t, err, "%s %s", preset, e.Name)
				require.NoError(t, tr.Close())
				require.NoError(t, strictRead(buf.Bytes()), "%s %s %s: the dump does not pass the strict reader", preset, e.Name, o.name)
				sum := sha256.Sum256(buf.Bytes())
				lines = append(lines, fmt.Sprintf("%s  %s/%s/%s", hex.EncodeToString(sum[:]), preset, e.Name, o.name))
			}
		}
	}
	sort.Strings(lines)
	got := strings.Join(lines, "\n") + "\n"
	if *update {
		require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err, "run go test ./trace -run TestDumpDigests -update to create it")
	if string(want) != got {
		wantSet := map[string]bool{}
		for _, l := range strings.Split(string(want), "\n") {
			wantSet[l] = true
		}
		var changed []string
		for _, l := range lines {
			if !wantSet[l] {
				changed = append(changed, l[strings.IndexByte(l, ' ')+2:])
			}
		}
		assert.Fail(t, "dumps changed", "%d of %d dumps differ from %s (go test -update rewrites it if the change is meant): %s",
			len(changed), len(lines), golden, strings.Join(changed, ", "))
	}
}

// strictRead reads a dump through the strict Reader without keeping it.
func strictRead(b []byte) error {
	r := vcd.NewReader(bufio.NewReader(bytes.NewReader(b)))
	r.Strict = true
	for {
		_, err := r.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
