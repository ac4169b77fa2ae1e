package main

import (
	"encoding/binary"
	"fmt"

	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"

	"github.com/smsim/smsim/examples"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/pipeline"
)

// exampleLaunch turns an example's launch description into a pipeline launch.
func exampleLaunch(e *examples.Example) pipeline.Launch {
	l := pipeline.Launch{Entry: e.Entry, Args: map[string]uint64{}, DynamicSmem: uint32(e.DynamicSmem), MaxNReg: uint32(e.MaxNReg)}
	for i := 0; i < 3; i++ {
		l.Grid[i], l.Block[i] = uint32(max(e.Grid[i], 1)), uint32(max(e.Block[i], 1))
		l.Cluster[i] = uint32(e.Cluster[i])
	}
	if e.Cluster == (examples.Dim3{}) {
		l.Cluster = [3]uint32{}
	}
	for k, v := range e.Args {
		l.Args[k] = v
	}
	for _, b := range e.Buffers {
		init := make([]byte, 4*len(b.Init))
		for i, w := range b.Init {
			binary.LittleEndian.PutUint32(init[4*i:], w)
		}
		l.Buffers = append(l.Buffers, pipeline.Buffer{Param: b.Param, Size: 4 * b.Words, Init: init})
	}
	return l
}

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
			sm, err := pipeline.New(cfg, im, exampleLaunch(e))
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
