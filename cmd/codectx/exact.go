package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"codectx/pkg/codectx"
)

func init() { commands = append(commands, globCmd, grepCmd, readCmd) }

// rootFlag adds --root (the project, default the current directory).
func rootFlag(c *cobra.Command, dst *string) {
	c.Flags().StringVar(dst, "root", ".", "project root")
}

func globCmd() *cobra.Command {
	var root string
	var opt codectx.GlobOptions
	var asJSON bool
	c := &cobra.Command{
		Use:   "glob PATTERN",
		Short: "List project files matching a doublestar pattern (no index needed)",
		Args:  exactArgs(1, "glob needs one PATTERN, e.g. '**/*.go'"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opt.Pattern = args[0]
			if opt.Pattern == "" {
				return usagef("empty pattern")
			}
			abs, err := codectx.ResolveRoot(root)
			if err != nil {
				return err
			}
			res, err := codectx.Glob(cmd.Context(), abs, opt)
			return printResult(cmd, asJSON, res, err)
		},
	}
	rootFlag(c, &root)
	c.Flags().StringVar(&opt.Path, "path", "", "directory inside the project to list under")
	c.Flags().IntVar(&opt.Limit, "limit", codectx.DefaultGlobLimit, "most files listed")
	c.Flags().StringVar(&opt.Sort, "sort", "path", "order: path or mtime (newest first)")
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}

func grepCmd() *cobra.Command {
	var root string
	var opt codectx.GrepOptions
	var asJSON bool
	c := &cobra.Command{
		Use:   "grep PATTERN",
		Short: "Search file contents with a regular expression (ripgrep or native engine; no index needed)",
		Args:  exactArgs(1, "grep needs one PATTERN"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opt.Pattern = args[0]
			if opt.Pattern == "" {
				return usagef("empty pattern")
			}
			abs, err := codectx.ResolveRoot(root)
			if err != nil {
				return err
			}
			res, err := codectx.Grep(cmd.Context(), abs, opt)
			return printResult(cmd, asJSON, res, err)
		},
	}
	rootFlag(c, &root)
	f := c.Flags()
	f.StringVar(&opt.Path, "path", "", "file or directory inside the project to search")
	f.StringVar(&opt.Glob, "glob", "", "only files matching this glob (like rg -g), e.g. '*.go' or '!*_test.go'")
	f.BoolVarP(&opt.IgnoreCase, "ignore-case", "i", false, "case-insensitive")
	f.BoolVarP(&opt.Fixed, "fixed", "F", false, "treat PATTERN as a literal string")
	f.IntVarP(&opt.Context, "context", "C", 0, "lines of context around each match")
	f.IntVar(&opt.HeadLimit, "head-limit", codectx.DefaultGrepHeadLimit, "matching lines per file")
	f.IntVar(&opt.MaxResults, "max-results", codectx.DefaultGrepMaxResults, "matching lines in all, then stop (partial)")
	f.IntVar(&opt.MaxChars, "max-chars", codectx.DefaultGrepMaxChars, "output budget in characters")
	f.StringVar(&opt.Engine, "engine", "auto", "auto, rg or native")
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
			abs, err := codectx.ResolveRoot(root)
			if err != nil {
				return err
			}
			res, err := codectx.Read(cmd.Context(), abs, opt)
			return printResult(cmd, asJSON, res, err)
		},
	}
	rootFlag(c, &root)
	c.Flags().IntVar(&opt.Offset, "offset", 1, "first line (1-based)")
	c.Flags().IntVar(&opt.Limit, "limit", codectx.DefaultReadLimit, fmt.Sprintf("number of lines (at most %d)", codectx.MaxReadLimit))
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
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
