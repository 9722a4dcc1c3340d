package store

import (
	"context"
	"strings"
)

// Stats summarises one project.
type Stats struct {
	Files          int            `json:"files"`
	Chunks         int            `json:"chunks"`
	Relations      int            `json:"relations"`
	Resolved       int            `json:"resolved_relations"`
	EmbeddingModel string         `json:"embedding_model"`
	DB             string         `json:"db"`
	IndexedAt      int64          `json:"indexed_at"`
	ByLanguage     map[string]int `json:"chunks_by_language"`
	ByKind         map[string]int `json:"chunks_by_kind"`
}

// Stats counts files, chunks and relations of a project.
func (db *DB) Stats(ctx context.Context, p *Project) (*Stats, error) {
	s := &Stats{EmbeddingModel: p.Model, DB: db.path, IndexedAt: p.IndexedAt, ByLanguage: map[string]int{}, ByKind: map[string]int{}}
	q := []struct {
		sql string
		dst *int
	}{
		{"SELECT count(*) FROM files WHERE project_id = ?", &s.Files},
		{"SELECT count(*) FROM chunks WHERE project_id = ?", &s.Chunks},
		{"SELECT count(*) FROM relations WHERE project_id = ?", &s.Relations},
		{"SELECT count(*) FROM relations WHERE project_id = ? AND dst_chunk IS NOT NULL", &s.Resolved},
	}
	for _, x := range q {
		if err := db.sql.QueryRowContext(ctx, x.sql, p.ID).Scan(x.dst); err != nil {
			return nil, db.classify("stats", err)
		}
	}
	for _, g := range []struct {
		col string
		m   map[string]int
	}{{"lang", s.ByLanguage}, {"kind", s.ByKind}} {
		rows, err := db.sql.QueryContext(ctx, "SELECT "+g.col+", count(*) FROM chunks WHERE project_id = ? GROUP BY "+g.col, p.ID)
		if err != nil {
			return nil, db.classify("stats", err)
		}
		for rows.Next() {
			var k string
			var n int
			if err := rows.Scan(&k, &n); err != nil {
				rows.Close()
				return nil, db.classify("stats", err)
			}
			g.m[k] = n
		}
		rows.Close()
	}
	return s, nil
}

// SymbolRow is the part of a chunk that relation resolution needs.
type SymbolRow struct {
	ID        int64
	FileID    int64
	Path      string
	Lang      string
	Kind      string
	Symbol    string
	Short     string
	Container string
	StartLine int
	EndLine   int
}

// Symbols loads every chunk's symbol data of a project (methods, functions,
// types and file-level declarations).
func (db *DB) Symbols(ctx context.Context, projectID int64) ([]SymbolRow, error) {
	rows, err := db.sql.QueryContext(ctx, "SELECT id, file_id, path, lang, kind, symbol, short, container, start_line, end_line FROM chunks WHERE project_id = ? AND kind != 'text' ORDER BY path, start_line, id", projectID)
	if err != nil {
		return nil, db.classify("read symbols", err)
	}
	defer rows.Close()
	var out []SymbolRow
	for rows.Next() {
		var r SymbolRow
		if err := rows.Scan(&r.ID, &r.FileID, &r.Path, &r.Lang, &r.Kind, &r.Symbol, &r.Short, &r.Container, &r.StartLine, &r.EndLine); err != nil {
			return nil, db.classify("read symbols", err)
		}
		out = append(out, r)
	}
	return out, db.classify("read symbols", rows.Err())
}

// Imports returns file id → imported targets for a project.
func (db *DB) Imports(ctx context.Context, projectID int64) (map[int64][]string, error) {
	rows, err := db.sql.QueryContext(ctx, "SELECT file_id, target FROM relations WHERE project_id = ? AND kind = 'imports'", projectID)
	if err != nil {
		return nil, db.classify("read imports", err)
	}
	defer rows.Close()
	out := map[int64][]string{}
	for rows.Next() {
		var id int64
		var t string
		if err := rows.Scan(&id, &t); err != nil {
			return nil, db.classify("read imports", err)
		}
		out[id] = append(out[id], t)
	}
	return out, db.classify("read imports", rows.Err())
}

// EdgeRow is a relation that may need (re)resolution.
type EdgeRow struct {
	ID        int64
	FileID    int64
	Kind      string
	SrcChunk  int64
	SrcSymbol string
	Target    string
	Qualifier string
	Recv      string
	Line      int
	DstChunk  int64
	// Resolution and Detail as stored (see ResExact …).
	Resolution string
	Detail     string
}

// EdgesToResolve returns the calls/extends/implements/contains relations of
// a project; when fileIDs or names are given, only those from the files or
// whose target is one of the names (nil, nil means all).
func (db *DB) EdgesToResolve(ctx context.Context, projectID int64, fileIDs []int64, names []string) ([]EdgeRow, error) {
	base := "SELECT id, file_id, kind, COALESCE(src_chunk,0), src_symbol, target, qualifier, recv, line, COALESCE(dst_chunk,0), resolution, detail FROM relations WHERE project_id = ? AND kind != 'imports' AND derived = 0"
	var out []EdgeRow
	scan := func(query string, args ...any) error {
		rows, err := db.sql.QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var e EdgeRow
			if err := rows.Scan(&e.ID, &e.FileID, &e.Kind, &e.SrcChunk, &e.SrcSymbol, &e.Target, &e.Qualifier, &e.Recv, &e.Line, &e.DstChunk, &e.Resolution, &e.Detail); err != nil {
				return err
			}
			out = append(out, e)
		}
		return rows.Err()
	}
	if fileIDs == nil && names == nil {
		return out, db.classify("read relations", scan(base, projectID))
	}
	seen := map[int64]bool{}
	for start := 0; start < len(fileIDs); start += 400 {
		end := min(start+400, len(fileIDs))
		args := []any{projectID}
		for _, id := range fileIDs[start:end] {
			args = append(args, id)
		}
		if err := scan(base+" AND file_id IN ("+placeholders(end-start)+")", args...); err != nil {
			return nil, db.classify("read relations", err)
		}
	}
	for _, e := range out {
		seen[e.ID] = true
	}
	n := len(out)
	for start := 0; start < len(names); start += 400 {
		end := min(start+400, len(names))
		args := []any{projectID}
		for _, s := range names[start:end] {
			args = append(args, s)
		}
		if err := scan(base+" AND target IN ("+placeholders(end-start)+")", args...); err != nil {
			return nil, db.classify("read relations", err)
		}
	}
	// Drop duplicates picked up by both filters.
	dedup := out[:n]
	for _, e := range out[n:] {
		if !seen[e.ID] {
			seen[e.ID] = true
			dedup = append(dedup, e)
		}
	}
	return dedup, nil
}

func placeholders(n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat("?,", n-1) + "?"
}

// ChunkCount is the number of chunks of a project (cheap: an index range count).
func (db *DB) ChunkCount(ctx context.Context, projectID int64) (int, error) {
	var n int
	err := db.sql.QueryRowContext(ctx, "SELECT count(*) FROM chunks WHERE project_id = ?", projectID).Scan(&n)
	return n, db.classify("count chunks", err)
}
