package store

import (
	"context"
	"fmt"
)

// This file holds the read queries that hybrid search needs: per-project
// chunk metadata and vectors (loaded once per generation by the caller),
// full-text matches with per-column BM25, chunk contents for snippets and
// call edges between candidate chunks. Ranking itself lives in
// internal/search.

// ChunkMeta is the part of a chunk that ranking needs (no content).
type ChunkMeta struct {
	ID        int64
	FileID    int64
	Path      string
	Lang      string
	Kind      string
	Name      string
	Symbol    string
	Short     string
	Container string
	StartLine int
	EndLine   int
}

// ChunkMetas returns every chunk of a project, ordered by id.
func (db *DB) ChunkMetas(ctx context.Context, projectID int64) ([]ChunkMeta, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT id, file_id, path, lang, kind, name, symbol, short, container, start_line, end_line
		FROM chunks WHERE project_id = ? ORDER BY id`, projectID)
	if err != nil {
		return nil, db.classify("read chunks", err)
	}
	defer rows.Close()
	var out []ChunkMeta
	for rows.Next() {
		var c ChunkMeta
		if err := rows.Scan(&c.ID, &c.FileID, &c.Path, &c.Lang, &c.Kind, &c.Name, &c.Symbol, &c.Short, &c.Container, &c.StartLine, &c.EndLine); err != nil {
			return nil, db.classify("read chunks", err)
		}
		out = append(out, c)
	}
	return out, db.classify("read chunks", rows.Err())
}

// ProjectVectors calls fn with the stored vector of every chunk of a project
// embedded with model, in chunk id order. The blob is only valid during the
// call. Chunks without a vector (blank text) are skipped.
func (db *DB) ProjectVectors(ctx context.Context, projectID int64, model string, fn func(id int64, blob []byte) error) error {
	rows, err := db.sql.QueryContext(ctx, `SELECT c.id, v.vec FROM chunks c
		JOIN vectors v ON v.model = c.model AND v.text_hash = c.text_hash
		WHERE c.project_id = ? AND c.model = ? ORDER BY c.id`, projectID, model)
	if err != nil {
		return db.classify("read vectors", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var blob []byte
		if err := rows.Scan(&id, &blob); err != nil {
			return db.classify("read vectors", err)
		}
		if err := fn(id, blob); err != nil {
			return err
		}
	}
	return db.classify("read vectors", rows.Err())
}

// FTSHit is one full-text match. Scores are BM25 values made positive
// (higher is better); a zero column score means the query did not match in
// that column.
type FTSHit struct {
	ID       int64
	Weighted float64 // BM25 with the caller's column weights
	Name     float64 // BM25 counting the name column only
	Path     float64 // BM25 counting the path column only
	Body     float64 // BM25 counting the body column only
}

// FTSWeights are bm25() column weights for chunks_fts(name, path, body).
type FTSWeights struct{ Name, Path, Body float64 }

// FTSMatch runs one FTS5 MATCH expression over a project's chunks and
// returns its best limit rows by weighted BM25 (limit <= 0: every matching
// row, in rowid order). The expression must already be quoted by the
// caller; an FTS5 syntax error is returned wrapped.
func (db *DB) FTSMatch(ctx context.Context, projectID int64, match string, w FTSWeights, limit int) ([]FTSHit, error) {
	q := `SELECT f.rowid, bm25(chunks_fts, ?, ?, ?), bm25(chunks_fts, 1, 0, 0), bm25(chunks_fts, 0, 1, 0), bm25(chunks_fts, 0, 0, 1)
		FROM chunks_fts f JOIN chunks c ON c.id = f.rowid
		WHERE chunks_fts MATCH ? AND c.project_id = ?`
	args := []any{w.Name, w.Path, w.Body, match, projectID}
	if limit > 0 {
		q += " ORDER BY bm25(chunks_fts, ?, ?, ?), f.rowid LIMIT ?"
		args = append(args, w.Name, w.Path, w.Body, limit)
	}
	rows, err := db.sql.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, db.classify(fmt.Sprintf("full-text match %q", match), err)
	}
	defer rows.Close()
	var out []FTSHit
	for rows.Next() {
		var h FTSHit
		if err := rows.Scan(&h.ID, &h.Weighted, &h.Name, &h.Path, &h.Body); err != nil {
			return nil, db.classify("full-text match", err)
		}
		h.Weighted, h.Name, h.Path, h.Body = -h.Weighted, -h.Name, -h.Path, -h.Body
		out = append(out, h)
	}
	return out, db.classify("full-text match", rows.Err())
}

// ChunkContents returns id → content for the given chunk ids.
func (db *DB) ChunkContents(ctx context.Context, ids []int64) (map[int64]string, error) {
	out := make(map[int64]string, len(ids))
	for start := 0; start < len(ids); start += 400 {
		end := min(start+400, len(ids))
		args := make([]any, 0, end-start)
		for _, id := range ids[start:end] {
			args = append(args, id)
		}
		rows, err := db.sql.QueryContext(ctx, "SELECT id, content FROM chunks WHERE id IN ("+placeholders(end-start)+")", args...)
		if err != nil {
			return nil, db.classify("read chunk contents", err)
		}
		for rows.Next() {
			var id int64
			var s string
			if err := rows.Scan(&id, &s); err != nil {
				rows.Close()
				return nil, db.classify("read chunk contents", err)
			}
			out[id] = s
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, db.classify("read chunk contents", err)
		}
	}
	return out, nil
}

// Edge is a resolved relation between two chunks.
type Edge struct {
	Kind string
	Src  int64
	Dst  int64
}

// EdgesAmong returns the resolved relations whose source and target are
// both among ids (call graph between candidates), ordered by source, target.
func (db *DB) EdgesAmong(ctx context.Context, ids []int64) ([]Edge, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	if len(ids) > 400 {
		ids = ids[:400]
	}
	args := make([]any, 0, 2*len(ids))
	for _, id := range ids {
		args = append(args, id)
	}
	args = append(args, args...)
	ph := placeholders(len(ids))
	rows, err := db.sql.QueryContext(ctx, "SELECT kind, src_chunk, dst_chunk FROM relations WHERE src_chunk IN ("+ph+
		") AND dst_chunk IN ("+ph+") AND src_chunk != dst_chunk ORDER BY src_chunk, dst_chunk", args...)
	if err != nil {
		return nil, db.classify("read relations", err)
	}
	defer rows.Close()
	var out []Edge
	for rows.Next() {
		var e Edge
		if err := rows.Scan(&e.Kind, &e.Src, &e.Dst); err != nil {
			return nil, db.classify("read relations", err)
		}
		out = append(out, e)
	}
	return out, db.classify("read relations", rows.Err())
}

// FTSRows is the number of rows in the full-text table over every project
// (the N of its BM25 statistics).
func (db *DB) FTSRows(ctx context.Context) (int, error) {
	var n int
	err := db.sql.QueryRowContext(ctx, "SELECT count(*) FROM chunks").Scan(&n)
	return n, db.classify("count chunks", err)
}

// FTSCount returns how many rows match an FTS5 expression over every
// project (the n of BM25's idf), and, when projectID is not 0, within that
// project.
func (db *DB) FTSCount(ctx context.Context, match string, projectID int64) (all, inProject int, err error) {
	if err := db.sql.QueryRowContext(ctx, "SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?", match).Scan(&all); err != nil {
		return 0, 0, db.classify(fmt.Sprintf("full-text count %q", match), err)
	}
	if projectID != 0 {
		err := db.sql.QueryRowContext(ctx, `SELECT count(*) FROM chunks_fts f JOIN chunks c ON c.id = f.rowid
			WHERE chunks_fts MATCH ? AND c.project_id = ?`, match, projectID).Scan(&inProject)
		if err != nil {
			return 0, 0, db.classify(fmt.Sprintf("full-text count %q", match), err)
		}
	}
	return all, inProject, nil
}
