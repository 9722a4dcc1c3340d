package codectx

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestSearchUnindexedProject(t *testing.T) {
	dir := t.TempDir()
	p, err := Open(dir, Options{DBPath: filepath.Join(t.TempDir(), "index.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	_, err = p.Search(context.Background(), SearchOptions{Query: "anything"})
	if !errors.Is(err, ErrNotIndexed) {
		t.Fatalf("got %v, want ErrNotIndexed", err)
	}
	_, err = p.Search(context.Background(), SearchOptions{Query: "   "})
	if !errors.Is(err, ErrEmptyQuery) {
		t.Fatalf("blank query: got %v, want ErrEmptyQuery", err)
	}
}

const srcRetry = `package web

// shouldRetry reports whether a failed request may be sent again on a new
// connection: only idempotent requests whose body can be rewound.
func shouldRetry(method string, rewindable bool) bool {
	if method != "GET" && method != "HEAD" {
		return false
	}
	return rewindable
}
`

const srcCookie = `package web

// Cookie is an HTTP cookie.
type Cookie struct{ Name, Value string }

// String formats the cookie for a header.
func (c *Cookie) String() string { return c.Name + "=" + c.Value }
`

func TestSearchAndEvaluateIndexedProject(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"retry.go": srcRetry, "cookie.go": srcCookie})
	ctx := context.Background()
	p := openIndexed(t, dir)
	for _, mode := range []string{ModeHybrid, ModeKeyword, ModeSemantic} {
		res, err := p.Search(ctx, SearchOptions{Query: "when is a failed request retried on a new connection", Mode: mode})
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		if len(res.Results) == 0 || res.Results[0].File != "retry.go" || !strings.HasPrefix(res.Results[0].Name, "shouldRetry") {
			t.Fatalf("%s: results %+v", mode, res.Results)
		}
		if !strings.Contains(res.Summary, "read result 1: retry.go lines ") {
			t.Fatalf("%s: summary %q", mode, res.Summary)
		}
	}
	// Recorded feedback is applied, and the list is cut back to K with a
	// summary that describes what is returned.
	q := "when is a failed request retried on a new connection"
	if _, err := p.Feedback(ctx, q, "retry.go#shouldRetry", -1); err != nil {
		t.Fatal(err)
	}
	res, err := p.search(ctx, SearchOptions{Query: q, K: 1}, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) != 1 || !slices.Contains(res.Signals, "feedback") ||
		!strings.Contains(res.Summary, "It is the only result, in "+res.Results[0].File) {
		t.Fatalf("with feedback: %+v %v\n%s", res.Results, res.Signals, res.Summary)
	}
	set, err := ParseGoldenSet(strings.NewReader(
		`{"id": "a", "query": "retry a failed request", "lang": "en", "kind": "implementation", "targets": [{"file": "retry.go", "symbol": "shouldRetry"}]}
{"id": "b", "query": "format a cookie as a string", "lang": "en", "kind": "location", "targets": [{"file": "cookie.go", "symbol": "Cookie.String"}]}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := p.Evaluate(ctx, set, EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Tasks != 2 || rep.Overall.File.Recall1 != 1 || rep.Overall.Symbol.MRR10 != 1 || len(rep.Misses) != 0 {
		t.Fatalf("report %+v", rep)
	}
}

// TestRenderHints: Render ends with the front end's own lines for a search
// without a confident match and for keywords that could not be searched
// for, and offers neither when the front end gives none.
func TestRenderHints(t *testing.T) {
	r := &SearchResult{Summary: "s", Results: []SearchHit{{File: "a.go", StartLine: 1, EndLine: 2, Kind: "function", Name: "A()"}},
		NoConfidentMatch: true, GrepPattern: "era", Unread: []string{"日本", "年号"}}
	st := SearchStyle{
		GrepHint:   func(p string) string { return "grep " + p },
		UnreadHint: func(w []string) string { return "add English for " + strings.Join(w, "+") },
	}
	out := r.Render(st)
	if !strings.HasSuffix(out, "\ngrep era\n\nadd English for 日本+年号\n") {
		t.Errorf("with hints:\n%s", out)
	}
	if out := r.Render(SearchStyle{}); strings.Contains(out, "grep era") || strings.Contains(out, "English") {
		t.Errorf("without hints:\n%s", out)
	}
}

// TestSearchExplain: with Explain every hit carries the parts of its
// score, which add up to it, Render shows them, and the seed ranker, whose
// parts are not recorded, is a bad option with Explain.
func TestSearchExplain(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"retry.go": srcRetry, "cookie.go": srcCookie})
	ctx := context.Background()
	p := openIndexed(t, dir)
	res, err := p.Search(ctx, SearchOptions{Query: "when is a failed request retried", Explain: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) == 0 {
		t.Fatal("no results")
	}
	for _, h := range res.Results {
		x := h.Explain
		if x == nil {
			t.Fatalf("%s: no explanation", h.Name)
		}
		total := x.Keyword + x.Coverage + x.Semantic + x.Kind + x.Name + x.Length + x.File + x.Direct + x.Area + x.Demotion
		if d := total - h.Score; d > 0.0055 || d < -0.0055 {
			t.Errorf("%s: parts %+v add up to %.4f, score %.3f", h.Name, *x, total, h.Score)
		}
	}
	if x := res.Results[0].Explain; x.Keyword <= 0 || x.Coverage <= 0 {
		t.Errorf("first hit %s: keyword %v, coverage %v: the query's words are in it", res.Results[0].Name, x.Keyword, x.Coverage)
	}
	out := res.Render(SearchStyle{})
	if n := strings.Count(out, "\n    score: "); n != len(res.Results) {
		t.Errorf("%d score lines for %d hits:\n%s", n, len(res.Results), out)
	}
	plain, err := p.Search(ctx, SearchOptions{Query: "when is a failed request retried"})
	if err != nil {
		t.Fatal(err)
	}
	if plain.Results[0].Explain != nil || strings.Contains(plain.Render(SearchStyle{}), "score: ") {
		t.Error("explained without being asked")
	}
	if err := (SearchOptions{Query: "retry", Ranker: RankerSeed, Explain: true}).Validate(); !errors.Is(err, ErrBadOption) {
		t.Errorf("seed ranker with Explain: %v, want ErrBadOption", err)
	}
}

func TestScorePartsString(t *testing.T) {
	for _, tc := range []struct {
		x    ScoreParts
		want string
	}{
		{ScoreParts{Keyword: 0.35, Coverage: 0.2, Kind: 0.15, Length: 0.3, File: 0.1},
			"keyword 0.350 + length 0.300 + coverage 0.200 + kind 0.150 + file 0.100"},
		{ScoreParts{Keyword: 0.1, Kind: -0.1, Demotion: -0.6, Demotions: []string{"test", "below-subject"}},
			"keyword 0.100 − kind 0.100 − test, below-subject 0.600"},
		{ScoreParts{Kind: -0.05}, "−kind 0.050"},
		{ScoreParts{}, "0"},
	} {
		if got := tc.x.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.x, got, tc.want)
		}
	}
}

// writeFiles writes each file's content under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
