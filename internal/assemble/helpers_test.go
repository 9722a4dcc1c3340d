package assemble

import (
	"context"
	"hash/fnv"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"codectx/internal/index"
	"codectx/internal/store"
)

// fakeEmbedder hashes words into 16 dimensions: deterministic, offline,
// and similar texts get similar vectors.
type fakeEmbedder struct{}

func (fakeEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
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
func (fakeEmbedder) ModelID() string { return "fake:words16" }
func (fakeEmbedder) Dims() int       { return 16 }
func (fakeEmbedder) BatchSize() int  { return 16 }

// fixture is an indexed copy of a project under testdata.
type fixture struct {
	db   *store.DB
	root string
	pid  int64
}

// copyTree copies testdata/name into a fresh directory.
func copyTree(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join("testdata", name)
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
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

// indexFixture copies testdata/name and indexes it into a new database.
func indexFixture(t *testing.T, name string) *fixture {
	t.Helper()
	root := copyTree(t, name)
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "index.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f := &fixture{db: db, root: root}
	f.reindex(t)
	return f
}

// reindex runs the incremental pipeline and returns its summary.
func (f *fixture) reindex(t *testing.T) *index.Summary {
	t.Helper()
	ctx := context.Background()
	sum, err := index.Run(ctx, index.Options{Root: f.root, DB: f.db, Embedder: fakeEmbedder{}, Threads: 1})
	if err != nil {
		t.Fatalf("index: %v", err)
	}
	p, err := f.db.Project(ctx, f.root)
	if err != nil {
		t.Fatal(err)
	}
	f.pid = p.ID
	return sum
}

// chunk returns the chunk with the given symbol (the first one).
func (f *fixture) chunk(t *testing.T, symbol string) store.GraphChunk {
	t.Helper()
	list, err := f.db.ChunksBySymbol(context.Background(), f.pid, symbol, 10)
	if err != nil || len(list) == 0 {
		t.Fatalf("no chunk %q (%v)", symbol, err)
	}
	return list[0]
}
