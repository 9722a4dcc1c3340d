package main

import (
	"context"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"codectx/internal/mcp"
	"codectx/pkg/codectx"
)

func init() { commands = append(commands, mcpCmd) }

func mcpCmd() *cobra.Command {
	var (
		root    string
		noWatch bool
	)
	c := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the project to MCP clients (Claude Code, Cursor, Codex…) over stdio",
		Long: `Run a Model Context Protocol server on stdin/stdout for one project.

Tools: glob_files, grep_code, read_file (exact, no index needed), search_code,
get_context, code_graph (index), index_status and reindex. A project without
an index is indexed in the background; file changes are watched and
re-indexed incrementally. Diagnostics go to stderr (-v for more).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := openServed(cmd.Context(), root)
			if err != nil {
				return err
			}
			defer p.Close()
			// Stdout is the protocol channel: keep the real one for the
			// transport and point os.Stdout at stderr so that a stray print
			// cannot corrupt the stream.
			out := os.Stdout
			os.Stdout = os.Stderr
			defer func() { os.Stdout = out }()
			err = mcp.Serve(cmd.Context(), p, mcp.Options{NoWatch: noWatch, Logger: logger()}, os.Stdin, out)
			if err != nil && cmd.Context().Err() != nil {
				return nil // interrupted: a normal way to stop a server
			}
			return err
		},
	}
	rootFlag(c, &root)
	c.Flags().BoolVar(&noWatch, "no-watch", false, "do not watch files; run a stat pass before each search instead")
	return c
}

// openServed opens the project a server (mcp, serve) serves: root as given
// or found from the current directory, never the home directory or /.
func openServed(ctx context.Context, root string) (*codectx.Project, error) {
	abs, err := projectRoot(ctx, root)
	if err != nil {
		return nil, err
	}
	if err := checkServeRoot(abs); err != nil {
		return nil, err
	}
	return openProject(abs, openWrite, false)
}

// checkServeRoot refuses to serve the home directory or the file system
// root: MCP clients often start servers there, and indexing it in the
// background would walk everything the user owns.
func checkServeRoot(abs string) error {
	home, _ := os.UserHomeDir()
	if home != "" {
		if h, err := filepath.EvalSymlinks(home); err == nil {
			home = h
		}
	}
	if abs == filepath.Dir(abs) || (home != "" && abs == home) {
		return usagef("refusing to serve %s (the home directory or /): pass --root PROJECT_DIR (MCP clients may start servers in the home directory)", abs)
	}
	return nil
}
