package pipeline_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/examples"
	"github.com/smsim/smsim/internal/exlaunch"
	"github.com/smsim/smsim/pipeline"
	"github.com/smsim/smsim/trace"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/reports.golden")

// goldenPolicies are the scheduling policies every example is run under.
var goldenPolicies = []config.SchedPolicy{config.PolicyLRR, config.PolicyGTO, config.PolicyTwoLevel}

// goldenRun is one example run: its key and what `smsim run --json` would
// print for it (or, where the SM cannot hold the launch, the launch error).
type goldenRun struct {
	key    string
	report []byte
}

// newExampleSM builds the SM for e under cfg as `smsim run` would: the
// example's trap handler and host policy applied.
func newExampleSM(e *examples.Example, cfg config.Config) (*pipeline.SM, error) {
	if e.TrapHandler != "" {
		cfg.Trap.Handler = e.TrapHandler
	}
	sm, err := exlaunch.New(e, cfg)
	if err != nil {
		return nil, err
	}
	if err := sm.SetHostPolicy(e.OnTrap, ""); err != nil {
		return nil, err
	}
	return sm, nil
}

// reportJSON is the report exactly as `smsim run --json` encodes it.
func reportJSON(t testing.TB, rep *pipeline.Report) []byte {
	var buf bytes.Buffer
	require.NoError(t, json.NewEncoder(&buf).Encode(rep))
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// eachExampleRun calls f for every example at both presets under every
// policy, in a fixed order.
func eachExampleRun(t *testing.T, f func(key string, e *examples.Example, cfg config.Config)) {
	for _, preset := range []string{"h100", "small"} {
		for _, pol := range goldenPolicies {
			cfg, err := config.Preset(preset)
			require.NoError(t, err)
			cfg.Sched.Policy = pol
			for _, e := range examples.All() {
				f(fmt.Sprintf("%s/%s/%s", preset, pol, e.Name), e, cfg)
			}
		}
	}
}

// TestGoldenReports pins the model's behaviour: the --json report of every
// example kernel at both presets under all three scheduling policies, as
// committed in testdata/reports.golden (one line per run: key, tab, JSON).
// A change that is meant to keep behaviour (a refactor, a speed-up) must
// leave every line as it is; one that is meant to change it regenerates the
// file with -update, and the diff shows which runs changed.
func TestGoldenReports(t *testing.T) {
	var runs []goldenRun
	eachExampleRun(t, func(key string, e *examples.Example, cfg config.Config) {
		sm, err := newExampleSM(e, cfg)
		if err != nil {
			require.True(t, pipeline.IsLaunchError(err), "%s: %v", key, err)
			runs = append(runs, goldenRun{key, []byte(fmt.Sprintf("launch error: %v", err))})
			return
		}
		rep, err := sm.Run()
		require.NoError(t, err, key)
		runs = append(runs, goldenRun{key, reportJSON(t, rep)})
	})
	path := filepath.Join("testdata", "reports.golden")
	if *updateGolden {
		var buf bytes.Buffer
		for _, r := range runs {
			fmt.Fprintf(&buf, "%s\t%s\n", r.key, r.report)
		}
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
		return
	}
	f, err := os.Open(path)
	require.NoError(t, err, "run with -update to create it")
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "\t")
		require.True(t, ok, "malformed line in %s", path)
		want[k] = v
	}
	require.NoError(t, sc.Err())
	require.Len(t, want, len(runs), "%s holds %d runs, the examples give %d", path, len(want), len(runs))
	for _, r := range runs {
		w, ok := want[r.key]
		if !ok {
			t.Errorf("%s: not in %s", r.key, path)
			continue
		}
		if w != string(r.report) {
			t.Errorf("%s: the report differs from %s\n got: %s\nwant: %s", r.key, path, clip(string(r.report)), clip(w))
		}
	}
}

// TestTracedEqualsUntraced: attaching the waveform tracer never changes
// what the model computes. Every example, both presets, every policy, run
// once untraced and once traced (into io.Discard): the reports are equal.
func TestTracedEqualsUntraced(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: every example run twice")
	}
	eachExampleRun(t, func(key string, e *examples.Example, cfg config.Config) {
		if e.Name == "sleep_lanes" && cfg.Sched.Policy != config.PolicyLRR {
			return // millions of sleeping cycles: traced once per preset is enough
		}
		plain, err := newExampleSM(e, cfg)
		if err != nil {
			return // the SM cannot hold the launch (TestGoldenReports pins the error)
		}
		rep, err := plain.Run()
		require.NoError(t, err, key)
		traced, err := newExampleSM(e, cfg)
		require.NoError(t, err, key)
		tr, err := trace.Attach(traced, io.Discard, trace.Options{})
		require.NoError(t, err, key)
		trep, err := traced.Run()
		require.NoError(t, err, key)
		require.NoError(t, tr.Close(), key)
		require.Equal(t, string(reportJSON(t, rep)), string(reportJSON(t, trep)), "%s: the traced run's report differs", key)
	})
}

func clip(s string) string {
	if len(s) > 400 {
		return s[:400] + "..."
	}
	return s
}
