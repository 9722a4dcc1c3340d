package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Exit codes, as ripgrep and grep use them: 0 something found (or done),
// 1 nothing found, 2 an error; 130 interrupted.
const (
	exitNoMatch     = 1
	exitError       = 2
	exitInterrupted = 130
)

// usageError marks a mistake in how the command was called.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

// errNoMatch ends a search that found nothing: exit 1 and no message (the
// command has already said so on stdout where it prints text).
var errNoMatch = errors.New("nothing found")

// reportError prints err as one line (the whole message with -v, or when the
// error carries suggestions) and returns the exit code. It is the one error
// printer of the CLI.
func reportError(w io.Writer, err error) int {
	if errors.Is(err, errNoMatch) {
		return exitNoMatch
	}
	code := exitError
	if errors.Is(err, context.Canceled) {
		code = exitInterrupted
	}
	msg := strings.TrimSpace(err.Error())
	var ue usageError
	isUsage := errors.As(err, &ue)
	if i := strings.IndexByte(msg, '\n'); i >= 0 && !flagVerbose && !isUsage {
		msg = msg[:i]
	}
	if hint := errorHint(err); hint != "" {
		msg += "; " + hint
	}
	fmt.Fprintln(w, "codectx: "+msg)
	return code
}

// unknownCommand is the usage error for a word that is not a command of c,
// with the closest command names.
func unknownCommand(c *cobra.Command, word string) error {
	msg := fmt.Sprintf("unknown command %q for %q", word, c.CommandPath())
	sugg := c.SuggestionsFor(word)
	if len(sugg) == 0 {
		sugg = closest(word, commandNames(c), 2)
	}
	if len(sugg) > 0 {
		msg += "\nDid you mean this?\n\t" + strings.Join(sugg, "\n\t")
	}
	return usageError{msg + "\nRun 'codectx --help' for the commands."}
}

func commandNames(c *cobra.Command) []string {
	var names []string
	for _, sub := range c.Commands() {
		if sub.IsAvailableCommand() {
			names = append(names, sub.Name())
			names = append(names, sub.Aliases...)
		}
	}
	return names
}

// flagError turns pflag's parse errors into usage errors, with the closest
// flag names for an unknown one.
func flagError(c *cobra.Command, err error) error {
	msg := err.Error()
	if strings.HasPrefix(msg, "unknown flag: --") {
		name := strings.TrimPrefix(msg, "unknown flag: --")
		var flags []string
		collect := func(f *pflag.Flag) {
			if !f.Hidden {
				flags = append(flags, f.Name)
			}
		}
		c.Flags().VisitAll(collect)
		c.InheritedFlags().VisitAll(collect)
		if sugg := closest(name, flags, 2); len(sugg) > 0 {
			for i := range sugg {
				sugg[i] = "--" + sugg[i]
			}
			msg += "\nDid you mean this?\n\t" + strings.Join(sugg, "\n\t")
		}
	}
	if strings.HasPrefix(msg, "unknown") {
		msg += fmt.Sprintf("\nRun '%s --help' for its flags.", c.CommandPath())
	}
	return usageError{msg}
}

// closest returns the candidates within maxDist edits of word, or having it
// as a prefix, nearest first (ties in name order), at most three.
func closest(word string, candidates []string, maxDist int) []string {
	type cand struct {
		name string
		d    int
	}
	var found []cand
	seen := map[string]bool{}
	for _, c := range candidates {
		if seen[c] || c == word {
			continue
		}
		seen[c] = true
		d := editDistance(strings.ToLower(word), strings.ToLower(c))
		if len(word) >= 2 && strings.HasPrefix(c, word) {
			d = min(d, 1)
		}
		if d <= maxDist {
			found = append(found, cand{c, d})
		}
	}
	sort.Slice(found, func(i, j int) bool {
		if found[i].d != found[j].d {
			return found[i].d < found[j].d
		}
		return found[i].name < found[j].name
	})
	var out []string
	for i := 0; i < len(found) && i < 3; i++ {
		out = append(out, found[i].name)
	}
	return out
}

// editDistance is the Levenshtein distance of a and b (bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// version is the module version, or the VCS revision the binary was built
// from ("devel" when neither is recorded).
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	v := bi.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		v += " (" + rev + dirty + ")"
	}
	return v + " " + bi.GoVersion
}
