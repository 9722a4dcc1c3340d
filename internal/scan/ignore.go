package scan

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
)

// Names of the ignore files the scanner honours.
const (
	GitIgnoreFile     = ".gitignore"
	CodectxIgnoreFile = ".codectxignore"
)

// Pattern is one line of gitignore syntax, compiled. The matching follows
// git's rules: "#" comments, "!" negation, a trailing "/" matches directories
// only, a pattern containing a "/" (other than a trailing one) is anchored to
// the directory of its ignore file while one without a slash matches a name
// at any depth, "**" spans directories, "\" escapes, unescaped trailing
// spaces are dropped.
//
// (github.com/sabhiram/go-gitignore is not used for this: it does not anchor
// "a/b" patterns, treats "?" literally and does not escape regexp
// metacharacters, so it disagrees with git on ordinary .gitignore files.)
type Pattern struct {
	glob     string // doublestar pattern; matched against the basename when !anchored
	prefix   string // for a glob ending in "/**": the part before it (which must not match)
	negate   bool
	dirOnly  bool
	anchored bool
	line     string
}

// ErrNoPattern is returned by ParsePattern for blank and comment lines.
var ErrNoPattern = errors.New("no pattern")

// ParsePattern compiles one gitignore-syntax line. Blank lines and comments
// give ErrNoPattern; a glob doublestar cannot compile gives an error naming
// the line.
func ParsePattern(line string) (Pattern, error) {
	orig := line
	line = strings.TrimSuffix(line, "\r")
	line = trimTrailingSpaces(line)
	if line == "" || line[0] == '#' {
		return Pattern{}, ErrNoPattern
	}
	p := Pattern{line: orig}
	if line[0] == '!' {
		p.negate = true
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") && !strings.HasSuffix(line, `\/`) {
		p.dirOnly = true
		line = strings.TrimRight(line, "/")
	}
	if strings.Contains(line, "/") {
		p.anchored = true
		line = strings.TrimPrefix(line, "/")
	}
	if line == "" {
		return Pattern{}, ErrNoPattern
	}
	glob := escapeBraces(line)
	if !doublestar.ValidatePattern(glob) {
		return Pattern{}, fmt.Errorf("bad pattern %q", orig)
	}
	p.glob = glob
	if p.anchored && strings.HasSuffix(glob, "/**") {
		p.prefix = strings.TrimSuffix(glob, "/**")
	}
	return p, nil
}

// Negate reports whether the pattern starts with "!".
func (p Pattern) Negate() bool { return p.negate }

// String returns the line the pattern was parsed from.
func (p Pattern) String() string { return p.line }

// Match reports whether rel (slash-separated, relative to the directory of
// the pattern's ignore file) matches the pattern, ignoring negation. isDir
// says whether rel is a directory. Parent directories are not considered:
// callers check them first (an excluded directory excludes its contents).
func (p Pattern) Match(rel string, isDir bool) bool {
	if p.dirOnly && !isDir {
		return false
	}
	if !p.anchored {
		return doublestar.MatchUnvalidated(p.glob, path.Base(rel))
	}
	if !doublestar.MatchUnvalidated(p.glob, rel) {
		return false
	}
	// git: "abc/**" matches everything inside abc, not abc itself.
	return p.prefix == "" || !doublestar.MatchUnvalidated(p.prefix, rel)
}

// trimTrailingSpaces drops trailing spaces that are not escaped with "\".
func trimTrailingSpaces(s string) string {
	for strings.HasSuffix(s, " ") {
		t := s[:len(s)-1]
		bs := 0
		for i := len(t) - 1; i >= 0 && t[i] == '\\'; i-- {
			bs++
		}
		if bs%2 == 1 {
			return s // "\ " keeps the space
		}
		s = t
	}
	return s
}

// escapeBraces makes "{" and "}" literal: gitignore has no alternatives.
func escapeBraces(s string) string {
	if !strings.ContainsAny(s, "{}") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			b.WriteByte(c)
			b.WriteByte(s[i+1])
			i++
			continue
		}
		if c == '{' || c == '}' {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// parseIgnoreFile compiles the lines of one ignore file, dropping blank lines,
// comments and lines doublestar cannot compile (git ignores those too).
func parseIgnoreFile(data []byte) []Pattern {
	var out []Pattern
	for _, line := range strings.Split(string(data), "\n") {
		p, err := ParsePattern(line)
		if err == nil {
			out = append(out, p)
		}
	}
	return out
}

// ignoreTree evaluates one ignore-file name (".gitignore" or
// ".codectxignore") over a directory tree: the file of each directory is read
// at most once, on first use, and patterns apply to paths below their file's
// directory, deeper files overriding shallower ones and later lines earlier
// ones. Safe for concurrent use.
type ignoreTree struct {
	fsys fs.FS
	name string

	mu    sync.Mutex
	files map[string][]Pattern // directory ("" = root) → its patterns (nil: none)
	dirs  map[string]bool      // directory → excluded (itself or an ancestor)
}

func newIgnoreTree(fsys fs.FS, name string) *ignoreTree {
	return &ignoreTree{fsys: fsys, name: name, files: map[string][]Pattern{}, dirs: map[string]bool{}}
}

// patterns returns the compiled ignore file of directory dir ("" = root).
func (t *ignoreTree) patterns(dir string) []Pattern {
	t.mu.Lock()
	pats, ok := t.files[dir]
	t.mu.Unlock()
	if ok {
		return pats
	}
	name := t.name
	if dir != "" {
		name = dir + "/" + t.name
	}
	data, err := fs.ReadFile(t.fsys, name)
	if err == nil {
		pats = parseIgnoreFile(data)
	}
	t.mu.Lock()
	t.files[dir] = pats
	t.mu.Unlock()
	return pats
}

// matchOne applies the ignore files of rel's ancestor directories to rel
// itself (not to its parents): the deepest file with a matching line decides,
// and within a file the last matching line.
func (t *ignoreTree) matchOne(rel string, isDir bool) bool {
	dir := parentDir(rel)
	for {
		if pats := t.patterns(dir); len(pats) > 0 {
			sub := rel
			if dir != "" {
				sub = rel[len(dir)+1:]
			}
			for i := len(pats) - 1; i >= 0; i-- {
				if pats[i].Match(sub, isDir) {
					return !pats[i].negate
				}
			}
		}
		if dir == "" {
			return false
		}
		dir = parentDir(dir)
	}
}

// reincludes reports whether the last line of the root's ignore file that
// matches directory rel is a negation: rel is explicitly included. Only the
// root's file counts, so that ripgrep, which is told the root file's lines,
// can search the same directories (see SkippedDir).
func (t *ignoreTree) reincludes(rel string) bool {
	pats := t.patterns("")
	for i := len(pats) - 1; i >= 0; i-- {
		if pats[i].Match(rel, true) {
			return pats[i].negate
		}
	}
	return false
}

// negations reports whether the root's ignore file has a negated line.
func (t *ignoreTree) negations() bool {
	for _, p := range t.patterns("") {
		if p.negate {
			return true
		}
	}
	return false
}

// dirExcluded reports whether directory dir or one of its ancestors is
// excluded. Results are cached.
func (t *ignoreTree) dirExcluded(dir string) bool {
	if dir == "" {
		return false
	}
	t.mu.Lock()
	ex, ok := t.dirs[dir]
	t.mu.Unlock()
	if ok {
		return ex
	}
	ex = t.dirExcluded(parentDir(dir)) || t.matchOne(dir, true)
	t.mu.Lock()
	t.dirs[dir] = ex
	t.mu.Unlock()
	return ex
}

// excluded reports whether rel is excluded, itself or through a parent
// directory (git cannot re-include a file whose directory is excluded).
func (t *ignoreTree) excluded(rel string, isDir bool) bool {
	return t.dirExcluded(parentDir(rel)) || t.matchOne(rel, isDir)
}

// parentDir returns the parent of a root-relative slash path, "" for a path
// at the top.
func parentDir(rel string) string {
	i := strings.LastIndexByte(rel, '/')
	if i < 0 {
		return ""
	}
	return rel[:i]
}

// IgnoreChecker answers whether root-relative paths are excluded by the
// ignore files of one name (root and nested) under a root, reading each
// directory's file lazily, once. Safe for concurrent use.
type IgnoreChecker struct{ t *ignoreTree }

// NewIgnoreChecker returns a checker for ignore files called name (for
// example CodectxIgnoreFile) under root.
func NewIgnoreChecker(root, name string) *IgnoreChecker {
	return &IgnoreChecker{t: newIgnoreTree(dirFS(root), name)}
}

// Excluded reports whether rel (slash-separated, relative to the root) is
// excluded, either itself or through an excluded parent directory.
func (c *IgnoreChecker) Excluded(rel string, isDir bool) bool {
	return c.t.excluded(rel, isDir)
}

// Reincludes reports whether a negated line re-includes directory rel
// (see SkippedDir).
func (c *IgnoreChecker) Reincludes(rel string) bool { return c.t.reincludes(rel) }

// Negations reports whether the root's ignore file has a negated line, so
// that a skipped directory may be re-included.
func (c *IgnoreChecker) Negations() bool { return c.t.negations() }

// Rooted returns the pattern as a gitignore line relative to the root, for
// a pattern read from the ignore file of directory dir (slash-separated,
// relative to the root; "" for the root itself). Braces come out escaped, so
// tools that read "{a,b}" as alternatives (ripgrep) see what git sees.
func (p Pattern) Rooted(dir string) string {
	var b strings.Builder
	if p.negate {
		b.WriteByte('!')
	}
	switch {
	case dir != "" && p.anchored:
		b.WriteString("/" + EscapeGlob(dir) + "/")
	case dir != "":
		b.WriteString("/" + EscapeGlob(dir) + "/**/")
	case p.anchored:
		b.WriteByte('/')
	}
	b.WriteString(p.glob)
	if p.dirOnly {
		b.WriteByte('/')
	}
	return b.String()
}

// EscapeGlob escapes the glob metacharacters of a literal path.
func EscapeGlob(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`\*?[]{}!#`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
