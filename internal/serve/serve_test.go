package serve_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"codectx/internal/serve"
	"codectx/pkg/codectx"
)

// TestEndpoints covers every read endpoint with good and bad input: the
// status code and a piece of the body.
func TestEndpoints(t *testing.T) {
	f := newFixture(t, serve.Options{})
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("top secret\n"), 0o644)
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(f.root, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(f.root, "linkdir")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		path   string
		status int
		want   string // a substring of the body
	}{
		{"projects", "/api/projects", 200, `"id": "`},
		{"search", q("search", "query", "retry failed payments with backoff"), 200, `"name": "RetryPayment(`},
		{"search chinese", q("search", "query", "失败重试"), 200, `"file": "payment/payment.go"`},
		{"search keywords", q("search", "query", "charge", "keywords", "CardGateway", "keywords", "Charge", "top_k", "2"), 200, `CardGateway.Charge`},
		{"search by project id", q("search", "query", "cart total", "project", filepath.Base(f.root)), 200, `Cart.Total`},
		{"search by project root", q("search", "query", "cart total", "project", f.root), 200, `Cart.Total`},
		{"search unknown project", q("search", "query", "x", "project", "nope"), 404, `unknown project \"nope\"`},
		{"search unknown root", q("search", "query", "x", "project", "/etc"), 404, `unknown project`},
		{"search empty query", q("search", "query", " "), 400, `empty query`},
		{"search no query", q("search"), 400, `empty query`},
		{"search top_k not a number", q("search", "query", "x", "top_k", "ten"), 400, `top_k must be an integer`},
		{"search top_k too big", q("search", "query", "cart", "top_k", "99"), 400, `between 1 and 30`},
		{"search bad mode", q("search", "query", "cart", "mode", "fuzzy"), 400, `unknown mode`},
		{"search unknown parameter", q("search", "query", "cart", "topk", "3"), 400, `unknown parameter \"topk\"`},
		{"search repeated parameter", "/api/search?query=a&query=b", 400, `given 2 times`},

		{"context", q("context", "query", "how does checkout charge the card", "budget", "600"), 200, `"tokens": `},
		{"context depth as digit", q("context", "query", "checkout", "depth", "1"), 200, `"depth": 1`},
		{"context bad depth", q("context", "query", "checkout", "depth", "7"), 400, `depth`},
		{"context negative budget", q("context", "query", "checkout", "budget", "-5"), 400, `budget must be positive`},
		{"context empty", q("context", "query", ""), 400, `empty query`},

		{"graph", q("graph", "name", "RetryPayment"), 200, `"kind": "calls"`},
		{"graph implementations", q("graph", "name", "Notifier", "direction", "in"), 200, `"kind": "implements"`},
		{"graph unknown", q("graph", "name", "RetryPaymnt"), 404, `RetryPayment`},
		{"graph empty name", q("graph", "name", ""), 400, `name must not be empty`},
		{"graph bad direction", q("graph", "name", "Cart", "direction", "up"), 400, `direction must be out, in or both`},
		{"graph negative depth", q("graph", "name", "Cart", "depth", "-1"), 400, `depth must be positive`},
		{"graph min confidence", q("graph", "name", "RetryPayment", "min_confidence", "exact"), 200, `"resolution": "exact"`},
		{"graph bad min confidence", q("graph", "name", "Cart", "min_confidence", "sure"), 400, `min_confidence must be one of`},

		{"grep", q("grep", "pattern", "func RetryPayment"), 200, `"path": "payment/payment.go"`},
		{"grep fixed ignore case", q("grep", "pattern", "errgiveup", "fixed", "true", "ignore_case", "true"), 200, `"matches": `},
		{"grep bad regexp", q("grep", "pattern", "(unclosed"), 400, `pattern`},
		{"grep empty", q("grep", "pattern", ""), 400, `empty pattern`},
		{"grep traversal", q("grep", "pattern", "x", "path", "../"), 403, `outside the project root`},
		{"grep absolute outside", q("grep", "pattern", "secret", "path", outside), 403, `outside the project root`},
		{"grep through symlinked dir", q("grep", "pattern", "secret", "path", "linkdir"), 403, `outside the project root`},
		{"grep bad bool", q("grep", "pattern", "x", "fixed", "maybe"), 400, `fixed must be true or false`},

		{"glob", q("glob", "pattern", "**/*.go"), 200, `"path": "checkout/checkout.go"`},
		{"glob traversal pattern", q("glob", "pattern", "../**"), 403, `outside the project root`},
		{"glob absolute path", q("glob", "pattern", "*", "path", "/etc"), 403, `outside the project root`},
		{"glob bad sort", q("glob", "pattern", "*", "sort", "size"), 400, `sort`},

		{"read", q("read", "file", "payment/payment.go", "offset", "31", "limit", "3"), 200, `"number": 31`},
		{"read absolute inside", q("read", "file", filepath.Join(f.root, "README.md")), 200, `"path": "README.md"`},
		{"read traversal", q("read", "file", "../../../../etc/passwd"), 403, `outside the project root`},
		{"read traversal inside path", q("read", "file", "payment/../../outside.txt"), 403, `outside the project root`},
		{"read absolute outside", q("read", "file", "/etc/passwd"), 403, `outside the project root`},
		{"read symlink outside", q("read", "file", "link.txt"), 403, `outside the project root`},
		{"read missing", q("read", "file", "nope.go"), 404, `does not exist`},
		{"read no file", q("read"), 400, `no file given`},
		{"read bad offset", q("read", "file", "README.md", "offset", "x"), 400, `offset must be an integer`},
		{"read offset past end", q("read", "file", "README.md", "offset", "999"), 400, `offset`},
		{"read directory", q("read", "file", "payment"), 400, `payment`},

		{"status", q("status"), 200, `"indexed": true`},
		{"status unknown parameter", q("status", "verbose", "1"), 400, `unknown parameter`},
		{"unknown endpoint", "/api/nope", 404, `no API endpoint`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status, body := f.get(t, tc.path)
			if status != tc.status || !strings.Contains(string(body), tc.want) {
				t.Fatalf("GET %s: %d, want %d with %q\n%s", tc.path, status, tc.status, tc.want, body)
			}
			if strings.Contains(string(body), "top secret") {
				t.Fatalf("GET %s returned a file outside the root:\n%s", tc.path, body)
			}
			var v any
			if err := json.Unmarshal(body, &v); err != nil {
				t.Fatalf("GET %s: body is not JSON: %v\n%s", tc.path, err, body)
			}
		})
	}
}

// TestSameJSONAsCLI: the API answers with the JSON the CLI's --json prints
// (the same pkg/codectx result, encoded the same way).
func TestSameJSONAsCLI(t *testing.T) {
	f := newFixture(t, serve.Options{})
	ctx := context.Background()
	search, err := f.p.Search(ctx, codectx.SearchOptions{Query: "retry failed payments", K: 3})
	if err != nil {
		t.Fatal(err)
	}
	explained, err := f.p.Search(ctx, codectx.SearchOptions{Query: "retry failed payments", K: 3, Explain: true})
	if err != nil {
		t.Fatal(err)
	}
	graph, err := f.p.Graph(ctx, codectx.GraphOptions{Name: "Cart", Depth: 1})
	if err != nil {
		t.Fatal(err)
	}
	graphJSON, err := graph.Format(codectx.GraphFormatJSON)
	if err != nil {
		t.Fatal(err)
	}
	read, err := f.p.Read(ctx, codectx.ReadOptions{File: "checkout/checkout.go", Offset: 2, Limit: 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, want string
	}{
		{q("search", "query", "retry failed payments", "top_k", "3"), cliJSON(t, search)},
		{q("search", "query", "retry failed payments", "top_k", "3", "explain", "true"), cliJSON(t, explained)},
		{q("graph", "name", "Cart", "depth", "1"), graphJSON},
		{q("read", "file", "checkout/checkout.go", "offset", "2", "limit", "4"), cliJSON(t, read)},
	} {
		status, body := f.get(t, tc.path)
		if status != 200 || string(body) != tc.want {
			t.Errorf("GET %s: %d\n%s\nwant the CLI's JSON:\n%s", tc.path, status, body, tc.want)
		}
	}
	// A POST with a JSON body answers as the GET does.
	status, body := f.do(t, http.MethodPost, "/api/search", "application/json", strings.NewReader(`{"query": "retry failed payments", "top_k": 3}`))
	if status != 200 || string(body) != cliJSON(t, search) {
		t.Errorf("POST /api/search: %d\n%s", status, body)
	}
}

func TestPostBodies(t *testing.T) {
	f := newFixture(t, serve.Options{MaxBody: 256})
	tests := []struct {
		name, ctype, body string
		status            int
		want              string
	}{
		{"json", "application/json", `{"query":"cart total","keywords":["Total"]}`, 200, `Cart.Total`},
		{"form", "application/x-www-form-urlencoded", `query=cart+total`, 200, `Cart.Total`},
		{"not an object", "application/json", `["query"]`, 400, `JSON object`},
		{"two objects", "application/json", `{"query":"a"} {"query":"b"}`, 400, `one JSON object`},
		{"wrong type", "application/json", `{"query":"a","top_k":"many"}`, 400, `top_k must be an integer`},
		{"keywords not strings", "application/json", `{"query":"a","keywords":[1]}`, 400, `array of strings`},
		{"text body", "text/plain", `query=a`, 400, `must be JSON`},
		{"too large", "application/json", `{"query":"` + strings.Repeat("x", 400) + `"}`, 413, `larger than 256 bytes`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status, body := f.do(t, http.MethodPost, "/api/search", tc.ctype, strings.NewReader(tc.body))
			if status != tc.status || !strings.Contains(string(body), tc.want) {
				t.Fatalf("%d, want %d with %q\n%s", status, tc.status, tc.want, body)
			}
		})
	}
}

func TestBoolParams(t *testing.T) {
	f := newFixture(t, serve.Options{})
	for _, tc := range []struct {
		method, path, body string
		status             int
	}{
		{"GET", "/api/grep?pattern=ErrGiveUp&fixed", "", 200},
		{"GET", "/api/grep?pattern=ErrGiveUp&fixed=no", "", 200},
		{"POST", "/api/grep", `{"pattern":"ErrGiveUp","fixed":true}`, 200},
		{"POST", "/api/grep", `{"pattern":"ErrGiveUp","fixed":""}`, 400},
		{"POST", "/api/grep", `{"pattern":"ErrGiveUp","fixed":1}`, 400},
	} {
		status, b := f.do(t, tc.method, tc.path, "application/json", strings.NewReader(tc.body))
		if status != tc.status {
			t.Errorf("%s %s %s: %d, want %d\n%s", tc.method, tc.path, tc.body, status, tc.status, b)
		}
	}
}

func TestWrites(t *testing.T) {
	t.Run("disabled", func(t *testing.T) {
		f := newFixture(t, serve.Options{})
		for _, path := range []string{"/api/reindex", "/api/feedback"} {
			status, body := f.do(t, http.MethodPost, path, "application/json", strings.NewReader(`{}`))
			if status != 403 || !strings.Contains(string(body), "disabled") {
				t.Errorf("POST %s: %d %s", path, status, body)
			}
			if status, _ := f.get(t, path); status != http.StatusMethodNotAllowed {
				t.Errorf("GET %s: %d, want 405", path, status)
			}
		}
	})
	t.Run("enabled", func(t *testing.T) {
		f := newFixture(t, serve.Options{AllowWrites: true})
		tests := []struct {
			path, body string
			status     int
			want       string
		}{
			{"/api/reindex", `{}`, 200, `"summary"`},
			{"/api/reindex", `{"background": true}`, 200, `"started": true`},
			{"/api/reindex", `{"background": "soon"}`, 400, `background must be true or false`},
			{"/api/feedback", `{"query":"retry payments","result_id":"payment/payment.go:31","vote":"up"}`, 200, `"symbol": "RetryPayment"`},
			{"/api/feedback", `{"query":"retry payments","result_id":"payment/payment.go#RetryPayment","vote":"down"}`, 200, `"vote": -1`},
			{"/api/feedback", `{"query":"retry payments","result_id":"payment/payment.go:31","vote":"sideways"}`, 400, `vote must be up or down`},
			{"/api/feedback", `{"query":"retry payments","result_id":"nonsense","vote":"up"}`, 400, `FILE:LINE`},
			{"/api/feedback", `{"query":"retry payments","result_id":"payment/payment.go#Nope","vote":"up"}`, 400, `no chunk Nope`},
			{"/api/feedback", `{"query":"","result_id":"payment/payment.go:31","vote":"up"}`, 400, `empty query`},
		}
		for _, tc := range tests {
			status, body := f.do(t, http.MethodPost, tc.path, "application/json", strings.NewReader(tc.body))
			if status != tc.status || !strings.Contains(string(body), tc.want) {
				t.Errorf("POST %s %s: %d, want %d with %q\n%s", tc.path, tc.body, status, tc.status, tc.want, body)
			}
		}
		// The vote changed the ranking for that query.
		if _, body := f.get(t, q("status")); !strings.Contains(string(body), `"passes": `) {
			t.Errorf("status after reindex: %s", body)
		}
	})
}

func TestTokenAndHost(t *testing.T) {
	const token = "s3cret-token"
	f := newFixture(t, serve.Options{Token: token})
	tests := []struct {
		name   string
		path   string
		hdr    []string
		status int
	}{
		{"no token", "/api/projects", nil, 401},
		{"wrong token", "/api/projects", []string{"Authorization", "Bearer nope"}, 401},
		{"token prefix", "/api/projects", []string{"Authorization", "Bearer s3cret"}, 401},
		{"basic auth", "/api/projects", []string{"Authorization", "Basic czNjcmV0LXRva2Vu"}, 401},
		{"right token", "/api/projects", []string{"Authorization", "Bearer " + token}, 200},
		{"page without token", "/", nil, 401},
		{"assets without token", "/assets/app.js", nil, 401},
		{"mcp without token", "/mcp", nil, 401},
		{"api ignores ?token=", "/api/projects?token=" + token, nil, 401},
		{"cookie", "/api/projects", []string{"Cookie", "codectx_token=" + token}, 200},
		{"wrong cookie", "/api/projects", []string{"Cookie", "codectx_token=x"}, 401},
		{"any host with a token", "/api/projects", []string{"Authorization", "Bearer " + token, "Host", "codectx.example.com"}, 200},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, f.ts.URL+tc.path, nil)
			for i := 0; i+1 < len(tc.hdr); i += 2 {
				if tc.hdr[i] == "Host" {
					req.Host = tc.hdr[i+1]
				} else {
					req.Header.Set(tc.hdr[i], tc.hdr[i+1])
				}
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != tc.status {
				t.Fatalf("%d, want %d", res.StatusCode, tc.status)
			}
		})
	}

	// The page's first visit with ?token= sets the cookie and drops the
	// token from the address.
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Get(f.ts.URL + "/?token=" + token + "&project=x")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	loc := res.Header.Get("Location")
	if res.StatusCode != http.StatusSeeOther || strings.Contains(loc, token) || loc != "/?project=x" {
		t.Fatalf("?token=: %d Location %q", res.StatusCode, loc)
	}
	var cookie *http.Cookie
	for _, c := range res.Cookies() {
		if c.Name == "codectx_token" {
			cookie = c
		}
	}
	if cookie == nil || !cookie.HttpOnly || cookie.Value != token {
		t.Fatalf("no HttpOnly token cookie: %v", res.Cookies())
	}
	res, err = client.Get(f.ts.URL + "/?token=wrong")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 401 {
		t.Fatalf("wrong ?token=: %d", res.StatusCode)
	}

	// Without a token, only loopback Host headers are answered (DNS rebinding).
	g := newFixture(t, serve.Options{})
	for host, want := range map[string]int{"evil.example.com": 403, "localhost": 200, "127.0.0.1:9": 200, "[::1]:9": 200} {
		req, _ := http.NewRequest(http.MethodGet, g.ts.URL+"/api/projects", nil)
		req.Host = host
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("Host %s: %d, want %d", host, res.StatusCode, want)
		}
	}
	// A cross-site POST from a browser is refused.
	status, _ := g.do(t, http.MethodPost, "/api/search", "application/json", strings.NewReader(`{"query":"cart"}`), "Sec-Fetch-Site", "cross-site")
	if status != 403 {
		t.Errorf("cross-site POST: %d, want 403", status)
	}
}

func TestCheckAddr(t *testing.T) {
	tests := []struct {
		addr, token string
		ok          bool
	}{
		{"127.0.0.1:7777", "", true},
		{"127.0.0.2:7777", "", true},
		{"localhost:7777", "", true},
		{"[::1]:7777", "", true},
		{"0.0.0.0:7777", "", false},
		{":7777", "", false},
		{"192.168.1.5:7777", "", false},
		{"example.com:7777", "", false},
		{"0.0.0.0:7777", "t", true},
		{"no-port", "", false},
	}
	for _, tc := range tests {
		if err := serve.CheckAddr(tc.addr, tc.token); (err == nil) != tc.ok {
			t.Errorf("CheckAddr(%q, %q) = %v, want ok %v", tc.addr, tc.token, err, tc.ok)
		}
	}
}

func TestMultipleProjects(t *testing.T) {
	a, b := copyFixture(t), copyFixture(t)
	os.WriteFile(filepath.Join(b, "only_b.txt"), []byte("only in b\n"), 0o644)
	pa, pb := openIndexed(t, a), openIndexed(t, b)
	f := serveProjects(t, serve.Options{}, a, pa, pb)
	var list struct {
		Projects []struct{ ID, Root string }
	}
	_, body := f.get(t, "/api/projects")
	if err := json.Unmarshal(body, &list); err != nil || len(list.Projects) != 2 || list.Projects[0].ID == list.Projects[1].ID {
		t.Fatalf("projects: %v %s", err, body)
	}
	if status, body := f.get(t, q("read", "file", "only_b.txt")); status != 400 || !strings.Contains(string(body), "project is required") {
		t.Fatalf("no project with two served: %d %s", status, body)
	}
	if status, _ := f.get(t, q("read", "file", "only_b.txt", "project", list.Projects[1].ID)); status != 200 {
		t.Fatalf("project b by id: %d", status)
	}
	if status, _ := f.get(t, q("read", "file", "only_b.txt", "project", a)); status != 404 {
		t.Fatalf("project a by root has no only_b.txt: %d", status)
	}
}

func TestPage(t *testing.T) {
	f := newFixture(t, serve.Options{})
	for path, want := range map[string]string{"/": "<title>codectx</title>", "/assets/app.js": "use strict", "/assets/style.css": "--calls", "/assets/favicon.svg": "<svg"} {
		res, err := http.Get(f.ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b := make([]byte, 4096)
		n, _ := res.Body.Read(b)
		res.Body.Close()
		if res.StatusCode != 200 || !strings.Contains(string(b[:n]), want) {
			t.Errorf("GET %s: %d %q", path, res.StatusCode, b[:min(n, 200)])
		}
		if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") {
			t.Errorf("GET %s: CSP %q", path, csp)
		}
	}
	if status, _ := f.get(t, "/assets/nope.js"); status != 404 {
		t.Errorf("missing asset: %d", status)
	}
}

func TestTimeLimit(t *testing.T) {
	f := newFixture(t, serve.Options{Timeout: time.Nanosecond})
	status, body := f.get(t, q("search", "query", "cart total"))
	if status != http.StatusGatewayTimeout || !strings.Contains(string(body), "longer than") {
		t.Fatalf("%d %s", status, body)
	}
}

// bearer adds a token to every request of an MCP client.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// TestRemoteMCP drives /mcp with the SDK's own streamable HTTP client.
func TestRemoteMCP(t *testing.T) {
	const token = "mcp-token"
	for _, tc := range []struct {
		name        string
		opt         serve.Options
		path        string
		client      *http.Client
		wantReindex bool
	}{
		{"read-only", serve.Options{}, "/mcp", nil, false},
		{"writes with token", serve.Options{Token: token, AllowWrites: true}, "/mcp", &http.Client{Transport: bearer{token, http.DefaultTransport}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, tc.opt)
			ctx := context.Background()
			client := sdk.NewClient(&sdk.Implementation{Name: "serve-test", Version: "1"}, nil)
			cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: f.ts.URL + tc.path, HTTPClient: tc.client}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			tools, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			names := map[string]bool{}
			for _, tl := range tools.Tools {
				names[tl.Name] = true
			}
			if !names["search_code"] || !names["read_file"] || names["reindex"] != tc.wantReindex || names["rate_result"] != tc.wantReindex {
				t.Fatalf("tools: %v", names)
			}
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "search_code", Arguments: map[string]any{"query": "retry failed payments", "top_k": 2}})
			if err != nil || res.IsError {
				t.Fatalf("search_code: %v %+v", err, res)
			}
			if text := res.Content[0].(*sdk.TextContent).Text; !strings.Contains(text, "RetryPayment") {
				t.Fatalf("search_code answer: %s", text)
			}
			res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "read_file", Arguments: map[string]any{"file": "../../etc/passwd"}})
			if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*sdk.TextContent).Text, "outside the project root") {
				t.Fatalf("read_file outside: %v %+v", err, res)
			}
		})
	}
	// Without the token the MCP endpoint refuses the client.
	f := newFixture(t, serve.Options{Token: token})
	client := sdk.NewClient(&sdk.Implementation{Name: "serve-test", Version: "1"}, nil)
	if cs, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: f.ts.URL + "/mcp"}, nil); err == nil {
		cs.Close()
		t.Fatal("connected without the token")
	}
	// An unknown project is refused.
	if cs, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: f.ts.URL + "/mcp/nope", HTTPClient: &http.Client{Transport: bearer{token, http.DefaultTransport}}}, nil); err == nil {
		cs.Close()
		t.Fatal("connected to an unknown project")
	}
}
