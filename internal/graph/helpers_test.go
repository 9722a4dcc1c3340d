package graph

import (
	"context"
	"flag"
	"path/filepath"
	"testing"

	"codectx/internal/index"
	"codectx/internal/store"
	"codectx/internal/testfix"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// fixture is an indexed copy of a project under testdata.
type fixture struct {
	p    *testfix.Project
	db   *store.DB
	root string
	pid  int64
}

// indexFixture copies testdata/name and indexes it into a new database.
func indexFixture(t *testing.T, name string) *fixture {
	t.Helper()
	p := testfix.Index(t, filepath.Join("testdata", name))
	return &fixture{p: p, db: p.DB, root: p.Root, pid: p.ID}
}

// reindex runs the incremental pipeline and returns its summary.
func (f *fixture) reindex(t *testing.T) *index.Summary {
	t.Helper()
	if f.p == nil { // a fixture built from its own root and database
		f.p = &testfix.Project{DB: f.db, Root: f.root}
	}
	sum := f.p.Reindex(t)
	f.pid = f.p.ID
	return sum
}

// chunk returns the chunk with the given symbol (the first one).
func (f *fixture) chunk(t *testing.T, symbol string) store.GraphChunk {
	t.Helper()
	return f.p.Chunk(t, symbol)
}

func (f *fixture) graph(t *testing.T, opt Options) *Result {
	t.Helper()
	r, err := Build(context.Background(), f.db, f.pid, opt)
	if err != nil {
		t.Fatalf("graph %q: %v", opt.Name, err)
	}
	return r
}

// golden compares got with testdata/golden/name, rewriting it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	testfix.Golden(t, name, got, *update)
}
