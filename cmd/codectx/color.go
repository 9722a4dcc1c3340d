package main

import (
	"io"
	"os"

	"golang.org/x/term"
)

// style colours terminal output: on when w is a terminal, NO_COLOR is unset
// or empty (https://no-color.org) and TERM is not "dumb"; off otherwise, so
// pipes and files get plain text.
type style struct{ on bool }

func styleFor(w io.Writer) style {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return style{}
	}
	return style{on: term.IsTerminal(int(f.Fd()))}
}

func (s style) wrap(code, text string) string {
	if !s.on || text == "" {
		return text
	}
	return "\x1b[" + code + "m" + text + "\x1b[0m"
}

// path is a file location (magenta, as rg prints paths).
func (s style) path(t string) string { return s.wrap("35", t) }

// name is a symbol name (bold).
func (s style) name(t string) string { return s.wrap("1", t) }

// dim is secondary text (scores, kinds).
func (s style) dim(t string) string { return s.wrap("2", t) }
