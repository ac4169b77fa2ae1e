package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/smsim/smsim/config"
)

// configFlags are shared by every command that runs the model.
func configFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "config", Usage: "YAML configuration file (may name a preset with 'preset:')"},
		&cli.StringFlag{Name: "preset", Value: "h100", Usage: "base preset: " + strings.Join(config.Presets(), ", ")},
		&cli.StringSliceFlag{Name: "set", Usage: "override one key: --set sched.count=2 (repeatable)"},
	}
}

// loadConfig builds the effective configuration: preset, file, --set.
func loadConfig(c *cli.Context) (config.Config, error) {
	return loadConfigWith(c, nil)
}

// loadConfigWith is loadConfig with mid applied between the file and
// --set (a plan's own settings, which --set overrides).
func loadConfigWith(c *cli.Context, mid func(*config.Config) error) (config.Config, error) {
	cfg, err := config.Preset(c.String("preset"))
	if err != nil {
		return cfg, badInput(fmt.Errorf("--preset: %v", err))
	}
	if f := c.String("config"); f != "" {
		cfg, err = config.Load(f, cfg)
		if err != nil {
			return cfg, badInput(err)
		}
	}
	if mid != nil {
		if err := mid(&cfg); err != nil {
			return cfg, err
		}
	}
	for _, kv := range c.StringSlice("set") {
		if err := cfg.Set(kv); err != nil {
			return cfg, badInput(fmt.Errorf("--set %s: %v", kv, err))
		}
	}
	if err := cfg.Validate(); err != nil {
		return cfg, badInput(err)
	}
	return cfg, nil
}

func configCommand() *cli.Command {
	return &cli.Command{
		Name:  "config",
		Usage: "show the effective configuration or its keys",
		Flags: append(configFlags(),
			&cli.BoolFlag{Name: "dump", Usage: "print the effective configuration as YAML"},
			&cli.BoolFlag{Name: "keys", Usage: "list every settable key"},
		),
		Action: func(c *cli.Context) error {
			cfg, err := loadConfig(c)
			if err != nil {
				return err
			}
			if c.Bool("keys") {
				for _, k := range config.Keys() {
					fmt.Fprintln(c.App.Writer, k)
				}
				return nil
			}
			return cfg.Dump(c.App.Writer)
		},
	}
}
