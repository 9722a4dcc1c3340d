package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"codectx/pkg/codectx"
)

func init() { commands = append(commands, evalMapCmd) }

func evalMapCmd() *cobra.Command {
	var (
		root   string
		budget []int
		ranks  []string
		focus  []string
		asJSON bool
	)
	c := &cobra.Command{
		Use:   "eval-map GOLDEN.jsonl",
		Short: "Share of a golden set's target symbols shown by repository maps (PageRank vs. baselines)",
		Long: `Build the project's repository map (as "codectx map" does, without focus)
for every ranking and budget, and count the golden set's symbol targets it
shows. The baselines rank by incoming references alone (refs) and by file
size (size).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			for _, b := range budget {
				if b < codectx.MinMapBudget {
					return usagef("--budget must be at least %d, got %d", codectx.MinMapBudget, b)
				}
			}
			for _, r := range ranks {
				switch r {
				case codectx.MapRankPageRank, codectx.MapRankRefs, codectx.MapRankSize, codectx.MapRankUniform:
				default:
					return usagef("--rank must be pagerank, pagerank-uniform, refs or size, got %q", r)
				}
			}
			set, p, err := openGoldenSet(cmd, args[0], root, asJSON)
			if err != nil {
				return err
			}
			defer p.Close()
			rows, err := p.EvaluateMap(cmd.Context(), set, ranks, budget, focus)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), rows)
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "%s: %d tasks, root %s\n\n", filepath.Base(args[0]), len(set.Tasks), p.Root())
			fmt.Fprintf(w, "%-16s %6s | %6s %7s %5s | %7s %6s %6s\n", "rank", "budget", "share", "targets", "found", "tokens", "shown", "named")
			for _, r := range rows {
				fmt.Fprintf(w, "%-16s %6d | %6.3f %7d %5d | %7d %6d %6d\n", r.Rank, r.Budget, r.Coverage.Share(), r.Coverage.Targets, r.Coverage.Found, r.Tokens, r.Shown, r.Named)
			}
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVar(&root, "root", "", "project root (default: the golden set's header root; a root that holds the header root reads the targets in their directory of it)")
	fl.IntSliceVar(&budget, "budget", []int{2000, 4000}, "token budget(s), comma-separated")
	fl.StringSliceVar(&ranks, "rank", []string{codectx.MapRankPageRank, codectx.MapRankUniform, codectx.MapRankRefs, codectx.MapRankSize}, "rankings, comma-separated")
	fl.StringSliceVar(&focus, "focus", nil, "files, directories or symbols every map is personalised toward (default none)")
	fl.BoolVar(&asJSON, "json", false, "print the rows as JSON")
	return c
}
