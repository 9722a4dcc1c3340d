package codectx

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// jsonPaths collects the values of "path" and "file" keys in v after a
// JSON round trip: what an MCP client or a --json reader gets.
func jsonPaths(t *testing.T, v any) []string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	var out []string
	var walk func(any)
	walk = func(x any) {
		switch x := x.(type) {
		case map[string]any:
			for k, v := range x {
				if s, ok := v.(string); ok && (k == "path" || k == "file") && s != "" && s != "." {
					out = append(out, s)
				}
				walk(v)
			}
		case []any:
			for _, v := range x {
				walk(v)
			}
		}
	}
	walk(doc)
	return out
}

// TestInvalidUTF8Names: files and directories whose names are not valid
// UTF-8 are skipped with a warning by scan, index, glob and grep (both
// engines), so every path handed out survives JSON (where such bytes become
// U+FFFD) and opens with Read. Run on a plain directory and a git work tree.
func TestInvalidUTF8Names(t *testing.T) {
	for _, mode := range []string{"walk", "git"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{
				"good.go":              "package p\n\n// BadNameMarker is in a good file.\nfunc BadNameMarker() {}\n",
				"bad\xff\xfename.go":   "package p\n\n// BadNameMarker is in a badly named file.\nfunc BadNameMarkerBad() {}\n",
				"d\xff/inner.go":       "package d\n\n// BadNameMarker inside a badly named directory.\nfunc BadNameMarkerInner() {}\n",
				"ok/also\xc3(name.txt": "BadNameMarker in text\n",
			}
			for name, src := range files {
				p := filepath.Join(dir, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Skipf("this file system refuses names that are not UTF-8: %v", err)
				}
				if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
					t.Skipf("this file system refuses names that are not UTF-8: %v", err)
				}
			}
			if mode == "git" {
				if _, err := exec.LookPath("git"); err != nil {
					t.Skip("git is not installed")
				}
				for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}} {
					cmd := exec.Command("git", args...)
					cmd.Dir = dir
					if out, err := cmd.CombinedOutput(); err != nil {
						t.Fatalf("git %v: %v\n%s", args, err, out)
					}
				}
			}
			ctx := context.Background()
			p, err := Open(dir, Options{DBPath: filepath.Join(t.TempDir(), "index.db")})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			sum, err := p.Index(ctx, IndexOptions{})
			if err != nil {
				t.Fatal(err)
			}
			warned := map[string]bool{}
			for _, w := range sum.Warnings {
				if strings.Contains(w.Reason, "UTF-8") {
					warned[w.Path] = true
				}
			}
			for _, want := range []string{`bad\xff\xfename.go`, `d\xff/`} {
				if !warned[want] {
					t.Errorf("index warnings %+v lack %q", sum.Warnings, want)
				}
			}
			check := func(what string, v any) {
				t.Helper()
				for _, path := range jsonPaths(t, v) {
					if !utf8.ValidString(path) || strings.ContainsRune(path, utf8.RuneError) {
						t.Errorf("%s handed out %q", what, path)
						continue
					}
					if _, err := p.Read(ctx, ReadOptions{File: path}); err != nil {
						t.Errorf("%s handed out %q, which Read cannot open: %v", what, path, err)
					}
				}
			}
			res, err := p.Search(ctx, SearchOptions{Query: "BadNameMarker", K: 10})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Results) == 0 {
				t.Error("search found nothing")
			}
			check("search", res)
			g, err := p.Glob(ctx, GlobOptions{Pattern: "**/*"})
			if err != nil {
				t.Fatal(err)
			}
			if len(g.Files) != 1 || g.Files[0].Path != "good.go" {
				t.Errorf("glob: %+v", g.Files)
			}
			check("glob", g)
			for _, engine := range []string{"native", "rg"} {
				if engine == "rg" {
					if _, err := exec.LookPath("rg"); err != nil {
						continue
					}
				}
				r, err := p.Grep(ctx, GrepOptions{Pattern: "BadNameMarker", Engine: engine})
				if err != nil {
					t.Fatal(err)
				}
				if r.Files != 1 {
					t.Errorf("grep %s: %d files: %+v", engine, r.Files, r.Lines)
				}
				check("grep "+engine, r)
			}
		})
	}
}
