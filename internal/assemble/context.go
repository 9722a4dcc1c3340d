package assemble

import (
	"context"
	"fmt"
	"math"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"

	"codectx/internal/graph"
	"codectx/internal/history"
	"codectx/internal/query"
	"codectx/internal/search"
	"codectx/internal/store"
	"codectx/internal/vecindex"
)

// DefaultBudget is the token budget of a context when none is given.
const DefaultBudget = 8000

// Depth values accepted by ContextOptions.Depth.
const DepthAuto = "auto"

// Seed is a search hit handed to Assemble.
type Seed struct {
	ChunkID int64
	Score   float64 // the search score, any scale (normalised by the best seed)
}

// Params tune expansion and filtering (ContextOptions.Params; nil means
// DefaultParams).
type Params struct {
	// HopDecay multiplies a neighbour's score per hop.
	HopDecay float64
	// MinRelevance is the least relevance (times the hub penalty) a
	// neighbour needs to enter.
	MinRelevance float64
	// MaxPerNode caps the neighbours one chunk brings in per hop.
	MaxPerNode int
	// MaxPerSeed caps the neighbours one seed brings in over all hops.
	MaxPerSeed int
	// HubDegree is the caller count above which a chunk is penalised as a
	// hub and its callers are not followed (unless it is a seed).
	HubDegree int
	// KeywordWeight is the share of keyword overlap in relevance when a
	// semantic score is available too.
	KeywordWeight float64
	// TestPenalty multiplies the relevance of neighbours in test files,
	// unless the query itself is about tests.
	TestPenalty float64
	// MaxFrontier caps the chunks a hop after the first expands from: the
	// best-scored ones (0: no cap). The default is the default number of
	// seeds: a second hop starts from as many places as the first.
	MaxFrontier int
	// CoChangeFiles caps the files a change request's context takes from
	// the history (ContextOptions.CoChanged): files that usually changed
	// with its best CoChangeSeeds files (0: none).
	CoChangeFiles int
	CoChangeSeeds int
}

// DefaultParams are the tuned expansion parameters (see docs/EVAL.md, "Repository-level context").
var DefaultParams = Params{HopDecay: 0.7, MinRelevance: 0.25, MaxPerNode: 6, MaxPerSeed: 12, HubDegree: 8, KeywordWeight: 0.6, TestPenalty: 0.5, MaxFrontier: 16,
	CoChangeFiles: 3, CoChangeSeeds: 3}

// ContextOptions configure Assemble.
type ContextOptions struct {
	Query    string
	Keywords []string // extra keywords, weighed like words of the query
	// Budget is the most tokens (cl100k_base) the rendered context may use;
	// <= 0 means DefaultBudget.
	Budget int
	// Depth is "auto" ("" too), "0", "1" or "2".
	Depth string
	// Seeds are the search hits to start from, best first.
	Seeds []Seed
	// QueryVector is the query's embedding (optional): with it, neighbour
	// relevance includes cosine similarity with the stored vectors of Model.
	QueryVector []float32
	Model       string
	// Dots, when set, returns the inner products of q with the stored
	// vectors of Model that it holds in memory, for some of ids (a
	// long-lived process's search snapshot), each summed in float64 over
	// the dimensions in order as the relevance filter sums them; the
	// others are read from the database.
	Dots func(q []float32, ids []int64) map[int64]float64
	// Params tune expansion; nil means DefaultParams.
	Params *Params
	// Sent maps chunks sent in full by earlier answers of the same session
	// to the call that sent them: they are listed as "already sent (call
	// N)" instead of being sent again.
	Sent map[int64]int
	// ChangeRequest says the search read the query as a change request or
	// bug report: without a question cue, the change plan is used.
	ChangeRequest bool
	// Generation is the project's index generation: when set, caller counts
	// are remembered for it across calls of the process (0: not cached).
	Generation int64
	// CoChanged, when set, returns the files that changed together with
	// the given ones in the project's history (history.CoChanged), strongest
	// first: a change request's context adds the best chunk of those its
	// search and graph did not reach.
	CoChanged func(ctx context.Context, paths []string) ([]history.Coupling, error)
}

// ContextChunk is one chunk in an assembled context.
type ContextChunk struct {
	ID        int64   `json:"id"`
	File      string  `json:"file"`
	Lang      string  `json:"lang"`
	Kind      string  `json:"kind"`
	Name      string  `json:"name"`
	Symbol    string  `json:"symbol"`
	StartLine int     `json:"start_line"`
	EndLine   int     `json:"end_line"`
	Score     float64 `json:"score"`
	// Relevance is the similarity to the query a neighbour was admitted
	// with (0 for seeds).
	Relevance float64 `json:"relevance,omitempty"`
	Hops      int     `json:"hops"`
	Reason    string  `json:"reason"`
	// Content is the text shown: the whole chunk, or its signature and first
	// lines when Shortened.
	Content   string `json:"content"`
	Shortened bool   `json:"shortened,omitempty"`
	// SentIn is the earlier call of the session that sent this chunk in
	// full (0: not sent before); its Content is then empty.
	SentIn int `json:"sent_in,omitempty"`
	// Omitted is the marker line of a shortened chunk
	// ("…N lines elided — read_file path lines a-b").
	Omitted string `json:"omitted,omitempty"`

	short string // last symbol segment, to find the signature line
	full  string // the whole content
}

// ContextFile groups the chunks of one file in source order.
type ContextFile struct {
	Path   string         `json:"path"`
	Chunks []ContextChunk `json:"chunks"`
}

// ContextResult is an assembled context.
type ContextResult struct {
	Query  string        `json:"query"`
	Intent Intent        `json:"intent"`
	Depth  int           `json:"depth"`
	Budget int           `json:"budget"`
	Tokens int           `json:"tokens"` // tokens of Text(), never more than Budget
	Files  []ContextFile `json:"files"`
	// Candidates is how many chunks were considered (seeds and admitted
	// neighbours); Dropped how many of them did not fit the budget.
	Candidates int      `json:"candidates"`
	Dropped    int      `json:"dropped"`
	Warnings   []string `json:"warnings,omitempty"`
	// TooSmall is set when the budget could not hold any chunk: Markdown
	// then holds only the best seed's signature and says so, and may
	// exceed the budget by that one line.
	TooSmall bool `json:"too_small,omitempty"`
	// Places are the candidates elided to their signature or dropped, in
	// score order (for a change request, the chunks of files already
	// inside after the other files' best): the manifest at the end of
	// Markdown.
	Places   []Place `json:"places,omitempty"`
	Markdown string  `json:"markdown"`
}

// Text is the context rendered as Markdown for a model.
func (r *ContextResult) Text() string { return r.Markdown }

// Chunks lists the chunks of every file, in rendering order.
func (r *ContextResult) Chunks() []ContextChunk {
	var out []ContextChunk
	for _, f := range r.Files {
		out = append(out, f.Chunks...)
	}
	return out
}

// ParseDepth turns "auto", "" or a digit 0..2 into -1 (auto) or the depth.
func ParseDepth(s string) (int, error) {
	switch s {
	case "", DepthAuto:
		return -1, nil
	case "0", "1", "2":
		return int(s[0] - '0'), nil
	}
	return 0, fmt.Errorf("depth must be auto, 0, 1 or 2, got %q", s)
}

// cand is a chunk considered for the context.
type cand struct {
	c      store.GraphChunk
	score  float64
	hops   int
	reason string
	origin int64 // the seed it was reached from
	seed   bool
	indeg  int
	rel    float64
}

// Assemble builds a context: seeds, expansion along calls and containment
// for depth hops with relevance filtering, merging per file, and packing
// into the token budget.
func Assemble(ctx context.Context, db *store.DB, projectID int64, opt ContextOptions) (*ContextResult, error) {
	p := DefaultParams
	if opt.Params != nil {
		p = *opt.Params
	}
	budget := opt.Budget
	if budget <= 0 {
		budget = DefaultBudget
	}
	want, err := ParseDepth(opt.Depth)
	if err != nil {
		return nil, err
	}
	intent := Classify(opt.Query)
	if opt.ChangeRequest {
		intent = ChangeIntent(opt.Query)
	}
	depth := intent.Depth
	if want >= 0 {
		depth = want
	}
	res := &ContextResult{Query: opt.Query, Intent: intent, Depth: depth, Budget: budget, Files: []ContextFile{}}

	// Seeds: for usage and impact questions, the symbols the question names
	// come first (their callers are what is asked for, even when the search
	// ranked them low).
	if intent.Kind == IntentUsage || intent.Kind == IntentImpact {
		named, err := namedSeeds(ctx, db, projectID, opt.Query, opt.Seeds)
		if err != nil {
			return nil, err
		}
		opt.Seeds = append(named, opt.Seeds...)
	}
	var ids []int64
	best := 0.0
	for _, s := range opt.Seeds {
		ids = append(ids, s.ChunkID)
		best = max(best, s.Score)
	}
	chunks, err := db.GraphChunks(ctx, ids, true)
	if err != nil {
		return nil, err
	}
	cands := map[int64]*cand{}
	var order []int64 // admission order, for determinism
	var frontier []*cand
	for i, s := range opt.Seeds {
		c, ok := chunks[s.ChunkID]
		if !ok || cands[s.ChunkID] != nil {
			continue
		}
		sc := 1.0 / (1 + 0.1*float64(i))
		if best > 0 {
			sc = max(s.Score, 0) / best
		}
		x := &cand{c: c, score: sc, origin: c.ID, seed: true, reason: fmt.Sprintf("seed, score %.2f", sc)}
		cands[c.ID] = x
		order = append(order, c.ID)
		frontier = append(frontier, x)
	}
	rel := newRelevance(opt.Query, opt.Keywords, opt.QueryVector, p.KeywordWeight)
	rel.memory = opt.Dots
	if depth > 0 && len(frontier) > 0 {
		if err := rel.loadVectors(ctx, db, opt.Model, ids); err != nil {
			return nil, err
		}
		rel.reference(ids)
		indeg, err := callInDegree(ctx, db, projectID, opt.Generation, ids)
		if err != nil {
			return nil, err
		}
		for _, x := range frontier {
			x.indeg = indeg[x.c.ID]
		}
	}
	perSeed := map[int64]int{}
	pl := planFor(intent.Kind)
	for hop := 1; hop <= depth && len(frontier) > 0; hop++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		next, err := expandContext(ctx, db, projectID, opt.Generation, frontier, hop, pl, p, rel, cands, perSeed)
		if err != nil {
			return nil, err
		}
		for _, x := range next {
			order = append(order, x.c.ID)
		}
		frontier = widest(next, p.MaxFrontier)
	}
	if intent.Kind == IntentChange && depth > 0 && opt.CoChanged != nil && p.CoChangeFiles > 0 {
		added, err := coChanged(ctx, db, projectID, opt, p, rel, cands, res)
		if err != nil {
			return nil, err
		}
		order = append(order, added...)
	}

	list := make([]*cand, 0, len(order))
	for _, id := range order {
		list = append(list, cands[id])
	}
	sort.SliceStable(list, func(i, j int) bool {
		if list[i].score != list[j].score {
			return list[i].score > list[j].score
		}
		return list[i].c.ID < list[j].c.ID
	})
	res.Candidates = len(list)
	if err := pack(res, list, opt.Sent); err != nil {
		return nil, err
	}
	return res, nil
}

// coChanged admits, for a change request, the files that usually changed
// together with its best seed files (ContextOptions.CoChanged) and that no
// candidate comes from yet, test files aside: each file's chunk most
// relevant to the query, scored as a neighbour of the seed file's best
// chunk (HopDecay) weighted by the share of that file's commits that also
// changed it. A history that cannot be read leaves a warning, not an error.
func coChanged(ctx context.Context, db *store.DB, projectID int64, opt ContextOptions, p Params, rel *relevance, cands map[int64]*cand, res *ContextResult) ([]int64, error) {
	best := map[string]*cand{} // seed file → its best seed
	var files []string
	have := map[string]bool{}
	for _, x := range cands {
		have[x.c.Path] = true
		if !x.seed {
			continue
		}
		if b := best[x.c.Path]; b == nil || x.score > b.score || (x.score == b.score && x.c.ID < b.c.ID) {
			best[x.c.Path] = x
		}
	}
	for f := range best {
		files = append(files, f)
	}
	sort.Slice(files, func(i, j int) bool {
		a, b := best[files[i]], best[files[j]]
		if a.score != b.score {
			return a.score > b.score
		}
		return files[i] < files[j]
	})
	files = files[:min(len(files), p.CoChangeSeeds)]
	if len(files) == 0 {
		return nil, nil
	}
	couplings, err := opt.CoChanged(ctx, files)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		res.Warnings = append(res.Warnings, "history not read: "+err.Error())
		return nil, nil
	}
	var added []int64
	for _, cp := range couplings {
		if len(added) >= p.CoChangeFiles {
			break
		}
		from := best[cp.With]
		if from == nil || have[cp.Path] || search.IsTestPath(cp.Path) {
			continue
		}
		have[cp.Path] = true
		chunks, err := db.FileChunks(ctx, projectID, cp.Path, true)
		if err != nil {
			return nil, err
		}
		if len(chunks) == 0 {
			continue // not indexed (removed, ignored, or not code)
		}
		ids := make([]int64, len(chunks))
		for i, c := range chunks {
			ids[i] = c.ID
		}
		if err := rel.loadVectors(ctx, db, opt.Model, ids); err != nil {
			return nil, err
		}
		pick, pickRel := chunks[0], -1.0
		for _, c := range chunks {
			if r := rel.score(c); r > pickRel {
				pick, pickRel = c, r
			}
		}
		if cands[pick.ID] != nil {
			continue
		}
		x := &cand{c: pick, score: from.score * p.HopDecay * cp.Strength(), hops: 1, origin: from.origin, rel: pickRel,
			reason: fmt.Sprintf("changed with %s in %d of its last %d commits", cp.With, cp.Together, cp.Commits)}
		cands[pick.ID] = x
		added = append(added, pick.ID)
	}
	return added, nil
}

// widest keeps the n best-scored chunks of a frontier (ties by id), in
// frontier order (n <= 0: all).
func widest(frontier []*cand, n int) []*cand {
	if n <= 0 || len(frontier) <= n {
		return frontier
	}
	ranked := append([]*cand(nil), frontier...)
	sort.SliceStable(ranked, func(i, j int) bool {
		if ranked[i].score != ranked[j].score {
			return ranked[i].score > ranked[j].score
		}
		return ranked[i].c.ID < ranked[j].c.ID
	})
	keep := map[int64]bool{}
	for _, x := range ranked[:n] {
		keep[x.c.ID] = true
	}
	out := make([]*cand, 0, n)
	for _, x := range frontier {
		if keep[x.c.ID] {
			out = append(out, x)
		}
	}
	return out
}

// identRE matches identifiers a question names: Type.Member, snake_case,
// or camelCase words (an upper-case letter after the first).
var identRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*|[A-Za-z_]*[a-z0-9][A-Z_][A-Za-z0-9_]*`)
})

// maxNamed bounds the chunks one named symbol may bring in as seeds (more
// means the name is too common to be what was meant).
const maxNamed = 4

// namedSeeds looks up the symbols a question names (exact symbol match,
// an indexed query, not a search) and returns them as seeds scored like
// the best search hit.
func namedSeeds(ctx context.Context, db *store.DB, projectID int64, q string, seeds []Seed) ([]Seed, error) {
	best := 1.0
	for _, s := range seeds {
		best = max(best, s.Score)
	}
	var out []Seed
	seen := map[string]bool{}
	for _, name := range identRE().FindAllString(q, 3) {
		if seen[name] {
			continue
		}
		seen[name] = true
		list, err := db.ChunksBySymbol(ctx, projectID, name, maxNamed+1)
		if err != nil {
			return nil, err
		}
		if len(list) == 0 || len(list) > maxNamed {
			continue
		}
		for _, c := range list {
			out = append(out, Seed{ChunkID: c.ID, Score: best})
		}
	}
	return out, nil
}

// edge is a way from a frontier chunk to a neighbour. sure edges skip the
// relevance filter (see plan).
type edge struct {
	from   *cand
	to     int64
	weight float64
	reason string
	sure   bool
}

// plan is an intent's expansion: the weight of each way out of a chunk (0:
// not followed) and which of them enter without the relevance filter.
// Only resolved edges are followed (graph.Expandable: never name-only or
// unresolved ones).
type plan struct {
	callee, caller          float64 // calls out / in
	dispatchOut, dispatchIn float64 // calls through an interface to an implementation / from such callers
	referrer                float64 // references in: functions using the chunk as a value (a callback or handler passed on, a method value)
	referenced              float64 // references out: the functions a chunk uses as values (its callbacks, handlers, defaults)
	implOut, implIn         float64 // extends/implements out (its interfaces) / in (its implementers)
	container, members      float64 // a chunk's type header / a type's members (siblings)
	// sureCallers: a seed's callers, dispatch callers and referrers enter unfiltered;
	// allHops extends that to every hop (impact: transitive callers).
	sureCallers, allHops bool
	// sureImpl: a seed's implementers and interfaces enter unfiltered.
	sureImpl bool
	// sureCallees: a seed's direct callees enter unfiltered (the helpers
	// an implementation is made of rarely share the question's words).
	sureCallees bool
	// noTests keeps neighbours in test files out (unless the query asks).
	noTests bool
}

// planFor returns the expansion plan of an intent.
func planFor(kind string) plan {
	switch kind {
	case IntentUsage:
		// X plus its direct callers (with call-site lines), then dispatch callers.
		// A function using X as a value (a handler registered, a callback
		// passed) uses it one step removed from a call: as dispatch callers.
		return plan{caller: 1, dispatchIn: 0.9, referrer: 0.9, callee: 0.5, container: 0.9, implIn: 0.6, sureCallers: true}
	case IntentImpact:
		// Reverse callers transitively and implementers, ranked by distance.
		return plan{caller: 1, dispatchIn: 0.95, referrer: 0.9, implIn: 0.9, container: 0.7, sureCallers: true, allHops: true, sureImpl: true}
	case IntentChange:
		// The places a change touches: callers and callees across files,
		// interface ↔ implementations, the type and its other members.
		return plan{callee: 0.9, caller: 0.85, dispatchOut: 0.8, dispatchIn: 0.8, referenced: 0.8, implOut: 0.85, implIn: 0.85,
			container: 0.9, members: 0.6, sureImpl: true, sureCallees: true, noTests: true}
	case IntentLocation:
		return plan{callee: 0.8, caller: 0.8, container: 0.9, implOut: 0.8, implIn: 0.8}
	}
	// Implementation: the target, its callees, its type's header and fields.
	// A function it passes on as a value (a callback, a default policy)
	// runs on its behalf later: as an implementation it dispatches to.
	return plan{callee: 1, dispatchOut: 0.85, referenced: 0.85, caller: 0.7, container: 0.9, implOut: 0.8, implIn: 0.7, sureCallees: true}
}

// expandContext follows one hop from the frontier along the intent's plan
// and admits the relevant neighbours into cands; it returns the newly
// admitted ones.
func expandContext(ctx context.Context, db *store.DB, projectID, generation int64, frontier []*cand, hop int, pl plan, p Params,
	rel *relevance, cands map[int64]*cand, perSeed map[int64]int) ([]*cand, error) {
	edges, err := planEdges(ctx, db, projectID, frontier, pl, p)
	if err != nil {
		return nil, err
	}
	scored, indeg, err := scoreEdges(ctx, db, projectID, generation, edges, pl, p, rel, cands)
	if err != nil {
		return nil, err
	}
	return admit(frontier, scored, indeg, hop, p, cands, perSeed), nil
}

// planEdges collects the ways out of the frontier the plan follows.
func planEdges(ctx context.Context, db *store.DB, projectID int64, frontier []*cand, pl plan, p Params) ([]edge, error) {
	byID := map[int64]*cand{}
	var ids []int64
	for _, x := range frontier {
		byID[x.c.ID] = x
		ids = append(ids, x.c.ID)
	}
	var edges []edge
	add := func(f *cand, to int64, w float64, reason string, sure bool) {
		if w > 0 && to > 0 && to != f.c.ID {
			edges = append(edges, edge{from: f, to: to, weight: w, reason: reason, sure: sure})
		}
	}
	out, err := db.RelationsFrom(ctx, ids, "calls", "dispatch", "references", "extends", "implements", "contains")
	if err != nil {
		return nil, err
	}
	for _, r := range out {
		f := byID[r.SrcChunk]
		if f == nil || !graph.Expandable(r) {
			continue
		}
		switch r.Kind {
		case "calls":
			add(f, r.DstChunk, pl.callee, fmt.Sprintf("called by %s (line %d)", f.c.Symbol, r.Line), f.seed && pl.sureCallees)
		case "dispatch":
			add(f, r.DstChunk, pl.dispatchOut, fmt.Sprintf("implementation called by %s (line %d)", f.c.Symbol, r.Line), false)
		case "references":
			// a seed's, like its callees, unfiltered where they are
			add(f, r.DstChunk, pl.referenced, fmt.Sprintf("used as a value by %s (line %d)", f.c.Symbol, r.Line), f.seed && pl.sureCallees)
		case "contains":
			if f.c.Kind == "type" {
				add(f, r.DstChunk, pl.members, "member of "+f.c.Symbol, false)
			}
		default:
			add(f, r.DstChunk, pl.implOut, r.Kind[:len(r.Kind)-1]+"ed by "+f.c.Symbol, f.seed && pl.sureImpl)
		}
	}
	in, err := relationsIn(ctx, db, frontier, p)
	if err != nil {
		return nil, err
	}
	hasContainer := map[int64]bool{}
	containerOf := map[int64]int64{} // frontier method → its class (same file)
	for _, r := range in {
		f := byID[r.DstChunk]
		if f == nil || r.SrcChunk <= 0 || !graph.Expandable(r) {
			continue
		}
		sureCaller := pl.sureCallers && (f.seed || pl.allHops)
		switch r.Kind {
		case "calls", "dispatch":
			w, what := pl.caller, "calls"
			if r.Kind == "dispatch" {
				w, what = pl.dispatchIn, "calls through an interface"
			}
			add(f, r.SrcChunk, w, fmt.Sprintf("%s %s (line %d)", what, f.c.Symbol, r.Line), sureCaller)
		case "references":
			add(f, r.SrcChunk, pl.referrer, fmt.Sprintf("uses %s as a value (line %d)", f.c.Symbol, r.Line), sureCaller)
		case "contains":
			hasContainer[f.c.ID] = true
			containerOf[f.c.ID] = r.SrcChunk
			add(f, r.SrcChunk, pl.container, "container of "+f.c.Symbol, f.seed)
		default:
			add(f, r.SrcChunk, pl.implIn, r.Kind+" "+f.c.Symbol, f.seed && pl.sureImpl)
		}
	}
	// Containers declared elsewhere (Go methods in another file than their
	// type): look the container type up by symbol, same file, then same
	// directory, only when unambiguous.
	for _, f := range frontier {
		if pl.container == 0 || f.c.Container == "" || hasContainer[f.c.ID] || f.c.Kind != "method" {
			continue
		}
		list, err := db.ChunksBySymbol(ctx, projectID, f.c.Container, 20)
		if err != nil {
			return nil, err
		}
		if id := pickContainer(f.c, list); id != 0 {
			add(f, id, pl.container, "container of "+f.c.Symbol, f.seed)
		}
	}
	ovr, err := overriddenEdges(ctx, db, projectID, frontier, containerOf, pl)
	if err != nil {
		return nil, err
	}
	return append(edges, ovr...), nil
}

// relationsIn reads the relations into the frontier that expansion
// follows: containers, subtypes and implementers of every frontier chunk
// (ordered by id), then the callers, dispatch callers and referrers
// (ordered by id) of those whose callers are followed.
//
// A hub's callers are unrelated to each other: they are followed only
// when the hub is what was asked about (a seed), so they are not read for
// the others. The relations table is indexed by target chunk alone, so
// asking for a hub's containers through that index would read every one
// of its call rows too; a hub that is not a type can only be the target
// of contains relations (extends and implements resolve to types), and a
// contains relation is recorded in its member's own file, so for such hubs
// the contains relations of their files are read instead.
func relationsIn(ctx context.Context, db *store.DB, frontier []*cand, p Params) ([]store.GraphRelation, error) {
	var full, types, files []int64
	hubFile := map[int64]bool{}
	seenFile := map[int64]bool{}
	for _, x := range frontier {
		switch {
		case x.seed || x.indeg <= p.HubDegree:
			full = append(full, x.c.ID)
		case x.c.Kind == "type":
			types = append(types, x.c.ID)
		default:
			hubFile[x.c.ID] = true
			if !seenFile[x.c.FileID] {
				seenFile[x.c.FileID] = true
				files = append(files, x.c.FileID)
			}
		}
	}
	all, err := db.RelationsTo(ctx, full, "contains", "extends", "implements", "calls", "dispatch", "references")
	if err != nil {
		return nil, err
	}
	var structural, calls []store.GraphRelation
	for _, r := range all {
		if r.Kind == "calls" || r.Kind == "dispatch" || r.Kind == "references" {
			calls = append(calls, r)
		} else {
			structural = append(structural, r)
		}
	}
	typeRels, err := db.RelationsTo(ctx, types, "contains", "extends", "implements")
	if err != nil {
		return nil, err
	}
	structural = append(structural, typeRels...)
	inFiles, err := db.FileRelations(ctx, files, "contains")
	if err != nil {
		return nil, err
	}
	for _, r := range inFiles {
		if hubFile[r.DstChunk] {
			structural = append(structural, r)
		}
	}
	sort.SliceStable(structural, func(i, j int) bool { return structural[i].ID < structural[j].ID })
	sort.SliceStable(calls, func(i, j int) bool { return calls[i].ID < calls[j].ID })
	return append(structural, calls...), nil
}

// overriddenEdges links each seed method to the method of the same name
// in its class's direct base classes (resolved extends edges only): the
// method it overrides, the "interface" side of a class hierarchy. They
// enter unfiltered when the plan admits a seed's interfaces so (sureImpl)
// or, as for callees, when its direct callees do (sureCallees).
func overriddenEdges(ctx context.Context, db *store.DB, projectID int64, frontier []*cand, containerOf map[int64]int64, pl plan) ([]edge, error) {
	if pl.implOut == 0 {
		return nil, nil
	}
	byClass := map[int64][]*cand{}
	var classes []int64
	for _, f := range frontier {
		cls, ok := containerOf[f.c.ID]
		if !f.seed || !ok || f.c.Kind != "method" || f.c.Short == "" {
			continue
		}
		if byClass[cls] == nil {
			classes = append(classes, cls)
		}
		byClass[cls] = append(byClass[cls], f)
	}
	if len(classes) == 0 {
		return nil, nil
	}
	ext, err := db.RelationsFrom(ctx, classes, "extends")
	if err != nil {
		return nil, err
	}
	var baseIDs []int64
	for _, r := range ext {
		if graph.Expandable(r) {
			baseIDs = append(baseIDs, r.DstChunk)
		}
	}
	bases, err := db.GraphChunks(ctx, baseIDs, false)
	if err != nil {
		return nil, err
	}
	var out []edge
	for _, r := range ext {
		base, ok := bases[r.DstChunk]
		if !graph.Expandable(r) || !ok || base.Kind != "type" {
			continue
		}
		for _, f := range byClass[r.SrcChunk] {
			list, err := db.ChunksBySymbol(ctx, projectID, base.Symbol+"."+f.c.Short, maxNamed)
			if err != nil {
				return nil, err
			}
			for _, m := range list {
				if m.Path == base.Path && m.ID != f.c.ID {
					out = append(out, edge{from: f, to: m.ID, weight: pl.implOut,
						reason: "overridden by " + f.c.Symbol, sure: pl.sureImpl || pl.sureCallees})
				}
			}
		}
	}
	return out, nil
}

// scoredEdge is an edge with its neighbour loaded and scored.
type scoredEdge struct {
	edge
	c     store.GraphChunk
	score float64
	rel   float64
}

// scoreEdges loads the neighbours not seen yet and scores every (frontier,
// neighbour) pair that passes the relevance filter, grouped per frontier
// chunk; it also returns the neighbours' caller counts.
//
// The hub penalty only lowers a relevance (it is at most 1), so a
// neighbour whose relevance is below MinRelevance on every edge that
// reaches it, none of them sure, fails whatever its caller count: callers
// are counted only for the others (counting reads every call row of a
// neighbour, and most neighbours of a second hop fail the filter).
func scoreEdges(ctx context.Context, db *store.DB, projectID, generation int64, edges []edge, pl plan, p Params, rel *relevance, cands map[int64]*cand) (map[int64][]scoredEdge, map[int64]int, error) {
	var need []int64
	seen := map[int64]bool{}
	for _, e := range edges {
		if cands[e.to] == nil && !seen[e.to] {
			seen[e.to] = true
			need = append(need, e.to)
		}
	}
	sort.Slice(need, func(i, j int) bool { return need[i] < need[j] })
	chunks, err := db.GraphChunks(ctx, need, true)
	if err != nil {
		return nil, nil, err
	}
	if err := rel.loadVectors(ctx, db, "", need); err != nil {
		return nil, nil, err
	}
	// First pass: relevance, the test-file rule and the filter without
	// the hub penalty.
	type pending struct {
		edge
		c    store.GraphChunk
		r    float64
		damp float64
	}
	var kept []pending
	relCache := map[int64]float64{}
	counted := map[int64]bool{}
	var count []int64
	for _, e := range edges {
		if cands[e.to] != nil {
			continue // already in: keep its better (earlier) score
		}
		c, ok := chunks[e.to]
		if !ok || c.Kind == "text" {
			continue
		}
		r, ok := relCache[e.to]
		if !ok {
			r = rel.score(c)
			relCache[e.to] = r
		}
		damp := 1.0
		if rel.testPenalty && search.IsTestPath(c.Path) {
			if pl.noTests {
				continue
			}
			damp *= p.TestPenalty
		}
		if r*damp < p.MinRelevance && !e.sure {
			continue
		}
		kept = append(kept, pending{e, c, r, damp})
		if !counted[e.to] {
			counted[e.to] = true
			count = append(count, e.to)
		}
	}
	indeg, err := callInDegree(ctx, db, projectID, generation, count)
	if err != nil {
		return nil, nil, err
	}
	byFrom := map[int64][]scoredEdge{}
	for _, k := range kept {
		damp := k.damp * hubPenalty(indeg[k.to], p.HubDegree)
		if k.r*damp < p.MinRelevance && !k.sure {
			continue
		}
		s := k.from.score * p.HopDecay * k.weight * (0.4 + 0.6*k.r) * damp
		byFrom[k.from.c.ID] = append(byFrom[k.from.c.ID], scoredEdge{k.edge, k.c, s, k.r})
	}
	return byFrom, indeg, nil
}

// admit takes the best-scored neighbours of each frontier chunk within the
// per-node and per-seed caps.
func admit(frontier []*cand, byFrom map[int64][]scoredEdge, indeg map[int64]int, hop int, p Params, cands map[int64]*cand, perSeed map[int64]int) []*cand {
	var next []*cand
	for _, f := range frontier {
		list := byFrom[f.c.ID]
		sort.SliceStable(list, func(i, j int) bool {
			if list[i].score != list[j].score {
				return list[i].score > list[j].score
			}
			return list[i].to < list[j].to
		})
		taken := 0
		for _, se := range list {
			if taken >= p.MaxPerNode || perSeed[f.origin] >= p.MaxPerSeed {
				break
			}
			if x := cands[se.to]; x != nil {
				if se.score > x.score && !x.seed {
					x.score, x.reason, x.rel = se.score, se.reason, se.rel
				}
				continue
			}
			x := &cand{c: se.c, score: se.score, hops: hop, reason: se.reason, origin: f.origin, indeg: indeg[se.to], rel: se.rel}
			cands[se.to] = x
			next = append(next, x)
			taken++
			perSeed[f.origin]++
		}
	}
	return next
}

// pickContainer chooses the type chunk a method belongs to among chunks
// with its container's symbol: the one in the same file, else the only
// one in the same directory.
func pickContainer(m store.GraphChunk, list []store.GraphChunk) int64 {
	var sameDir []int64
	for _, c := range list {
		if c.Kind != "type" {
			continue
		}
		if c.Path == m.Path {
			return c.ID
		}
		if path.Dir(c.Path) == path.Dir(m.Path) {
			sameDir = append(sameDir, c.ID)
		}
	}
	if len(sameDir) == 1 {
		return sameDir[0]
	}
	return 0
}

// hubPenalty is 1 up to limit callers, then sqrt(limit/callers).
func hubPenalty(callers, limit int) float64 {
	if limit <= 0 || callers <= limit {
		return 1
	}
	return math.Sqrt(float64(limit) / float64(callers))
}

// relevance scores a chunk against the query: keyword overlap per query
// keyword (name matches count fully, path/body matches half), blended with
// cosine similarity relative to the seeds' when vectors are available.
type relevance struct {
	groups  [][]query.Term
	qvec    []float32
	model   string
	cos     map[int64]float64 // inner product of qvec with each loaded chunk's vector
	refCos  float64
	kwShare float64
	// testPenalty is false when the query mentions tests.
	testPenalty bool
	// terms numbers the distinct texts of the groups' terms (built by the
	// first keyword call).
	terms map[string]int
	// match finds the terms among a chunk's tokens; found is its scratch.
	match *query.TermMatcher
	found []uint8
	// memory provides inner products with vectors held in memory
	// (ContextOptions.Dots).
	memory func(q []float32, ids []int64) map[int64]float64
	// text tokenizes chunks as the index does; Han runs are left whole
	// (not segmented) when no query term has Han characters, since no
	// such term can match them either way.
	text query.IndexOptions
}

func newRelevance(q string, keywords []string, qvec []float32, kwShare float64) *relevance {
	r := &relevance{qvec: qvec, cos: map[int64]float64{}, kwShare: kwShare, testPenalty: true}
	for _, t := range query.Parse(strings.Join(append([]string{q}, keywords...), " ")).Terms {
		if t.Text == "test" || t.Text == "tests" || t.Text == "testing" || t.Text == "测试" {
			r.testPenalty = false
		}
	}
	seen := map[string]bool{}
	r.text.WholeCJK = true
	for _, text := range append([]string{q}, keywords...) {
		for _, kw := range query.Parse(text).Keywords {
			k := strings.ToLower(kw)
			if seen[k] {
				continue
			}
			seen[k] = true
			if ts := query.Parse(kw).Terms; len(ts) > 0 {
				r.groups = append(r.groups, ts)
				for _, t := range ts {
					if query.HasCJK(t.Text) {
						r.text.WholeCJK = false
					}
				}
			}
		}
	}
	return r
}

// loadVectors computes the inner products of the query with the stored
// vectors of ids (model "" keeps the model of the first call).
func (r *relevance) loadVectors(ctx context.Context, db *store.DB, model string, ids []int64) error {
	if model != "" {
		r.model = model
	}
	if len(r.qvec) == 0 || r.model == "" || len(ids) == 0 {
		return nil
	}
	if r.memory != nil {
		var rest []int64
		held := r.memory(r.qvec, ids)
		for _, id := range ids {
			if d, ok := held[id]; ok {
				r.cos[id] = d
			} else {
				rest = append(rest, id)
			}
		}
		ids = rest
		if len(ids) == 0 {
			return nil
		}
	}
	blobs, err := db.ChunkVectors(ctx, ids, r.model)
	if err != nil {
		return err
	}
	for id, b := range blobs {
		if v := vecindex.DecodeVector(b); len(v) == len(r.qvec) {
			r.cos[id] = dot(r.qvec, v)
		}
	}
	return nil
}

// reference sets the cosine a relevant chunk has: the mean over the seeds.
func (r *relevance) reference(seeds []int64) {
	var sum float64
	n := 0
	for _, id := range seeds {
		if d, ok := r.cos[id]; ok {
			sum += d
			n++
		}
	}
	if n > 0 {
		r.refCos = sum / float64(n)
	}
}

// dot is the inner product summed in float64 in dimension order
// (vecindex.Matrix.DotsF64 sums the same way).
func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func (r *relevance) score(c store.GraphChunk) float64 {
	kw := r.keyword(c)
	if d, ok := r.cos[c.ID]; ok && r.refCos > 0 {
		// Cosine relative to the seeds': half of theirs or less counts 0,
		// as close to the query as they are counts 1.
		sem := min(max((d/r.refCos-0.5)/0.5, 0), 1)
		return r.kwShare*kw + (1-r.kwShare)*sem
	}
	return kw
}

// keywordSaturation is how many fully matched query keywords make a
// keyword score of 1: long questions have many words, and a neighbour
// that shares a few of the distinctive ones is relevant.
const keywordSaturation = 3

// keyword sums over query keywords the best weighted match of their terms
// (1 in the chunk's name, 0.3 in its path or body) and divides by
// min(keywords, keywordSaturation), capped at 1.
func (r *relevance) keyword(c store.GraphChunk) float64 {
	if len(r.groups) == 0 {
		return 0
	}
	if r.terms == nil {
		r.terms = map[string]int{}
		var list []string
		for _, g := range r.groups {
			for _, t := range g {
				if _, ok := r.terms[t.Text]; !ok {
					r.terms[t.Text] = len(r.terms)
					list = append(list, t.Text)
				}
			}
		}
		r.match = query.NewTermMatcher(list, r.text)
		r.found = make([]uint8, len(list))
	}
	const inName, inBody = 1, 2
	found := r.found
	clear(found)
	mark := func(bit uint8) func(int) { return func(i int) { found[i] |= bit } }
	name, body := mark(inName), mark(inBody)
	// Texts joined by a space or newline split as each does alone: no
	// token crosses either.
	r.match.Match(c.Symbol, name)
	r.match.Match(c.Name, name)
	r.match.Match(c.Path, body)
	r.match.Match(c.Content, body)
	var sum float64
	for _, g := range r.groups {
		bestG := 0.0
		for _, t := range g {
			m := 0.0
			switch f := found[r.terms[t.Text]]; {
			case f&inName != 0:
				m = 1
			case f&inBody != 0:
				m = 0.3
			}
			bestG = max(bestG, m*t.Weight)
		}
		sum += bestG
	}
	return min(1, sum/float64(min(len(r.groups), keywordSaturation)))
}
