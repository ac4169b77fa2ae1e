package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/smsim/smsim/sweep"
)

// subprocess is the sweep's Runner: each point is `EXE run ...` in a
// process of its own. In-process calls of run would share the CLI
// library's globals (urfave/cli writes its HelpFlag and help command on
// every Run: a data race under -race), and a process of its own keeps a
// point that crashes or runs out of memory from taking the sweep down.
func subprocess(exe string) sweep.Runner {
	return func(args []string) ([]byte, []byte, int) {
		cmd := exec.Command(exe, args...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		if err == nil {
			return out.Bytes(), errb.Bytes(), 0
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() >= 0 {
			return out.Bytes(), errb.Bytes(), ee.ExitCode()
		}
		fmt.Fprintf(&errb, "%s: %v", exe, err) // killed by a signal, or did not start
		return out.Bytes(), errb.Bytes(), -1
	}
}

// isTerminal tells whether w is a character device.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func sweepCommand() *cli.Command {
	return &cli.Command{
		Name:      "sweep",
		Usage:     "run a study: workloads x configuration axes, into a results directory (exit 0 all points completed, 1 some failed, 2 bad input)",
		ArgsUsage: "SPEC.yaml -o DIR | status DIR | collect DIR",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "o", Aliases: []string{"out"}, Usage: "results directory (database, tables, plots, report.html)"},
			&cli.IntFlag{Name: "workers", Usage: "points run at once (default: one per CPU)"},
			&cli.BoolFlag{Name: "force", Usage: "run points again even if they are in the database"},
			&cli.StringFlag{Name: "engine", Value: "local", Usage: "local | slurm (one sbatch --array job)"},
			&cli.StringFlag{Name: "partition", Usage: "slurm: --partition"},
			&cli.StringFlag{Name: "time", Usage: "slurm: --time of each task"},
			&cli.IntFlag{Name: "cpus-per-task", Value: 1, Usage: "slurm: --cpus-per-task (each task runs that many points at once)"},
			&cli.IntFlag{Name: "tasks", Usage: "slurm: array size (default: one task per 8 points, at most 256)"},
			&cli.BoolFlag{Name: "wait", Usage: "slurm: wait for the job, then collect"},
		},
		Subcommands: []*cli.Command{
			{
				Name:      "status",
				Usage:     "show the progress of a Slurm sweep",
				ArgsUsage: "DIR",
				Action: dirAction(func(c *cli.Context, dir string) error {
					st, err := sweep.Status(dir)
					if err != nil {
						return badInput(err)
					}
					fmt.Fprintln(c.App.Writer, st)
					return nil
				}),
			},
			{
				Name:      "collect",
				Usage:     "merge a Slurm sweep's shards into the database and write the outputs",
				ArgsUsage: "DIR",
				Action:    dirAction(collect),
			},
			{
				Name:      "run-shard",
				Usage:     "run one task of a Slurm sweep (the job script runs this)",
				ArgsUsage: "DIR TASK",
				Hidden:    true,
				Action: func(c *cli.Context) error {
					if c.NArg() != 2 {
						return badInput(fmt.Errorf("want DIR TASK"))
					}
					task, err := strconv.Atoi(c.Args().Get(1))
					if err != nil {
						return badInput(fmt.Errorf("TASK %q: not an integer", c.Args().Get(1)))
					}
					workers, _ := strconv.Atoi(os.Getenv("SLURM_CPUS_PER_TASK"))
					exe, err := os.Executable()
					if err != nil {
						return abnormal(err)
					}
					n, err := sweep.RunShard(context.Background(), c.Args().Get(0), task, max(workers, 1), subprocess(exe))
					if err != nil {
						return abnormal(err)
					}
					fmt.Fprintf(c.App.ErrWriter, "smsim sweep: task %d ran %d points\n", task, n)
					return nil
				},
			},
		},
		Action: sweepAction,
	}
}

func sweepAction(c *cli.Context) error {
	path, err := oneArg(c, "SPEC.yaml")
	if err != nil {
		return err
	}
	dir := c.String("o")
	if dir == "" {
		return badInput(fmt.Errorf("sweep: -o DIR is required"))
	}
	spec, err := sweep.Load(path)
	if err != nil {
		return badInput(err)
	}
	exe, err := os.Executable()
	if err != nil {
		return abnormal(err)
	}
	switch c.String("engine") {
	case "local":
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		opt := sweep.Options{Workers: c.Int("workers"), Force: c.Bool("force"), Progress: c.App.ErrWriter, Terminal: isTerminal(c.App.ErrWriter)}
		sum, err := sweep.RunLocal(ctx, spec, dir, subprocess(exe), opt)
		if err != nil {
			if errors.Is(err, context.Canceled) {
				return abnormal(fmt.Errorf("interrupted after %d points; run again to resume", len(sum.Ran)))
			}
			return abnormal(err)
		}
		return writeOutputs(c, spec, dir)
	case "slurm":
		job, err := sweep.SubmitSlurm(spec, dir, sweep.SlurmOptions{
			Exe: exe, Partition: c.String("partition"), Time: c.String("time"),
			CPUsPerTask: c.Int("cpus-per-task"), Tasks: c.Int("tasks"), Force: c.Bool("force"),
		})
		if err != nil {
			return abnormal(err)
		}
		if job.JobID == "" {
			fmt.Fprintln(c.App.ErrWriter, "smsim sweep: every point is done; nothing submitted")
			return collect(c, dir)
		}
		fmt.Fprintf(c.App.ErrWriter, "smsim sweep: submitted job %s: %d points in %d tasks; see smsim sweep status %s\n", job.JobID, job.Points, job.Tasks, dir)
		if !c.Bool("wait") {
			return nil
		}
		for {
			st, err := sweep.Status(dir)
			if err != nil {
				return abnormal(err)
			}
			if !st.Queued {
				break
			}
			time.Sleep(time.Second)
		}
		return collect(c, dir)
	default:
		return badInput(fmt.Errorf("--engine %q: want local or slurm", c.String("engine")))
	}
}

// dirAction is the action of a subcommand taking one DIR argument.
func dirAction(f func(c *cli.Context, dir string) error) cli.ActionFunc {
	return func(c *cli.Context) error {
		dir, err := oneArg(c, "DIR")
		if err != nil {
			return err
		}
		return f(c, dir)
	}
}

func collect(c *cli.Context, dir string) error {
	job, err := sweep.ReadJob(dir)
	if err != nil {
		return badInput(err)
	}
	spec, err := sweep.Load(job.Spec)
	if err != nil {
		return badInput(err)
	}
	n, err := sweep.Collect(dir)
	if err != nil {
		return abnormal(err)
	}
	fmt.Fprintf(c.App.ErrWriter, "smsim sweep: collected %d results\n", n)
	return writeOutputs(c, spec, dir)
}

// writeOutputs writes the tables, plots and report; exit 1 when a point of
// the spec failed or has no result.
func writeOutputs(c *cli.Context, spec *sweep.Spec, dir string) error {
	if _, err := sweep.WriteOutputs(spec, dir); err != nil {
		return abnormal(err)
	}
	t, err := sweep.LoadTable(spec, dir)
	if err != nil {
		return abnormal(err)
	}
	failed, pending := 0, 0
	for _, r := range t.Results {
		switch {
		case r.Status == sweep.StatusPending:
			pending++
		case r.Failed():
			failed++
		}
	}
	fmt.Fprintf(c.App.ErrWriter, "smsim sweep: %d points, %d failed, %d pending; results in %s\n", len(t.Results), failed, pending, dir)
	if failed+pending > 0 {
		return abnormal(nil)
	}
	return nil
}
