package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func init() { commands = append(commands, overviewCmd) }

func overviewCmd() *cobra.Command {
	var (
		root   string
		asJSON bool
	)
	c := &cobra.Command{
		Use:   "overview [PATH]",
		Short: "A project overview in about 1,500 tokens: languages, packages, entry points, hubs, tests, index freshness",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				root = args[0]
			}
			p, err := openProject(root, openRead, false)
			if err != nil {
				return err
			}
			defer p.Close()
			o, err := p.Overview(cmd.Context())
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), o)
			}
			fmt.Fprint(cmd.OutOrStdout(), o.Text())
			return nil
		},
	}
	c.Flags().StringVar(&root, "root", ".", "project root (or PATH)")
	c.Flags().BoolVar(&asJSON, "json", false, "print the overview as JSON")
	return c
}
