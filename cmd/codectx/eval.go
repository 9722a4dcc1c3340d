package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"codectx/pkg/codectx"
)

func init() { commands = append(commands, evalCmd) }

func evalCmd() *cobra.Command {
	var (
		root, mode, ranker string
		k                  int
		asJSON, noLexicon  bool
	)
	c := &cobra.Command{
		Use:   "eval GOLDEN.jsonl",
		Short: "Score search against a golden set (Recall@1/5/10, MRR@10 at file and symbol level)",
		Long: `Run every task of a golden set (JSON Lines: an optional {"root": ...} header,
then {"id","query","lang","kind","targets":[{"file","symbol"}]} per line) as a
search over the set's root, indexing it first when needed (incrementally), and
print Recall@1/5/10 and MRR@10 at file and symbol level, overall, per query
language and per task kind, followed by the missed tasks.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkSearchFlags(k, mode, ranker); err != nil {
				return err
			}
			f, err := os.Open(args[0])
			if err != nil {
				return fmt.Errorf("open golden set: %w", err)
			}
			set, err := codectx.ParseGoldenSet(f, envLookup(cmd.Context()))
			f.Close()
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			if root == "" {
				root = set.Root
			}
			if root == "" {
				return usagef("%s has no {\"root\": ...} header: pass --root PATH", args[0])
			}
			p, err := openProject(root, openWrite, false)
			if err != nil {
				return err
			}
			defer p.Close()
			prog := newProgress(os.Stderr, asJSON)
			sum, err := p.Index(cmd.Context(), codectx.IndexOptions{Progress: prog.update})
			prog.finish()
			if err != nil {
				return fmt.Errorf("index %s: %w", p.Root(), err)
			}
			if !asJSON && sum.Changed+sum.Removed > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "indexed %s: %d changed, %d removed, %d chunks\n", p.Root(), sum.Changed, sum.Removed, sum.TotalChunks)
			}
			start := time.Now()
			rep, err := p.Evaluate(cmd.Context(), set, codectx.EvalOptions{K: k, Mode: mode, Ranker: ranker, NoLexicon: noLexicon})
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), rep)
			}
			el := time.Since(start)
			lex := ""
			if noLexicon {
				lex = ", no lexicon"
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: %d tasks, root %s, mode %s, ranker %s, k %d%s, %.0f ms per query\n\n",
				filepath.Base(args[0]), rep.Tasks, p.Root(), mode, ranker, k, lex, float64(el.Milliseconds())/float64(max(rep.Tasks, 1)))
			printReport(cmd.OutOrStdout(), rep)
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&root, "root", "", "project root (default: the golden set's header root)")
	f.IntVarP(&k, "k", "k", 10, fmt.Sprintf("results per task (1..%d)", codectx.MaxSearchK))
	f.StringVar(&mode, "mode", codectx.ModeHybrid, "hybrid, keyword or semantic")
	f.StringVar(&ranker, "ranker", codectx.RankerDefault, "default or seed")
	f.BoolVar(&asJSON, "json", false, "print the report as JSON")
	f.BoolVar(&noLexicon, "no-lexicon", false, "parse queries without expansions: no Chinese→English lexicon translations, no English synonyms")
	return c
}

// envLookup expands variables in a golden set's root from the environment.
// $GOROOT defaults to `go env GOROOT` (run only when GOROOT is unset) and
// $HOME to the user's home directory.
func envLookup(ctx context.Context) func(string) string {
	return func(name string) string {
		if v, ok := os.LookupEnv(name); ok {
			return v
		}
		switch name {
		case "GOROOT":
			ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			out, err := exec.CommandContext(ctx, "go", "env", "GOROOT").Output()
			if err == nil {
				return strings.TrimSpace(string(out))
			}
		case "HOME":
			if h, err := os.UserHomeDir(); err == nil {
				return h
			}
		}
		return ""
	}
}

func printReport(w io.Writer, r *codectx.EvalReport) {
	fmt.Fprintf(w, "%-22s %5s | %-28s | %-28s\n", "", "", "file", "symbol")
	fmt.Fprintf(w, "%-22s %5s | %6s %6s %6s %7s | %6s %6s %6s %7s\n", "group", "tasks", "R@1", "R@5", "R@10", "MRR@10", "R@1", "R@5", "R@10", "MRR@10")
	row := func(name string, g codectx.EvalGroup) {
		fmt.Fprintf(w, "%-22s %5d | %6.3f %6.3f %6.3f %7.3f | %6.3f %6.3f %6.3f %7.3f\n", name, g.Tasks,
			g.File.Recall1, g.File.Recall5, g.File.Recall10, g.File.MRR10,
			g.Symbol.Recall1, g.Symbol.Recall5, g.Symbol.Recall10, g.Symbol.MRR10)
	}
	row("overall", r.Overall)
	for _, k := range codectx.EvalKeys(r.ByLang) {
		row("lang "+k, r.ByLang[k])
	}
	for _, k := range codectx.EvalKeys(r.ByKind) {
		row("kind "+k, r.ByKind[k])
	}
	if len(r.Misses) == 0 {
		fmt.Fprintln(w, "\nno misses")
		return
	}
	fmt.Fprintf(w, "\nmisses (no symbol hit in the top 10): %d\n", len(r.Misses))
	for _, m := range r.Misses {
		fr := "file not found"
		if m.FileRank > 0 {
			fr = fmt.Sprintf("file at rank %d", m.FileRank)
		}
		fmt.Fprintf(w, "  %s (%s): %s\n", m.ID, fr, m.Query)
		fmt.Fprintf(w, "      expected: %s\n", strings.Join(m.Expected, ", "))
		got := m.Got
		if got == "" {
			got = "(no results)"
		}
		fmt.Fprintf(w, "      got:      %s\n", got)
	}
}
