package embed

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// fakeServer is an httptest server that records every request.
type fakeServer struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []recorded
}

type recorded struct {
	path   string
	auth   string
	model  string
	inputs []string // /api/embed and /embeddings
	prompt string   // /api/embeddings
	dims   int
}

func newFake(t *testing.T, h func(w http.ResponseWriter, r *http.Request, rec recorded)) *fakeServer {
	t.Helper()
	f := &fakeServer{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var in struct {
			Model      string          `json:"model"`
			Input      json.RawMessage `json:"input"`
			Prompt     string          `json:"prompt"`
			Dimensions int             `json:"dimensions"`
		}
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" || json.Unmarshal(body, &in) != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		rec := recorded{path: r.URL.Path, auth: r.Header.Get("Authorization"), model: in.Model, prompt: in.Prompt, dims: in.Dimensions}
		if len(in.Input) > 0 {
			if err := json.Unmarshal(in.Input, &rec.inputs); err != nil {
				http.Error(w, "input must be an array of strings", http.StatusBadRequest)
				return
			}
		}
		f.mu.Lock()
		f.reqs = append(f.reqs, rec)
		f.mu.Unlock()
		h(w, r, rec)
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeServer) requests() []recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]recorded(nil), f.reqs...)
}

// vecFor is the fake model: texts are "t<N>..." and embed to [N+1, 1, 0, …]
// (dims values), so the slot a vector lands in can be checked after
// normalisation by v[0]/v[1].
func vecFor(text string, dims int) []float32 {
	n := 0
	if rest, ok := strings.CutPrefix(text, "t"); ok {
		digits := rest
		if i := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' }); i >= 0 {
			digits = rest[:i]
		}
		n, _ = strconv.Atoi(digits)
	}
	v := make([]float32, dims)
	v[0], v[1] = float32(n+1), 1
	return v
}

func slotOf(v []float32) int { return int(math.Round(float64(v[0]/v[1]))) - 1 }

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// ollamaHandler answers /api/embed like a current Ollama with dims-sized vectors.
func ollamaHandler(dims int) func(http.ResponseWriter, *http.Request, recorded) {
	return func(w http.ResponseWriter, r *http.Request, rec recorded) {
		switch rec.path {
		case "/api/embed":
			out := make([][]float32, len(rec.inputs))
			for i, s := range rec.inputs {
				out[i] = vecFor(s, dims)
			}
			writeJSON(w, map[string]any{"model": rec.model, "embeddings": out})
		default:
			http.NotFound(w, r)
		}
	}
}

// legacyOllamaHandler answers only /api/embeddings, like Ollama before /api/embed.
func legacyOllamaHandler(dims int) func(http.ResponseWriter, *http.Request, recorded) {
	return func(w http.ResponseWriter, r *http.Request, rec recorded) {
		if rec.path != "/api/embeddings" {
			http.NotFound(w, r) // "404 page not found"
			return
		}
		writeJSON(w, map[string]any{"embedding": vecFor(rec.prompt, dims)})
	}
}

// openaiHandler answers /embeddings with the data in reverse order.
func openaiHandler(dims int, key string) func(http.ResponseWriter, *http.Request, recorded) {
	return func(w http.ResponseWriter, r *http.Request, rec recorded) {
		if rec.auth != "Bearer "+key {
			w.WriteHeader(http.StatusUnauthorized)
			writeJSON(w, map[string]any{"error": map[string]any{"message": "Incorrect API key provided: " + rec.auth}})
			return
		}
		if rec.path != "/v1/embeddings" {
			http.NotFound(w, r)
			return
		}
		type item struct {
			Object    string    `json:"object"`
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		var data []item
		for i := len(rec.inputs) - 1; i >= 0; i-- {
			data = append(data, item{"embedding", i, vecFor(rec.inputs[i], dims)})
		}
		writeJSON(w, map[string]any{"object": "list", "data": data, "model": rec.model})
	}
}

// fastTune keeps tests quick: tiny backoff, short waits and timeouts.
var fastTune = tuning{requestTimeout: 2 * time.Second, retryBase: time.Millisecond, maxRetryWait: 200 * time.Millisecond}

func newTestEmbedder(t *testing.T, c Config) *httpEmbedder {
	t.Helper()
	if c.tune == (tuning{}) {
		c.tune = fastTune
	}
	e, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	return e.(*httpEmbedder)
}

func ollamaConfig(f *fakeServer) Config {
	return Config{Provider: "ollama", BaseURL: f.URL, HTTPClient: f.Client(), tune: fastTune}
}

const testKey = "sk-test-0123456789abcdefSECRET"

func openaiConfig(f *fakeServer) Config {
	return Config{Provider: "openai", BaseURL: f.URL + "/v1", APIKey: testKey, HTTPClient: f.Client(), tune: fastTune}
}

// texts returns n texts "t0".."t<n-1>" with blanks at every 7th slot.
func texts(n int) []string {
	out := make([]string, n)
	for i := range out {
		if i%7 == 3 {
			out[i] = []string{"", "   ", "\n\t"}[i%3]
			continue
		}
		out[i] = "t" + strconv.Itoa(i) + " some code"
	}
	return out
}

func checkAligned(t *testing.T, in []string, out [][]float32, dims int) {
	t.Helper()
	if len(out) != len(in) {
		t.Fatalf("got %d vectors for %d texts", len(out), len(in))
	}
	for i, v := range out {
		if isBlank(in[i]) {
			if len(v) != 0 {
				t.Fatalf("slot %d (blank) has %d dims", i, len(v))
			}
			continue
		}
		if len(v) != dims {
			t.Fatalf("slot %d: %d dims, want %d", i, len(v), dims)
		}
		if s := slotOf(v); s != i {
			t.Fatalf("slot %d holds the vector of text %d", i, s)
		}
		var n float64
		for _, x := range v {
			n += float64(x) * float64(x)
		}
		if math.Abs(n-1) > 1e-5 {
			t.Fatalf("slot %d: squared norm %v, want 1", i, n)
		}
	}
}

func TestBatchingAndBlankSlots(t *testing.T) {
	for _, provider := range []string{"ollama", "openai"} {
		t.Run(provider, func(t *testing.T) {
			var f *fakeServer
			var c Config
			if provider == "ollama" {
				f = newFake(t, ollamaHandler(8))
				c = ollamaConfig(f)
			} else {
				f = newFake(t, openaiHandler(8, testKey))
				c = openaiConfig(f)
			}
			c.BatchSize = 16
			e := newTestEmbedder(t, c)
			in := texts(75)
			out, err := e.Embed(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			checkAligned(t, in, out, 8)
			sent := 0
			for _, r := range f.requests() {
				if len(r.inputs) == 0 || len(r.inputs) > 16 {
					t.Fatalf("request with %d inputs (batch size 16)", len(r.inputs))
				}
				for _, s := range r.inputs {
					if isBlank(s) {
						t.Fatalf("blank text sent: %q", s)
					}
				}
				sent += len(r.inputs)
			}
			blanks := 0
			for _, s := range in {
				if isBlank(s) {
					blanks++
				}
			}
			if sent != len(in)-blanks {
				t.Fatalf("sent %d texts, want %d", sent, len(in)-blanks)
			}
			if want := (len(in) - blanks + 15) / 16; len(f.requests()) != want {
				t.Fatalf("%d requests, want %d", len(f.requests()), want)
			}
			// All blank: no request at all.
			n := len(f.requests())
			out, err = e.Embed(context.Background(), []string{"", " "})
			if err != nil || len(out) != 2 || out[0] != nil || out[1] != nil || len(f.requests()) != n {
				t.Fatalf("all blank: %v %v, %d requests", out, err, len(f.requests())-n)
			}
		})
	}
}

func TestTextsCutTo2000Runes(t *testing.T) {
	f := newFake(t, ollamaHandler(4))
	e := newTestEmbedder(t, ollamaConfig(f))
	long := "t1 " + strings.Repeat("é世", 3000)
	if _, err := e.Embed(context.Background(), []string{long, "t2 short"}); err != nil {
		t.Fatal(err)
	}
	got := f.requests()[0].inputs
	if n := utf8.RuneCountInString(got[0]); n != MaxTextRunes || !utf8.ValidString(got[0]) || !strings.HasPrefix(long, got[0]) {
		t.Fatalf("long text sent as %d runes (valid %v)", n, utf8.ValidString(got[0]))
	}
	if got[1] != "t2 short" {
		t.Fatalf("short text changed: %q", got[1])
	}
}

func TestOpenAIOutOfOrderAndAuth(t *testing.T) {
	f := newFake(t, openaiHandler(6, testKey))
	e := newTestEmbedder(t, openaiConfig(f))
	in := texts(10)
	out, err := e.Embed(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	checkAligned(t, in, out, 6)
	r := f.requests()[0]
	if r.auth != "Bearer "+testKey || r.model != "text-embedding-3-small" || r.path != "/v1/embeddings" || r.dims != 0 {
		t.Fatalf("request: %+v", r)
	}
	if e.ModelID() != "openai:text-embedding-3-small" || e.Dims() != 6 {
		t.Fatalf("ModelID %q Dims %d", e.ModelID(), e.Dims())
	}
}

func TestOpenAIDimensionsSent(t *testing.T) {
	f := newFake(t, openaiHandler(6, testKey))
	c := openaiConfig(f)
	c.Dims = 6
	e := newTestEmbedder(t, c)
	if _, err := e.Embed(context.Background(), []string{"t1"}); err != nil {
		t.Fatal(err)
	}
	if d := f.requests()[0].dims; d != 6 {
		t.Fatalf("dimensions sent: %d", d)
	}
}

func TestOpenAIWithoutIndex(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, rec recorded) {
		var data []map[string]any
		for _, s := range rec.inputs {
			data = append(data, map[string]any{"embedding": vecFor(s, 3)})
		}
		writeJSON(w, map[string]any{"data": data})
	})
	e := newTestEmbedder(t, openaiConfig(f))
	in := []string{"t0", "t1", "t2"}
	out, err := e.Embed(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	checkAligned(t, in, out, 3)
}

func TestOpenAIBadIndexes(t *testing.T) {
	for name, idx := range map[string][]int{"duplicate": {0, 0}, "out of range": {0, 5}, "negative": {-1, 1}} {
		t.Run(name, func(t *testing.T) {
			f := newFake(t, func(w http.ResponseWriter, r *http.Request, rec recorded) {
				var data []map[string]any
				for i := range rec.inputs {
					data = append(data, map[string]any{"index": idx[i], "embedding": []float32{1, 2}})
				}
				writeJSON(w, map[string]any{"data": data})
			})
			_, err := newTestEmbedder(t, openaiConfig(f)).Embed(context.Background(), []string{"a", "b"})
			if !errors.Is(err, ErrBadResponse) || !strings.HasPrefix(err.Error(), "openai: ") {
				t.Fatalf("want ErrBadResponse naming openai, got %v", err)
			}
		})
	}
}

func TestOllamaLegacyFallback(t *testing.T) {
	f := newFake(t, legacyOllamaHandler(5))
	e := newTestEmbedder(t, ollamaConfig(f))
	in := texts(5)
	out, err := e.Embed(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	checkAligned(t, in, out, 5)
	reqs := f.requests()
	if reqs[0].path != "/api/embed" {
		t.Fatalf("first request to %s", reqs[0].path)
	}
	for _, r := range reqs[1:] {
		if r.path != "/api/embeddings" || r.prompt == "" || r.model != "nomic-embed-text:latest" {
			t.Fatalf("fallback request %+v", r)
		}
	}
	if len(reqs) != 1+4 {
		t.Fatalf("%d requests, want 1 + 4 non-blank texts", len(reqs))
	}
	// The switch sticks for this Embedder: no more /api/embed.
	if _, err := e.Embed(context.Background(), []string{"t1", "t2"}); err != nil {
		t.Fatal(err)
	}
	for _, r := range f.requests()[len(reqs):] {
		if r.path != "/api/embeddings" {
			t.Fatalf("after fallback, request to %s", r.path)
		}
	}
	// A new Embedder probes again.
	n := len(f.requests())
	if _, err := newTestEmbedder(t, ollamaConfig(f)).Embed(context.Background(), []string{"t1"}); err != nil {
		t.Fatal(err)
	}
	if f.requests()[n].path != "/api/embed" {
		t.Fatal("a fresh Embedder must try /api/embed first")
	}
}

func TestOllamaModelNotFound(t *testing.T) {
	for _, path := range []string{"/api/embed", "/api/embeddings"} {
		t.Run(path, func(t *testing.T) {
			f := newFake(t, func(w http.ResponseWriter, r *http.Request, rec recorded) {
				if rec.path != path {
					http.NotFound(w, r)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusNotFound)
				fmt.Fprintf(w, `{"error":"model %q not found, try pulling it first"}`, rec.model)
			})
			c := ollamaConfig(f)
			c.Model = "nomic-embed-text"
			e := newTestEmbedder(t, c)
			_, err := e.Embed(context.Background(), []string{"a", "b", "c"})
			want := `ollama: model "nomic-embed-text:latest" not found: run 'ollama pull nomic-embed-text:latest'`
			if err == nil || err.Error() != want || !errors.Is(err, ErrModelNotFound) {
				t.Fatalf("got %v, want %s", err, want)
			}
			wantReqs := 1
			if path == "/api/embeddings" {
				wantReqs = 2 // the bare 404 on /api/embed, then one legacy try
			}
			if n := len(f.requests()); n != wantReqs {
				t.Fatalf("%d requests, want %d (no per-text retry)", n, wantReqs)
			}
			if e.ModelID() != "ollama:nomic-embed-text:latest" {
				t.Fatalf("ModelID %q", e.ModelID())
			}
		})
	}
}

func TestOllamaNotAnOllama(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, rec recorded) { http.NotFound(w, r) })
	_, err := newTestEmbedder(t, ollamaConfig(f)).Embed(context.Background(), []string{"a"})
	if err == nil || !strings.Contains(err.Error(), "is it an Ollama server") || len(f.requests()) != 2 {
		t.Fatalf("got %v after %d requests", err, len(f.requests()))
	}
}

func TestRetriesHonourRetryAfter(t *testing.T) {
	cases := []struct {
		name   string
		status int
		header func() string
	}{
		{"429 seconds", http.StatusTooManyRequests, func() string { return "1" }},
		{"503 http date", http.StatusServiceUnavailable, func() string { return time.Now().Add(5 * time.Second).UTC().Format(http.TimeFormat) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			var mu sync.Mutex
			okH := ollamaHandler(4)
			f := newFake(t, func(w http.ResponseWriter, r *http.Request, rec recorded) {
				mu.Lock()
				calls++
				n := calls
				mu.Unlock()
				if n <= 2 {
					w.Header().Set("Retry-After", tc.header())
					http.Error(w, "slow down", tc.status)
					return
				}
				okH(w, r, rec)
			})
			c := ollamaConfig(f)
			c.tune.maxRetryWait = 150 * time.Millisecond // caps Retry-After (1 s / 5 s)
			e := newTestEmbedder(t, c)
			start := time.Now()
			out, err := e.Embed(context.Background(), []string{"t0", "t1"})
			took := time.Since(start)
			if err != nil {
				t.Fatal(err)
			}
			checkAligned(t, []string{"t0", "t1"}, out, 4)
			if len(f.requests()) != 3 {
				t.Fatalf("%d requests, want 3", len(f.requests()))
			}
			// Two waits of the capped Retry-After, not the 1 ms backoff.
			if took < 300*time.Millisecond || took > 3*time.Second {
				t.Fatalf("took %v, want ≈ 2 × 150 ms", took)
			}
		})
	}
}

func TestRetriesGiveUpAfterThree(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, rec recorded) {
		http.Error(w, "overloaded", http.StatusServiceUnavailable)
	})
	_, err := newTestEmbedder(t, ollamaConfig(f)).Embed(context.Background(), []string{"a"})
	var he *HTTPError
	if !errors.As(err, &he) || he.StatusCode != 503 || he.Attempts != 3 || !strings.Contains(err.Error(), "overloaded") {
		t.Fatalf("got %v", err)
	}
	if n := len(f.requests()); n != 3 {
		t.Fatalf("%d requests, want 3", n)
	}
}

func TestNoRetryOn400(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, rec recorded) {
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error":{"message":"input too long"}}`)
	})
	_, err := newTestEmbedder(t, openaiConfig(f)).Embed(context.Background(), []string{"a"})
	var he *HTTPError
	if !errors.As(err, &he) || he.StatusCode != 400 || !strings.Contains(err.Error(), "input too long") || !strings.HasPrefix(err.Error(), "openai: ") {
		t.Fatalf("got %v", err)
	}
	if n := len(f.requests()); n != 1 {
		t.Fatalf("%d requests, want 1", n)
	}
}

func TestRetryOnConnectionError(t *testing.T) {
	c := Config{Provider: "ollama", BaseURL: "http://127.0.0.1:1", tune: fastTune} // nothing listens on port 1
	e := newTestEmbedder(t, c)
	logs := captureLogs(t)
	_, err := e.Embed(context.Background(), []string{"a"})
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "3 attempts") || !strings.HasPrefix(err.Error(), "ollama: cannot reach") {
		t.Fatalf("got %v", err)
	}
	if n := strings.Count(logs.String(), "retrying"); n != 2 {
		t.Fatalf("%d retry log lines, want 2:\n%s", n, logs)
	}
	cerr := Check(context.Background(), e)
	if cerr == nil || !strings.Contains(cerr.Error(), "ollama serve") {
		t.Fatalf("Check: %v", cerr)
	}
}

func TestTimeout(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, rec recorded) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	c := ollamaConfig(f)
	c.tune.requestTimeout = 100 * time.Millisecond
	start := time.Now()
	_, err := newTestEmbedder(t, c).Embed(context.Background(), []string{"a"})
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "no response") {
		t.Fatalf("got %v", err)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		t.Fatal("an attempt timeout must not look like the caller's deadline")
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("took %v", took)
	}
	if n := len(f.requests()); n != 3 {
		t.Fatalf("%d attempts, want 3", n)
	}
}

func TestCancellation(t *testing.T) {
	arrived := make(chan struct{}, 4)
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, rec recorded) {
		arrived <- struct{}{}
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})
	c := ollamaConfig(f)
	c.tune.requestTimeout = time.Minute
	e := newTestEmbedder(t, c)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-arrived
		cancel()
	}()
	start := time.Now()
	_, err := e.Embed(ctx, []string{"a"})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
	if took := time.Since(start); took > time.Second {
		t.Fatalf("cancellation took %v", took)
	}
	if n := len(f.requests()); n != 1 {
		t.Fatalf("%d requests after cancel, want 1", n)
	}
	// Already cancelled: nothing is sent.
	if _, err := e.Embed(ctx, []string{"a"}); !errors.Is(err, context.Canceled) || len(f.requests()) != 1 {
		t.Fatalf("pre-cancelled: %v", err)
	}
}

func TestCancelDuringBackoff(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, rec recorded) {
		w.Header().Set("Retry-After", "30")
		http.Error(w, "busy", http.StatusTooManyRequests)
	})
	c := ollamaConfig(f)
	c.tune.maxRetryWait = time.Minute
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := newTestEmbedder(t, c).Embed(ctx, []string{"a"})
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 2*time.Second {
		t.Fatalf("got %v after %v", err, time.Since(start))
	}
}

func TestBadResponses(t *testing.T) {
	cases := map[string]struct {
		body string
		want string
	}{
		"malformed":   {`{"embeddings": [[0.1, 0.2`, "malformed JSON"},
		"NaN literal": {`{"embeddings": [[NaN, 1], [1, 2]]}`, "malformed JSON"},
		"overflow":    {`{"embeddings": [[1e999, 1], [1, 2]]}`, "malformed JSON"},
		"wrong count": {`{"embeddings": [[0.1, 0.2]]}`, "got 1 vectors for 2 texts"},
		"empty list":  {`{"embeddings": []}`, "got 0 vectors for 2 texts"},
		"mixed dims":  {`{"embeddings": [[0.1, 0.2], [0.1, 0.2, 0.3]]}`, "vector 1 has 3 dimensions, want 2"},
		"empty vec":   {`{"embeddings": [[0.1, 0.2], []]}`, "vector 1 of 2 is empty"},
		"html":        {"<html><body>\n<h1>Bad Gateway</h1>\n</body></html>", "malformed JSON"},
		"long":        {`{"embeddings": "` + strings.Repeat("x", 1000) + `"}`, "malformed JSON"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFake(t, func(w http.ResponseWriter, r *http.Request, rec recorded) {
				io.WriteString(w, tc.body)
			})
			_, err := newTestEmbedder(t, ollamaConfig(f)).Embed(context.Background(), []string{"a", "b"})
			if !errors.Is(err, ErrBadResponse) {
				t.Fatalf("want ErrBadResponse, got %v", err)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "ollama: invalid response: ") || !strings.Contains(msg, tc.want) {
				t.Fatalf("got %q, want it to name ollama and contain %q", msg, tc.want)
			}
			_, excerpt, _ := strings.Cut(msg, "; body: ")
			if n := utf8.RuneCountInString(excerpt); n == 0 || n > 201 || strings.Contains(excerpt, "\n") {
				t.Fatalf("excerpt of %d runes: %q", n, excerpt)
			}
			if len(f.requests()) != 1 {
				t.Fatal("bad 2xx answers must not be retried")
			}
		})
	}
}

func TestNonFiniteRejected(t *testing.T) {
	// JSON cannot carry NaN, so check the validator directly with a provider
	// that hands back a NaN.
	h := newTestEmbedder(t, Config{Provider: "ollama", BaseURL: "http://127.0.0.1:1"})
	h.api = stubAPI{vecs: [][]float32{{1, float32(math.NaN())}}}
	if _, err := h.Embed(context.Background(), []string{"a"}); !errors.Is(err, ErrBadResponse) || !strings.Contains(err.Error(), "non-finite") {
		t.Fatalf("NaN: %v", err)
	}
	h.api = stubAPI{vecs: [][]float32{{1, float32(math.Inf(-1))}}}
	if _, err := h.Embed(context.Background(), []string{"a"}); !errors.Is(err, ErrBadResponse) {
		t.Fatalf("Inf: %v", err)
	}
}

type stubAPI struct{ vecs [][]float32 }

func (s stubAPI) embedBatch(context.Context, *httpEmbedder, []string) ([][]float32, [][]byte, error) {
	return s.vecs, [][]byte{[]byte(`{"stub":true}`)}, nil
}

func TestDimensionChecks(t *testing.T) {
	dims := 8
	var mu sync.Mutex
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, rec recorded) {
		mu.Lock()
		d := dims
		mu.Unlock()
		ollamaHandler(d)(w, r, rec)
	})
	// Learned from the first response, then enforced.
	c := ollamaConfig(f)
	c.Model = "custom-embedder"
	e := newTestEmbedder(t, c)
	if e.Dims() != 0 {
		t.Fatalf("unknown model: Dims %d before first call", e.Dims())
	}
	if _, err := e.Embed(context.Background(), []string{"t1"}); err != nil || e.Dims() != 8 {
		t.Fatalf("learn: %v, Dims %d", err, e.Dims())
	}
	mu.Lock()
	dims = 9
	mu.Unlock()
	if _, err := e.Embed(context.Background(), []string{"t1"}); !errors.Is(err, ErrBadResponse) || !strings.Contains(err.Error(), "9 dimensions, want 8") {
		t.Fatalf("changed size: %v", err)
	}
	// Configured Dims is strict from the start.
	c.Dims = 8
	if _, err := newTestEmbedder(t, c).Embed(context.Background(), []string{"t1"}); !errors.Is(err, ErrBadResponse) {
		t.Fatalf("configured dims: %v", err)
	}
	// A known default is only a guess: the first answer corrects it.
	c.Dims, c.Model = 0, ""
	e = newTestEmbedder(t, c)
	if e.Dims() != 768 {
		t.Fatalf("nomic default Dims %d", e.Dims())
	}
	if _, err := e.Embed(context.Background(), []string{"t1"}); err != nil || e.Dims() != 9 {
		t.Fatalf("default corrected: %v, Dims %d", err, e.Dims())
	}
}

func TestAPIKeyNeverLeaks(t *testing.T) {
	// A hostile server echoes the Authorization header in every error body.
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, rec recorded) {
		switch rec.inputs[0] {
		case "401":
			w.WriteHeader(http.StatusUnauthorized)
		case "400":
			w.WriteHeader(http.StatusBadRequest)
		case "503":
			w.WriteHeader(http.StatusServiceUnavailable)
		case "bad":
		}
		fmt.Fprintf(w, "you sent %s (key %s)", rec.auth, strings.TrimPrefix(rec.auth, "Bearer "))
	})
	logs := captureLogs(t)
	e := newTestEmbedder(t, openaiConfig(f))
	for _, in := range []string{"401", "400", "503", "bad"} {
		_, err := e.Embed(context.Background(), []string{in})
		if err == nil {
			t.Fatalf("%s: no error", in)
		}
		if strings.Contains(err.Error(), testKey) || strings.Contains(err.Error(), "SECRET") {
			t.Fatalf("%s: key in error: %v", in, err)
		}
		if !strings.Contains(err.Error(), "[REDACTED]") {
			t.Fatalf("%s: expected a redacted excerpt: %v", in, err)
		}
		if cerr := Check(context.Background(), e); cerr == nil || strings.Contains(cerr.Error(), testKey) {
			t.Fatalf("Check: %v", cerr)
		}
	}
	_, err := e.Embed(context.Background(), []string{"401"})
	if !errors.Is(err, ErrAuth) || !strings.Contains(err.Error(), "check EMBEDDING_API_KEY") {
		t.Fatalf("401: %v", err)
	}
	if strings.Contains(logs.String(), "SECRET") {
		t.Fatalf("key in logs:\n%s", logs)
	}
	// The transport error text (with URL) carries no key either.
	c := openaiConfig(f)
	c.BaseURL = "http://127.0.0.1:1/v1"
	c.HTTPClient = nil
	_, err = newTestEmbedder(t, c).Embed(context.Background(), []string{"a"})
	if err == nil || strings.Contains(err.Error(), "SECRET") {
		t.Fatalf("conn error: %v", err)
	}
}

func TestMissingKeyHint(t *testing.T) {
	f := newFake(t, openaiHandler(4, testKey))
	c := openaiConfig(f)
	c.APIKey = ""
	err := Check(context.Background(), newTestEmbedder(t, c))
	if !errors.Is(err, ErrAuth) || !strings.Contains(err.Error(), "set EMBEDDING_API_KEY") {
		t.Fatalf("got %v", err)
	}
	if f.requests()[0].auth != "" {
		t.Fatal("no Authorization header without a key")
	}
}

func TestCheck(t *testing.T) {
	if err := Check(context.Background(), newLocal(t)); err != nil {
		t.Fatalf("local: %v", err)
	}
	f := newFake(t, ollamaHandler(4))
	if err := Check(context.Background(), newTestEmbedder(t, ollamaConfig(f))); err != nil {
		t.Fatalf("ollama: %v", err)
	}
	f = newFake(t, func(w http.ResponseWriter, r *http.Request, rec recorded) {
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"error":"model \"nomic-embed-text:latest\" not found, try pulling it first"}`)
	})
	err := Check(context.Background(), newTestEmbedder(t, ollamaConfig(f)))
	if err == nil || !strings.Contains(err.Error(), "run 'ollama pull nomic-embed-text:latest'") {
		t.Fatalf("model missing: %v", err)
	}
	f = newFake(t, func(w http.ResponseWriter, r *http.Request, rec recorded) { http.NotFound(w, r) })
	c := openaiConfig(f)
	err = Check(context.Background(), newTestEmbedder(t, c))
	if err == nil || !strings.Contains(err.Error(), "EMBEDDING_BASE_URL") {
		t.Fatalf("wrong base: %v", err)
	}
	if err := Check(context.Background(), nil); err == nil {
		t.Fatal("nil embedder")
	}
}

func TestConcurrentEmbed(t *testing.T) {
	f := newFake(t, openaiHandler(8, testKey))
	c := openaiConfig(f)
	c.BatchSize = 5
	e := newTestEmbedder(t, c)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Go(func() {
			in := texts(23)
			out, err := e.Embed(context.Background(), in)
			if err != nil {
				errs <- err
				return
			}
			for i, v := range out {
				if !isBlank(in[i]) && slotOf(v) != i {
					errs <- fmt.Errorf("slot %d got %d", i, slotOf(v))
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

func TestRetryAfterParsing(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	limit := 30 * time.Second
	cases := []struct {
		h    http.Header
		want time.Duration
		ok   bool
	}{
		{http.Header{}, 0, false},
		{http.Header{"Retry-After": {"2"}}, 2 * time.Second, true},
		{http.Header{"Retry-After": {"0"}}, 0, true},
		{http.Header{"Retry-After": {"3600"}}, limit, true},
		{http.Header{"Retry-After": {"99999999999999999"}}, limit, true},
		{http.Header{"Retry-After": {"99999999999999999999"}}, 0, false}, // overflows int64: neither seconds nor a date
		{http.Header{"Retry-After": {"-5"}}, 0, false},
		{http.Header{"Retry-After": {"soon"}}, 0, false},
		{http.Header{"Retry-After": {now.Add(10 * time.Second).Format(http.TimeFormat)}}, 10 * time.Second, true},
		{http.Header{"Retry-After": {now.Add(-time.Hour).Format(http.TimeFormat)}}, 0, true},
		{http.Header{"Retry-After": {now.Add(time.Hour).Format(http.TimeFormat)}}, limit, true},
		{http.Header{"Retry-After-Ms": {"250"}, "Retry-After": {"9"}}, 250 * time.Millisecond, true},
	}
	for _, tc := range cases {
		got, ok := retryAfter(tc.h, now, limit)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%v: got %v %v, want %v %v", tc.h, got, ok, tc.want, tc.ok)
		}
	}
}

func TestBackoffGrowsAndIsCapped(t *testing.T) {
	h := &httpEmbedder{tune: tuning{retryBase: 100 * time.Millisecond, maxRetryWait: 300 * time.Millisecond}}
	for i := 0; i < 50; i++ {
		if d := h.backoff(1); d < 50*time.Millisecond || d > 100*time.Millisecond {
			t.Fatalf("attempt 1: %v", d)
		}
		if d := h.backoff(2); d < 100*time.Millisecond || d > 200*time.Millisecond {
			t.Fatalf("attempt 2: %v", d)
		}
		if d := h.backoff(5); d > 300*time.Millisecond {
			t.Fatalf("attempt 5: %v over the cap", d)
		}
	}
}

func TestExcerpt(t *testing.T) {
	h := &httpEmbedder{key: "KEY123"}
	if got := h.excerpt(nil); got != "(empty body)" {
		t.Fatal(got)
	}
	got := h.excerpt([]byte("a\n\n  b\x00c KEY123 " + strings.Repeat("é", 500)))
	if !strings.HasPrefix(got, "a bc [REDACTED] éé") || utf8.RuneCountInString(got) != 201 || !strings.HasSuffix(got, "…") {
		t.Fatalf("%q (%d runes)", got, utf8.RuneCountInString(got))
	}
	// A key straddling the cut is still removed whole.
	body := strings.Repeat("x", 195) + "KEY123"
	if got := h.excerpt([]byte(body)); strings.Contains(got, "KEY") {
		t.Fatalf("partial key: %q", got)
	}
}

// captureLogs sends the default slog logger to a buffer for the test.
func captureLogs(t *testing.T) *syncBuffer {
	t.Helper()
	buf := &syncBuffer{}
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	t.Cleanup(func() { slog.SetDefault(old) })
	return buf
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
