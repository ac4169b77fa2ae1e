package main

import (
	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"
)

// extraCommands lists the commands that run the model.
func extraCommands(log *logrus.Logger) []*cli.Command {
	return nil
}
