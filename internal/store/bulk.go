package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
)

// This file holds the bulk-load paths of a first index: while a database
// holds no indexed file at all, the secondary indexes of the tables a run
// fills are dropped, the rows go in without index maintenance, and the
// indexes are built once at the end (a sort of each column, far cheaper
// than updating a B-tree per row). Queries stay correct without them, only
// slower, so a run killed in between leaves a usable database; the next
// writing run builds them again (EnsureIndexes).

// deferredIndexes are the secondary indexes a bulk load builds at its end:
// those whose keys arrive in random order (symbols, targets) or change
// during resolution (dst_chunk). Indexes on ids that only grow (file_id,
// src_chunk, project_id) cost little to maintain while appending and stay.
// TestDeferredIndexesMatchSchema checks they match the migrations.
var deferredIndexes = []struct{ name, def string }{
	{"chunks_project_symbol", "chunks(project_id, symbol)"},
	{"chunks_project_short", "chunks(project_id, short)"},
	{"relations_dst_kind", "relations(dst_chunk, kind, file_id, src_chunk)"},
	{"relations_open_target", "relations(project_id, target) WHERE coalesce(dst_chunk, 0) = 0"},
	{"relations_contains_target", "relations(project_id, target) WHERE kind = 'contains'"},
	{"relations_orphan", "relations(project_id, src_symbol) WHERE coalesce(src_chunk, 0) = 0"},
}

// BeginBulkLoad drops the deferred indexes of chunks and relations when the database holds no indexed file of any project, and
// reports whether it did; the caller ends the load with EnsureIndexes.
// When some project has files, nothing changes and it reports false. On
// PostgreSQL it does nothing (other projects' writers may be loading into
// the same tables at once; the server maintains its indexes as it goes).
func (db *DB) BeginBulkLoad(ctx context.Context) (bool, error) {
	if db.pg {
		return false, nil
	}
	bulk := false
	err := db.inTx(ctx, "begin bulk load", func(tx *sql.Tx) error {
		var one int
		err := tx.QueryRowContext(ctx, "SELECT 1 FROM files LIMIT 1").Scan(&one)
		if err == nil {
			return nil // not empty
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		for _, ix := range deferredIndexes {
			if _, err := tx.ExecContext(ctx, "DROP INDEX IF EXISTS "+ix.name); err != nil {
				return err
			}
		}
		// Full-text segments are not merged batch after batch (each
		// entry would be rewritten at every level) but once at the end.
		// Only crisis merges of 64 segments of a level run meanwhile:
		// FTS5 holds at most 2,000 segments in all and answers
		// SQLITE_FULL past that (a large tree flushes thousands of
		// times), and 63 per level stays far below for any tree while
		// rewriting an entry about once per 64× more flushes.
		for _, cmd := range []string{"'automerge', 0", "'crisismerge', 64"} {
			if _, err := tx.ExecContext(ctx, "INSERT INTO chunks_fts(chunks_fts, rank) VALUES ("+cmd+")"); err != nil {
				return err
			}
		}
		bulk = true
		return nil
	})
	return bulk, err
}

// EnsureIndexes ends a bulk load, or one that was killed: it builds every
// deferred index that is missing, merges the full-text segments into one
// and gives the full-text index its default merge settings back. It only
// reads when nothing is left to do. On PostgreSQL there is nothing to do.
func (db *DB) EnsureIndexes(ctx context.Context) error {
	if db.pg {
		return nil
	}
	var missing int
	var automerge sql.NullInt64
	err := db.sql.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name IN ("+placeholders(len(deferredIndexes))+")",
		deferredArgs()...).Scan(&missing)
	if err == nil {
		missing = len(deferredIndexes) - missing
		err = db.sql.QueryRowContext(ctx, "SELECT (SELECT v FROM chunks_fts_config WHERE k = 'automerge')").Scan(&automerge)
	}
	if err != nil {
		return db.classify("check indexes", err)
	}
	bulkFTS := automerge.Valid && automerge.Int64 == 0
	if missing == 0 && !bulkFTS {
		return nil
	}
	return db.inTxSpilling(ctx, "build indexes", func(tx *sql.Tx) error {
		for _, ix := range deferredIndexes {
			if _, err := tx.ExecContext(ctx, "CREATE INDEX IF NOT EXISTS "+ix.name+" ON "+ix.def); err != nil {
				return err
			}
		}
		if !bulkFTS {
			return nil
		}
		// SQLite's defaults (https://sqlite.org/fts5.html#the_automerge_configuration_option)
		for _, cmd := range []string{"'automerge', 4", "'crisismerge', 16"} {
			if _, err := tx.ExecContext(ctx, "INSERT INTO chunks_fts(chunks_fts, rank) VALUES ("+cmd+")"); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, "INSERT INTO chunks_fts(chunks_fts) VALUES ('optimize')")
		return err
	})
}

func deferredArgs() []any {
	out := make([]any, len(deferredIndexes))
	for i, ix := range deferredIndexes {
		out[i] = ix.name
	}
	return out
}

// HasVectors reports whether the vector cache holds any vector of model.
// A run that starts with none can tell cache hits from the vectors it wrote
// itself, without a lookup per chunk.
func (db *DB) HasVectors(ctx context.Context, model string) (bool, error) {
	var one int
	err := db.sql.QueryRowContext(ctx, "SELECT 1 FROM vectors WHERE model = ? LIMIT 1", model).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, db.classify("read vector cache", err)
	}
	return true, nil
}

// inTxSpilling is inTx on a connection whose temporary storage is a file
// for the transaction's length. CREATE INDEX sorts every key of its table,
// and with temporary storage in memory (every connection's default, see
// Open) SQLite's sorter never spills: the whole sort is held in the heap,
// tens of MB for the relations of a large tree at the end of a first
// index, when the process holds most. With a file the sorter keeps about
// one page cache's worth of keys in memory and merges sorted runs from a
// temporary file instead. The connection gets its setting back before it
// returns to the pool (a change of temp_store drops the connection's
// temporary tables: this connection has none in use, nothing is open on it).
func (db *DB) inTxSpilling(ctx context.Context, op string, fn func(*sql.Tx) error) error {
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return db.classify(op, err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA temp_store = FILE"); err != nil {
		return db.classify(op, err)
	}
	defer func() {
		if _, err := conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA temp_store = MEMORY"); err != nil {
			// Never hand the pool a connection that differs from the others.
			conn.Raw(func(any) error { return driver.ErrBadConn })
		}
	}()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return db.classify(op, err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return db.classify(op, err)
	}
	return db.classify(op, tx.Commit())
}
