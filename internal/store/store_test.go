package store

import (
	"context"
	"crypto/sha256"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"codectx/internal/lang"
)

func openTemp(t *testing.T) (*DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "index.db")
	db, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, path
}

func record(path string, names ...string) FileRecord {
	f := FileRecord{Path: path, Lang: "go", Size: 10, MTime: 1, SHA256: "h-" + path}
	for i, n := range names {
		h := sha256.Sum256([]byte(path + n))
		f.Chunks = append(f.Chunks, ChunkRecord{
			Chunk:    lang.Chunk{Kind: lang.KindFunction, Name: n + "()", Symbol: n, StartLine: i*3 + 1, EndLine: i*3 + 2, Content: "func " + n + "() {}"},
			TextHash: h[:], Vector: []float32{1, 0, 0}, FTSName: n, FTSPath: path, FTSBody: "func " + n,
		})
	}
	if len(names) > 1 {
		f.Relations = append(f.Relations, lang.Relation{Kind: lang.RelCalls, Source: names[0], Target: names[1], Line: 1})
	}
	return f
}

func count(t *testing.T, db *DB, q string, args ...any) int {
	t.Helper()
	var n int
	if err := db.sql.QueryRow(q, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

func TestWriteBatchRollsBackOnFailure(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	p, err := db.EnsureProject(ctx, "/proj")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.WriteBatch(ctx, p.ID, "m", Batch{Files: []FileRecord{record("a.go", "A1", "A2")}}); err != nil {
		t.Fatal(err)
	}
	// A trigger makes the second file of the next batch fail mid-transaction.
	if _, err := db.sql.Exec(`CREATE TRIGGER boom BEFORE INSERT ON chunks WHEN NEW.symbol = 'Boom'
		BEGIN SELECT RAISE(ABORT, 'boom'); END`); err != nil {
		t.Fatal(err)
	}
	a2 := record("a.go", "A3")
	a2.SHA256 = "changed"
	_, err = db.WriteBatch(ctx, p.ID, "m", Batch{Files: []FileRecord{a2, record("b.go", "Boom")}, Removed: nil})
	if err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("want the trigger's error, got %v", err)
	}
	// Nothing of the failed batch is visible: a.go keeps its old chunks and fingerprint.
	if got := count(t, db, "SELECT count(*) FROM chunks WHERE path = 'a.go' AND symbol IN ('A1','A2')"); got != 2 {
		t.Errorf("old chunks of a.go: %d, want 2", got)
	}
	if got := count(t, db, "SELECT count(*) FROM files WHERE sha256 = 'changed' OR path = 'b.go'"); got != 0 {
		t.Errorf("rows of the failed batch leaked: %d", got)
	}
	if got := count(t, db, "SELECT count(*) FROM chunks_fts"); got != 2 {
		t.Errorf("fts rows: %d, want 2", got)
	}
}

func TestRemoveFilesDropsEverything(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	p, _ := db.EnsureProject(ctx, "/proj")
	if _, err := db.WriteBatch(ctx, p.ID, "m", Batch{Files: []FileRecord{record("a.go", "A1", "B1"), record("b.go", "B1")}}); err != nil {
		t.Fatal(err)
	}
	// Link a.go's call to b.go's B1 chunk, then remove b.go.
	var b1 int64
	db.sql.QueryRow("SELECT id FROM chunks WHERE path = 'b.go'").Scan(&b1)
	if _, err := db.sql.Exec("UPDATE relations SET dst_chunk = ?", b1); err != nil {
		t.Fatal(err)
	}
	res, err := db.WriteBatch(ctx, p.ID, "m", Batch{Removed: []string{"b.go"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Names) != 1 || res.Names[0] != "B1" {
		t.Errorf("touched names = %v, want [B1]", res.Names)
	}
	for q, want := range map[string]int{
		"SELECT count(*) FROM files WHERE path = 'b.go'":             0,
		"SELECT count(*) FROM chunks WHERE path = 'b.go'":            0,
		"SELECT count(*) FROM chunks_fts":                            2,
		"SELECT count(*) FROM relations WHERE dst_chunk IS NOT NULL": 0,
		"SELECT count(*) FROM relations":                             1,
	} {
		if got := count(t, db, q); got != want {
			t.Errorf("%s = %d, want %d", q, got, want)
		}
	}
	// Vectors stay: they are a content-addressed cache.
	if got := count(t, db, "SELECT count(*) FROM vectors"); got != 3 {
		t.Errorf("vectors = %d, want 3", got)
	}
}

func TestOpenRejectsBadFiles(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()

	corrupt := filepath.Join(dir, "corrupt.db")
	os.WriteFile(corrupt, []byte(strings.Repeat("this is not sqlite ", 500)), 0o644)
	_, err := Open(ctx, corrupt, Options{})
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), corrupt) {
		t.Errorf("corrupt file: %v", err)
	}

	newer := filepath.Join(dir, "newer.db")
	db, err := Open(ctx, newer, Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.sql.Exec("PRAGMA user_version = 99")
	db.Close()
	_, err = Open(ctx, newer, Options{})
	if !errors.Is(err, ErrNewerSchema) || !strings.Contains(err.Error(), "version 99") {
		t.Errorf("newer schema: %v", err)
	}

	foreign := filepath.Join(dir, "foreign.db")
	db, _ = Open(ctx, filepath.Join(dir, "tmp.db"), Options{})
	db.Close()
	// A valid SQLite file with someone else's tables.
	other, err := Open(ctx, foreign, Options{})
	if err != nil {
		t.Fatal(err)
	}
	other.sql.Exec("PRAGMA user_version = 0")
	other.sql.Exec("DROP TABLE projects")
	other.Close()
	if _, err := Open(ctx, foreign, Options{}); !errors.Is(err, ErrCorrupt) {
		t.Errorf("foreign database: %v", err)
	}
	if err := Remove(corrupt); err != nil {
		t.Fatal(err)
	}
	if db, err := Open(ctx, corrupt, Options{}); err != nil {
		t.Errorf("after Remove: %v", err)
	} else {
		db.Close()
	}
}

func TestLockedDatabase(t *testing.T) {
	_, path := openTemp(t)
	ctx := context.Background()
	holder, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	tx, err := holder.sql.BeginTx(ctx, nil) // immediate: takes the write lock
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec("INSERT INTO projects(root) VALUES ('/holder')"); err != nil {
		t.Fatal(err)
	}
	other, err := Open(ctx, path, Options{BusyTimeoutMS: 200})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	_, err = other.EnsureProject(ctx, "/proj")
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("want ErrLocked, got %v", err)
	}
}

func TestShortName(t *testing.T) {
	for in, want := range map[string]string{"Server.Serve": "Serve", "helper": "helper", "a.b.c": "c", "ns::f": "f", "x.": "x."} {
		if got := ShortName(in); got != want {
			t.Errorf("ShortName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestMigrateGraphIdempotent: the graph migration step runs again on a
// database that already has its columns (a version moved back, a
// concurrent opener) without failing, and the columns are there.
func TestMigrateGraphIdempotent(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "x.db")
	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.sql.Exec("PRAGMA user_version = 3"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatalf("re-running the graph migration: %v", err)
	}
	defer db.Close()
	var n int
	if err := db.sql.QueryRow("SELECT count(*) FROM pragma_table_info('relations') WHERE name IN ('resolution','detail','recv','derived')").Scan(&n); err != nil || n != 4 {
		t.Fatalf("relations columns: %d, %v", n, err)
	}
	if err := db.sql.QueryRow("SELECT count(*) FROM typefacts_files").Scan(&n); err != nil {
		t.Fatalf("typefacts: %v", err)
	}
}

// TestCacheKiB: the page cache per connection is the caller's, else the
// default.
func TestCacheKiB(t *testing.T) {
	for _, tc := range []struct{ opt, want int }{{0, DefaultCacheKiB}, {1234, 1234}} {
		path := filepath.Join(t.TempDir(), "index.db")
		db, err := Open(context.Background(), path, Options{CacheKiB: tc.opt})
		if err != nil {
			t.Fatal(err)
		}
		if got := count(t, db, "PRAGMA cache_size"); got != -tc.want {
			t.Errorf("CacheKiB %d: cache_size %d, want %d", tc.opt, got, -tc.want)
		}
		db.Close()
	}
}
