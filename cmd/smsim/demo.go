package main

import (
	"fmt"

	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"

	"github.com/smsim/smsim/examples"
	"github.com/smsim/smsim/internal/exlaunch"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/pipeline"
)

func demoCommand(log *logrus.Logger) *cli.Command {
	return &cli.Command{
		Name:  "demo",
		Usage: "run the embedded default kernel (divergence, calls, the warp scheduler) and print the summary",
		Flags: append(append(configFlags(), vcdFlags()...), &cli.BoolFlag{Name: "json", Usage: "print the report as JSON"}, &cli.BoolFlag{Name: "source", Usage: "print the kernel's CUDA source and exit"}),
		Action: func(c *cli.Context) error {
			e := examples.Demo()
			if c.Bool("source") {
				if _, err := c.App.Writer.Write(e.Source); err != nil {
					return abnormal(fmt.Errorf("--source: %v", err)) // not bad input: the output failed
				}
				return nil
			}
			if err := checkVCDFlags(c); err != nil {
				return err
			}
			cfg, err := loadConfig(c)
			if err != nil {
				return err
			}
			im, err := isa.AssembleSource(e.Name+".ptx", e.PTX)
			if err != nil {
				return abnormal(fmt.Errorf("embedded kernel: %v", err))
			}
			sm, err := pipeline.New(cfg, im, exlaunch.Launch(e))
			if err != nil {
				return badInput(err)
			}
			finishTrace, err := attachTrace(c, log, sm)
			if err != nil {
				return err
			}
			rep, err := runSM(sm, c.App.ErrWriter)
			if err != nil {
				return abnormal(err)
			}
			if err := finishTrace(); err != nil {
				return err
			}
			if !c.Bool("json") {
				fmt.Fprintf(c.App.Writer, "smsim demo: %s, %s on grid %v × block %v (config preset %q, %d schedulers, %s policy)\n\n", e.Name, e.Notes, e.Grid, e.Block, c.String("preset"), cfg.Sched.Count, cfg.Sched.Policy)
				writeSummary(c.App.Writer, rep)
				if err := e.Verify(envFor(sm, e), rep.Buffers); err != nil {
					return abnormal(fmt.Errorf("demo results differ from the reference: %v", err))
				}
				fmt.Fprintln(c.App.Writer, "\nresults match the Go reference of the kernel")
			} else if err := jsonOut(c, rep); err != nil {
				return err
			}
			if rep.Status != pipeline.StatusCompleted {
				return abnormal(nil)
			}
			return nil
		},
	}
}

// envFor fills an examples.Env from a configured SM.
func envFor(sm *pipeline.SM, e *examples.Example) examples.Env {
	cfg := sm.Config()
	env := examples.DefaultEnv()
	env.SMID, env.NSMID = uint32(cfg.SM.ID), uint32(cfg.SM.Count)
	env.NWarpID = uint32(cfg.SM.MaxWarps)
	env.GridID = cfg.Grid.ID
	env.EnvReg = cfg.Env.Regs
	env.CurrentGraphExec = cfg.Graph.Exec
	r := sm.ReservedSmem()
	env.ReservedSmemBegin, env.ReservedSmemEnd, env.ReservedSmemCap = r.Begin, r.End, r.Cap
	env.ReservedSmemOffset = r.Offset
	env.SmemAllocUnit = cfg.SM.SmemAllocUnit
	env.WarpID = func(cta, w int) uint32 {
		s, _ := sm.WarpSlot(cta, w)
		return s
	}
	return env
}
