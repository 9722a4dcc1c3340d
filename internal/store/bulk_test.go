package store

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
)

// secondaryIndexes lists "name ON def" for the secondary indexes of the
// tables a bulk load fills, as sqlite_master holds them.
func secondaryIndexes(t *testing.T, db *DB) []string {
	t.Helper()
	rows, err := db.sql.Query(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
		AND tbl_name IN ('chunks', 'relations', 'typefacts_files') ORDER BY name`)
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
	schema := map[string]bool{}
	for _, ix := range secondaryIndexes(t, db) {
		schema[ix] = true
	}
	for _, ix := range deferredList() {
		if !schema[ix] {
			t.Errorf("deferred index %q is not in the schema", ix)
		}
	}
}

func TestBulkLoadOnlyOnEmptyDatabase(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	bulk, err := db.BeginBulkLoad(ctx)
	if err != nil || !bulk {
		t.Fatalf("empty database: bulk = %v, %v; want true", bulk, err)
	}
	for _, ix := range secondaryIndexes(t, db) {
		if slices.Contains(deferredList(), ix) {
			t.Fatalf("index %s left during a bulk load", ix)
		}
	}
	if got := ftsConfig(t, db, "automerge"); got != "0" {
		t.Errorf("automerge during the bulk load = %q, want 0", got)
	}
	fresh := writeAndEnsureIndexes(t, db, "after EnsureIndexes")
	if got := ftsConfig(t, db, "automerge"); got != "4" {
		t.Errorf("automerge after the bulk load = %q, want 4", got)
	}
	// A database with files is never bulk-loaded: its indexes stay.
	bulk, err = db.BeginBulkLoad(ctx)
	if err != nil || bulk {
		t.Fatalf("non-empty database: bulk = %v, %v; want false", bulk, err)
	}
	if got, want := secondaryIndexes(t, db), secondaryIndexes(t, fresh); len(got) != len(want) {
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

func ftsConfig(t *testing.T, db *DB, key string) string {
	t.Helper()
	var v string
	if err := db.sql.QueryRow("SELECT COALESCE((SELECT v FROM chunks_fts_config WHERE k = ?), '')", key).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestBulkLoadSearchesLikeRowByRow: the full-text index of a bulk load
// (segments merged once at the end) answers like one written batch after
// batch with automatic merges.
func TestBulkLoadSearchesLikeRowByRow(t *testing.T) {
	ctx := context.Background()
	load := func(bulk bool) *DB {
		db, _ := openTemp(t)
		if bulk {
			if ok, err := db.BeginBulkLoad(ctx); err != nil || !ok {
				t.Fatalf("bulk: %v %v", ok, err)
			}
		}
		p, err := db.EnsureProject(ctx, "/proj")
		if err != nil {
			t.Fatal(err)
		}
		for i := range 40 {
			if _, err := db.WriteBatch(ctx, p.ID, "m", Batch{Files: []FileRecord{record(fmt.Sprintf("f%d.go", i), fmt.Sprintf("Name%d", i%7), "Shared")}}); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.EnsureIndexes(ctx); err != nil {
			t.Fatal(err)
		}
		return db
	}
	row, bulk := load(false), load(true)
	for _, term := range []string{"Shared", "Name3", "f12", "func"} {
		a := count(t, row, "SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?", term)
		b := count(t, bulk, "SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?", term)
		if a != b || a == 0 {
			t.Errorf("%s: %d rows row by row, %d bulk-loaded", term, a, b)
		}
	}
}

// TestWriteBatchWithoutVectors: a first batch that carries no vector (empty
// files: no chunks) for a model with no recorded dimension is written; it
// used to fail with "sql: no rows in result set".
func TestWriteBatchWithoutVectors(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	p, err := db.EnsureProject(ctx, "/proj")
	if err != nil {
		t.Fatal(err)
	}
	empty := FileRecord{Path: "__init__.py", Lang: "python", SHA256: "e3b0"}
	if _, err := db.WriteBatch(ctx, p.ID, "m", Batch{Files: []FileRecord{empty}}); err != nil {
		t.Fatalf("batch of an empty file: %v", err)
	}
	if n := count(t, db, "SELECT count(*) FROM files"); n != 1 {
		t.Fatalf("files = %d, want 1", n)
	}
}

// TestBulkLoadManyFlushes: a bulk load of a large tree flushes the
// full-text index thousands of times (once per batch, and whenever its
// in-memory hash fills). FTS5 holds at most 2,000 segments and answers
// SQLITE_FULL ("database or disk is full") past that, so the bulk load's
// crisis merges must keep the count well below (the Python 3.11 stdlib,
// 22k files, failed after ~20k files while merges waited for 1,999
// segments on one level).
func TestBulkLoadManyFlushes(t *testing.T) {
	if testing.Short() {
		t.Skip("4,500 transactions")
	}
	db, _ := openTemp(t)
	ctx := context.Background()
	if bulk, err := db.BeginBulkLoad(ctx); err != nil || !bulk {
		t.Fatalf("bulk = %v, %v; want true", bulk, err)
	}
	// One row per transaction is one new level-0 segment.
	for i := range 4500 {
		if _, err := db.sql.ExecContext(ctx, "INSERT INTO chunks_fts(rowid, name, path, body) VALUES (?, ?, ?, ?)",
			i+1, fmt.Sprintf("name%d", i), "p.go", fmt.Sprintf("body token%d", i)); err != nil {
			t.Fatalf("insert %d: %v", i, err)
		}
	}
	if err := db.EnsureIndexes(ctx); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.sql.QueryRow("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'body'").Scan(&n); err != nil || n != 4500 {
		t.Fatalf("rows matching 'body' = %d, %v; want 4500", n, err)
	}
}

// TestCallersByPathCovered: counting callers per file reads the index on a
// relation's target alone, both on a migrated database and after a bulk
// load rebuilt its indexes (EnsureIndexes).
func TestCallersByPathCovered(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	plan := func() string { return queryPlan(t, db, callersByPathSQL(3), 1, 2, 3) }
	if got := plan(); !strings.Contains(got, "USING COVERING INDEX relations_dst_kind") {
		t.Errorf("migrated database: plan %q, want the covering index relations_dst_kind", got)
	}
	if bulk, err := db.BeginBulkLoad(ctx); err != nil || !bulk {
		t.Fatalf("BeginBulkLoad = %v, %v", bulk, err)
	}
	if err := db.EnsureIndexes(ctx); err != nil {
		t.Fatal(err)
	}
	if got := plan(); !strings.Contains(got, "USING COVERING INDEX relations_dst_kind") {
		t.Errorf("after a bulk load: plan %q, want the covering index relations_dst_kind", got)
	}
}

// TestPartialRelationIndexesUsed: the lookups by target name and source
// symbol use the partial indexes made for them, on a migrated database and
// after a bulk load rebuilt them.
func TestPartialRelationIndexesUsed(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	queries := []struct{ sql, index string }{
		{unresolvedToSQL(2), "relations_open_target"},
		{relationsWhereInSQL("target", "kind = 'contains'", 2), "relations_contains_target"},
		{relationsWhereInSQL("src_symbol", "coalesce(src_chunk, 0) = 0 AND kind = 'contains'", 2), "relations_orphan"},
	}
	check := func(when string) {
		t.Helper()
		for _, q := range queries {
			if got := queryPlan(t, db, q.sql, 1, "a", "b", 10); !strings.Contains(got, "INDEX "+q.index+" ") {
				t.Errorf("%s: plan %q, want index %s", when, got, q.index)
			}
		}
	}
	check("migrated database")
	if bulk, err := db.BeginBulkLoad(ctx); err != nil || !bulk {
		t.Fatalf("BeginBulkLoad = %v, %v", bulk, err)
	}
	if err := db.EnsureIndexes(ctx); err != nil {
		t.Fatal(err)
	}
	check("after a bulk load")
}

// TestEnsureIndexesKeepsTempStoreInMemory: the deferred indexes are sorted
// with temporary storage on disk, and the connection goes back to the pool
// with the setting every connection has (in memory), whether there was
// something to build or not.
func TestEnsureIndexesKeepsTempStoreInMemory(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		bulk bool // a bulk load leaves indexes to build
	}{
		{"after a bulk load", true},
		{"nothing to build", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, _ := openTemp(t)
			db.sql.SetMaxOpenConns(1) // every statement on the connection EnsureIndexes used
			if tc.bulk {
				if ok, err := db.BeginBulkLoad(ctx); err != nil || !ok {
					t.Fatalf("bulk: %v %v", ok, err)
				}
			}
			writeAndEnsureIndexes(t, db, "indexes")
			if got := count(t, db, "PRAGMA temp_store"); got != 2 {
				t.Errorf("temp_store after EnsureIndexes = %d, want 2 (memory)", got)
			}
		})
	}
}

// queryPlan is SQLite's plan of q, its steps joined by "; ".
func queryPlan(t *testing.T, db *DB, q string, args ...any) string {
	t.Helper()
	rows, err := db.sql.Query("EXPLAIN QUERY PLAN "+q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var steps []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		steps = append(steps, detail)
	}
	return strings.Join(steps, "; ")
}

// writeAndEnsureIndexes writes one file into a new project, runs
// EnsureIndexes and checks that db then has a fresh database's secondary
// indexes (what names the check in a failure); it returns that fresh
// database.
func writeAndEnsureIndexes(t *testing.T, db *DB, what string) *DB {
	t.Helper()
	ctx := context.Background()
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
	fresh, _ := openTemp(t)
	if got, want := secondaryIndexes(t, db), secondaryIndexes(t, fresh); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("%s: %v, want %v", what, got, want)
	}
	return fresh
}
