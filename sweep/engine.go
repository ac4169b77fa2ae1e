package sweep

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Runner runs `smsim` with args (without the program name) and returns its
// standard output, standard error and exit code. It must be safe to call
// from several goroutines at once.
type Runner func(args []string) (stdout, stderr []byte, code int)

// Status values a point can have besides the report's own status
// ("completed", "trapped", "deadlock", ...).
const (
	StatusBadInput = "bad_input" // exit 2: the launch or configuration was refused
	StatusError    = "error"     // no report came back
)

// RunPoint runs one point and turns the outcome into a result; it never
// panics, whatever the runner does.
func RunPoint(run Runner, p Point) (r Result) {
	r = Result{Hash: p.Hash, Workload: p.Workload, Values: p.Values, Args: p.Args}
	start := time.Now()
	defer func() {
		if v := recover(); v != nil {
			r.Status, r.ExitCode, r.Error = StatusError, -1, fmt.Sprintf("panic: %v", v)
		}
		r.WallMS = time.Since(start).Milliseconds()
		r.Finished = time.Now().UTC()
	}()
	stdout, stderr, code := run(p.Args)
	r.ExitCode = code
	msg := strings.TrimSpace(string(stderr))
	var rep struct {
		Status string `json:"status"`
		Errors []struct {
			Kind    string `json:"kind"`
			Message string `json:"message"`
		} `json:"errors"`
	}
	if code != 2 && json.Unmarshal(bytes.TrimSpace(stdout), &rep) == nil && rep.Status != "" {
		r.Report = string(bytes.TrimSpace(stdout))
		r.Status = rep.Status
		if code != 0 && msg == "" && len(rep.Errors) > 0 {
			msg = rep.Errors[0].Kind + ": " + rep.Errors[0].Message
		}
	} else if code == 2 {
		r.Status = StatusBadInput
	} else {
		r.Status = StatusError
	}
	if code != 0 {
		r.Error = msg
		if r.Error == "" {
			r.Error = fmt.Sprintf("exit %d", code)
		}
	}
	return r
}

// Failed tells whether a result is a failure (anything but a completed run).
func (r *Result) Failed() bool { return r.ExitCode != 0 }

// Options control the local engine.
type Options struct {
	Workers  int           // points run at once; 0 = one per CPU
	Force    bool          // re-run points already in the database
	Progress io.Writer     // progress output (nil = none)
	Terminal bool          // draw a progress bar on Progress, else print lines
	Interval time.Duration // time between progress lines off a terminal (0 = 5 s)
}

// Summary says what a sweep did.
type Summary struct {
	Total   int      // points in the spec
	Skipped int      // already in the database
	Ran     []string // hashes of the points run, in completion order
	Failed  int      // of those run, how many failed
}

// Pending returns the points of a spec not yet in the database (all with
// force).
func Pending(points []Point, db *DB, force bool) ([]Point, error) {
	if force {
		return points, nil
	}
	done, err := db.Hashes()
	if err != nil {
		return nil, err
	}
	var out []Point
	seen := map[string]bool{}
	for _, p := range points {
		if !done[p.Hash] && !seen[p.Hash] {
			seen[p.Hash] = true
			out = append(out, p)
		}
	}
	return out, nil
}

// RunLocal runs the spec's pending points on this machine into DIR's
// database. Cancelling ctx stops handing out points; those running finish
// and are stored.
func RunLocal(ctx context.Context, s *Spec, dir string, run Runner, opt Options) (Summary, error) {
	var sum Summary
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return sum, err
	}
	points, err := s.Points()
	if err != nil {
		return sum, err
	}
	sum.Total = len(points)
	db, err := OpenDB(dir)
	if err != nil {
		return sum, err
	}
	defer db.Close()
	todo, err := Pending(points, db, opt.Force)
	if err != nil {
		return sum, err
	}
	sum.Skipped = len(points) - len(todo)
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	workers = min(workers, max(len(todo), 1))

	prog := newProgress(opt, len(todo), sum.Skipped)
	var putErr error
	runPoints(ctx, todo, run, workers, func(r Result) {
		if err := db.Put(r); err != nil && putErr == nil {
			putErr = err
		}
		sum.Ran = append(sum.Ran, r.Hash)
		if r.Failed() {
			sum.Failed++
		}
		prog.add(r)
	})
	prog.finish()
	if putErr != nil {
		return sum, putErr
	}
	return sum, ctx.Err()
}

// runPoints runs points on workers goroutines and hands each result to
// sink, on the calling goroutine, as it comes.
func runPoints(ctx context.Context, todo []Point, run Runner, workers int, sink func(Result)) {
	jobs := make(chan Point)
	results := make(chan Result)
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range jobs {
				results <- RunPoint(run, p)
			}
		}()
	}
	go func() {
		defer close(jobs)
		for _, p := range todo {
			select {
			case jobs <- p:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()
	for r := range results {
		sink(r)
	}
}

// progress reports done/total, ETA and failures.
type progress struct {
	opt      Options
	total    int
	done     int
	failed   int
	start    time.Time
	last     time.Time
	bar      *progressbar.ProgressBar
	interval time.Duration
}

func newProgress(opt Options, total, skipped int) *progress {
	p := &progress{opt: opt, total: total, start: time.Now(), interval: opt.Interval}
	p.last = p.start
	if p.interval <= 0 {
		p.interval = 5 * time.Second
	}
	if opt.Progress == nil {
		return p
	}
	if skipped > 0 {
		fmt.Fprintf(opt.Progress, "sweep: %d points already done, %d to run\n", skipped, total)
	}
	if opt.Terminal && total > 0 {
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(opt.Progress),
			progressbar.OptionSetDescription("sweep"),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionFullWidth(),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionOnCompletion(func() { fmt.Fprintln(opt.Progress) }),
		)
	}
	return p
}

func (p *progress) add(r Result) {
	p.done++
	if r.Failed() {
		p.failed++
	}
	switch {
	case p.opt.Progress == nil:
	case p.bar != nil:
		if r.Failed() {
			p.bar.Describe(fmt.Sprintf("sweep (%d failed)", p.failed))
		}
		_ = p.bar.Add(1)
	case time.Since(p.last) >= p.interval:
		p.last = time.Now()
		fmt.Fprintln(p.opt.Progress, p.line())
	}
}

func (p *progress) line() string {
	el := time.Since(p.start)
	eta := "?"
	if p.done > 0 {
		eta = (time.Duration(float64(el) / float64(p.done) * float64(p.total-p.done))).Round(time.Second).String()
	}
	return fmt.Sprintf("sweep: %d/%d points, %d failed, elapsed %s, ETA %s", p.done, p.total, p.failed, el.Round(time.Second), eta)
}

func (p *progress) finish() {
	if p.opt.Progress == nil {
		return
	}
	if p.bar != nil {
		_ = p.bar.Finish()
	}
	fmt.Fprintf(p.opt.Progress, "sweep: ran %d points, %d failed, in %s\n", p.done, p.failed, time.Since(p.start).Round(time.Millisecond))
}
