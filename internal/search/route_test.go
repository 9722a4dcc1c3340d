package search

import (
	"context"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"codectx/internal/query"
	"codectx/internal/store"
)

func TestRouteQuery(t *testing.T) {
	long := strings.Repeat("the client keeps the connection open for a while ", 4)
	tests := []struct {
		q         string
		kind      string
		frames    []frame
		idents    []string
		paths     []string
		docs, bld bool
		areas     []string
	}{
		{q: "how are cookies parsed from a header", kind: RouteLookup},
		{q: "where is DetectContentType called", kind: RouteLookup, idents: []string{"DetectContentType"}},
		{q: long, kind: RouteChange},
		{q: "the server should close idle connections on shutdown", kind: RouteChange},
		{q: "return an empty list instead of nil", kind: RouteChange},
		{q: "when the body is empty then the length header is wrong", kind: RouteChange},
		{q: "error: unexpected EOF reading the chunked body", kind: RouteChange},
		{q: "fix the retry logic in net/retry.go", kind: RouteChange, paths: []string{"net/retry.go"}},
		// Commit-style descriptions: an area prefix or an imperative verb first.
		{q: "store: apply resolved targets in one update", kind: RouteChange, areas: []string{"store"}},
		{q: "net/http: keep the header order on redirects", kind: RouteChange, areas: []string{"http"}},
		{q: "net/http, net/url: keep the header order on redirects", kind: RouteChange, areas: []string{"http", "url"}},
		{q: "lang,index: Python tuples unpacked in for targets", kind: RouteChange, areas: []string{"lang", "index"}},
		{q: "a, b, c, d, e: five areas, four kept", kind: RouteChange, areas: []string{"a", "b", "c", "d"}},
		{q: "fix(client): resend idempotent requests once", kind: RouteChange, areas: []string{"client"}},
		{q: "Add retries to the uploader", kind: RouteChange},
		{q: "Removes the cache of resolved names", kind: RouteChange},
		{q: "addresses of the listeners in the server", kind: RouteLookup},
		{q: "keep-alive connections in the transport", kind: RouteLookup},
		{q: "what does the store: prefix mean", kind: RouteLookup},
		{q: "panic: runtime error in web.(*Server).serve(0x1)\n\t/src/web/server.go:120 +0x1f", kind: RouteChange,
			frames: []frame{{file: "/src/web/server.go", line: 120}}, idents: []string{"serve"}},
		{q: "Traceback (most recent call last):\n  File \"app/models.py\", line 42, in save_user\nValueError: bad",
			kind: RouteChange, frames: []frame{{file: "app/models.py", line: 42, fn: "save_user"}}, idents: []string{"save_user"}, paths: []string{"app/models.py"}},
		{q: "java.lang.NullPointerException\n\tat com.acme.Cart.total(Cart.java:17)", kind: RouteChange,
			frames: []frame{{file: "Cart.java", line: 17, fn: "total"}}, idents: []string{"total"}, paths: []string{"Cart.java"}},
		{q: "connect to localhost:8080 fails with a timeout", kind: RouteChange},
		{q: "update the README with the build steps", kind: RouteChange, docs: true, bld: true},
	}
	for _, tt := range tests {
		q := buildQuery(tt.q, nil, query.DefaultOptions)
		r := routeQuery(tt.q, q.groups)
		if r.kind != tt.kind || !reflect.DeepEqual(r.frames, tt.frames) || r.aboutDocs != tt.docs || r.aboutBuild != tt.bld ||
			!reflect.DeepEqual(r.paths, tt.paths) || !reflect.DeepEqual(areaNames(r), tt.areas) {
			t.Errorf("routeQuery(%q) = %+v", tt.q, r)
		}
		for _, id := range tt.idents {
			if !slices.Contains(r.idents, id) {
				t.Errorf("routeQuery(%q): idents %v lack %q", tt.q, r.idents, id)
			}
		}
	}
}

func TestClassifyPath(t *testing.T) {
	tests := map[string]FileClass{
		"net/http/server.go": ClassSource, "go/doc/comment.go": ClassSource, "README.md": ClassDoc, "docs/guide.rst": ClassDoc,
		"pom.xml": ClassBuild, "sub/package-lock.json": ClassBuild, "go.sum": ClassBuild, ".github/workflows/ci.yml": ClassBuild,
		"config/app.yaml": ClassData, "locale/fr.json": ClassData, "api/v1/types.pb.go": ClassGenerated, "x_generated.go": ClassGenerated,
	}
	for p, want := range tests {
		if got := ClassifyPath(p); got != want {
			t.Errorf("ClassifyPath(%q) = %d, want %d", p, got, want)
		}
	}
}

const retryBody = `func shouldRetry(req *Request, err error) bool {
	if req.GetBody == nil {
		return false
	}
	return isIdempotent(req.Method) && err != nil
}`

func TestChangeRequestRouting(t *testing.T) {
	chunks := []tchunk{
		{path: "client/retry.go", kind: "function", name: "shouldRetry(req *Request, err error)", cos: 0.5, content: retryBody},
		{path: "client/retry.go", kind: "function", name: "backoff(n int)", cos: 0.5, content: "func backoff(n int) time.Duration {\n\t// retry requests with a growing delay\n\treturn time.Duration(n) * time.Second\n}"},
		{path: "client/v2/retry.go", kind: "function", name: "shouldRetry(req *Request, err error)", cos: 0.5, content: retryBody + "\n// v2"},
		{path: "copy/retry.go", kind: "function", name: "shouldRetry(req *Request, err error)", cos: 0.5, content: retryBody, sha: "same"},
		{path: "copy/retry2.go", kind: "function", name: "shouldRetry(req *Request, err error)", cos: 0.5, content: retryBody, sha: "same"},
		{path: "docs/retry.md", kind: "text", name: "Retries", cos: 0.6, content: "Requests are retried when the connection resets: retry idempotent requests, rewind the body, retry retry."},
		{path: "client/transport.go", kind: "function", name: "roundTrip(req *Request)", cos: 0.4, start: 100, end: 140,
			content: "func roundTrip(req *Request) (*Response, error) {\n\tresp, err := send(req)\n\treturn resp, err\n}"},
		{path: "client/transport.go", kind: "function", name: "dial(addr string)", cos: 0.4, start: 10, end: 40,
			content: "func dial(addr string) (net.Conn, error) {\n\t// a nil map would panic here\n\tconns := map[string]net.Conn{}\n\treturn conns[addr], nil\n}"},
	}
	ix := buildIndex(t, chunks)
	ctx := context.Background()

	// A question: chunks, the markdown guide may come first.
	res, err := Search(ctx, ix, Options{Query: "retry idempotent requests", K: 5})
	if err != nil {
		t.Fatal(err)
	}
	if res.Route != RouteLookup {
		t.Fatalf("route %q", res.Route)
	}

	// A change request: one entry per file, docs demoted below source,
	// the v2 copy and the identical copy collapsed into the first.
	res, err = Search(ctx, ix, Options{Query: "retry should not resend idempotent requests whose body cannot be rewound", K: 5})
	if err != nil {
		t.Fatal(err)
	}
	if res.Route != RouteChange {
		t.Fatalf("route %q", res.Route)
	}
	var files []string
	for _, h := range res.Results {
		files = append(files, h.File)
	}
	if len(files) == 0 || files[0] != "client/retry.go" {
		t.Fatalf("files %v", files)
	}
	for i, f := range files {
		if slices.Index(files, f) != i {
			t.Fatalf("file %s twice in a change answer: %v", f, files)
		}
		if f == "client/v2/retry.go" || f == "copy/retry2.go" {
			t.Fatalf("duplicate %s not collapsed: %v", f, files)
		}
	}
	if also := res.Results[0].Also; !slices.Contains(also, "client/v2/retry.go") {
		t.Fatalf("also %v", also)
	}
	// Identical files: one entry, the other noted.
	for _, h := range res.Results {
		if h.File == "copy/retry.go" && !slices.Contains(h.Also, "copy/retry2.go") {
			t.Fatalf("identical file not noted: %+v", h)
		}
	}
	// The same request about the documentation puts the guide first.
	res, err = Search(ctx, ix, Options{Query: "the retry docs should say that idempotent requests are retried when the connection resets", K: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) == 0 || res.Results[0].File != "docs/retry.md" {
		t.Fatalf("docs question: %v", res.Results)
	}
	res, err = Search(ctx, ix, Options{Query: "idempotent requests should be retried when the connection resets", K: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) == 0 || res.Results[0].File == "docs/retry.md" {
		t.Fatalf("docs first for a code change: %v", res.Results)
	}

	// A stack trace frame is a direct hit on the chunk holding its line.
	res, err = Search(ctx, ix, Options{Query: "panic: nil map\n\t/home/u/src/client/transport.go:120 +0x1f", K: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) == 0 || res.Results[0].File != "client/transport.go" || res.Results[0].Symbol != "roundTrip" {
		t.Fatalf("frame: %+v", res.Results)
	}
}

func TestLayoutKey(t *testing.T) {
	for in, want := range map[string]string{"lib/v3/codec.go": "lib/codec.go", "v2/a.go": "a.go", "api/v1beta1/t.go": "api/t.go", "v2.go": "v2.go", "lib/version/a.go": "lib/version/a.go"} {
		if got := layoutKey(in); got != want {
			t.Errorf("layoutKey(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNoConfidentMatch(t *testing.T) {
	var chunks []tchunk
	for i, name := range []string{"shouldRetry", "backoff", "dial", "roundTrip", "closeIdle", "readHeader"} {
		chunks = append(chunks, tchunk{path: "client/f" + string(rune('a'+i)) + ".go", kind: "function", name: name + "()", cos: 0.5,
			content: "func " + name + "() {\n\t// retry the request on a new connection\n\tsend(request, connection)\n}"})
	}
	ix := buildIndex(t, chunks)
	ctx := context.Background()
	res, err := Search(ctx, ix, Options{Query: "retry the request on a new connection", K: 5})
	if err != nil {
		t.Fatal(err)
	}
	if res.NoConfidentMatch || res.Confidence < MinConfidence || len(res.Results) != 5 {
		t.Fatalf("matching query: confidence %v, flagged %v, %d results", res.Confidence, res.NoConfidentMatch, len(res.Results))
	}
	res, err = Search(ctx, ix, Options{Query: "how are GraphQL subscriptions batched over websockets for the request", K: 5})
	if err != nil {
		t.Fatal(err)
	}
	if !res.NoConfidentMatch || res.Confidence >= MinConfidence || len(res.Results) > weakResults {
		t.Fatalf("absent words: confidence %v, flagged %v, %d results", res.Confidence, res.NoConfidentMatch, len(res.Results))
	}
	if !strings.HasPrefix(res.GrepPattern, "graphql|") || !strings.Contains(res.Summary, "No confident match") {
		t.Fatalf("grep pattern %q, summary %q", res.GrepPattern, res.Summary)
	}
	// Chinese words the lexicon cannot translate say nothing about the
	// project: the translated ones decide.
	zh := "在新的连接上重试请求，咕噜咕噜，嘀嗒嘀嗒，噼里啪啦"
	unread := 0
	for _, g := range buildQuery(zh, nil, query.DefaultOptions).groups {
		if unreadGroup(g) {
			unread++
		}
	}
	if unread < 2 {
		t.Fatalf("the test needs untranslatable words: %d in %q", unread, zh)
	}
	res, err = Search(ctx, ix, Options{Query: zh, K: 5})
	if err != nil {
		t.Fatal(err)
	}
	if res.NoConfidentMatch || res.Confidence < MinConfidence {
		t.Fatalf("untranslatable words flagged a matching question: confidence %v, flagged %v", res.Confidence, res.NoConfidentMatch)
	}
}

// A Chinese word that only the general dictionary translates is still
// unread: its glosses are guesses, and when they match nothing, the word's
// absence says nothing about the project.
func TestUnreadGroup(t *testing.T) {
	for _, tt := range []struct {
		g    termGroup
		want bool
	}{
		{termGroup{keyword: "咕噜", terms: []query.Term{{Text: "咕噜", Weight: 1, Source: query.SourceCJK}}}, true},
		{termGroup{keyword: "陷阱", terms: []query.Term{{Text: "陷阱", Weight: 1, Source: query.SourceCJK}, {Text: "trap", Weight: query.WeightGloss, Source: query.SourceDictionary}}}, true},
		{termGroup{keyword: "重试", terms: []query.Term{{Text: "重试", Weight: 1, Source: query.SourceCJK}, {Text: "retry", Weight: query.WeightLexicon, Source: query.SourceLexicon}}}, false},
		{termGroup{keyword: "retry", terms: []query.Term{{Text: "retry", Weight: 1, Source: query.SourceWord}}}, false},
	} {
		if got := unreadGroup(tt.g); got != tt.want {
			t.Errorf("unreadGroup(%q) = %v, want %v", tt.g.keyword, got, tt.want)
		}
	}
}

func TestTermWeight(t *testing.T) {
	for _, tc := range []struct {
		term    query.Term
		standIn bool
		want    float64
	}{
		{query.Term{Text: "retry", Weight: query.WeightLexicon, Source: query.SourceLexicon}, true, query.WeightQuery},
		{query.Term{Text: "trap", Weight: query.WeightGloss, Source: query.SourceDictionary}, true, query.WeightQuery},
		{query.Term{Text: "trap", Weight: query.WeightGloss, Source: query.SourceDictionary}, false, query.WeightGloss},
		{query.Term{Text: "重试", Weight: 1, Source: query.SourceCJK}, true, 1},
		{query.Term{Text: "login", Weight: query.WeightSynonym, Source: query.SourceSynonym}, true, query.WeightSynonym},
	} {
		if got := termWeight(tc.term, tc.standIn); got != tc.want {
			t.Errorf("termWeight(%+v, %v) = %v, want %v", tc.term, tc.standIn, got, tc.want)
		}
	}
}

func TestTranslationsStandIn(t *testing.T) {
	g := termGroup{keyword: "重试", terms: []query.Term{
		{Text: "重试", Weight: 1, Source: query.SourceCJK}, {Text: "retry", Weight: query.WeightLexicon, Source: query.SourceLexicon}}}
	byText := map[string]int{"重试": 0, "retry": 1}
	silent := []termResult{{text: "重试"}, {text: "retry", hits: []termHit{{idx: 1}}}}
	if !translationsStandIn(g, byText, silent) {
		t.Error("Chinese word absent from the project: translations should stand in")
	}
	present := []termResult{{text: "重试", hits: []termHit{{idx: 2}}}, {text: "retry", hits: []termHit{{idx: 1}}}}
	if translationsStandIn(g, byText, present) {
		t.Error("Chinese word in the project: translations keep their weight")
	}
	en := termGroup{keyword: "retry", terms: []query.Term{{Text: "retry", Weight: 1, Source: query.SourceWord}}}
	if translationsStandIn(en, byText, silent) {
		t.Error("an English group has no translations to raise")
	}
}

func TestPathWords(t *testing.T) {
	got := pathWords("internal/store/read_only.go")
	for _, w := range []string{"internal", "store", "read_only", "read", "only"} {
		if !got[w] {
			t.Errorf("pathWords lacks %q: %v", w, got)
		}
	}
	if got["go"] || got["read_only.go"] {
		t.Errorf("pathWords kept the extension: %v", got)
	}
}

// A change request that mentions tests is still answered with the code to
// change (test files stay demoted), and its area prefix points into the
// directory it names.
func TestChangeRequestTestsAndArea(t *testing.T) {
	body := func(name string) string {
		return "func " + name + "(req *Request) bool {\n\t// rewind the request body before a retry: a resent request carries its payload\n\tif req.GetBody == nil {\n\t\treturn false\n\t}\n\tbody, err := req.GetBody()\n\tif err != nil {\n\t\treturn false\n\t}\n\treq.Body = body\n\treturn true\n}"
	}
	chunks := []tchunk{
		{path: "client/retry.go", kind: "function", name: "canRewind(req *Request)", cos: 0.5, content: body("canRewind")},
		{path: "client/retry_test.go", kind: "function", name: "TestRetry(t *testing.T)", cos: 0.5,
			content: "func TestRetry(t *testing.T) {\n\tif !canRewind(newRequest()) {\n\t\tt.Fatal(\"body not rewound before a retry\")\n\t}\n}"},
		// Names the server, but lies outside it.
		{path: "proxy/retry.go", kind: "function", name: "serverRewind(req *Request)", cos: 0.5, content: body("serverRewind")},
		{path: "server/retry.go", kind: "function", name: "mayRewind(req *Request)", cos: 0.5, content: body("mayRewind")},
	}
	ix := buildIndex(t, chunks)
	ctx := context.Background()
	first := func(q string) string {
		t.Helper()
		res, err := Search(ctx, ix, Options{Query: q, K: 3})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Results) == 0 {
			t.Fatalf("%q: no results", q)
		}
		return res.Results[0].File
	}
	// A question about tests finds the test.
	if f := first("test that the body is rewound before a retry"); f != "client/retry_test.go" {
		t.Errorf("question about tests: first %s", f)
	}
	// The same words as a change request: the code under test.
	if f := first("client: rewind the request body before a retry so that a resent request carries its payload; test it"); f != "client/retry.go" {
		t.Errorf("change request mentioning tests: first %s", f)
	}
	// The area prefix points into its directory.
	if f := first("server: rewind the retry body before a retry"); f != "server/retry.go" {
		t.Errorf("area server: first %s", f)
	}
	if f := first("client: rewind the retry body before a retry"); f != "client/retry.go" {
		t.Errorf("area client: first %s", f)
	}
}

func TestChangeRequestAsides(t *testing.T) {
	closeBody := "func (p *pool) sweep(now time.Time) {\n\t// drop what sat unused for longer than allowed\n\tfor _, c := range p.idle {\n\t\tif now.Sub(c.since) > p.cfg.IdleTimeout {\n\t\t\tc.Close()\n\t\t}\n\t}\n}"
	chunks := []tchunk{
		{path: "client/pool.go", kind: "method", name: "pool.sweep(now time.Time)", cos: 0.4, content: closeBody},
		{path: "client/config.go", kind: "type", name: "Config", cos: 0.3,
			content: "type Config struct {\n\tIdleTimeout int\n\tMaxConns int\n}"},
		{path: "client/retry.go", kind: "function", name: "retryDelay(n int)", cos: 0.4,
			content: "func retryDelay(n int) time.Duration {\n\t// change the delay before retry n (an int) into a time.Duration: the timeout grows from int seconds\n\treturn time.Duration(n*n) * time.Second\n}"},
		{path: "CHANGELOG.md", kind: "text", name: "1.2.0", cos: 0.8,
			content: "## 1.2.0\n- Fix the pool so it closes idle connections once the idle timeout has passed.\n## 1.1.0\n- The pool closes idle connections: an idle pool, idle connections closed, the idle timeout passed."},
		{path: "examples/pool/main.go", kind: "function", name: "main()", cos: 0.5,
			content: "func main() {\n\t// the pool closes idle connections once the idle timeout has passed\n\tp := client.NewPool(client.Config{IdleTimeout: 30})\n\tp.CloseIdle()\n}"},
	}
	ix := buildIndex(t, chunks)
	ctx := context.Background()
	files := func(q string) []string {
		t.Helper()
		res, err := Search(ctx, ix, Options{Query: q, K: 5})
		if err != nil {
			t.Fatal(err)
		}
		if res.Route != RouteChange {
			t.Fatalf("%q: route %q", q, res.Route)
		}
		var out []string
		for _, h := range res.Results {
			out = append(out, h.File)
		}
		return out
	}
	// The changelog and the example share the request's words; the code
	// to change comes first.
	if f := files("Fix the pool so it closes idle connections once the idle timeout has passed"); len(f) == 0 || f[0] != "client/pool.go" {
		t.Errorf("change request: files %v", f)
	}
	// Unless the request is about the changelog.
	if f := files("the changelog should say that the pool closes idle connections once the idle timeout has passed"); len(f) == 0 || f[0] != "CHANGELOG.md" {
		t.Errorf("change request about the changelog: files %v", f)
	}
	// A struct field has no definition of its own: its type's counts (and
	// puts it ahead of code that shares more of the request's words).
	if f := files("change Config.IdleTimeout from int to time.Duration"); slices.Index(f, "client/config.go") < 0 ||
		slices.Index(f, "client/config.go") > slices.Index(f, "client/pool.go") {
		t.Errorf("qualified field: files %v", f)
	}
}

func TestAsidePaths(t *testing.T) {
	for p, want := range map[string][2]bool{
		"examples/basic/main.go": {true, false}, "_examples/x.go": {true, false}, "lib/demo/a.js": {true, false},
		"client/example.go": {false, false}, "CHANGELOG.md": {false, true}, "docs/History.md": {false, true},
		"NEWS": {false, true}, "release-notes.md": {false, true}, "internal/history/history.go": {false, false},
		"changes.json": {false, false}, "README.md": {false, false},
	} {
		if got := [2]bool{IsExamplePath(p), IsChangelogPath(p)}; got != want {
			t.Errorf("%s: example, changelog = %v, want %v", p, got, want)
		}
	}
}

func TestAddFileEvidence(t *testing.T) {
	snap := &snapshot{chunks: []store.ChunkMeta{{ID: 1, FileID: 1}, {ID: 2, FileID: 2}, {ID: 3, FileID: 2}, {ID: 4, FileID: 2}}}
	list := []scored{{idx: 0, score: 1.0}, {idx: 1, score: 0.95}, {idx: 2, score: 0.9}, {idx: 3, score: -0.5}}
	p := defaultParams
	p.WFile, p.ChangeFileDecay, p.ChangeFileTop = 0.2, 0.5, 5
	addFileEvidence(snap, list, p, nil)
	// File 1: 1.0 + 0.2·1.0; file 2's best: 0.95 + 0.2·(0.95 + 0.5·0.9 + 0) — more evidence, ranked first.
	want := []float64{1.2, 0.95 + 0.2*1.4, 0.9 + 0.2*1.4, -0.5 + 0.2*1.4}
	for i, w := range want {
		if math.Abs(list[i].score-w) > 1e-9 {
			t.Errorf("chunk %d: score %v, want %v", i, list[i].score, w)
		}
	}
	if list[1].score <= list[0].score {
		t.Errorf("file with more evidence not ahead: %v", list)
	}
}

func TestInArea(t *testing.T) {
	tests := []struct {
		q, path string
		want    bool
	}{
		{"serve: graph takes a confidence", "internal/serve/api.go", true},
		{"serve: graph takes a confidence", "cmd/tool/serve.go", false}, // a file stem alone is not the area
		{"net/http: keep the header order", "src/net/http/header.go", true},
		{"mm/slub: free the slab once", "mm/slub.c", true},
		{"mm/slub: free the slab once", "fs/slub.c", false},
		{"fix(graph-oracle): count callers", "internal/tools/graph-oracle/main.go", true},
		{"store: read rows once", "internal/storage/read.go", false},
		{"search, vecindex: quantise as read", "internal/vecindex/quant.go", true},
		{"search, vecindex: quantise as read", "internal/search/snapshot.go", true},
		{"search, vecindex: quantise as read", "internal/store/vectors.go", false},
		{"net/http, mm/slub: two kinds", "mm/slub.c", true},
		{"how are rows read", "internal/store/read.go", false},
	}
	for _, tt := range tests {
		r := routeQuery(tt.q, buildQuery(tt.q, nil, query.DefaultOptions).groups)
		if got := r.inArea(tt.path); got != tt.want {
			t.Errorf("%q: inArea(%q) = %v, want %v (areas %+v)", tt.q, tt.path, got, tt.want, r.areas)
		}
	}
}

// areaNames lists the names of a route's areas (nil when none).
func areaNames(r route) []string {
	var out []string
	for _, a := range r.areas {
		out = append(out, a.name)
	}
	return out
}

func TestCallerQuestion(t *testing.T) {
	for _, tc := range []struct{ query, want string }{
		{"who calls DetectContentType", "DetectContentType"},
		{"which code paths call DetectContentType to guess a MIME type", "DetectContentType"},
		{"where is tryPutIdleConn called", "tryPutIdleConn"},
		{"callers of Transport.roundTrip", "Transport.roundTrip"},
		{"shouldRetryRequest 是在哪里被调用的？重试之前请求体是怎么重新取回的", "shouldRetryRequest"},
		{"YAMLToJSON 在库内部都被哪些地方调用了", "YAMLToJSON"},
		{"哪些地方调用了 parseAddressString", "parseAddressString"},
		{"ParseIPv4Mask 是导出给外部用的，包里自己有哪些地方调用了它", "ParseIPv4Mask"},
		{"用 RegisterFlagCompletionFunc 注册的补全函数，在补全的时候是在哪里被取出来调用的", ""},
		{"在 ZoneRules 里生成切换点的方法是在哪里被调用的，ZoneOffsetTransitionRule 又是怎么缓存的", ""},
		{"ZoneOffsetTransitionRule 生成切换点的方法，在 ZoneRules 里是在哪里被调用的", ""},
		{"how does tryPutIdleConn decide to close a connection", ""},
		{"who calls the", ""},
		{"who calls urlopen", "urlopen"},
		{"where is urlopen called", "urlopen"},
		{"检查重复 key 的那个 accumulator 在哪些工厂方法里被用到", ""},
	} {
		q := buildQuery(tc.query, nil, query.DefaultOptions)
		r := routeQuery(q.raw, q.groups)
		if r.callee != tc.want {
			t.Errorf("%q: callee %q, want %q (idents %q)", tc.query, r.callee, tc.want, r.idents)
		}
	}
}

// TestDropCallerWords: in a question for the callers of X, the words that
// ask for callers are not searched for.
func TestDropCallerWords(t *testing.T) {
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"who calls shouldRetry", []string{"shouldRetry"}},
		{"where is shouldRetry used by the pool", []string{"shouldRetry", "pool"}},
		{"shouldRetry 在哪里被调用", []string{"shouldRetry"}},
	} {
		q := buildQuery(tc.query, nil, query.DefaultOptions)
		q.dropCallerWords()
		var got []string
		for _, g := range q.groups {
			got = append(got, g.keyword)
		}
		if !slices.Equal(got, tc.want) || !slices.Equal(q.keywords, tc.want) {
			t.Errorf("%q: groups %q, keywords %q, want %q", tc.query, got, q.keywords, tc.want)
		}
	}
}

func TestTestSubjects(t *testing.T) {
	for p, want := range map[string][]string{
		"net/http/server_test.go":             {"net/http/server.go"},
		"pkg/test_parser.py":                  {"pkg/parser.py"},
		"pkg/parser_test.py":                  {"pkg/parser.py"},
		"src/utils.test.js":                   {"src/utils.js"},
		"src/api.spec.ts":                     {"src/api.ts"},
		"src/test/java/org/x/ParserTest.java": {"src/test/java/org/x/Parser.java", "src/main/java/org/x/Parser.java"},
		"lib/ParserTest.java":                 {"lib/Parser.java"},
		"tests/conftest.py":                   nil,
		"net/http/server.go":                  nil,
		"_test.go":                            nil,
	} {
		if got := TestSubjects(p); !slices.Equal(got, want) {
			t.Errorf("TestSubjects(%q) = %q, want %q", p, got, want)
		}
	}
}

func TestTestsBelowSubjects(t *testing.T) {
	// The test repeats the query's words more often than the code it tests.
	chunks := []tchunk{
		{path: "client/limit.go", kind: "function", name: "limitBody(r io.Reader, n int64)", cos: 0.4,
			content: "func limitBody(r io.Reader, n int64) io.Reader {\n\t// cap how much of a request body is read\n\treturn io.LimitReader(r, n)\n}"},
		{path: "client/limit_test.go", kind: "function", name: "TestLimitBody(t *testing.T)", cos: 0.6,
			content: "func TestLimitBody(t *testing.T) {\n\t// cap the request body: a body longer than the cap is cut at the cap\n\tbody := limitBody(strings.NewReader(\"request body over the cap\"), 4)\n\tcheckCap(t, body, \"request body cap\")\n}"},
		{path: "client/other.go", kind: "function", name: "other()", cos: 0.1, content: "func other() {}"},
	}
	ix := buildIndex(t, chunks)
	res, err := Search(context.Background(), ix, Options{Query: "where is the request body cut at the cap", K: 5})
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, h := range res.Results {
		files = append(files, h.File)
	}
	if len(files) < 2 || files[0] != "client/limit.go" {
		t.Errorf("the code under test should come before its test: %v", files)
	}
	// A question about tests still finds the test first.
	res, err = Search(context.Background(), ix, Options{Query: "which test checks that the request body is cut at the cap", K: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) == 0 || res.Results[0].File != "client/limit_test.go" {
		t.Errorf("question about tests: %+v", res.Results)
	}
}
