package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file holds the full-text index of both backends. SQLite keeps an
// FTS5 table (chunks_fts: name, path, body; tokenizer unicode61 with
// remove_diacritics 0) and ranks with its bm25(). PostgreSQL keeps the same
// index as plain tables — fts_postings (term, chunk, per-column term
// frequencies and positions), fts_docs (each chunk's length in tokens) and
// fts_stats (rows and tokens per project) — and computes FTS5's BM25 in SQL
// with the same constants, so both return the same scores. The tokens come
// from ftsTokenize, which reproduces unicode61's tokenisation.

// FTS5's bm25 constants (fts5_aux.c).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// ftsTokenize calls fn with each token of s and its position (0, 1, …) as
// FTS5's unicode61 tokenizer with remove_diacritics 0 produces them: runs
// of letters (L*), numbers (N*) and private-use characters (Co), folded to
// lower case; everything else separates tokens. It returns the number of
// tokens.
func ftsTokenize(s string, fn func(tok string, pos int)) int {
	n := 0
	var b strings.Builder
	emit := func() {
		if b.Len() > 0 {
			fn(b.String(), n)
			n++
			b.Reset()
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
				b.WriteByte(c)
			case c >= 'A' && c <= 'Z':
				b.WriteByte(c + 'a' - 'A')
			default:
				emit()
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			emit()
		case ftsTokenChar(r):
			b.WriteRune(ftsFold(r))
		case ftsDiacritic(r) && b.Len() > 0:
			// A combining diacritic continues a token, never starts one.
			b.WriteRune(r)
		default:
			emit()
		}
	}
	emit()
	return n
}

// ftsTokenChar reports whether unicode61 keeps a non-ASCII character in a
// token: categories L*, N* and Co, and characters its (older) Unicode
// tables do not assign, as Go's tables decide them, corrected by
// ftsExceptions where the Unicode versions differ.
func ftsTokenChar(r rune) bool {
	if e, ok := ftsException(r); ok {
		return e.tok
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r) || !assigned(r)
}

// assigned reports whether Go's Unicode tables give r a category.
func assigned(r rune) bool {
	for _, t := range unicode.Categories {
		if unicode.Is(t, r) {
			return true
		}
	}
	return false
}

// ftsExc is a range of characters where unicode61 differs from the rule
// above: tok says whether they are token characters, delta is added to
// each to fold it.
type ftsExc struct {
	lo, hi rune
	tok    bool
	delta  rune
}

// ftsException finds r in ftsExceptions (ftstables.go, generated from the
// linked SQLite by TestGenerateFTSTables).
func ftsException(r rune) (ftsExc, bool) {
	i := sort.Search(len(ftsExceptions), func(i int) bool { return ftsExceptions[i].hi >= r })
	if i < len(ftsExceptions) && ftsExceptions[i].lo <= r {
		return ftsExceptions[i], true
	}
	return ftsExc{}, false
}

// ftsFold is unicode61's case folding of a non-ASCII character without
// diacritic removal: Unicode's simple case folding, which maps every
// member of a case orbit (Σ σ ς, K k K) to the lower case of its upper
// case; a character alone in its orbit keeps its lower-case mapping.
func ftsFold(r rune) rune {
	if e, ok := ftsException(r); ok {
		return r + e.delta
	}
	if unicode.SimpleFold(r) == r {
		return r // İ: its lower case i belongs to another orbit
	}
	return unicode.ToLower(unicode.ToUpper(r))
}

// ftsDiacritic reports whether unicode61 lets r continue a token although
// it is no letter: the combining marks U+0300–U+0331 that Latin letters
// decompose to (sqlite3Fts5UnicodeIsdiacritic).
func ftsDiacritic(r rune) bool {
	const mask0, mask1 = 0x08029FDF, 0x000361F8
	switch {
	case r < 0x300 || r > 0x331:
		return false
	case r < 0x320:
		return mask0&(1<<(r-0x300)) != 0
	}
	return mask1&(1<<(r-0x320)) != 0
}

// pgTermMax is the longest token stored as itself in fts_postings; a
// longer one (a hex blob, a base64 line) is stored as its first bytes and
// a hash (pgTermKey), since a b-tree entry is limited to about 2.7 kB and
// FTS5 has no such limit.
const pgTermMax = 256

// pgTermKey is the fts_postings key of a token: the token itself, or for a
// long one a prefix, "#" (never part of a token) and its SHA-256.
func pgTermKey(tok string) string {
	if len(tok) <= pgTermMax {
		return tok
	}
	sum := sha256.Sum256([]byte(tok))
	return tok[:128] + "#" + hex.EncodeToString(sum[:])
}

// ftsPhrase returns the tokens of an FTS5 expression made of one quoted
// phrase ("…", with "" for a quote), which is every expression the
// product sends (query.FTSQuote). Anything else is refused.
func ftsPhrase(match string) ([]string, error) {
	if len(match) < 2 || match[0] != '"' || match[len(match)-1] != '"' {
		return nil, fmt.Errorf("full-text expression %q: only one quoted phrase is supported on PostgreSQL", match)
	}
	inner := match[1 : len(match)-1]
	if strings.Contains(strings.ReplaceAll(inner, `""`, ""), `"`) {
		return nil, fmt.Errorf("full-text expression %q: only one quoted phrase is supported on PostgreSQL", match)
	}
	var toks []string
	ftsTokenize(strings.ReplaceAll(inner, `""`, `"`), func(t string, _ int) { toks = append(toks, t) })
	return toks, nil
}

// ftsWriter adds the full-text rows of new chunks inside a write
// transaction.
type ftsWriter interface {
	add(ctx context.Context, id int64, name, path, body string) error
	flush(ctx context.Context) error
}

// newFTSWriter returns the backend's full-text writer for one batch.
func (db *DB) newFTSWriter(tx *sql.Tx, projectID int64) ftsWriter {
	if db.pg {
		return &pgFTSWriter{tx: tx, projectID: projectID}
	}
	return &sqliteFTSWriter{tx: tx}
}

// sqliteFTSWriter inserts FTS5 rows (the table tokenizes them), all of a
// batch at its end, in as few statements as SQLite's limit on bound
// values allows. FTS5 keeps new rows in memory and writes them out as a
// segment whenever a statement of the transaction opens a savepoint (any
// multi-row INSERT does) and at commit: rows interleaved with the other
// tables' inserts made a segment of a few dozen rows each time, thousands
// per index, all merged again later; rows written last make one segment
// per batch.
type sqliteFTSWriter struct {
	tx   *sql.Tx
	args []any
}

// ftsRowsPerStatement keeps a statement's bound values (4 per row) under
// SQLite's default limit of 32,766.
const ftsRowsPerStatement = 8000

func (w *sqliteFTSWriter) add(_ context.Context, id int64, name, path, body string) error {
	w.args = append(w.args, id, name, path, body)
	return nil
}

func (w *sqliteFTSWriter) flush(ctx context.Context) error {
	for len(w.args) > 0 {
		n := min(len(w.args)/4, ftsRowsPerStatement)
		row := "(?, ?, ?, ?)"
		q := "INSERT INTO chunks_fts(rowid, name, path, body) VALUES " + strings.Repeat(row+",", n-1) + row
		if _, err := w.tx.ExecContext(ctx, q, w.args[:4*n]...); err != nil {
			return err
		}
		w.args = w.args[4*n:]
	}
	return nil
}

// ftsDelete removes the full-text rows of the chunks that sub selects
// (a query of chunk ids whose arguments are args).
func (db *DB) ftsDelete(ctx context.Context, tx *sql.Tx, projectID int64, sub string, args ...any) error {
	if !db.pg {
		_, err := tx.ExecContext(ctx, "DELETE FROM chunks_fts WHERE rowid IN ("+sub+")", args...)
		return err
	}
	// The ids first (sub may be numbered ?1 and reused), then three statements over them.
	rows, err := tx.QueryContext(ctx, sub, args...)
	if err != nil {
		return err
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(ids) == 0 {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE fts_stats s SET rows = s.rows - d.n, tokens = s.tokens - d.t
		FROM (SELECT count(*) AS n, COALESCE(sum(len), 0) AS t FROM fts_docs WHERE chunk_id = ANY(?::bigint[])) d
		WHERE s.project_id = ?`, ids, projectID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM fts_postings WHERE chunk_id = ANY(?::bigint[])", ids); err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, "DELETE FROM fts_docs WHERE chunk_id = ANY(?::bigint[])", ids)
	return err
}

// pgFTSWriter accumulates postings and document lengths and writes them
// with one INSERT … SELECT FROM unnest(arrays) per few thousand rows.
type pgFTSWriter struct {
	tx        *sql.Tx
	projectID int64
	// postings, column-wise
	term                   []string
	chunk, project         []int64
	doclen, tfN, tfP, tfB  []int32
	posN, posP, posB       []string
	docIDs                 []int64
	docLens                []int32
	rows, tokens           int64
	pendingRows, totalRows int
}

type posting struct {
	tf  [3]int32
	pos [3][]int
}

func (w *pgFTSWriter) add(ctx context.Context, id int64, name, path, body string) error {
	terms := map[string]*posting{}
	var order []string
	total := 0
	for col, text := range [3]string{name, path, body} {
		total += ftsTokenize(text, func(t string, pos int) {
			p := terms[t]
			if p == nil {
				p = &posting{}
				terms[t] = p
				order = append(order, t)
			}
			p.tf[col]++
			p.pos[col] = append(p.pos[col], pos)
		})
	}
	for _, t := range order {
		p := terms[t]
		w.term = append(w.term, pgTermKey(t))
		w.chunk = append(w.chunk, id)
		w.project = append(w.project, w.projectID)
		w.doclen = append(w.doclen, int32(total))
		w.tfN, w.tfP, w.tfB = append(w.tfN, p.tf[0]), append(w.tfP, p.tf[1]), append(w.tfB, p.tf[2])
		w.posN, w.posP, w.posB = append(w.posN, intArray(p.pos[0])), append(w.posP, intArray(p.pos[1])), append(w.posB, intArray(p.pos[2]))
	}
	w.docIDs = append(w.docIDs, id)
	w.docLens = append(w.docLens, int32(total))
	w.rows++
	w.tokens += int64(total)
	w.pendingRows += len(order)
	if w.pendingRows >= 20000 {
		return w.flushPostings(ctx)
	}
	return nil
}

// intArray is a PostgreSQL array literal, "" for none.
func intArray(p []int) string {
	if len(p) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteByte('{')
	for i, v := range p {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(v))
	}
	b.WriteByte('}')
	return b.String()
}

func (w *pgFTSWriter) flushPostings(ctx context.Context) error {
	if len(w.term) == 0 {
		return nil
	}
	_, err := w.tx.ExecContext(ctx, `INSERT INTO fts_postings(term, chunk_id, project_id, doclen, tf_name, tf_path, tf_body, pos_name, pos_path, pos_body)
		SELECT t, c, p, d, a, b, e, NULLIF(x, '')::int[], NULLIF(y, '')::int[], NULLIF(z, '')::int[]
		FROM unnest(?::text[], ?::bigint[], ?::bigint[], ?::int[], ?::int[], ?::int[], ?::int[], ?::text[], ?::text[], ?::text[]) AS u(t, c, p, d, a, b, e, x, y, z)`,
		w.term, w.chunk, w.project, w.doclen, w.tfN, w.tfP, w.tfB, w.posN, w.posP, w.posB)
	w.term, w.chunk, w.project, w.doclen = w.term[:0], w.chunk[:0], w.project[:0], w.doclen[:0]
	w.tfN, w.tfP, w.tfB, w.posN, w.posP, w.posB = w.tfN[:0], w.tfP[:0], w.tfB[:0], w.posN[:0], w.posP[:0], w.posB[:0]
	w.totalRows += w.pendingRows
	w.pendingRows = 0
	return err
}

func (w *pgFTSWriter) flush(ctx context.Context) error {
	if err := w.flushPostings(ctx); err != nil {
		return err
	}
	if len(w.docIDs) == 0 {
		return nil
	}
	if _, err := w.tx.ExecContext(ctx, `INSERT INTO fts_docs(chunk_id, project_id, len)
		SELECT c, ?, l FROM unnest(?::bigint[], ?::int[]) AS u(c, l)`, w.projectID, w.docIDs, w.docLens); err != nil {
		return err
	}
	if _, err := w.tx.ExecContext(ctx, `INSERT INTO fts_stats(project_id, rows, tokens) VALUES (?, ?, ?)
		ON CONFLICT (project_id) DO UPDATE SET rows = fts_stats.rows + excluded.rows, tokens = fts_stats.tokens + excluded.tokens`,
		w.projectID, w.rows, w.tokens); err != nil {
		return err
	}
	w.docIDs, w.docLens, w.rows, w.tokens = w.docIDs[:0], w.docLens[:0], 0, 0
	return nil
}

// pgPhraseHits returns the SQL matches of a phrase of n tokens (bound to
// the first n arguments): one row per chunk containing it, with the
// phrase's hits per column (name, path, body) and the chunk's length.
// One token reads its postings; several join the postings of each token
// on the chunk and count the positions where they follow each other.
func pgPhraseHits(n int) string {
	if n == 1 {
		return `SELECT p0.chunk_id, p0.project_id, p0.doclen, p0.tf_name AS hn, p0.tf_path AS hp, p0.tf_body AS hb
			FROM fts_postings p0 WHERE p0.term = ?`
	}
	var from, where strings.Builder
	from.WriteString("fts_postings p0")
	where.WriteString("p0.term = ?")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&from, " JOIN fts_postings p%d ON p%d.chunk_id = p0.chunk_id", i, i)
		fmt.Fprintf(&where, " AND p%d.term = ?", i)
	}
	hits := func(col string) string {
		var b strings.Builder
		fmt.Fprintf(&b, "(SELECT count(*) FROM unnest(p0.%s) AS x WHERE true", col)
		for i := 1; i < n; i++ {
			fmt.Fprintf(&b, " AND x + %d = ANY(p%d.%s)", i, i, col)
		}
		b.WriteString(")")
		return b.String()
	}
	return fmt.Sprintf(`SELECT * FROM (SELECT p0.chunk_id, p0.project_id, p0.doclen, %s AS hn, %s AS hp, %s AS hb
		FROM %s WHERE %s) ph WHERE hn + hp + hb > 0`, hits("pos_name"), hits("pos_path"), hits("pos_body"), from.String(), where.String())
}

// tokenArgs are the fts_postings keys of a phrase's tokens, as arguments.
func tokenArgs(toks []string) []any {
	out := make([]any, len(toks))
	for i, t := range toks {
		out[i] = pgTermKey(t)
	}
	return out
}

// pgFTSMatch is FTSMatch on PostgreSQL: FTS5's bm25() computed in SQL.
// N (rows), the average row length and the phrase's document frequency
// count every project, as FTS5's do; the caller turns the idf into the
// project's own.
func (db *DB) pgFTSMatch(ctx context.Context, projectID int64, ids IDRange, match string, w FTSWeights, limit int) ([]FTSHit, error) {
	toks, err := ftsPhrase(match)
	if err != nil || len(toks) == 0 {
		return nil, err
	}
	hits := pgPhraseHits(len(toks))
	dfSQL := "SELECT count(*) FROM (" + hits + ") d"
	if len(toks) == 1 {
		dfSQL = "SELECT count(*) FROM fts_postings WHERE term = ?"
	}
	// Every constant is float8, and the expression keeps fts5_aux.c's order
	// of operations: idf * (f * (k1 + 1)) / (f + k1 * (1 - b + b * D / avgdl)).
	score := func(f string) string {
		return fmt.Sprintf("k.idf * ((%s)::float8 * (k.k1 + 1.0::float8)) / ((%s)::float8 + k.k1 * (1::float8 - k.b + k.b * m.doclen::float8 / k.avgdl))", f, f)
	}
	weighted := "k.wn * m.hn + k.wp * m.hp + k.wb * m.hb"
	// The statistics are computed once (MATERIALIZED): inlined, a generic
	// plan may recompute the document frequency for every matching row.
	q := `WITH st AS MATERIALIZED (SELECT COALESCE(sum(rows), 0)::float8 AS n, COALESCE(sum(tokens), 0)::float8 AS t FROM fts_stats),
		df AS MATERIALIZED (` + dfSQL + `),
		k AS MATERIALIZED (SELECT CASE WHEN x > 0 THEN x ELSE 1e-6::float8 END AS idf, st.t / st.n AS avgdl,
				?::float8 AS k1, ?::float8 AS b, ?::float8 AS wn, ?::float8 AS wp, ?::float8 AS wb
			FROM st, df, LATERAL (SELECT ln((st.n - df.count::float8 + 0.5::float8) / (df.count::float8 + 0.5::float8)) AS x) l)
		SELECT m.chunk_id, ` + score(weighted) + `, ` + score("m.hn") + `, ` + score("m.hp") + `, ` + score("m.hb") + `
		FROM (` + hits + `) m, k WHERE true`
	// Arguments in the order their placeholders appear: df's tokens, k's
	// constants and weights, the hits' tokens, the filters.
	var args []any
	args = append(args, tokenArgs(toks)...)
	args = append(args, bm25K1, bm25B, w.Name, w.Path, w.Body)
	args = append(args, tokenArgs(toks)...)
	if projectID != 0 {
		q += " AND m.project_id = ?"
		args = append(args, projectID)
	}
	if ids.Lo != 0 || ids.Hi != 0 {
		q += " AND m.chunk_id BETWEEN ? AND ?"
		args = append(args, ids.Lo, ids.Hi)
	}
	if limit > 0 {
		// By the weighted score, then id: FTS5's ORDER BY bm25(…), rowid.
		q += " ORDER BY 2 DESC, 1 LIMIT ?"
		args = append(args, limit)
	} else {
		q += " ORDER BY 1" // FTS5 returns every match in rowid order
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
		out = append(out, h)
	}
	return out, db.classify("full-text match", rows.Err())
}

// pgFTSCount is FTSCount on PostgreSQL.
func (db *DB) pgFTSCount(ctx context.Context, match string, projectID int64, ids IDRange) (int, error) {
	toks, err := ftsPhrase(match)
	if err != nil || len(toks) == 0 {
		return 0, err
	}
	q := "SELECT count(*) FROM (" + pgPhraseHits(len(toks)) + ") m WHERE true"
	args := tokenArgs(toks)
	if projectID != 0 {
		q += " AND m.project_id = ?"
		args = append(args, projectID)
		if ids.Lo != 0 || ids.Hi != 0 {
			q += " AND m.chunk_id BETWEEN ? AND ?"
			args = append(args, ids.Lo, ids.Hi)
		}
	}
	var n int
	err = db.sql.QueryRowContext(ctx, q, args...).Scan(&n)
	return n, db.classify(fmt.Sprintf("full-text count %q", match), err)
}

// pgFTSDocFreq is FTSDocFreq on PostgreSQL: the postings of each token.
func (db *DB) pgFTSDocFreq(ctx context.Context, tokens []string) (map[string]int, error) {
	out := make(map[string]int, len(tokens))
	keys := make([]string, len(tokens))
	byKey := make(map[string]string, len(tokens))
	for i, t := range tokens {
		keys[i] = pgTermKey(t)
		byKey[keys[i]] = t
	}
	rows, err := db.sql.QueryContext(ctx, "SELECT term, count(*) FROM fts_postings WHERE term = ANY(?::text[]) GROUP BY term", keys)
	if err != nil {
		return nil, db.classify("read vocabulary", err)
	}
	defer rows.Close()
	for rows.Next() {
		var t string
		var n int
		if err := rows.Scan(&t, &n); err != nil {
			return nil, db.classify("read vocabulary", err)
		}
		out[byKey[t]] = n
	}
	return out, db.classify("read vocabulary", rows.Err())
}
