package store

import (
	"context"
	"database/sql"
	"slices"
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
	rows, err := db.sql.QueryContext(ctx, "SELECT id, file_id, path, kind, symbol, short, container, start_line, end_line FROM chunks WHERE project_id = ? AND kind != 'text' ORDER BY id", projectID)
	if err != nil {
		return nil, db.classify("read symbols", err)
	}
	defer rows.Close()
	var out []SymbolRow
	for rows.Next() {
		var r SymbolRow
		if err := rows.Scan(&r.ID, &r.FileID, &r.Path, &r.Kind, &r.Symbol, &r.Short, &r.Container, &r.StartLine, &r.EndLine); err != nil {
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
	Line      int
	DstChunk  int64
}

// EdgesToResolve returns the calls/extends/implements/contains relations of
// a project; when fileIDs or names are given, only those from the files or
// whose target is one of the names (nil, nil means all).
func (db *DB) EdgesToResolve(ctx context.Context, projectID int64, fileIDs []int64, names []string) ([]EdgeRow, error) {
	base := "SELECT id, file_id, kind, COALESCE(src_chunk,0), src_symbol, target, qualifier, line, COALESCE(dst_chunk,0) FROM relations WHERE project_id = ? AND kind != 'imports'"
	var out []EdgeRow
	scan := func(query string, args ...any) error {
		rows, err := db.sql.QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var e EdgeRow
			if err := rows.Scan(&e.ID, &e.FileID, &e.Kind, &e.SrcChunk, &e.SrcSymbol, &e.Target, &e.Qualifier, &e.Line, &e.DstChunk); err != nil {
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

// SetTargets stores resolved targets (0 clears) for many relations in one
// transaction: the pairs go into a temporary table with multi-row inserts,
// then one UPDATE … FROM applies them.
func (db *DB) SetTargets(ctx context.Context, updates map[int64]int64) error {
	if len(updates) == 0 {
		return nil
	}
	ids := make([]int64, 0, len(updates))
	for id := range updates {
		ids = append(ids, id)
	}
	slices.Sort(ids) // rows in rowid order: sequential pages
	return db.inTx(ctx, "resolve relations", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, "CREATE TEMP TABLE IF NOT EXISTS resolved(id INTEGER PRIMARY KEY, dst INTEGER)"); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM temp.resolved"); err != nil {
			return err
		}
		b := newBulk(tx, "INSERT INTO temp.resolved(id, dst)", 2)
		for _, id := range ids {
			var v any
			if dst := updates[id]; dst != 0 {
				v = dst
			}
			if err := b.add(ctx, id, v); err != nil {
				return err
			}
		}
		if err := b.flush(ctx); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "UPDATE relations SET dst_chunk = r.dst FROM temp.resolved AS r WHERE relations.id = r.id"); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, "DELETE FROM temp.resolved")
		return err
	})
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
