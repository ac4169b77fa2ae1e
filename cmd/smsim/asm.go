package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"

	"github.com/smsim/smsim/device"
	"github.com/smsim/smsim/isa"
)

func commands(log *logrus.Logger) []*cli.Command {
	cmds := []*cli.Command{
		{
			Name:      "asm",
			Usage:     "assemble PTX (or smsim disassembly) into a binary image",
			ArgsUsage: "FILE.ptx",
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "o", Usage: "output image file (default: FILE.bin)"},
				&cli.BoolFlag{Name: "stats", Usage: "print per-kernel statistics instead of writing the image"},
			},
			Action: func(c *cli.Context) error { return cmdAsm(c) },
		},
		{
			Name:      "disasm",
			Usage:     "disassemble a binary image (the output assembles back to identical bytes)",
			ArgsUsage: "FILE.bin",
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "o", Usage: "output file (default: standard output)"},
			},
			Action: func(c *cli.Context) error { return cmdDisasm(c) },
		},
		configCommand(),
		vcddiffCommand(),
		cosimCommand(),
		sweepCommand(),
	}
	return append(cmds, extraCommands(log)...)
}

func oneArg(c *cli.Context, what string) (string, error) {
	if c.NArg() != 1 {
		return "", badInput(fmt.Errorf("%s: expected one %s argument, got %d", c.Command.Name, what, c.NArg()))
	}
	return c.Args().First(), nil
}

// loadImage reads a .ptx, an smsim disassembly or a binary image.
func loadImage(path string) (*isa.Image, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, badInput(err)
	}
	im, err := device.ReadImage(path, data)
	if err != nil {
		return nil, badInput(err)
	}
	return im, nil
}

// imageArg loads the image named by the command's one argument (usage
// names it), returning its path too.
func imageArg(c *cli.Context, usage string) (string, *isa.Image, error) {
	path, err := oneArg(c, usage)
	if err != nil {
		return "", nil, err
	}
	im, err := loadImage(path)
	return path, im, err
}

func cmdAsm(c *cli.Context) error {
	path, im, err := imageArg(c, "FILE.ptx")
	if err != nil {
		return err
	}
	if c.Bool("stats") {
		return writeStats(c.App.Writer, im)
	}
	out := c.String("o")
	if out == "" {
		out = strings.TrimSuffix(path, ".ptx") + ".bin"
	}
	if err := os.WriteFile(out, im.Marshal(), 0o644); err != nil {
		return badInput(err)
	}
	return nil
}

func writeStats(w io.Writer, im *isa.Image) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "kernel\tinstructions\tregs/thread\tpreds/thread\tshared bytes\tlocal bytes\tparam bytes\tmaxnreg")
	for _, k := range im.Kernels {
		n := 0
		for _, f := range im.Funcs {
			if f.Name == k.Name {
				n = int(f.End - f.PC)
			}
		}
		maxn := "-"
		if k.MaxNReg > 0 {
			maxn = fmt.Sprint(k.MaxNReg)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%s\n", k.Name, n, k.Regs, k.Preds, k.SharedBytes, k.LocalBytes, k.ParamBytes, maxn)
	}
	fmt.Fprintf(tw, "(module: %d instructions in %d functions, %d bytes of global data, %d constants)\n", len(im.Code), len(im.Funcs), len(im.Data), len(im.Consts))
	return tw.Flush()
}

func cmdDisasm(c *cli.Context) error {
	_, im, err := imageArg(c, "FILE.bin")
	if err != nil {
		return err
	}
	out := c.String("o")
	if out == "" {
		if err := isa.Disassemble(im, c.App.Writer); err != nil {
			return abnormal(err)
		}
		return nil
	}
	f, err := os.Create(out)
	if err != nil {
		return badInput(err)
	}
	err = isa.Disassemble(im, f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return abnormal(fmt.Errorf("-o %s: %v", out, err))
	}
	return nil
}
