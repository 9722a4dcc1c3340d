package search

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"slices"

	"codectx/internal/store"
	"codectx/internal/topk"
	"codectx/internal/vecindex"
)

// The file-level layer (issue 15 item 5): on a project with very many
// chunks the semantic channel first ranks pieces of files, then scans only
// the chunk vectors of the best pieces instead of every row of the
// quantised side file.
//
// The layer is derived from the quantised side file alone (no re-parse, no
// database read): its rows are in chunk-id order, and a file's chunks have
// consecutive ids (they are written together), so each file is a run of
// consecutive rows. A piece is such a run of at most layerRun rows of one
// file; the layer holds, per piece, the L2-normalised sum of its rows,
// quantised like the chunks (vecindex.Quantized.Centroids), with the
// piece's first row as its id. It lives in its own side file
// (store.SideLayer), named by the same generation and removed whenever the
// vectors' file is written, and is rebuilt from the vectors' file when
// missing (by indexing, or by the first search that needs it).
//
// A query scores every piece, takes the best layerPieces, and scans the
// rows of those pieces. The keyword channel runs beside it; once it is
// done, the rows the layer left out of the files holding its best
// layerKeywordFiles chunks are scanned too, and so are its best
// layerKeywordChunks chunks themselves, so a file the keyword channel finds
// strongly, and each of its leading candidates, keeps the cosine evidence
// the flat scan would have given it.
// The lexical side of the layer is the keyword channel itself: FTS5 already
// indexes each chunk's name (identifiers) and path (path tokens) and
// scores them above the body, so a second lexical index of files would
// only repeat it.

// layerMinRows is the size of the quantised side file (its rows) from
// which the layer is built and used: 2^19 ≈ 524,000 rows, four times the
// rows layerPieces can select at most (layerPieces × layerRun), so the
// pruned scan reads at most a quarter of the rows where it engages. Below
// it the flat scan costs at most ~26 ms of CPU (~5 ms per 100,000 rows,
// split over the processors), within the warm-search target, and pruning
// would only risk recall; `$GOROOT/src` (~98,000 chunks) and the
// development projects (a few thousand) stay far below. A variable for the
// tests.
var layerMinRows = 1 << 19

// layerRun is the most rows of one piece: 16, about the chunks of an
// ordinary source file (`$GOROOT/src` averages 14 per file), so a large
// file is ranked as pieces of an ordinary file's size rather than as one
// average in which its one relevant function is diluted.
const layerRun = 16

// layerPieces is how many of the best pieces have their rows scanned:
// 8,192 pieces, at most 131,072 rows (layerPieces × layerRun), an eighth
// of a 1M-chunk project. The two scans (every piece, then the selected
// rows, whose scattered runs cost more per row than whole blocks) take
// about a third to a half of the flat scan's CPU at 1M rows (measured in
// docs/BENCHMARKS.md), and find ~94 % of its best ten hits. A variable for
// the tests.
var layerPieces = 8192

// layerKeywordFiles is how many of the keyword channel's best chunks (by
// their summed BM25) have their whole files scanned after it: 100, the
// candidates the default ranker's second stage looks at (RerankTop), more
// than a ranking returns before collapsing duplicates (2 × MaxK). Their
// rows are bounded by layerKeywordRows.
const layerKeywordFiles = 100

// layerKeywordRows bounds the rows the keyword channel's files add to the
// scan: half of what the layer's pieces may select.
const layerKeywordRows = 1 << 16

// layerKeywordChunks is how many of the keyword channel's best chunks are
// scanned one by one after it (when the layer left them out): as many as
// the semantic channel's candidates (semCandidates), whose cosines serve
// the ranker as evidence for keyword hits; each is one row.
const layerKeywordChunks = semCandidates

// fileLayer is a loaded layer over one quantised side file.
type fileLayer struct {
	pieces *vecindex.Quantized // one row per piece; id = the piece's first row
	rows   int                 // rows of the chunk vectors' side file
}

// pieceRows is the rows of the chunk side file that piece i covers.
func (l *fileLayer) pieceRows(i int) vecindex.RowRange {
	to := l.rows
	if i+1 < l.pieces.Len() {
		to = int(l.pieces.ID(i + 1))
	}
	return vecindex.RowRange{From: int(l.pieces.ID(i)), To: to}
}

// pieceStarts returns the first row of each piece of q: a new piece starts
// where the row's chunk belongs to another file than the previous row's
// (or to no chunk of the snapshot), or after layerRun rows.
func pieceStarts(q *vecindex.Quantized, s *snapshot) []int {
	var starts []int
	prev, start := int64(-1), 0
	for i := range q.Len() {
		file := int64(-1)
		if idx, ok := s.byID[q.ID(i)]; ok {
			file = s.chunks[idx].FileID
		}
		if i == 0 || file != prev || file < 0 || i-start == layerRun {
			starts = append(starts, i)
			start = i
		}
		prev = file
	}
	return starts
}

// buildLayer computes the layer of q and its side file encoding.
func buildLayer(q *vecindex.Quantized, s *snapshot) (*fileLayer, []byte, error) {
	cq, err := q.Centroids(pieceStarts(q, s))
	if err != nil {
		return nil, nil, err
	}
	var buf bytes.Buffer
	if err := cq.Write(&buf); err != nil {
		return nil, nil, err
	}
	pieces, err := vecindex.ParseQuantized(buf.Bytes())
	if err != nil {
		return nil, nil, err
	}
	return &fileLayer{pieces: pieces, rows: q.Len()}, buf.Bytes(), nil
}

// checkLayer verifies that a layer read from a side file fits q: the same
// dimension, pieces starting at row 0 and inside q.
func checkLayer(pieces *vecindex.Quantized, q *vecindex.Quantized) error {
	n := pieces.Len()
	if n == 0 || pieces.Dim() != q.Dim() || pieces.ID(0) != 0 || pieces.ID(n-1) >= int64(q.Len()) {
		return fmt.Errorf("layer of %d pieces × %d does not fit %d vectors × %d", n, pieces.Dim(), q.Len(), q.Dim())
	}
	return nil
}

// loadLayer returns the layer over q for the snapshot's generation: the
// side file when it exists and fits, else one built from q (and written
// for the next process when the project did not change meanwhile). nil
// when q is below layerMinRows or the layer cannot be had, and when the
// file is missing from a database opened read-only: building costs seconds
// at this size (~5 s for 1M vectors) that no later process would save, so
// such a process keeps the flat scan.
func loadLayer(ctx context.Context, db *store.DB, p *store.Project, s *snapshot, q *vecindex.Quantized) *fileLayer {
	if q == nil || q.Len() < layerMinRows {
		return nil
	}
	if f, err := db.OpenSideFile(p, store.SideLayer); err == nil {
		pieces, perr := vecindex.ParseQuantized(f.Data)
		if perr == nil {
			perr = checkLayer(pieces, q)
		}
		if perr == nil {
			l := &fileLayer{pieces: pieces, rows: q.Len()}
			// the mapping lives as long as the snapshot that holds the layer
			runtime.AddCleanup(s, func(f *store.MappedFile) { f.Close() }, f)
			return l
		}
		f.Close()
		slog.Warn("unusable file layer; building it again", "path", db.SideFilePath(p, store.SideLayer), "err", perr)
	} else if !errors.Is(err, os.ErrNotExist) {
		slog.Warn("open the file layer", "err", err)
	}
	if db.ReadOnly() {
		slog.Debug("no file layer for this generation in a read-only database: flat semantic scan", "rows", q.Len())
		return nil
	}
	l, enc, err := buildLayer(q, s)
	if err != nil {
		slog.Warn("build the file layer; searching every vector", "err", err)
		return nil
	}
	if now, err := db.Project(ctx, p.Root); err == nil && now.ID == p.ID && now.Generation == p.Generation {
		if err := db.WriteSideFile(p, store.SideLayer, func(w io.Writer) error { _, err := w.Write(enc); return err }); err != nil {
			slog.Warn("write the file layer", "err", err)
		}
	}
	slog.Debug("file layer built", "pieces", l.pieces.Len(), "rows", l.rows)
	return l
}

// prunedScan is what a semantic scan pruned by the file layer read, kept
// until the keyword channel is done (addKeywordFiles).
type prunedScan struct {
	quant   *vecindex.Quantized
	query   []float32
	scanned []vecindex.RowRange // ascending, disjoint
	hits    []vecindex.Hit      // the scan's hits, the best rescoreTop exact
	pieces  int                 // pieces of the layer
	rows    int                 // rows scanned
}

// layerRanges returns the rows of the layer's best layerPieces pieces for
// query (by score, then position), ascending, adjacent pieces merged. The
// pieces are selected from all their scores by topk.Best, which
// partitions for a share this large: a heap would take in most of the
// pieces, whose scores come in runs (neighbouring files are alike).
func (l *fileLayer) layerRanges(query []float32) []vecindex.RowRange {
	scores := l.pieces.Scores(query)
	order := make([]int32, len(scores))
	for i := range order {
		order[i] = int32(i)
	}
	top := topk.Best(order, layerPieces, func(a, b int32) int {
		if scores[a] != scores[b] {
			return cmp.Compare(scores[b], scores[a])
		}
		return cmp.Compare(a, b)
	})
	slices.Sort(top) // pieces in row order: their ranges ascend
	rs := make([]vecindex.RowRange, 0, len(top))
	for _, i := range top {
		rs = append(rs, l.pieceRows(int(i)))
	}
	return mergeRanges(rs)
}

// mergeRanges sorts ranges and merges those that touch or overlap.
func mergeRanges(rs []vecindex.RowRange) []vecindex.RowRange {
	slices.SortFunc(rs, func(a, b vecindex.RowRange) int { return cmp.Compare(a.From, b.From) })
	out := rs[:0]
	for _, r := range rs {
		if n := len(out); n > 0 && r.From <= out[n-1].To {
			out[n-1].To = max(out[n-1].To, r.To)
			continue
		}
		out = append(out, r)
	}
	return out
}

// rowsIn counts the rows of ranges.
func rowsIn(rs []vecindex.RowRange) int {
	n := 0
	for _, r := range rs {
		n += r.To - r.From
	}
	return n
}

// rangeScanner presents ranges of a quantised matrix's rows to splitTopK
// as units of about one block's rows each.
type rangeScanner struct {
	q      *vecindex.Quantized
	ranges []vecindex.RowRange
	units  []int // units[u] is the first range of unit u; a last entry len(ranges)
}

func newRangeScanner(q *vecindex.Quantized, ranges []vecindex.RowRange) *rangeScanner {
	s := &rangeScanner{q: q, ranges: ranges}
	rows := 0
	for i, r := range ranges {
		if i == 0 || rows >= blockRowsOfUnit {
			s.units = append(s.units, i)
			rows = 0
		}
		rows += r.To - r.From
	}
	s.units = append(s.units, len(ranges))
	return s
}

// blockRowsOfUnit is the rows of one unit of a rangeScanner: a block's.
const blockRowsOfUnit = 1024

func (s *rangeScanner) Blocks() int { return len(s.units) - 1 }

func (s *rangeScanner) TopKBlocks(query []float32, k, from, to int) []vecindex.Hit {
	from, to = max(from, 0), min(to, s.Blocks())
	if from >= to {
		return nil
	}
	return s.q.TopKRows(query, k, s.ranges[s.units[from]:s.units[to]])
}

// prunedTopK scans the rows of the layer's best pieces for query: the
// approximate hits (as splitTopK's) and what was scanned.
func prunedTopK(l *fileLayer, q *vecindex.Quantized, query []float32, k int) ([]vecindex.Hit, *prunedScan) {
	ranges := l.layerRanges(query)
	hits := splitTopK(newRangeScanner(q, ranges), query, k)
	ps := &prunedScan{quant: q, query: query, scanned: ranges, pieces: l.pieces.Len(), rows: rowsIn(ranges)}
	slog.Debug("file layer: pruned semantic scan", "pieces", l.pieces.Len(), "selected", min(layerPieces, l.pieces.Len()), "rows", ps.rows, "of", q.Len())
	return hits, ps
}

// addKeywordFiles scans, after the keyword channel, the rows that the
// pruned scan did not read of the files holding its best layerKeywordFiles
// chunks and of its best layerKeywordChunks chunks, merges their hits into
// the scan's (re-scoring exactly those that enter the best rescoreTop) and
// returns the semantic hits anew. sem is returned unchanged when there is
// nothing to add.
func addKeywordFiles(ctx context.Context, ix Index, snap *snapshot, ps *prunedScan, kw *keywordResult, sem []semHit) ([]semHit, error) {
	if ps == nil || kw == nil || len(kw.chunks) == 0 {
		return sem, nil
	}
	type kwBest struct {
		idx   int32
		total float64
	}
	best := make([]kwBest, 0, len(kw.chunks))
	for idx, kc := range kw.chunks {
		best = append(best, kwBest{idx, kc.total()})
	}
	best = topk.Front(best, layerKeywordChunks, func(a, b kwBest) int {
		if a.total != b.total {
			return cmp.Compare(b.total, a.total)
		}
		return cmp.Compare(a.idx, b.idx)
	})
	var extra []vecindex.RowRange
	addRow := func(ci int32) {
		if r, ok := ps.quant.Row(snap.chunks[ci].ID); ok && !inRanges(ps.scanned, r) {
			extra = append(extra, vecindex.RowRange{From: r, To: r + 1})
		}
	}
	for _, b := range best {
		addRow(b.idx)
	}
	files := map[int64]bool{}
	for _, b := range best[:min(len(best), layerKeywordFiles)] {
		f := snap.chunks[b.idx].FileID
		if files[f] || len(extra) >= layerKeywordChunks+layerKeywordRows {
			continue
		}
		files[f] = true
		for _, ci := range snap.fileChunks[f] {
			addRow(ci)
		}
	}
	if len(extra) == 0 {
		return sem, nil
	}
	extra = mergeRanges(extra)
	add := ps.quant.TopKRows(ps.query, semCandidates, extra)
	merged := vecindex.MergeHits(semCandidates, ps.hits, add)
	// The added hits that now rank among the best rescoreTop get their
	// exact score, as the scan's own did.
	var fresh []vecindex.Hit
	isAdded := make(map[int64]bool, len(add))
	for _, h := range add {
		isAdded[h.ID] = true
	}
	isFresh := map[int64]bool{}
	for _, h := range merged[:min(len(merged), rescoreTop)] {
		if isAdded[h.ID] {
			fresh = append(fresh, h)
			isFresh[h.ID] = true
		}
	}
	if len(fresh) > 0 {
		exact, err := rescore(ctx, ix, fresh, ps.query)
		if err != nil {
			return nil, err
		}
		merged = vecindex.MergeHits(semCandidates, dropIDs(merged, isFresh), exact)
	}
	ps.rows += rowsIn(extra)
	slog.Debug("file layer: keyword channel's files scanned", "files", len(files), "rows", rowsIn(extra), "rescored", len(fresh))
	return toSemHits(snap, merged), nil
}

// dropIDs returns the hits whose ids are not in drop.
func dropIDs(hits []vecindex.Hit, drop map[int64]bool) []vecindex.Hit {
	out := make([]vecindex.Hit, 0, len(hits))
	for _, h := range hits {
		if !drop[h.ID] {
			out = append(out, h)
		}
	}
	return out
}

// inRanges reports whether row r lies in one of rs (ascending, disjoint).
func inRanges(rs []vecindex.RowRange, r int) bool {
	i, _ := slices.BinarySearchFunc(rs, r, func(x vecindex.RowRange, r int) int {
		if x.To <= r {
			return -1
		}
		if x.From > r {
			return 1
		}
		return 0
	})
	return i < len(rs) && rs[i].From <= r && r < rs[i].To
}
