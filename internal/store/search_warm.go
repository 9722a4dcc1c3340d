package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Read queries for the warm search path: the keyword channel's per-term
// query without the per-column scores, and the full-text table's row count
// read from FTS5's own statistics instead of counting every chunk.

// FTSMatchWeighted is FTSMatch without the per-column scores: only
// Weighted is set (Name, Path and Body are 0). FTS5 evaluates one bm25()
// per matching row instead of four, for a caller that does not need to
// know in which column a term matched.
func (db *DB) FTSMatchWeighted(ctx context.Context, projectID int64, ids IDRange, match string, w FTSWeights, limit int) ([]FTSHit, error) {
	hits, _, err := db.FTSMatchWeightedCount(ctx, projectID, ids, match, w, limit)
	return hits, err
}

// FTSMatchWeightedCount is FTSMatchWeighted with the matched row count of
// FTSMatchCount (-1 when not known).
func (db *DB) FTSMatchWeightedCount(ctx context.Context, projectID int64, ids IDRange, match string, w FTSWeights, limit int) ([]FTSHit, int, error) {
	if db.pg {
		// The postings query computes the weighted score in one pass.
		hits, err := db.pgFTSMatch(ctx, projectID, ids, match, w, limit)
		for i := range hits {
			hits[i].Name, hits[i].Path, hits[i].Body = 0, 0, 0
		}
		return hits, -1, err
	}
	return db.ftsMatch(ctx, projectID, ids, match, w, limit, false)
}

// FTSRowCount is FTSRows read from the full-text index's statistics record
// (the N its BM25 uses, kept by FTS5 on every insert and delete): one
// primary-key read instead of a count over every chunk. An index whose
// record is missing or empty (nothing ever written) has 0 rows.
func (db *DB) FTSRowCount(ctx context.Context) (int, error) {
	if db.pg {
		return db.FTSRows(ctx) // one row per project in fts_stats
	}
	var block []byte
	err := db.sql.QueryRowContext(ctx, "SELECT block FROM chunks_fts_data WHERE id = 1").Scan(&block)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, db.classify("read full-text statistics", err)
	}
	if len(block) == 0 {
		return 0, nil // created, never written
	}
	n, ok := sqliteVarint(block)
	if !ok || n > 1<<40 {
		return 0, fmt.Errorf("read full-text statistics: malformed record of %d bytes", len(block))
	}
	return int(n), nil
}

// sqliteVarint decodes SQLite's variable-length integer (FTS5's record
// encoding): big-endian groups of 7 bits with the high bit set on every
// byte but the last, the ninth byte contributing all 8 bits.
func sqliteVarint(b []byte) (uint64, bool) {
	var v uint64
	for i := 0; i < 9; i++ {
		if i == len(b) {
			return 0, false
		}
		if i == 8 {
			return v<<8 | uint64(b[i]), true
		}
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i]&0x80 == 0 {
			return v, true
		}
	}
	return v, true
}
