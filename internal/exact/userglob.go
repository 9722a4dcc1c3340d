package exact

import (
	"strings"

	"codectx/internal/scan"
)

// userGlob is GrepOptions.Glob compiled: gitignore-style globs (one per
// brace alternative), anchored to the search path, with rg -g semantics. A
// positive glob keeps a file when the file's path matches; a negative one
// drops a file when it or one of its directories matches.
type userGlob struct {
	negate bool
	lines  []string // gitignore lines (without "!"), relative to the root
	pats   []scan.Pattern
}

func newUserGlob(glob, pathRel string) (*userGlob, error) {
	g := &userGlob{}
	body := glob
	if strings.HasPrefix(body, "!") {
		g.negate = true
		body = body[1:]
	}
	if body == "" || strings.ContainsAny(body, "\n\r\x00") {
		return nil, newError(ErrBadOption, "invalid glob %q", glob)
	}
	for _, alt := range expandBraces(body) {
		line := alt
		anchored := strings.Contains(strings.TrimRight(line, "/"), "/")
		if anchored && pathRel != "." && pathRel != "" {
			line = "/" + scan.EscapeGlob(pathRel) + "/" + strings.TrimPrefix(line, "/")
		} else if strings.HasPrefix(line, "#") {
			line = `\` + line
		}
		p, err := scan.ParsePattern(line)
		if err != nil {
			return nil, newError(ErrBadOption, "invalid glob %q", glob)
		}
		g.lines = append(g.lines, line)
		g.pats = append(g.pats, p)
	}
	return g, nil
}

// keep reports whether a root-relative file path passes the glob.
func (g *userGlob) keep(rel string) bool {
	if g == nil {
		return true
	}
	if !g.negate {
		for _, p := range g.pats {
			if p.Match(rel, false) {
				return true
			}
		}
		return false
	}
	for _, p := range g.pats {
		if p.Match(rel, false) {
			return false
		}
		for i := 0; i < len(rel); i++ {
			if rel[i] == '/' && p.Match(rel[:i], true) {
				return false
			}
		}
	}
	return true
}

// expandBraces expands "{a,b}" alternatives (nested too) like rg's globs:
// "*.{ts,tsx}" → "*.ts", "*.tsx". Escaped braces and braces inside "[...]"
// stay literal; an unbalanced brace leaves the glob as it is.
func expandBraces(s string) []string {
	open := -1
	depth := 0
	inClass := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			i++
		case inClass:
			if c == ']' {
				inClass = false
			}
		case c == '[':
			inClass = true
		case c == '{':
			if depth == 0 {
				open = i
			}
			depth++
		case c == '}' && depth > 0:
			depth--
			if depth == 0 {
				var out []string
				for _, alt := range splitTop(s[open+1 : i]) {
					out = append(out, expandBraces(s[:open]+alt+s[i+1:])...)
				}
				return out
			}
		}
	}
	return []string{s}
}

// splitTop splits on commas outside nested braces and escapes.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}
