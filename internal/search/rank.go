package search

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path"
	"strings"

	"codectx/internal/store"
)

// rankInput is what a ranker fuses.
type rankInput struct {
	snap    *snapshot
	k       int
	sem     []semHit       // nearest neighbours, best first (nil: channel off)
	kw      *keywordResult // nil: channel off
	semPool int            // the semantic channel's hits are sem[:semPool]
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
	seedKeywordHit  = 0.3
	seedNameHit     = 0.3
	seedPathHit     = 0.1
	seedBodyHit     = 0.1
	seedBothBonus   = 0.1
	seedCallableBst = 0.15
	seedTypeBoost   = 0.10
	seedPerFile     = 2
)

// rankSeed is the reference fusion: cosine similarity as the base for the
// semantic hits; for each keyword term, its best semPool chunks by BM25
// score 0.3, +0.3 for a hit in the name, +0.1 path, +0.1 body, times the
// term's weight (best keyword kept per chunk); a chunk found by both channels takes the higher score +0.1; then
// +0.15 for methods and functions, +0.10 for types; at most 2 per file.
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
			s += seedCallableBst
		case "type":
			s += seedTypeBoost
		}
		c.score = s
		list = append(list, *c)
	}
	sortScored(in.snap, list)
	return perFile(in.snap, list, seedPerFile, in.k)
}

// params are the default ranker's constants (see docs/EVAL.md for how they
// were chosen).
type params struct {
	WBM25     float64            // normalised BM25 sum over keyword groups
	WCover    float64            // idf-weighted share of keyword groups matched
	WName     float64            // idf-weighted share of keyword groups matched in the name
	WCos      float64            // normalised cosine
	KindPrior map[string]float64 // added per chunk kind
	WLen      float64            // × log2(lines) / log2(LenCap), capped at 1: longer code bodies hold more logic
	LenCap    float64            // line count at which the length prior saturates
	TestDemo  float64            // subtracted for chunks of test files
	DepDemo   float64            // subtracted for vendored / third-party dependency code
	StubDemo  float64            // subtracted for declaration-only files (type stubs)
	WFile     float64            // file-level aggregation: mean of the file's best base scores
	FileTop   int                // how many of a file's chunks the file score averages
	WGraph    float64            // share of other top candidates linked by a call relation
	GraphTop  int                // how many top candidates the graph signal looks at
	PerFile   int                // at most this many results per file
}

var defaultParams = params{
	WBM25:     0.45,
	WCover:    0.25,
	WName:     0,
	WCos:      0.30,
	KindPrior: map[string]float64{"method": 0.06, "function": 0.06, "type": 0.03, "file": 0, "text": -0.03},
	TestDemo:  0.05,
	LenCap:    200,
	WFile:     0,
	FileTop:   3,
	WGraph:    0,
	GraphTop:  30,
	PerFile:   2,
}

// rankParams returns the ranker's constants; CODECTX_RANK_PARAMS (JSON)
// overrides them while tuning.
func rankParams() params {
	p := defaultParams
	if v := os.Getenv("CODECTX_RANK_PARAMS"); v != "" {
		_ = json.Unmarshal([]byte(v), &p)
	}
	return p
}

// rankDefault fuses normalised BM25, query-term coverage (overall and in
// names) and normalised cosine into a base score, adds a kind prior, a
// test-file demotion, a file-level aggregate and a call-graph signal, and
// keeps at most PerFile chunks per file.
func rankDefault(ctx context.Context, db *store.DB, in rankInput) []scored {
	p := rankParams()
	cands := map[int32]*scored{}
	get := func(idx int32) *scored {
		c := cands[idx]
		if c == nil {
			c = &scored{idx: idx}
			cands[idx] = c
		}
		return c
	}
	// Cosine evidence for every neighbour read; the first semPool are hits.
	cos := map[int32]float64{}
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
			get(h.idx).semHit = true
		}
	}
	var bmMax, idfSum float64
	if in.kw != nil {
		for _, g := range in.kw.groups {
			idfSum += g.idf
		}
		for idx, kc := range in.kw.chunks {
			get(idx).kwHit = true
			bmMax = max(bmMax, kc.total())
		}
	}
	list := make([]scored, 0, len(cands))
	for idx, c := range cands {
		ch := &in.snap.chunks[idx]
		s := 0.0
		if in.kw != nil {
			if kc := in.kw.chunks[idx]; kc != nil {
				if bmMax > 0 {
					s += p.WBM25 * kc.total() / bmMax
				}
				if idfSum > 0 {
					var cov, name float64
					for gi, g := range in.kw.groups {
						if kc.score[gi] > 0 {
							cov += g.idf
							if kc.cols[gi]&inName != 0 {
								name += g.idf
							}
						}
					}
					s += p.WCover*cov/idfSum + p.WName*name/idfSum
				}
			}
		}
		if v, ok := cos[idx]; ok && cosMax > cosMin {
			s += p.WCos * (v - cosMin) / (cosMax - cosMin)
		}
		s += p.KindPrior[ch.Kind]
		if p.WLen != 0 && p.LenCap > 1 {
			lines := float64(max(ch.EndLine-ch.StartLine+1, 1))
			s += p.WLen * min(math.Log2(lines)/math.Log2(p.LenCap), 1)
		}
		if in.snap.isTest[idx] {
			s -= p.TestDemo
		}
		if in.snap.isDep[idx] {
			s -= p.DepDemo
		}
		if in.snap.isStub[idx] {
			s -= p.StubDemo
		}
		c.score = s
		list = append(list, *c)
	}
	sortScored(in.snap, list)
	if p.WFile > 0 {
		addFileScores(in.snap, list, p)
	}
	if p.WGraph > 0 {
		addGraphScores(ctx, db, in.snap, list, p)
	}
	if p.WFile > 0 || p.WGraph > 0 {
		sortScored(in.snap, list)
	}
	return perFile(in.snap, list, p.PerFile, in.k)
}

// addFileScores adds WFile × the mean of the file's FileTop best base
// scores (list must be sorted), so a file with several good chunks lifts
// them all.
func addFileScores(snap *snapshot, list []scored, p params) {
	sum := map[int64]float64{}
	n := map[int64]int{}
	for _, c := range list {
		f := snap.chunks[c.idx].FileID
		if n[f] < p.FileTop {
			sum[f] += c.score
			n[f]++
		}
	}
	for i := range list {
		f := snap.chunks[list[i].idx].FileID
		list[i].score += p.WFile * sum[f] / float64(max(p.FileTop, 1))
	}
}

// addGraphScores adds WGraph × the share of the other GraphTop candidates
// that call, or are called by, a candidate (list must be sorted). Errors
// reading relations only switch the signal off.
func addGraphScores(ctx context.Context, db *store.DB, snap *snapshot, list []scored, p params) {
	top := list[:min(len(list), p.GraphTop)]
	if len(top) < 2 {
		return
	}
	ids := make([]int64, len(top))
	pos := map[int64]int{}
	for i, c := range top {
		ids[i] = snap.chunks[c.idx].ID
		pos[ids[i]] = i
	}
	edges, err := db.EdgesAmong(ctx, ids)
	if err != nil {
		return
	}
	linked := make([]map[int64]bool, len(top))
	for _, e := range edges {
		if e.Kind != "calls" {
			continue
		}
		a, b := pos[e.Src], pos[e.Dst]
		if linked[a] == nil {
			linked[a] = map[int64]bool{}
		}
		if linked[b] == nil {
			linked[b] = map[int64]bool{}
		}
		linked[a][e.Dst] = true
		linked[b][e.Src] = true
	}
	for i := range top {
		list[i].score += p.WGraph * float64(len(linked[i])) / float64(len(top)-1)
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
