// Command smsim is the command line of the smsim SM model: assemble and
// disassemble PTX, run kernels, cosimulate, sweep configurations.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"
)

func main() {
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// run builds the application and returns the process exit code: 0 success,
// 1 the kernel ended abnormally (or a comparison failed), 2 bad input.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	log := logrus.New()
	log.SetOutput(stderr)
	log.SetFormatter(&logrus.TextFormatter{DisableTimestamp: true})
	app := newApp(log, stdin, stdout, stderr)
	if err := app.Run(permuteArgs(app, args)); err != nil {
		var ex *exitError
		if errors.As(err, &ex) {
			if ex.err != nil {
				fmt.Fprintf(stderr, "smsim: %v\n", ex.err)
			}
			return ex.code
		}
		// Commands from other packages (cosim) carry their status as cli.ExitCoder.
		var ec cli.ExitCoder
		if errors.As(err, &ec) {
			if msg := ec.Error(); msg != "" {
				fmt.Fprintf(stderr, "smsim: %s\n", msg)
			}
			return ec.ExitCode()
		}
		// Flag-parsing and usage errors from the CLI library are bad input.
		fmt.Fprintf(stderr, "smsim: %v\n", err)
		return 2
	}
	return 0
}

func newApp(log *logrus.Logger, stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	return &cli.App{
		Name:           "smsim",
		Usage:          "cycle-accurate model of one GPU streaming multiprocessor",
		Reader:         stdin,
		Writer:         stdout,
		ErrWriter:      stderr,
		ExitErrHandler: func(*cli.Context, error) {},
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "log-level", Value: "warning", Usage: "logging level on stderr: debug, info, warning, error"},
		},
		Before: func(c *cli.Context) error {
			lvl, err := logrus.ParseLevel(c.String("log-level"))
			if err != nil {
				return badInput(fmt.Errorf("--log-level: %v", err))
			}
			log.SetLevel(lvl)
			return nil
		},
		Commands: commands(log),
	}
}

// exitError carries an exit code through the CLI library.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func badInput(err error) error { return &exitError{code: 2, err: err} }
func abnormal(err error) error { return &exitError{code: 1, err: err} }
