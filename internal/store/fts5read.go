package store

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// This file reads one token's postings straight from the records of the
// SQLite full-text table (chunks_fts_data, chunks_fts_idx) instead of
// through FTS5's MATCH, whose bm25() reads each matching row's size with
// a nested statement (about 5 µs per row in this pure-Go SQLite: ~100 ms
// for a token in 20,000 chunks). The reader knows FTS5's record format
// (fts5_index.c, "structure" version 2 of contentless_delete tables); it
// returns errFTS5Format on anything it does not recognise, and the caller
// then asks FTS5.
//
// The records read:
//   - the averages record (id 1): varints, the row count, then the tokens
//     of each column over every row;
//   - the structure record (id 10): a 4-byte cookie, FF 00 00 01 for
//     version 2, then varints: levels, segments, write counter, and per
//     level the segments under merge and in total, and per segment (oldest
//     first) its id, first and last leaf page, two origins, its tombstone
//     pages, its tombstone entries and its entries;
//   - leaf pages (id segid<<37 | page): a 2-byte offset of the first rowid
//     on the page (0: none), a 2-byte offset of the page index (the varint
//     offsets of the terms starting on the page, the first absolute, then
//     deltas); terms are "0" + the token, the first on a page stored
//     whole (length, bytes), the next ones as shared prefix length, suffix
//     length, suffix; each term is followed by its doclist: rowid (absolute
//     for the first of a doclist and for the first on a page, else the
//     delta from the previous), varint size*2+delete flag, position list
//     (varints: 1 then a column number switches columns, other values are
//     position deltas + 2). A doclist and a position list continue on the
//     next pages until a page where a term starts;
//   - chunks_fts_idx(segid, term, pgno): per leaf page that starts a term,
//     a prefix of that term and pgno = page<<1 | has a doclist index;
//   - tombstone pages (id (segid+65536)<<37 | page): the rows of the
//     segment deleted since: byte 0 the key size (4 or 8), byte 1 whether
//     row 0 is deleted, from byte 8 the keys, big-endian, 0 for none.

var errFTS5Format = errors.New("unrecognised FTS5 record")

// TermPosting is one row holding a token: its rowid (the chunk id) and the
// token's occurrences per column (name, path, body).
type TermPosting struct {
	ID int64
	TF [3]int32
}

// FTSTotals are the full-text table's BM25 statistics: rows and tokens
// over every project.
type FTSTotals struct {
	Rows   int64
	Tokens int64
}

const (
	fts5PageBits     = 31 + 5 + 1 // page, doclist-index height, doclist-index flag
	fts5StructureID  = 10
	fts5AveragesID   = 1
	fts5TombstoneSeg = 1 << 16
)

type fts5Segment struct {
	id, first, last int64
	tombPages       int64
}

// readFTS5Segments decodes the structure record: the segments, newest
// first (the order in which FTS5 lets a row's newest version win).
func readFTS5Segments(rec []byte) ([]fts5Segment, error) {
	if len(rec) < 8 || !bytes.Equal(rec[4:8], []byte{0xff, 0, 0, 1}) {
		return nil, fmt.Errorf("%w: structure record not version 2", errFTS5Format)
	}
	b := rec[8:]
	bad := false
	v := func() int64 {
		x, n := sqliteVarintN(b)
		if n == 0 {
			bad = true
			return 0
		}
		b = b[n:]
		return int64(x)
	}
	nLevel, nSeg := v(), v()
	v() // write counter
	if bad || nLevel > 1<<16 || nSeg > 1<<16 {
		return nil, fmt.Errorf("%w: structure header", errFTS5Format)
	}
	var out []fts5Segment
	for range nLevel {
		v() // segments under merge
		n := v()
		if bad || n > nSeg {
			return nil, fmt.Errorf("%w: structure level", errFTS5Format)
		}
		level := make([]fts5Segment, n)
		for i := range level {
			s := &level[i]
			s.id, s.first, s.last = v(), v(), v()
			v() // origin 1
			v() // origin 2
			s.tombPages = v()
			v() // tombstone entries
			v() // entries
		}
		if bad {
			return nil, fmt.Errorf("%w: structure segment", errFTS5Format)
		}
		slices.Reverse(level) // newest of the level first
		out = append(out, level...)
	}
	if bad || int64(len(out)) != nSeg {
		return nil, fmt.Errorf("%w: %d segments listed, %d counted", errFTS5Format, len(out), nSeg)
	}
	return out, nil
}

// sqliteVarintN is sqliteVarint returning the bytes read (0: malformed).
func sqliteVarintN(b []byte) (uint64, int) {
	var v uint64
	for i := 0; i < 9; i++ {
		if i == len(b) {
			return 0, 0
		}
		if i == 8 {
			return v<<8 | uint64(b[i]), 9
		}
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i]&0x80 == 0 {
			return v, i + 1
		}
	}
	return v, 9
}

// readFTSTotals decodes the averages record.
func readFTSTotals(rec []byte) (FTSTotals, error) {
	var t FTSTotals
	if len(rec) == 0 {
		return t, nil // created, never written
	}
	rows, n := sqliteVarintN(rec)
	if n == 0 {
		return t, fmt.Errorf("%w: averages record", errFTS5Format)
	}
	t.Rows = int64(rows)
	rec = rec[n:]
	for range 3 {
		x, n := sqliteVarintN(rec)
		if n == 0 {
			return t, fmt.Errorf("%w: averages record", errFTS5Format)
		}
		t.Tokens += int64(x)
		rec = rec[n:]
	}
	return t, nil
}

// fts5Reader reads records inside one read transaction.
type fts5Reader struct {
	tx   *sql.Tx
	page *sql.Stmt
}

func (r *fts5Reader) block(ctx context.Context, id int64) ([]byte, error) {
	var b []byte
	err := r.page.QueryRowContext(ctx, id).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return b, err
}

// termPostings reads a token's postings in every segment, in rowid order,
// without the rows deleted since (tombstones, delete markers), inside tx.
// state is the structure and averages records, which name the table's
// state.
func termPostings(ctx context.Context, tx *sql.Tx, token string) (post []TermPosting, totals FTSTotals, state []byte, err error) {
	st, err := tx.PrepareContext(ctx, "SELECT block FROM chunks_fts_data WHERE id = ?")
	if err != nil {
		return nil, totals, nil, err
	}
	defer st.Close()
	r := &fts5Reader{tx: tx, page: st}
	avg, err := r.block(ctx, fts5AveragesID)
	if err != nil {
		return nil, totals, nil, err
	}
	if totals, err = readFTSTotals(avg); err != nil || totals.Rows == 0 {
		return nil, totals, nil, err
	}
	srec, err := r.block(ctx, fts5StructureID)
	if err != nil {
		return nil, totals, nil, err
	}
	segs, err := readFTS5Segments(srec)
	if err != nil {
		return nil, totals, nil, err
	}
	key := []byte("0" + token)
	var lists [][]fts5Entry
	for _, s := range segs {
		l, err := r.segmentTerm(ctx, s, key)
		if err != nil {
			return nil, totals, nil, err
		}
		if len(l) > 0 {
			lists = append(lists, l)
		}
	}
	state = append(append(state, srec...), avg...)
	return mergeFTS5(lists), totals, state, nil
}

// fts5Entry is a row of one segment's doclist.
type fts5Entry struct {
	TermPosting
	del bool // a delete marker: the row's older versions are gone
}

// mergeFTS5 merges per-segment doclists (newest segment first): a row's
// newest entry wins, and a delete marker drops it.
func mergeFTS5(lists [][]fts5Entry) []TermPosting {
	if len(lists) == 1 {
		out := make([]TermPosting, 0, len(lists[0]))
		for _, e := range lists[0] {
			if !e.del {
				out = append(out, e.TermPosting)
			}
		}
		return out
	}
	seen := map[int64]bool{}
	var out []TermPosting
	for _, l := range lists {
		for _, e := range l {
			if seen[e.ID] {
				continue
			}
			seen[e.ID] = true
			if !e.del {
				out = append(out, e.TermPosting)
			}
		}
	}
	slices.SortFunc(out, func(a, b TermPosting) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// segmentTerm reads key's doclist in one segment, without the rows its
// tombstones delete.
func (r *fts5Reader) segmentTerm(ctx context.Context, s fts5Segment, key []byte) ([]fts5Entry, error) {
	var pgno int64
	err := r.tx.QueryRowContext(ctx, "SELECT pgno FROM chunks_fts_idx WHERE segid = ? AND term <= ? ORDER BY term DESC LIMIT 1", s.id, key).Scan(&pgno)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	pg := max(pgno>>1, s.first)
	dl := doclistParser{}
	found := false
	for ; pg <= s.last; pg++ {
		page, err := r.block(ctx, s.id<<fts5PageBits|pg)
		if err != nil {
			return nil, err
		}
		if len(page) < 4 {
			return nil, fmt.Errorf("%w: leaf page %d of segment %d", errFTS5Format, pg, s.id)
		}
		rowidOff := int(binary.BigEndian.Uint16(page))
		szLeaf := int(binary.BigEndian.Uint16(page[2:]))
		if szLeaf > len(page) || szLeaf < 4 {
			return nil, fmt.Errorf("%w: leaf page %d of segment %d", errFTS5Format, pg, s.id)
		}
		terms, err := pageTerms(page[szLeaf:])
		if err != nil {
			return nil, err
		}
		if found {
			// A continuation: the doclist runs to the first term on the page.
			end := szLeaf
			if len(terms) > 0 {
				end = terms[0]
			}
			if err := dl.feed(page, 4, end, rowidOff); err != nil {
				return nil, err
			}
			if len(terms) > 0 {
				break
			}
			continue
		}
		if len(terms) == 0 {
			return nil, fmt.Errorf("%w: indexed page %d holds no term", errFTS5Format, pg)
		}
		// Find key among the terms starting on this page.
		var term []byte
		for i, off := range terms {
			if off >= szLeaf {
				return nil, fmt.Errorf("%w: term offset", errFTS5Format)
			}
			b := page[off:szLeaf]
			keep := 0
			if i > 0 {
				k, n := sqliteVarintN(b)
				if n == 0 || int(k) > len(term) {
					return nil, fmt.Errorf("%w: term prefix", errFTS5Format)
				}
				keep, b = int(k), b[n:]
			}
			m, n := sqliteVarintN(b)
			if n == 0 || int(m) > len(b)-n {
				return nil, fmt.Errorf("%w: term", errFTS5Format)
			}
			term = append(term[:keep], b[n:n+int(m)]...)
			c := bytes.Compare(term, key)
			if c > 0 {
				return nil, nil // not in this segment
			}
			if c < 0 {
				continue
			}
			start := off + (len(page[off:szLeaf]) - len(b)) + n + int(m)
			end := szLeaf
			if i+1 < len(terms) {
				end = terms[i+1]
			}
			found = true
			dl.first = true
			if err := dl.feed(page, start, end, rowidOff); err != nil {
				return nil, err
			}
			if i+1 < len(terms) {
				pg = s.last // the doclist ends on this page
			}
			break
		}
		if !found {
			// The next page starting a term has an index key above key
			// (else the index would have named it): key is not here.
			return nil, nil
		}
	}
	if !found {
		return nil, nil
	}
	if dl.pos > 0 {
		return nil, fmt.Errorf("%w: doclist ends inside a position list", errFTS5Format)
	}
	for _, e := range dl.out {
		// With detail=full every row a token is in has a position.
		if !e.del && e.TF == [3]int32{} {
			return nil, fmt.Errorf("%w: row %d without positions", errFTS5Format, e.ID)
		}
	}
	if s.tombPages == 0 || len(dl.out) == 0 {
		return dl.out, nil
	}
	dead, zero, err := r.tombstones(ctx, s)
	if err != nil {
		return nil, err
	}
	out := dl.out[:0]
	for _, e := range dl.out {
		if (e.ID == 0 && zero) || dead[uint64(e.ID)] {
			continue
		}
		out = append(out, e)
	}
	return out, nil
}

// pageTerms decodes a leaf page's index: the offsets of the terms that
// start on the page.
func pageTerms(idx []byte) ([]int, error) {
	var out []int
	off := 0
	for len(idx) > 0 {
		d, n := sqliteVarintN(idx)
		if n == 0 {
			return nil, fmt.Errorf("%w: page index", errFTS5Format)
		}
		off += int(d)
		out = append(out, off)
		idx = idx[n:]
	}
	return out, nil
}

// tombstones reads a segment's tombstone pages: every deleted rowid, and
// whether row 0 is deleted.
func (r *fts5Reader) tombstones(ctx context.Context, s fts5Segment) (map[uint64]bool, bool, error) {
	dead := map[uint64]bool{}
	zero := false
	for pg := range s.tombPages {
		b, err := r.block(ctx, (s.id+fts5TombstoneSeg)<<fts5PageBits|pg)
		if err != nil {
			return nil, false, err
		}
		if len(b) == 0 {
			continue
		}
		if len(b) < 8 || (b[0] != 4 && b[0] != 8) {
			return nil, false, fmt.Errorf("%w: tombstone page %d of segment %d", errFTS5Format, pg, s.id)
		}
		zero = zero || b[1] != 0
		size := int(b[0])
		for i := 8; i+size <= len(b); i += size {
			var k uint64
			if size == 4 {
				k = uint64(binary.BigEndian.Uint32(b[i:]))
			} else {
				k = binary.BigEndian.Uint64(b[i:])
			}
			if k != 0 {
				dead[k] = true
			}
		}
	}
	return dead, zero, nil
}

// doclistParser decodes a doclist fed page by page.
type doclistParser struct {
	out   []fts5Entry
	first bool // the next rowid is the doclist's first (absolute)
	rowid int64
	pos   int  // bytes of the current position list still to read
	col   int  // the current column of the position list
	mark  bool // the previous position-list varint was a column switch
	cur   int  // index in out of the row being read
}

// feed decodes page[start:end]; rowidOff is the page's first-rowid offset.
func (d *doclistParser) feed(page []byte, start, end, rowidOff int) error {
	if start > end || end > len(page) {
		return fmt.Errorf("%w: doclist bounds", errFTS5Format)
	}
	i := start
	for i < end {
		if d.pos > 0 {
			// Position-list varints of the current row.
			v, n := sqliteVarintN(page[i:end])
			if n == 0 || n > d.pos {
				return fmt.Errorf("%w: position list", errFTS5Format)
			}
			i += n
			d.pos -= n
			switch {
			case d.mark:
				if v > 2 {
					return fmt.Errorf("%w: column %d", errFTS5Format, v)
				}
				d.col, d.mark = int(v), false
			case v == 1:
				d.mark = true
			default:
				d.out[d.cur].TF[d.col]++
			}
			continue
		}
		if d.mark {
			return fmt.Errorf("%w: column switch at the end of a position list", errFTS5Format)
		}
		v, n := sqliteVarintN(page[i:end])
		if n == 0 {
			return fmt.Errorf("%w: rowid", errFTS5Format)
		}
		if d.first || i == rowidOff {
			d.rowid = int64(v)
		} else {
			d.rowid += int64(v)
		}
		d.first = false
		i += n
		sz, n := sqliteVarintN(page[i:end])
		if n == 0 {
			return fmt.Errorf("%w: position list size", errFTS5Format)
		}
		i += n
		d.out = append(d.out, fts5Entry{TermPosting: TermPosting{ID: d.rowid}, del: sz&1 != 0})
		d.cur = len(d.out) - 1
		d.pos = int(sz >> 1)
		d.col = 0
	}
	return nil
}
