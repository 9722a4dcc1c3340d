package search

import (
	"context"
	"math"
	"path"
	"slices"
	"strings"

	"codectx/internal/query"
	"codectx/internal/store"
	"codectx/internal/topk"
)

// rankInput is what a ranker fuses.
type rankInput struct {
	snap    *snapshot
	k       int
	sem     []semHit       // nearest neighbours, best first (nil: channel off)
	kw      *keywordResult // nil: channel off
	semPool int            // the semantic channel's hits are sem[:semPool]
	// asksTests is set when the query is about tests: no test demotion.
	asksTests bool
	// asksConstruction is set when the query is about constructors or
	// initialisation: no constructor demotion.
	asksConstruction bool
	// route is what the query asks for (change requests are answered one
	// entry per file; named symbols, paths and trace frames are direct hits).
	route route
	// groups are the query's keyword groups, in the keyword channel's
	// order (kw.groups[i] describes groups[i]).
	groups []termGroup
	// callers scores the callers of the function a question asks about
	// (callerHits; zero when it asks about none).
	callers callerScores
	// explain, when not nil, receives the parts of every candidate's score
	// (default ranker only).
	explain explainer
}

// scored is a ranked chunk.
type scored struct {
	idx    int32
	score  float64
	kwHit  bool
	semHit bool
}

// perFile takes ranked chunks in order, keeping at most limit per file,
// until k are kept.
func perFile(snap *snapshot, ranked []scored, limit, k int) []scored {
	out := make([]scored, 0, k)
	count := map[int64]int{}
	for _, r := range ranked {
		if len(out) == k {
			break
		}
		f := snap.chunks[r.idx].FileID
		if count[f] >= limit {
			continue
		}
		count[f]++
		out = append(out, r)
	}
	return out
}

// Seed ranker constants (the reference design).
const (
	seedKeywordHit    = 0.3
	seedNameHit       = 0.3
	seedPathHit       = 0.1
	seedBodyHit       = 0.1
	seedBothBonus     = 0.1
	seedCallableBoost = 0.15
	seedTypeBoost     = 0.10
	seedPerFile       = 2
)

// rankSeed is the reference fusion: cosine similarity as the base for the
// semantic channel's hits; for each keyword term, its best semPool chunks
// by BM25 score 0.3, +0.3 for a hit in the name, +0.1 path, +0.1 body
// (at most 0.8), times the term's weight, the best keyword kept per chunk;
// a chunk found by both channels takes the higher score +0.1, once; then
// +0.15 for methods and functions, +0.10 for types; sorted by score, path,
// start line and name; at most 2 per file.
func rankSeed(in rankInput) []scored {
	cands := map[int32]*scored{}
	get := func(idx int32) *scored {
		c := cands[idx]
		if c == nil {
			c = &scored{idx: idx}
			cands[idx] = c
		}
		return c
	}
	semScore := map[int32]float64{}
	for i, h := range in.sem {
		if i == in.semPool {
			break
		}
		semScore[h.idx] = h.score
		get(h.idx).semHit = true
	}
	kwScore := map[int32]float64{}
	if in.kw != nil {
		for _, t := range in.kw.terms {
			for i, h := range t.hits {
				if i == in.semPool {
					break
				}
				s := seedKeywordHit
				if h.cols&inName != 0 {
					s += seedNameHit
				}
				if h.cols&inPath != 0 {
					s += seedPathHit
				}
				if h.cols&inBody != 0 {
					s += seedBodyHit
				}
				s *= t.weight
				if s > kwScore[h.idx] {
					kwScore[h.idx] = s
				}
				get(h.idx).kwHit = true
			}
		}
	}
	list := make([]scored, 0, len(cands))
	for idx, c := range cands {
		s := 0.0
		switch {
		case c.kwHit && c.semHit:
			s = max(kwScore[idx], semScore[idx]) + seedBothBonus
		case c.kwHit:
			s = kwScore[idx]
		default:
			s = semScore[idx]
		}
		switch in.snap.chunks[idx].Kind {
		case "method", "function":
			s += seedCallableBoost
		case "type":
			s += seedTypeBoost
		}
		c.score = s
		list = append(list, *c)
	}
	sortScored(in.snap, list)
	return perFile(in.snap, list, seedPerFile, in.k)
}

// params are the default ranker's constants (docs/EVAL.md records how they
// were chosen on the development sets and what else was tried).
type params struct {
	WBM25     float64            // normalised BM25 sum over keyword groups
	WCover    float64            // idf-weighted share of the query's keyword groups matched
	WCos      float64            // normalised cosine
	KindPrior map[string]float64 // added per chunk kind
	WLen      float64            // × log2(code lines) / log2(LenCap), capped at 1
	LenCap    float64            // code-line count at which the length prior saturates
	TestDemo  float64            // subtracted for test files (unless the query asks about tests)
	DepDemo   float64            // subtracted for vendored / third-party dependency code
	StubDemo  float64            // subtracted for declaration-only files (type stubs)
	// CtorDemo is subtracted for constructors (isConstructor) unless the
	// query asks about construction: a question about how or where
	// something is done is rarely answered by the method that stores a new
	// object's fields, whose documentation lists every parameter and so
	// matches many of the question's words.
	CtorDemo  float64
	WFile     float64 // × mean of the file's FileTop best scores
	FileTop   int     // chunks per file in the file aggregate
	RerankTop int     // candidates the content-based second stage looks at
	PerFile   int     // at most this many results per file
	// NonSourceDemo is subtracted for documentation, build, data and
	// generated files unless the query is about them.
	NonSourceDemo float64
	// DirectFrame is added to the chunk holding a stack-trace frame's line,
	// DirectSymbol to the definition of an identifier the query names (when
	// at most DirectMaxDefs chunks define it), DirectPath to chunks of a file
	// the query names.
	DirectFrame, DirectSymbol, DirectPath float64
	DirectMaxDefs                         int
	// DirectCaller is added, when a question asks for the callers or users
	// of a function it names (route.callee), to the chunks that call or
	// reference one of its definitions (at most DirectMaxDefs); CalleeDemo
	// is subtracted from those definitions, which the asker already knows.
	DirectCaller, CalleeDemo float64
	// ChangeTestDemo is the test demotion of a change request that
	// mentions tests: the change is still made in the code under test.
	ChangeTestDemo float64
	// ChangeExampleDemo is subtracted, in a change request, for example
	// programs (IsExamplePath): they show the API, the change is made in
	// it. ChangeLogDemo is subtracted, in a change request that is not
	// about documentation, for changelogs (IsChangelogPath): a changelog
	// records changes, and shares their words, but is not where one is made.
	ChangeExampleDemo, ChangeLogDemo float64
	// WArea is added, in a change request with an area prefix ("store: …",
	// "fix(http): …"), to chunks of files in that area (route.inArea).
	WArea float64
	// ChangeFileDecay: in a change request the file aggregate is
	// WFile × Σ ChangeFileDecay^i × (i-th best score of the file), over
	// ChangeFileTop chunks, instead of the mean of FileTop: a file with
	// many matching chunks carries more evidence than one with a single one.
	ChangeFileDecay float64
	ChangeFileTop   int
	// A short query (at most ShortGroups keyword groups: what people type
	// into a search box, "persistent flags", "pager output") names what it
	// looks for, so a chunk's own name counts (addNameMatch): WName × the
	// idf-weighted share of the query's groups matched in the chunk's
	// symbol, and, for a chunk so matched, WNameFit × the share of its
	// short name's words that are query terms.
	ShortGroups     int
	WName, WNameFit float64
}

var defaultParams = params{
	WBM25:     0.35,
	WCover:    0.30,
	WCos:      0.15,
	KindPrior: map[string]float64{"method": 0.15, "function": 0.15, "type": 0.05, "file": -0.05, "text": -0.10},
	WLen:      0.30,
	LenCap:    50,
	TestDemo:  0.30,
	DepDemo:   0.30,
	StubDemo:  0.30,
	CtorDemo:  0.10,
	WFile:     0.20,
	FileTop:   3,
	RerankTop: 100,
	PerFile:   3,

	NonSourceDemo: 0.25,
	DirectFrame:   0.5,
	DirectSymbol:  0.3,
	DirectPath:    0.2,
	DirectMaxDefs: 8,
	DirectCaller:  0.3,
	CalleeDemo:    0.3,

	ChangeTestDemo:    0.30,
	ChangeExampleDemo: 0.30,
	ChangeLogDemo:     1.0,
	WArea:             0.10,
	ChangeFileDecay:   0.5,
	ChangeFileTop:     5,

	ShortGroups: 4,
	WName:       0.30,
	WNameFit:    0.10,
}

// rankDefault scores each candidate (keyword hits and the semantic
// channel's hits) with
//
//	WBM25·BM25/max(BM25) + WCover·coverage + WCos·cosine (min-max normalised)
//	+ kind prior − test / dependency / stub demotions,
//
// then, for the RerankTop best, adds a length prior counted in code lines;
// then adds the file aggregate (so a file with several good chunks lifts
// them) and keeps at most PerFile chunks per file. With one channel off,
// the other carries the whole relevance weight.
func rankDefault(ctx context.Context, db *store.DB, in rankInput) []scored {
	p := defaultParams
	size := len(in.sem)
	if in.kw != nil {
		size += len(in.kw.chunks)
	}
	// The candidates in a slice (their order does not matter: the sort
	// below is total), found by chunk index through pos; kcs and kwTotal
	// hold each one's keyword evidence and its total, computed once.
	pos := make(map[int32]int32, size)
	list := make([]scored, 0, size)
	kcs := make([]*kwChunk, 0, size)
	var kwTotal []float64
	get := func(idx int32) int32 {
		at, ok := pos[idx]
		if !ok {
			at = int32(len(list))
			pos[idx] = at
			list = append(list, scored{idx: idx})
			kcs = append(kcs, nil)
		}
		return at
	}
	// Cosine evidence for every neighbour read; only the channel's first
	// semPool become candidates of their own.
	cos := make(map[int32]float64, len(in.sem))
	var cosMax, cosMin float64
	for i, h := range in.sem {
		cos[h.idx] = h.score
		if i == 0 || h.score > cosMax {
			cosMax = h.score
		}
		if i == 0 || h.score < cosMin {
			cosMin = h.score
		}
		if i < in.semPool {
			list[get(h.idx)].semHit = true
		}
	}
	wBM25, wCover, wCos := p.WBM25, p.WCover, p.WCos
	switch total := wBM25 + wCover + wCos; {
	case in.kw == nil:
		wBM25, wCover, wCos = 0, 0, total
	case in.sem == nil && total > wCos:
		f := total / (total - wCos)
		wBM25, wCover, wCos = wBM25*f, wCover*f, 0
	}
	var bmMax, idfSum float64
	if in.kw != nil {
		for _, g := range in.kw.groups {
			idfSum += g.idf
		}
		for idx, kc := range in.kw.chunks {
			at := get(idx)
			list[at].kwHit = true
			kcs[at] = kc
		}
		kwTotal = make([]float64, len(list))
		for at, kc := range kcs {
			if kc != nil {
				kwTotal[at] = kc.total()
				bmMax = max(bmMax, kwTotal[at])
			}
		}
	}
	testDemo := p.TestDemo
	if in.asksTests {
		testDemo = 0
		if in.route.kind == RouteChange {
			testDemo = p.ChangeTestDemo
		}
	}
	areaBonus := map[string]float64{}
	var direct map[int32]float64
	if in.route.kind == RouteChange {
		direct = directHits(in.snap, in.route, pos, p)
	} else {
		direct = in.callers.score
	}
	for idx := range direct {
		get(idx)
	}
	kindPrior := in.snap.kindValues(p.KindPrior)
	for at := range list {
		c := &list[at]
		idx := c.idx
		ex := in.explain.of(idx)
		s := direct[idx]
		if ex != nil {
			ex.Direct = direct[idx]
		}
		if in.route.demotesClass(in.snap.class[idx]) {
			s -= p.NonSourceDemo
			if ex != nil {
				ex.demote("non-source", p.NonSourceDemo)
			}
		}
		if in.route.kind == RouteChange && len(in.route.areas) > 0 {
			path := in.snap.chunks[idx].Path
			v, ok := areaBonus[path]
			if !ok {
				if in.route.inArea(path) {
					v = p.WArea
				}
				areaBonus[path] = v
			}
			s += v
			if ex != nil {
				ex.Area = v
			}
		}
		if at < len(kcs) && kcs[at] != nil {
			kc := kcs[at]
			if bmMax > 0 {
				v := wBM25 * kwTotal[at] / bmMax
				s += v
				if ex != nil {
					ex.Keyword = v
				}
			}
			if idfSum > 0 {
				var cov float64
				for gi, g := range in.kw.groups {
					if kc.score[gi] > 0 {
						cov += g.idf
					}
				}
				v := wCover * cov / idfSum
				s += v
				if ex != nil {
					ex.Coverage = v
				}
			}
		}
		if v, ok := cos[idx]; ok && cosMax > cosMin {
			v = wCos * (v - cosMin) / (cosMax - cosMin)
			s += v
			if ex != nil {
				ex.Semantic = v
			}
		}
		s += kindPrior[in.snap.kind[idx]]
		demote := func(why string, v float64) {
			s -= v
			if ex != nil && v != 0 {
				ex.demote(why, v)
			}
		}
		if in.snap.isTest[idx] {
			demote("test", testDemo)
		}
		if in.snap.isDep[idx] {
			demote("dependency", p.DepDemo)
		}
		if in.snap.isStub[idx] {
			demote("stub", p.StubDemo)
		}
		if in.snap.isCtor[idx] && !in.asksConstruction {
			demote("constructor", p.CtorDemo)
		}
		if in.route.kind == RouteChange {
			if in.snap.isExample[idx] {
				demote("example", p.ChangeExampleDemo)
			}
			if in.snap.isChangelog[idx] && !in.route.aboutDocs {
				demote("changelog", p.ChangeLogDemo)
			}
		}
		if ex != nil {
			ex.Kind = kindPrior[in.snap.kind[idx]]
		}
		c.score = s
	}
	// A question for the callers of X names X but does not ask for it:
	// no name match then.
	if in.kw != nil && in.route.kind != RouteChange && !in.callers.found && len(in.groups) <= p.ShortGroups {
		addNameMatch(in.snap, in.groups, in.kw.groups, list, p, in.explain)
	}
	// Nothing below needs the whole list in order: the length prior looks
	// at the RerankTop best, the file aggregate at each file's best scores,
	// and the answer is the first k (at most limit per file).
	if p.WLen != 0 && p.LenCap > 1 {
		if p.WLen > 0 {
			// The RerankTop best only gain (≥ 0), so they stay above the
			// rest: sorting them alone gives the full sort's order.
			selectBest(in.snap, list, p.RerankTop)
			addCodeLength(ctx, db, in.snap, list, p, in.explain)
			sortScored(in.snap, list[:min(len(list), p.RerankTop)])
		} else {
			sortScored(in.snap, list)
			addCodeLength(ctx, db, in.snap, list, p, in.explain)
		}
	}
	if p.WFile != 0 && p.FileTop > 0 {
		if in.route.kind == RouteChange && p.ChangeFileTop > 0 {
			sortScored(in.snap, list) // it reads each file's best in order
			addFileEvidence(in.snap, list, p, in.explain)
		} else {
			addFileScores(in.snap, list, p, in.explain)
		}
	}
	if testDemo > 0 {
		testsBelowSubjects(in.snap, list, in.explain)
	}
	limit := p.PerFile
	if in.route.kind == RouteChange {
		limit = 1
	}
	return bestPerFile(in.snap, list, limit, in.k)
}

// addNameMatch adds, to every candidate that is a definition (not a file
// or text chunk), WName × Σ idf × weight over the query groups that a term
// matches among the words of the chunk's symbol (the best-weighted such
// term per group; a Chinese word's translation that stands in for it
// counts at full weight), divided by the groups' idf sum; and, when that
// is not zero, WNameFit × the share of the words of the chunk's short name
// that are query terms. For "persistent flags" the method named
// PersistentFlags then leads mergePersistentFlags and both lead a long
// function whose body says "flags" many times. groups and stats are the
// query's groups and the keyword channel's statistics of them, in one
// order.
func addNameMatch(snap *snapshot, groups []termGroup, stats []groupStat, list []scored, p params, ex explainer) {
	if len(groups) != len(stats) || (p.WName == 0 && p.WNameFit == 0) {
		return
	}
	var idfSum float64
	for _, g := range stats {
		idfSum += g.idf
	}
	if idfSum == 0 {
		return
	}
	var texts []string
	var group []int
	var weight []float64
	isTerm := map[string]bool{}
	for gi, g := range groups {
		for _, t := range g.terms {
			texts = append(texts, t.Text)
			group = append(group, gi)
			weight = append(weight, termWeight(t, stats[gi].standIn))
			isTerm[t.Text] = true
		}
	}
	m := query.NewTermMatcher(texts, query.IndexOptions{})
	best := make([]float64, len(groups))
	for i := range list {
		c := &snap.chunks[list[i].idx]
		if c.Kind == "text" || c.Kind == "file" || c.Symbol == "" {
			continue
		}
		clear(best)
		m.Match(c.Symbol, func(k int) { best[group[k]] = max(best[group[k]], weight[k]) })
		var cov float64
		for gi, b := range best {
			cov += b * stats[gi].idf
		}
		if cov == 0 {
			continue
		}
		v := p.WName*cov/idfSum + p.WNameFit*nameFit(c.Short, isTerm)
		list[i].score += v
		if x := ex.of(list[i].idx); x != nil {
			x.Name = v
		}
	}
}

// nameFit is the share of the words of a short name (an identifier split
// as the index splits it: PersistentFlags → persistent, flags) that are in
// terms.
func nameFit(short string, terms map[string]bool) float64 {
	words := strings.Fields(query.IndexText(short))
	if len(words) > 1 {
		// The identifier whole, then its parts: count the parts.
		words = words[1:]
	}
	if len(words) == 0 {
		return 0
	}
	n := 0
	for _, w := range words {
		if terms[w] {
			n++
		}
	}
	return float64(n) / float64(len(words))
}

// before reports whether x ranks before y in sortScored's order.
func before(snap *snapshot, x, y scored) bool {
	return cmpScored(snap, x, y) < 0
}

// selectBest moves the n best of list (sortScored's order) to its front,
// in order; the rest follow in no particular order.
func selectBest(snap *snapshot, list []scored, n int) {
	topk.Front(list, n, func(x, y scored) int { return cmpScored(snap, x, y) })
}

// testsBelowSubjects keeps every chunk of a test file below the best chunk
// of the file it tests (TestSubjects) when that file is a candidate too:
// unless a query is about tests, the code under test answers it first,
// however many of the query's words the test repeats.
func testsBelowSubjects(snap *snapshot, list []scored, ex explainer) {
	var best map[string]float64
	for i := range list {
		if !snap.isTest[list[i].idx] {
			continue
		}
		if best == nil {
			best = map[string]float64{}
			for _, c := range list {
				p := snap.chunks[c.idx].Path
				if v, ok := best[p]; !ok || c.score > v {
					best[p] = c.score
				}
			}
		}
		for _, subject := range TestSubjects(snap.chunks[list[i].idx].Path) {
			if v, ok := best[subject]; ok && list[i].score >= v {
				below := math.Nextafter(v, math.Inf(-1))
				if x := ex.of(list[i].idx); x != nil {
					x.demote("below-subject", list[i].score-below)
				}
				list[i].score = below
			}
		}
	}
}

// bestPerFile is perFile over list in sortScored's order, without sorting
// it all: a heap (best at the root) is popped until k are kept.
func bestPerFile(snap *snapshot, list []scored, limit, k int) []scored {
	h := list
	down := func(i int) {
		for {
			l := 2*i + 1
			if l >= len(h) {
				return
			}
			b := l
			if r := l + 1; r < len(h) && before(snap, h[r], h[b]) {
				b = r
			}
			if !before(snap, h[b], h[i]) {
				return
			}
			h[i], h[b] = h[b], h[i]
			i = b
		}
	}
	for i := len(h)/2 - 1; i >= 0; i-- {
		down(i)
	}
	out := make([]scored, 0, k)
	count := map[int32]int{} // by file ordinal
	for len(h) > 0 && len(out) < k {
		r := h[0]
		h[0] = h[len(h)-1]
		h = h[:len(h)-1]
		down(0)
		f := snap.file[r.idx]
		if count[f] >= limit {
			continue
		}
		count[f]++
		out = append(out, r)
	}
	return out
}

// directHits scores the chunks a change request points at by name (in a
// question, "where is X called" names X without asking for it, and the
// keyword channel already weighs names): the chunk
// holding each stack-trace frame's line (DirectFrame), the definitions of
// the identifiers it names when there are at most DirectMaxDefs of them
// (DirectSymbol), and chunks of the files it names (DirectPath: the
// candidates of that file, or, when it has none, its chunks).
func directHits(snap *snapshot, r route, cands map[int32]int32, p params) map[int32]float64 {
	out := map[int32]float64{}
	if len(r.frames) == 0 && len(r.idents) == 0 && len(r.paths) == 0 {
		return out
	}
	add := func(idx int32, v float64) { out[idx] = max(out[idx], v) }
	frameBest := make([]int32, len(r.frames))
	for i := range frameBest {
		frameBest[i] = -1
	}
	pathFiles := map[int64]bool{}
	for i := range snap.chunks {
		c := &snap.chunks[i]
		idx := int32(i)
		for j, f := range r.frames {
			if f.line <= 0 || c.StartLine > f.line || c.EndLine < f.line || !pathMatches(c.Path, f.file) {
				continue
			}
			// The innermost chunk holding the line.
			if b := frameBest[j]; b < 0 || snap.chunks[b].EndLine-snap.chunks[b].StartLine > c.EndLine-c.StartLine {
				frameBest[j] = idx
			}
		}
		for _, np := range r.paths {
			if pathMatches(c.Path, np) {
				pathFiles[c.FileID] = true
			}
		}
	}
	isDef := func(kind string) bool { return kind != "text" && kind != "file" }
	for _, id := range r.idents {
		// A qualified name with no definition of its own (a struct field,
		// "Config.Timeout") points at its qualifier's ("Config").
		defs := definitions(snap, id, p.DirectMaxDefs, isDef)
		for q := id; len(defs) == 0 && strings.Contains(q, "."); {
			q = q[:strings.LastIndexByte(q, '.')]
			defs = definitions(snap, q, p.DirectMaxDefs, isDef)
		}
		for _, idx := range defs {
			add(idx, p.DirectSymbol)
		}
	}
	for _, b := range frameBest {
		if b >= 0 {
			add(b, p.DirectFrame)
		}
	}
	for f := range pathFiles {
		found := false
		for _, idx := range snap.fileChunks[f] {
			if _, ok := cands[idx]; ok {
				add(idx, p.DirectPath)
				found = true
			}
		}
		if !found {
			for _, idx := range snap.fileChunks[f][:min(len(snap.fileChunks[f]), 30)] {
				add(idx, p.DirectPath)
			}
		}
	}
	return out
}

// definitions returns the chunks that define ident (symbolMatches) and
// whose kind keep accepts, or nil when more than limit do.
func definitions(snap *snapshot, ident string, limit int, keep func(kind string) bool) []int32 {
	var out []int32
	for i := range snap.chunks {
		c := &snap.chunks[i]
		if keep(c.Kind) && symbolMatches(c.Symbol, c.Short, ident) {
			if out = append(out, int32(i)); len(out) > limit {
				return nil
			}
		}
	}
	return out
}

// callerScores are what a question for the callers of a function adds to
// chunks: score by chunk index; found is set when a caller was found.
type callerScores struct {
	score map[int32]float64
	found bool
}

// callerHits scores, for a question about the callers of callee, the
// chunks that call or reference one of its function or method definitions
// (DirectCaller; none when more than DirectMaxDefs define it), and the
// definitions themselves (−CalleeDemo, only when a caller was found). The
// graph's relations are read from db; an error there only leaves the
// signal off.
func callerHits(ctx context.Context, db *store.DB, snap *snapshot, callee string, p params) callerScores {
	var out callerScores
	isFunc := func(kind string) bool { return kind == "function" || kind == "method" }
	var defs []int64
	for _, idx := range definitions(snap, callee, p.DirectMaxDefs, isFunc) {
		defs = append(defs, snap.chunks[idx].ID)
	}
	if len(defs) == 0 {
		return out
	}
	rels, err := db.RelationsTo(ctx, defs, "calls", "references")
	if err != nil {
		return out
	}
	out.score = map[int32]float64{}
	for _, rel := range rels {
		if idx, ok := snap.byID[rel.SrcChunk]; ok && !slices.Contains(defs, rel.SrcChunk) {
			out.score[idx] = p.DirectCaller
			out.found = true
		}
	}
	if out.found && p.CalleeDemo != 0 {
		for _, id := range defs {
			if idx, ok := snap.byID[id]; ok {
				out.score[idx] = -p.CalleeDemo
			}
		}
	}
	return out
}

// addCodeLength adds the length prior, counted in code lines (comments and
// blank lines left out), to the RerankTop best candidates (list must be
// sorted). Errors reading contents only switch the signal off.
func addCodeLength(ctx context.Context, db *store.DB, snap *snapshot, list []scored, p params, ex explainer) {
	top := list[:min(len(list), p.RerankTop)]
	ids := make([]int64, len(top))
	for i, c := range top {
		ids[i] = snap.chunks[c.idx].ID
	}
	contents, err := db.ChunkContents(ctx, ids)
	if err != nil {
		return
	}
	for i := range top {
		n := float64(max(CodeLines(contents[ids[i]]), 1))
		v := p.WLen * min(math.Log2(n)/math.Log2(p.LenCap), 1)
		top[i].score += v
		if x := ex.of(top[i].idx); x != nil {
			x.Length = v
		}
	}
}

// CodeLines counts the lines of src that hold code: not blank, not
// comments (//, #, --, ; line comments, /* */ blocks and Python-style
// triple-quoted docstrings that start a line) and not the inside of a
// multi-line string literal (a Go raw string or JavaScript template
// between backquotes, a Python triple-quoted string or Java text block
// opened on a code line): a function that writes out a shell script or a
// page template is long in lines but short in code.
func CodeLines(src string) int {
	n := 0
	inBlock, inDoc, inRaw := false, "", false
	for _, line := range strings.Split(src, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case inRaw:
			if strings.Count(t, "`")%2 == 1 {
				inRaw = false
			}
			continue
		case inDoc != "":
			if strings.Contains(t, inDoc) {
				inDoc = ""
			}
			continue
		case inBlock:
			if strings.Contains(t, "*/") {
				inBlock = false
			}
			continue
		case t == "":
			continue
		case strings.HasPrefix(t, "/*"):
			inBlock = !strings.Contains(t[2:], "*/")
			continue
		case strings.HasPrefix(t, `"""`) || strings.HasPrefix(t, "'''"):
			q := t[:3]
			if !strings.Contains(t[3:], q) {
				inDoc = q
			}
			continue
		case strings.HasPrefix(t, "//"), strings.HasPrefix(t, "#"), strings.HasPrefix(t, "--"), strings.HasPrefix(t, ";"),
			t == "*", strings.HasPrefix(t, "* "), strings.HasPrefix(t, "*/"):
			continue
		}
		n++
		switch {
		case strings.HasPrefix(t, "```"):
			// A Markdown fence, not a string.
		case strings.Count(t, "`")%2 == 1:
			inRaw = true
		case strings.Count(t, `"""`)%2 == 1:
			inDoc = `"""`
		case strings.Count(t, "'''")%2 == 1:
			inDoc = "'''"
		}
	}
	return n
}

// addFileScores adds WFile × the mean of the file's FileTop best base
// scores (list in any order), so a file with several good chunks lifts
// them all.
func addFileScores(snap *snapshot, list []scored, p params, ex explainer) {
	// Each file's FileTop best scores, highest first, summed in that
	// order: the sum over its first FileTop in ranking order (tied scores
	// are equal values), without the list being sorted.
	top := p.FileTop
	best := make([]float64, snap.files*top)
	n := make([]int32, snap.files)
	for _, c := range list {
		f := int(snap.file[c.idx])
		b := best[f*top : f*top+int(n[f])]
		i := len(b)
		for i > 0 && b[i-1] < c.score {
			i--
		}
		if i >= top {
			continue
		}
		if len(b) < top {
			n[f]++
			b = b[:len(b)+1]
		}
		copy(b[i+1:], b[i:len(b)-1])
		b[i] = c.score
	}
	sum := make([]float64, snap.files)
	for f := range sum {
		for _, v := range best[f*top : f*top+int(n[f])] {
			sum[f] += v
		}
	}
	for i := range list {
		f := snap.file[list[i].idx]
		v := p.WFile * sum[f] / float64(max(p.FileTop, 1))
		list[i].score += v
		if x := ex.of(list[i].idx); x != nil {
			x.File = v
		}
	}
}

// addFileEvidence adds WFile × Σ ChangeFileDecay^i × s_i over the file's
// ChangeFileTop best scores s_0 ≥ s_1 ≥ … (list must be sorted): the file
// aggregate of a change request, where evidence spread over several chunks
// of one file adds up with diminishing weight. Negative scores add nothing.
func addFileEvidence(snap *snapshot, list []scored, p params, ex explainer) {
	sum := map[int64]float64{}
	n := map[int64]int{}
	for _, c := range list {
		f := snap.chunks[c.idx].FileID
		if n[f] < p.ChangeFileTop {
			sum[f] += math.Pow(p.ChangeFileDecay, float64(n[f])) * max(c.score, 0)
			n[f]++
		}
	}
	for i := range list {
		v := p.WFile * sum[snap.chunks[list[i].idx].FileID]
		list[i].score += v
		if x := ex.of(list[i].idx); x != nil {
			x.File = v
		}
	}
}

// IsTestPath reports whether a file path looks like a test file in common
// conventions: Go _test.go, Python test_*.py / *_test.py / tests.py, JS/TS
// .test. and .spec., Java/C# *Test(s).java|.cs, or any file under a test,
// tests, __tests__, spec or testdata directory (or one ending in _test).
func IsTestPath(p string) bool {
	base := path.Base(p)
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	if (ext == ".java" || ext == ".cs" || ext == ".kt") && (strings.HasSuffix(stem, "Test") || strings.HasSuffix(stem, "Tests")) {
		return true
	}
	low := strings.ToLower(stem)
	lbase := strings.ToLower(base)
	switch {
	case strings.HasSuffix(low, "_test"), strings.HasSuffix(low, "_tests"), strings.HasPrefix(low, "test_"),
		low == "test" || low == "tests" || low == "conftest",
		strings.Contains(lbase, ".test."), strings.Contains(lbase, ".spec."):
		return true
	}
	for _, dir := range strings.Split(strings.ToLower(path.Dir(p)), "/") {
		switch {
		case dir == "test", dir == "tests", dir == "__tests__", dir == "spec", dir == "testdata",
			strings.HasSuffix(dir, "_test"), strings.HasSuffix(dir, "_tests"):
			return true
		}
	}
	return false
}

// TestSubjects are the files a test file tests, by the naming conventions
// IsTestPath knows: x_test.go → x.go, test_x.py and x_test.py → x.py,
// x.test.js and x.spec.ts → x.js and x.ts, and FooTest.java → Foo.java in
// the same directory or, from src/test/, in src/main/. Nil for any other
// path.
func TestSubjects(p string) []string {
	dir, base := path.Split(p)
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	switch {
	case strings.HasSuffix(stem, "_test") && len(stem) > len("_test"):
		return []string{dir + strings.TrimSuffix(stem, "_test") + ext}
	case strings.HasPrefix(stem, "test_") && len(stem) > len("test_"):
		return []string{dir + strings.TrimPrefix(stem, "test_") + ext}
	case (strings.HasSuffix(stem, ".test") || strings.HasSuffix(stem, ".spec")) && len(stem) > len(".test"):
		return []string{dir + stem[:len(stem)-len(".test")] + ext}
	case (ext == ".java" || ext == ".kt" || ext == ".cs") && strings.HasSuffix(stem, "Test") && len(stem) > len("Test"):
		subject := strings.TrimSuffix(stem, "Test") + ext
		out := []string{dir + subject}
		if main := strings.Replace("/"+dir, "/src/test/", "/src/main/", 1); main != "/"+dir {
			out = append(out, main[1:]+subject)
		}
		return out
	}
	return nil
}

// IsExamplePath reports whether a file lies in a directory that by common
// convention holds example or demo programs (example, examples, _examples,
// demo, demos, sample, samples).
func IsExamplePath(p string) bool {
	for _, dir := range strings.Split(strings.ToLower(path.Dir(p)), "/") {
		switch dir {
		case "example", "examples", "_example", "_examples", "demo", "demos", "sample", "samples":
			return true
		}
	}
	return false
}

// IsChangelogPath reports whether a file is a project's changelog or
// release notes: a documentation file (ClassDoc) or a file without an
// extension named CHANGELOG, CHANGES, HISTORY, NEWS, RELEASES or
// RELEASE-NOTES, in any case.
func IsChangelogPath(p string) bool {
	base := strings.ToLower(path.Base(p))
	ext := path.Ext(base)
	if ext != "" && ClassifyPath(p) != ClassDoc {
		return false
	}
	switch strings.TrimSuffix(base, ext) {
	case "changelog", "changes", "history", "news", "releases", "release-notes", "release_notes", "releasenotes":
		return true
	}
	return false
}

// IsDependencyPath reports whether a path lies in a directory that by
// common convention holds vendored or installed third-party code
// (node_modules, vendor, _vendor, third_party, site-packages, …), which a
// question about the project is rarely about.
func IsDependencyPath(p string) bool {
	for _, dir := range strings.Split(strings.ToLower(path.Dir(p)), "/") {
		switch dir {
		case "node_modules", "bower_components", "vendor", "_vendor", "vendored", "third_party", "thirdparty",
			"third-party", "site-packages", "dist-packages":
			return true
		}
	}
	return false
}

// IsStubPath reports whether a file only declares an API without
// implementing it: Python type stubs (.pyi) and TypeScript declaration
// files (.d.ts).
func IsStubPath(p string) bool {
	low := strings.ToLower(p)
	return strings.HasSuffix(low, ".pyi") || strings.HasSuffix(low, ".d.ts") || strings.HasSuffix(low, ".d.mts") || strings.HasSuffix(low, ".d.cts")
}

// FileClass is what a file is for, from its path alone.
type FileClass int

// File classes.
const (
	ClassSource    FileClass = iota // program source
	ClassDoc                        // documentation: Markdown, reStructuredText, plain text
	ClassBuild                      // build, package and lock files, CI and container configuration
	ClassData                       // configuration and data: JSON, YAML, TOML, XML, properties, locale files
	ClassGenerated                  // generated code: *.pb.go, *_generated.*, *.gen.*, zz_generated*, *_pb2.py
)

// buildFiles are base names (lower case) of build, package and lock files.
var buildFiles = map[string]bool{
	"makefile": true, "gnumakefile": true, "cmakelists.txt": true, "dockerfile": true, "containerfile": true,
	"pom.xml": true, "build.gradle": true, "build.gradle.kts": true, "settings.gradle": true, "settings.gradle.kts": true,
	"gradle.properties": true, "build.xml": true, "build.sbt": true, "package.json": true, "package-lock.json": true,
	"yarn.lock": true, "pnpm-lock.yaml": true, "bun.lockb": true, "go.mod": true, "go.sum": true, "go.work": true,
	"go.work.sum": true, "cargo.toml": true, "cargo.lock": true, "pyproject.toml": true, "setup.py": true,
	"setup.cfg": true, "requirements.txt": true, "pipfile": true, "pipfile.lock": true, "poetry.lock": true,
	"uv.lock": true, "tox.ini": true, "gemfile": true, "gemfile.lock": true, "composer.json": true,
	"composer.lock": true, "tsconfig.json": true, "babel.config.js": true, "webpack.config.js": true,
	"rollup.config.js": true, "vite.config.ts": true, "vite.config.js": true, "jest.config.js": true,
	".gitlab-ci.yml": true, ".travis.yml": true, "build.bazel": true, "workspace": true, "meson.build": true,
	"configure.ac": true, "justfile": true, "taskfile.yml": true, "goreleaser.yml": true, ".goreleaser.yml": true,
}

// ClassifyPath classifies a file by conventions of its path: build and
// lock files by name, CI workflow directories, documentation, data and
// configuration by extension, generated code by the usual name markers.
// Everything else is source.
func ClassifyPath(p string) FileClass {
	low := strings.ToLower(p)
	base := path.Base(low)
	ext := path.Ext(base)
	if buildFiles[base] || strings.HasSuffix(base, ".lock") || strings.Contains(low, ".github/workflows/") ||
		strings.HasPrefix(base, "dockerfile") || ext == ".gradle" || ext == ".mk" || ext == ".cmake" || ext == ".bzl" {
		return ClassBuild
	}
	switch {
	case strings.HasSuffix(base, ".pb.go"), strings.HasSuffix(base, "_pb2.py"), strings.HasSuffix(base, "_pb2_grpc.py"),
		strings.Contains(base, "_generated."), strings.Contains(base, ".generated."), strings.Contains(base, ".gen."),
		strings.HasPrefix(base, "zz_generated"), strings.HasSuffix(base, ".min.js"):
		return ClassGenerated
	}
	switch ext {
	case ".md", ".markdown", ".rst", ".txt", ".adoc", ".asciidoc", ".textile", ".rdoc":
		return ClassDoc
	case ".json", ".yaml", ".yml", ".toml", ".xml", ".properties", ".ini", ".cfg", ".conf", ".csv", ".tsv", ".po", ".pot":
		return ClassData
	}
	return ClassSource
}

// isConstructor reports whether c is a constructor: a method named like
// its class (Java, C#, C++, Kotlin, Dart), __init__ (Python) or
// constructor (JavaScript, TypeScript).
func isConstructor(c *store.ChunkMeta) bool {
	if c.Kind != "method" {
		return false
	}
	switch c.Short {
	case "__init__", "constructor":
		return true
	}
	class := c.Container
	if i := strings.LastIndexByte(class, '.'); i >= 0 {
		class = class[i+1:]
	}
	return class != "" && c.Short == class
}
