package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func init() { commands = append(commands, overviewCmd) }

func overviewCmd() *cobra.Command {
	var noIndex bool
	var (
		root   string
		asJSON bool
	)
	c := &cobra.Command{
		Use:   "overview [PATH]",
		Short: "A project overview in about 1,500 tokens: languages, packages, entry points, hubs, tests, index freshness",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := pathArg(args, root)
			if err != nil {
				return err
			}
			p, err := openIndexed(cmd, root, noIndex)
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
	rootFlag(c, &root)
	noIndexFlag(c, &noIndex)
	c.Flags().BoolVar(&asJSON, "json", false, "print the overview as JSON")
	return c
}
