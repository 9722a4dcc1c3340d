package main

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"codectx/pkg/codectx"
)

func init() { commands = append(commands, evalContextCmd) }

func evalContextCmd() *cobra.Command {
	var (
		root   string
		depths []string
		budget []int
		k      int
		asJSON bool
	)
	c := &cobra.Command{
		Use:   "eval-context GOLDEN.jsonl",
		Short: "Score assembled contexts against a golden set (share of tasks whose target is in the context)",
		Long: `Assemble a context (as "codectx context" does) for every task of a golden set
and count the tasks whose target — file and symbol, matched as "codectx eval"
matches them — is inside it. --budget and --depth take comma-separated lists;
every combination is run (the search behind the seeds runs once per task).
Depth 0 is the baseline: the top search results packed to the budget.
Columns: found (a target inside), all (every target inside), share (mean
share of a task's targets inside), file / symbol (a target's file / symbol
inside), tokens (of the context), wire (of the context JSON-escaped, as an
MCP answer carries it), chunks.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var runs []codectx.ContextRun
			for _, b := range budget {
				if b < 1 {
					return usagef("--budget must be positive, got %d", b)
				}
				for _, d := range depths {
					switch d {
					case "auto", "0", "1", "2":
					default:
						return usagef("--depth must be auto, 0, 1 or 2, got %q", d)
					}
					runs = append(runs, codectx.ContextRun{Budget: b, Depth: d})
				}
			}
			if k < 1 || k > codectx.MaxSearchK {
				return usagef("--seeds must be between 1 and %d, got %d", codectx.MaxSearchK, k)
			}
			set, p, err := openGoldenSet(cmd, args[0], root, asJSON)
			if err != nil {
				return err
			}
			defer p.Close()
			start := time.Now()
			reps, err := p.EvaluateContext(cmd.Context(), set, codectx.ContextEvalOptions{Runs: runs, K: k})
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), reps)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: %d tasks, root %s, %d seeds, %.0f ms per task (all runs)\n\n",
				filepath.Base(args[0]), len(set.Tasks), p.Root(), k, float64(time.Since(start).Milliseconds())/float64(max(len(set.Tasks), 1)))
			printContextReports(cmd.OutOrStdout(), reps)
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVar(&root, "root", "", "project root (default: the golden set's header root)")
	fl.IntSliceVar(&budget, "budget", []int{codectx.DefaultContextBudget}, "token budget(s), comma-separated")
	fl.StringSliceVar(&depths, "depth", []string{"auto"}, "depth(s): auto, 0, 1, 2, comma-separated")
	fl.IntVar(&k, "seeds", codectx.DefaultContextSeeds, "search results used as seeds")
	fl.BoolVar(&asJSON, "json", false, "print the reports as JSON")
	return c
}

func printContextReports(w io.Writer, reps []codectx.ContextEvalReport) {
	kinds := map[string]bool{}
	for _, r := range reps {
		for k := range r.Report.ByKind {
			kinds[k] = true
		}
	}
	var kindList []string
	for _, k := range []string{"implementation", "usage", "location"} {
		if kinds[k] {
			kindList = append(kindList, k)
			delete(kinds, k)
		}
	}
	rest := make([]string, 0, len(kinds))
	for k := range kinds {
		rest = append(rest, k)
	}
	sort.Strings(rest)
	kindList = append(kindList, rest...)
	head := fmt.Sprintf("%6s %5s | %6s %6s %6s %6s %6s", "budget", "depth", "found", "all", "share", "file", "symbol")
	for _, k := range kindList {
		head += fmt.Sprintf(" %8.8s", k)
	}
	head += fmt.Sprintf(" | %7s %6s %6s", "tokens", "wire", "chunks")
	fmt.Fprintln(w, head)
	fmt.Fprintln(w, strings.Repeat("-", len(head)))
	for _, r := range reps {
		o := r.Report.Overall
		line := fmt.Sprintf("%6d %5s | %6.3f %6.3f %6.3f %6.3f %6.3f", r.Budget, r.Depth, o.Found, o.AllFound, o.MeanShare, o.FileFound, o.SymbolFound)
		for _, k := range kindList {
			line += fmt.Sprintf(" %8.3f", r.Report.ByKind[k].Found)
		}
		line += fmt.Sprintf(" | %7.0f %6.0f %6.1f", o.MeanTokens, o.MeanWireTokens, o.MeanChunks)
		fmt.Fprintln(w, line)
	}
}
