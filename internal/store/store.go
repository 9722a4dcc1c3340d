// Package store owns the SQLite database: schema, migrations, and every query
// that reads or writes files, chunks, vectors, full-text rows and relations.
//
// It must not parse code, walk directories, call embedders or decide ranking:
// it stores what the pipeline hands it and answers lookups through indexes.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// SchemaVersion is the version this build reads and writes.
const SchemaVersion = 4

// ErrNewerSchema is returned when the database was written by a newer codectx.
var ErrNewerSchema = errors.New("database schema is newer than this codectx")

// ErrCorrupt is returned when the file is not a usable codectx database.
var ErrCorrupt = errors.New("database is corrupt or not a codectx database")

// ErrLocked is returned when another writer holds the database past the busy timeout.
var ErrLocked = errors.New("database is locked by another codectx process")

// DB is an open codectx database.
type DB struct {
	sql      *sql.DB
	path     string
	readOnly bool
}

// DefaultPath is the database used when --db is not given:
// $CODECTX_HOME/index.db, with CODECTX_HOME defaulting to ~/.codectx.
func DefaultPath() (string, error) {
	home := os.Getenv("CODECTX_HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("locate home directory (set CODECTX_HOME): %w", err)
		}
		home = filepath.Join(h, ".codectx")
	}
	return filepath.Join(home, "index.db"), nil
}

// Options tune Open.
type Options struct {
	// BusyTimeoutMS is how long a writer waits for another one; default 10000.
	BusyTimeoutMS int
	// ReadOnly opens without creating or migrating (for readers).
	ReadOnly bool
}

// Open opens (creating when needed) the database at path and migrates it.
func Open(ctx context.Context, path string, opt Options) (*DB, error) {
	if opt.BusyTimeoutMS <= 0 {
		opt.BusyTimeoutMS = 10000
	}
	if !opt.ReadOnly {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, fmt.Errorf("create database directory: %w", err)
		}
	} else if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout("+strconv.Itoa(opt.BusyTimeoutMS)+")")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "cache_size(-32768)")
	q.Add("_pragma", "temp_store(MEMORY)")
	if !opt.ReadOnly {
		q.Add("_pragma", "journal_mode(WAL)")
	}
	q.Set("_txlock", "immediate")
	dsn := "file:" + path + "?" + q.Encode()
	sdb, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	db := &DB{sql: sdb, path: path, readOnly: opt.ReadOnly}
	if err := db.migrate(ctx); err != nil {
		sdb.Close()
		return nil, err
	}
	return db, nil
}

// Path is the database file.
func (db *DB) Path() string { return db.path }

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
	msg := err.Error()
	switch {
	case strings.Contains(msg, "SQLITE_BUSY") || strings.Contains(msg, "database is locked"):
		return fmt.Errorf("%s: %w (%s); wait for it to finish", op, ErrLocked, db.path)
	case strings.Contains(msg, "file is not a database") || strings.Contains(msg, "malformed") || strings.Contains(msg, "SQLITE_CORRUPT") || strings.Contains(msg, "SQLITE_NOTADB"):
		return fmt.Errorf("%s: %w: %s: run with --rebuild to start over", op, ErrCorrupt, db.path)
	}
	return fmt.Errorf("%s: %w", op, err)
}

var migrations = []string{
	// version 1
	`
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
`,
	// version 2: relevance feedback
	`
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
`,
	// version 3: the chunker version each file was parsed with, so a new
	// chunker re-parses files whose content did not change
	`
ALTER TABLE files ADD COLUMN parser TEXT NOT NULL DEFAULT '';
`,
	// version 4: resolution kind, receiver and derived flag on relations,
	// and the typefacts table: run by migrateGraph (graph.go), not as text
	"",
}

// migrationFuncs are the steps that are Go code rather than SQL text,
// keyed by the version they produce; each is idempotent.
var migrationFuncs = map[int]func(context.Context, *sql.Tx) error{
	4: migrateGraph,
}

func (db *DB) migrate(ctx context.Context) error {
	var v int
	if err := db.sql.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return db.classify("read schema version", err)
	}
	if v > SchemaVersion {
		return fmt.Errorf("%s: %w (version %d, this build knows %d): upgrade codectx or run with --rebuild", db.path, ErrNewerSchema, v, SchemaVersion)
	}
	if v == SchemaVersion {
		// A file that opened but lacks our tables is not ours.
		var n int
		if err := db.sql.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE name IN ('files','chunks','relations','chunks_fts','projects','vectors')").Scan(&n); err != nil {
			return db.classify("check schema", err)
		}
		if n != 6 {
			return fmt.Errorf("%s: %w: run with --rebuild to start over", db.path, ErrCorrupt)
		}
		return nil
	}
	if db.readOnly {
		return fmt.Errorf("%s: database is not initialised (schema %d, want %d): run `codectx index`", db.path, v, SchemaVersion)
	}
	if v == 0 {
		// A non-empty database without a version is someone else's file.
		var n int
		if err := db.sql.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master").Scan(&n); err != nil {
			return db.classify("check schema", err)
		}
		if n > 0 {
			return fmt.Errorf("%s: %w: run with --rebuild to start over", db.path, ErrCorrupt)
		}
	}
	for i := v; i < SchemaVersion; i++ {
		tx, err := db.sql.BeginTx(ctx, nil)
		if err != nil {
			return db.classify("migrate", err)
		}
		if _, err := tx.ExecContext(ctx, migrations[i]); err != nil {
			tx.Rollback()
			return db.classify(fmt.Sprintf("migrate to schema %d", i+1), err)
		}
		if f := migrationFuncs[i+1]; f != nil {
			if err := f(ctx, tx); err != nil {
				tx.Rollback()
				return db.classify(fmt.Sprintf("migrate to schema %d", i+1), err)
			}
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", i+1)); err != nil {
			tx.Rollback()
			return db.classify("migrate", err)
		}
		if err := tx.Commit(); err != nil {
			return db.classify("migrate", err)
		}
	}
	return nil
}

// Remove deletes a database file and its WAL side files (used by --rebuild
// when the file cannot be opened).
func Remove(path string) error {
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("remove %s: %w", p, err)
		}
	}
	return nil
}
