package embed

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func newLocal(t testing.TB) Embedder {
	t.Helper()
	e, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func embedOne(t testing.TB, e Embedder, s string) []float32 {
	t.Helper()
	v, err := e.Embed(context.Background(), []string{s})
	if err != nil {
		t.Fatal(err)
	}
	if len(v) != 1 {
		t.Fatalf("got %d vectors for 1 text", len(v))
	}
	return v[0]
}

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func TestLocalIdentity(t *testing.T) {
	e := newLocal(t)
	if e.ModelID() != "local:hash-v1" || e.Dims() != 512 || e.BatchSize() != DefaultBatchSize {
		t.Fatalf("ModelID %q Dims %d BatchSize %d", e.ModelID(), e.Dims(), e.BatchSize())
	}
}

func TestLocalDeterministicAndNormalised(t *testing.T) {
	e := newLocal(t)
	texts := []string{
		"func (s *HTTPServer) ServeHTTP(w http.ResponseWriter, r *http.Request) { // handle requests\n}",
		"def parse_config_file(path): \"\"\"Read the YAML config.\"\"\"",
		"用户登录服务 handles user login 认证",
		"x",
	}
	a, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	b, err := newLocal(t).Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for i := range texts {
		if len(a[i]) != 512 {
			t.Fatalf("text %d: %d dims", i, len(a[i]))
		}
		for j := range a[i] {
			if a[i][j] != b[i][j] {
				t.Fatalf("text %d differs at %d between runs", i, j)
			}
		}
		if n := dot(a[i], a[i]); math.Abs(n-1) > 1e-5 {
			t.Fatalf("text %d: squared norm %v", i, n)
		}
	}
}

func TestLocalEmpty(t *testing.T) {
	e := newLocal(t)
	v, err := e.Embed(context.Background(), []string{"", "   \n\t", "{}();", "getUser"})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if len(v[i]) != 0 {
			t.Fatalf("slot %d: want empty vector, got %d dims", i, len(v[i]))
		}
	}
	if len(v[3]) != 512 {
		t.Fatalf("slot 3: %d dims", len(v[3]))
	}
	v, err = e.Embed(context.Background(), nil)
	if err != nil || len(v) != 0 {
		t.Fatalf("nil input: %v %v", v, err)
	}
}

func TestLocalIdentifierSimilarity(t *testing.T) {
	e := newLocal(t)
	a := embedOne(t, e, "getUserById")
	b := embedOne(t, e, "get_user_by_id")
	c := embedOne(t, e, "parseConfigFile")
	if ab, ac := dot(a, b), dot(a, c); ab <= ac {
		t.Fatalf("getUserById·get_user_by_id = %.3f, ·parseConfigFile = %.3f", ab, ac)
	}
	// Acronyms split: HTTPServer shares "server" and "http" with http_server.
	h1 := embedOne(t, e, "HTTPServer")
	h2 := embedOne(t, e, "http_server")
	h3 := embedOne(t, e, "parseConfigFile")
	if dot(h1, h2) < 0.9 || dot(h1, h3) > 0.3 {
		t.Fatalf("HTTPServer·http_server = %.3f, ·parseConfigFile = %.3f", dot(h1, h2), dot(h1, h3))
	}
	// Morphology via 3-grams: users is nearer user than config.
	u1, u2, u3 := embedOne(t, e, "users"), embedOne(t, e, "user"), embedOne(t, e, "config")
	if dot(u1, u2) <= dot(u1, u3) {
		t.Fatalf("users·user = %.3f, users·config = %.3f", dot(u1, u2), dot(u1, u3))
	}
}

func TestLocalCJKBigrams(t *testing.T) {
	e := newLocal(t)
	a := embedOne(t, e, "用户登录失败")
	b := embedOne(t, e, "处理用户登录")
	c := embedOne(t, e, "数据库连接池")
	if dot(a, b) <= dot(a, c) {
		t.Fatalf("shared bigrams should be closer: %.3f vs %.3f", dot(a, b), dot(a, c))
	}
	if v := embedOne(t, e, "中"); len(v) != 512 {
		t.Fatalf("lone Han character: %d dims", len(v))
	}
}

func TestSplitSubwords(t *testing.T) {
	cases := map[string]string{
		"HTTPServer":      "http server",
		"getUserById":     "get user by id",
		"get_user_by_id":  "get user by id",
		"utf8Decode":      "utf 8 decode",
		"parseHTTP2Frame": "parse http 2 frame",
		"XMLHttpRequest":  "xml http request",
		"__init__":        "init",
		"ÉtatCivil":       "état civil",
		"IOError":         "io error",
	}
	for in, want := range cases {
		var got []string
		tok := []rune(in)
		start := -1
		for j, r := range tok {
			if r == '_' {
				if start >= 0 {
					got = append(got, strings.ToLower(string(tok[start:j])))
					start = -1
				}
				continue
			}
			if start < 0 {
				start = j
				continue
			}
			if boundary(tok, j) {
				got = append(got, strings.ToLower(string(tok[start:j])))
				start = j
			}
		}
		if start >= 0 {
			got = append(got, strings.ToLower(string(tok[start:])))
		}
		if g := strings.Join(got, " "); g != want {
			t.Errorf("%s: got %q, want %q", in, g, want)
		}
	}
}

func TestLocalLongIdentifier(t *testing.T) {
	e := newLocal(t)
	v := embedOne(t, e, strings.Repeat("abcdefghij", 50)+" "+strings.Repeat("Ab", 100))
	if len(v) != 512 {
		t.Fatal("long identifiers must still embed")
	}
}

func TestLocalCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := newLocal(t).Embed(ctx, []string{"x"})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("want context.Canceled, got %v", err)
	}
}

// benchChunks makes n code-like chunks of about 1000 characters.
func benchChunks(n int) []string {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"user", "config", "parse", "file", "server", "request", "handler", "index",
		"vector", "cache", "load", "store", "query", "result", "error", "context", "token", "chunk",
		"embed", "batch", "retry", "timeout", "client", "http", "json", "id", "name", "path"}
	ident := func() string {
		var b strings.Builder
		k := 1 + rng.IntN(3)
		for i := 0; i < k; i++ {
			w := words[rng.IntN(len(words))]
			switch {
			case i > 0 && rng.IntN(3) == 0:
				b.WriteString("_" + w)
			case i > 0:
				b.WriteString(strings.ToUpper(w[:1]) + w[1:])
			default:
				b.WriteString(w)
			}
		}
		return b.String()
	}
	out := make([]string, n)
	for i := range out {
		var b strings.Builder
		for b.Len() < 1000 {
			switch rng.IntN(4) {
			case 0:
				b.WriteString("\t// " + words[rng.IntN(len(words))] + " the " + words[rng.IntN(len(words))] + " before use\n")
			case 1:
				b.WriteString("\tif err := " + ident() + "(ctx, " + ident() + "); err != nil {\n\t\treturn nil, err\n\t}\n")
			case 2:
				b.WriteString("\t" + ident() + " := \"" + words[rng.IntN(len(words))] + " not found\"\n")
			default:
				b.WriteString("func (s *" + ident() + ") " + ident() + "(id int64) error {\n")
			}
		}
		out[i] = b.String()
	}
	return out
}

func BenchmarkLocalEmbed(b *testing.B) {
	e := newLocal(b)
	chunks := benchChunks(256)
	var chars int
	for _, c := range chunks {
		chars += len(c)
	}
	ctx := context.Background()
	b.SetBytes(int64(chars))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := e.Embed(ctx, chunks); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(chunks))/b.Elapsed().Seconds(), "chunks/s")
	b.ReportMetric(float64(chars)/float64(len(chunks)), "chars/chunk")
}
