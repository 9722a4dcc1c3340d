package codectx

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"codectx/internal/testfix"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// goldenFile compares got with testdata/golden/name, rewriting it with -update.
func goldenFile(t *testing.T, name, got string) {
	t.Helper()
	testfix.Golden(t, name, got, *update)
}

// netHTTP returns $GOROOT/src/net/http, skipping when it is absent.
func netHTTP(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: indexing net/http takes several seconds")
	}
	root := os.Getenv("GOROOT")
	if root == "" {
		out, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			t.Skipf("no GOROOT: %v", err)
		}
		root = strings.TrimSpace(string(out))
	}
	dir := filepath.Join(root, "src", "net", "http")
	if _, err := os.Stat(filepath.Join(dir, "server.go")); err != nil {
		t.Skipf("GOROOT sources are not installed (%v): the net/http golden tests need them", err)
	}
	return dir
}

// TestOrientGoldenNetHTTP pins the 2,000-token map and the overview of the
// Go standard library's net/http (golden files follow the installed Go).
func TestOrientGoldenNetHTTP(t *testing.T) {
	p := openIndexed(t, netHTTP(t))
	ctx := context.Background()
	m, err := p.Map(ctx, MapOptions{Budget: 2000})
	if err != nil {
		t.Fatal(err)
	}
	if m.Tokens > 2000 {
		t.Errorf("map uses %d tokens", m.Tokens)
	}
	goldenFile(t, "nethttp_map_2000.txt", m.Text())
	fm, err := p.Map(ctx, MapOptions{Budget: 1000, Focus: []string{"cookiejar/jar.go"}})
	if err != nil {
		t.Fatal(err)
	}
	goldenFile(t, "nethttp_map_focus_jar.txt", fm.Text())
	o, err := p.Overview(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if o.Tokens > 1500 {
		t.Errorf("overview uses %d tokens", o.Tokens)
	}
	goldenFile(t, "nethttp_overview.txt", o.Text())
}

// BenchmarkMapNetHTTP measures a warm 2,000-token map of net/http (the
// index and the tokenizer tables already loaded):
// go test ./pkg/codectx -run '^$' -bench MapNetHTTP -benchtime 10x
func BenchmarkMapNetHTTP(b *testing.B) {
	dir := os.Getenv("GOROOT")
	if dir == "" {
		out, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			b.Skipf("no GOROOT: %v", err)
		}
		dir = strings.TrimSpace(string(out))
	}
	dir = filepath.Join(dir, "src", "net", "http")
	if _, err := os.Stat(dir); err != nil {
		b.Skipf("GOROOT sources are not installed: %v", err)
	}
	p, err := Open(dir, Options{DBPath: filepath.Join(b.TempDir(), "index.db")})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	ctx := context.Background()
	if _, err := p.Index(ctx, IndexOptions{}); err != nil {
		b.Fatal(err)
	}
	if _, err := p.Map(ctx, MapOptions{Budget: 2000}); err != nil { // warm the tokenizer
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := p.Map(ctx, MapOptions{Budget: 2000}); err != nil {
			b.Fatal(err)
		}
	}
}
