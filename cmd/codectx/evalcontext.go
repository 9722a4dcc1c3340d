package main

import (
	"errors"
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
		git    gitFlags
	)
	c := &cobra.Command{
		Use:   "eval-context GOLDEN.jsonl | eval-context --from-git [PATH]",
		Short: "Score assembled contexts against a golden set (share of tasks whose target is in the context)",
		Long: `Assemble a context (as "codectx context" does) for every task of a golden set
and count the tasks whose target — file and symbol, matched as "codectx eval"
matches them — is inside it. --budget and --depth take comma-separated lists;
every combination is run (the search behind the seeds runs once per task).
Depth 0 is the baseline: the top search results packed to the budget.
Columns: found (a target inside), all (every target inside), share (mean
share of a task's targets inside), file / symbol (a target's file / symbol
inside), tokens (of the context), wire (of the context JSON-escaped, as an
MCP answer carries it), chunks.

With --from-git, the tasks are change requests mined from the project's own
history, as "codectx eval --from-git" mines them: the commit message asks for
the files the commit changed. "all" is then the share of change requests whose
every changed file is in the context, "share" the mean share of a request's
files inside; kind "change-leaky" counts the messages that name a target file
or one of its symbols apart from "change".`,
		Args: cobra.RangeArgs(0, 1),
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
			var (
				set  *codectx.GoldenSet
				p    *codectx.Project
				name string
				err  error
			)
			if git.fromGit {
				if root != "" {
					return usagef("--from-git takes PATH as its only argument; --root does not apply")
				}
				opt, err := git.options()
				if err != nil {
					return err
				}
				path, err := pathArg(args, "")
				if err != nil {
					return err
				}
				if p, err = openIndexedProject(cmd, path, asJSON); err != nil {
					return err
				}
				defer p.Close()
				var st *codectx.GitMineStats
				set, st, err = p.GitGoldenSet(cmd.Context(), opt)
				if errors.Is(err, codectx.ErrNoGitHistory) {
					return usagef("%v (--from-git needs a git repository with commits)", err)
				}
				if err != nil {
					return err
				}
				if !asJSON {
					printMineStats(cmd.OutOrStdout(), p.Root(), opt, *st, len(set.Tasks))
				}
				if len(set.Tasks) == 0 && !asJSON {
					fmt.Fprintln(cmd.OutOrStdout(), "no tasks: nothing to score")
					return nil
				}
				name = "git history"
			} else {
				if len(args) != 1 {
					return usagef("eval-context needs a golden set (GOLDEN.jsonl), or --from-git")
				}
				if err := git.unused(); err != nil {
					return err
				}
				if set, p, err = openGoldenSet(cmd, args[0], root, asJSON); err != nil {
					return err
				}
				defer p.Close()
				name = filepath.Base(args[0])
			}
			start := time.Now()
			reps, err := p.EvaluateContext(cmd.Context(), set, codectx.ContextEvalOptions{Runs: runs, K: k})
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), reps)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: %d tasks, root %s, %d seeds, %.0f ms per task (all runs)\n\n",
				name, len(set.Tasks), p.Root(), k, float64(time.Since(start).Milliseconds())/float64(max(len(set.Tasks), 1)))
			printContextReports(cmd.OutOrStdout(), reps)
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVar(&root, "root", "", "project root (default: the golden set's header root; a root that holds the header root reads the targets in their directory of it)")
	fl.IntSliceVar(&budget, "budget", []int{codectx.DefaultContextBudget}, "token budget(s), comma-separated")
	fl.StringSliceVar(&depths, "depth", []string{"auto"}, "depth(s): auto, 0, 1, 2, comma-separated")
	fl.IntVar(&k, "seeds", codectx.DefaultContextSeeds, "search results used as seeds")
	fl.BoolVar(&asJSON, "json", false, "print the reports as JSON")
	git.register(fl)
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
