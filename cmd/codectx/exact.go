package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"codectx/pkg/codectx"
)

func init() { commands = append(commands, globCmd, grepCmd, readCmd) }

func globCmd() *cobra.Command {
	var root string
	var opt codectx.GlobOptions
	var asJSON bool
	c := &cobra.Command{
		Use:   "glob PATTERN",
		Short: "List project files matching a doublestar pattern (no index needed)",
		Long: `List the project's files whose path matches a doublestar pattern (** crosses
directories). A pattern without a slash matches file names at any depth
('*.py' is '**/*.py'), as grep -g does. Run from a subdirectory without
--root, it lists below that directory. Exit status: 0 when a file matched,
1 when none did, 2 on an error.`,
		Args: exactArgs(1, "glob needs one PATTERN, e.g. '**/*.go'"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opt.Pattern = args[0]
			abs, err := exactScope(cmd.Context(), root, opt.Pattern, &opt.Path, "")
			if err != nil {
				return err
			}
			res, err := codectx.Glob(cmd.Context(), abs, opt)
			if err := printResult(cmd, asJSON, res, err); err != nil {
				return err
			}
			return noMatchIf(res.Total == 0)
		},
	}
	rootFlag(c, &root)
	c.Flags().StringVar(&opt.Path, "path", "", "directory inside the project to list under")
	c.Flags().IntVar(&opt.Limit, "limit", codectx.DefaultGlobLimit, "most files listed")
	c.Flags().StringVar(&opt.Sort, "sort", "path", "order: path or mtime (newest first)")
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}

// exactScope checks glob's and grep's pattern and finds the project root;
// it narrows *path to pathArg (grep's PATH, relative to the current
// directory) or, run from a subdirectory without --root, to that directory.
func exactScope(ctx context.Context, root, pattern string, path *string, pathArg string) (string, error) {
	if pattern == "" {
		return "", usagef("empty pattern")
	}
	abs, err := projectRoot(ctx, root)
	if err != nil {
		return "", err
	}
	switch {
	case pathArg != "":
		if *path != "" {
			return "", usagef("give PATH or --path, not both")
		}
		*path, err = pathInRoot(abs, pathArg)
	case *path == "" && root == "":
		*path = cwdInRoot(abs)
	}
	return abs, err
}

func grepCmd() *cobra.Command {
	var root string
	var opt codectx.GrepOptions
	var asJSON, filesOnly bool
	c := &cobra.Command{
		Use:   "grep PATTERN [PATH]",
		Short: "Search file contents with a regular expression (ripgrep or native engine; an index, when built, narrows it)",
		Long: `Search the project's files for a regular expression (RE2 syntax) or, with -F,
a literal string. PATH (a file or directory, relative to the current
directory, like rg's) narrows the search; --path does the same relative to
the project root. Exit status: 0 when something matched, 1 when nothing did,
2 on an error.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 1 || len(args) > 2 {
				return usagef("grep needs a PATTERN and at most one PATH: codectx grep PATTERN [PATH] [-i] [-w] [-F] [-g GLOB]")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opt.Pattern = args[0]
			var pathArg string
			if len(args) == 2 {
				pathArg = args[1]
			}
			abs, err := exactScope(cmd.Context(), root, opt.Pattern, &opt.Path, pathArg)
			if err != nil {
				return err
			}
			if opt.Engine == "" {
				opt.Engine = runConfig.GrepEngine
			}
			if db, err := dbPath(); err == nil {
				opt.DBPath = db // its grep index, when there is one, narrows the search
			}
			res, err := codectx.Grep(cmd.Context(), abs, opt)
			if err == nil && filesOnly && !asJSON {
				printFiles(cmd.OutOrStdout(), res)
				return noMatchIf(res.Matches == 0)
			}
			if err != nil {
				return err
			}
			if asJSON {
				if err := writeJSON(cmd.OutOrStdout(), res); err != nil {
					return err
				}
			} else {
				fmt.Fprint(cmd.OutOrStdout(), ensureNewline(res.Render(cliReadHint(abs))))
			}
			return noMatchIf(res.Matches == 0)
		},
	}
	rootFlag(c, &root)
	f := c.Flags()
	f.StringVar(&opt.Path, "path", "", "file or directory inside the project to search")
	f.StringVarP(&opt.Glob, "glob", "g", "", "only files matching this glob (like rg -g), e.g. '*.go' or '!*_test.go'")
	f.BoolVarP(&opt.Word, "word-regexp", "w", false, "match whole words only")
	f.BoolVarP(&filesOnly, "files-with-matches", "l", false, "print only the paths of files with a match")
	f.BoolVarP(&opt.IgnoreCase, "ignore-case", "i", false, "case-insensitive")
	f.BoolVarP(&opt.Fixed, "fixed", "F", false, "treat PATTERN as a literal string")
	f.IntVarP(&opt.Context, "context", "C", 0, "lines of context around each match")
	f.IntVar(&opt.HeadLimit, "head-limit", codectx.DefaultGrepHeadLimit, "matching lines per file")
	f.IntVar(&opt.MaxResults, "max-results", codectx.DefaultGrepMaxResults, "matching lines in all, then stop (partial)")
	f.IntVar(&opt.MaxChars, "max-chars", codectx.DefaultGrepMaxChars, "output budget in characters")
	f.StringVar(&opt.Engine, "engine", "", "auto, rg or native (default $CODECTX_GREP_ENGINE, else auto)")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	return c
}

func readCmd() *cobra.Command {
	var root string
	var opt codectx.ReadOptions
	var asJSON bool
	c := &cobra.Command{
		Use:   "read FILE",
		Short: "Print numbered lines of a file, paged with --offset and --limit (no index needed)",
		Args:  exactArgs(1, "read needs one FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opt.File = args[0]
			abs, err := projectRoot(cmd.Context(), root)
			if err != nil {
				return err
			}
			if root == "" {
				opt.File = fileFromCwd(abs, opt.File)
			}
			res, err := codectx.Read(cmd.Context(), abs, opt)
			if err != nil || asJSON {
				return printResult(cmd, asJSON, res, err)
			}
			fmt.Fprint(cmd.OutOrStdout(), ensureNewline(res.Render(cliReadHint(abs))))
			return nil
		},
	}
	rootFlag(c, &root)
	c.Flags().IntVar(&opt.Offset, "offset", 1, "first line (1-based)")
	c.Flags().IntVar(&opt.Limit, "limit", codectx.DefaultReadLimit, fmt.Sprintf("number of lines (at most %d)", codectx.MaxReadLimit))
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}

// pathInRoot turns PATH, relative to the current directory (or absolute),
// into a path relative to the project root; outside the root is an error
// naming the root.
func pathInRoot(root, path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", usagef("%s is outside the project root %s (pass --root to choose another project)", path, root)
	}
	if rel == "." {
		return "", nil
	}
	return filepath.ToSlash(rel), nil
}

// cwdInRoot is the current directory relative to root when the project was
// found from a subdirectory, so that grep and glob look below it as rg and
// git do; "" at the root or outside it.
func cwdInRoot(root string) string {
	rel, err := pathInRoot(root, ".")
	if err != nil {
		return ""
	}
	return rel
}

// fileFromCwd resolves a relative FILE given without --root: paths are
// relative to the project root (as every result prints them), but a path
// that exists only relative to the current directory inside the project is
// taken from there, as a shell user expects.
func fileFromCwd(root, file string) string {
	if filepath.IsAbs(file) {
		return file
	}
	if _, err := os.Lstat(filepath.Join(root, file)); err == nil {
		return file
	}
	if _, err := os.Lstat(file); err != nil {
		return file
	}
	if rel, err := pathInRoot(root, file); err == nil && rel != "" {
		return rel
	}
	return file
}

// printFiles prints each file with a matching line once, in result order.
func printFiles(w io.Writer, res *codectx.GrepResult) {
	seen := map[string]bool{}
	for _, l := range res.Lines {
		if l.Kind == "match" && !seen[l.Path] {
			seen[l.Path] = true
			fmt.Fprintln(w, l.Path)
		}
	}
}

// exactArgs requires n positional arguments with a helpful usage error.
func exactArgs(n int, msg string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usagef("%s", msg)
		}
		return nil
	}
}

func ensureNewline(s string) string {
	if s == "" || s[len(s)-1] == '\n' {
		return s
	}
	return s + "\n"
}

// noMatchIf is errNoMatch when empty (exit 1, as rg and grep do), else nil.
func noMatchIf(empty bool) error {
	if empty {
		return errNoMatch
	}
	return nil
}

// printResult prints an exact-search result as JSON or as its text rendering.
func printResult[R interface{ Text() string }](cmd *cobra.Command, asJSON bool, res R, err error) error {
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(cmd.OutOrStdout(), res)
	}
	fmt.Fprint(cmd.OutOrStdout(), ensureNewline(res.Text()))
	return nil
}
