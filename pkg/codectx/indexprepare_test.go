package codectx

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"codectx/internal/grepindex"
	"codectx/internal/store"
)

// TestIndexPrepareSearch: with PrepareSearch an index run leaves the search
// side files of its own generation and the grep index behind; without it,
// only the grep index.
func TestIndexPrepareSearch(t *testing.T) {
	for _, prepare := range []bool{false, true} {
		t.Run(map[bool]string{false: "plain", true: "prepare"}[prepare], func(t *testing.T) {
			dir := t.TempDir()
			src := "package demo\n\n// Sum adds two numbers.\nfunc Sum(a, b int) int { return a + b }\n"
			if err := os.WriteFile(filepath.Join(dir, "sum.go"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			dbPath := filepath.Join(t.TempDir(), "index.db")
			p, err := Open(dir, Options{DBPath: dbPath})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			sum, err := p.Index(ctx, IndexOptions{PrepareSearch: prepare})
			if err != nil {
				t.Fatal(err)
			}
			if sum.SearchFilesError != "" {
				t.Fatalf("search files: %s", sum.SearchFilesError)
			}
			pr, err := p.project(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, kind := range []string{store.SideMeta, store.SideVectors} {
				if got := p.db.HasSideFile(ctx, pr, kind); got != prepare {
					t.Errorf("side file %s present %v, want %v", kind, got, prepare)
				}
			}
			if _, err := os.Stat(grepindex.Path(dbPath, p.Root())); err != nil {
				t.Errorf("grep index: %v", err)
			}
		})
	}
}

// TestIndexSkippedDirs: the summary names the dependency and build-output
// directories the scan left out, and says how to bring one in; a
// re-included one is indexed and not named.
func TestIndexSkippedDirs(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"main.go":                "package main\n\nfunc main() {}\n",
		"vendor/lib/lib.go":      "package lib\n\nfunc Lib() {}\n",
		"web/package.json":       "{}\n",
		"web/dist/app.js":        "function app() {}\n",
		"tools/build/build.go":   "package build\n\nfunc Build() {}\n",
		"deps/node_modules/a.js": "function a() {}\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := Open(dir, Options{DBPath: filepath.Join(t.TempDir(), "index.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	sum, err := p.Index(context.Background(), IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sum.SkippedDirs, []string{"deps/node_modules", "vendor", "web/dist"}; !slices.Equal(got, want) {
		t.Fatalf("SkippedDirs = %q, want %q", got, want)
	}
	if sum.Scanned != 3 { // main.go, web/package.json, tools/build/build.go
		t.Errorf("scanned %d files", sum.Scanned)
	}
	if text := sum.Text(); !strings.Contains(text, "not indexed: deps/node_modules/, vendor/, web/dist/") || !strings.Contains(text, ".codectxignore") {
		t.Errorf("summary text:\n%s", text)
	}

	if err := os.WriteFile(filepath.Join(dir, ".codectxignore"), []byte("!vendor/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err = p.Index(context.Background(), IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sum.SkippedDirs, []string{"deps/node_modules", "web/dist"}; !slices.Equal(got, want) || sum.Scanned != 4 {
		t.Fatalf("after !vendor/: SkippedDirs = %q, scanned %d", got, sum.Scanned)
	}
}
