package trace

import (
	"bytes"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/internal/exlaunch"
	"github.com/smsim/smsim/pipeline"
)

// The dump does not depend on the number of workers formatting it (nor on
// their timing): runs of frames are independent and written in order.
func TestWorkersSameOutput(t *testing.T) {
	cases := []struct {
		name, preset string
		opt          Options
		long         bool // spans several runs of frames
	}{
		{"bench_intloop", "h100", Options{}, true},
		{"cta_continuation", "small", Options{}, false},
		{"trap_divergent", "small", Options{}, false}, // the first frame and one partial run
		{"smem_reduce", "small", Options{Start: 5, End: 300}, false},
		{"demo_collatz", "small", Options{Scopes: []string{"sm_top.g_warp[1]", "sm_top.u_barrier"}}, true},
	}
	for _, c := range cases {
		var want []byte
		for _, workers := range []int{1, 2, 3, 5} {
			cfg, err := config.Preset(c.preset)
			require.NoError(t, err)
			sm, err := exlaunch.NewByName(c.name, cfg)
			require.NoError(t, err, c.name)
			var buf bytes.Buffer
			tr, err := attach(sm, &buf, c.opt, workers)
			require.NoError(t, err)
			_, err = sm.Run()
			require.NoError(t, err)
			require.NoError(t, tr.Close())
			if want == nil {
				want = buf.Bytes()
				// Several runs of frames, so that the workers share the work.
				if c.long {
					require.Greater(t, bytes.Count(want, []byte("\n#")), 4*blockFrames, "%s: too short a dump to span several blocks", c.name)
				}
				continue
			}
			assert.True(t, bytes.Equal(want, buf.Bytes()), "%s: %d workers write another dump than 1", c.name, workers)
		}
	}
}

// failAfter fails every write once n bytes were written.
type failAfter struct{ n int }

var errFull = errors.New("disk full")

func (f *failAfter) Write(p []byte) (int, error) {
	if f.n < len(p) {
		f.n = 0
		return 0, errFull
	}
	f.n -= len(p)
	return len(p), nil
}

// A write error in the middle of the run (on the writer goroutine) stops
// nothing: the run completes, and Close returns the error.
func TestWorkersWriteError(t *testing.T) {
	sm, err := exlaunch.NewByName("bench_intloop", config.Default())
	require.NoError(t, err)
	tr, err := attach(sm, &failAfter{n: 1 << 20}, Options{}, 2)
	require.NoError(t, err)
	rep, err := sm.Run()
	require.NoError(t, err)
	assert.Equal(t, pipeline.StatusCompleted, rep.Status)
	assert.ErrorIs(t, tr.Close(), errFull)
	assert.ErrorIs(t, tr.Close(), errFull, "Close again")
}
