package store

import (
	"context"
	"fmt"
	"reflect"
	"testing"
)

// A project holding most of the database is read by a table scan, a small
// one through the index, and either way the rows and their order are the
// same as the plain query's.
func TestProjectReadsScanOrIndex(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	big, err := db.EnsureProject(ctx, "/big")
	if err != nil {
		t.Fatal(err)
	}
	small, err := db.EnsureProject(ctx, "/small")
	if err != nil {
		t.Fatal(err)
	}
	var files []FileRecord
	for i := range 8 {
		files = append(files, record(fmt.Sprintf("p%d/f.go", 7-i), fmt.Sprint("A", i), fmt.Sprint("B", i)))
	}
	if _, err := db.WriteBatch(ctx, big.ID, "m", Batch{Files: files}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.WriteBatch(ctx, small.ID, "m", Batch{Files: []FileRecord{record("s.go", "S", "T")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.sql.Exec(`UPDATE relations SET resolution = 'exact', dst_chunk =
		(SELECT c.id FROM chunks c WHERE c.project_id = relations.project_id AND c.symbol = relations.target)`); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		p    *Project
		want string
	}{{big, "+project_id = ?"}, {small, "project_id = ?"}} {
		if got := db.projectFilter(ctx, c.p.ID); got != c.want {
			t.Errorf("project %s: filter %q, want %q", c.p.Root, got, c.want)
		}
		chunks, err := db.ProjectChunks(ctx, c.p.ID)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := db.sql.Query("SELECT "+graphChunkCols+" FROM chunks WHERE project_id = ? AND kind != 'text' ORDER BY path, start_line, id", c.p.ID)
		if err != nil {
			t.Fatal(err)
		}
		want, err := scanGraphChunks(rows, false)
		if err != nil {
			t.Fatal(err)
		}
		if len(chunks) == 0 || !reflect.DeepEqual(chunks, want) {
			t.Errorf("project %s: ProjectChunks %v, want %v", c.p.Root, chunks, want)
		}
		edges, err := db.ResolvedEdges(ctx, c.p.ID)
		if err != nil {
			t.Fatal(err)
		}
		rows, err = db.sql.Query("SELECT kind, src_chunk, dst_chunk, line, resolution FROM relations WHERE project_id = ? AND "+resolvedEdgeCond+" ORDER BY id", c.p.ID)
		if err != nil {
			t.Fatal(err)
		}
		wantEdges, err := scanEdges(rows, db)
		if err != nil {
			t.Fatal(err)
		}
		if len(edges) == 0 || !reflect.DeepEqual(edges, wantEdges) {
			t.Errorf("project %s: ResolvedEdges %v, want %v", c.p.Root, edges, wantEdges)
		}
	}
}
