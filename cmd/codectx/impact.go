package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"codectx/pkg/codectx"
)

func init() { commands = append(commands, impactCmd) }

func impactCmd() *cobra.Command {
	var (
		root, base string
		depth      int
		asJSON     bool
	)
	c := &cobra.Command{
		Use:   "impact [PATH]",
		Short: "What the current change touches: changed symbols, their callers, dependants and tests, and a risk summary",
		Long: `Compare the work tree (staged, unstaged and untracked files; renames and
deletions) with --base (default HEAD), map the diff hunks onto the indexed
symbols (old and new side), then list their direct callers and implementers,
what depends on them up to --depth hops, the test files that reach them, and
a risk summary (fan-in, public API), and the files the change leaves alone
that usually changed together with a changed file in the git history. Outside
git, the files changed since the last index are the change. A stale index is
re-indexed first.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if depth < 1 || depth > codectx.MaxImpactDepth {
				return usagef("--depth must be between 1 and %d, got %d", codectx.MaxImpactDepth, depth)
			}
			root, err := pathArg(args, root)
			if err != nil {
				return err
			}
			p, err := openProject(root, openWrite, false)
			if err != nil {
				return err
			}
			defer p.Close()
			r, err := p.Impact(cmd.Context(), codectx.ImpactOptions{Base: base, Depth: depth})
			switch {
			case errors.Is(err, codectx.ErrBadBase):
				return usageError{err.Error() + " (give a branch, tag or commit to --base)"}
			case errors.Is(err, codectx.ErrNotGit):
				return usageError{err.Error()}
			case err != nil:
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), r)
			}
			fmt.Fprint(cmd.OutOrStdout(), r.Text())
			return nil
		},
	}
	f := c.Flags()
	rootFlag(c, &root)
	f.StringVar(&base, "base", "", "git ref to compare the work tree with (default HEAD)")
	f.IntVar(&depth, "depth", codectx.DefaultImpactDepth, "hops of callers and dependants to follow")
	f.BoolVar(&asJSON, "json", false, "print the impact as JSON")
	return c
}
