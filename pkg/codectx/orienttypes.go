package codectx

import (
	"fmt"

	"codectx/internal/history"
	"codectx/internal/orient"
)

// The orientation results (Map, Impact, Overview) are the package's own
// types, converted from internal/orient's in one function each below; their
// Text renders what the library returned ("" for a value built otherwise).

// MapSymbol is one definition of a map.
type MapSymbol struct {
	Symbol string `json:"symbol"`
	Name   string `json:"name"` // chunk name with its parameter list
	Kind   string `json:"kind"`
	Line   int    `json:"line"`
	// Rank is the definition's place in the ranking, 1 for the most
	// central; Score the ranking's value behind it.
	Rank  int     `json:"rank"`
	Score float64 `json:"score"`
	// Signature is the declaration line (a member's without its receiver
	// and declaration keyword); empty for a definition shown by name.
	Signature string      `json:"signature,omitempty"`
	Members   []MapSymbol `json:"members,omitempty"`
	// More counts the members of a type that are not shown as signatures,
	// by kind; Named lists, best first, those whose names fit the budget.
	More  map[string]int `json:"more,omitempty"`
	Named []MapSymbol    `json:"named,omitempty"`
}

func newMapSymbol(s orient.MapSymbol) MapSymbol {
	return MapSymbol{Symbol: s.Symbol, Name: s.Name, Kind: s.Kind, Line: s.Line, Rank: s.Rank, Score: s.Score,
		Signature: s.Signature, Members: convertSlice(s.Members, newMapSymbol), More: s.More,
		Named: convertSlice(s.Named, newMapSymbol)}
}

// MapFile is one file of a map with its shown top-level definitions.
type MapFile struct {
	Path string `json:"path"`
	// Rank is the file's place among the map's files (by its best
	// definition), 1 first; Score that definition's score.
	Rank    int         `json:"rank"`
	Score   float64     `json:"score"`
	Symbols []MapSymbol `json:"symbols"`
	// More counts the file's definitions not shown as signatures, by kind;
	// Named lists, best first, those whose names fit the budget.
	More  map[string]int `json:"more,omitempty"`
	Named []MapSymbol    `json:"named,omitempty"`
}

// MapResult is a repository map; Text is what the budget counts.
type MapResult struct {
	Budget       int       `json:"budget"`
	Tokens       int       `json:"tokens"`
	Rank         string    `json:"rank"`
	Focus        []string  `json:"focus,omitempty"`
	TotalFiles   int       `json:"total_files"`
	TotalSymbols int       `json:"total_symbols"`
	Edges        int       `json:"edges"`
	Shown        int       `json:"shown"` // definitions shown as signatures
	Named        int       `json:"named"` // definitions shown by name only
	Files        []MapFile `json:"files"`
	Warnings     []string  `json:"warnings,omitempty"`

	src *orient.MapResult
}

func newMapResult(m *orient.MapResult) *MapResult {
	return &MapResult{Budget: m.Budget, Tokens: m.Tokens, Rank: m.Rank, Focus: m.Focus, TotalFiles: m.TotalFiles,
		TotalSymbols: m.TotalSymbols, Edges: m.Edges, Shown: m.Shown, Named: m.Named, Warnings: m.Warnings,
		Files: convertSlice(m.Files, func(f orient.MapFile) MapFile {
			return MapFile{Path: f.Path, Rank: f.Rank, Score: f.Score, Symbols: convertSlice(f.Symbols, newMapSymbol),
				More: f.More, Named: convertSlice(f.Named, newMapSymbol)}
		}), src: m}
}

// Text is the rendered map (what the budget counts).
func (m *MapResult) Text() string {
	if m.src == nil {
		return ""
	}
	return m.src.Text()
}

// ImpactRef is a chunk named in an impact or overview answer.
type ImpactRef struct {
	Symbol string `json:"symbol"`
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Path   string `json:"path"`
	Line   int    `json:"line"`
}

func (r ImpactRef) String() string { return fmt.Sprintf("%s (%s:%d)", r.Symbol, r.Path, r.Line) }

func newImpactRefs(rs []orient.Ref) []ImpactRef {
	return convertSlice(rs, func(r orient.Ref) ImpactRef { return ImpactRef(r) })
}

// ImpactFile is a file the change touched.
type ImpactFile struct {
	// Status is A (added or untracked), M (modified), D (deleted) or R
	// (renamed, possibly modified).
	Status  string `json:"status"`
	Path    string `json:"path"`               // new path ("" when deleted)
	OldPath string `json:"old_path,omitempty"` // path at the base (A: "")
}

// ChangedSymbol is a definition a change touched.
type ChangedSymbol struct {
	ImpactRef
	Change   string `json:"change"` // added, modified, deleted
	Exported bool   `json:"exported"`
	// FanIn is the number of distinct chunks that call, implement or
	// extend it (resolved relations).
	FanIn   int         `json:"fan_in"`
	Callers []ImpactRef `json:"callers"` // direct callers, from the graph
	// Implementers are the chunks that implement or extend it.
	Implementers []ImpactRef `json:"implementers,omitempty"`
	// Dispatchers may call it through an interface.
	Dispatchers []ImpactRef `json:"dispatchers,omitempty"`
	// Dangling lists, for a deleted symbol, the call sites still naming it.
	Dangling []ImpactRef `json:"dangling,omitempty"`
	Tests    int         `json:"tests"` // test files whose calls reach it
}

// Impacted is a chunk that depends on a changed symbol.
type Impacted struct {
	ImpactRef
	Depth   int      `json:"depth"`
	Via     string   `json:"via"`     // relation of the first hop: calls, implements, extends
	Reaches []string `json:"reaches"` // changed symbols it depends on
	Test    bool     `json:"test"`
}

// ImpactTestFile is a test file that exercises changed symbols.
type ImpactTestFile struct {
	Path    string   `json:"path"`
	Tests   []string `json:"tests"`   // its chunks on a path to a change
	Reaches []string `json:"reaches"` // changed symbols they reach
	Depth   int      `json:"depth"`   // hops to the nearest changed symbol (0: by import or package only)
	// Imports is true when the file imports a changed file's module or,
	// in Go, belongs to its package.
	Imports bool `json:"imports,omitempty"`
}

// ImpactResult is the impact of the work tree's changes; Text renders it.
type ImpactResult struct {
	Base     string           `json:"base,omitempty"`
	Git      bool             `json:"git"`
	Depth    int              `json:"depth"`
	Files    []ImpactFile     `json:"files"`
	Changed  []ChangedSymbol  `json:"changed"`
	Impacted []Impacted       `json:"impacted"`
	Tests    []ImpactTestFile `json:"tests"`
	Risk     string           `json:"risk"` // low, medium, high
	Reasons  []string         `json:"risk_reasons,omitempty"`
	// UsuallyWith are files the change leaves alone that usually changed
	// together with a changed file in the git history (at the base).
	UsuallyWith []CoChange `json:"usually_changed_with,omitempty"`
	Notes       []string   `json:"notes,omitempty"`

	src *orient.ImpactResult
}

// CoChange says that Path changed together with With in Together of the
// Commits commits (the last ones read) that changed With; Recent is that
// share with each commit weighted by its recency (halving every 10
// commits of With back).
type CoChange struct {
	Path     string  `json:"path"`
	With     string  `json:"with"`
	Together int     `json:"together"`
	Commits  int     `json:"commits"`
	Recent   float64 `json:"recent"`
}

func newImpactResult(r *orient.ImpactResult) *ImpactResult {
	return &ImpactResult{Base: r.Base, Git: r.Git, Depth: r.Depth, Risk: r.Risk, Reasons: r.Reasons, Notes: r.Notes,
		Files: convertSlice(r.Files, func(f orient.FileChange) ImpactFile {
			return ImpactFile{Status: f.Status, Path: f.Path, OldPath: f.OldPath}
		}),
		Changed: convertSlice(r.Changed, func(c orient.ChangedSymbol) ChangedSymbol {
			return ChangedSymbol{ImpactRef: ImpactRef(c.Ref), Change: c.Change, Exported: c.Exported, FanIn: c.FanIn,
				Callers: newImpactRefs(c.Callers), Implementers: newImpactRefs(c.Implementers),
				Dispatchers: newImpactRefs(c.Dispatchers), Dangling: newImpactRefs(c.Dangling), Tests: c.Tests}
		}),
		Impacted: convertSlice(r.Impacted, func(i orient.Impacted) Impacted {
			return Impacted{ImpactRef: ImpactRef(i.Ref), Depth: i.Depth, Via: i.Via, Reaches: i.Reaches, Test: i.Test}
		}),
		Tests:       convertSlice(r.Tests, func(t orient.TestFile) ImpactTestFile { return ImpactTestFile(t) }),
		UsuallyWith: convertSlice(r.UsuallyWith, func(c history.Coupling) CoChange { return CoChange(c) }),
		src:         r}
}

// Text renders the impact for a reader.
func (r *ImpactResult) Text() string {
	if r.src == nil {
		return ""
	}
	return r.src.Text()
}

// OverviewLanguage is one language's share of a project.
type OverviewLanguage struct {
	Lang  string `json:"lang"`
	Files int    `json:"files"`
	Bytes int64  `json:"bytes"`
}

// OverviewPackage is a top-level directory (module, package) of a project.
type OverviewPackage struct {
	Path  string `json:"path"`
	Files int    `json:"files"`
	Bytes int64  `json:"bytes"`
	// Summary is one line: the package doc comment, the README's first
	// paragraph, or its most central names.
	Summary string `json:"summary"`
	Source  string `json:"source"` // doc, readme or names
}

// EntryPoint is a main function, CLI command, HTTP handler or central
// exported API symbol.
type EntryPoint struct {
	Kind string `json:"kind"` // main, handler, command, api
	ImpactRef
}

// Hub is a symbol many others depend on.
type Hub struct {
	ImpactRef
	FanIn int `json:"fan_in"`
}

// TestLayout describes where a project's tests are.
type TestLayout struct {
	Files int            `json:"files"`
	Dirs  map[string]int `json:"dirs"` // directory → test files
}

// Freshness is how current the index is.
type Freshness struct {
	Commit     string   `json:"commit,omitempty"` // HEAD when in git
	Subject    string   `json:"subject,omitempty"`
	Dirty      []string `json:"dirty,omitempty"` // work-tree changes git reports
	IndexedAt  int64    `json:"indexed_at"`
	StaleFiles []string `json:"stale_files,omitempty"` // differ from the index
}

// OverviewResult is a project overview; Text renders it.
type OverviewResult struct {
	Root        string             `json:"root"`
	Files       int                `json:"files"`
	Symbols     int                `json:"symbols"`
	Relations   int                `json:"resolved_relations"`
	Languages   []OverviewLanguage `json:"languages"`
	Packages    []OverviewPackage  `json:"packages"`
	EntryPoints []EntryPoint       `json:"entry_points"`
	Hubs        []Hub              `json:"hubs"`
	Tests       TestLayout         `json:"tests"`
	Freshness   Freshness          `json:"freshness"`
	Tokens      int                `json:"tokens"`
	Omitted     int                `json:"omitted_packages,omitempty"`

	src *orient.OverviewResult
}

func newOverviewResult(o *orient.OverviewResult) *OverviewResult {
	return &OverviewResult{Root: o.Root, Files: o.Files, Symbols: o.Symbols, Relations: o.Relations,
		Languages:   convertSlice(o.Languages, func(l orient.LangSize) OverviewLanguage { return OverviewLanguage(l) }),
		Packages:    convertSlice(o.Packages, func(p orient.Package) OverviewPackage { return OverviewPackage(p) }),
		EntryPoints: convertSlice(o.EntryPoints, func(e orient.EntryPoint) EntryPoint { return EntryPoint{Kind: e.Kind, ImpactRef: ImpactRef(e.Ref)} }),
		Hubs:        convertSlice(o.Hubs, func(h orient.Hub) Hub { return Hub{ImpactRef: ImpactRef(h.Ref), FanIn: h.FanIn} }),
		Tests:       TestLayout(o.Tests), Freshness: Freshness(o.Freshness), Tokens: o.Tokens, Omitted: o.Omitted, src: o}
}

// Text is the rendered overview.
func (o *OverviewResult) Text() string {
	if o.src == nil {
		return ""
	}
	return o.src.Text()
}
