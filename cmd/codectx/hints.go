package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"codectx/pkg/codectx"
)

// Hints name what to run next. The libraries state facts (a file and its
// lines, an unusable database); the CLI and the shell turn them into their
// own commands here, as the MCP server turns them into tool calls.

// cliRead is the command that reads lines a..a+n-1 of file in the project at
// root, runnable as printed from any directory.
func cliRead(root, file string, offset, limit int) string {
	return fmt.Sprintf("codectx read --root %s %s --offset %d --limit %d", shellQuote(root), shellQuote(file), offset, limit)
}

// cliReadHint renders grep's suggested reads as CLI commands.
func cliReadHint(root string) codectx.ReadHint {
	return func(s codectx.SuggestedRead) string { return cliRead(root, s.Path, s.Offset, s.Limit) }
}

// shellReadHint renders grep's suggested reads as shell commands.
func shellReadHint(s codectx.SuggestedRead) string {
	return fmt.Sprintf("/read %s %d %d", shellQuote(s.Path), s.Offset, s.Limit)
}

// errorHint is the CLI's advice for an error from the libraries, "" when
// the error says all there is.
func errorHint(err error) string {
	switch {
	case errors.Is(err, codectx.ErrCorrupt), errors.Is(err, codectx.ErrNewerSchema):
		return "run codectx index --rebuild to start over (it drops every project in that database file)"
	case errors.Is(err, codectx.ErrNotIndexed), errors.Is(err, codectx.ErrNoIndex):
		return "run codectx index"
	case errors.Is(err, codectx.ErrModelMismatch):
		return "run codectx index to re-embed with the configured model"
	}
	return ""
}

// shellErrorHint is the shell's advice for an error: its own commands where
// it has one, else the CLI's.
func shellErrorHint(err error) string {
	if errors.Is(err, codectx.ErrNotIndexed) || errors.Is(err, codectx.ErrNoIndex) {
		return "run /index"
	}
	return errorHint(err)
}

// shellQuote quotes a path for a POSIX shell when needed.
func shellQuote(p string) string {
	if p != "" && strings.IndexFunc(p, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-/+@,=:", r))
	}) < 0 {
		return p
	}
	if strings.ContainsAny(p, "\n\r\t\x00") {
		return strconv.Quote(p)
	}
	return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
}
