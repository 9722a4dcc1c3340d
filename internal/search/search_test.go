package search

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"codectx/internal/lang"
	"codectx/internal/query"
	"codectx/internal/store"
	"codectx/internal/vecindex"
)

const testModel = "test:fixed-4"

// fixedEmbedder returns the same query vector for every text.
type fixedEmbedder struct {
	model string
	vec   []float32
}

func (f fixedEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i := range texts {
		out[i] = f.vec
	}
	return out, nil
}
func (f fixedEmbedder) ModelID() string { return f.model }
func (f fixedEmbedder) Dims() int       { return len(f.vec) }
func (f fixedEmbedder) BatchSize() int  { return 16 }

// queryVec is the query's direction in the test space.
var queryVec = []float32{1, 0, 0, 0}

// withCos returns a unit vector whose cosine with queryVec is c.
func withCos(c float64, spin int) []float32 {
	s := math.Sqrt(1 - c*c)
	v := []float32{float32(c), 0, 0, 0}
	v[1+spin%3] = float32(s)
	return v
}

// tchunk is a chunk of the hand-built index.
type tchunk struct {
	path, kind, name, content string
	start, end                int
	sha                       string // the file's content hash; "" = its path
	cos                       float64
	container                 string // the enclosing class, as a parser sets it
}

// buildIndex writes chunks (grouped by file) into a fresh database, the way
// the index pipeline does, and returns the opened index.
func buildIndex(t *testing.T, chunks []tchunk) Index {
	t.Helper()
	resetCache()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "index.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	p, err := db.EnsureProject(ctx, "/project")
	if err != nil {
		t.Fatal(err)
	}
	writeChunks(t, db, p.ID, chunks)
	if err := db.FinishRun(ctx, p.ID, testModel); err != nil {
		t.Fatal(err)
	}
	p, err = db.Project(ctx, "/project")
	if err != nil {
		t.Fatal(err)
	}
	return Index{DB: db, Project: p, Embedder: fixedEmbedder{model: testModel, vec: queryVec}}
}

func writeChunks(t *testing.T, db *store.DB, projectID int64, chunks []tchunk) {
	t.Helper()
	var files []store.FileRecord
	at := map[string]int{}
	for i, c := range chunks {
		k, ok := at[c.path]
		if !ok {
			k = len(files)
			at[c.path] = k
			sha := c.sha
			if sha == "" {
				sha = c.path
			}
			files = append(files, store.FileRecord{Path: c.path, Lang: "go", Size: 1, MTime: 1, SHA256: sha})
		}
		start, end := c.start, c.end
		if start == 0 {
			start, end = 10*i+1, 10*i+1+strings.Count(c.content, "\n")
		}
		symbol := c.name
		if j := strings.IndexByte(symbol, '('); j >= 0 {
			symbol = symbol[:j]
		}
		lc := lang.Chunk{Kind: c.kind, Name: c.name, Symbol: symbol, StartLine: start, EndLine: end, Content: c.content, Container: c.container}
		h := sha256.Sum256([]byte(fmt.Sprintf("%d|%s|%s", i, c.path, lc.EmbedText())))
		files[k].Chunks = append(files[k].Chunks, store.ChunkRecord{
			Chunk: lc, TextHash: h[:], Vector: withCos(c.cos, i),
			FTSName: query.IndexText(c.name), FTSPath: query.IndexText(c.path), FTSBody: query.IndexText(c.content),
		})
	}
	if _, err := db.WriteBatch(context.Background(), projectID, testModel, store.Batch{Files: files}); err != nil {
		t.Fatal(err)
	}
}

func names(r *Result) []string {
	out := make([]string, len(r.Results))
	for i, h := range r.Results {
		out[i] = h.Symbol
	}
	return out
}

func rankOf(r *Result, symbol string) int {
	for i, h := range r.Results {
		if h.Symbol == symbol {
			return i + 1
		}
	}
	return 0
}

// longRelevant is a long method about the query; shortUnrelated is a short
// method with a higher cosine but nothing in common with the query words.
var fusionIndex = []tchunk{
	{path: "transport.go", kind: "method", name: "Transport.CloseIdleConnections()", cos: 0.45, content: `// CloseIdleConnections closes any connections which were previously
// connected from previous requests but are now sitting idle in
// a "keep-alive" state. It does not interrupt any connections currently
// in use.
func (t *Transport) CloseIdleConnections() {
	t.idleMu.Lock()
	m := t.idleConn
	t.idleConn = nil
	t.closeIdle = true // close newly idle connections
	t.idleLRU = connLRU{}
	t.idleMu.Unlock()
	for _, conns := range m {
		for _, pconn := range conns {
			pconn.close(errCloseIdleConns)
		}
	}
	t.connsPerHostMu.Lock()
	t.dialsInProgress.all(func(w *wantConn) {
		if w.cancelCtx != nil && !w.waiting() {
			w.cancelCtx()
		}
	})
	t.connsPerHostMu.Unlock()
}`},
	{path: "cookie.go", kind: "method", name: "Cookie.Valid()", cos: 0.70, content: `func (c *Cookie) Valid() error {
	return nil
}`},
	{path: "server.go", kind: "type", name: "Server", cos: 0.30, content: `// A Server defines parameters for running an HTTP server.
type Server struct {
	Addr string
	Handler Handler
}`},
	{path: "doc.go", kind: "text", name: "doc.go", cos: 0.20, content: `Package http provides HTTP client and server implementations.`},
}

func TestFusionLongRelevantBeatsShortUnrelated(t *testing.T) {
	ix := buildIndex(t, fusionIndex)
	for _, ranker := range []string{RankerSeed, RankerDefault} {
		t.Run(ranker, func(t *testing.T) {
			// Semantic alone prefers the short unrelated method.
			sem, err := Search(context.Background(), ix, Options{Query: "close idle connections", K: 4, Mode: ModeSemantic, Ranker: ranker})
			if err != nil {
				t.Fatal(err)
			}
			if got := names(sem); got[0] != "Cookie.Valid" {
				t.Fatalf("semantic order %v: the fixture should favour Cookie.Valid", got)
			}
			res, err := Search(context.Background(), ix, Options{Query: "close idle connections", K: 4, Ranker: ranker})
			if err != nil {
				t.Fatal(err)
			}
			a, b := rankOf(res, "Transport.CloseIdleConnections"), rankOf(res, "Cookie.Valid")
			if a != 1 || b <= a {
				t.Fatalf("hybrid order %v: want Transport.CloseIdleConnections first and above Cookie.Valid", names(res))
			}
		})
	}
}

// redirectFixture is a small index with an implementation, a type, an
// unrelated function and a test of the implementation.
var redirectFixture = []tchunk{
	{path: "a/redirect.go", kind: "function", name: "redirectBehavior(reqMethod string, resp *Response)", cos: 0.5,
		content: "// redirectBehavior describes what should happen when the client encounters a 3xx status code\nfunc redirectBehavior() {}"},
	{path: "a/redirect.go", kind: "type", name: "redirectPolicy", cos: 0.5,
		content: "type redirectPolicy struct{}"},
	{path: "b/other.go", kind: "function", name: "status(code int)", cos: 0.5,
		content: "// status code text\nfunc status() {}"},
	{path: "b/other_test.go", kind: "function", name: "TestRedirectBehavior(t *testing.T)", cos: 0.5,
		content: "func TestRedirectBehavior(t *testing.T) { redirectBehavior() // client status code }"},
}

func TestFusionOrder(t *testing.T) {
	ix := buildIndex(t, redirectFixture)
	tests := []struct {
		ranker, mode, query string
		want                []string
	}{
		// The test file is demoted below the implementation...
		{RankerDefault, ModeHybrid, "redirect status code", []string{"redirectBehavior", "status", "redirectPolicy", "TestRedirectBehavior"}},
		// ... unless the query asks about tests.
		{RankerDefault, ModeHybrid, "test for redirect status code", []string{"TestRedirectBehavior", "redirectBehavior", "status", "redirectPolicy"}},
		{RankerDefault, ModeKeyword, "redirect behavior client", []string{"redirectBehavior", "TestRedirectBehavior"}},
		{RankerSeed, ModeKeyword, "redirectBehavior", []string{"redirectBehavior", "TestRedirectBehavior"}},
	}
	for _, tc := range tests {
		t.Run(tc.ranker+"/"+tc.mode+"/"+tc.query, func(t *testing.T) {
			res, err := Search(context.Background(), ix, Options{Query: tc.query, K: len(tc.want), Mode: tc.mode, Ranker: tc.ranker})
			if err != nil {
				t.Fatal(err)
			}
			if got := names(res); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("order %v, want %v", got, tc.want)
			}
		})
	}
}

func TestPerFileLimit(t *testing.T) {
	var chunks []tchunk
	for i := range 5 {
		chunks = append(chunks, tchunk{path: "big.go", kind: "function", name: fmt.Sprintf("parseHeader%d()", i), cos: 0.9 - 0.01*float64(i),
			content: "func parseHeader() { // parse header value header field\n}"})
	}
	chunks = append(chunks, tchunk{path: "small.go", kind: "function", name: "readHeader()", cos: 0.3, content: "func readHeader() { // header }"})
	ix := buildIndex(t, chunks)
	for ranker, limit := range map[string]int{RankerSeed: seedPerFile, RankerDefault: defaultParams.PerFile} {
		res, err := Search(context.Background(), ix, Options{Query: "parse header", K: 5, Ranker: ranker})
		if err != nil {
			t.Fatal(err)
		}
		per := map[string]int{}
		for _, h := range res.Results {
			per[h.File]++
		}
		if per["big.go"] != limit || per["small.go"] != 1 || len(res.Results) != limit+1 {
			t.Fatalf("%s: per file %v (%v), want %d from big.go", ranker, per, names(res), limit)
		}
	}
}

func TestDeterministic(t *testing.T) {
	var chunks []tchunk
	// Identical chunks in several files: only the tie-break orders them.
	for _, p := range []string{"z.go", "m.go", "a.go", "b.go", "c.go", "k.go"} {
		chunks = append(chunks, tchunk{path: p, kind: "function", name: "handle()", cos: 0.5, content: "func handle() { serve request }"})
	}
	ix := buildIndex(t, chunks)
	for _, ranker := range []string{RankerSeed, RankerDefault} {
		var first []string
		for i := range 5 {
			resetCache()
			res, err := Search(context.Background(), ix, Options{Query: "serve request", K: 6, Ranker: ranker})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, h := range res.Results {
				got = append(got, h.File)
			}
			if i == 0 {
				first = got
				want := []string{"a.go", "b.go", "c.go", "k.go", "m.go", "z.go"}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s: ties ordered %v, want by path %v", ranker, got, want)
				}
			} else if !reflect.DeepEqual(got, first) {
				t.Fatalf("%s: run %d gave %v, first %v", ranker, i, got, first)
			}
		}
	}
}

func TestFTSSyntaxIsLiteral(t *testing.T) {
	ix := buildIndex(t, fusionIndex)
	queries := []string{
		`"foo" bar* -baz (x) a:b NEAR/2`,
		`NEAR(close idle, 2)`,
		`name:close OR path:transport AND NOT body`,
		`"unterminated`,
		`^start *`,
		`{name path}: idle`,
		`close + idle - connections`,
		`''`,
	}
	for _, q := range queries {
		for _, mode := range []string{ModeKeyword, ModeHybrid} {
			if _, err := Search(context.Background(), ix, Options{Query: q, Mode: mode, Keywords: []string{`x"y`, `a*`}}); err != nil {
				t.Errorf("%s %q: %v", mode, q, err)
			}
		}
	}
}

func TestModelMismatch(t *testing.T) {
	ix := buildIndex(t, fusionIndex)
	ix.Embedder = fixedEmbedder{model: "other:model", vec: queryVec}
	_, err := Search(context.Background(), ix, Options{Query: "close idle connections", Mode: ModeSemantic})
	if !errors.Is(err, ErrModelMismatch) || !strings.Contains(err.Error(), `"other:model"`) || strings.Contains(err.Error(), "codectx ") {
		t.Fatalf("semantic with another model: %v", err)
	}
	res, err := Search(context.Background(), ix, Options{Query: "close idle connections"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) == 0 || !strings.Contains(res.Warnings[0], "semantic search is off") {
		t.Fatalf("hybrid should warn, got %q", res.Warnings)
	}
	if len(res.Results) == 0 || res.Results[0].Symbol != "Transport.CloseIdleConnections" {
		t.Fatalf("hybrid should fall back to keywords, got %v", names(res))
	}
}

func TestOptionsValidate(t *testing.T) {
	tests := []struct {
		opt  Options
		ok   bool
		want error
	}{
		{Options{Query: "  "}, false, ErrEmptyQuery},
		{Options{Query: "x", K: 31}, false, nil},
		{Options{Query: "x", K: -1}, false, nil},
		{Options{Query: "x", Mode: "fuzzy"}, false, nil},
		{Options{Query: "x", Ranker: "best"}, false, nil},
		{Options{Keywords: []string{"Foo"}}, true, nil},
		{Options{Query: "x", K: 30, Mode: ModeKeyword, Ranker: RankerSeed}, true, nil},
	}
	for _, tc := range tests {
		err := tc.opt.Validate()
		if (err == nil) != tc.ok || (tc.want != nil && !errors.Is(err, tc.want)) {
			t.Errorf("%+v: err %v", tc.opt, err)
		}
	}
	o := Options{Query: " q "}
	if err := o.Validate(); err != nil || o.K != DefaultK || o.Mode != ModeHybrid || o.Ranker != RankerDefault || o.Query != "q" {
		t.Fatalf("defaults: %+v %v", o, err)
	}
}

func TestCacheFollowsGeneration(t *testing.T) {
	ix := buildIndex(t, fusionIndex)
	ctx := context.Background()
	res, err := Search(ctx, ix, Options{Query: "gzip compression"})
	if err != nil {
		t.Fatal(err)
	}
	if rankOf(res, "compressBody") != 0 {
		t.Fatal("compressBody found before it was written")
	}
	writeChunks(t, ix.DB, ix.Project.ID, []tchunk{{path: "gzip.go", kind: "function", name: "compressBody()", cos: 0.1, content: "// gzip compression of the body\nfunc compressBody() {}"}})
	if err := ix.DB.FinishRun(ctx, ix.Project.ID, testModel); err != nil {
		t.Fatal(err)
	}
	if ix.Project, err = ix.DB.Project(ctx, "/project"); err != nil {
		t.Fatal(err)
	}
	res, err = Search(ctx, ix, Options{Query: "gzip compression"})
	if err != nil {
		t.Fatal(err)
	}
	if rankOf(res, "compressBody") != 1 {
		t.Fatalf("after a write: %v", names(res))
	}
}

func TestResultShape(t *testing.T) {
	ix := buildIndex(t, fusionIndex)
	res, err := Search(context.Background(), ix, Options{Query: "close idle connections", K: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) != 2 || res.Query != "close idle connections" {
		t.Fatalf("result: %+v", res)
	}
	h := res.Results[0]
	if h.File != "transport.go" || h.StartLine != 1 || h.EndLine <= h.StartLine || h.Kind != "method" || len([]rune(h.Snippet)) > SnippetRunes {
		t.Fatalf("hit: %+v", h)
	}
	if n := strings.Count(res.Summary, ". "); n < 2 || !strings.Contains(res.Summary, "read result 1: transport.go lines 1-") {
		t.Fatalf("summary: %s", res.Summary)
	}
	if !reflect.DeepEqual(res.Keywords, []string{"close", "idle", "connections"}) {
		t.Fatalf("keywords %v", res.Keywords)
	}
}

func TestSnippet(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"func  a()\n\t{ return }", 100, "func a() { return }"},
		{"abcdef", 4, "abc…"},
		{"abcd", 4, "abcd"},
		{"  中文内容很长  ", 3, "中文…"},
		{"", 5, ""},
		{strings.Repeat("x ", 2000), 10, "x x x x x…"},
	}
	for _, tc := range tests {
		if got := Snippet(tc.in, tc.n); got != tc.want {
			t.Errorf("Snippet(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

func TestIsTestPath(t *testing.T) {
	for p, want := range map[string]bool{
		"net/http/client_test.go":       true,
		"tests/test_client.py":          true,
		"lib/test_utils.py":             true,
		"src/app.spec.ts":               true,
		"src/main/FooTest.java":         true,
		"pkg/testdata/x.go":             true,
		"idlelib/idle_test/x.py":        true,
		"net/http/client.go":            false,
		"testing/testing.go":            false,
		"src/Contest.java":              false,
		"email/_header_value_parser.py": false,
	} {
		if got := IsTestPath(p); got != want {
			t.Errorf("IsTestPath(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestCodeLines(t *testing.T) {
	tests := []struct {
		src  string
		want int
	}{
		{"// doc\n// more\nfunc f() {\n\n\treturn\n}", 3},
		{"/* block\n * star\n */\nint x;\n*p = 1;", 2},
		{"def f():\n    \"\"\"Doc\n    more.\n    \"\"\"\n    # note\n    return 1", 2},
		{"def g():\n    '''one line'''\n    pass", 2},
		{"", 0},
		// The inside of a multi-line string literal is not code.
		{"func gen(w io.Writer) {\n\tfmt.Fprintf(w, `#!/bin/sh\nif [ -n \"$x\" ]; then\n  echo $x\nfi\n`, name)\n\treturn\n}", 4},
		{"const page = `<html>\n<body>${body}</body>\n</html>`;\nrender(page);", 2},
		{"def usage():\n    text = \"\"\"\n    Usage: prog [options]\n      -h  help\n    \"\"\"\n    print(text)", 3},
		{"String q = \"\"\"\n    SELECT *\n    FROM t\n    \"\"\";\nrun(q);", 2},
		{"x := `one line` + `two`\ny := 1", 2},
		{"Text\n```go\nfunc f() {}\n```\nmore", 5},
	}
	for _, tc := range tests {
		if got := CodeLines(tc.src); got != tc.want {
			t.Errorf("CodeLines(%q) = %d, want %d", tc.src, got, tc.want)
		}
	}
}

func TestDependencyAndStubPaths(t *testing.T) {
	for p, want := range map[string]bool{
		"node_modules/react/index.js":            true,
		"vendor/golang.org/x/net/http2/frame.go": true,
		"lib/site-packages/requests/models.py":   true,
		"pip/_vendor/urllib3/response.py":        true,
		"third_party/zlib/inflate.c":             true,
		"src/vendors.go":                         false,
		"internal/server/handler.go":             false,
	} {
		if got := IsDependencyPath(p); got != want {
			t.Errorf("IsDependencyPath(%q) = %v, want %v", p, got, want)
		}
	}
	for p, want := range map[string]bool{"a/b.pyi": true, "types/index.d.ts": true, "a/b.py": false, "src/d.ts.go": false} {
		if got := IsStubPath(p); got != want {
			t.Errorf("IsStubPath(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestConcurrentSearches(t *testing.T) {
	ix := buildIndex(t, fusionIndex)
	want, err := Search(context.Background(), ix, Options{Query: "close idle connections", K: 3})
	if err != nil {
		t.Fatal(err)
	}
	resetCache()
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			res, err := Search(context.Background(), ix, Options{Query: "close idle connections", K: 3})
			if err == nil && !reflect.DeepEqual(names(res), names(want)) {
				err = fmt.Errorf("got %v, want %v", names(res), names(want))
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

func TestBuildQueryParseOptions(t *testing.T) {
	const q = "连接超时 retries"
	on := buildQuery(q, []string{"signin"}, query.DefaultOptions)
	if len(on.expanded) == 0 {
		t.Fatalf("default options: no expansions for %q", q)
	}
	off := buildQuery(q, []string{"signin"}, query.Options{})
	if len(off.expanded) != 0 || off.semText != q+" signin" {
		t.Fatalf("expansions off: expanded %v, semantic text %q", off.expanded, off.semText)
	}
	for _, g := range off.groups {
		for _, term := range g.terms {
			if term.Source == query.SourceLexicon || term.Source == query.SourceSynonym {
				t.Fatalf("expansions off: term %+v in group %q", term, g.keyword)
			}
		}
	}
}

// A snapshot's first semantic search reads the quantised side file (and
// does not load every vector); the results equal the in-memory path's.
func TestQuantizedFileMatchesMemory(t *testing.T) {
	ix := buildIndex(t, fusionIndex)
	ctx := context.Background()
	opt := Options{Query: "gzip compression", K: 5}
	want, err := Search(ctx, ix, opt) // no side file yet: memory, and writes it
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(ix.DB.SideFilePath(ix.Project, store.SideVectors)); err != nil {
		t.Fatalf("the first search did not write the side file: %v", err)
	}
	resetCache()
	got, err := Search(ctx, ix, opt)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := loadSnapshot(ctx, ix.DB, ix.Project)
	if err != nil {
		t.Fatal(err)
	}
	if snap.vecLoaded || snap.quant == nil {
		t.Fatalf("first search of a snapshot: loaded=%v quant=%v, want the side file only", snap.vecLoaded, snap.quant != nil)
	}
	if !reflect.DeepEqual(names(got), names(want)) {
		t.Fatalf("side file %v, memory %v", names(got), names(want))
	}
	if _, err := Search(ctx, ix, opt); err != nil {
		t.Fatal(err)
	}
	if !snap.vecLoaded {
		t.Fatal("the second search did not load the vectors into memory")
	}
}

// Past heldMatrixMax a long-lived process never loads the float matrix:
// it keeps searching the quantised side file, with the same results as
// the in-memory path.
func TestLargeProjectKeepsQuantizedVectors(t *testing.T) {
	ix := buildIndex(t, fusionIndex)
	ctx := context.Background()
	opts := []Options{{Query: "gzip compression", K: 5}, {Query: "http client redirect", K: 5}, {Query: "parse the header", K: 5}}
	var want [][]string
	for _, opt := range opts { // the matrix in memory (and the side file written)
		r, err := Search(ctx, ix, opt)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, names(r))
	}
	defer func(v int) { heldMatrixMax = v }(heldMatrixMax)
	heldMatrixMax = 0
	resetCache()
	for round := range 2 {
		for i, opt := range opts {
			r, err := Search(ctx, ix, opt)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(names(r), want[i]) {
				t.Fatalf("round %d, %q: %v, in memory %v", round, opt.Query, names(r), want[i])
			}
		}
	}
	snap, err := loadSnapshot(ctx, ix.DB, ix.Project)
	if err != nil {
		t.Fatal(err)
	}
	if snap.vecLoaded || snap.matrix != nil || snap.quant == nil {
		t.Fatalf("after %d searches: loaded=%v quant=%v, want the side file only", 2*len(opts), snap.vecLoaded, snap.quant != nil)
	}
}

// HeldDots gives the inner products with the stored vectors, summed as
// the relevance filter sums them, once a snapshot holds its matrix, and
// nothing before (it never loads).
func TestHeldDots(t *testing.T) {
	ix := buildIndex(t, fusionIndex)
	ctx := context.Background()
	chunks, err := ix.DB.ChunkMetas(ctx, ix.Project.ID)
	if err != nil {
		t.Fatal(err)
	}
	ids := []int64{chunks[0].ID, chunks[len(chunks)-1].ID, -1}
	q := []float32{0.5, 0, -0.25, 0.75}
	if got := HeldDots(ix, q, ids); got != nil {
		t.Fatalf("before any search: %v", got)
	}
	opt := Options{Query: "gzip compression", K: 5}
	for range 2 { // the side file, then the matrix
		if _, err := Search(ctx, ix, opt); err != nil {
			t.Fatal(err)
		}
	}
	got := HeldDots(ix, q, ids)
	stored, err := ix.DB.ChunkVectors(ctx, ids, testModel)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || len(stored) != 2 {
		t.Fatalf("held %d, stored %d; want 2 each", len(got), len(stored))
	}
	for id, blob := range stored {
		var want float64
		for j, x := range vecindex.DecodeVector(blob) {
			want += float64(q[j]) * float64(x)
		}
		if got[id] != want {
			t.Errorf("chunk %d: held %v, stored %v", id, got[id], want)
		}
	}
	if got := HeldDots(ix, q[:3], ids); got != nil {
		t.Errorf("a query of another dimension: %v", got)
	}
	// Another generation's snapshot is not this one's.
	other := *ix.Project
	other.Generation++
	if got := HeldDots(Index{DB: ix.DB, Project: &other}, q, ids); got != nil {
		t.Errorf("another generation: %v", got)
	}
}

// A large matrix's scan (the side file's, the float one's) split over the
// processors gives the one scan's hits.
func TestSplitTopKMatchesOneScan(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one processor: splitTopK does not split")
	}
	const dim = 8
	rows := parallelBlocks*1024 + 77
	rng := rand.New(rand.NewPCG(1, 2))
	qz := vecindex.NewQuantizer(dim, rows)
	v := make([]float32, dim)
	for i := range rows {
		for j := range v {
			v[j] = rng.Float32() - 0.5
		}
		if err := qz.Add(int64(i+1), v); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := qz.Write(&buf); err != nil {
		t.Fatal(err)
	}
	q, err := vecindex.ParseQuantized(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if q.Blocks() < parallelBlocks {
		t.Fatalf("%d blocks: the test does not reach the split", q.Blocks())
	}
	query := []float32{0.3, 0, -0.7, 0.1, 0, 0, 0.5, -0.2}
	want := q.TopK(query, 1000)
	if got := splitTopK(q, query, 1000); !reflect.DeepEqual(got, want) || len(got) != 1000 {
		t.Fatalf("split scan: %d hits, first %v; one scan first %v", len(got), got[:min(3, len(got))], want[:3])
	}
	m := vecindex.NewMatrix(dim, rows)
	for i := range rows {
		for j := range v {
			v[j] = rng.Float32() - 0.5
		}
		if err := m.Add(int64(i+1), v); err != nil {
			t.Fatal(err)
		}
	}
	want = m.TopK(query, 1000)
	if got := splitTopK(m, query, 1000); !reflect.DeepEqual(got, want) || len(got) != 1000 {
		t.Fatalf("split float scan: %d hits, first %v; one scan first %v", len(got), got[:min(3, len(got))], want[:3])
	}
}

func TestIsConstructor(t *testing.T) {
	for _, tc := range []struct {
		kind, short, container string
		want                   bool
	}{
		{"method", "ZoneRules", "ZoneRules", true},
		{"method", "Inner", "Outer.Inner", true},
		{"method", "__init__", "Context", true},
		{"method", "constructor", "BaseCommand", true},
		{"method", "getOffset", "ZoneRules", false},
		{"function", "__init__", "", false},
		{"type", "ZoneRules", "ZoneRules", false},
		{"method", "Reader", "", false},
	} {
		c := store.ChunkMeta{Kind: tc.kind, Short: tc.short, Container: tc.container}
		if got := isConstructor(&c); got != tc.want {
			t.Errorf("isConstructor(%+v) = %v, want %v", tc, got, tc.want)
		}
	}
}

// A constructor whose documentation lists every parameter matches many of
// a question's words; it ranks below the method that does the work unless
// the question asks about construction.
func TestConstructorDemotion(t *testing.T) {
	ctorDoc := "/** Creates a pool.\n * @param size the pool size\n * @param idle how long idle workers wait\n * @param keepAlive keep-alive time for idle workers\n */\n"
	work := "/** Takes the next task; a worker idle past the keep-alive time exits. */\n"
	ix := buildIndex(t, []tchunk{
		{path: "Pool.java", kind: "method", name: "Pool.Pool(int size, long idle, long keepAlive)", container: "Pool", cos: 0.5,
			content: ctorDoc + "Pool(int size, long idle, long keepAlive) {\n\tthis.size = size;\n\tthis.idle = idle;\n\tthis.keepAlive = keepAlive;\n}"},
		{path: "Pool.java", kind: "method", name: "Pool.getTask()", container: "Pool", cos: 0.5,
			content: work + "Runnable getTask() {\n\tif (idleTooLong()) {\n\t\treturn null;\n\t}\n\treturn queue.take();\n}"},
	})
	ctx := context.Background()
	res, err := Search(ctx, ix, Options{Query: "how do idle workers exit after the keep-alive time", K: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(res); len(got) != 2 || got[0] != "Pool.getTask" {
		t.Fatalf("a question about behaviour: %q, want Pool.getTask first (%v %v)", got, res.Results[0].Score, res.Results[1].Score)
	}
	res, err = Search(ctx, ix, Options{Query: "the constructor: how do idle workers exit after the keep-alive time", K: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(res); len(got) != 2 || got[0] != "Pool.Pool" {
		t.Fatalf("a question about construction: %q, want Pool.Pool first", got)
	}
}

// TestShortQueryNameMatch: a short query names what it looks for, so the
// method whose name is its words leads a long function whose body says
// them many times; a question longer than ShortGroups keywords is ranked
// without that rule.
func TestShortQueryNameMatch(t *testing.T) {
	long := "// execute parses the flags and runs the command.\nfunc (c *Command) execute(args []string) error {\n"
	for i := range 12 {
		long += fmt.Sprintf("\tc.mergeFlags() // persistent flags, step %d\n\tif err := c.Flags().Parse(args); err != nil {\n\t\treturn err\n\t}\n", i)
	}
	long += "\treturn c.Run(args)\n}"
	ix := buildIndex(t, []tchunk{
		{path: "command.go", kind: "method", name: "Command.execute(args []string)", container: "Command", cos: 0.5, content: long},
		{path: "command.go", kind: "method", name: "Command.PersistentFlags()", container: "Command", cos: 0.5,
			content: "// PersistentFlags returns the flag set that is inherited by sub-commands.\nfunc (c *Command) PersistentFlags() *FlagSet {\n\treturn c.pflags\n}"},
	})
	ctx := context.Background()
	for _, tc := range []struct {
		shortGroups int
		want        string
	}{
		{defaultParams.ShortGroups, "Command.PersistentFlags"},
		{1, "Command.execute"}, // two keywords are then a long question
	} {
		saved := defaultParams
		defaultParams.ShortGroups = tc.shortGroups
		res, err := Search(ctx, ix, Options{Query: "persistent flags", K: 2})
		defaultParams = saved
		if err != nil {
			t.Fatal(err)
		}
		if got := names(res); len(got) != 2 || got[0] != tc.want {
			t.Errorf("ShortGroups %d: %q, want %s first", tc.shortGroups, got, tc.want)
		}
	}
}

func TestNameFit(t *testing.T) {
	terms := map[string]bool{"persistent": true, "flags": true, "pager": true}
	for _, tc := range []struct {
		short string
		want  float64
	}{
		{"PersistentFlags", 1},
		{"mergePersistentFlags", 2.0 / 3},
		{"echo_via_pager", 1.0 / 3},
		{"flags", 1},
		{"execute", 0},
		{"", 0},
	} {
		if got := nameFit(tc.short, terms); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("nameFit(%q) = %v, want %v", tc.short, got, tc.want)
		}
	}
}

// TestUnreadKeywords: Chinese words for which no English is known and that
// the project's text does not contain are reported as not searched for,
// and the summary says so; a query all of whose keywords are such words
// says its results rest on semantic similarity alone.
func TestUnreadKeywords(t *testing.T) {
	ix := buildIndex(t, []tchunk{
		{path: "format.go", kind: "function", name: "Format(v any)", cos: 0.5, content: "// Format formats a value.\nfunc Format(v any) string { return fmt.Sprint(v) }"},
		{path: "era.go", kind: "function", name: "Era(year int)", cos: 0.4, content: "// Era returns the era of a year.\nfunc Era(year int) int { return year / 100 }"},
	})
	ctx := context.Background()
	for _, tc := range []struct {
		query   string
		unread  []string
		summary string
	}{
		{"日本 年号 format", []string{"日本", "年号"}, `Not searched for: "日本", "年号"`},
		{"日本 年号", []string{"日本", "年号"}, "No keyword could be searched for"},
		{"format", nil, "The best entry point"},
	} {
		res, err := Search(ctx, ix, Options{Query: tc.query, K: 2})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Unread, tc.unread) || !strings.HasPrefix(res.Summary, tc.summary) {
			t.Errorf("%q: unread %q, summary %q; want %q and a summary starting %q", tc.query, res.Unread, res.Summary, tc.unread, tc.summary)
		}
	}
}
