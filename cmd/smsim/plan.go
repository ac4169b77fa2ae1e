package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/diag"
	"github.com/smsim/smsim/pipeline"
	"github.com/smsim/smsim/plan"
)

// isPlan reports whether smsim run's argument is a launch plan.
func isPlan(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext == ".yaml" || ext == ".yml"
}

// planOnlyFlags are run's flags that describe one launch: a plan gives
// each of its launches their own.
var planOnlyFlags = []string{"entry", "grid", "block", "cluster", "dynamic-smem", "buf", "arg", "const", "maxnreg", "vcd", "vcd-scope", "vcd-window", "fst"}

// planErr reports a plan's positioned errors one per line as
// file:line:col: message (exit 2).
func planErr(c *cli.Context, err error) error {
	var list diag.ErrorList
	if errors.As(err, &list) {
		for _, e := range list {
			fmt.Fprintln(c.App.ErrWriter, e.Error())
		}
		return &exitError{code: 2}
	}
	return badInput(err)
}

// runPlan runs a launch plan (smsim run PLAN.yaml).
func runPlan(c *cli.Context, log *logrus.Logger, path string) error {
	for _, f := range planOnlyFlags {
		if c.IsSet(f) {
			return badInput(fmt.Errorf("--%s describes a single PTX launch; a plan gives each launch its own (docs/host.md)", f))
		}
	}
	pl, err := plan.Load(path)
	if err != nil {
		return planErr(c, err)
	}
	var planCfg error
	cfg, err := loadConfigWith(c, func(cfg *config.Config) error {
		planCfg = pl.Configure(cfg)
		return planCfg
	})
	if planCfg != nil {
		return planErr(c, planCfg)
	}
	if err != nil {
		return err
	}
	if err := applyRunFlags(c, &cfg); err != nil {
		return err
	}
	checks, err := checkFlag(c)
	if err != nil {
		return err
	}
	opt := plan.Options{OnTrap: c.String("on-trap"), OnBreak: c.String("on-break"), Checks: checks}
	for _, kv := range c.StringSlice("out") {
		name, file, ok := strings.Cut(kv, "=")
		if !ok || name == "" || file == "" {
			return badInput(fmt.Errorf("--out %q: want BUFFER=file.bin", kv))
		}
		opt.Outputs = append(opt.Outputs, plan.Output{Buffer: name, Path: file, At: "--out " + kv})
	}
	opt.Progress = func(r plan.LaunchRecord) {
		log.WithFields(logrus.Fields{"kernel": r.Kernel, "at": r.At, "status": r.Report.Status, "cycles": r.Report.Cycles}).Info("launch")
	}
	res, err := pl.Run(cfg, opt)
	var fail *plan.Failure
	if err != nil && !errors.As(err, &fail) {
		return planErr(c, err)
	}
	if c.Bool("json") {
		if err := json.NewEncoder(c.App.Writer).Encode(res); err != nil {
			return abnormal(err)
		}
	} else {
		writePlanSummary(c.App.Writer, res)
	}
	if fail != nil {
		return abnormal(fail)
	}
	findings := 0
	for _, l := range res.Launches {
		findings += len(l.Report.Sanitizer)
	}
	if findings > 0 {
		return abnormal(fmt.Errorf("the sanitizer reported %d findings", findings))
	}
	return nil
}

// writePlanSummary prints one line per launch, the summary of a launch
// that did not complete, and the buffers.
func writePlanSummary(w io.Writer, res *plan.Result) {
	fmt.Fprintf(w, "status %s: %d launches, %d cycles\n", res.Status, len(res.Launches), res.Cycles)
	for i, l := range res.Launches {
		fmt.Fprintf(w, "  %3d %-24s %-10s %8d cycles  %s\n", i+1, l.Kernel, l.Report.Status, l.Report.Cycles, l.At)
	}
	for i, l := range res.Launches {
		if l.Report.Status == pipeline.StatusCompleted && len(l.Report.Sanitizer) == 0 {
			continue
		}
		fmt.Fprintf(w, "\nlaunch %d (%s at %s):\n", i+1, l.Kernel, l.At)
		rep := *l.Report
		rep.Buffers = nil // the plan's buffers follow
		writeSummary(w, &rep)
	}
	writeBuffers(w, res.Buffers)
}
