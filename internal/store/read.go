package store

import (
	"context"
	"database/sql"
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
	s := &Stats{EmbeddingModel: p.Model, DB: db.display, IndexedAt: p.IndexedAt, ByLanguage: map[string]int{}, ByKind: map[string]int{}}
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
	Extends   string // comma-separated, as the chunk records them
	StartLine int
	EndLine   int
}

// Symbols loads every chunk's symbol data of a project (methods, functions,
// types and file-level declarations).
func (db *DB) Symbols(ctx context.Context, projectID int64) ([]SymbolRow, error) {
	rows, err := db.sql.QueryContext(ctx, "SELECT id, file_id, path, lang, kind, symbol, short, container, CASE WHEN kind = 'type' THEN extends ELSE '' END, start_line, end_line FROM chunks WHERE "+db.projectFilter(ctx, projectID)+" AND kind != 'text' ORDER BY path, start_line, id", projectID)
	if err != nil {
		return nil, db.classify("read symbols", err)
	}
	defer rows.Close()
	var out []SymbolRow
	// Resolution holds every row while it runs, the largest heap of an
	// index run: paths, languages, kinds, containers and extends lists
	// repeat from row to row and are kept once; the short name is the end
	// of the symbol, not a copy.
	w := words{}
	var path, lang, kind, short, container, extends sql.RawBytes
	for rows.Next() {
		var r SymbolRow
		if err := rows.Scan(&r.ID, &r.FileID, &path, &lang, &kind, &r.Symbol, &short, &container, &extends, &r.StartLine, &r.EndLine); err != nil {
			return nil, db.classify("read symbols", err)
		}
		r.Path, r.Lang, r.Kind, r.Container, r.Extends = w.of(path), w.of(lang), w.of(kind), w.of(container), w.of(extends)
		r.Short = suffixOf(r.Symbol, short)
		out = append(out, r)
	}
	return out, db.classify("read symbols", rows.Err())
}

// suffixOf is b as a string: the end of s when s ends with it, else a copy.
func suffixOf(s string, b []byte) string {
	if len(b) <= len(s) && s[len(s)-len(b):] == string(b) {
		return s[len(s)-len(b):]
	}
	return string(b)
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
	Target    string
	Qualifier string
	Recv      string
	Line      int
	DstChunk  int64
	// Resolution and Detail as stored (see ResExact …).
	Resolution string
	Detail     string
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
