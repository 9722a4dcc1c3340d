// Package testfix holds the fixtures that several packages' tests share: an
// offline word-hashing embedder and indexed copies of testdata trees. Only
// _test.go files import it; product code must not.
package testfix

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"io/fs"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"codectx/internal/index"
	"codectx/internal/store"
)

// Embedder hashes words into 16 dimensions: deterministic, offline, and
// similar texts get similar vectors.
type Embedder struct{}

// Embed implements embed.Embedder.
func (Embedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, 16)
		for _, w := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
		}) {
			h := fnv.New32a()
			h.Write([]byte(w))
			v[h.Sum32()%16]++
		}
		var n float64
		for _, x := range v {
			n += float64(x) * float64(x)
		}
		if n > 0 {
			for j := range v {
				v[j] /= float32(math.Sqrt(n))
			}
		}
		out[i] = v
	}
	return out, nil
}

// ModelID implements embed.Embedder.
func (Embedder) ModelID() string { return "fake:words16" }

// Dims implements embed.Embedder.
func (Embedder) Dims() int { return 16 }

// BatchSize implements embed.Embedder.
func (Embedder) BatchSize() int { return 16 }

// CopyTree copies the directory src into a fresh temporary directory
// (outside any git work tree) and returns that directory with symbolic
// links resolved.
func CopyTree(t testing.TB, src string) string {
	t.Helper()
	dst, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// Project is an indexed copy of a tree in its own database.
type Project struct {
	DB   *store.DB
	Root string
	ID   int64
}

// Index copies the tree src and indexes it into a new database.
func Index(t testing.TB, src string) *Project {
	t.Helper()
	root := CopyTree(t, src)
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "index.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	p := &Project{DB: db, Root: root}
	p.Reindex(t)
	return p
}

// Reindex runs the incremental pipeline and returns its summary.
func (p *Project) Reindex(t testing.TB) *index.Summary {
	t.Helper()
	ctx := context.Background()
	sum, err := index.Run(ctx, index.Options{Root: p.Root, DB: p.DB, Embedder: Embedder{}, Threads: 1})
	if err != nil {
		t.Fatalf("index: %v", err)
	}
	pr, err := p.DB.Project(ctx, p.Root)
	if err != nil {
		t.Fatal(err)
	}
	p.ID = pr.ID
	return sum
}

// Chunk returns the first chunk with the given symbol.
func (p *Project) Chunk(t testing.TB, symbol string) store.GraphChunk {
	t.Helper()
	list, err := p.DB.ChunksBySymbol(context.Background(), p.ID, symbol, 10)
	if err != nil || len(list) == 0 {
		t.Fatalf("no chunk %q (%v)", symbol, err)
	}
	return list[0]
}

// Golden compares got with the file testdata/golden/name; with update it
// rewrites the file instead (the tests' -update flag).
func Golden(t testing.TB, name, got string, update bool) {
	t.Helper()
	p := filepath.Join("testdata", "golden", name)
	if update {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (run the test with -update to accept):\n--- got ---\n%s\n--- want ---\n%s", name, got, want)
	}
}

// JSONShape describes the JSON encoding of v by its paths and value kinds,
// one "path: kind" line each, sorted ("results[].file: string"): what a
// client of the JSON depends on, without the values that vary between runs.
// An array's elements share the path "name[]".
func JSONShape(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal %T: %v", v, err)
	}
	var doc any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("unmarshal %T: %v", v, err)
	}
	seen := map[string]bool{}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case map[string]any:
			seen[path+": object"] = true
			for k, e := range x {
				walk(strings.TrimPrefix(path+"."+k, "."), e)
			}
		case []any:
			seen[path+": array"] = true
			for _, e := range x {
				walk(path+"[]", e)
			}
		case string:
			seen[path+": string"] = true
		case float64:
			seen[path+": number"] = true
		case bool:
			seen[path+": bool"] = true
		case nil:
			seen[path+": null"] = true
		}
	}
	walk("", doc)
	lines := slices.Sorted(maps.Keys(seen))
	return strings.Join(lines, "\n") + "\n"
}

// GoRoot is the Go installation's root as `go env GOROOT` reports it, ""
// when go cannot say (tests that need its sources then skip or say so).
var GoRoot = sync.OnceValue(func() string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
})
