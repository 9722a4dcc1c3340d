package lang

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// chunkWant is the expectation for one chunk, found by Name.
type chunkWant struct {
	kind       string
	name       string
	symbol     string // defaults to name
	start, end int
	container  string
	extends    []string
	implements []string
	decorators []string
	has        []string // substrings of Content
	hasNot     []string // substrings that must not be in Content
}

// relWant is the expectation for one relation (line 0 = any line; "*" as
// source or qual = any).
type relWant struct {
	kind, source, target, qual string
	line                       int
}

// fixtureCase describes what Parse must find in one testdata file.
type fixtureCase struct {
	lang, file string
	chunks     []chunkWant
	noChunks   []string // chunk names that must not exist
	rels       []relWant
	noRels     []relWant // must not exist (qual "*" = any qualifier)
	nRels      map[relWant]int
}

// readFixture loads testdata/<file>.
func readFixture(t testing.TB, file string) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// strictParse parses and fails the test when Parse recovered from a panic.
func strictParse(t testing.TB, path, language string, src []byte) Result {
	t.Helper()
	var got any
	h := func(_ string, r any) { got = r }
	panicHook.Store(&h)
	defer panicHook.Store(nil)
	res := Parse(path, language, src)
	if got != nil {
		t.Fatalf("Parse(%s) recovered from panic: %v", path, got)
	}
	return res
}

// findChunk returns the chunk with the given name, or nil.
func findChunk(res Result, name string) *Chunk {
	for k := range res.Chunks {
		if res.Chunks[k].Name == name {
			return &res.Chunks[k]
		}
	}
	return nil
}

// matchRel reports whether r satisfies w.
func matchRel(r Relation, w relWant) bool {
	return r.Kind == w.kind && (w.source == "*" || r.Source == w.source) && r.Target == w.target &&
		(w.qual == "*" || r.Qualifier == w.qual) && (w.line == 0 || r.Line == w.line)
}

// checkFixture runs one fixtureCase.
func checkFixture(t *testing.T, fc fixtureCase) {
	src := readFixture(t, fc.file)
	res := strictParse(t, fc.file, fc.lang, src)
	if res.Fallback {
		t.Fatalf("%s fell back to text", fc.file)
	}
	if res.Language != fc.lang {
		t.Errorf("Language = %q, want %q", res.Language, fc.lang)
	}
	checkInvariants(t, src, res)
	checkContentLines(t, src, res)
	for _, w := range fc.chunks {
		c := findChunk(res, w.name)
		if c == nil {
			t.Errorf("missing chunk %q; have %v", w.name, chunkNames(res))
			continue
		}
		sym := w.symbol
		if sym == "" {
			sym = w.name
		}
		if c.Kind != w.kind || c.Symbol != sym || c.StartLine != w.start || c.EndLine != w.end || c.Container != w.container {
			t.Errorf("chunk %q = {%s %q [%d-%d] cont %q}, want {%s %q [%d-%d] cont %q}",
				w.name, c.Kind, c.Symbol, c.StartLine, c.EndLine, c.Container, w.kind, sym, w.start, w.end, w.container)
		}
		if !equalStrings(c.Extends, w.extends) || !equalStrings(c.Implements, w.implements) || !equalStrings(c.Decorators, w.decorators) {
			t.Errorf("chunk %q ext=%q impl=%q deco=%q, want ext=%q impl=%q deco=%q",
				w.name, c.Extends, c.Implements, c.Decorators, w.extends, w.implements, w.decorators)
		}
		for _, s := range w.has {
			if !strings.Contains(c.Content, s) {
				t.Errorf("chunk %q content lacks %q:\n%s", w.name, s, c.Content)
			}
		}
		for _, s := range w.hasNot {
			if strings.Contains(c.Content, s) {
				t.Errorf("chunk %q content has %q:\n%s", w.name, s, c.Content)
			}
		}
	}
	for _, n := range fc.noChunks {
		if findChunk(res, n) != nil {
			t.Errorf("unexpected chunk %q", n)
		}
	}
	for _, w := range fc.rels {
		if !slices.ContainsFunc(res.Relations, func(r Relation) bool { return matchRel(r, w) }) {
			t.Errorf("missing relation %+v", w)
		}
	}
	for _, w := range fc.noRels {
		for _, r := range res.Relations {
			if matchRel(r, w) {
				t.Errorf("unexpected relation %+v", r)
			}
		}
	}
	for w, n := range fc.nRels {
		got := 0
		for _, r := range res.Relations {
			if matchRel(r, w) {
				got++
			}
		}
		if got != n {
			t.Errorf("relation %+v found %d times, want %d", w, got, n)
		}
	}
	if t.Failed() {
		for _, c := range res.Chunks {
			t.Logf("chunk %s %q sym=%q [%d-%d] cont=%q ext=%q impl=%q deco=%q", c.Kind, c.Name, c.Symbol, c.StartLine, c.EndLine, c.Container, c.Extends, c.Implements, c.Decorators)
		}
		for _, r := range res.Relations {
			t.Logf("rel %s %q -> %q q=%q L%d", r.Kind, r.Source, r.Target, r.Qualifier, r.Line)
		}
	}
}

// chunkNames lists the chunk names of a result.
func chunkNames(res Result) []string {
	var out []string
	for _, c := range res.Chunks {
		out = append(out, c.Name)
	}
	return out
}

func equalStrings(a, b []string) bool {
	if len(a) == 0 && len(b) == 0 {
		return true
	}
	return slices.Equal(a, b)
}

// validKinds are the chunk and relation kinds of the contract.
var (
	validChunkKinds = map[string]bool{KindFile: true, KindType: true, KindMethod: true, KindFunction: true, KindText: true}
	validRelKinds   = map[string]bool{RelImports: true, RelExtends: true, RelImplements: true, RelContains: true, RelCalls: true}
)

// checkInvariants verifies what must hold for any input: valid kinds and
// line ranges, non-empty names, valid UTF-8, source order.
func checkInvariants(t testing.TB, src []byte, res Result) {
	t.Helper()
	lines := strings.Count(string(src), "\n") + 1
	for k, c := range res.Chunks {
		if !validChunkKinds[c.Kind] {
			t.Fatalf("chunk %d: bad kind %q", k, c.Kind)
		}
		if c.StartLine < 1 || c.StartLine > c.EndLine || c.EndLine > lines+1 {
			t.Fatalf("chunk %q: bad lines [%d-%d] of %d", c.Name, c.StartLine, c.EndLine, lines)
		}
		if c.Name == "" || c.Symbol == "" {
			t.Fatalf("chunk %d [%d-%d]: empty name or symbol", k, c.StartLine, c.EndLine)
		}
		if !utf8.ValidString(c.Content) || !utf8.ValidString(c.Name) {
			t.Fatalf("chunk %q: invalid UTF-8", c.Name)
		}
		if res.Fallback && c.Kind != KindText {
			t.Fatalf("fallback result with %s chunk", c.Kind)
		}
		if k > 0 {
			p := res.Chunks[k-1]
			if p.StartLine > c.StartLine || (p.StartLine == c.StartLine && p.EndLine < c.EndLine) {
				t.Fatalf("chunks out of order: %q [%d-%d] before %q [%d-%d]", p.Name, p.StartLine, p.EndLine, c.Name, c.StartLine, c.EndLine)
			}
		}
	}
	for _, r := range res.Relations {
		if !validRelKinds[r.Kind] || r.Target == "" || r.Line < 1 || r.Line > lines {
			t.Fatalf("bad relation %+v", r)
		}
		if (r.Kind == RelImports) != (r.Source == "") {
			t.Fatalf("relation source %+v", r)
		}
	}
}

// checkContentLines verifies that Content matches the chunk's lines: the
// whole span for functions, methods, file and text chunks, at most
// TypeHeaderLines lines beginning at StartLine for types.
func checkContentLines(t *testing.T, src []byte, res Result) {
	t.Helper()
	lines := strings.Split(string(src), "\n")
	for _, c := range res.Chunks {
		got := strings.Split(c.Content, "\n")
		if c.Kind == KindType {
			if len(got) > TypeHeaderLines || len(got) > c.EndLine-c.StartLine+1 {
				t.Errorf("type %q header has %d lines", c.Name, len(got))
			}
			if strings.TrimSpace(got[0]) != strings.TrimSpace(lines[c.StartLine-1]) {
				t.Errorf("type %q header starts with %q, line %d is %q", c.Name, got[0], c.StartLine, lines[c.StartLine-1])
			}
			continue
		}
		if len(got) != c.EndLine-c.StartLine+1 {
			t.Errorf("%s %q: content has %d lines, span [%d-%d]", c.Kind, c.Name, len(got), c.StartLine, c.EndLine)
			continue
		}
		if !strings.HasSuffix(lines[c.StartLine-1], strings.TrimLeft(got[0], " \t")) && !strings.HasPrefix(lines[c.StartLine-1], got[0]) {
			t.Errorf("%s %q: first content line %q is not line %d %q", c.Kind, c.Name, got[0], c.StartLine, lines[c.StartLine-1])
		}
		if !strings.HasPrefix(lines[c.EndLine-1], strings.TrimLeft(got[len(got)-1], " \t")) && !strings.Contains(lines[c.EndLine-1], got[len(got)-1]) {
			t.Errorf("%s %q: last content line %q is not line %d %q", c.Kind, c.Name, got[len(got)-1], c.EndLine, lines[c.EndLine-1])
		}
	}
}

// goroot is the Go installation's root as `go env GOROOT` reports it, ""
// when go cannot say (tests that need its sources then skip).
var goroot = sync.OnceValue(func() string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
})
