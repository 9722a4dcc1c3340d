package store

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"codectx/internal/vecindex"
)

func TestMigrationListMatchesVersion(t *testing.T) {
	if len(migrations) != SchemaVersion {
		t.Fatalf("%d migration steps, SchemaVersion %d", len(migrations), SchemaVersion)
	}
}

// TestMigrationsIdempotent applies every step twice: a database left half-way
// by an older build, or a step replayed, must not fail.
func TestMigrationsIdempotent(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	for i, m := range migrations {
		if err := m.apply(ctx, tx); err != nil {
			t.Fatalf("step %d (%s) replayed: %v", i+1, m.name, err)
		}
	}
}

// TestOpenRepairsVersionBehindSchema is the state concurrent first opens left
// before migrations were serialised: the files.parser column exists but
// user_version says 2. Opening must finish the migration, not fail.
func TestOpenRepairsVersionBehindSchema(t *testing.T) {
	db, path := openTemp(t)
	if _, err := db.sql.Exec("PRAGMA user_version = 2"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db2, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer db2.Close()
	if v := count(t, db2, "PRAGMA user_version"); v != SchemaVersion {
		t.Fatalf("user_version %d, want %d", v, SchemaVersion)
	}
}

// TestOpenNeverMovesVersionDown: a database from a newer build is refused
// and left at its version.
func TestOpenNeverMovesVersionDown(t *testing.T) {
	db, path := openTemp(t)
	db.sql.Exec(fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion+1))
	db.Close()
	if _, err := Open(context.Background(), path, Options{}); err == nil {
		t.Fatal("opened a newer schema")
	}
	db2, err := Open(context.Background(), path, Options{ReadOnly: true})
	if err == nil {
		db2.Close()
		t.Fatal("read-only open accepted a newer schema")
	}
	raw, _ := openRaw(path)
	defer raw.Close()
	var v int
	raw.QueryRow("PRAGMA user_version").Scan(&v)
	if v != SchemaVersion+1 {
		t.Fatalf("user_version moved to %d", v)
	}
}

// useFresh opens path, records a project and reads it back: what every
// command does first.
func useFresh(path, root string) error {
	ctx := context.Background()
	db, err := Open(ctx, path, Options{})
	if err != nil {
		return err
	}
	defer db.Close()
	p, err := db.EnsureProject(ctx, root)
	if err != nil {
		return err
	}
	if _, err := db.WriteBatch(ctx, p.ID, "m", Batch{Files: []FileRecord{record("a.go", "A1", "A2")}}); err != nil {
		return err
	}
	_, err = db.Fingerprints(ctx, p.ID)
	return err
}

// checkAfter opens the database as a later command would and queries it.
func checkAfter(path string, projects int) error {
	db, err := Open(context.Background(), path, Options{})
	if err != nil {
		return fmt.Errorf("open afterwards: %w", err)
	}
	defer db.Close()
	var v, n int
	if err := db.sql.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	if v != SchemaVersion {
		return fmt.Errorf("user_version %d, want %d", v, SchemaVersion)
	}
	if err := db.sql.QueryRow("SELECT count(*) FROM projects").Scan(&n); err != nil {
		return err
	}
	if n != projects {
		return fmt.Errorf("%d projects, want %d", n, projects)
	}
	return nil
}

// TestConcurrentFirstOpensGoroutines: N handles opened at once (each with
// its own connections) on a fresh file, on a file of an older schema, and on
// one left with its version behind its columns all succeed and leave a
// usable database at the current schema.
func TestConcurrentFirstOpensGoroutines(t *testing.T) {
	const n = 8
	cases := map[string]func(t *testing.T, path string){
		"fresh": func(*testing.T, string) {},
		"schema 3": func(t *testing.T, path string) {
			db, err := Open(context.Background(), path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			db.sql.Exec("DROP TABLE embedding_models")
			db.sql.Exec("PRAGMA user_version = 3")
			db.Close()
		},
		"version behind columns": func(t *testing.T, path string) {
			db, err := Open(context.Background(), path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			db.sql.Exec("PRAGMA user_version = 2")
			db.Close()
		},
	}
	for name, prepare := range cases {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "index.db")
			prepare(t, path)
			start := make(chan struct{})
			errs := make(chan error, n)
			var wg sync.WaitGroup
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					errs <- useFresh(path, fmt.Sprintf("/proj%d", i))
				}()
			}
			close(start)
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Error(err)
				}
			}
			if err := checkAfter(path, n); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestConcurrentFirstOpensProcesses starts N processes that open one fresh
// database at the same moment (they wait on stdin, then all go), then opens
// and queries it. CODECTX_OPEN_ROUNDS=100 runs 100 rounds and reports how
// many survived.
func TestConcurrentFirstOpensProcesses(t *testing.T) {
	if os.Getenv("CODECTX_OPEN_CHILD") != "" {
		t.Skip("child mode")
	}
	rounds := 3
	if v, err := strconv.Atoi(os.Getenv("CODECTX_OPEN_ROUNDS")); err == nil && v > 0 {
		rounds = v
	}
	const n = 4
	survived := 0
	for r := range rounds {
		if err := openRound(t, n); err != nil {
			t.Errorf("round %d: %v", r+1, err)
			continue
		}
		survived++
	}
	t.Logf("rounds of %d concurrent first opens survived: %d of %d", n, survived, rounds)
}

func openRound(t *testing.T, n int) error {
	path := filepath.Join(t.TempDir(), "index.db")
	var cmds []*exec.Cmd
	var gos []*os.File
	var outs []*bufio.Reader
	for i := range n {
		cmd := exec.Command(os.Args[0], "-test.run=^TestConcurrentOpenChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), "CODECTX_OPEN_CHILD="+path, "CODECTX_OPEN_ROOT="+fmt.Sprintf("/proj%d", i))
		goR, goW, err := os.Pipe()
		if err != nil {
			return err
		}
		cmd.Stdin = goR
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			return err
		}
		cmd.Stderr = cmd.Stdout
		if err := cmd.Start(); err != nil {
			return err
		}
		goR.Close()
		cmds, gos, outs = append(cmds, cmd), append(gos, goW), append(outs, bufio.NewReader(stdout))
	}
	// Every child says "ready" once started; then all are released at once.
	for i, o := range outs {
		line, err := o.ReadString('\n')
		if err != nil || line != "ready\n" {
			return fmt.Errorf("child %d did not get ready: %q %v", i, line, err)
		}
	}
	for _, g := range gos {
		g.Close()
	}
	var failed []string
	for i, cmd := range cmds {
		rest, _ := readAll(outs[i])
		if err := cmd.Wait(); err != nil {
			failed = append(failed, fmt.Sprintf("child %d: %v: %s", i, err, rest))
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d children failed: %v", len(failed), n, failed)
	}
	return checkAfter(path, n)
}

func readAll(r *bufio.Reader) (string, error) {
	var s []byte
	for {
		b, err := r.ReadByte()
		if err != nil {
			return string(s), err
		}
		s = append(s, b)
	}
}

// TestConcurrentOpenChild is the child side of TestConcurrentFirstOpensProcesses.
func TestConcurrentOpenChild(t *testing.T) {
	path := os.Getenv("CODECTX_OPEN_CHILD")
	if path == "" {
		t.Skip("only runs as a child of TestConcurrentFirstOpensProcesses")
	}
	fmt.Println("ready")
	var b [1]byte
	os.Stdin.Read(b[:]) // the parent closes stdin to release every child at once
	if err := useFresh(path, os.Getenv("CODECTX_OPEN_ROOT")); err != nil {
		fmt.Println("child error:", err)
		os.Exit(1)
	}
}

// openRaw opens the file with the driver alone (no migration).
func openRaw(path string) (*sql.DB, error) { return sql.Open("sqlite", path) }

// TestMigrationRecordsModelDims: a cache written before dimensions were
// recorded gets, per model, the size most of its vectors have — a few
// poisoned vectors do not decide it.
func TestMigrationRecordsModelDims(t *testing.T) {
	db, path := openTemp(t)
	for i := range 5 {
		db.sql.Exec("INSERT INTO vectors(model, text_hash, vec) VALUES ('m', ?, ?)", []byte{byte(i)}, make([]byte, 32))
	}
	db.sql.Exec("INSERT INTO vectors(model, text_hash, vec) VALUES ('m', x'ff', ?)", make([]byte, 16))
	db.sql.Exec("DROP TABLE embedding_models")
	db.sql.Exec("PRAGMA user_version = 3")
	db.Close()
	db2, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	if d, err := db2.ModelDims(context.Background(), "m"); err != nil || d != 8 {
		t.Fatalf("recorded dims %d (%v), want 8", d, err)
	}
}

// TestMigrateVectorsToRowidTable opens a schema-5 database whose vectors
// sit in the old WITHOUT ROWID table (each 2 KiB vector on an overflow page
// of its own): the migration keeps every vector (as half floats, more than
// one page of the copy's reads), moves them to leaf pages and keeps one
// vector per model and text hash.
func TestMigrateVectorsToRowidTable(t *testing.T) {
	db, path := openTemp(t)
	const n = 4096 + 64
	old := []string{
		"DROP TABLE vectors",
		"DROP INDEX IF EXISTS vectors_key",
		`CREATE TABLE vectors (model TEXT NOT NULL, text_hash BLOB NOT NULL, vec BLOB NOT NULL, PRIMARY KEY(model, text_hash)) WITHOUT ROWID`,
		"PRAGMA user_version = 5",
	}
	for _, q := range old {
		if _, err := db.sql.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for i := range n {
		vec := make([]byte, 2048) // 512 float32s, the old encoding
		binary.LittleEndian.PutUint32(vec, math.Float32bits(float32(i)+0.5))
		if _, err := db.sql.Exec("INSERT INTO vectors(model, text_hash, vec) VALUES ('m', ?, ?)", []byte{byte(i >> 8), byte(i), 1}, vec); err != nil {
			t.Fatal(err)
		}
	}
	overflow := "SELECT count(*) FROM dbstat WHERE name = 'vectors' AND pagetype = 'overflow'"
	if c := count(t, db, overflow); c < n {
		t.Fatalf("old layout: %d overflow pages for %d vectors, want one each", c, n)
	}
	db.Close()

	db2, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer db2.Close()
	if v := count(t, db2, "PRAGMA user_version"); v != SchemaVersion {
		t.Fatalf("user_version %d, want %d", v, SchemaVersion)
	}
	half, _ := vecindex.EncodedLengths(512)
	if c := count(t, db2, "SELECT count(*) FROM vectors WHERE model = 'm' AND length(vec) = ?", half); c != n {
		t.Fatalf("%d half-float vectors after the migration, want %d", c, n)
	}
	var blob []byte
	if err := db2.sql.QueryRow("SELECT vec FROM vectors WHERE text_hash = ?", []byte{0, 7, 1}).Scan(&blob); err != nil {
		t.Fatal(err)
	}
	if v := vecindex.DecodeVector(blob); len(v) != 512 || v[0] != 7.5 || v[1] != 0 {
		t.Fatalf("vector 7 not kept: %d dimensions, %v", len(v), v[:min(2, len(v))])
	}
	if c := count(t, db2, overflow); c != 0 {
		t.Fatalf("%d overflow pages after the migration, want 0", c)
	}
	if c := count(t, db2, "SELECT count(*) FROM sqlite_master WHERE name = 'vectors' AND sql LIKE '%WITHOUT ROWID%'"); c != 0 {
		t.Fatal("vectors is still a WITHOUT ROWID table")
	}
	if _, err := db2.sql.Exec("INSERT INTO vectors(model, text_hash, vec) VALUES ('m', ?, x'00')", []byte{0, 7, 1}); err == nil {
		t.Fatal("a second vector for the same model and text hash was accepted: the key is gone")
	}
}

// TestOpenWaitsForAnotherMigration: while another connection holds the
// write lock of a database whose schema is behind (another process
// upgrading it), an opener with a short busy timeout waits for it instead
// of failing as locked, then finds the schema current.
func TestOpenWaitsForAnotherMigration(t *testing.T) {
	db, path := openTemp(t)
	if _, err := db.sql.Exec("PRAGMA user_version = 5"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	holder, err := sql.Open("sqlite", "file:"+path+"?_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	tx, err := holder.Begin() // the write lock, as a migrating process holds it
	if err != nil {
		t.Fatal(err)
	}
	waiting := make(chan struct{})
	migrationWaiting = func() { close(waiting) }
	defer func() { migrationWaiting = nil }()
	opened := make(chan error, 1)
	go func() {
		db2, err := Open(context.Background(), path, Options{BusyTimeoutMS: 20})
		if err == nil {
			defer db2.Close()
			var v int
			if err = db2.sql.QueryRow("PRAGMA user_version").Scan(&v); err == nil && v != SchemaVersion {
				err = fmt.Errorf("user_version %d, want %d", v, SchemaVersion)
			}
		}
		opened <- err
	}()
	select {
	case <-waiting:
	case err := <-opened:
		t.Fatalf("the opener did not wait for the lock: %v", err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := <-opened; err != nil {
		t.Fatalf("open after the other migration: %v", err)
	}
}
