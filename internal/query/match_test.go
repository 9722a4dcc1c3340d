package query

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// matchReference is what TermMatcher must equal: every token of
// IndexTextWith(s, opt) looked up among terms.
func matchReference(s string, opt IndexOptions, terms []string) []int {
	idx := map[string]int{}
	for i, t := range terms {
		if _, ok := idx[t]; !ok && t != "" {
			idx[t] = i
		}
	}
	var out []int
	for tok := range strings.FieldsSeq(IndexTextWith(s, opt)) {
		if i, ok := idx[tok]; ok {
			out = append(out, i)
		}
	}
	slices.Sort(out)
	return out
}

func matchAll(m *TermMatcher, s string) []int {
	var out []int
	m.Match(s, func(i int) { out = append(out, i) })
	slices.Sort(out)
	return out
}

func TestTermMatcherAgreesWithIndexText(t *testing.T) {
	cases := []struct {
		name  string
		text  string
		terms []string
	}{
		{"camel case sub-words", "func (srv *Server) ReadTimeout() time.Duration", []string{"read", "timeout", "readtimeout", "server", "srv", "duration"}},
		{"term inside a longer word only", "thread already ready", []string{"read", "ready"}},
		{"dotted token and its parts", "os.ReadFile(path) and net/http.Server", []string{"os.readfile", "readfile", "os", "read", "http.server", "net"}},
		{"term across a piece boundary", "foo-bar foo- bar", []string{"foo-bar", "o-b", "foo", "bar"}},
		{"upper-case runs and plural s", "HTTPServer URLs userIDs", []string{"http", "server", "urls", "url", "userids", "ids"}},
		{"digits", "Server2Go sha256block", []string{"server", "2", "go", "sha", "256", "block"}},
		{"non-ASCII letters lower-case to ASCII", "\u212Aelvin K\u0130TAP İstanbul", []string{"kelvin", "kitap", "istanbul", "i̇stanbul"}},
		{"accented words", "Café naïve ÉCOLE", []string{"café", "naïve", "école", "cafe"}},
		{"Han runs", "读取文件 read 文件内容", []string{"文件", "读取", "读取文件", "read"}},
		{"no term present", "nothing to see here", []string{"absent"}},
		{"repeated and empty terms", "read the Read READ", []string{"read", "", "read"}},
	}
	for _, c := range cases {
		for _, opt := range []IndexOptions{{}, {WholeCJK: true}} {
			m := NewTermMatcher(c.terms, opt)
			got, want := matchAll(m, c.text), matchReference(c.text, opt, c.terms)
			if !slices.Equal(got, want) {
				t.Errorf("%s (WholeCJK %v): got %v, want %v", c.name, opt.WholeCJK, got, want)
			}
		}
	}
}

// TestTermMatcherOnSource compares the matcher with IndexText on this
// package's own source, with terms taken from its tokens and substrings of
// them, and checks that pieces holding no term are not split.
func TestTermMatcherOnSource(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	if len(files) == 0 {
		t.Fatal("no source files")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		toks := strings.Fields(IndexText(text))
		var terms []string
		for i := 0; i < len(toks); i += 97 {
			tok := toks[i]
			terms = append(terms, tok)
			if len(tok) > 3 {
				terms = append(terms, tok[1:len(tok)-1])
			}
		}
		terms = append(terms, "zzqx")
		m := NewTermMatcher(terms, IndexOptions{})
		got, want := matchAll(m, text), matchReference(text, IndexOptions{}, terms)
		if !slices.Equal(got, want) {
			t.Errorf("%s: matcher found %d term tokens, IndexText %d", f, len(got), len(want))
		}
		pieces := 0
		for i := 0; ; pieces++ {
			st, en, _ := nextPiece(text, i)
			if st >= len(text) {
				break
			}
			i = en
		}
		if m.split >= pieces {
			t.Errorf("%s: split %d of %d pieces, want only those holding a term", f, m.split, pieces)
		}
	}
}
