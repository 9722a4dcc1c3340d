package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"codectx/pkg/codectx"
)

func init() { commands = append(commands, mapCmd) }

func mapCmd() *cobra.Command {
	var noIndex bool
	var (
		root, rank string
		budget     int
		focus      []string
		asJSON     bool
	)
	c := &cobra.Command{
		Use:   "map [PATH]",
		Short: "A map of the project's most important files, types and functions, cut to a token budget",
		Long: `Rank the project's definitions by PageRank over the resolved relations
(calls, implements, extends, imports, contains), personalised toward --focus
(files, directories or symbols you are working on), and print files with
their key types and functions as signatures, within --budget tokens
(cl100k_base). Left-out members are counted ("… 12 more methods").`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if budget < codectx.MinMapBudget {
				return usagef("--budget must be at least %d tokens, got %d", codectx.MinMapBudget, budget)
			}
			switch rank {
			case codectx.MapRankPageRank, codectx.MapRankRefs, codectx.MapRankSize, codectx.MapRankUniform:
			default:
				return usagef("--rank must be pagerank, pagerank-uniform, refs or size, got %q", rank)
			}
			root, err := pathArg(args, root)
			if err != nil {
				return err
			}
			var items []string
			for _, f := range focus {
				for _, s := range strings.Split(f, ",") {
					if s = strings.TrimSpace(s); s != "" {
						items = append(items, s)
					}
				}
			}
			p, err := openIndexed(cmd, root, noIndex)
			if err != nil {
				return err
			}
			defer p.Close()
			m, err := p.Map(cmd.Context(), codectx.MapOptions{Budget: budget, Focus: items, Rank: rank})
			if errors.Is(err, codectx.ErrBudgetTooSmall) {
				return usageError{err.Error() + ": raise --budget"}
			}
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), m)
			}
			for _, w := range m.Warnings {
				fmt.Fprintln(cmd.ErrOrStderr(), "warning: "+w)
			}
			fmt.Fprint(cmd.OutOrStdout(), m.Text())
			return nil
		},
	}
	f := c.Flags()
	rootFlag(c, &root)
	noIndexFlag(c, &noIndex)
	f.IntVar(&budget, "budget", codectx.DefaultMapBudget, "most tokens of the map (cl100k_base)")
	f.StringSliceVar(&focus, "focus", nil, "files, directories or symbols to rank toward, comma-separated or repeated")
	f.StringVar(&rank, "rank", codectx.MapRankPageRank, "ranking: pagerank, or the baselines pagerank-uniform, refs and size (for evaluation)")
	f.BoolVar(&asJSON, "json", false, "print the map as JSON")
	return c
}
