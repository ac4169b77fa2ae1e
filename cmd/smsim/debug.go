package main

import (
	"github.com/urfave/cli/v2"

	"github.com/smsim/smsim/debugger"
	"github.com/smsim/smsim/pipeline"
)

func debugCommand() *cli.Command {
	return &cli.Command{
		Name:      "debug",
		Usage:     "run a kernel interactively: stops on brkpt and traps; continue, step, stepi W, warps, regs W, esr, wake, quit",
		ArgsUsage: "KERNEL.ptx",
		Flags:     append(runFlags(), &cli.BoolFlag{Name: "echo", Usage: "echo commands read from a pipe (readable transcripts)"}),
		Action: func(c *cli.Context) error {
			im, spec, err := kernelArg(c)
			if err != nil {
				return err
			}
			sm, err := pipeline.New(spec.cfg, im, spec.launch)
			if err != nil {
				return badInput(err)
			}
			if err := debugger.Run(sm, c.App.Reader, c.App.Writer, debugger.Options{Echo: c.Bool("echo")}); err != nil {
				return abnormal(err)
			}
			if sm.Status() != pipeline.StatusCompleted {
				return abnormal(nil)
			}
			return nil
		},
	}
}
