package mcp

import (
	"fmt"
	"sort"

	"github.com/google/jsonschema-go/jsonschema"

	"codectx/pkg/codectx"
)

// This file holds the structured content of the orientation and graph
// tools (repo_map, project_overview, code_graph): typed objects with an
// output schema that carry the answer's data — definitions, ranks, paths,
// lines, kinds, counts — by reference. The prose (signatures, package
// summaries, the tree) is in the text content only, rendered once by the
// library (MapResult.Text, OverviewResult.Text, GraphResult.Text), so a
// client that shows both to a model does not pay for the same payload
// twice.

// outputSchema infers T's JSON schema for a tool's OutputSchema; the SDK
// then validates every structured result against it.
func outputSchema[T any]() *jsonschema.Schema {
	sc, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("mcp: output schema of %T: %v", *new(T), err))
	}
	return sc
}

// ---- repo_map ----

// mapOut is repo_map's structured content.
type mapOut struct {
	Budget      int          `json:"budget" jsonschema:"the token budget of the map text"`
	Tokens      int          `json:"tokens" jsonschema:"cl100k tokens of the map text"`
	Ranking     string       `json:"ranking" jsonschema:"how definitions were ranked: pagerank, or a baseline"`
	Focus       []string     `json:"focus,omitempty" jsonschema:"files, directories or symbols the ranking was personalised toward"`
	TotalFiles  int          `json:"total_files" jsonschema:"files with definitions in the project"`
	Definitions int          `json:"total_definitions" jsonschema:"definitions the map chose from (tests, vendored code and stubs left out)"`
	Relations   int          `json:"resolved_relations" jsonschema:"resolved relations the ranking ran over"`
	Shown       int          `json:"shown" jsonschema:"definitions shown as signature lines"`
	Named       int          `json:"named" jsonschema:"definitions shown by name only"`
	Files       []mapFileOut `json:"files" jsonschema:"the map's files, best first"`
	Warnings    []string     `json:"warnings,omitempty"`
}

// mapFileOut is one file of a map. Its definitions are in parallel arrays
// (entry i of symbols, kinds, lines and ranks describes one definition):
// the same data as a list of objects at less than half the tokens on the
// wire, where a map's structured content would otherwise be three times
// its text. The first Signatures entries are the definitions shown as
// signature lines, the rest those shown by name, each group in source
// order.
type mapFileOut struct {
	Path       string   `json:"path" jsonschema:"file path relative to the project root"`
	Rank       int      `json:"rank" jsonschema:"place among the map's files, 1 first"`
	Symbols    []string `json:"symbols" jsonschema:"qualified names (Type.method) of the file's definitions in the map: first those shown as signature lines, then those shown by name, each in source order"`
	Kinds      []string `json:"kinds" jsonschema:"kind of each definition (function, method, type, class, …), parallel to symbols"`
	Lines      []int    `json:"lines" jsonschema:"first line of each definition, parallel to symbols"`
	Ranks      []int    `json:"ranks" jsonschema:"place of each definition in the project's ranking (1 for the most central), parallel to symbols"`
	Signatures int      `json:"signatures" jsonschema:"how many of the first symbols are shown as signature lines"`
	Omitted    int      `json:"omitted,omitempty" jsonschema:"definitions of the file neither shown nor named"`
}

// leanMap turns a map into its structured content.
func leanMap(m *codectx.MapResult) mapOut {
	out := mapOut{Budget: m.Budget, Tokens: m.Tokens, Ranking: m.Rank, Focus: m.Focus, TotalFiles: m.TotalFiles,
		Definitions: m.TotalSymbols, Relations: m.Edges, Shown: m.Shown, Named: m.Named, Warnings: m.Warnings,
		Files: make([]mapFileOut, 0, len(m.Files))}
	for _, f := range m.Files {
		var sigs, names []codectx.MapSymbol
		more := 0
		for _, n := range f.More {
			more += n
		}
		for _, s := range f.Symbols {
			sigs = append(sigs, s)
			sigs = append(sigs, s.Members...)
			names = append(names, s.Named...)
			for _, n := range s.More {
				more += n
			}
		}
		names = append(names, f.Named...)
		byLine := func(l []codectx.MapSymbol) {
			sort.SliceStable(l, func(a, b int) bool { return l[a].Line < l[b].Line })
		}
		byLine(sigs)
		byLine(names)
		fo := mapFileOut{Path: f.Path, Rank: f.Rank, Signatures: len(sigs), Omitted: max(more-len(names), 0),
			Symbols: []string{}, Kinds: []string{}, Lines: []int{}, Ranks: []int{}}
		for _, s := range append(sigs, names...) {
			fo.Symbols = append(fo.Symbols, s.Symbol)
			fo.Kinds = append(fo.Kinds, s.Kind)
			fo.Lines = append(fo.Lines, s.Line)
			fo.Ranks = append(fo.Ranks, s.Rank)
		}
		out.Files = append(out.Files, fo)
	}
	return out
}

// ---- project_overview ----

// overviewOut is project_overview's structured content.
type overviewOut struct {
	Root            string               `json:"root"`
	Files           int                  `json:"files" jsonschema:"indexed files"`
	Symbols         int                  `json:"symbols" jsonschema:"indexed definitions"`
	Relations       int                  `json:"resolved_relations"`
	Languages       []overviewLangOut    `json:"languages"`
	Packages        []overviewPackageOut `json:"packages" jsonschema:"top-level packages, largest first; their one-line summaries are in the text"`
	OmittedPackages int                  `json:"omitted_packages,omitempty" jsonschema:"smaller packages left out to fit the text's budget"`
	EntryPoints     []overviewRefOut     `json:"entry_points"`
	Hubs            []overviewRefOut     `json:"hubs" jsonschema:"symbols many others depend on"`
	Tests           overviewTestsOut     `json:"tests"`
	Freshness       overviewFreshOut     `json:"freshness"`
	Tokens          int                  `json:"tokens" jsonschema:"cl100k tokens of the overview text"`
}

type overviewLangOut struct {
	Lang  string `json:"lang"`
	Files int    `json:"files"`
	Bytes int64  `json:"bytes"`
}

type overviewPackageOut struct {
	Path    string `json:"path"`
	Files   int    `json:"files"`
	Bytes   int64  `json:"bytes"`
	Summary string `json:"summary_from" jsonschema:"where the text's summary line comes from: doc (package comment), readme or names (its most central names)"`
}

// overviewRefOut is an entry point (with its kind) or a hub (with its
// fan-in).
type overviewRefOut struct {
	Kind   string `json:"kind,omitempty" jsonschema:"entry points: main, handler, command or api"`
	Symbol string `json:"symbol"`
	Path   string `json:"path"`
	Line   int    `json:"line"`
	FanIn  int    `json:"fan_in,omitempty" jsonschema:"hubs: distinct definitions that call, implement or extend it"`
}

type overviewTestsOut struct {
	Files int              `json:"files" jsonschema:"test files"`
	Dirs  int              `json:"dirs" jsonschema:"directories holding test files"`
	Top   []overviewDirOut `json:"top_dirs" jsonschema:"the directories with the most test files"`
}

type overviewDirOut struct {
	Dir   string `json:"dir"`
	Files int    `json:"files"`
}

type overviewFreshOut struct {
	Commit     string   `json:"commit,omitempty" jsonschema:"HEAD, when in git"`
	IndexedAt  int64    `json:"indexed_at" jsonschema:"Unix time of the last index pass"`
	Dirty      int      `json:"dirty" jsonschema:"work-tree changes git reports"`
	Stale      int      `json:"stale" jsonschema:"files whose disk state differs from the index"`
	StaleFiles []string `json:"stale_files,omitempty" jsonschema:"the first stale files"`
}

// Lists of the overview's structured content are capped: the text shows
// fewer, and the counts say how many there are.
const (
	maxOverviewTestDirs = 8
	maxOverviewStale    = 20
)

// leanOverview turns an overview into its structured content.
func leanOverview(o *codectx.OverviewResult) overviewOut {
	out := overviewOut{Root: o.Root, Files: o.Files, Symbols: o.Symbols, Relations: o.Relations, OmittedPackages: o.Omitted, Tokens: o.Tokens,
		Languages: []overviewLangOut{}, Packages: []overviewPackageOut{}, EntryPoints: []overviewRefOut{}, Hubs: []overviewRefOut{}}
	for _, l := range o.Languages {
		out.Languages = append(out.Languages, overviewLangOut{Lang: l.Lang, Files: l.Files, Bytes: l.Bytes})
	}
	for _, p := range o.Packages {
		out.Packages = append(out.Packages, overviewPackageOut{Path: p.Path, Files: p.Files, Bytes: p.Bytes, Summary: p.Source})
	}
	for _, e := range o.EntryPoints {
		out.EntryPoints = append(out.EntryPoints, overviewRefOut{Kind: e.Kind, Symbol: e.Symbol, Path: e.Path, Line: e.Line})
	}
	for _, h := range o.Hubs {
		out.Hubs = append(out.Hubs, overviewRefOut{Symbol: h.Symbol, Path: h.Path, Line: h.Line, FanIn: h.FanIn})
	}
	dirs := make([]overviewDirOut, 0, len(o.Tests.Dirs))
	for d, n := range o.Tests.Dirs {
		dirs = append(dirs, overviewDirOut{Dir: d, Files: n})
	}
	sort.Slice(dirs, func(a, b int) bool {
		if dirs[a].Files != dirs[b].Files {
			return dirs[a].Files > dirs[b].Files
		}
		return dirs[a].Dir < dirs[b].Dir
	})
	out.Tests = overviewTestsOut{Files: o.Tests.Files, Dirs: len(dirs), Top: dirs[:min(len(dirs), maxOverviewTestDirs)]}
	f := o.Freshness
	out.Freshness = overviewFreshOut{Commit: f.Commit, IndexedAt: f.IndexedAt, Dirty: len(f.Dirty), Stale: len(f.StaleFiles),
		StaleFiles: f.StaleFiles[:min(len(f.StaleFiles), maxOverviewStale)]}
	return out
}

// ---- code_graph ----

// graphOut is code_graph's structured content: the sub-graph's nodes and
// edges by reference; the signatures and the tree are in the text.
type graphOut struct {
	Name       string         `json:"name"`
	Direction  string         `json:"direction"`
	Depth      int            `json:"depth"`
	Roots      []string       `json:"roots" jsonschema:"keys of the nodes the name matched"`
	Nodes      []graphNodeOut `json:"nodes"`
	Edges      []graphEdgeOut `json:"edges"`
	Truncated  bool           `json:"truncated,omitempty" jsonschema:"the node limit cut the graph"`
	Note       string         `json:"note,omitempty"`
	Notes      []string       `json:"notes,omitempty"`
	StaleFiles []string       `json:"stale_files,omitempty"`
}

// graphNodeOut is a chunk, or (key u…, no path) an unresolved target.
type graphNodeOut struct {
	Key       string `json:"key" jsonschema:"c<chunk id> for a chunk, u<n> for an unresolved target"`
	Symbol    string `json:"symbol" jsonschema:"the symbol, or the target as written"`
	Kind      string `json:"kind,omitempty"`
	Path      string `json:"path,omitempty"`
	StartLine int    `json:"start_line,omitempty"`
	EndLine   int    `json:"end_line,omitempty"`
	Depth     int    `json:"depth" jsonschema:"hops from the nearest root"`
	Root      bool   `json:"root,omitempty"`
	Expanded  bool   `json:"expanded,omitempty" jsonschema:"its relations were followed"`
}

// graphEdgeOut is one relation; its file is the source node's unless Path
// says otherwise.
type graphEdgeOut struct {
	From       string `json:"from"`
	To         string `json:"to"`
	Kind       string `json:"kind" jsonschema:"calls, dispatch, references, extends, implements, contains or imports"`
	Line       int    `json:"line"`
	Path       string `json:"path,omitempty" jsonschema:"the file the relation is written in, when it is not the source node's"`
	Resolution string `json:"resolution,omitempty" jsonschema:"exact, inferred, name, external or unresolved"`
	Detail     string `json:"detail,omitempty"`
}

// leanGraph turns a graph answer into its structured content.
func leanGraph(r *codectx.GraphResult) graphOut {
	out := graphOut{Name: r.Name, Direction: r.Direction, Depth: r.Depth, Roots: r.Roots, Truncated: r.Truncated, Note: r.Note,
		Nodes: make([]graphNodeOut, 0, len(r.Nodes)), Edges: make([]graphEdgeOut, 0, len(r.Edges))}
	if out.Roots == nil {
		out.Roots = []string{}
	}
	paths := make(map[string]string, len(r.Nodes))
	for _, n := range r.Nodes {
		paths[n.Key] = n.Path
		out.Nodes = append(out.Nodes, graphNodeOut{Key: n.Key, Symbol: n.Name, Kind: n.Kind, Path: n.Path, StartLine: n.StartLine, EndLine: n.EndLine,
			Depth: n.Depth, Root: n.Root, Expanded: n.Expanded})
	}
	for _, e := range r.Edges {
		eo := graphEdgeOut{From: e.From, To: e.To, Kind: e.Kind, Line: e.Line, Resolution: e.Resolution, Detail: e.Detail}
		if e.Path != paths[e.From] {
			eo.Path = e.Path
		}
		out.Edges = append(out.Edges, eo)
	}
	return out
}
