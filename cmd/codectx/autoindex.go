package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"codectx/pkg/codectx"
)

// interactive reports whether a person is watching stderr: commands that
// need an index build it first there, with the progress bar. A variable so
// tests can play the person.
var interactive = func() bool { return term.IsTerminal(int(os.Stderr.Fd())) }

// noIndexFlag adds --no-index to a command that reads the index.
func noIndexFlag(c *cobra.Command, dst *bool) {
	c.Flags().BoolVar(dst, "no-index", false, "never build a missing index first (the default without a terminal)")
}

// openIndexed opens the project at root for a command that reads its
// index. A project never indexed is indexed first, with progress on
// stderr, when a person runs the command on a terminal and did not pass
// --no-index; otherwise the command fails with "not indexed" (and the hint
// to run codectx index), creating nothing.
func openIndexed(cmd *cobra.Command, root string, noIndex bool) (*codectx.Project, error) {
	p, err := openProject(root, openRead, false)
	var indexed bool
	switch {
	case err == nil:
		if indexed, err = p.Indexed(cmd.Context()); err != nil || indexed {
			if err != nil {
				p.Close()
				return nil, err
			}
			return p, nil
		}
		p.Close()
		err = codectx.ErrNotIndexed
	case !errors.Is(err, codectx.ErrNoIndex):
		return nil, err
	}
	if noIndex || !interactive() {
		return nil, err
	}
	p, err = openProject(root, openWrite, false)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "%s is not indexed yet: indexing it first (--no-index skips this)\n", p.Root())
	prog := newProgress(cmd.ErrOrStderr(), false)
	sum, err := p.Index(cmd.Context(), codectx.IndexOptions{Progress: prog.update})
	prog.finish()
	if err != nil {
		p.Close()
		return nil, err
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "indexed %s in %.1fs\n", plural(sum.TotalChunks, "chunk"), sum.ElapsedSec)
	return p, nil
}
