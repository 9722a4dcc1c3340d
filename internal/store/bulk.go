package store

import (
	"context"
	"database/sql"
	"errors"
)

// This file holds the bulk-load paths of a first index: while a database
// holds no indexed file at all, the secondary indexes of the tables a run
// fills are dropped, the rows go in without index maintenance, and the
// indexes are built once at the end (a sort of each column, far cheaper
// than updating a B-tree per row). Queries stay correct without them, only
// slower, so a run killed in between leaves a usable database; the next
// writing run builds them again (EnsureIndexes).

// deferredIndexes are the secondary indexes a bulk load builds at its end,
// as the migrations define them (TestDeferredIndexesMatchSchema checks the
// two agree).
var deferredIndexes = []struct{ name, def string }{
	{"chunks_file", "chunks(file_id)"},
	{"chunks_project_symbol", "chunks(project_id, symbol)"},
	{"chunks_project_short", "chunks(project_id, short)"},
	{"relations_file", "relations(file_id)"},
	{"relations_src", "relations(src_chunk)"},
	{"relations_dst", "relations(dst_chunk)"},
	{"relations_target", "relations(project_id, target)"},
	{"relations_src_symbol", "relations(project_id, src_symbol)"},
	{"typefacts_file", "typefacts(file_id)"},
	{"typefacts_project", "typefacts(project_id)"},
}

// BeginBulkLoad drops the secondary indexes of chunks, relations and type
// facts when the database holds no indexed file of any project, and
// reports whether it did; the caller ends the load with EnsureIndexes.
// When some project has files, nothing changes and it reports false.
func (db *DB) BeginBulkLoad(ctx context.Context) (bool, error) {
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
		bulk = true
		return nil
	})
	return bulk, err
}

// EnsureIndexes builds every deferred secondary index that is missing (after
// a bulk load, or a bulk load that was killed); a no-op when all exist.
func (db *DB) EnsureIndexes(ctx context.Context) error {
	return db.inTx(ctx, "build indexes", func(tx *sql.Tx) error {
		for _, ix := range deferredIndexes {
			if _, err := tx.ExecContext(ctx, "CREATE INDEX IF NOT EXISTS "+ix.name+" ON "+ix.def); err != nil {
				return err
			}
		}
		return nil
	})
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
