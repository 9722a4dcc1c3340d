package codectx

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

const srcRewriteExtra = `package web

// parseTimeout reads a number of seconds from a configuration string.
func parseTimeout(s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	if n > 3600 {
		n = 3600
	}
	return n
}

// joinPath puts the segments of a URL path together.
func joinPath(parts ...string) string {
	out := ""
	for i, p := range parts {
		if i > 0 {
			out += "/"
		}
		for len(p) > 0 && p[0] == '/' {
			p = p[1:]
		}
		out += p
	}
	return out
}
`

// rewriteQueryText has no word that occurs in the fixture code: offline, it
// can only be matched by the semantic channel's hashing.
const rewriteQueryText = "when may we resend after the peer hangs up"

// chatServer answers /chat/completions with content, after delay (cut short
// when the client gives up); it records the user messages it received.
type chatServer struct {
	*httptest.Server
	mu    sync.Mutex
	users []string
}

func newChatServer(t *testing.T, content string, delay time.Duration) *chatServer {
	cs := &chatServer{}
	cs.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost {
			http.NotFound(w, r)
			return
		}
		var req struct {
			Messages []struct{ Role, Content string } `json:"messages"`
		}
		body, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		cs.mu.Lock()
		for _, m := range req.Messages {
			if m.Role == "user" {
				cs.users = append(cs.users, m.Content)
			}
		}
		cs.mu.Unlock()
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"choices":[{"message":{"role":"assistant","content":%q}}]}`, content)
	}))
	t.Cleanup(cs.Close)
	return cs
}

func (cs *chatServer) lastUser() string {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if len(cs.users) == 0 {
		return ""
	}
	return cs.users[len(cs.users)-1]
}

// useChatServer points p's rewriting at cs (as ConfigFromEnv would from
// LLM_BASE_URL=…/v1, LLM_MODEL, LLM_API_KEY and LLM_TIMEOUT_MS).
func useChatServer(p *Project, cs *chatServer, timeoutMS int) {
	p.cfg.Rewrite = RewriteConfig{BaseURL: cs.URL + "/v1", Model: "test-model", APIKey: "secret", Timeout: time.Duration(timeoutMS) * time.Millisecond}
}

func openRewriteFixture(t *testing.T) *Project {
	t.Helper()
	dir := t.TempDir()
	for name, src := range map[string]string{"retry.go": srcRetry, "cookie.go": srcCookie, "extra.go": srcRewriteExtra} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return openIndexed(t, dir)
}

func hitNames(res *SearchResult) []string {
	var out []string
	for _, h := range res.Results {
		out = append(out, fmt.Sprintf("%s:%s:%.3f", h.File, h.Name, h.Score))
	}
	return out
}

func hasRewriteWarning(ws []string) bool { return slices.ContainsFunc(ws, isRewriteWarning) }

func TestSearchRewrite(t *testing.T) {
	ctx := context.Background()
	p := openRewriteFixture(t)
	offline, err := p.Search(ctx, SearchOptions{Query: rewriteQueryText})
	if err != nil {
		t.Fatal(err)
	}
	if len(offline.Results) > 0 && strings.HasPrefix(offline.Results[0].Name, "shouldRetry") {
		t.Fatalf("fixture too easy: shouldRetry is first offline: %v", hitNames(offline))
	}
	if hasRewriteWarning(offline.Warnings) {
		t.Fatalf("warning without --rewrite: %v", offline.Warnings)
	}

	t.Run("not configured", func(t *testing.T) {
		res, err := p.Search(ctx, SearchOptions{Query: rewriteQueryText, Rewrite: true})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(hitNames(res), hitNames(offline)) || !hasRewriteWarning(res.Warnings) {
			t.Fatalf("results %v warnings %v; want the offline results %v and a rewrite warning", hitNames(res), res.Warnings, hitNames(offline))
		}
		if !isRewriteWarning(res.RewriteFallback) || !slices.Contains(res.Warnings, res.RewriteFallback) {
			t.Fatalf("RewriteFallback %q, warnings %v: want the rewrite warning", res.RewriteFallback, res.Warnings)
		}
	})

	t.Run("rewritten", func(t *testing.T) {
		cs := newChatServer(t, `{"identifiers":["shouldRetry"],"keywords":["idempotent","rewound"],"intent":"implementation"}`, 0)
		useChatServer(p, cs, 2000)
		res, err := p.Search(ctx, SearchOptions{Query: rewriteQueryText, Rewrite: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Results) == 0 || res.Results[0].File != "retry.go" || !strings.HasPrefix(res.Results[0].Name, "shouldRetry") {
			t.Fatalf("with rewrite: %v", hitNames(res))
		}
		if hasRewriteWarning(res.Warnings) || !slices.Contains(res.Keywords, "shouldRetry") {
			t.Fatalf("warnings %v keywords %v", res.Warnings, res.Keywords)
		}
		if strings.Contains(cs.lastUser(), "Past judgements") {
			t.Fatalf("examples sent without judgements: %q", cs.lastUser())
		}
		// Judgements for the query are sent to the model as examples.
		if _, err := p.Feedback(ctx, rewriteQueryText, "retry.go#shouldRetry", 1); err != nil {
			t.Fatal(err)
		}
		if _, err := p.Feedback(ctx, rewriteQueryText, "cookie.go#Cookie.String", -1); err != nil {
			t.Fatal(err)
		}
		if _, err := p.Search(ctx, SearchOptions{Query: rewriteQueryText, Rewrite: true}); err != nil {
			t.Fatal(err)
		}
		u := cs.lastUser()
		if !strings.Contains(u, "Past judgements") || !strings.Contains(u, "retry.go#shouldRetry") || !strings.Contains(u, "cookie.go#Cookie.String") {
			t.Fatalf("user message lacks the judgements: %q", u)
		}
		if _, err := p.ClearFeedback(ctx); err != nil {
			t.Fatal(err)
		}
	})

	for _, tt := range []struct {
		name, content string
		delay         time.Duration
	}{
		{"garbage", "Sure! The identifiers are shouldRetry.", 0},
		{"wrong shape", `{"identifiers":["shouldRetry"],"intent":"whatever"}`, 0},
		{"slow", `{"identifiers":["shouldRetry"],"keywords":[],"intent":"implementation"}`, 3 * time.Second},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cs := newChatServer(t, tt.content, tt.delay)
			useChatServer(p, cs, 100)
			start := time.Now()
			res, err := p.Search(ctx, SearchOptions{Query: rewriteQueryText, Rewrite: true})
			if err != nil {
				t.Fatal(err)
			}
			if el := time.Since(start); el > 2*time.Second {
				t.Fatalf("took %v: the timeout was not applied", el)
			}
			if !slices.Equal(hitNames(res), hitNames(offline)) {
				t.Fatalf("fallback results %v, want the offline ones %v", hitNames(res), hitNames(offline))
			}
			if !hasRewriteWarning(res.Warnings) {
				t.Fatalf("no rewrite warning: %v", res.Warnings)
			}
			for _, w := range res.Warnings {
				if strings.Contains(w, "secret") {
					t.Fatalf("warning leaks the API key: %q", w)
				}
			}
		})
	}

}

func TestContextRewrite(t *testing.T) {
	ctx := context.Background()
	p := openRewriteFixture(t)
	cs := newChatServer(t, `{"identifiers":["shouldRetry"],"keywords":[],"intent":"location"}`, 0)
	useChatServer(p, cs, 2000)
	res, err := p.Context(ctx, ContextOptions{Query: rewriteQueryText, Rewrite: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Depth != 0 || hasRewriteWarning(res.Warnings) {
		t.Fatalf("depth %d warnings %v; want the location intent's depth 0", res.Depth, res.Warnings)
	}
	if cs := res.Chunks(); !slices.ContainsFunc(cs, func(c ContextChunk) bool { return strings.HasPrefix(c.Name, "shouldRetry") }) {
		t.Fatalf("context lacks shouldRetry: %+v", cs)
	}
	// An explicit depth wins over the intent.
	res, err = p.Context(ctx, ContextOptions{Query: rewriteQueryText, Rewrite: true, Depth: "2"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Depth != 2 {
		t.Fatalf("depth %d, want 2", res.Depth)
	}
	// A failed rewrite builds the context offline, with a warning.
	p.cfg.Rewrite.Model = ""
	res, err = p.Context(ctx, ContextOptions{Query: rewriteQueryText, Rewrite: true})
	if err != nil {
		t.Fatal(err)
	}
	if !hasRewriteWarning(res.Warnings) || !isRewriteWarning(res.RewriteFallback) {
		t.Fatalf("warnings %v, RewriteFallback %q", res.Warnings, res.RewriteFallback)
	}
}
