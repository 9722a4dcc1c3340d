package orient

import (
	"context"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"codectx/internal/history"
	"codectx/internal/lang"
	"codectx/internal/scan"
	"codectx/internal/store"
)

// Impact defaults.
const (
	DefaultImpactDepth = 2
	MaxImpactDepth     = 5
	// testDepth is how many hops (callers of callers …) Impact follows to
	// find the tests that reach a changed symbol.
	testDepth = 4
	// maxListed bounds the impacted symbols and test files listed.
	maxListed = 50
)

// Change kinds of a symbol.
const (
	ChangeAdded    = "added"
	ChangeModified = "modified"
	ChangeDeleted  = "deleted"
)

// ImpactOptions configure BuildImpact.
type ImpactOptions struct {
	Root    string // project root (git commands run there)
	Base    string // the ref compared against ("" outside git)
	Git     bool   // changes come from git (old sides via git show)
	Depth   int    // hops of callers/implementers followed; 0 means 2
	Changes []FileChange
	// OldChunks holds, outside git, the indexed chunks of changed and
	// removed files as they were before re-indexing (the old side).
	OldChunks map[string][]store.GraphChunk
	Notes     []string
}

// Ref is a chunk in an impact answer.
type Ref struct {
	Symbol string `json:"symbol"`
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Path   string `json:"path"`
	Line   int    `json:"line"`
}

func (r Ref) String() string { return fmt.Sprintf("%s (%s:%d)", r.Symbol, r.Path, r.Line) }

// ChangedSymbol is a definition a change touched.
type ChangedSymbol struct {
	Ref
	Change   string `json:"change"` // added, modified, deleted
	Exported bool   `json:"exported"`
	// FanIn is the number of distinct chunks that call, implement or
	// extend it (resolved relations).
	FanIn   int   `json:"fan_in"`
	Callers []Ref `json:"callers"` // direct callers, from the graph
	// Implementers are the chunks that implement or extend it.
	Implementers []Ref `json:"implementers,omitempty"`
	// Dispatchers may call it through an interface (dispatch relations:
	// a call on an interface resolved to this implementation).
	Dispatchers []Ref `json:"dispatchers,omitempty"`
	// Dangling counts, for a deleted symbol, the call sites still naming it
	// (now unresolved).
	Dangling []Ref `json:"dangling,omitempty"`
	Tests    int   `json:"tests"` // test files whose calls reach it
	idx      int
}

// Impacted is a chunk that depends on a changed symbol.
type Impacted struct {
	Ref
	Depth   int      `json:"depth"`
	Via     string   `json:"via"`     // relation of the first hop: calls, implements, extends
	Reaches []string `json:"reaches"` // changed symbols it depends on
	Test    bool     `json:"test"`
	fanIn   int
}

// TestFile is a test file that exercises changed symbols.
type TestFile struct {
	Path    string   `json:"path"`
	Tests   []string `json:"tests"`   // its chunks on a path to a change
	Reaches []string `json:"reaches"` // changed symbols they reach
	Depth   int      `json:"depth"`   // hops to the nearest changed symbol (0: by import or package only)
	// Imports is true when the file imports a changed file's module or,
	// in Go, belongs to its package (a _test.go file beside it).
	Imports bool `json:"imports,omitempty"`
}

// ImpactResult is the impact of the work tree's changes.
type ImpactResult struct {
	Base     string          `json:"base,omitempty"`
	Git      bool            `json:"git"`
	Depth    int             `json:"depth"`
	Files    []FileChange    `json:"files"`
	Changed  []ChangedSymbol `json:"changed"`
	Impacted []Impacted      `json:"impacted"`
	Tests    []TestFile      `json:"tests"`
	Risk     string          `json:"risk"` // low, medium, high
	Reasons  []string        `json:"risk_reasons,omitempty"`
	// UsuallyWith are files this change leaves alone that usually changed
	// together with a changed file in the git history (at Base): a
	// reminder of what such a change has needed before. Test files aside.
	UsuallyWith []history.Coupling `json:"usually_changed_with,omitempty"`
	Notes       []string           `json:"notes,omitempty"`
}

// maxUsually bounds the files listed as usually changed together.
const maxUsually = 10

// BuildImpact maps the changes' hunks (new and old side) onto chunks, then
// follows callers, implementers and extenders Depth hops, finds the test
// files that reach a changed symbol within a few hops, and summarises the
// risk.
func BuildImpact(ctx context.Context, db *store.DB, projectID int64, g *Graph, opt ImpactOptions) (*ImpactResult, error) {
	if opt.Depth == 0 {
		opt.Depth = DefaultImpactDepth
	}
	if opt.Depth < 1 || opt.Depth > MaxImpactDepth {
		return nil, fmt.Errorf("depth must be between 1 and %d, got %d", MaxImpactDepth, opt.Depth)
	}
	res := &ImpactResult{Base: opt.Base, Git: opt.Git, Depth: opt.Depth, Files: opt.Changes, Notes: opt.Notes}
	if res.Files == nil {
		res.Files = []FileChange{}
	}
	byPath := map[string][]int{}
	for i, c := range g.Chunks {
		byPath[c.Path] = append(byPath[c.Path], i)
	}
	changed := map[int]string{} // chunk index → change kind
	var deleted []ChangedSymbol
	for _, fc := range opt.Changes {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		newHit := map[int]bool{}
		if !opt.Git && fc.Path != "" && fc.OldPath != "" {
			// Outside git there are no hunks: a modified file's symbols
			// are compared by content with the chunks indexed before.
			hits, gone, err := contentChanges(ctx, db, projectID, g, byPath[fc.Path], fc, opt.OldChunks[fc.OldPath])
			if err != nil {
				return nil, err
			}
			for _, i := range hits {
				changed[i] = ChangeModified
				if findSymbolIn(opt.OldChunks[fc.OldPath], g.Chunks[i].Symbol) < 0 {
					changed[i] = ChangeAdded
				}
			}
			deleted = append(deleted, gone...)
			continue
		}
		if fc.Path != "" {
			var ranges [][2]int
			if !fc.Whole {
				for _, h := range fc.Hunks {
					ranges = append(ranges, [2]int{h.NewStart, h.NewStart + max(h.NewCount, 1) - 1})
				}
			}
			for _, i := range innermost(g.Chunks, byPath[fc.Path], ranges, fc.Whole) {
				newHit[i] = true
			}
		}
		var old []store.GraphChunk
		oldSyms := map[string]bool{}
		if fc.OldPath != "" {
			var err error
			if old, err = oldChunks(ctx, opt, fc.OldPath); err != nil {
				return nil, err
			}
			for _, c := range old {
				oldSyms[c.Symbol] = true
			}
			var ranges [][2]int
			if !fc.Whole {
				for _, h := range fc.Hunks {
					if h.OldCount > 0 {
						ranges = append(ranges, [2]int{h.OldStart, h.OldStart + h.OldCount - 1})
					}
				}
			}
			all := make([]int, len(old))
			for i := range old {
				all[i] = i
			}
			for _, oi := range innermost(old, all, ranges, fc.Whole && fc.Path == "") {
				oc := old[oi]
				if now := findSymbol(g, byPath[fc.Path], oc.Symbol); now >= 0 {
					newHit[now] = true
					continue
				}
				deleted = append(deleted, ChangedSymbol{Ref: Ref{Symbol: oc.Symbol, Name: oc.Name, Kind: oc.Kind, Path: fc.OldPath, Line: oc.StartLine},
					Change: ChangeDeleted, Exported: exported(oc), idx: -1})
			}
		}
		for i := range newHit {
			kind := ChangeModified
			if fc.OldPath == "" || !oldSyms[g.Chunks[i].Symbol] {
				kind = ChangeAdded
			}
			changed[i] = kind
		}
	}
	res.Changed = symbolsOf(g, changed)
	if err := danglingRefs(ctx, db, projectID, deleted); err != nil {
		return nil, err
	}
	res.Changed = append(res.Changed, deleted...)
	res.Impacted, res.Tests = walkImpact(g, res.Changed, opt.Depth)
	importers, err := importingTests(ctx, db, projectID, g, res.Changed)
	if err != nil {
		return nil, err
	}
	for path, syms := range importers {
		found := false
		for i := range res.Tests {
			if res.Tests[i].Path == path {
				res.Tests[i].Imports, found = true, true
			}
		}
		if !found {
			res.Tests = append(res.Tests, TestFile{Path: path, Tests: []string{}, Reaches: syms, Imports: true})
		}
	}
	// tests reached by deleted symbols' remaining call sites
	for i := range res.Changed {
		cs := &res.Changed[i]
		for _, d := range cs.Dangling {
			if isTest(d.Path) {
				res.Tests = addTest(res.Tests, d.Path, d.Symbol, cs.Symbol, 1)
			}
		}
	}
	for i := range res.Changed {
		cs := &res.Changed[i]
		for _, t := range res.Tests {
			if t.Depth == 0 {
				continue // by import or package only: not known to reach it
			}
			for _, r := range t.Reaches {
				if r == cs.Symbol {
					cs.Tests++
					break
				}
			}
		}
	}
	sortTests(res.Tests)
	if len(res.Tests) > maxListed {
		res.Tests = res.Tests[:maxListed]
	}
	if len(res.Impacted) > maxListed {
		res.Notes = append(res.Notes, fmt.Sprintf("%d impacted symbols; the first %d are listed", len(res.Impacted), maxListed))
		res.Impacted = res.Impacted[:maxListed]
	}
	res.Risk, res.Reasons = risk(res.Changed)
	if opt.Git {
		if err := usuallyWith(ctx, res, byPath, opt); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// usuallyWith fills res.UsuallyWith from the history at the base: the files
// coupled to the changed source files (history.CoChanged) that the change
// does not touch, that the index holds, test files aside. A history that
// cannot be read leaves a note.
func usuallyWith(ctx context.Context, res *ImpactResult, byPath map[string][]int, opt ImpactOptions) error {
	touched := map[string]bool{}
	var paths []string
	for _, f := range res.Files {
		if f.Path != "" && !touched[f.Path] && len(byPath[f.Path]) > 0 && !isTest(f.Path) {
			paths = append(paths, f.Path)
		}
		touched[f.Path], touched[f.OldPath] = true, true
	}
	if len(paths) == 0 {
		return nil
	}
	sort.Strings(paths)
	couplings, err := history.CoChanged(ctx, opt.Root, paths, history.Options{Rev: opt.Base})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		res.Notes = append(res.Notes, "history not read: "+err.Error())
		return nil
	}
	listed := map[string]bool{}
	for _, c := range couplings {
		if touched[c.Path] || listed[c.Path] || isTest(c.Path) || len(byPath[c.Path]) == 0 {
			continue
		}
		listed[c.Path] = true
		res.UsuallyWith = append(res.UsuallyWith, c)
		if len(res.UsuallyWith) == maxUsually {
			break
		}
	}
	return nil
}

// oldChunks returns the chunks of a file at the base: parsed from git show,
// or (outside git) the chunks indexed before the re-index.
func oldChunks(ctx context.Context, opt ImpactOptions, oldPath string) ([]store.GraphChunk, error) {
	if !opt.Git {
		return opt.OldChunks[oldPath], nil
	}
	src, err := gitShow(ctx, opt.Root, opt.Base, oldPath)
	if err != nil {
		return nil, fmt.Errorf("read %s at %s: %w", oldPath, opt.Base, err)
	}
	parsed := lang.Parse(oldPath, scan.LanguageOf(oldPath), src)
	out := make([]store.GraphChunk, 0, len(parsed.Chunks))
	for _, c := range parsed.Chunks {
		if c.Kind == "text" {
			continue
		}
		short := c.Symbol
		if i := strings.LastIndexByte(short, '.'); i >= 0 {
			short = short[i+1:]
		}
		out = append(out, store.GraphChunk{Path: oldPath, Lang: parsed.Language, Kind: c.Kind, Name: c.Name, Symbol: c.Symbol,
			Short: short, Container: c.Container, StartLine: c.StartLine, EndLine: c.EndLine})
	}
	return out, nil
}

// innermost returns the chunks (among idx) that overlap one of the line
// ranges — all of them when whole — leaving out a chunk that encloses
// another hit chunk of the same range (a class around a changed method).
func innermost(chunks []store.GraphChunk, idx []int, ranges [][2]int, whole bool) []int {
	if whole {
		return idx
	}
	hit := map[int]bool{}
	for _, r := range ranges {
		var in []int
		for _, i := range idx {
			c := chunks[i]
			if c.StartLine <= r[1] && c.EndLine >= r[0] {
				in = append(in, i)
			}
		}
		for _, i := range in {
			enclosing := false
			for _, j := range in {
				if j != i && encloses(chunks[i], chunks[j]) {
					enclosing = true
					break
				}
			}
			if !enclosing {
				hit[i] = true
			}
		}
	}
	out := make([]int, 0, len(hit))
	for i := range hit {
		out = append(out, i)
	}
	sort.Ints(out)
	return out
}

// contentChanges compares, outside git, a modified file's chunks now
// (idx: their indexes in g) with the chunks indexed before (old): a chunk
// whose symbol is new or whose text differs from every old chunk of that
// symbol is changed (moved lines alone change nothing); an old symbol
// missing now is deleted.
func contentChanges(ctx context.Context, db *store.DB, projectID int64, g *Graph, idx []int, fc FileChange, old []store.GraphChunk) ([]int, []ChangedSymbol, error) {
	now, err := db.FileChunks(ctx, projectID, fc.Path, true)
	if err != nil {
		return nil, nil, err
	}
	before := map[string][]string{} // symbol → texts
	for _, c := range old {
		before[c.Symbol] = append(before[c.Symbol], strings.TrimSpace(c.Content))
	}
	text := map[int64]string{}
	nowSyms := map[string]bool{}
	for _, c := range now {
		text[c.ID] = strings.TrimSpace(c.Content)
		nowSyms[c.Symbol] = true
	}
	var hits []int
	for _, i := range idx {
		c := g.Chunks[i]
		t, ok := text[c.ID]
		if !ok || !slices.Contains(before[c.Symbol], t) {
			hits = append(hits, i)
		}
	}
	var gone []ChangedSymbol
	for _, oc := range old {
		if !nowSyms[oc.Symbol] {
			gone = append(gone, ChangedSymbol{Ref: Ref{Symbol: oc.Symbol, Name: oc.Name, Kind: oc.Kind, Path: fc.OldPath, Line: oc.StartLine},
				Change: ChangeDeleted, Exported: exported(oc), idx: -1})
			nowSyms[oc.Symbol] = true // once per symbol
		}
	}
	return hits, gone, nil
}

func findSymbolIn(chunks []store.GraphChunk, symbol string) int {
	for i, c := range chunks {
		if c.Symbol == symbol {
			return i
		}
	}
	return -1
}

func encloses(a, b store.GraphChunk) bool {
	return a.StartLine <= b.StartLine && a.EndLine >= b.EndLine && (a.StartLine != b.StartLine || a.EndLine != b.EndLine)
}

func findSymbol(g *Graph, idx []int, symbol string) int {
	for _, i := range idx {
		if g.Chunks[i].Symbol == symbol {
			return i
		}
	}
	return -1
}

func refOf(c store.GraphChunk) Ref {
	return Ref{Symbol: c.Symbol, Name: c.Name, Kind: c.Kind, Path: c.Path, Line: c.StartLine}
}

// dependsKind reports whether an incoming relation of this kind makes its
// source depend on the target.
func dependsKind(kind string) bool { return definiteKind(kind) || kind == "dispatch" }

// definiteKind is dependsKind without dispatch (a call through an
// interface that may reach this implementation): the relations fan-in
// counts.
func definiteKind(kind string) bool {
	return kind == "calls" || kind == "implements" || kind == "extends" || kind == "imports"
}

// symbolsOf turns the changed chunks into ChangedSymbols with their direct
// callers and implementers, in path and line order.
func symbolsOf(g *Graph, changed map[int]string) []ChangedSymbol {
	idx := make([]int, 0, len(changed))
	for i := range changed {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	out := make([]ChangedSymbol, 0, len(idx))
	for _, i := range idx {
		c := g.Chunks[i]
		cs := ChangedSymbol{Ref: refOf(c), Change: changed[i], Exported: exported(c), Callers: []Ref{}, idx: i}
		seen, dispatch := map[int]bool{}, map[int]bool{}
		for _, a := range g.in[i] {
			switch {
			case a.kind == "dispatch":
				if !dispatch[a.to] {
					dispatch[a.to] = true
					cs.Dispatchers = append(cs.Dispatchers, refOf(g.Chunks[a.to]))
				}
				continue
			case !dependsKind(a.kind) || seen[a.to]:
				continue
			}
			seen[a.to] = true
			if a.kind == "calls" {
				cs.Callers = append(cs.Callers, refOf(g.Chunks[a.to]))
			} else {
				cs.Implementers = append(cs.Implementers, refOf(g.Chunks[a.to]))
			}
		}
		cs.FanIn = len(seen)
		sortRefs(cs.Callers)
		sortRefs(cs.Implementers)
		sortRefs(cs.Dispatchers)
		out = append(out, cs)
	}
	return out
}

func sortRefs(r []Ref) {
	sort.Slice(r, func(a, b int) bool {
		if r[a].Path != r[b].Path {
			return r[a].Path < r[b].Path
		}
		if r[a].Line != r[b].Line {
			return r[a].Line < r[b].Line
		}
		return r[a].Symbol < r[b].Symbol
	})
}

// danglingRefs fills, for deleted symbols, the call sites that still name
// them and are now unresolved.
func danglingRefs(ctx context.Context, db *store.DB, projectID int64, deleted []ChangedSymbol) error {
	for i := range deleted {
		d := &deleted[i]
		short := d.Symbol
		if j := strings.LastIndexByte(short, '.'); j >= 0 {
			short = short[j+1:]
		}
		rels, err := db.UnresolvedTo(ctx, projectID, []string{short}, 200)
		if err != nil {
			return err
		}
		var src []int64
		for _, r := range rels {
			if r.Kind == "calls" && r.SrcChunk != 0 {
				src = append(src, r.SrcChunk)
			}
		}
		chunks, err := db.GraphChunks(ctx, src, false)
		if err != nil {
			return err
		}
		seen := map[int64]bool{}
		d.Dangling = []Ref{}
		for _, id := range src {
			if c, ok := chunks[id]; ok && !seen[id] {
				seen[id] = true
				d.Dangling = append(d.Dangling, refOf(c))
			}
		}
		sortRefs(d.Dangling)
		d.FanIn = len(d.Dangling)
	}
	return nil
}

// walkImpact follows incoming dependency relations from each changed
// symbol: up to depth hops for the impacted list, up to testDepth hops to
// find the tests (a path may pass through other changed symbols).
// Impacted symbols are ranked by depth, then by how many changed symbols
// they reach, then by their own fan-in.
func walkImpact(g *Graph, changed []ChangedSymbol, depth int) ([]Impacted, []TestFile) {
	type state struct {
		depth   int
		via     string
		reaches map[string]bool
	}
	seen := map[int]*state{}
	isChanged := map[int]bool{}
	for _, cs := range changed {
		if cs.idx >= 0 {
			isChanged[cs.idx] = true
		}
	}
	maxD := max(depth, testDepth)
	var tests []TestFile
	for _, cs := range changed {
		if cs.idx < 0 {
			continue
		}
		dist := map[int]int{cs.idx: 0}
		via := map[int]string{}
		frontier := []int{cs.idx}
		for d := 1; d <= maxD && len(frontier) > 0; d++ {
			var next []int
			for _, i := range frontier {
				for _, a := range g.in[i] {
					if !dependsKind(a.kind) {
						continue
					}
					if _, ok := dist[a.to]; ok {
						continue
					}
					dist[a.to] = d
					via[a.to] = a.kind
					if d > 1 {
						via[a.to] = via[i]
					}
					next = append(next, a.to)
				}
			}
			frontier = next
		}
		for i, d := range dist {
			if d == 0 || isChanged[i] {
				continue
			}
			c := g.Chunks[i]
			if isTest(c.Path) {
				tests = addTest(tests, c.Path, c.Symbol, cs.Symbol, d)
			}
			if d > depth {
				continue
			}
			st, ok := seen[i]
			if !ok || d < st.depth {
				if !ok {
					st = &state{reaches: map[string]bool{}}
					seen[i] = st
				}
				st.depth, st.via = d, via[i]
			}
			st.reaches[cs.Symbol] = true
		}
	}
	var imp []Impacted
	for i, st := range seen {
		c := g.Chunks[i]
		reaches := make([]string, 0, len(st.reaches))
		for r := range st.reaches {
			reaches = append(reaches, r)
		}
		sort.Strings(reaches)
		imp = append(imp, Impacted{Ref: refOf(c), Depth: st.depth, Via: st.via, Reaches: reaches, Test: isTest(c.Path), fanIn: len(g.in[i])})
	}
	sort.Slice(imp, func(a, b int) bool {
		x, y := imp[a], imp[b]
		if x.Depth != y.Depth {
			return x.Depth < y.Depth
		}
		if x.Test != y.Test {
			return !x.Test
		}
		if len(x.Reaches) != len(y.Reaches) {
			return len(x.Reaches) > len(y.Reaches)
		}
		if x.fanIn != y.fanIn {
			return x.fanIn > y.fanIn
		}
		if x.Path != y.Path {
			return x.Path < y.Path
		}
		return x.Line < y.Line
	})
	return imp, tests
}

// importingTests finds the test files that import a changed symbol's file
// or module (stored imports relations whose target, as a path with "."
// or "/" separators, ends with the file's module path or directory), and,
// for Go, the _test.go files of the same directory (the same package, or
// its external test package). It returns test path → changed symbols.
func importingTests(ctx context.Context, db *store.DB, projectID int64, g *Graph, changed []ChangedSymbol) (map[string][]string, error) {
	out := map[string][]string{}
	add := func(path, sym string) {
		if !contains(out[path], sym) {
			out[path] = append(out[path], sym)
		}
	}
	testFiles := map[string]bool{}
	for _, c := range g.Chunks {
		if isTest(c.Path) {
			testFiles[c.Path] = true
		}
	}
	for _, cs := range changed {
		if isTest(cs.Path) || cs.Change == ChangeDeleted {
			continue
		}
		dir := path.Dir(cs.Path)
		if strings.HasSuffix(cs.Path, ".go") {
			for tp := range testFiles {
				if strings.HasSuffix(tp, "_test.go") && path.Dir(tp) == dir {
					add(tp, cs.Symbol)
				}
			}
		}
	}
	imports, err := db.Imports(ctx, projectID)
	if err != nil || len(imports) == 0 {
		return out, err
	}
	ids := make([]int64, 0, len(imports))
	for id := range imports {
		ids = append(ids, id)
	}
	paths, err := db.FilePaths(ctx, ids)
	if err != nil {
		return nil, err
	}
	for id, targets := range imports {
		tp := paths[id]
		if !isTest(tp) {
			continue
		}
		for _, t := range targets {
			norm := strings.Trim(strings.ReplaceAll(strings.TrimLeft(t, "./"), ".", "/"), "/")
			if norm == "" {
				continue
			}
			for _, cs := range changed {
				if isTest(cs.Path) || cs.Change == ChangeDeleted {
					continue
				}
				mod := strings.TrimSuffix(cs.Path, path.Ext(cs.Path))
				dir := path.Dir(cs.Path)
				if importMatches(norm, mod) || (dir != "." && importMatches(norm, dir)) {
					add(tp, cs.Symbol)
				}
			}
		}
	}
	return out, nil
}

// importMatches reports whether a normalised import target names p: equal,
// or ending in "/"+p, or p ending in "/"+target (relative imports).
func importMatches(target, p string) bool {
	return target == p || strings.HasSuffix(target, "/"+p) || strings.HasSuffix(p, "/"+target)
}

func addTest(tests []TestFile, path, symbol, reaches string, depth int) []TestFile {
	for i := range tests {
		t := &tests[i]
		if t.Path != path {
			continue
		}
		if !contains(t.Tests, symbol) {
			t.Tests = append(t.Tests, symbol)
		}
		if !contains(t.Reaches, reaches) {
			t.Reaches = append(t.Reaches, reaches)
		}
		t.Depth = min(t.Depth, depth)
		return tests
	}
	return append(tests, TestFile{Path: path, Tests: []string{symbol}, Reaches: []string{reaches}, Depth: depth})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func sortTests(tests []TestFile) {
	for i := range tests {
		sort.Strings(tests[i].Tests)
		sort.Strings(tests[i].Reaches)
	}
	key := func(d int) int { // import-only files (depth 0) last
		if d == 0 {
			return testDepth + 1
		}
		return d
	}
	sort.Slice(tests, func(a, b int) bool {
		if ka, kb := key(tests[a].Depth), key(tests[b].Depth); ka != kb {
			return ka < kb
		}
		return tests[a].Path < tests[b].Path
	})
}

// Risk thresholds: a symbol with at least highFanIn dependants is a hub.
const (
	highFanIn   = 10
	mediumFanIn = 3
)

// risk summarises the changed symbols: high when an exported symbol with
// many dependants changes or a deleted symbol is still referenced, medium
// when public API or a symbol with several dependants changes, low
// otherwise; changed symbols no test reaches are named.
func risk(changed []ChangedSymbol) (string, []string) {
	level := 0
	var reasons, public, untested []string
	for _, c := range changed {
		if isTest(c.Path) {
			continue // a changed test is no risk to its callers
		}
		switch {
		case c.Change == ChangeDeleted && len(c.Dangling) > 0:
			level = max(level, 2)
			reasons = append(reasons, fmt.Sprintf("%s was deleted but %d call sites still name it", c.Symbol, len(c.Dangling)))
		case c.Exported && c.FanIn >= highFanIn:
			level = max(level, 2)
			reasons = append(reasons, fmt.Sprintf("%s is exported with fan-in %d", c.Symbol, c.FanIn))
		case c.FanIn >= mediumFanIn:
			level = max(level, 1)
			reasons = append(reasons, fmt.Sprintf("%s has fan-in %d", c.Symbol, c.FanIn))
		case c.Exported && c.Change != ChangeAdded:
			level = max(level, 1)
			public = append(public, c.Symbol)
		}
		if c.Tests == 0 && c.Change != ChangeDeleted {
			untested = append(untested, c.Symbol)
		}
	}
	if len(public) > 0 {
		reasons = append(reasons, fmt.Sprintf("public API changed: %s", listSome(public, 5)))
	}
	if len(untested) > 0 {
		reasons = append(reasons, fmt.Sprintf("no test reaches %s", listSome(untested, 5)))
	}
	return []string{"low", "medium", "high"}[level], reasons
}

// listSome joins up to n names and counts the rest.
func listSome(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], ", "), len(names)-n)
}

// Text renders the impact for a terminal or a model.
func (r *ImpactResult) Text() string {
	var b strings.Builder
	against := "the last index"
	if r.Git {
		against = r.Base
	}
	counts := map[string]int{}
	for _, f := range r.Files {
		counts[f.Status]++
	}
	fmt.Fprintf(&b, "# change impact against %s: %d files changed", against, len(r.Files))
	var parts []string
	for _, s := range []struct{ k, w string }{{"M", "modified"}, {"A", "added"}, {"D", "deleted"}, {"R", "renamed"}} {
		if counts[s.k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[s.k], s.w))
		}
	}
	if len(parts) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(parts, ", "))
	}
	fmt.Fprintf(&b, ", %d symbols\n", len(r.Changed))
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	if len(r.Files) == 0 {
		b.WriteString("no changes\n")
		return b.String()
	}
	fmt.Fprintf(&b, "risk: %s", r.Risk)
	if len(r.Reasons) > 0 {
		fmt.Fprintf(&b, " — %s", strings.Join(r.Reasons, "; "))
	}
	b.WriteString("\n\nfiles\n")
	for _, f := range r.Files {
		switch f.Status {
		case "R":
			fmt.Fprintf(&b, "  R %s → %s\n", f.OldPath, f.Path)
		case "D":
			fmt.Fprintf(&b, "  D %s\n", f.OldPath)
		default:
			fmt.Fprintf(&b, "  %s %s\n", f.Status, f.Path)
		}
	}
	if len(r.Changed) > 0 {
		b.WriteString("\nchanged symbols\n")
	}
	for _, c := range r.Changed {
		pub := "internal"
		if c.Exported {
			pub = "exported"
		}
		fmt.Fprintf(&b, "  %s %s:%d %s — %s, fan-in %d, %d test files\n", strings.ToUpper(c.Change[:1]), c.Path, c.Line, c.Name, pub, c.FanIn, c.Tests)
		if len(c.Callers) > 0 {
			fmt.Fprintf(&b, "      callers: %s\n", refList(c.Callers))
		}
		if len(c.Implementers) > 0 {
			fmt.Fprintf(&b, "      implemented/extended by: %s\n", refList(c.Implementers))
		}
		if len(c.Dispatchers) > 0 {
			fmt.Fprintf(&b, "      may be called through an interface by: %s\n", listSome(refStrings(c.Dispatchers), 10))
		}
		if len(c.Dangling) > 0 {
			fmt.Fprintf(&b, "      still called by (now unresolved): %s\n", refList(c.Dangling))
		}
	}
	if len(r.Impacted) > 0 {
		fmt.Fprintf(&b, "\nimpacted (depth ≤ %d, ranked)\n", r.Depth)
	}
	for _, im := range r.Impacted {
		t := ""
		if im.Test {
			t = " [test]"
		}
		fmt.Fprintf(&b, "  %d %s:%d %s%s — %s %s\n", im.Depth, im.Path, im.Line, im.Symbol, t, im.Via, strings.Join(im.Reaches, ", "))
	}
	if len(r.UsuallyWith) > 0 {
		b.WriteString("\nusually changed together with them, not in this change\n")
	}
	for _, c := range r.UsuallyWith {
		fmt.Fprintf(&b, "  %s — with %s in %d of its last %d commits\n", c.Path, c.With, c.Together, c.Commits)
	}
	if len(r.Tests) > 0 {
		b.WriteString("\ntests that exercise them\n")
	}
	for _, t := range r.Tests {
		names := t.Tests
		more := ""
		if len(names) > 8 {
			names, more = names[:8], fmt.Sprintf(", … %d more", len(t.Tests)-8)
		}
		how := fmt.Sprintf("depth %d", t.Depth)
		switch {
		case t.Imports && len(t.Tests) == 0:
			how = "imports or shares the package"
		case t.Imports:
			how += ", imports or shares the package"
		}
		fmt.Fprintf(&b, "  %s (%s): %s%s\n", t.Path, how, strings.Join(names, ", "), more)
	}
	return b.String()
}

func refList(refs []Ref) string { return strings.Join(refStrings(refs), ", ") }

func refStrings(refs []Ref) []string {
	parts := make([]string, len(refs))
	for i, r := range refs {
		parts[i] = r.String()
	}
	return parts
}
