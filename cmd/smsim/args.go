package main

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// permuteArgs moves a command's flags in front of its positional arguments,
// so that "smsim asm FILE.ptx -o FILE.bin" works as users type it (the CLI
// library stops parsing flags at the first positional argument).
func permuteArgs(app *cli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	// Global flags come before the command name.
	i := 1
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		if !strings.Contains(args[i], "=") && takesValue(app.Flags, args[i]) {
			i++
		}
		i++
	}
	if i >= len(args) {
		return args
	}
	cmd := app.Command(args[i])
	if cmd == nil {
		return args
	}
	var flags, pos []string
	rest := args[i+1:]
	for j := 0; j < len(rest); j++ {
		a := rest[j]
		if a == "--" {
			pos = append(pos, rest[j:]...)
			break
		}
		if strings.HasPrefix(a, "-") && a != "-" {
			flags = append(flags, a)
			if !strings.Contains(a, "=") && takesValue(cmd.Flags, a) && j+1 < len(rest) {
				j++
				flags = append(flags, rest[j])
			}
			continue
		}
		pos = append(pos, a)
	}
	out := append([]string(nil), args[:i+1]...)
	out = append(out, flags...)
	return append(out, pos...)
}

func takesValue(fs []cli.Flag, arg string) bool {
	name := strings.TrimLeft(arg, "-")
	for _, f := range fs {
		for _, n := range f.Names() {
			if n == name {
				_, isBool := f.(*cli.BoolFlag)
				return !isBool
			}
		}
	}
	return false
}
