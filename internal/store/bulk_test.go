package store

import (
	"context"
	"sort"
	"strings"
	"testing"
)

// secondaryIndexes lists "name ON def" for the secondary indexes of the
// tables a bulk load fills, as sqlite_master holds them.
func secondaryIndexes(t *testing.T, db *DB) []string {
	t.Helper()
	rows, err := db.sql.Query(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
		AND tbl_name IN ('chunks', 'relations', 'typefacts') ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var name, def string
		if err := rows.Scan(&name, &def); err != nil {
			t.Fatal(err)
		}
		def = strings.Join(strings.Fields(def), " ")
		def = strings.TrimPrefix(def, "CREATE INDEX ")
		def = strings.TrimPrefix(def, "IF NOT EXISTS ")
		out = append(out, def)
	}
	return out
}

func deferredList() []string {
	var want []string
	for _, ix := range deferredIndexes {
		want = append(want, ix.name+" ON "+ix.def)
	}
	sort.Strings(want)
	return want
}

// TestDeferredIndexesMatchSchema: the indexes a bulk load rebuilds are
// exactly those the migrations create, so a bulk-loaded database is
// indistinguishable from one written row by row.
func TestDeferredIndexesMatchSchema(t *testing.T) {
	db, _ := openTemp(t)
	got := secondaryIndexes(t, db)
	want := deferredList()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("schema indexes:\n%s\ndeferred indexes:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestBulkLoadOnlyOnEmptyDatabase(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	bulk, err := db.BeginBulkLoad(ctx)
	if err != nil || !bulk {
		t.Fatalf("empty database: bulk = %v, %v; want true", bulk, err)
	}
	if got := secondaryIndexes(t, db); len(got) != 0 {
		t.Fatalf("indexes left during a bulk load: %v", got)
	}
	p, err := db.EnsureProject(ctx, "/proj")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.WriteBatch(ctx, p.ID, "m", Batch{Files: []FileRecord{record("a.go", "A1", "A2")}}); err != nil {
		t.Fatal(err)
	}
	if err := db.EnsureIndexes(ctx); err != nil {
		t.Fatal(err)
	}
	if got, want := secondaryIndexes(t, db), deferredList(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("after EnsureIndexes: %v, want %v", got, want)
	}
	// A database with files is never bulk-loaded: its indexes stay.
	bulk, err = db.BeginBulkLoad(ctx)
	if err != nil || bulk {
		t.Fatalf("non-empty database: bulk = %v, %v; want false", bulk, err)
	}
	if got := secondaryIndexes(t, db); len(got) != len(deferredIndexes) {
		t.Fatalf("indexes dropped on a non-empty database: %v", got)
	}
}

func TestHasVectors(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	if has, err := db.HasVectors(ctx, "m"); err != nil || has {
		t.Fatalf("empty cache: %v, %v", has, err)
	}
	p, err := db.EnsureProject(ctx, "/proj")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.WriteBatch(ctx, p.ID, "m", Batch{Files: []FileRecord{record("a.go", "A1")}}); err != nil {
		t.Fatal(err)
	}
	if has, err := db.HasVectors(ctx, "m"); err != nil || !has {
		t.Fatalf("after a write: %v, %v", has, err)
	}
	if has, err := db.HasVectors(ctx, "other"); err != nil || has {
		t.Fatalf("another model: %v, %v", has, err)
	}
}
