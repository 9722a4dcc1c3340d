// Package store owns the database: schema, migrations, every query that
// reads or writes files, chunks, vectors, full-text rows and relations, and
// the per-project writer lock. Two backends share one implementation: an
// embedded SQLite file (the default) and a PostgreSQL server (a
// postgres:// DSN); where their SQL differs (full-text index, locking,
// migrations, side files) a method branches on the backend.
//
// It must not parse code, walk directories, call embedders or decide ranking:
// it stores what the pipeline hands it and answers lookups through indexes.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"codectx/internal/vecindex"
)

// SchemaVersion is the version this build reads and writes.
const SchemaVersion = 10

// ErrNewerSchema is returned when the database was written by a newer codectx.
var ErrNewerSchema = errors.New("database schema is newer than this codectx")

// ErrCorrupt is returned when the file is not a usable codectx database.
var ErrCorrupt = errors.New("database is corrupt or not a codectx database")

// ErrOldSchema is returned by a read-only open of a database that an older
// codectx wrote; a writer migrates it.
var ErrOldSchema = errors.New("database schema is older than this codectx")

// ErrLocked is returned when another writer holds the database past the busy timeout.
var ErrLocked = errors.New("database is locked by another codectx process")

// DB is an open codectx database.
type DB struct {
	sql      *sql.DB
	path     string // SQLite file, or PostgreSQL DSN
	display  string // path, with a DSN's password hidden
	readOnly bool
	// pg is set for the PostgreSQL backend.
	pg       bool
	pgSchema string // current_schema() of the PostgreSQL connections
	// docLens caches full-text row lengths for the direct token scorer
	// (fts5direct.go), keyed by the full-text table's state.
	docLens docLenCache
}

// DefaultPath is the database file inside a codectx home directory (the
// caller picks home: pkg/codectx's Config.Home, ~/.codectx by default).
func DefaultPath(home string) string { return filepath.Join(home, "index.db") }

// Options tune Open.
type Options struct {
	// BusyTimeoutMS is how long a writer waits for another one; default 10000.
	BusyTimeoutMS int
	// ReadOnly opens for reading only: nothing is created, migrated or
	// written (SQLite's mode=ro). A missing file is a *NoIndexError.
	ReadOnly bool
	// MustExist opens for writing but never creates the file or its
	// directory: a missing file is a *NoIndexError.
	MustExist bool
	// CacheKiB is SQLite's page cache per connection in KiB; 0 means
	// DefaultCacheKiB. A process that only indexes can take less (its
	// peak memory is reached while resolution reads and writes on two
	// connections); one that serves searches keeps more pages warm.
	CacheKiB int
}

// DefaultCacheKiB is the page cache per connection unless Options.CacheKiB
// says otherwise.
const DefaultCacheKiB = 32 << 10

// ErrNoIndex is matched (errors.Is) by a *NoIndexError.
var ErrNoIndex = errors.New("no index")

// NoIndexError is returned when a database that must exist does not.
type NoIndexError struct{ Path string }

func (e *NoIndexError) Error() string        { return "no index at " + e.Path }
func (e *NoIndexError) Is(target error) bool { return target == ErrNoIndex }

// ErrReadOnly is returned (wrapped with the path) when a write is asked of a
// database file or directory the process may not write.
var ErrReadOnly = errors.New("read-only")

// Open opens the database at path, creating it (and its directory) unless
// opt.ReadOnly or opt.MustExist, and migrates it unless opt.ReadOnly. A
// writable open of a file or directory this process cannot write fails
// with ErrReadOnly before anything is touched.
func Open(ctx context.Context, path string, opt Options) (*DB, error) {
	if opt.BusyTimeoutMS <= 0 {
		opt.BusyTimeoutMS = 10000
	}
	if IsPostgres(path) {
		return openPG(ctx, path, opt)
	}
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist) && (opt.ReadOnly || opt.MustExist):
		return nil, &NoIndexError{Path: path}
	case err == nil && st.IsDir():
		return nil, fmt.Errorf("open index %s: is a directory", path)
	case err == nil && st.Size() == 0 && opt.ReadOnly:
		return nil, &NoIndexError{Path: path}
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("open index %s: %w", path, err)
	}
	if !opt.ReadOnly {
		dir := filepath.Dir(path)
		if err != nil { // missing: create the directory
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return nil, fmt.Errorf("create index directory %s: %w", dir, readOnlyErr(err))
			}
		}
		if err := checkWritable(path, dir); err != nil {
			return nil, err
		}
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout("+strconv.Itoa(opt.BusyTimeoutMS)+")")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(NORMAL)")
	if opt.CacheKiB <= 0 {
		opt.CacheKiB = DefaultCacheKiB
	}
	q.Add("_pragma", "cache_size(-"+strconv.Itoa(opt.CacheKiB)+")")
	q.Add("_pragma", "temp_store(MEMORY)")
	if opt.ReadOnly {
		q.Set("mode", "ro")
		if immutable(path) {
			q.Set("immutable", "1")
		}
	} else {
		q.Add("_pragma", "journal_mode(WAL)")
		// Every write transaction takes the write lock when it begins, so
		// it never fails half-way upgrading a read snapshot.
		q.Set("_txlock", "immediate")
	}
	dsn := "file:" + uriPath(path) + "?" + q.Encode()
	sdb, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open index %s: %w", path, err)
	}
	db := &DB{sql: sdb, path: path, display: path, readOnly: opt.ReadOnly}
	// The first connections to a new file race to switch it to WAL, and
	// SQLite answers some of them SQLITE_BUSY at once, without its busy
	// handler: retry for as long as the busy timeout would have waited.
	deadline := time.Now().Add(time.Duration(opt.BusyTimeoutMS) * time.Millisecond)
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 200*time.Millisecond) {
		err = db.migrate(ctx)
		if err == nil {
			return db, nil
		}
		if !errors.Is(err, ErrLocked) || time.Now().Add(wait).After(deadline) {
			break
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			err = ctx.Err()
		}
		if ctx.Err() != nil {
			break
		}
	}
	sdb.Close()
	return nil, err
}

// uriPath escapes the characters that end or escape a path in an SQLite URI.
func uriPath(p string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(p)
}

// checkWritable fails with ErrReadOnly when the database file (if present)
// or its directory (which holds the -wal and -shm files) cannot be written.
func checkWritable(path, dir string) error {
	if f, err := os.OpenFile(path, os.O_RDWR, 0); err == nil {
		f.Close()
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("open index %s: %w", path, readOnlyErr(err))
	}
	if !dirWritable(dir) {
		return fmt.Errorf("open index %s: directory %s is %w", path, dir, ErrReadOnly)
	}
	return nil
}

// readOnlyErr maps permission and read-only file system errors to ErrReadOnly.
func readOnlyErr(err error) error {
	if errors.Is(err, os.ErrPermission) || isEROFS(err) {
		return fmt.Errorf("%w (%v)", ErrReadOnly, err)
	}
	return err
}

// immutable reports whether a read-only open must treat the file as
// immutable: a WAL database whose directory cannot be written and that has
// no -shm file cannot be opened otherwise, and since nobody can create
// the -wal file there, nobody can be changing the database either.
func immutable(path string) bool {
	if dirWritable(filepath.Dir(path)) {
		return false
	}
	for _, side := range []string{"-shm", "-wal"} {
		if st, err := os.Stat(path + side); err == nil && st.Size() > 0 {
			return false
		}
	}
	return true
}

// Path is the database file (or PostgreSQL DSN) as given to Open.
func (db *DB) Path() string { return db.path }

// ReadOnly reports whether the database was opened read-only (then
// WriteSideFile writes nothing).
func (db *DB) ReadOnly() bool { return db.readOnly }

// Display names the database for people: the file, or the DSN without
// its password.
func (db *DB) Display() string { return db.display }

// Postgres reports whether the database is a PostgreSQL server.
func (db *DB) Postgres() bool { return db.pg }

// Close closes the database.
func (db *DB) Close() error { return db.sql.Close() }

// SQL exposes the handle for packages in this module that need ad-hoc reads
// (tests, eval). Writers go through the typed methods.
func (db *DB) SQL() *sql.DB { return db.sql }

// classify turns driver errors into the package's sentinel errors.
func (db *DB) classify(op string, err error) error {
	if err == nil {
		return nil
	}
	if db.pg {
		return db.classifyPG(op, err)
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "SQLITE_READONLY") || strings.Contains(msg, "readonly database") || strings.Contains(msg, "read-only"):
		return fmt.Errorf("%s: %s is %w", op, db.path, ErrReadOnly)
	case strings.Contains(msg, "SQLITE_BUSY") || strings.Contains(msg, "database is locked"):
		return fmt.Errorf("%s: %w (%s); wait for it to finish", op, ErrLocked, db.path)
	case strings.Contains(msg, "file is not a database") || strings.Contains(msg, "malformed") || strings.Contains(msg, "SQLITE_CORRUPT") || strings.Contains(msg, "SQLITE_NOTADB"):
		return fmt.Errorf("%s: %w: %s", op, ErrCorrupt, db.path)
	}
	return fmt.Errorf("%s: %w", op, err)
}

// migration is one schema step. Step i (0-based) takes the schema from
// version i to i+1. Every step must be idempotent (CREATE … IF NOT EXISTS,
// addColumn), because a database left half-way by an older build may already
// hold part of it. To change the schema, append a step and bump SchemaVersion.
type migration struct {
	name  string
	apply func(ctx context.Context, tx *sql.Tx) error
}

var migrations = []migration{
	{"tables", execSQL(`
CREATE TABLE IF NOT EXISTS projects (
	id          INTEGER PRIMARY KEY,
	root        TEXT NOT NULL UNIQUE,
	model       TEXT NOT NULL DEFAULT '',
	indexed_at  INTEGER NOT NULL DEFAULT 0,
	dirty       INTEGER NOT NULL DEFAULT 0,
	generation  INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS files (
	id          INTEGER PRIMARY KEY,
	project_id  INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
	path        TEXT NOT NULL,
	lang        TEXT NOT NULL,
	size        INTEGER NOT NULL,
	mtime       INTEGER NOT NULL,
	sha256      TEXT NOT NULL,
	model       TEXT NOT NULL,
	fallback    INTEGER NOT NULL DEFAULT 0,
	indexed_at  INTEGER NOT NULL,
	UNIQUE(project_id, path)
);
CREATE TABLE IF NOT EXISTS chunks (
	id          INTEGER PRIMARY KEY,
	project_id  INTEGER NOT NULL,
	file_id     INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
	path        TEXT NOT NULL,
	lang        TEXT NOT NULL,
	kind        TEXT NOT NULL,
	name        TEXT NOT NULL,
	symbol      TEXT NOT NULL,
	short       TEXT NOT NULL,
	start_line  INTEGER NOT NULL,
	end_line    INTEGER NOT NULL,
	container   TEXT NOT NULL,
	extends     TEXT NOT NULL,
	implements  TEXT NOT NULL,
	decorators  TEXT NOT NULL,
	content     TEXT NOT NULL,
	model       TEXT NOT NULL,
	text_hash   BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS chunks_file ON chunks(file_id);
CREATE INDEX IF NOT EXISTS chunks_project_symbol ON chunks(project_id, symbol);
CREATE INDEX IF NOT EXISTS chunks_project_short ON chunks(project_id, short);
CREATE TABLE IF NOT EXISTS vectors (
	model       TEXT NOT NULL,
	text_hash   BLOB NOT NULL,
	vec         BLOB NOT NULL,
	PRIMARY KEY(model, text_hash)
) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(
	name, path, body,
	content='', contentless_delete=1,
	tokenize='unicode61 remove_diacritics 0'
);
CREATE TABLE IF NOT EXISTS relations (
	id          INTEGER PRIMARY KEY,
	project_id  INTEGER NOT NULL,
	file_id     INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
	kind        TEXT NOT NULL,
	src_chunk   INTEGER,
	src_symbol  TEXT NOT NULL,
	target      TEXT NOT NULL,
	qualifier   TEXT NOT NULL,
	line        INTEGER NOT NULL,
	dst_chunk   INTEGER
);
CREATE INDEX IF NOT EXISTS relations_file ON relations(file_id);
CREATE INDEX IF NOT EXISTS relations_src ON relations(src_chunk);
CREATE INDEX IF NOT EXISTS relations_dst ON relations(dst_chunk);
CREATE INDEX IF NOT EXISTS relations_target ON relations(project_id, target);
CREATE INDEX IF NOT EXISTS relations_src_symbol ON relations(project_id, src_symbol);
`)},
	{"relevance feedback", execSQL(`
CREATE TABLE IF NOT EXISTS feedback (
	id          INTEGER PRIMARY KEY,
	project_id  INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
	query       TEXT NOT NULL,
	query_key   TEXT NOT NULL,
	path        TEXT NOT NULL,
	symbol      TEXT NOT NULL,
	vote        INTEGER NOT NULL,
	created_at  INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS feedback_key ON feedback(project_id, query_key);
`)},
	// The chunker version each file was parsed with, so a new chunker
	// re-parses files whose content did not change.
	{"files.parser", addColumn("files", "parser", "TEXT NOT NULL DEFAULT ''")},
	// The vector dimension of each embedding model, recorded with its first
	// vectors; vectors of another size are refused. An existing cache
	// records the size most of its vectors have.
	{"embedding_models", execSQL(`
CREATE TABLE IF NOT EXISTS embedding_models (
	model       TEXT PRIMARY KEY,
	dims        INTEGER NOT NULL
) WITHOUT ROWID;
INSERT OR IGNORE INTO embedding_models(model, dims)
	SELECT model, n / 4 FROM (
		SELECT model, length(vec) AS n, count(*) AS c FROM vectors
		WHERE length(vec) > 0 AND length(vec) % 4 = 0 GROUP BY model, n)
	GROUP BY model HAVING c = max(c);
`)},
	// Resolution kind, receiver and derived flag on relations, and the
	// typefacts table (graph.go).
	{"graph resolution", migrateGraph},
	// Vectors move to a rowid table (vectorsRowid).
	{"vectors rowid table", migrateVectorsRowid},
	// The index on a relation's target chunk also holds its kind, file and
	// source chunk: counting a hub's callers per file (CallersByPath, on
	// every context answer) reads the index alone instead of one table row
	// per call.
	{"callers index", execSQL(`
DROP INDEX IF EXISTS relations_dst;
CREATE INDEX IF NOT EXISTS relations_dst_kind ON relations(dst_chunk, kind, file_id, src_chunk);
`)},
	// A written file's relations wait here, one record per file, until
	// resolution inserts them with their targets (pending.go).
	{"pending relations", execSQL(`
CREATE TABLE IF NOT EXISTS relations_pending (
	file_id     INTEGER PRIMARY KEY REFERENCES files(id) ON DELETE CASCADE,
	project_id  INTEGER NOT NULL,
	data        BLOB NOT NULL
);
`)},
	// A file's type facts are one record (facts.go), read whole by
	// resolution, instead of a row per fact. The facts of the old rows
	// are not converted: every file is parsed again by the next run
	// (its parser version no longer matches), which writes them anew.
	{"type fact records", execSQL(`
CREATE TABLE IF NOT EXISTS typefacts_files (
	file_id     INTEGER PRIMARY KEY REFERENCES files(id) ON DELETE CASCADE,
	project_id  INTEGER NOT NULL,
	data        BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS typefacts_files_project ON typefacts_files(project_id);
DROP TABLE IF EXISTS typefacts;
UPDATE files SET parser = '';
`)},
	// Lookups by a relation's target name or source symbol only ever ask
	// for the few rows without a target chunk, without a source chunk, or
	// of kind contains: partial indexes hold those rows alone (a tenth of
	// the relations), instead of two indexes over all of them.
	{"partial relation indexes", execSQL(relationIndexesSQL)},
}

// relationIndexesSQL replaces the full indexes of relations by target and
// by source symbol with the partial ones their queries use (both stores).
const relationIndexesSQL = `
DROP INDEX IF EXISTS relations_target;
DROP INDEX IF EXISTS relations_src_symbol;
CREATE INDEX IF NOT EXISTS relations_open_target ON relations(project_id, target) WHERE coalesce(dst_chunk, 0) = 0;
CREATE INDEX IF NOT EXISTS relations_contains_target ON relations(project_id, target) WHERE kind = 'contains';
CREATE INDEX IF NOT EXISTS relations_orphan ON relations(project_id, src_symbol) WHERE coalesce(src_chunk, 0) = 0;
`

// migrateVectorsRowid moves the vectors cache out of its WITHOUT ROWID
// table. Such a table keeps a row on its B-tree page only up to about a
// quarter of the page (1,002 bytes of a 4 KiB page); every vector (2 KiB
// for 512 float32 dimensions) spilled into an overflow page of its own,
// about 4.5 KiB on disk per vector, two fifths of a $GOROOT/src database.
// The rows move to a rowid table, whose leaf pages hold rows of up to
// about 4 KiB, re-encoded as half floats (vecindex.EncodeVector: three to a
// page), so the file does not grow while the old table's pages go to the
// free list; the (model, text_hash) key becomes a unique index. Idempotent:
// a vectors table that already has rowids is left as it is.
func migrateVectorsRowid(ctx context.Context, tx *sql.Tx) error {
	var def string
	if err := tx.QueryRowContext(ctx, "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'vectors'").Scan(&def); err != nil {
		return err
	}
	if !strings.Contains(strings.ToUpper(def), "WITHOUT ROWID") {
		_, err := tx.ExecContext(ctx, vectorsKeySQL)
		return err
	}
	if _, err := tx.ExecContext(ctx, `
DROP TABLE IF EXISTS vectors_rowid;
CREATE TABLE vectors_rowid (
	id          INTEGER PRIMARY KEY,
	model       TEXT NOT NULL,
	text_hash   BLOB NOT NULL,
	vec         BLOB NOT NULL
);`); err != nil {
		return err
	}
	ins, err := tx.PrepareContext(ctx, "INSERT INTO vectors_rowid(model, text_hash, vec) VALUES (?, ?, ?)")
	if err != nil {
		return err
	}
	defer ins.Close()
	type row struct {
		model      string
		hash, blob []byte
	}
	// Pages of rows in key order (the read finishes before the page is
	// written back), each vector re-encoded; a malformed BLOB is copied as
	// it is (searches skip it, the next index run replaces it).
	const pageSize = 4096
	var last *row
	for {
		q, args := "SELECT model, text_hash, vec FROM vectors ORDER BY model, text_hash LIMIT ?", []any{pageSize}
		if last != nil {
			q = "SELECT model, text_hash, vec FROM vectors WHERE (model, text_hash) > (?, ?) ORDER BY model, text_hash LIMIT ?"
			args = []any{last.model, last.hash, pageSize}
		}
		rows, err := tx.QueryContext(ctx, q, args...)
		if err != nil {
			return err
		}
		var page []row
		for rows.Next() {
			var r row
			if err := rows.Scan(&r.model, &r.hash, &r.blob); err != nil {
				rows.Close()
				return err
			}
			page = append(page, r)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if len(page) == 0 {
			break
		}
		for _, r := range page {
			blob := r.blob
			if v := vecindex.DecodeVector(blob); v != nil {
				blob = vecindex.EncodeVector(v)
			}
			if _, err := ins.ExecContext(ctx, r.model, r.hash, blob); err != nil {
				return err
			}
		}
		last = &page[len(page)-1]
	}
	_, err = tx.ExecContext(ctx, `
DROP TABLE vectors;
ALTER TABLE vectors_rowid RENAME TO vectors;
`+vectorsKeySQL)
	return err
}

// vectorsKeySQL creates the key of the vectors cache: one vector per model
// and text hash (writeVectors upserts on it).
const vectorsKeySQL = "CREATE UNIQUE INDEX IF NOT EXISTS vectors_key ON vectors(model, text_hash);"

// execSQL is a step made of statements that are idempotent by themselves.
func execSQL(stmts string) func(context.Context, *sql.Tx) error {
	return func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, stmts)
		return err
	}
}

// addColumn is a step that adds a column unless the table already has it.
func addColumn(table, column, decl string) func(context.Context, *sql.Tx) error {
	return func(ctx context.Context, tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM pragma_table_info(?) WHERE name = ?", table, column).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return nil
		}
		_, err := tx.ExecContext(ctx, "ALTER TABLE "+table+" ADD COLUMN "+column+" "+decl)
		return err
	}
}

// ourTables are the tables every codectx database has since version 1.
const ourTables = "'files','chunks','relations','chunks_fts','projects','vectors'"

// migrate brings the schema to SchemaVersion. The version is read without
// a transaction first (the common case: nothing to do); otherwise every
// pending step runs in one IMMEDIATE transaction that re-reads the version
// after taking the write lock, so concurrent openers of a new or old file
// queue on SQLite's lock, the first one migrates, and the others find the
// new version and change nothing. The version only ever moves up.
func (db *DB) migrate(ctx context.Context) error {
	var v int
	if err := db.sql.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return db.classify("read schema version", err)
	}
	if v > SchemaVersion {
		return db.newerSchema(v)
	}
	if v == SchemaVersion {
		return db.checkTables(ctx)
	}
	if db.readOnly && v == 0 {
		return &NoIndexError{Path: db.path}
	}
	if db.readOnly {
		return fmt.Errorf("%s: database schema %d is older than %d and the database is opened read-only: %w", db.path, v, SchemaVersion, ErrOldSchema)
	}
	tx, err := db.beginMigration(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return db.classify("read schema version", err)
	}
	switch {
	case v > SchemaVersion:
		return db.newerSchema(v)
	case v == SchemaVersion:
		// Another process migrated while this one waited for the lock.
		if err := tx.Commit(); err != nil {
			return db.classify("migrate", err)
		}
		return db.checkTables(ctx)
	case v == 0:
		// A non-empty database without a version is someone else's file
		// (our first step and its version commit together).
		var n int
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master").Scan(&n); err != nil {
			return db.classify("check schema", err)
		}
		if n > 0 {
			return fmt.Errorf("%s: %w", db.path, ErrCorrupt)
		}
	}
	for i := v; i < SchemaVersion; i++ {
		if err := migrations[i].apply(ctx, tx); err != nil {
			return db.classify(fmt.Sprintf("migrate to schema %d (%s)", i+1, migrations[i].name), err)
		}
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion)); err != nil {
		return db.classify("migrate: set schema version", err)
	}
	if err := tx.Commit(); err != nil {
		return db.classify("migrate", err)
	}
	return nil
}

// migrationWait bounds how long an opener waits for another process's
// migration (an upgrade copies tables: ~13 s for a 2 GB database) before it
// reports the database as locked; the busy timeout alone is 10 s.
var migrationWait = 10 * time.Minute

// migrationWaiting, when set (tests), is called once when an opener starts
// waiting for another process's write lock to migrate.
var migrationWaiting func()

// beginMigration takes the write lock for a migration (BEGIN IMMEDIATE,
// _txlock). While another process holds it — most likely migrating the same
// file — it keeps waiting, up to migrationWait or until ctx ends, instead of
// failing after one busy timeout.
func (db *DB) beginMigration(ctx context.Context) (*sql.Tx, error) {
	deadline := time.Now().Add(migrationWait)
	for waited := false; ; waited = true {
		tx, err := db.sql.BeginTx(ctx, nil)
		if err == nil {
			return tx, nil
		}
		err = db.classify("migrate: take the write lock", err)
		if !errors.Is(err, ErrLocked) || ctx.Err() != nil || time.Now().After(deadline) {
			return nil, err
		}
		if !waited {
			slog.Info("waiting for another process to finish with the database before upgrading its schema", "db", db.path)
			if migrationWaiting != nil {
				migrationWaiting()
			}
		}
	}
}

// checkTables rejects a file that carries our version but lacks our tables.
func (db *DB) checkTables(ctx context.Context) error {
	var n int
	if err := db.sql.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE name IN ("+ourTables+")").Scan(&n); err != nil {
		return db.classify("check schema", err)
	}
	if n != 6 {
		return fmt.Errorf("%s: %w", db.path, ErrCorrupt)
	}
	return nil
}

func (db *DB) newerSchema(v int) error {
	return fmt.Errorf("%s: %w (version %d, this build knows %d)", db.path, ErrNewerSchema, v, SchemaVersion)
}

// Remove deletes a database file, its WAL side files and its vector files (used by --rebuild
// when the file cannot be opened).
func Remove(path string) error {
	if IsPostgres(path) {
		return fmt.Errorf("remove %s: a PostgreSQL database is not removed by codectx; drop its tables or use another database", redactDSN(path))
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("remove %s: %w", p, err)
		}
	}
	// The quantised vector side files (vecfile.go) are derived data.
	if err := os.RemoveAll(path + ".vectors"); err != nil {
		return fmt.Errorf("remove %s.vectors: %w", path, err)
	}
	return nil
}
