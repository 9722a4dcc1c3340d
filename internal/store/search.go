package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"

	"codectx/internal/vecindex"
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
	// Read the project's id range in rowid order (+project_id keeps the
	// planner off the (project_id, …) indexes, whose order would need a
	// sort and a lookup per row).
	var lo, hi sql.NullInt64
	if err := db.sql.QueryRowContext(ctx, "SELECT min(id), max(id) FROM chunks WHERE project_id = ?", projectID).Scan(&lo, &hi); err != nil {
		return nil, db.classify("read chunks", err)
	}
	if !lo.Valid {
		return nil, nil
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT id, file_id, path, lang, kind, name, symbol, short, container, start_line, end_line
		FROM chunks WHERE id BETWEEN ? AND ? AND +project_id = ? ORDER BY id`, lo.Int64, hi.Int64, projectID)
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
// embedded with model, in no particular order. The blob is only valid
// during the call. Chunks without a vector (blank text) are skipped.
//
// The read runs on one connection with memory-mapped I/O. When the project
// holds a large share of the database's chunks, the vectors table is
// scanned in key order and matched to the chunks by hash, which is several
// times faster than one lookup per chunk; otherwise each chunk's vector is
// looked up.
func (db *DB) ProjectVectors(ctx context.Context, projectID int64, model string, fn func(id int64, blob []byte) error) error {
	return db.projectVectors(ctx, projectID, model, true, fn)
}

// ProjectVectorsPaged is ProjectVectors through SQLite's bounded page cache
// instead of memory-mapped I/O: slower, but the pages read do not count
// toward the process's resident memory (for a pass that keeps only a
// compact copy of the vectors).
func (db *DB) ProjectVectorsPaged(ctx context.Context, projectID int64, model string, fn func(id int64, blob []byte) error) error {
	return db.projectVectors(ctx, projectID, model, false, fn)
}

func (db *DB) projectVectors(ctx context.Context, projectID int64, model string, mmap bool, fn func(id int64, blob []byte) error) error {
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return db.classify("read vectors", err)
	}
	defer conn.Close()
	// Vectors of another size than the model's (left by an older build)
	// are skipped: those chunks are found by keywords only.
	var dims int
	if err := conn.QueryRowContext(ctx, "SELECT dims FROM embedding_models WHERE model = ?", model).Scan(&dims); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return db.classify("read vectors", err)
	}
	if dims > 0 {
		inner := fn
		fn = func(id int64, blob []byte) error {
			if vecindex.VectorDims(blob) != dims {
				return nil
			}
			return inner(id, blob)
		}
	}
	// Best effort: a build without mmap support keeps reading normally.
	// The setting stays with the pooled connection, so it is set either way.
	switch {
	case db.pg: // a server: nothing to map
	case mmap:
		_, _ = conn.ExecContext(ctx, "PRAGMA mmap_size = 17179869184")
	default:
		_, _ = conn.ExecContext(ctx, "PRAGMA mmap_size = 0")
	}
	var all, mine int
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM chunks").Scan(&all); err != nil {
		return db.classify("read vectors", err)
	}
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM chunks WHERE project_id = ?", projectID).Scan(&mine); err != nil {
		return db.classify("read vectors", err)
	}
	if mine*4 >= all && mine > 20000 {
		return db.scanVectors(ctx, conn, projectID, model, fn)
	}
	rows, err := conn.QueryContext(ctx, `SELECT c.id, v.vec FROM chunks c
		JOIN vectors v ON v.model = c.model AND v.text_hash = c.text_hash
		WHERE c.project_id = ? AND c.model = ?`, projectID, model)
	if err != nil {
		return db.classify("read vectors", err)
	}
	defer rows.Close()
	var blob sql.RawBytes
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id, &blob); err != nil {
			return db.classify("read vectors", err)
		}
		if err := fn(id, blob); err != nil {
			return err
		}
	}
	return db.classify("read vectors", rows.Err())
}

// scanVectors reads the project's chunk hashes, then every vector of the
// model in key order, handing each to the chunks that share its hash.
func (db *DB) scanVectors(ctx context.Context, conn *sql.Conn, projectID int64, model string, fn func(id int64, blob []byte) error) error {
	rows, err := conn.QueryContext(ctx, "SELECT id, text_hash FROM chunks WHERE project_id = ? AND model = ?", projectID, model)
	if err != nil {
		return db.classify("read vectors", err)
	}
	byHash := map[string][]int64{}
	var h sql.RawBytes
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id, &h); err != nil {
			rows.Close()
			return db.classify("read vectors", err)
		}
		byHash[string(h)] = append(byHash[string(h)], id)
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return db.classify("read vectors", err)
	}
	rows, err = conn.QueryContext(ctx, "SELECT text_hash, vec FROM vectors WHERE model = ?", model)
	if err != nil {
		return db.classify("read vectors", err)
	}
	defer rows.Close()
	var blob sql.RawBytes
	for rows.Next() {
		if err := rows.Scan(&h, &blob); err != nil {
			return db.classify("read vectors", err)
		}
		for _, id := range byHash[string(h)] {
			if err := fn(id, blob); err != nil {
				return err
			}
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

// IDRange bounds the chunk ids of a project (inclusive); full-text queries
// seek inside it instead of scanning every project's matches. The zero
// value means no bound.
type IDRange struct{ Lo, Hi int64 }

func (r IDRange) sql() (string, []any) {
	if r.Lo == 0 && r.Hi == 0 {
		return "", nil
	}
	return " AND f.rowid BETWEEN ? AND ?", []any{r.Lo, r.Hi}
}

// FTSMatch runs one FTS5 MATCH expression over a project's chunks and
// returns its best limit rows by weighted BM25 (limit <= 0: every matching
// row). ids, when set, must cover every chunk id of the project. A
// projectID of 0 skips the check of each row's project (for a caller that
// knows the database holds only one). The expression must already be
// quoted by the caller; an FTS5 syntax error is returned wrapped.
func (db *DB) FTSMatch(ctx context.Context, projectID int64, ids IDRange, match string, w FTSWeights, limit int) ([]FTSHit, error) {
	hits, _, err := db.FTSMatchCount(ctx, projectID, ids, match, w, limit)
	return hits, err
}

// FTSMatchCount is FTSMatch that also returns how many rows of the project
// match (what FTSCount counts), when the query learnt it on the way: a
// single token scored from its postings reads every one of its rows.
// matched is -1 when it is not known.
func (db *DB) FTSMatchCount(ctx context.Context, projectID int64, ids IDRange, match string, w FTSWeights, limit int) (hits []FTSHit, matched int, err error) {
	if db.pg {
		hits, err := db.pgFTSMatch(ctx, projectID, ids, match, w, limit)
		return hits, -1, err
	}
	return db.ftsMatch(ctx, projectID, ids, match, w, limit, true)
}

// ftsMatch is the SQLite query of FTSMatch; without columns it selects the
// weighted score alone (one bm25() per matching row instead of four). A
// single token held by many rows is scored from its postings
// (ftsMatchDirect), with the same result.
func (db *DB) ftsMatch(ctx context.Context, projectID int64, ids IDRange, match string, w FTSWeights, limit int, columns bool) ([]FTSHit, int, error) {
	if tok := directToken(match); tok != "" {
		hits, matched, ok, err := db.ftsMatchDirect(ctx, projectID, ids, tok, w, limit, columns)
		switch {
		case ok:
			return hits, matched, nil
		case errors.Is(err, errFTS5Format):
			// A record this reader does not know: FTS5 reads it.
			slog.Debug("full-text postings read through FTS5", "token", tok, "err", err)
		case err != nil:
			return nil, -1, db.classify(fmt.Sprintf("full-text match %q", match), err)
		}
	}
	hits, err := db.ftsMatchSQL(ctx, projectID, ids, match, w, limit, columns)
	return hits, -1, err
}

// ftsMatchSQL is ftsMatch through FTS5's MATCH and bm25().
func (db *DB) ftsMatchSQL(ctx context.Context, projectID int64, ids IDRange, match string, w FTSWeights, limit int, columns bool) ([]FTSHit, error) {
	rng, rargs := ids.sql()
	q := `SELECT f.rowid, bm25(chunks_fts, ?, ?, ?)`
	if columns {
		q += `, bm25(chunks_fts, 1, 0, 0), bm25(chunks_fts, 0, 1, 0), bm25(chunks_fts, 0, 0, 1)`
	}
	q += ` FROM chunks_fts f`
	args := []any{w.Name, w.Path, w.Body}
	if projectID != 0 {
		q += ` JOIN chunks c ON c.id = f.rowid`
	}
	q += ` WHERE chunks_fts MATCH ?` + rng
	args = append(append(args, match), rargs...)
	if projectID != 0 {
		q += ` AND c.project_id = ?`
		args = append(args, projectID)
	}
	if limit > 0 {
		// By the selected score (column 2): bm25 with bound weights
		// repeated here would be a second expression, computed again per row.
		q += " ORDER BY 2, f.rowid LIMIT ?"
		args = append(args, limit)
	}
	rows, err := db.sql.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, db.classify(fmt.Sprintf("full-text match %q", match), err)
	}
	defer rows.Close()
	var out []FTSHit
	for rows.Next() {
		var h FTSHit
		dest := []any{&h.ID, &h.Weighted}
		if columns {
			dest = append(dest, &h.Name, &h.Path, &h.Body)
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, db.classify("full-text match", err)
		}
		h.Weighted, h.Name, h.Path, h.Body = -h.Weighted, -h.Name, -h.Path, -h.Body
		out = append(out, h)
	}
	return out, db.classify("full-text match", rows.Err())
}

// FTSRows is the number of rows in the full-text table over every project
// (the N of its BM25 statistics).
func (db *DB) FTSRows(ctx context.Context) (int, error) {
	var n int
	q := "SELECT count(*) FROM chunks"
	if db.pg {
		// Maintained with every write: no scan of the chunks.
		q = "SELECT COALESCE(sum(rows), 0) FROM fts_stats"
	}
	err := db.sql.QueryRowContext(ctx, q).Scan(&n)
	return n, db.classify("count chunks", err)
}

// FTSCount returns how many rows match an FTS5 expression: over every
// project when projectID is 0 (the n of BM25's idf), else within that
// project (whose chunk ids ids covers, when set).
func (db *DB) FTSCount(ctx context.Context, match string, projectID int64, ids IDRange) (int, error) {
	if db.pg {
		return db.pgFTSCount(ctx, match, projectID, ids)
	}
	var n int
	var err error
	if projectID == 0 {
		err = db.sql.QueryRowContext(ctx, "SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?", match).Scan(&n)
	} else {
		rng, rargs := ids.sql()
		args := append([]any{match}, rargs...)
		err = db.sql.QueryRowContext(ctx, `SELECT count(*) FROM chunks_fts f JOIN chunks c ON c.id = f.rowid
			WHERE chunks_fts MATCH ?`+rng+` AND c.project_id = ?`, append(args, projectID)...).Scan(&n)
	}
	return n, db.classify(fmt.Sprintf("full-text count %q", match), err)
}

// FTSDocFreq returns, for single tokens as the FTS tokenizer produces them
// (lower case, letters and digits only), how many rows of every project
// contain each, read from the FTS index's vocabulary instead of counting
// matches. Tokens not in the index are absent from the map.
func (db *DB) FTSDocFreq(ctx context.Context, tokens []string) (map[string]int, error) {
	out := make(map[string]int, len(tokens))
	if len(tokens) == 0 {
		return out, nil
	}
	if db.pg {
		return db.pgFTSDocFreq(ctx, tokens)
	}
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return nil, db.classify("read vocabulary", err)
	}
	defer conn.Close()
	// A temp-schema view of the index's vocabulary: per connection, nothing
	// is written to the database file.
	if _, err := conn.ExecContext(ctx, "CREATE VIRTUAL TABLE IF NOT EXISTS temp.codectx_fts_vocab USING fts5vocab(main, chunks_fts, row)"); err != nil {
		return nil, db.classify("read vocabulary", err)
	}
	st, err := conn.PrepareContext(ctx, "SELECT doc FROM temp.codectx_fts_vocab WHERE term = ?")
	if err != nil {
		return nil, db.classify("read vocabulary", err)
	}
	defer st.Close()
	for _, t := range tokens {
		var n int
		err := st.QueryRowContext(ctx, t).Scan(&n)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, db.classify("read vocabulary", err)
		}
		out[t] = n
	}
	return out, nil
}

// ChunkContents returns id → content for the given chunk ids.
func (db *DB) ChunkContents(ctx context.Context, ids []int64) (map[int64]string, error) {
	return db.stringsByID(ctx, "SELECT id, content FROM chunks WHERE id IN ", ids, "read chunk contents")
}
