package assemble

import (
	"context"
	"path/filepath"
	"testing"

	"codectx/internal/index"
	"codectx/internal/store"
	"codectx/internal/testfix"
)

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

// chunkIDs lists the ids of the fixture's chunks, in id order; files
// leaves out the file chunks when false.
func (f *fixture) chunkIDs(t *testing.T, files bool) []int64 {
	t.Helper()
	q := "SELECT id FROM chunks WHERE project_id = ? ORDER BY id"
	if !files {
		q = "SELECT id FROM chunks WHERE project_id = ? AND kind != 'file' ORDER BY id"
	}
	rows, err := f.db.SQL().QueryContext(context.Background(), q, f.pid)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return ids
}

// chunk returns the chunk with the given symbol (the first one).
func (f *fixture) chunk(t *testing.T, symbol string) store.GraphChunk {
	t.Helper()
	return f.p.Chunk(t, symbol)
}
