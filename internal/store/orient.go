package store

import (
	"context"
	"database/sql"
)

// This file holds the whole-project reads behind orientation (the repository
// map, change impact and the project overview in internal/orient): every
// non-text chunk of a project and every resolved edge between two chunks.
// They cost one pass over the project's rows, done once per answer.

// projectFilter is the condition on project_id (one ? parameter) of a read
// of all a project's rows (orientation's chunks and edges, resolution's
// symbols and edges). Through an index (the tables' indexes lead with
// project_id) SQLite fetches the rows one lookup at a time, in the index's
// order, and sorts them again; a scan of the whole table reads them in
// order at about a seventh of the cost per row (on $GOROOT/src's 470k
// relations, 0.10 s against 0.70 s, warm). So a project that holds more
// than a quarter of the database (chunks counted from the full-text
// statistics, one read) is read by a scan ("+project_id" keeps SQLite off
// the index); a smaller one through the index. PostgreSQL plans it itself.
func (db *DB) projectFilter(ctx context.Context, projectID int64) string {
	if db.pg {
		return "project_id = ?"
	}
	total, err := db.FTSRowCount(ctx)
	if err != nil || total == 0 {
		return "project_id = ?"
	}
	n, err := db.ChunkCount(ctx, projectID)
	if err != nil || n*4 < total {
		return "project_id = ?"
	}
	return "+project_id = ?"
}

// ProjectChunks returns every non-text chunk of a project (no content), in
// path and source order.
func (db *DB) ProjectChunks(ctx context.Context, projectID int64) ([]GraphChunk, error) {
	rows, err := db.sql.QueryContext(ctx, "SELECT "+graphChunkCols+" FROM chunks WHERE "+db.projectFilter(ctx, projectID)+" AND kind != 'text' ORDER BY path, start_line, id", projectID)
	if err != nil {
		return nil, db.classify("read chunks", err)
	}
	out, err := scanGraphChunks(rows, false)
	return out, db.classify("read chunks", err)
}

// Edge is a relation between two chunks of a project.
type Edge struct {
	Kind string
	Src  int64
	Dst  int64
	Line int
	// Resolution is how the target was found (ResExact, ResInferred …;
	// "" for relations stored before resolution kinds).
	Resolution string
}

// resolvedEdgeCond is the one definition of which stored relations count as
// resolved edges between chunks: a relation is resolved when its target
// chunk is known. Each edge carries its resolution kind, which orientation
// weighs (internal/orient's edgeWeight).
const resolvedEdgeCond = "src_chunk IS NOT NULL AND dst_chunk IS NOT NULL"

// ResolvedEdges returns every relation of a project whose source and target
// chunks are both known, ordered by id.
func (db *DB) ResolvedEdges(ctx context.Context, projectID int64) ([]Edge, error) {
	rows, err := db.sql.QueryContext(ctx, "SELECT kind, src_chunk, dst_chunk, line, resolution FROM relations WHERE "+db.projectFilter(ctx, projectID)+" AND "+resolvedEdgeCond+" ORDER BY id", projectID)
	if err != nil {
		return nil, db.classify("read edges", err)
	}
	return scanEdges(rows, db)
}

// words keeps one string per distinct value of columns whose values repeat
// from row to row (a relation's kind and resolution, a type fact's names).
type words map[string]string

func (w words) of(b sql.RawBytes) string {
	s, ok := w[string(b)]
	if !ok {
		s = string(b)
		w[s] = s
	}
	return s
}

func scanEdges(rows *sql.Rows, db *DB) ([]Edge, error) {
	defer rows.Close()
	var out []Edge
	w := words{} // one string per kind and resolution, not one per row
	var kind, res sql.RawBytes
	for rows.Next() {
		var e Edge
		if err := rows.Scan(&kind, &e.Src, &e.Dst, &e.Line, &res); err != nil {
			return nil, db.classify("read edges", err)
		}
		e.Kind, e.Resolution = w.of(kind), w.of(res)
		out = append(out, e)
	}
	return out, db.classify("read edges", rows.Err())
}

// FileSizes returns path → size in bytes and path → language of every
// indexed file of a project.
func (db *DB) FileSizes(ctx context.Context, projectID int64) (map[string]int64, map[string]string, error) {
	rows, err := db.sql.QueryContext(ctx, "SELECT path, size, lang FROM files WHERE project_id = ?", projectID)
	if err != nil {
		return nil, nil, db.classify("read files", err)
	}
	defer rows.Close()
	sizes, langs := map[string]int64{}, map[string]string{}
	for rows.Next() {
		var p, l string
		var n int64
		if err := rows.Scan(&p, &n, &l); err != nil {
			return nil, nil, db.classify("read files", err)
		}
		sizes[p], langs[p] = n, l
	}
	return sizes, langs, db.classify("read files", rows.Err())
}
