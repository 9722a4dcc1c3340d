package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"codectx/pkg/codectx"
)

func init() { commands = append(commands, evalCmd) }

func evalCmd() *cobra.Command {
	var (
		root, mode, ranker string
		k                  int
		asJSON, noLexicon  bool
		git                gitFlags
	)
	c := &cobra.Command{
		Use:   "eval GOLDEN.jsonl | eval --from-git [PATH]",
		Short: "Score search against a golden set (Recall@1/5/10, MRR@10 at file and symbol level)",
		Long: `Run every task of a golden set (JSON Lines: an optional {"root": ...} header,
then {"id","query","lang","kind","targets":[{"file","symbol"}]} per line) as a
search over the set's root, indexing it first when needed (incrementally), and
print Recall@1/5/10 and MRR@10 at file and symbol level, overall, per query
language and per task kind, followed by the missed tasks.

With --from-git, the tasks come from the project's own history instead:
every non-merge commit that changed 1..--max-files non-test source files and
has a descriptive subject asks for the files it changed (at their current
paths), with the commit message as the query. File ranks count distinct
files; queries that name a target file or one of its symbols are reported
apart as leaky.`,
		Args: cobra.RangeArgs(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if git.fromGit {
				if k != 10 || root != "" || noLexicon {
					return usagef("--from-git takes PATH as its only argument; -k, --root and --no-lexicon do not apply")
				}
				// The flags alone: each task's query is checked by the search.
				if err := checkSearch(codectx.SearchOptions{Query: "flags", K: k, Mode: mode, Ranker: ranker}); err != nil {
					return err
				}
				opt, err := git.options()
				if err != nil {
					return err
				}
				opt.Mode, opt.Ranker = mode, ranker
				path, err := pathArg(args, "")
				if err != nil {
					return err
				}
				return runGitEval(cmd, path, opt, asJSON)
			}
			if len(args) != 1 {
				return usagef("eval needs a golden set (GOLDEN.jsonl), or --from-git")
			}
			if err := git.unused(); err != nil {
				return err
			}
			if err := checkSearch(codectx.SearchOptions{Query: "flags", K: k, Mode: mode, Ranker: ranker}); err != nil {
				return err
			}
			set, p, err := openGoldenSet(cmd, args[0], root, asJSON)
			if err != nil {
				return err
			}
			defer p.Close()
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
	f.StringVar(&root, "root", "", "project root (default: the golden set's header root; a root that holds the header root reads the targets in their directory of it)")
	f.IntVarP(&k, "k", "k", 10, fmt.Sprintf("results per task (1..%d)", codectx.MaxSearchK))
	f.StringVar(&mode, "mode", codectx.ModeHybrid, "hybrid, keyword or semantic")
	f.StringVar(&ranker, "ranker", codectx.RankerDefault, "default or seed")
	f.BoolVar(&asJSON, "json", false, "print the report as JSON")
	f.BoolVar(&noLexicon, "no-lexicon", false, "parse queries without expansions: no Chinese→English lexicon or dictionary translations, no English synonyms")
	git.register(f)
	return c
}

// gitFlags are the flags that mine tasks from a git history (eval and
// eval-context).
type gitFlags struct {
	fromGit            bool
	since, before      string
	maxTasks, maxFiles int
	minFiles           int
	seed               uint64
}

func (g *gitFlags) register(f *pflag.FlagSet) {
	f.BoolVar(&g.fromGit, "from-git", false, "mine the tasks from the git history of PATH (default .) instead of a golden set")
	f.StringVar(&g.since, "since", "", "with --from-git: only commits newer than this (git log --since, e.g. \"2 years ago\")")
	f.StringVar(&g.before, "before", "", "with --from-git: only commits older than this become tasks (2006-01-02 or RFC 3339; newer ones are still read for renames)")
	f.IntVar(&g.maxTasks, "max", 0, "with --from-git: sample this many tasks (fixed sample; 0 = all)")
	f.IntVar(&g.maxFiles, "max-files", 0, "with --from-git: most non-test source files a commit may change (0 = 3)")
	f.IntVar(&g.minFiles, "min-files", 0, "with --from-git: fewest non-test source files a commit must change (0 = 1; 2 keeps multi-file changes)")
	f.Uint64Var(&g.seed, "seed", 0, fmt.Sprintf("with --from-git: sampling seed (0 = %d)", codectx.DefaultGitSeed))
}

// options checks the flags and returns the mining options they set.
func (g *gitFlags) options() (codectx.GitEvalOptions, error) {
	if g.maxTasks < 0 || g.maxFiles < 0 || g.minFiles < 0 {
		return codectx.GitEvalOptions{}, usagef("--max, --max-files and --min-files must not be negative")
	}
	if most := cmp.Or(g.maxFiles, 3); g.minFiles > most {
		return codectx.GitEvalOptions{}, usagef("--min-files %d is above --max-files (%d)", g.minFiles, most)
	}
	var cut time.Time
	if g.before != "" {
		var err error
		if cut, err = time.Parse(time.RFC3339, g.before); err != nil {
			if cut, err = time.Parse("2006-01-02", g.before); err != nil {
				return codectx.GitEvalOptions{}, usagef("--before %q: want a date (2006-01-02) or an RFC 3339 time (2006-01-02T15:04:05Z)", g.before)
			}
		}
	}
	return codectx.GitEvalOptions{Since: g.since, Before: cut, Max: g.maxTasks, Seed: g.seed, MaxFiles: g.maxFiles, MinFiles: g.minFiles}, nil
}

// unused refuses the mining flags without --from-git.
func (g *gitFlags) unused() error {
	if g.since != "" || g.before != "" || g.maxTasks != 0 || g.maxFiles != 0 || g.minFiles != 0 || g.seed != 0 {
		return usagef("--since, --before, --max, --max-files, --min-files and --seed only apply with --from-git")
	}
	return nil
}

// openIndexedProject opens the project at root for an evaluation, indexed
// incrementally first (progress and a summary line on stderr unless quiet).
func openIndexedProject(cmd *cobra.Command, root string, quiet bool) (*codectx.Project, error) {
	p, err := openProject(root, openWrite, false)
	if err != nil {
		return nil, err
	}
	prog := newProgress(os.Stderr, quiet)
	sum, err := p.Index(cmd.Context(), codectx.IndexOptions{Progress: prog.update})
	prog.finish()
	if err != nil {
		p.Close()
		return nil, fmt.Errorf("index %s: %w", p.Root(), err)
	}
	if !quiet && sum.Changed+sum.Removed > 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "indexed %s: %d changed, %d removed, %d chunks\n", p.Root(), sum.Changed, sum.Removed, sum.TotalChunks)
	}
	return p, nil
}

// runGitEval indexes root and scores search on its git history.
func runGitEval(cmd *cobra.Command, root string, opt codectx.GitEvalOptions, asJSON bool) error {
	p, err := openIndexedProject(cmd, root, asJSON)
	if err != nil {
		return err
	}
	defer p.Close()
	rep, err := p.EvaluateGit(cmd.Context(), opt)
	if errors.Is(err, codectx.ErrNoGitHistory) {
		return usagef("%v (--from-git needs a git repository with commits)", err)
	}
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(cmd.OutOrStdout(), rep)
	}
	printGitReport(cmd.OutOrStdout(), p.Root(), opt, rep)
	return nil
}

// printMineStats says what the mining of a git history kept and skipped.
func printMineStats(w io.Writer, root string, opt codectx.GitEvalOptions, m codectx.GitMineStats, tasks int) {
	fmt.Fprintf(w, "git history of %s: %d commits read, %d qualify", root, m.Commits, m.Candidates)
	if m.Sampled > 0 {
		fmt.Fprintf(w, ", %d sampled (--max %d)", tasks, opt.Max)
	}
	fmt.Fprintf(w, "\nskipped: %d without a non-test source file, %d with too many, %d with a vague subject, %d whose files are gone",
		m.NoSource, m.TooMany, m.Vague, m.Gone)
	if m.TooFew > 0 {
		fmt.Fprintf(w, ", %d with fewer than --min-files", m.TooFew)
	}
	if m.Later > 0 {
		fmt.Fprintf(w, ", %d made at or after --before", m.Later)
	}
	fmt.Fprint(w, "\n\n")
}

func printGitReport(w io.Writer, root string, opt codectx.GitEvalOptions, r *codectx.GitEvalReport) {
	printMineStats(w, root, opt, r.Mine, len(r.Outcomes))
	if len(r.Outcomes) == 0 {
		fmt.Fprintln(w, "no tasks: nothing to score")
		return
	}
	fmt.Fprintf(w, "%-26s %5s | %6s %6s %6s %7s\n", "file level (distinct files)", "tasks", "R@1", "R@5", "R@10", "MRR@10")
	row := func(name string, g codectx.GitFileGroup) {
		fmt.Fprintf(w, "%-26s %5d | %6.3f %6.3f %6.3f %7.3f\n", name, g.Tasks, g.File.Recall1, g.File.Recall5, g.File.Recall10, g.File.MRR10)
	}
	row("clean (no target named)", r.Clean)
	row("leaky (target named)", r.Leaky)
	row("all", r.All)
	var missed []codectx.GitOutcome
	for _, o := range r.Outcomes {
		if o.FileRank == 0 {
			missed = append(missed, o)
		}
	}
	if len(missed) == 0 {
		return
	}
	fmt.Fprintf(w, "\nmisses (no target file in the first 10): %d\n", len(missed))
	for _, o := range missed {
		leak := ""
		if o.Leaky {
			leak = " [leaky]"
		}
		fmt.Fprintf(w, "  %s%s: %s\n      expected: %s\n      got:      %s\n", o.ID, leak, oneLine(o.Query, 160),
			strings.Join(o.Targets, ", "), strings.Join(o.Got, ", "))
	}
}

// oneLine puts a commit message on one line, cut to n runes with an
// ellipsis.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
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
	for _, k := range slices.Sorted(maps.Keys(r.ByLang)) {
		row("lang "+k, r.ByLang[k])
	}
	for _, k := range slices.Sorted(maps.Keys(r.ByKind)) {
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

// openGoldenSet reads the golden set at path and opens its project (root,
// else the set's header root), indexed incrementally first with progress
// on stderr (quiet: no progress and no summary line).
func openGoldenSet(cmd *cobra.Command, path, root string, quiet bool) (*codectx.GoldenSet, *codectx.Project, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("open golden set: %w", err)
	}
	set, err := codectx.ParseGoldenSet(f, envLookup(cmd.Context()))
	f.Close()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if root == "" {
		root = set.Root
	} else if set.Root != "" {
		// A root holding the set's root: its targets are files of a
		// directory of the project.
		abs, err := filepath.Abs(root)
		if err != nil {
			return nil, nil, fmt.Errorf("--root %s: %w", root, err)
		}
		if rel, err := filepath.Rel(abs, set.Root); err == nil && rel != "." && filepath.IsLocal(rel) {
			set = set.Under(rel)
		}
	}
	if root == "" {
		return nil, nil, usagef("%s has no {\"root\": ...} header: pass --root PATH", path)
	}
	p, err := openIndexedProject(cmd, root, quiet)
	if err != nil {
		return nil, nil, err
	}
	return set, p, nil
}
