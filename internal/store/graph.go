package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
)

// This file holds the read queries behind the relation graph and context
// assembly (internal/graph). Every lookup goes through an index: chunks by
// (project_id, symbol) or (project_id, short), relations by src_chunk,
// dst_chunk, (project_id, target) or file_id, so the cost of a query is the
// degree of the nodes asked about, never the size of the project.

// GraphChunk is a chunk as the graph and context assembly see it. Content is
// only filled by the queries that say so.
type GraphChunk struct {
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
	Content   string
}

// Resolution kinds of a relation: how its target was found.
const (
	// ResExact: by the receiver's or qualifier's type, or by an import.
	ResExact = "exact"
	// ResInferred: the only candidate of a named rule (same file, same
	// package, imported module, unique name in the project).
	ResInferred = "inferred"
	// ResName: several candidates share the name; no target is recorded
	// and the edge is never shown or expanded as resolved.
	ResName = "name"
	// ResExternal: the target lives outside the project (Detail names the
	// package or module when known).
	ResExternal = "external"
	// ResUnresolved: nothing in the code tells what the target is.
	ResUnresolved = "unresolved"
)

// ResolutionRank orders resolution kinds from the most to the least
// certain (exact 0 … unresolved 4); unknown kinds rank last.
func ResolutionRank(res string) int {
	switch res {
	case ResExact:
		return 0
	case ResInferred:
		return 1
	case ResName:
		return 2
	case ResExternal:
		return 3
	}
	return 4
}

// migrateGraph adds what the relation graph needs to schema 3: the
// resolution kind, its detail (external package, candidate count) and the
// receiver notation on relations, a flag for derived rows (Go implements,
// dispatch), and the typefacts table. Idempotent: every column is added
// only when missing, every table and index only if not there.
func migrateGraph(ctx context.Context, tx *sql.Tx) error {
	have := map[string]bool{}
	rows, err := tx.QueryContext(ctx, "SELECT name FROM pragma_table_info('relations')")
	if err != nil {
		return err
	}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return err
		}
		have[n] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, col := range []struct{ name, def string }{
		{"resolution", "TEXT NOT NULL DEFAULT ''"},
		{"detail", "TEXT NOT NULL DEFAULT ''"},
		{"recv", "TEXT NOT NULL DEFAULT ''"},
		{"derived", "INTEGER NOT NULL DEFAULT 0"},
	} {
		if have[col.name] {
			continue
		}
		if _, err := tx.ExecContext(ctx, "ALTER TABLE relations ADD COLUMN "+col.name+" "+col.def); err != nil {
			return err
		}
	}
	_, err = tx.ExecContext(ctx, `
CREATE TABLE IF NOT EXISTS typefacts (
	project_id  INTEGER NOT NULL,
	file_id     INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
	kind        TEXT NOT NULL,
	owner       TEXT NOT NULL,
	name        TEXT NOT NULL,
	type        TEXT NOT NULL,
	sig         TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS typefacts_file ON typefacts(file_id);
CREATE INDEX IF NOT EXISTS typefacts_project ON typefacts(project_id);
`)
	return err
}

// GraphRelation is one stored relation. SrcChunk and DstChunk are 0 when
// NULL (imports have no source chunk; unresolved edges have no target).
// Resolution is one of the Res* kinds ("" for imports and contains rows
// written before resolution ran); Detail says more (the external package,
// the number of same-named candidates). Derived rows (Go implements,
// dispatch) are computed by resolution, not read from the file.
type GraphRelation struct {
	ID         int64
	FileID     int64
	Kind       string
	SrcChunk   int64
	SrcSymbol  string
	Target     string
	Qualifier  string
	Line       int
	DstChunk   int64
	Resolution string
	Detail     string
	Derived    bool
}

const graphChunkCols = "id, file_id, path, lang, kind, name, symbol, short, container, start_line, end_line"

const graphRelCols = "id, file_id, kind, COALESCE(src_chunk,0), src_symbol, target, qualifier, line, COALESCE(dst_chunk,0), resolution, detail, derived"

func scanGraphChunks(rows *sql.Rows, withContent bool) ([]GraphChunk, error) {
	defer rows.Close()
	var out []GraphChunk
	for rows.Next() {
		var c GraphChunk
		dst := []any{&c.ID, &c.FileID, &c.Path, &c.Lang, &c.Kind, &c.Name, &c.Symbol, &c.Short, &c.Container, &c.StartLine, &c.EndLine}
		if withContent {
			dst = append(dst, &c.Content)
		}
		if err := rows.Scan(dst...); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

func scanGraphRelations(rows *sql.Rows, out []GraphRelation) ([]GraphRelation, error) {
	defer rows.Close()
	for rows.Next() {
		var r GraphRelation
		if err := rows.Scan(&r.ID, &r.FileID, &r.Kind, &r.SrcChunk, &r.SrcSymbol, &r.Target, &r.Qualifier, &r.Line, &r.DstChunk, &r.Resolution, &r.Detail, &r.Derived); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// ChunksBySymbol returns the non-text chunks of a project whose symbol is
// exactly symbol (index chunks_project_symbol), in source order, at most
// limit rows (limit <= 0: 1000).
func (db *DB) ChunksBySymbol(ctx context.Context, projectID int64, symbol string, limit int) ([]GraphChunk, error) {
	return db.chunksWhere(ctx, "symbol = ?", projectID, symbol, limit)
}

// ChunksByShort returns the non-text chunks of a project whose short name
// (last symbol segment) is short (index chunks_project_short), in source
// order, at most limit rows (limit <= 0: 1000).
func (db *DB) ChunksByShort(ctx context.Context, projectID int64, short string, limit int) ([]GraphChunk, error) {
	return db.chunksWhere(ctx, "short = ?", projectID, short, limit)
}

func (db *DB) chunksWhere(ctx context.Context, cond string, projectID int64, arg string, limit int) ([]GraphChunk, error) {
	if limit <= 0 {
		limit = 1000
	}
	rows, err := db.sql.QueryContext(ctx, "SELECT "+graphChunkCols+" FROM chunks WHERE project_id = ? AND "+cond+
		" AND kind != 'text' ORDER BY path, start_line, id LIMIT ?", projectID, arg, limit)
	if err != nil {
		return nil, db.classify("look up symbol", err)
	}
	out, err := scanGraphChunks(rows, false)
	return out, db.classify("look up symbol", err)
}

// FileChunks returns the chunks of one file of a project (index
// files(project_id, path), then chunks_file), in source order; withContent
// adds their source text. It returns nil when the file is not indexed.
func (db *DB) FileChunks(ctx context.Context, projectID int64, path string, withContent bool) ([]GraphChunk, error) {
	var fileID int64
	err := db.sql.QueryRowContext(ctx, "SELECT id FROM files WHERE project_id = ? AND path = ?", projectID, path).Scan(&fileID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, db.classify("look up file", err)
	}
	cols := graphChunkCols
	if withContent {
		cols += ", content"
	}
	rows, err := db.sql.QueryContext(ctx, "SELECT "+cols+" FROM chunks WHERE file_id = ? ORDER BY start_line, id", fileID)
	if err != nil {
		return nil, db.classify("read file chunks", err)
	}
	out, err := scanGraphChunks(rows, withContent)
	return out, db.classify("read file chunks", err)
}

// GraphChunks loads chunks by id (primary key); withContent adds their
// source text. Missing ids are absent from the map.
func (db *DB) GraphChunks(ctx context.Context, ids []int64, withContent bool) (map[int64]GraphChunk, error) {
	out := make(map[int64]GraphChunk, len(ids))
	cols := graphChunkCols
	if withContent {
		cols += ", content"
	}
	for start := 0; start < len(ids); start += 400 {
		end := min(start+400, len(ids))
		rows, err := db.sql.QueryContext(ctx, "SELECT "+cols+" FROM chunks WHERE id IN ("+placeholders(end-start)+")", int64Args(ids[start:end])...)
		if err != nil {
			return nil, db.classify("read chunks", err)
		}
		list, err := scanGraphChunks(rows, withContent)
		if err != nil {
			return nil, db.classify("read chunks", err)
		}
		for _, c := range list {
			out[c.ID] = c
		}
	}
	return out, nil
}

// RelationsFrom returns the relations whose source chunk is one of ids
// (index relations_src), optionally only of the given kinds, ordered by id.
func (db *DB) RelationsFrom(ctx context.Context, ids []int64, kinds ...string) ([]GraphRelation, error) {
	return db.relationsIn(ctx, "src_chunk", ids, kinds)
}

// RelationsTo returns the relations resolved to one of ids (index
// relations_dst_kind), optionally only of the given kinds, ordered by id.
func (db *DB) RelationsTo(ctx context.Context, ids []int64, kinds ...string) ([]GraphRelation, error) {
	return db.relationsIn(ctx, "dst_chunk", ids, kinds)
}

func (db *DB) relationsIn(ctx context.Context, col string, ids []int64, kinds []string) ([]GraphRelation, error) {
	var out []GraphRelation
	for start := 0; start < len(ids); start += 400 {
		end := min(start+400, len(ids))
		args := int64Args(ids[start:end])
		q := "SELECT " + graphRelCols + " FROM relations WHERE " + col + " IN (" + placeholders(end-start) + ")"
		if len(kinds) > 0 {
			q += " AND kind IN (" + placeholders(len(kinds)) + ")"
			for _, k := range kinds {
				args = append(args, k)
			}
		}
		rows, err := db.sql.QueryContext(ctx, q+" ORDER BY id", args...)
		if err != nil {
			return nil, db.classify("read relations", err)
		}
		if out, err = scanGraphRelations(rows, out); err != nil {
			return nil, db.classify("read relations", err)
		}
	}
	return out, nil
}

// UnresolvedTo returns unresolved relations (no target chunk) of a project
// whose target is one of names (index relations_open_target), other than
// imports and calls known to leave the project (resolution external), ordered by id, at most limit rows (limit <= 0: 1000).
func (db *DB) UnresolvedTo(ctx context.Context, projectID int64, names []string, limit int) ([]GraphRelation, error) {
	if len(names) == 0 {
		return nil, nil
	}
	if limit <= 0 {
		limit = 1000
	}
	var out []GraphRelation
	for start := 0; start < len(names) && len(out) < limit; start += 400 {
		end := min(start+400, len(names))
		args := []any{projectID}
		for _, n := range names[start:end] {
			args = append(args, n)
		}
		args = append(args, limit-len(out))
		rows, err := db.sql.QueryContext(ctx, unresolvedToSQL(end-start), args...)
		if err != nil {
			return nil, db.classify("read relations", err)
		}
		if out, err = scanGraphRelations(rows, out); err != nil {
			return nil, db.classify("read relations", err)
		}
	}
	return out, nil
}

// unresolvedToSQL is UnresolvedTo's statement for n names (its condition
// coalesce(dst_chunk, 0) = 0, written as the partial index's, selects
// it; no index on dst_chunk can serve it).
func unresolvedToSQL(n int) string {
	return "SELECT " + graphRelCols + " FROM relations WHERE project_id = ? AND target IN (" +
		placeholders(n) + ") AND coalesce(dst_chunk, 0) = 0 AND kind != 'imports' AND resolution != 'external' ORDER BY id LIMIT ?"
}

// FileImports returns the imports relations of the given files (index
// relations_file), ordered by id.
func (db *DB) FileImports(ctx context.Context, fileIDs []int64) ([]GraphRelation, error) {
	var out []GraphRelation
	for start := 0; start < len(fileIDs); start += 400 {
		end := min(start+400, len(fileIDs))
		rows, err := db.sql.QueryContext(ctx, "SELECT "+graphRelCols+" FROM relations WHERE file_id IN ("+placeholders(end-start)+
			") AND kind = 'imports' ORDER BY id", int64Args(fileIDs[start:end])...)
		if err != nil {
			return nil, db.classify("read imports", err)
		}
		if out, err = scanGraphRelations(rows, out); err != nil {
			return nil, db.classify("read imports", err)
		}
	}
	return out, nil
}

// FileRelations returns the relations of one kind extracted from the
// given files (index relations_file), ordered by id.
func (db *DB) FileRelations(ctx context.Context, fileIDs []int64, kind string) ([]GraphRelation, error) {
	var out []GraphRelation
	for start := 0; start < len(fileIDs); start += 400 {
		end := min(start+400, len(fileIDs))
		rows, err := db.sql.QueryContext(ctx, "SELECT "+graphRelCols+" FROM relations WHERE file_id IN ("+placeholders(end-start)+
			") AND kind = ? ORDER BY id", append(int64Args(fileIDs[start:end]), kind)...)
		if err != nil {
			return nil, db.classify("read relations", err)
		}
		if out, err = scanGraphRelations(rows, out); err != nil {
			return nil, db.classify("read relations", err)
		}
	}
	return out, nil
}

// FilePaths returns file id → path for the given files (primary key).
func (db *DB) FilePaths(ctx context.Context, fileIDs []int64) (map[int64]string, error) {
	return db.stringsByID(ctx, "SELECT id, path FROM files WHERE id IN ", fileIDs, "read files")
}

// stringsByID runs query (ending in "IN ") over ids in slices of 400 and
// maps each row's id to its string column.
func (db *DB) stringsByID(ctx context.Context, query string, ids []int64, op string) (map[int64]string, error) {
	out := make(map[int64]string, len(ids))
	for start := 0; start < len(ids); start += 400 {
		end := min(start+400, len(ids))
		rows, err := db.sql.QueryContext(ctx, query+"("+placeholders(end-start)+")", int64Args(ids[start:end])...)
		if err != nil {
			return nil, db.classify(op, err)
		}
		for rows.Next() {
			var id int64
			var v string
			if err := rows.Scan(&id, &v); err != nil {
				rows.Close()
				return nil, db.classify(op, err)
			}
			out[id] = v
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, db.classify(op, err)
		}
	}
	return out, nil
}

// callersByPathSQL counts the distinct callers of n chunks per file of the
// call; the index relations_dst_kind covers it (no table row is read).
func callersByPathSQL(n int) string {
	return "SELECT dst_chunk, file_id, count(DISTINCT src_chunk) FROM relations WHERE dst_chunk IN (" + placeholders(n) +
		") AND kind = 'calls' AND src_chunk IS NOT NULL GROUP BY dst_chunk, file_id"
}

// CallersByPath returns, for each of ids, the number of distinct chunks
// that call it, per file of the caller (index relations_dst_kind, then the
// callers' files by primary key: a call is recorded in its caller's file,
// so the callers' own rows need not be read). Ids nobody calls are absent.
func (db *DB) CallersByPath(ctx context.Context, ids []int64) (map[int64]map[string]int, error) {
	type count struct {
		dst, file int64
		n         int
	}
	var counts []count
	var fileIDs []int64
	seenFile := map[int64]bool{}
	for start := 0; start < len(ids); start += 400 {
		end := min(start+400, len(ids))
		rows, err := db.sql.QueryContext(ctx, callersByPathSQL(end-start), int64Args(ids[start:end])...)
		if err != nil {
			return nil, db.classify("count callers", err)
		}
		for rows.Next() {
			var c count
			if err := rows.Scan(&c.dst, &c.file, &c.n); err != nil {
				rows.Close()
				return nil, db.classify("count callers", err)
			}
			counts = append(counts, c)
			if !seenFile[c.file] {
				seenFile[c.file] = true
				fileIDs = append(fileIDs, c.file)
			}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, db.classify("count callers", err)
		}
	}
	paths, err := db.FilePaths(ctx, fileIDs)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]map[string]int, len(ids))
	for _, c := range counts {
		if out[c.dst] == nil {
			out[c.dst] = map[string]int{}
		}
		out[c.dst][paths[c.file]] += c.n
	}
	return out, nil
}

// ChunkVectors returns id → stored vector BLOB of the given chunks for
// model (chunks primary key, then the vectors primary key). Chunks embedded
// with another model or without a vector are absent.
func (db *DB) ChunkVectors(ctx context.Context, ids []int64, model string) (map[int64][]byte, error) {
	out := make(map[int64][]byte, len(ids))
	for start := 0; start < len(ids); start += 400 {
		end := min(start+400, len(ids))
		args := append(int64Args(ids[start:end]), model)
		rows, err := db.sql.QueryContext(ctx, "SELECT c.id, v.vec FROM chunks c JOIN vectors v ON v.model = c.model AND v.text_hash = c.text_hash WHERE c.id IN ("+
			placeholders(end-start)+") AND c.model = ?", args...)
		if err != nil {
			return nil, db.classify("read vectors", err)
		}
		for rows.Next() {
			var id int64
			var blob []byte
			if err := rows.Scan(&id, &blob); err != nil {
				rows.Close()
				return nil, db.classify("read vectors", err)
			}
			out[id] = blob
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, db.classify("read vectors", err)
		}
	}
	return out, nil
}

// SymbolsWithShortPrefix returns distinct symbols of a project's non-text
// chunks whose short name starts with prefix (a range scan on
// chunks_project_short; case-sensitive), at most limit.
func (db *DB) SymbolsWithShortPrefix(ctx context.Context, projectID int64, prefix string, limit int) ([]string, error) {
	return db.symbolRange(ctx, "short", projectID, prefix, limit)
}

// SymbolsWithPrefix returns distinct symbols of a project's non-text chunks
// that start with prefix (a range scan on chunks_project_symbol;
// case-sensitive), at most limit.
func (db *DB) SymbolsWithPrefix(ctx context.Context, projectID int64, prefix string, limit int) ([]string, error) {
	return db.symbolRange(ctx, "symbol", projectID, prefix, limit)
}

func (db *DB) symbolRange(ctx context.Context, col string, projectID int64, prefix string, limit int) ([]string, error) {
	if prefix == "" || limit <= 0 {
		return nil, nil
	}
	q := "SELECT DISTINCT symbol FROM chunks WHERE project_id = ? AND " + col + " >= ?"
	args := []any{projectID, prefix}
	if hi, ok := prefixUpper(prefix); ok {
		q += " AND " + col + " < ?"
		args = append(args, hi)
	}
	q += " AND kind != 'text' LIMIT ?"
	args = append(args, limit)
	return db.symbolList(ctx, q, args...)
}

// SymbolsWithShortContaining returns distinct symbols of a project's
// non-text chunks whose short name contains sub, case-insensitively for
// ASCII. It walks the project's part of chunks_project_short and stops
// after limit matches.
func (db *DB) SymbolsWithShortContaining(ctx context.Context, projectID int64, sub string, limit int) ([]string, error) {
	if sub == "" || limit <= 0 {
		return nil, nil
	}
	esc := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(sub)
	if db.pg {
		// ILIKE: SQLite's LIKE ignores ASCII case; the C collation keeps
		// ILIKE's folding to ASCII.
		return db.symbolList(ctx, `SELECT DISTINCT symbol FROM chunks
			WHERE project_id = ? AND short ILIKE ? ESCAPE '\' AND kind != 'text' LIMIT ?`, projectID, "%"+esc+"%", limit)
	}
	return db.symbolList(ctx, `SELECT DISTINCT symbol FROM chunks INDEXED BY chunks_project_short
		WHERE project_id = ? AND short LIKE ? ESCAPE '\' AND kind != 'text' LIMIT ?`, projectID, "%"+esc+"%", limit)
}

func (db *DB) symbolList(ctx context.Context, q string, args ...any) ([]string, error) {
	rows, err := db.sql.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, db.classify("look up similar symbols", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, db.classify("look up similar symbols", err)
		}
		out = append(out, s)
	}
	return out, db.classify("look up similar symbols", rows.Err())
}

// prefixUpper returns the smallest string greater than every string with
// the given prefix (byte order), false when there is none.
func prefixUpper(p string) (string, bool) {
	b := []byte(p)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xff {
			b[i]++
			return string(b[:i+1]), true
		}
	}
	return "", false
}

func int64Args(ids []int64) []any {
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = id
	}
	return out
}

// ChunkAt finds the chunk of a project with the given symbol, path and
// start line (index chunks_project_symbol; text chunks included), for
// callers that hold a search hit rather than a chunk id. ok is false when
// there is none.
func (db *DB) ChunkAt(ctx context.Context, projectID int64, symbol, path string, startLine int) (GraphChunk, bool, error) {
	rows, err := db.sql.QueryContext(ctx, "SELECT "+graphChunkCols+" FROM chunks WHERE project_id = ? AND symbol = ? AND path = ? AND start_line = ? ORDER BY id LIMIT 1",
		projectID, symbol, path, startLine)
	if err != nil {
		return GraphChunk{}, false, db.classify("look up chunk", err)
	}
	list, err := scanGraphChunks(rows, false)
	if err != nil || len(list) == 0 {
		return GraphChunk{}, false, db.classify("look up chunk", err)
	}
	return list[0], true, nil
}

// ContainsNamed returns the contains relations of a project whose target
// is one of names, resolved or not (index relations_contains_target),
// ordered by id, at most limit rows (limit <= 0: 1000).
func (db *DB) ContainsNamed(ctx context.Context, projectID int64, names []string, limit int) ([]GraphRelation, error) {
	return db.relationsWhereIn(ctx, projectID, "target", "kind = 'contains'", names, limit)
}

// OrphanContainsFrom returns the contains relations whose source symbol is
// one of symbols but that have no source chunk (index relations_orphan):
// Go methods declared in another file than their type, whose contains
// relation could not be tied to the type chunk.
func (db *DB) OrphanContainsFrom(ctx context.Context, projectID int64, symbols []string, limit int) ([]GraphRelation, error) {
	return db.relationsWhereIn(ctx, projectID, "src_symbol", "coalesce(src_chunk, 0) = 0 AND kind = 'contains'", symbols, limit)
}

// relationsWhereIn reads relations whose column is one of values and that
// meet cond, ordered by id, at most limit rows. cond is written into the
// statement as it is (a partial index is used only when the statement
// holds its condition literally): a constant of this package, never input.
func (db *DB) relationsWhereIn(ctx context.Context, projectID int64, column, cond string, values []string, limit int) ([]GraphRelation, error) {
	if len(values) == 0 {
		return nil, nil
	}
	if limit <= 0 {
		limit = 1000
	}
	var out []GraphRelation
	for start := 0; start < len(values) && len(out) < limit; start += 400 {
		end := min(start+400, len(values))
		args := []any{projectID}
		for _, v := range values[start:end] {
			args = append(args, v)
		}
		args = append(args, limit-len(out))
		rows, err := db.sql.QueryContext(ctx, relationsWhereInSQL(column, cond, end-start), args...)
		if err != nil {
			return nil, db.classify("read relations", err)
		}
		if out, err = scanGraphRelations(rows, out); err != nil {
			return nil, db.classify("read relations", err)
		}
	}
	return out, nil
}

// relationsWhereInSQL is relationsWhereIn's statement for n values.
func relationsWhereInSQL(column, cond string, n int) string {
	return "SELECT " + graphRelCols + " FROM relations WHERE project_id = ? AND " + column + " IN (" +
		placeholders(n) + ") AND " + cond + " ORDER BY id LIMIT ?"
}

// FactRow is one stored type fact (lang.Fact) with its file.
type FactRow struct {
	FileID int64
	Kind   string
	Owner  string
	Name   string
	Type   string
	Sig    string
}

// FilePathsOf returns file id → path of every file of a project.
func (db *DB) FilePathsOf(ctx context.Context, projectID int64) (map[int64]string, error) {
	rows, err := db.sql.QueryContext(ctx, "SELECT id, path FROM files WHERE project_id = ?", projectID)
	if err != nil {
		return nil, db.classify("read files", err)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var id int64
		var p string
		if err := rows.Scan(&id, &p); err != nil {
			return nil, db.classify("read files", err)
		}
		out[id] = p
	}
	return out, db.classify("read files", rows.Err())
}

// EdgeResolution is the outcome of resolving one stored relation.
type EdgeResolution struct {
	ID         int64
	DstChunk   int64 // 0: none
	Resolution string
	Detail     string
}

// DerivedRelation is a relation computed by resolution (Go implements,
// dispatch), not read from a file.
type DerivedRelation struct {
	FileID     int64
	Kind       string
	SrcChunk   int64
	SrcSymbol  string
	Target     string
	Line       int
	DstChunk   int64
	Resolution string
	Detail     string
}

// ApplyResolution stores resolved targets and kinds for many relations
// and, when replaceDerived is set, replaces the project's derived relations
// with derived, in one transaction: the updates go into a temporary table
// with multi-row inserts, then one UPDATE … FROM applies them.
func (db *DB) ApplyResolution(ctx context.Context, projectID int64, updates []EdgeResolution, derived []DerivedRelation, replaceDerived bool) error {
	slices.SortFunc(updates, func(a, b EdgeResolution) int { return cmp.Compare(a.ID, b.ID) }) // rowid order: sequential pages
	return db.inTx(ctx, "resolve relations", func(tx *sql.Tx) error {
		if len(updates) > 0 {
			// The connection's temporary schema: temp on SQLite, pg_temp on PostgreSQL.
			tmp, ddl := "temp", "CREATE TEMP TABLE IF NOT EXISTS resolved(id INTEGER PRIMARY KEY, dst INTEGER, res TEXT, detail TEXT)"
			if db.pg {
				tmp, ddl = "pg_temp", "CREATE TEMP TABLE IF NOT EXISTS resolved(id BIGINT PRIMARY KEY, dst BIGINT, res TEXT, detail TEXT)"
			}
			if _, err := tx.ExecContext(ctx, ddl); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, "DELETE FROM "+tmp+".resolved"); err != nil {
				return err
			}
			b := newBulk(tx, "INSERT INTO "+tmp+".resolved(id, dst, res, detail)", 4)
			for _, u := range updates {
				if err := b.add(ctx, u.ID, chunkRef(u.DstChunk), u.Resolution, u.Detail); err != nil {
					return err
				}
			}
			if err := b.flush(ctx); err != nil {
				return err
			}
			if db.pg {
				// Temporary tables have no statistics until analysed.
				if _, err := tx.ExecContext(ctx, "ANALYZE pg_temp.resolved"); err != nil {
					return err
				}
			}
			if _, err := tx.ExecContext(ctx, "UPDATE relations SET dst_chunk = r.dst, resolution = r.res, detail = r.detail FROM "+tmp+".resolved AS r WHERE relations.id = r.id"+
				// Rows that keep their resolution are not rewritten (nor are their index entries).
				" AND (relations.dst_chunk IS DISTINCT FROM r.dst OR relations.resolution IS DISTINCT FROM r.res OR relations.detail IS DISTINCT FROM r.detail)"); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, "DELETE FROM "+tmp+".resolved"); err != nil {
				return err
			}
		}
		if !replaceDerived {
			return nil
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM relations WHERE project_id = ? AND derived = 1", projectID); err != nil {
			return err
		}
		b := newBulk(tx, "INSERT INTO relations(project_id, file_id, kind, src_chunk, src_symbol, target, qualifier, line, dst_chunk, resolution, detail, derived)", 12)
		for _, d := range derived {
			if err := b.add(ctx, projectID, d.FileID, d.Kind, chunkRef(d.SrcChunk), d.SrcSymbol, d.Target, "", d.Line, chunkRef(d.DstChunk), d.Resolution, d.Detail, 1); err != nil {
				return err
			}
		}
		return b.flush(ctx)
	})
}

// ForEachEdge calls fn for every relation of a project that resolution
// decides (all but derived rows), in id order, streaming: the row passed to
// fn is reused between calls.
func (db *DB) ForEachEdge(ctx context.Context, projectID int64, fn func(*EdgeRow) error) error {
	rows, err := db.sql.QueryContext(ctx, `SELECT id, file_id, kind, COALESCE(src_chunk,0), target, qualifier, recv, line,
		COALESCE(dst_chunk,0), resolution, detail FROM relations WHERE `+db.projectFilter(ctx, projectID)+` AND derived = 0 ORDER BY id`, projectID)
	if err != nil {
		return db.classify("read relations", err)
	}
	defer rows.Close()
	var e EdgeRow
	for rows.Next() {
		if err := rows.Scan(&e.ID, &e.FileID, &e.Kind, &e.SrcChunk, &e.Target, &e.Qualifier, &e.Recv, &e.Line, &e.DstChunk, &e.Resolution, &e.Detail); err != nil {
			return db.classify("read relations", err)
		}
		if err := fn(&e); err != nil {
			return err
		}
	}
	return db.classify("read relations", rows.Err())
}
