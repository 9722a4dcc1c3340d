package index

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"codectx/internal/store"
	"codectx/internal/vecindex"
)

// sizedEmbedder returns vectors of a size that can change between calls,
// as an embedding server does when another model is loaded under its name.
type sizedEmbedder struct {
	model string
	dims  atomic.Int32
	texts atomic.Int32
}

func (s *sizedEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	d := int(s.dims.Load())
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, d)
		for j := 0; j < len(t); j++ {
			v[j%d] += float32(t[j])
		}
		out[i] = v
	}
	s.texts.Add(int32(len(texts)))
	return out, nil
}
func (s *sizedEmbedder) ModelID() string { return s.model }
func (s *sizedEmbedder) Dims() int       { return int(s.dims.Load()) }
func (s *sizedEmbedder) BatchSize() int  { return 8 }

func newSized(model string, dims int) *sizedEmbedder {
	e := &sizedEmbedder{model: model}
	e.dims.Store(int32(dims))
	return e
}

// loadMatrix builds the project's vector matrix the way search does.
func loadMatrix(t *testing.T, db *store.DB, root, model string) *vecindex.Matrix {
	t.Helper()
	p, err := db.Project(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	var m *vecindex.Matrix
	err = db.ProjectVectors(context.Background(), p.ID, model, func(id int64, blob []byte) error {
		if m == nil {
			m = vecindex.NewMatrix(vecindex.VectorDims(blob), 0)
		}
		return m.Add(id, vecindex.DecodeVector(blob))
	})
	if err != nil {
		t.Fatalf("load vectors: %v", err)
	}
	return m
}

// countVecs counts the cached vectors of model with dims dimensions, in
// either stored encoding.
func countVecs(t *testing.T, db *store.DB, model string, dims int) int {
	t.Helper()
	rows, err := db.SQL().Query("SELECT vec FROM vectors WHERE model = ?", model)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var b []byte
		if err := rows.Scan(&b); err != nil {
			t.Fatal(err)
		}
		if vecindex.VectorDims(b) == dims {
			n++
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestWrongDimensionRejected: when the server behind a model starts
// returning vectors of another size, the run stops with an error naming the
// model and both sizes, nothing of that size is stored or cached, search
// keeps working, and the file is indexed by the next run once the server
// is right again.
func TestWrongDimensionRejected(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, repo)
	db := openDB(t)
	ctx := context.Background()
	emb := newSized("fake:srv", 8)
	if _, err := Run(ctx, Options{Root: root, DB: db, Embedder: emb, Threads: 2}); err != nil {
		t.Fatal(err)
	}

	writeFiles(t, root, map[string]string{"svc/new.go": "package svc\n\n// Fresh is new.\nfunc Fresh() int { return 1 }\n"})
	emb.dims.Store(4)
	_, err := Run(ctx, Options{Root: root, DB: db, Embedder: emb, Threads: 2})
	if !errors.Is(err, store.ErrDimensions) {
		t.Fatalf("want a dimension error, got %v", err)
	}
	for _, want := range []string{"fake:srv", "4-dimensional", "8 dimensions"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
	if n := countVecs(t, db, "fake:srv", 4); n != 0 {
		t.Fatalf("%d vectors of the wrong size were stored", n)
	}
	if m := loadMatrix(t, db, root, "fake:srv"); m == nil || m.Dim() != 8 {
		t.Fatalf("search matrix after the bad run: %v", m)
	}

	emb.dims.Store(8)
	s, err := Run(ctx, Options{Root: root, DB: db, Embedder: emb, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	if s.Changed != 1 {
		t.Errorf("the refused file should be indexed by the next run: %+v", s)
	}
	assertConsistent(t, db)
}

// TestRebuildDoesNotReusePoisonedVectors: a cache that already holds a
// vector of the wrong size (written by an older build) is not a hit:
// --rebuild embeds that text again and replaces it, and search skips it
// until then.
func TestRebuildDoesNotReusePoisonedVectors(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, repo)
	dbPath := filepath.Join(t.TempDir(), "index.db")
	db, err := store.Open(context.Background(), dbPath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	emb := newSized("fake:srv", 8)
	if _, err := Run(ctx, Options{Root: root, DB: db, Embedder: emb, Threads: 2}); err != nil {
		t.Fatal(err)
	}
	// Poison one cached vector the way older builds let it happen.
	res, err := db.SQL().Exec("UPDATE vectors SET vec = ? WHERE text_hash = (SELECT text_hash FROM vectors LIMIT 1)", make([]byte, 16))
	if err != nil {
		t.Fatalf("poison: %v", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		t.Fatalf("poisoned %d vectors", n)
	}
	if m := loadMatrix(t, db, root, "fake:srv"); m == nil || m.Dim() != 8 {
		t.Fatalf("search over a poisoned cache: %v", m)
	}
	before := emb.texts.Load()
	s, err := Run(ctx, Options{Root: root, DB: db, Embedder: emb, Threads: 2, Rebuild: true})
	if err != nil {
		t.Fatal(err)
	}
	if s.Embedded < 1 || emb.texts.Load() == before {
		t.Errorf("rebuild took the poisoned vector from the cache: %+v", s)
	}
	if n := countVecs(t, db, "fake:srv", 4); n != 0 {
		t.Errorf("%d poisoned vectors left after rebuild", n)
	}
	assertConsistent(t, db)
}

// TestModelSwitchIsRealSwitch: another model (another ModelID) has its own
// dimension: its vectors are accepted, the project's vectors are all of the
// new model, and switching back finds the old vectors in the cache.
func TestModelSwitchIsRealSwitch(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, repo)
	db := openDB(t)
	ctx := context.Background()
	a, b := newSized("fake:a", 8), newSized("fake:b", 4)
	for _, e := range []*sizedEmbedder{a, b} {
		if _, err := Run(ctx, Options{Root: root, DB: db, Embedder: e, Threads: 2}); err != nil {
			t.Fatalf("index with %s: %v", e.model, err)
		}
		if m := loadMatrix(t, db, root, e.model); m == nil || m.Dim() != int(e.dims.Load()) {
			t.Fatalf("matrix for %s: %v", e.model, m)
		}
		if d, _ := db.ModelDims(ctx, e.model); d != int(e.dims.Load()) {
			t.Errorf("recorded dims of %s: %d", e.model, d)
		}
	}
	if p, _ := db.Project(ctx, root); p.Model != "fake:b" {
		t.Errorf("project model %q after the switch", p.Model)
	}
	before := a.texts.Load()
	s, err := Run(ctx, Options{Root: root, DB: db, Embedder: a, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	if a.texts.Load() != before || s.CacheHits == 0 {
		t.Errorf("switching back should reuse model a's cached vectors: %+v", s)
	}
	assertConsistent(t, db)
}
