package serve_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"codectx/internal/serve"
	"codectx/internal/testfix"
	"codectx/pkg/codectx"
)

// copyFixture copies testdata/shop into a fresh directory (outside any
// git work tree) and returns it with symbolic links resolved.
func copyFixture(t testing.TB) string {
	t.Helper()
	return testfix.CopyTree(t, filepath.Join("testdata", "shop"))
}

// openIndexed opens root with its own database and the built-in embedder,
// and indexes it.
func openIndexed(t testing.TB, root string) *codectx.Project {
	t.Helper()
	p, err := codectx.Open(root, codectx.Options{DBPath: filepath.Join(t.TempDir(), "index.db"), Config: &codectx.Config{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	if _, err := p.Index(context.Background(), codectx.IndexOptions{}); err != nil {
		t.Fatalf("index %s: %v", root, err)
	}
	return p
}

// fixture is a served, indexed copy of testdata/shop.
type fixture struct {
	root string
	p    *codectx.Project
	srv  *serve.Server
	ts   *httptest.Server
}

func newFixture(t testing.TB, opt serve.Options) *fixture {
	t.Helper()
	root := copyFixture(t)
	p := openIndexed(t, root)
	return serveProjects(t, opt, root, p)
}

func serveProjects(t testing.TB, opt serve.Options, root string, ps ...*codectx.Project) *fixture {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := serve.New(ctx, ps, opt)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() {
		ts.Close()
		srv.Close()
		cancel()
	})
	return &fixture{root: root, p: ps[0], srv: srv, ts: ts}
}

// get requests path (with a query string) and returns the status and body.
func (f *fixture) get(t testing.TB, path string, hdr ...string) (int, []byte) {
	t.Helper()
	return f.do(t, http.MethodGet, path, "", nil, hdr...)
}

func (f *fixture) do(t testing.TB, method, path, ctype string, body io.Reader, hdr ...string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, f.ts.URL+path, body)
	if err != nil {
		t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, b
}

// q builds "/api/NAME?k=v&…" from pairs.
func q(name string, kv ...string) string {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Add(kv[i], kv[i+1])
	}
	s := "/api/" + name
	if len(v) > 0 {
		s += "?" + v.Encode()
	}
	return s
}

// cliJSON encodes v as the CLI's --json does.
func cliJSON(t testing.TB, v any) string {
	t.Helper()
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
