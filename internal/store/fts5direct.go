package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"codectx/internal/topk"
)

// A token that many rows hold is scored here, in Go, from its postings
// (fts5read.go) and the rows' lengths, instead of by FTS5's bm25(): the
// same formula and statistics as fts5_aux.c's, so the scores and their
// order are FTS5's. The rows' lengths (chunks_fts_docsize) are read once
// per state of the full-text table and cached; the state is named by its
// structure and averages records, which every committed write changes.

// ftsDirectMin is the fewest rows a token must hold to be scored from its
// postings; FTS5 answers rarer ones in under half a millisecond, about
// what reading the postings costs. (A variable for the tests.)
var ftsDirectMin = 100

// docLenCache holds the row lengths of a few (state, id range, project)
// keys.
type docLenCache struct {
	mu      sync.Mutex
	entries []*docLens
}

// docLens is the length in tokens of every full-text row of one project
// (or of every row, projectID 0) inside an id range, in one state of the
// full-text table.
type docLens struct {
	state     []byte
	ids       IDRange
	projectID int64
	mu        sync.Mutex
	loaded    bool
	unusable  bool // the sizes could not be read in this state
	// deferred counts, in rows of the range, what the tokens answered by
	// FTS5 while the lengths were not loaded would have cost (see
	// lengthsWorthIt).
	deferred int64
	// Dense by id - lo (-1: no such row, or another project's) when the
	// rows fill at least a quarter of their id span, else a map.
	lo     int64
	lens   []int32
	sparse map[int64]int32
}

// maxDocLens bounds the cached keys (each at most ~16 bytes per row).
const maxDocLens = 4

// get returns the entry for a key, creating it (not yet loaded).
func (c *docLenCache) get(state []byte, ids IDRange, projectID int64) *docLens {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, e := range c.entries {
		if e.ids == ids && e.projectID == projectID && bytes.Equal(e.state, state) {
			// Most recent last.
			c.entries = append(append(c.entries[:i:i], c.entries[i+1:]...), e)
			return e
		}
	}
	e := &docLens{state: bytes.Clone(state), ids: ids, projectID: projectID}
	c.entries = append(c.entries, e)
	if len(c.entries) > maxDocLens {
		c.entries = slices.Delete(c.entries, 0, len(c.entries)-maxDocLens)
	}
	return e
}

// load reads the lengths inside tx (the state the key names).
func (d *docLens) load(ctx context.Context, tx *sql.Tx) error {
	lo, hi := d.ids.Lo, d.ids.Hi
	if lo == 0 && hi == 0 {
		if err := tx.QueryRowContext(ctx, "SELECT COALESCE(min(id), 0), COALESCE(max(id), -1) FROM chunks_fts_docsize").Scan(&lo, &hi); err != nil {
			return err
		}
	}
	if hi < lo {
		return fmt.Errorf("%w: id range %d–%d", errFTS5Format, lo, hi)
	}
	// Two aggregates over the same rows, in the same (scan) order: the
	// ids as text, the sizes (three varints each, one per column)
	// concatenated. One row for SQLite to return instead of one per chunk
	// (~0.3 µs per row instead of ~0.8).
	q := "SELECT count(*), COALESCE(group_concat(d.id, ','), ''), COALESCE(group_concat(d.sz, ''), '') FROM chunks_fts_docsize d WHERE d.id BETWEEN ? AND ?"
	args := []any{lo, hi}
	if d.projectID != 0 {
		q = "SELECT count(*), COALESCE(group_concat(d.id, ','), ''), COALESCE(group_concat(d.sz, ''), '') FROM chunks_fts_docsize d JOIN chunks c ON c.id = d.id WHERE d.id BETWEEN ? AND ? AND c.project_id = ?"
		args = append(args, d.projectID)
	}
	var n int
	var ids, sizes []byte
	if err := tx.QueryRowContext(ctx, q, args...).Scan(&n, &ids, &sizes); err != nil {
		return err
	}
	rowIDs, lens := make([]int64, 0, n), make([]int32, 0, n)
	for k := 0; k < n; k++ {
		var id int64
		j := 0
		for j < len(ids) && ids[j] != ',' {
			c := ids[j]
			if c < '0' || c > '9' || id > 1<<50 {
				return fmt.Errorf("%w: row id list", errFTS5Format)
			}
			id = id*10 + int64(c-'0')
			j++
		}
		if j == 0 || id < lo || id > hi {
			return fmt.Errorf("%w: row id list", errFTS5Format)
		}
		ids = ids[min(j+1, len(ids)):]
		var total uint64
		for range 3 {
			v, m := sqliteVarintN(sizes)
			if m == 0 {
				return fmt.Errorf("%w: size of row %d", errFTS5Format, id)
			}
			total += v
			sizes = sizes[m:]
		}
		if total > math.MaxInt32 {
			return fmt.Errorf("%w: size of row %d", errFTS5Format, id)
		}
		rowIDs, lens = append(rowIDs, id), append(lens, int32(total))
	}
	if len(ids) != 0 || len(sizes) != 0 {
		return fmt.Errorf("%w: %d rows' sizes with %d bytes left", errFTS5Format, n, len(sizes))
	}
	if span := hi - lo + 1; span <= 4*int64(n) {
		d.lo, d.lens = lo, make([]int32, span)
		for i := range d.lens {
			d.lens[i] = -1
		}
		for i, id := range rowIDs {
			d.lens[id-lo] = lens[i]
		}
		return nil
	}
	d.sparse = make(map[int64]int32, n)
	for i, id := range rowIDs {
		d.sparse[id] = lens[i]
	}
	return nil
}

// length is a row's length, or -1 when the range holds no such row of
// the project.
func (d *docLens) length(id int64) int32 {
	if d.sparse != nil {
		if n, ok := d.sparse[id]; ok {
			return n
		}
		return -1
	}
	if id < d.lo || id-d.lo >= int64(len(d.lens)) {
		return -1
	}
	return d.lens[id-d.lo]
}

// ftsMatchDirect is ftsMatch for a match of one token held by at least
// ftsDirectMin rows; ok is false when the token is rarer (the caller asks
// FTS5). matched counts every row of the project (and ids) that holds the
// token, before the limit.
func (db *DB) ftsMatchDirect(ctx context.Context, projectID int64, ids IDRange, token string, w FTSWeights, limit int, columns bool) (hits []FTSHit, matched int, ok bool, err error) {
	tx, err := db.sql.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, -1, false, err
	}
	defer tx.Rollback()
	post, totals, state, err := termPostings(ctx, tx, token)
	if err != nil || len(post) < ftsDirectMin {
		return nil, -1, false, err
	}
	dl := db.docLens.get(state, ids, projectID)
	span := totals.Rows
	if ids.Lo != 0 || ids.Hi != 0 {
		span = ids.Hi - ids.Lo + 1
	}
	dl.mu.Lock()
	if !dl.loaded {
		if dl.unusable || !lengthsWorthIt(&dl.deferred, int64(len(post)), span) {
			dl.mu.Unlock()
			return nil, -1, false, nil
		}
		if err := dl.load(ctx, tx); err != nil {
			// Sizes it cannot read stay unread in this state (FTS5 scores
			// its tokens); a cancelled load is retried next time.
			dl.unusable = errors.Is(err, errFTS5Format)
			dl.lo, dl.lens, dl.sparse = 0, nil, nil
			dl.mu.Unlock()
			return nil, -1, false, err
		}
		dl.loaded = true
	}
	dl.mu.Unlock()
	// FTS5's statistics: rows, average row length and the token's rows,
	// all over the whole table.
	idf := math.Log((float64(totals.Rows-int64(len(post))) + 0.5) / (float64(len(post)) + 0.5))
	if idf <= 0 {
		idf = 1e-6
	}
	avgdl := float64(totals.Tokens) / float64(totals.Rows)
	bm25 := func(f, D float64) float64 {
		return idf * (f * (bm25K1 + 1.0)) / (f + bm25K1*(1-bm25B+bm25B*D/avgdl))
	}
	// Weighted scores first; the best limit of them, in FTS5's order
	// (ORDER BY bm25(…), rowid: best first, then by id), get their hits.
	best := make([]scoredID, 0, len(post))
	for i, p := range post {
		if (ids.Lo != 0 || ids.Hi != 0) && (p.ID < ids.Lo || p.ID > ids.Hi) {
			continue
		}
		n := dl.length(p.ID)
		if n < 0 {
			if projectID != 0 {
				continue // another project's row
			}
			return nil, -1, false, fmt.Errorf("%w: no size for row %d", errFTS5Format, p.ID)
		}
		f := w.Name*float64(p.TF[0]) + w.Path*float64(p.TF[1]) + w.Body*float64(p.TF[2])
		best = append(best, scoredID{score: bm25(f, float64(n)), id: p.ID, at: int32(i)})
	}
	matched = len(best)
	if limit > 0 {
		best = topScored(best, limit)
	}
	hits = make([]FTSHit, len(best))
	for i, b := range best {
		hits[i] = FTSHit{ID: b.id, Weighted: b.score}
		if columns {
			p := post[b.at]
			D := float64(dl.length(p.ID))
			hits[i].Name, hits[i].Path, hits[i].Body = bm25(float64(p.TF[0]), D), bm25(float64(p.TF[1]), D), bm25(float64(p.TF[2]), D)
		}
	}
	return hits, matched, true, nil
}

// fts5RowCost is about how many rows' lengths the cache reads (~0.3 µs
// each) in the time FTS5 scores one matching row (~3–5 µs). (A variable
// for the tests.)
var fts5RowCost int64 = 10

// lengthsWorthIt decides whether to read the lengths of span rows for a
// token held by rows rows, given deferred, the cost in rows of the tokens
// FTS5 answered so far because the lengths were not worth reading for
// them alone: once the deferred and present cost reach the reading's,
// they are read (so a process never pays more than about twice what the
// better choice in hindsight would have cost; a one-shot search with
// moderately common words keeps FTS5's cost). Otherwise the token's cost
// is added to deferred.
func lengthsWorthIt(deferred *int64, rows, span int64) bool {
	cost := rows * fts5RowCost
	if *deferred+cost >= span {
		return true
	}
	*deferred += cost
	return false
}

// directToken returns the token of a match expression made of one quoted
// token, "" for anything else.
func directToken(match string) string {
	toks, err := ftsPhrase(match)
	if err != nil || len(toks) != 1 {
		return ""
	}
	return toks[0]
}

// scoredID is a row's weighted score and its index in the postings.
type scoredID struct {
	score float64
	id    int64
	at    int32
}

// before reports whether a ranks before b: higher score, then lower id.
func (a scoredID) before(b scoredID) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.id < b.id
}

// topScored returns the best k of s (by before), in order.
func topScored(s []scoredID, k int) []scoredID {
	return topk.Front(s, k, func(a, b scoredID) int {
		switch {
		case a.before(b):
			return -1
		case b.before(a):
			return 1
		}
		return 0
	})
}
