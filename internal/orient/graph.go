// Package orient answers the questions an agent asks when it opens a
// repository or has just edited one: what matters here (Map: the most
// central definitions, ranked by personalised PageRank over the resolved
// relations and cut to a token budget), what does my change touch (Impact:
// changed symbols from git diff hunks, then their callers, implementers and
// dependants, the tests that reach them and a risk summary), and what is
// this project (Overview: languages, packages, entry points, hubs, tests,
// index freshness).
//
// It reads the index through internal/store, runs read-only git commands
// (diff, ls-files, show, log, status) and parses a file's base version with
// internal/lang. It must not write to the database or the work tree, index
// files itself (the caller re-indexes stale files before BuildImpact), run
// searches, embed text, print, or download anything.
package orient

import (
	"context"
	"math"
	"sort"
	"strings"
	"sync"

	"codectx/internal/search"
	"codectx/internal/store"
)

// Graph is a project's chunks and the resolved edges between them, loaded
// once per answer.
type Graph struct {
	Chunks []store.GraphChunk
	Edges  []store.Edge
	byID   map[int64]int // chunk id → index in Chunks
	out    [][]arc
	in     [][]arc
	// members lists, per type chunk index, its member chunk indexes.
	members map[int][]int
}

// arc is an edge in index space; kind is the relation kind.
type arc struct {
	to   int
	kind string
	line int
	res  string
}

// The last graph loaded is kept for its (database, project, generation)
// in a long-lived process (the MCP server, the shell, serve): a project's
// chunks and relations change only when its generation moves, and loading
// them is most of a map's or an overview's time on a large project (about
// 2.5 s of CPU for $GOROOT/src's 98k chunks and 470k relations). A Graph is
// read-only once built, so callers may share it. One graph is kept, and
// only up to maxCachedEdges relations (about 100 MB at $GOROOT/src's size).
type graphKey struct {
	db         string
	project    int64
	generation int64
}

const maxCachedEdges = 1 << 21

var lastGraph struct {
	sync.Mutex
	key graphKey
	g   *Graph
}

// LoadAt is Load through the cache of the last graph, for a project at
// generation (0: not cached). The generation must be read before the call:
// a graph is never older than the generation it is kept for.
func LoadAt(ctx context.Context, db *store.DB, projectID, generation int64) (*Graph, error) {
	if generation == 0 {
		return Load(ctx, db, projectID)
	}
	key := graphKey{db: db.Path(), project: projectID, generation: generation}
	lastGraph.Lock()
	if lastGraph.g != nil && lastGraph.key == key {
		g := lastGraph.g
		lastGraph.Unlock()
		return g, nil
	}
	lastGraph.Unlock()
	g, err := Load(ctx, db, projectID)
	if err != nil {
		return nil, err
	}
	if len(g.Edges) <= maxCachedEdges {
		lastGraph.Lock()
		lastGraph.key, lastGraph.g = key, g
		lastGraph.Unlock()
	}
	return g, nil
}

// Load reads a project's chunks and resolved edges.
func Load(ctx context.Context, db *store.DB, projectID int64) (*Graph, error) {
	chunks, err := db.ProjectChunks(ctx, projectID)
	if err != nil {
		return nil, err
	}
	edges, err := db.ResolvedEdges(ctx, projectID)
	if err != nil {
		return nil, err
	}
	return newGraph(chunks, edges), nil
}

func newGraph(chunks []store.GraphChunk, edges []store.Edge) *Graph {
	g := &Graph{Chunks: chunks, Edges: edges, byID: make(map[int64]int, len(chunks)),
		out: make([][]arc, len(chunks)), in: make([][]arc, len(chunks)), members: map[int][]int{}}
	for i, c := range chunks {
		g.byID[c.ID] = i
	}
	for _, e := range edges {
		s, ok1 := g.byID[e.Src]
		d, ok2 := g.byID[e.Dst]
		if !ok1 || !ok2 || s == d {
			continue
		}
		g.out[s] = append(g.out[s], arc{d, e.Kind, e.Line, e.Resolution})
		g.in[d] = append(g.in[d], arc{s, e.Kind, e.Line, e.Resolution})
		if e.Kind == "contains" {
			g.members[s] = append(g.members[s], d)
		}
	}
	return g
}

// Index returns the position of a chunk id in Chunks.
func (g *Graph) Index(id int64) (int, bool) {
	i, ok := g.byID[id]
	return i, ok
}

// isType reports whether a chunk declares a type (class, struct, interface…).
func isType(c store.GraphChunk) bool {
	switch c.Kind {
	case "type", "class", "interface", "struct", "enum", "trait", "record", "module", "namespace", "impl":
		return true
	}
	return false
}

// isMember reports whether a chunk is declared inside a type.
func isMember(c store.GraphChunk) bool { return c.Container != "" }

// PageRank ranks chunks by personalised PageRank over the resolved edges:
// a call, import, extends or implements edge passes rank from its source to
// its target, and containment links a type and its members both ways (a
// type whose methods are used is central; a central type's members are
// worth showing). Each relation weighs edgeWeight (by its resolution
// kind); a dynamic call's dispatch edges share one call's weight among the
// implementations the call site may reach. Several relations between the
// same two chunks count as the square root of their summed weight.
// personal weights the teleport vector (nil or all zero: uniform). Ties
// keep the order of Chunks, so the result is deterministic for the same
// index.
func (g *Graph) PageRank(personal []float64) []float64 {
	return g.PageRanks(personal)[0]
}

// wedge is a weighted edge of PageRank's adjacency.
type wedge struct {
	to int
	w  float64
}

// PageRanks is PageRank for several teleport vectors over one weighted
// adjacency (built once): one result per vector, in order.
func (g *Graph) PageRanks(personals ...[]float64) [][]float64 {
	n := len(g.Chunks)
	out := make([][]float64, len(personals))
	if n == 0 {
		return out
	}
	adj := make([][]wedge, n)
	for s := range g.out {
		// implementations per dispatching call site (source line)
		sites := map[int]int{}
		for _, a := range g.out[s] {
			if a.kind == "dispatch" {
				sites[a.line]++
			}
		}
		counts := map[int]float64{}
		var order []int
		add := func(d int, w float64) {
			if w <= 0 {
				return
			}
			if _, ok := counts[d]; !ok {
				order = append(order, d)
			}
			counts[d] += w
		}
		for _, a := range g.out[s] {
			w := edgeWeight(a.res)
			if a.kind == "dispatch" {
				w /= float64(sites[a.line])
			}
			add(a.to, w)
		}
		for _, a := range g.in[s] {
			if a.kind == "contains" { // member → its type
				add(a.to, edgeWeight(a.res))
			}
		}
		for _, d := range order {
			adj[s] = append(adj[s], wedge{d, math.Sqrt(counts[d])})
		}
	}
	outW := make([]float64, n)
	for s, list := range adj {
		for _, e := range list {
			outW[s] += e.w
		}
	}
	for k, personal := range personals {
		out[k] = rankWalk(adj, outW, personal)
	}
	return out
}

// rankWalk runs the power iteration of PageRank over a weighted adjacency
// (outW: each source's total out-weight) with the teleport vector
// personal (nil or all zero: uniform).
func rankWalk(adj [][]wedge, outW []float64, personal []float64) []float64 {
	n := len(adj)
	p := make([]float64, n)
	var sum float64
	for i := range p {
		if personal != nil {
			p[i] = personal[i]
		}
		sum += p[i]
	}
	if sum == 0 {
		for i := range p {
			p[i] = 1
		}
		sum = float64(n)
	}
	for i := range p {
		p[i] /= sum
	}
	const damping = 0.85
	r := append([]float64(nil), p...)
	next := make([]float64, n)
	for iter := 0; iter < 100; iter++ {
		var dangling float64
		for i := range next {
			next[i] = 0
		}
		for s, list := range adj {
			if outW[s] == 0 {
				dangling += r[s]
				continue
			}
			share := damping * r[s] / outW[s]
			for _, e := range list {
				next[e.to] += share * e.w
			}
		}
		var delta float64
		for i := range next {
			next[i] += (1-damping)*p[i] + damping*dangling*p[i]
			delta += math.Abs(next[i] - r[i])
		}
		r, next = next, r
		if delta < 1e-9 {
			break
		}
	}
	return r
}

// inferredWeight is the weight of a relation whose target is the only
// candidate of a naming rule (same file, same package, imported module,
// unique name) rather than known from a type or an import: likely, not
// certain, so it passes half the rank of an exact one.
const inferredWeight = 0.5

// edgeWeight is the rank a relation passes by its resolution kind: 1 when
// resolved exactly (by type or import, or stored before resolution kinds),
// inferredWeight when inferred, nothing without a single target (name,
// external, unresolved: the store does not return those as resolved
// edges, and they must not carry rank if it ever does). Every relation
// kind (calls, dispatch, implements, extends, imports, contains) weighs
// the same; a dispatch edge's weight is then shared by the call site's
// implementations (PageRank).
func edgeWeight(res string) float64 {
	switch res {
	case store.ResExact, "":
		return 1
	case store.ResInferred:
		return inferredWeight
	}
	return 0
}

// order returns chunk indexes sorted by score, highest first; ties by path
// and line (the Chunks order).
func order(score []float64) []int {
	idx := make([]int, len(score))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return score[idx[a]] > score[idx[b]] })
	return idx
}

// isTest reports whether a path is a test file (one rule for the project:
// search.IsTestPath).
func isTest(p string) bool { return search.IsTestPath(p) }

// ownCode reports whether a path holds the project's own code: not a test,
// not vendored or installed third-party code, not a type stub (the rules
// search uses to demote them).
func ownCode(p string) bool {
	return !search.IsTestPath(p) && !search.IsDependencyPath(p) && !search.IsStubPath(p)
}

// exported reports whether a symbol is part of a public API by its
// language's convention: Go capitalised names (and methods of capitalised
// types), Python names without a leading underscore, and names elsewhere
// unless they start with "_" or "#".
func exported(c store.GraphChunk) bool {
	short := c.Short
	if short == "" {
		short = c.Symbol
	}
	if short == "" {
		return false
	}
	switch c.Lang {
	case "go":
		if !upper(short) {
			return false
		}
		if c.Container != "" {
			last := c.Container
			if i := strings.LastIndexByte(last, '.'); i >= 0 {
				last = last[i+1:]
			}
			return upper(last)
		}
		return true
	default:
		if strings.HasPrefix(short, "_") || strings.HasPrefix(short, "#") {
			return false
		}
		if c.Container != "" && strings.HasPrefix(c.Container, "_") {
			return false
		}
		return true
	}
}

func upper(s string) bool { return s != "" && s[0] >= 'A' && s[0] <= 'Z' }
