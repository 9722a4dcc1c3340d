package search

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"

	"codectx/internal/query"
	"codectx/internal/store"
	"codectx/internal/vecindex"
)

// ftsWeights are the bm25() column weights: a term in the chunk's name
// counts more than in its path, and the path more than the body.
var ftsWeights = store.FTSWeights{Name: 5, Path: 2, Body: 1}

// perTermLimit bounds the rows read for one term (the best by weighted
// BM25). Terms matching more rows than this are common enough that the
// rows past the limit contribute little.
const perTermLimit = 2000

// Column bits of a keyword hit.
const (
	inName = 1 << iota
	inPath
	inBody
)

// groupStat describes one keyword group over the project.
type groupStat struct {
	keyword string
	df      int     // chunks matched by the group's most specific matching term
	idf     float64 // weight of the group in coverage; 0 when nothing matched
	// unread: a Chinese word the lexicon gave no English for (every term
	// is Chinese), so what it asks for cannot be looked up in code.
	unread bool
	// standIn: the group's translations stand in for its Chinese word at
	// full weight (translationsStandIn).
	standIn bool
}

// termHit is one chunk matched by one term.
type termHit struct {
	idx   int32
	score float64 // weighted BM25 (positive, higher is better)
	cols  uint8
}

// termResult is one distinct term's matches in the project, best first.
type termResult struct {
	text   string
	weight float64
	df     int // chunks of the project the term matches
	hits   []termHit
}

// kwChunk is one chunk's keyword evidence, per group.
type kwChunk struct {
	score []float64 // best term weight × weighted BM25 of the group; 0 = no hit
	cols  []uint8   // column bits of that best term
}

// keywordResult is the keyword channel's output.
type keywordResult struct {
	groups []groupStat
	terms  []termResult // distinct terms (highest weight kept)
	chunks map[int32]*kwChunk
}

// chunk returns a chunk's evidence, nil when the channel is off or the
// chunk was not matched.
func (k *keywordResult) chunk(idx int32) *kwChunk {
	if k == nil {
		return nil
	}
	return k.chunks[idx]
}

// total is the sum of a chunk's group scores.
func (k *kwChunk) total() float64 {
	var s float64
	for _, v := range k.score {
		s += v
	}
	return s
}

// translationsStandIn reports whether a keyword group is a Chinese word
// that the project's text never contains (no Chinese term of the group has
// a hit): its English translations are then the only way the word can
// match, and they stand in for it at full weight, as the same word typed
// in English would. When the project does contain the Chinese word (Chinese
// comments), the translations keep their lower weight.
func translationsStandIn(g termGroup, byText map[string]int, terms []termResult) bool {
	cjk := false
	for _, t := range g.terms {
		if t.Source != query.SourceCJK {
			continue
		}
		cjk = true
		if ti, ok := byText[t.Text]; ok && len(terms[ti].hits) > 0 {
			return false
		}
	}
	return cjk
}

// termWeight is the weight a term of a group counts with: a translation
// (the lexicon's, or the general dictionary's for a word the lexicon lacks)
// of a Chinese word the project never contains stands in for it at
// WeightQuery (translationsStandIn); any other term keeps its own weight.
func termWeight(t query.Term, standIn bool) float64 {
	if standIn && (t.Source == query.SourceLexicon || t.Source == query.SourceDictionary) {
		return query.WeightQuery
	}
	return t.Weight
}

// keywordChannel runs one FTS query per distinct term and folds the rows
// into per-term hit lists and per-chunk, per-group evidence. cols asks for
// the column bits of each hit (in which of name, path and body the term
// matched), which cost FTS5 three more bm25() evaluations per matching row;
// without it the hits' cols are 0.
func keywordChannel(ctx context.Context, db *store.DB, projectID int64, snap *snapshot, q parsed, cols bool) (*keywordResult, error) {
	res := &keywordResult{groups: make([]groupStat, len(q.groups)), chunks: map[int32]*kwChunk{}}
	n := float64(max(len(snap.chunks), 1))
	fail := func(what string, err error) error {
		if ctx.Err() != nil {
			return fmt.Errorf("keyword search: %w", ctx.Err())
		}
		return fmt.Errorf("keyword search for %s: %w", what, err)
	}

	// Distinct terms, highest weight kept.
	byText := map[string]int{}
	for _, g := range q.groups {
		for _, t := range g.terms {
			if t.Text == "" || t.Weight <= 0 {
				continue
			}
			if ti, ok := byText[t.Text]; ok {
				res.terms[ti].weight = max(res.terms[ti].weight, t.Weight)
				continue
			}
			byText[t.Text] = len(res.terms)
			res.terms = append(res.terms, termResult{text: t.Text, weight: t.Weight})
		}
	}
	st, err := newIDFStats(ctx, db, snap, res.terms)
	if err != nil {
		return nil, fail("term statistics", err)
	}
	// With only this project in the database, every row in its id range is
	// its own: no join to the chunks table to check.
	filter := projectID
	if st.single {
		filter = 0
	}
	fetch := func(ti int) error {
		tr := &res.terms[ti]
		key := termKey{text: tr.text, rows: st.rows, cols: cols}
		match := db.FTSMatchWeightedCount
		if cols {
			match = db.FTSMatchCount
		}
		rows, matched, err := match(ctx, filter, snap.ids, query.FTSQuote(tr.text), ftsWeights, perTermLimit)
		if err != nil {
			return fail(strconv.Quote(tr.text), err)
		}
		df, factor, err := st.project(ctx, db, projectID, snap, tr.text, len(rows), matched)
		if err != nil {
			return fail(strconv.Quote(tr.text), err)
		}
		tr.df = df
		tr.hits = make([]termHit, 0, len(rows))
		for _, h := range rows {
			idx, ok := snap.byID[h.ID]
			if !ok {
				continue // written after the snapshot was taken
			}
			th := termHit{idx: idx, score: max(h.Weighted*factor, 1e-9)}
			if h.Name > 0 {
				th.cols |= inName
			}
			if h.Path > 0 {
				th.cols |= inPath
			}
			if h.Body > 0 {
				th.cols |= inBody
			}
			tr.hits = append(tr.hits, th)
		}
		snap.storeTerm(key, termPostings{df: tr.df, hits: tr.hits})
		return nil
	}
	var todo []int
	for ti := range res.terms {
		tr := &res.terms[ti]
		if c, ok := snap.cachedTerm(termKey{text: tr.text, rows: st.rows, cols: cols}); ok {
			tr.df, tr.hits = c.df, c.hits
			continue
		}
		todo = append(todo, ti)
	}
	if err := forEachParallel(todo, fetch); err != nil {
		return nil, err
	}

	for gi, g := range q.groups {
		res.groups[gi].keyword = g.keyword
		res.groups[gi].unread = unreadGroup(g)
		standIn := translationsStandIn(g, byText, res.terms)
		res.groups[gi].standIn = standIn
		for _, t := range g.terms {
			ti, ok := byText[t.Text]
			if !ok || len(res.terms[ti].hits) == 0 {
				continue
			}
			tr := &res.terms[ti]
			t.Weight = termWeight(t, standIn)
			if idf := t.Weight * math.Log(1+n/float64(max(tr.df, 1))); idf > res.groups[gi].idf {
				res.groups[gi].idf = idf
				res.groups[gi].df = tr.df
			}
			for _, h := range tr.hits {
				kc := res.chunks[h.idx]
				if kc == nil {
					kc = &kwChunk{score: make([]float64, len(q.groups)), cols: make([]uint8, len(q.groups))}
					res.chunks[h.idx] = kc
				}
				if s := t.Weight * h.score; s > kc.score[gi] {
					kc.score[gi] = s
					kc.cols[gi] = h.cols
				}
			}
		}
	}

	return res, nil
}

// termWorkers bounds the terms whose FTS queries run at once (each on its
// own database connection).
const termWorkers = 4

// forEachParallel calls fn for every item on up to min(GOMAXPROCS,
// termWorkers) goroutines and returns the first error (by item order).
// Each call writes only its own item's results.
func forEachParallel(items []int, fn func(int) error) error {
	workers := min(runtime.GOMAXPROCS(0), termWorkers, len(items))
	if workers <= 1 {
		for _, it := range items {
			if err := fn(it); err != nil {
				return err
			}
		}
		return nil
	}
	errs := make([]error, len(items))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(items) {
					return
				}
				errs[i] = fn(items[i])
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// bm25IDF is FTS5's idf: log((N - n + 0.5) / (n + 0.5)), at least 1e-6.
func bm25IDF(n, hits int) float64 {
	idf := math.Log((float64(n) - float64(hits) + 0.5) / (float64(hits) + 0.5))
	if idf <= 0 || math.IsNaN(idf) {
		return 1e-6
	}
	return idf
}

// idfStats holds what it takes to turn FTS5's BM25, whose idf counts the
// rows of every project in the database, into BM25 with the project's own
// idf, so one project's ranking does not depend on what else the database
// holds.
type idfStats struct {
	single    bool           // the database holds only this project
	rows      int            // rows over every project
	globalDF  map[string]int // per term, rows over every project that match it
	phraseDFs map[string]bool
}

func newIDFStats(ctx context.Context, db *store.DB, snap *snapshot, terms []termResult) (*idfStats, error) {
	rows, err := db.FTSRowCount(ctx)
	if err != nil {
		return nil, err
	}
	st := &idfStats{rows: rows, single: rows <= len(snap.chunks)}
	if st.single {
		return st, nil
	}
	var tokens []string
	st.phraseDFs = map[string]bool{}
	for _, t := range terms {
		if singleToken(t.text) {
			tokens = append(tokens, t.text)
		} else {
			st.phraseDFs[t.text] = true
		}
	}
	if st.globalDF, err = db.FTSDocFreq(ctx, tokens); err != nil {
		return nil, err
	}
	return st, nil
}

// singleToken reports whether the FTS tokenizer (unicode61) keeps s as one
// token: letters and digits only.
func singleToken(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return s != ""
}

// project returns how many of the project's chunks a term matches and the
// factor from global to project BM25. rows is the number of project rows
// read (capped by perTermLimit); matched, when not -1, is how many rows of
// the project the term matches, as the query that read them counted.
func (st *idfStats) project(ctx context.Context, db *store.DB, projectID int64, snap *snapshot, term string, rows, matched int) (int, float64, error) {
	inProject := rows
	switch {
	case matched >= 0:
		inProject = matched
	case rows >= perTermLimit:
		pid := projectID
		if st.single {
			pid = 0 // every row is the project's: count without the join
		}
		n, err := db.FTSCount(ctx, query.FTSQuote(term), pid, snap.ids)
		if err != nil {
			return 0, 1, err
		}
		inProject = n
	}
	if st.single || inProject == 0 {
		return inProject, 1, nil
	}
	all, ok := st.globalDF[term]
	if st.phraseDFs[term] {
		n, err := db.FTSCount(ctx, query.FTSQuote(term), 0, store.IDRange{})
		if err != nil {
			return 0, 1, err
		}
		all, ok = n, true
	}
	if !ok {
		return inProject, 1, nil
	}
	return inProject, bm25IDF(len(snap.chunks), inProject) / bm25IDF(st.rows, all), nil
}

// semHit is one semantic neighbour.
type semHit struct {
	idx   int32
	score float64
}

// semCandidates is how many nearest neighbours the semantic channel reads;
// rankers look at the first semPool(K) as the channel's hits and may use the
// rest as cosine evidence for keyword hits.
const semCandidates = 1000

// semanticChannel embeds the query and returns its nearest chunks by
// cosine, best first, and, when the file layer pruned the scan, what it
// scanned (for addKeywordFiles).
func semanticChannel(ctx context.Context, ix Index, snap *snapshot, q parsed) ([]semHit, *prunedScan, error) {
	src, err := snap.vectorSource(ctx, ix.DB, ix.Project, ix.SideFileOnly)
	if err != nil {
		return nil, nil, err
	}
	dim := 0
	switch {
	case src.matrix != nil:
		dim = src.matrix.Dim()
	case src.quant != nil:
		dim = src.quant.Dim()
	default:
		return nil, nil, errors.New("the index holds no vectors for this project")
	}
	vecs, err := ix.Embedder.Embed(ctx, []string{q.semText})
	if err != nil {
		return nil, nil, fmt.Errorf("embed the query: %w", err)
	}
	if len(vecs) != 1 || len(vecs[0]) == 0 {
		return nil, nil, nil // nothing to embed (punctuation only): no semantic hits
	}
	if len(vecs[0]) != dim {
		return nil, nil, fmt.Errorf("%w: the query vector has %d dimensions, the index %d",
			ErrModelMismatch, len(vecs[0]), dim)
	}
	var hits []vecindex.Hit
	var ps *prunedScan
	switch {
	case src.matrix != nil:
		hits = splitTopK(src.matrix, vecs[0], semCandidates)
	case src.layer != nil:
		var approx []vecindex.Hit
		approx, ps = prunedTopK(src.layer, src.quant, vecs[0], semCandidates)
		if hits, err = rescore(ctx, ix, approx, vecs[0]); err != nil {
			return nil, nil, err
		}
		ps.hits = hits
	default:
		if hits, err = rescore(ctx, ix, splitTopK(src.quant, vecs[0], semCandidates), vecs[0]); err != nil {
			return nil, nil, err
		}
	}
	return toSemHits(snap, hits), ps, nil
}

// toSemHits maps hits to the snapshot's chunks (dropping ids it lacks).
func toSemHits(snap *snapshot, hits []vecindex.Hit) []semHit {
	out := make([]semHit, 0, len(hits))
	for _, h := range hits {
		idx, ok := snap.byID[h.ID]
		if !ok {
			continue
		}
		out = append(out, semHit{idx: idx, score: float64(h.Score)})
	}
	return out
}

// parallelBlocks is the size (in blocks of 1,024 rows) from which a
// semantic scan is split over the processors: a scan of a large project's
// vectors (past ~130,000) takes tens of milliseconds on one core.
const parallelBlocks = 128

// blockScanner is a matrix whose top-K scan can be split by row blocks
// (vecindex.Matrix, vecindex.Quantized).
type blockScanner interface {
	Blocks() int
	TopKBlocks(query []float32, k, from, to int) []vecindex.Hit
}

// splitTopK is the matrix's TopK, its block ranges scanned side by side
// when it is large (the merged hits are the same).
func splitTopK(m blockScanner, query []float32, k int) []vecindex.Hit {
	n := m.Blocks()
	parts := min(runtime.GOMAXPROCS(0), 4)
	if n < parallelBlocks || parts < 2 {
		return m.TopKBlocks(query, k, 0, n)
	}
	out := make([][]vecindex.Hit, parts)
	var wg sync.WaitGroup
	for i := range parts {
		wg.Go(func() { out[i] = m.TopKBlocks(query, k, i*n/parts, (i+1)*n/parts) })
	}
	wg.Wait()
	return vecindex.MergeHits(k, out...)
}

// rescoreTop is how many of the best approximate neighbours get their
// exact score: more than any ranker takes as semantic hits (semPool(MaxK)),
// with a margin for the quantisation error (about 0.005 of cosine) around
// the cut. The rest keep their approximate score, which only serves as
// cosine evidence for keyword hits.
const rescoreTop = 300

// rescore replaces the approximate scores of the best rescoreTop hits by
// exact dot products with the chunks' stored vectors, and orders all hits
// as Matrix.TopK does.
func rescore(ctx context.Context, ix Index, approx []vecindex.Hit, qv []float32) ([]vecindex.Hit, error) {
	top := approx[:min(len(approx), rescoreTop)]
	ids := make([]int64, len(top))
	at := make(map[int64]int, len(top))
	for i, h := range top {
		ids[i] = h.ID
		at[h.ID] = i
	}
	var buf []float32
	err := ix.DB.VectorsByID(ctx, ids, ix.Project.Model, func(id int64, blob []byte) error {
		if vecindex.VectorDims(blob) != len(qv) {
			return nil
		}
		buf = vecindex.AppendDecoded(buf[:0], blob)
		top[at[id]].Score = vecindex.Dot(qv, buf)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("semantic search: %w", err)
	}
	vecindex.SortHits(approx)
	return approx, nil
}

// sortScored orders by score (desc), then path, start line, name and id, so
// the same index and query always give the same order.
func sortScored(snap *snapshot, s []scored) {
	slices.SortFunc(s, func(x, y scored) int { return cmpScored(snap, x, y) })
}

// cmpScored is sortScored's order: score descending, then layoutCmp.
func cmpScored(snap *snapshot, x, y scored) int {
	if x.score != y.score {
		if x.score > y.score {
			return -1
		}
		return 1
	}
	return layoutCmp(snap, x.idx, y.idx)
}

// layoutCmp orders chunks by path, start line, name and id.
func layoutCmp(snap *snapshot, x, y int32) int {
	a, b := &snap.chunks[x], &snap.chunks[y]
	if c := strings.Compare(a.Path, b.Path); c != 0 {
		return c
	}
	if a.StartLine != b.StartLine {
		return a.StartLine - b.StartLine
	}
	if c := strings.Compare(a.Name, b.Name); c != 0 {
		return c
	}
	return cmp.Compare(a.ID, b.ID)
}

// unreadKeywords lists the query keywords that could not be searched for:
// Chinese words for which no English is known (no lexicon or dictionary
// translation) and which the project's text does not contain. groups and
// kw.groups are in one order.
func unreadKeywords(kw *keywordResult, groups []termGroup) []string {
	if kw == nil || len(kw.groups) != len(groups) {
		return nil
	}
	var out []string
	for gi, g := range groups {
		if kw.groups[gi].idf != 0 || len(g.terms) == 0 {
			continue
		}
		cjkOnly := true
		for _, t := range g.terms {
			cjkOnly = cjkOnly && t.Source == query.SourceCJK
		}
		if cjkOnly {
			out = append(out, g.keyword)
		}
	}
	return out
}

// unreadGroup reports whether every term of g is a Chinese word or a
// general-dictionary guess at one (no lexicon translation, identifier or
// English word stands for it).
func unreadGroup(g termGroup) bool {
	for _, t := range g.terms {
		if t.Source != query.SourceCJK && t.Source != query.SourceDictionary {
			return false
		}
	}
	return len(g.terms) > 0
}
