package sweep

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Files of the Slurm engine, under DIR.
const (
	slurmDir  = "slurm"  // job.json, points.json, job.sh, task-N.out
	shardsDir = "shards" // task-N.jsonl: one result per line
)

// SlurmOptions are the pass-through options of one job array.
type SlurmOptions struct {
	Exe         string // the smsim binary the tasks run (absolute)
	Partition   string // --partition ("" = the default)
	Time        string // --time ("" = the partition's)
	CPUsPerTask int    // --cpus-per-task, also each task's workers (0 = 1)
	Tasks       int    // array size; 0 = one per 8 points, at most 256
	Sbatch      string // the sbatch command (default "sbatch")
	Force       bool   // hand every point to the array, done or not
}

// Job is what DIR/slurm/job.json records of a submitted array.
type Job struct {
	Spec      string    `json:"spec"` // absolute path of the spec
	JobID     string    `json:"job_id"`
	Tasks     int       `json:"tasks"`
	Points    int       `json:"points"` // points handed to the array
	Submitted time.Time `json:"submitted"`
}

// SubmitSlurm writes the pending points and a job script into DIR/slurm
// and submits one sbatch --array job. It returns the job; a spec with
// nothing pending submits nothing (JobID "").
func SubmitSlurm(s *Spec, dir string, opt SlurmOptions) (*Job, error) {
	points, err := s.Points()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(dir, slurmDir), 0o755); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(dir, shardsDir), 0o755); err != nil {
		return nil, err
	}
	db, err := OpenDB(dir)
	if err != nil {
		return nil, err
	}
	todo, err := Pending(points, db, opt.Force)
	db.Close()
	if err != nil {
		return nil, err
	}
	specAbs, err := filepath.Abs(s.File)
	if err != nil {
		return nil, err
	}
	dirAbs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	job := &Job{Spec: specAbs, Points: len(todo), Submitted: time.Now().UTC()}
	if len(todo) == 0 {
		return job, nil
	}
	tasks := opt.Tasks
	if tasks <= 0 {
		tasks = min((len(todo)+7)/8, 256)
	}
	tasks = min(tasks, len(todo))
	job.Tasks = tasks
	// Old shard files belong to an earlier array: collect them first.
	if _, err := Collect(dir); err != nil {
		return nil, err
	}
	old, _ := filepath.Glob(filepath.Join(dir, shardsDir, "task-*.jsonl"))
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			return nil, err
		}
	}
	pj, err := json.Marshal(todo)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, slurmDir, "points.json"), pj, 0o644); err != nil {
		return nil, err
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "#!/bin/sh\n#SBATCH --job-name=smsim-sweep\n#SBATCH --array=0-%d\n", tasks-1)
	fmt.Fprintf(&sb, "#SBATCH --output=%s\n", filepath.Join(dirAbs, slurmDir, "task-%a.out"))
	fmt.Fprintf(&sb, "#SBATCH --cpus-per-task=%d\n", max(opt.CPUsPerTask, 1))
	if opt.Partition != "" {
		fmt.Fprintf(&sb, "#SBATCH --partition=%s\n", opt.Partition)
	}
	if opt.Time != "" {
		fmt.Fprintf(&sb, "#SBATCH --time=%s\n", opt.Time)
	}
	fmt.Fprintf(&sb, "exec %s sweep run-shard %s \"$SLURM_ARRAY_TASK_ID\"\n", shellQuote(opt.Exe), shellQuote(dirAbs))
	script := filepath.Join(dir, slurmDir, "job.sh")
	if err := os.WriteFile(script, []byte(sb.String()), 0o755); err != nil {
		return nil, err
	}
	// The tasks read job.json: it is there before the first can start.
	if err := writeJob(dir, job); err != nil {
		return nil, err
	}
	sbatch := opt.Sbatch
	if sbatch == "" {
		sbatch = "sbatch"
	}
	cmd := exec.Command(sbatch, "--parsable", script)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("sbatch: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";")
	if id == "" {
		return nil, fmt.Errorf("sbatch printed no job id")
	}
	job.JobID = id
	return job, writeJob(dir, job)
}

func writeJob(dir string, job *Job) error {
	jj, err := json.MarshalIndent(job, "", "  ")
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, slurmDir, "job.json.tmp")
	if err := os.WriteFile(tmp, jj, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, slurmDir, "job.json"))
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// ReadJob reads DIR/slurm/job.json.
func ReadJob(dir string) (*Job, error) {
	data, err := os.ReadFile(filepath.Join(dir, slurmDir, "job.json"))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s: no Slurm job was submitted into this directory", dir)
		}
		return nil, err
	}
	var j Job
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(dir, slurmDir, "job.json"), err)
	}
	return &j, nil
}

func shardPath(dir string, task int) string {
	return filepath.Join(dir, shardsDir, fmt.Sprintf("task-%d.jsonl", task))
}

// RunShard runs task's share of DIR/slurm/points.json (every tasks-th point
// from task) with workers goroutines, appending each result as one line to
// DIR/shards/task-N.jsonl. Points already in that file are skipped, so a
// requeued task resumes.
func RunShard(ctx context.Context, dir string, task, workers int, run Runner) (int, error) {
	job, err := ReadJob(dir)
	if err != nil {
		return 0, err
	}
	if task < 0 || task >= job.Tasks {
		return 0, fmt.Errorf("task %d: the job has tasks 0..%d", task, job.Tasks-1)
	}
	data, err := os.ReadFile(filepath.Join(dir, slurmDir, "points.json"))
	if err != nil {
		return 0, err
	}
	var points []Point
	if err := json.Unmarshal(data, &points); err != nil {
		return 0, fmt.Errorf("points.json: %v", err)
	}
	path := shardPath(dir, task)
	done := map[string]bool{}
	if old, err := readShard(path); err == nil {
		for _, r := range old {
			done[r.Hash] = true
		}
	}
	var todo []Point
	for i := task; i < len(points); i += job.Tasks {
		if !done[points[i].Hash] {
			todo = append(todo, points[i])
		}
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return 0, err
	}
	var mu sync.Mutex
	var werr error
	n := 0
	runPoints(ctx, todo, run, workers, func(r Result) {
		line, err := json.Marshal(r)
		if err == nil {
			mu.Lock()
			_, err = f.Write(append(line, '\n'))
			if err == nil {
				err = f.Sync()
			}
			mu.Unlock()
		}
		if err != nil && werr == nil {
			werr = err
		}
		n++
	})
	if err := f.Close(); werr == nil {
		werr = err
	}
	return n, werr
}

// readShard reads one shard file; a torn last line (a task killed while
// writing) is ignored.
func readShard(path string) ([]Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Result
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for sc.Scan() {
		var r Result
		if json.Unmarshal(sc.Bytes(), &r) == nil && r.Hash != "" {
			out = append(out, r)
		}
	}
	return out, sc.Err()
}

// Collect merges every shard file of DIR into its database and returns
// the number of results merged.
func Collect(dir string) (int, error) {
	files, err := filepath.Glob(filepath.Join(dir, shardsDir, "task-*.jsonl"))
	if err != nil || len(files) == 0 {
		return 0, err
	}
	db, err := OpenDB(dir)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	n := 0
	for _, f := range files {
		rs, err := readShard(f)
		if err != nil {
			return n, err
		}
		for _, r := range rs {
			if err := db.Put(r); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}

// JobStatus is the progress of a submitted array.
type JobStatus struct {
	Job    *Job
	Done   int            // points with a result in a shard file
	Failed int            // of those, failed
	States map[string]int // array tasks still known to squeue, by state
	Queued bool           // squeue still knows the job
}

// Status reads the shard files and asks squeue (when there is one) about
// the job's tasks.
func Status(dir string) (*JobStatus, error) {
	job, err := ReadJob(dir)
	if err != nil {
		return nil, err
	}
	st := &JobStatus{Job: job, States: map[string]int{}}
	for t := 0; t < job.Tasks; t++ {
		rs, err := readShard(shardPath(dir, t))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		for _, r := range rs {
			st.Done++
			if r.Failed() {
				st.Failed++
			}
		}
	}
	if job.JobID == "" {
		return st, nil
	}
	out, err := exec.Command("squeue", "-h", "-r", "-j", job.JobID, "-o", "%T").Output()
	if err != nil {
		return st, nil // the job is no longer known (or squeue is not here)
	}
	for _, l := range strings.Fields(string(out)) {
		st.States[strings.ToLower(l)]++
		st.Queued = true
	}
	return st, nil
}

// String is a one-line summary.
func (s *JobStatus) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "job %s: %d/%d points done, %d failed", s.Job.JobID, s.Done, s.Job.Points, s.Failed)
	if s.Queued {
		var keys []string
		for k := range s.States {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var parts []string
		for _, k := range keys {
			parts = append(parts, strconv.Itoa(s.States[k])+" "+k)
		}
		fmt.Fprintf(&b, "; tasks: %s", strings.Join(parts, ", "))
	} else {
		b.WriteString("; no task queued or running")
	}
	return b.String()
}
