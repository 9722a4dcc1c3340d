// Package graph answers what a named symbol is connected to over the stored
// relations (Build, the `codectx graph` sub-graph, rendered as a tree,
// Mermaid, DOT or JSON), and says which relations are sure enough to follow
// (Expandable). Context assembly for a question lives in internal/assemble.
//
// It reads the database only through internal/store's indexed queries, so
// every step costs the degree of the nodes involved, never a scan of the
// project. It must not write to the database, run searches itself, embed
// text, print, or download anything.
package graph

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"codectx/internal/store"
)

// Directions.
const (
	DirOut  = "out"
	DirIn   = "in"
	DirBoth = "both"
)

// DefaultMaxNodes bounds the nodes of one graph.
const DefaultMaxNodes = 200

// Options select the sub-graph Build returns.
type Options struct {
	// Name is a type ("SampleService"), a member ("SampleService.findUserById"),
	// a bare function name, or a file path (its file-level chunks).
	Name string
	// Direction is out, in or both ("" means both).
	Direction string
	// Depth is how many hops to expand; <= 0 means 1.
	Depth int
	// MaxNodes bounds the node count; <= 0 means DefaultMaxNodes.
	MaxNodes int
	// MinConfidence drops edges resolved less surely than this: "exact",
	// "inferred", "name" (also keeps name-level and unresolved calls that
	// match only by name), or "" / "all" (everything, external included).
	MinConfidence string
}

// Confidence levels accepted by Options.MinConfidence.
var Confidences = []string{store.ResExact, store.ResInferred, store.ResName, "all"}

// confidenceRank maps a MinConfidence to the worst store.ResolutionRank kept.
func confidenceRank(min string) (int, error) {
	switch min {
	case "", "all":
		return 4, nil
	case store.ResExact, store.ResInferred, store.ResName:
		return store.ResolutionRank(min), nil
	}
	return 0, fmt.Errorf("graph: min confidence %q: want exact, inferred, name or all", min)
}

// Expandable reports whether a relation may be followed as a resolved edge
// (context expansion, graph hops): it has a target chunk and was not only
// matched by name.
func Expandable(r store.GraphRelation) bool {
	return r.DstChunk > 0 && r.Resolution != store.ResName && r.Resolution != store.ResUnresolved
}

// Node is a chunk, or the name of an unresolved target.
type Node struct {
	Key       string `json:"key"`            // "c<chunk id>" or "u<n>" for unresolved targets
	ID        int64  `json:"id,omitempty"`   // chunk id; 0 for unresolved
	Name      string `json:"name"`           // symbol, or the target as written
	Signature string `json:"signature"`      // chunk name with parameters; the name for unresolved
	Kind      string `json:"kind,omitempty"` // chunk kind
	Path      string `json:"path,omitempty"`
	StartLine int    `json:"start_line,omitempty"`
	EndLine   int    `json:"end_line,omitempty"`
	Resolved  bool   `json:"resolved"`
	Root      bool   `json:"root,omitempty"`     // matched the name asked for
	Depth     int    `json:"depth"`              // hops from the nearest root
	Expanded  bool   `json:"expanded,omitempty"` // its relations were followed

	fileID int64
	short  string
	file   []store.GraphChunk // the chunks of a file node
}

// Edge is one relation between two nodes.
type Edge struct {
	From     string `json:"from"` // node key of the source
	To       string `json:"to"`   // node key of the target
	Kind     string `json:"kind"` // extends, implements, contains, imports, calls, dispatch, references
	Path     string `json:"path"` // file the relation was written in
	Line     int    `json:"line"` // line of the relation in Path
	Resolved bool   `json:"resolved"`
	// Resolution says how the target was found: exact, inferred, name,
	// external, unresolved ("" for imports and file containment).
	Resolution string `json:"resolution,omitempty"`
	// Detail adds to Resolution: the rule, the external package, the
	// number of same-named candidates, "dynamic" for dispatch edges.
	Detail string `json:"detail,omitempty"`

	rel int64
}

// Result is a sub-graph around the nodes a name matched.
type Result struct {
	Name      string   `json:"name"`
	Direction string   `json:"direction"`
	Depth     int      `json:"depth"`
	Roots     []string `json:"roots"`
	Nodes     []Node   `json:"nodes"`
	Edges     []Edge   `json:"edges"`
	Truncated bool     `json:"truncated,omitempty"`
	Note      string   `json:"note,omitempty"`

	index map[string]int
}

// Node returns the node with the given key, or nil.
func (r *Result) Node(key string) *Node {
	if i, ok := r.index[key]; ok {
		return &r.Nodes[i]
	}
	return nil
}

// NotFoundError is returned for a name that matches nothing; Suggestions
// are the closest existing names.
type NotFoundError struct {
	Name        string
	Suggestions []string
}

func (e *NotFoundError) Error() string {
	if len(e.Suggestions) == 0 {
		return fmt.Sprintf("no symbol named %q in the index, and no similar names", e.Name)
	}
	return fmt.Sprintf("no symbol named %q in the index; closest: %s", e.Name, strings.Join(e.Suggestions, ", "))
}

// ErrNotFound matches every *NotFoundError with errors.Is.
var ErrNotFound = errors.New("symbol not found")

// Is makes errors.Is(err, ErrNotFound) true.
func (e *NotFoundError) Is(target error) bool { return target == ErrNotFound }

// kindOrder is the display order of relation kinds.
var kindOrder = map[string]int{"contains": 0, "extends": 1, "implements": 2, "imports": 3, "calls": 4, "references": 5}

// Build looks name up and expands its relations.
func Build(ctx context.Context, db *store.DB, projectID int64, opt Options) (*Result, error) {
	name := strings.TrimSpace(opt.Name)
	if name == "" {
		return nil, errors.New("graph: empty name")
	}
	dir := opt.Direction
	switch dir {
	case "":
		dir = DirBoth
	case DirOut, DirIn, DirBoth:
	default:
		return nil, fmt.Errorf("graph: direction %q: want out, in or both", dir)
	}
	depth := opt.Depth
	if depth <= 0 {
		depth = 1
	}
	maxNodes := opt.MaxNodes
	if maxNodes <= 0 {
		maxNodes = DefaultMaxNodes
	}
	minRank, err := confidenceRank(strings.TrimSpace(opt.MinConfidence))
	if err != nil {
		return nil, err
	}
	fileChunks, err := lookupFile(ctx, db, projectID, name)
	if err != nil {
		return nil, err
	}
	var roots []store.GraphChunk
	if len(fileChunks) == 0 {
		if roots, err = Lookup(ctx, db, projectID, name); err != nil {
			return nil, err
		}
	}
	if len(roots) == 0 && len(fileChunks) == 0 {
		sugg, err := Suggest(ctx, db, projectID, name, 5)
		if err != nil {
			return nil, err
		}
		return nil, &NotFoundError{Name: name, Suggestions: sugg}
	}
	b := &builder{db: db, projectID: projectID, dir: dir, maxNodes: maxNodes, minRank: minRank,
		res:  &Result{Name: name, Direction: dir, Depth: depth, index: map[string]int{}},
		seen: map[int64]bool{}, edgeKeys: map[string]bool{}, unres: map[string]string{}, hiddenByName: map[int64]bool{}}
	if len(roots) > maxNodes {
		roots = roots[:maxNodes]
		b.res.Truncated = true
	}
	var frontier []string
	if len(fileChunks) > 0 {
		k := b.addFile(fileChunks)
		b.res.Roots = append(b.res.Roots, k)
		frontier = append(frontier, k)
	}
	for _, c := range roots {
		k := b.addChunk(c, 0)
		b.res.Nodes[b.res.index[k]].Root = true
		b.res.Roots = append(b.res.Roots, k)
		frontier = append(frontier, k)
	}
	for d := 0; d < depth && len(frontier) > 0; d++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		next, err := b.expand(ctx, frontier, d+1)
		if err != nil {
			return nil, err
		}
		frontier = next
	}
	var notes []string
	if b.res.Truncated {
		notes = append(notes, fmt.Sprintf("graph cut at %d nodes; ask for a smaller depth or one direction", maxNodes))
	}
	if n := len(b.hiddenByName); n > 0 {
		more := ""
		if b.moreByName {
			more = " (at least)"
		}
		notes = append(notes, fmt.Sprintf("%d more unresolved calls that match only by name are not shown%s; at most %d per node", n, more, maxByName))
	}
	b.res.Note = strings.Join(notes, "; ")
	b.res.sortEdges()
	return b.res, nil
}

// Lookup finds the chunks a name denotes: an exact symbol, or a short name
// (for a dotted name, the chunks whose symbol ends with it, so
// "Cache.run" finds "SampleService.Cache.run"). A parameter list in name is
// ignored.
func Lookup(ctx context.Context, db *store.DB, projectID int64, name string) ([]store.GraphChunk, error) {
	if i := strings.IndexByte(name, '('); i > 0 {
		name = strings.TrimSpace(name[:i])
	}
	chunks, err := db.ChunksBySymbol(ctx, projectID, name, DefaultMaxNodes)
	if err != nil || len(chunks) > 0 {
		return chunks, err
	}
	short := store.ShortName(name)
	chunks, err = db.ChunksByShort(ctx, projectID, short, DefaultMaxNodes)
	if err != nil || short == name {
		return chunks, err
	}
	var out []store.GraphChunk
	for _, c := range chunks {
		if strings.HasSuffix(c.Symbol, "."+name) || strings.HasSuffix(c.Symbol, ":"+name) || strings.HasSuffix(c.Symbol, "#"+name) {
			out = append(out, c)
		}
	}
	return out, nil
}

// lookupFile returns the chunks of the file a name denotes when it looks
// like a path of the project, nil otherwise.
func lookupFile(ctx context.Context, db *store.DB, projectID int64, name string) ([]store.GraphChunk, error) {
	if !strings.ContainsAny(name, "/\\") && !hasFileExt(name) {
		return nil, nil
	}
	return db.FileChunks(ctx, projectID, strings.ReplaceAll(name, "\\", "/"), false)
}

func hasFileExt(name string) bool {
	i := strings.LastIndexByte(name, '.')
	if i <= 0 || i == len(name)-1 {
		return false
	}
	switch name[i+1:] {
	case "go", "java", "py", "js", "jsx", "ts", "tsx", "rs", "c", "h", "cc", "cpp", "hpp", "cs", "rb", "php", "kt", "swift", "scala", "md", "txt":
		return true
	}
	return false
}

type builder struct {
	db        *store.DB
	projectID int64
	dir       string
	maxNodes  int
	res       *Result
	seen      map[int64]bool    // relation ids already turned into edges
	edgeKeys  map[string]bool   // from|to|kind already present
	unres     map[string]string // unresolved label → node key

	hiddenByName map[int64]bool // unresolved incoming calls left out (maxByName)
	moreByName   bool           // the by-name query hit its limit
	minRank      int            // worst store.ResolutionRank kept
}

// keep applies Options.MinConfidence to a relation; rows not subject to
// resolution (imports, file containment) are always kept. Calls matched
// only by name need "name" or lower.
func (b *builder) keep(r store.GraphRelation, byName bool) bool {
	if byName {
		return b.minRank >= store.ResolutionRank(store.ResName)
	}
	if r.Resolution == "" {
		return true
	}
	return store.ResolutionRank(r.Resolution) <= b.minRank
}

// maxByName bounds the unresolved callers matched by name shown per node.
const maxByName = 10

// dirDistance is how many directory steps separate the files a and b.
func dirDistance(a, b string) int {
	da, db := strings.Split(path.Dir(a), "/"), strings.Split(path.Dir(b), "/")
	i := 0
	for i < len(da) && i < len(db) && da[i] == db[i] {
		i++
	}
	return len(da) - i + len(db) - i
}

func chunkKey(id int64) string { return fmt.Sprintf("c%d", id) }

func (b *builder) addChunk(c store.GraphChunk, depth int) string {
	k := chunkKey(c.ID)
	if _, ok := b.res.index[k]; ok {
		return k
	}
	b.res.index[k] = len(b.res.Nodes)
	b.res.Nodes = append(b.res.Nodes, Node{Key: k, ID: c.ID, Name: c.Symbol, Signature: c.Name, Kind: c.Kind, Path: c.Path,
		StartLine: c.StartLine, EndLine: c.EndLine, Resolved: true, Depth: depth, fileID: c.FileID, short: c.Short})
	return k
}

// addFile adds the node of a whole file (key "f<file id>", kind "file"),
// whose relations are its imports and the chunks declared at its top level.
func (b *builder) addFile(chunks []store.GraphChunk) string {
	c0 := chunks[0]
	k := fmt.Sprintf("f%d", c0.FileID)
	end := 0
	for _, c := range chunks {
		end = max(end, c.EndLine)
	}
	b.res.index[k] = len(b.res.Nodes)
	b.res.Nodes = append(b.res.Nodes, Node{Key: k, Name: c0.Path, Signature: c0.Path, Kind: "file", Path: c0.Path,
		StartLine: 1, EndLine: end, Resolved: true, Root: true, fileID: c0.FileID, file: chunks})
	return k
}

func (b *builder) addUnresolved(label string, depth int) string {
	if k, ok := b.unres[label]; ok {
		return k
	}
	k := fmt.Sprintf("u%d", len(b.unres)+1)
	b.unres[label] = k
	b.res.index[k] = len(b.res.Nodes)
	b.res.Nodes = append(b.res.Nodes, Node{Key: k, Name: label, Signature: label, Depth: depth})
	return k
}

func (b *builder) full() bool { return len(b.res.Nodes) >= b.maxNodes }

func (b *builder) addEdge(e Edge) {
	if e.rel != 0 {
		if b.seen[e.rel] {
			return
		}
		b.seen[e.rel] = true
	}
	k := e.From + "|" + e.To + "|" + e.Kind
	if b.edgeKeys[k] {
		return
	}
	b.edgeKeys[k] = true
	b.res.Edges = append(b.res.Edges, e)
}

// targetLabel is how an unresolved target is shown: "repo.findById" when
// the call has a plain qualifier other than this/self.
func targetLabel(r store.GraphRelation) string {
	switch r.Qualifier {
	case "", "this", "self", "cls", "super", "$this", "static", "parent", "Self":
		return r.Target
	}
	if strings.Contains(r.Target, ".") {
		return r.Target
	}
	return r.Qualifier + "." + r.Target
}

// expand follows the relations of the frontier nodes and returns the keys
// of the nodes it added (the next frontier).
func (b *builder) expand(ctx context.Context, frontier []string, depth int) ([]string, error) {
	h, err := b.takeFrontier(ctx, frontier, depth)
	if err != nil || len(h.ids) == 0 {
		return h.next, err
	}
	var out []store.GraphRelation
	var in []inRel
	if b.dir != DirIn {
		if out, err = b.outgoing(ctx, h); err != nil {
			return nil, err
		}
	}
	if b.dir != DirOut {
		if in, err = b.incoming(ctx, h); err != nil {
			return nil, err
		}
	}
	if err := b.fixOverloads(ctx, out); err != nil {
		return nil, err
	}
	out = slices.DeleteFunc(out, func(r store.GraphRelation) bool { return !b.keep(r, false) })
	in = slices.DeleteFunc(in, func(r inRel) bool { return !b.keep(r.GraphRelation, r.byName) })
	return b.link(ctx, h, out, in, depth)
}

// hop is one expansion step's frontier: its chunk nodes by id, the names
// they go by, its file-level nodes, and the keys already added for the next
// step (the members of expanded file nodes).
type hop struct {
	ids       []int64
	byID      map[int64]*Node
	names     []string
	fileNodes []int64
	next      []string
}

// inRel is an incoming relation; byName marks a call matched to the
// frontier node only by its name (not resolved to it).
type inRel struct {
	store.GraphRelation
	byName bool
}

// takeFrontier marks the frontier expanded and collects its chunk nodes. A
// file node (a path the user named) is expanded on the spot: its imports
// and the top-level chunks it contains become edges.
func (b *builder) takeFrontier(ctx context.Context, frontier []string, depth int) (*hop, error) {
	h := &hop{byID: map[int64]*Node{}}
	nameSeen := map[string]bool{}
	var fileRels []store.GraphRelation
	var fileEdges []Edge
	for _, k := range frontier {
		n := b.res.Node(k)
		if n != nil && n.file != nil {
			n.Expanded = true
			if b.dir != DirIn {
				imps, err := b.db.FileImports(ctx, []int64{n.fileID})
				if err != nil {
					return nil, err
				}
				fileRels = append(fileRels, imps...)
				for _, c := range n.file {
					if c.Container != "" || c.Kind == "text" {
						continue
					}
					if _, ok := b.res.index[chunkKey(c.ID)]; !ok && b.full() {
						b.res.Truncated = true
						continue
					}
					key := b.addChunk(c, depth)
					h.next = append(h.next, key)
					fileEdges = append(fileEdges, Edge{From: k, To: key, Kind: "contains", Path: c.Path, Line: c.StartLine, Resolved: true})
				}
			}
			continue
		}
		if n == nil || n.ID == 0 {
			continue
		}
		n.Expanded = true
		h.ids = append(h.ids, n.ID)
		h.byID[n.ID] = n
		if n.Kind == "file" {
			h.fileNodes = append(h.fileNodes, n.ID)
		}
		for _, s := range []string{n.short, n.Name} {
			if s != "" && !nameSeen[s] {
				nameSeen[s] = true
				h.names = append(h.names, s)
			}
		}
	}
	for _, r := range fileRels {
		if b.full() {
			b.res.Truncated = true
			break
		}
		from := fmt.Sprintf("f%d", r.FileID)
		b.addEdge(Edge{From: from, To: b.addUnresolved(targetLabel(r), depth), Kind: r.Kind, Path: b.res.Node(from).Path, Line: r.Line, rel: r.ID})
	}
	for _, e := range fileEdges {
		b.addEdge(e)
	}
	return h, nil
}

// outgoing returns the frontier's own relations: stored ones, members
// contained from other files, and the imports of its file-level chunks.
func (b *builder) outgoing(ctx context.Context, h *hop) ([]store.GraphRelation, error) {
	rels, err := b.db.RelationsFrom(ctx, h.ids)
	if err != nil {
		return nil, err
	}
	orphans, err := b.orphanMembers(ctx, h.ids, h.byID)
	if err != nil {
		return nil, err
	}
	rels = append(rels, orphans...)
	if len(h.fileNodes) == 0 {
		return rels, nil
	}
	var fids []int64
	fseen := map[int64]bool{}
	for _, id := range h.fileNodes {
		if f := h.byID[id].fileID; !fseen[f] {
			fseen[f] = true
			fids = append(fids, f)
		}
	}
	imps, err := b.db.FileImports(ctx, fids)
	if err != nil {
		return nil, err
	}
	// An import belongs to the file-level chunk whose lines hold it, else
	// to the file's first file-level chunk among the frontier.
	for _, r := range imps {
		owner := int64(0)
		for _, id := range h.fileNodes {
			n := h.byID[id]
			if n.fileID != r.FileID {
				continue
			}
			if r.Line >= n.StartLine && r.Line <= n.EndLine {
				owner = id
				break
			}
			if owner == 0 {
				owner = id
			}
		}
		if owner != 0 {
			r.SrcChunk = owner
			rels = append(rels, r)
		}
	}
	return rels, nil
}

// incoming returns the relations that reach the frontier: resolved ones,
// containment matched by name and line, and calls that only name it.
func (b *builder) incoming(ctx context.Context, h *hop) ([]inRel, error) {
	in, err := b.db.RelationsTo(ctx, h.ids)
	if err != nil {
		return nil, err
	}
	var out []inRel
	for _, r := range in {
		if r.Kind != "contains" {
			out = append(out, inRel{GraphRelation: r})
		}
	}
	cont, err := b.containersOf(ctx, h)
	if err != nil {
		return nil, err
	}
	out = append(out, cont...)
	byName, err := b.callsByName(ctx, h)
	if err != nil {
		return nil, err
	}
	return append(out, byName...), nil
}

// containersOf finds the contains relations of the frontier by name and
// line, so each overload finds its own container edge (the stored target of
// a contains relation names the symbol, which overloads share).
func (b *builder) containersOf(ctx context.Context, h *hop) ([]inRel, error) {
	var syms []string
	for _, id := range h.ids {
		if n := h.byID[id]; n.Kind != "file" {
			syms = append(syms, n.Name)
		}
	}
	cont, err := b.db.ContainsNamed(ctx, b.projectID, syms, b.maxNodes*4)
	if err != nil {
		return nil, err
	}
	var out []inRel
	for _, r := range cont {
		if r.SrcChunk == 0 {
			// The container type is in another file (Go methods).
			if r.SrcChunk, err = b.containerBySymbol(ctx, r); err != nil {
				return nil, err
			}
		}
		for _, id := range h.ids {
			n := h.byID[id]
			if r.Target == n.Name && r.FileID == n.fileID && r.Line >= n.StartLine && r.Line <= n.EndLine {
				r2 := r
				r2.DstChunk = id
				out = append(out, inRel{GraphRelation: r2})
			}
		}
	}
	return out, nil
}

// callsByName returns unresolved calls that name a frontier node: nearest
// files first, at most maxByName per node (common names match all over a
// project; the rest are counted as hidden).
func (b *builder) callsByName(ctx context.Context, h *hop) ([]inRel, error) {
	limit := b.maxNodes * 4
	un, err := b.db.UnresolvedTo(ctx, b.projectID, h.names, limit)
	if err != nil {
		return nil, err
	}
	if len(un) == limit {
		b.moreByName = true
	}
	var ufids []int64
	for _, r := range un {
		ufids = append(ufids, r.FileID)
	}
	upaths, err := b.db.FilePaths(ctx, ufids)
	if err != nil {
		return nil, err
	}
	var out []inRel
	for _, id := range h.ids {
		n := h.byID[id]
		var mine []inRel
		for _, r := range un {
			if r.Target == n.short || r.Target == n.Name {
				r.DstChunk = id
				mine = append(mine, inRel{GraphRelation: r, byName: true})
			}
		}
		sort.SliceStable(mine, func(i, j int) bool {
			di, dj := dirDistance(n.Path, upaths[mine[i].FileID]), dirDistance(n.Path, upaths[mine[j].FileID])
			if di != dj {
				return di < dj
			}
			return mine[i].ID < mine[j].ID
		})
		if len(mine) > maxByName {
			for _, r := range mine[maxByName:] {
				b.hiddenByName[r.ID] = true
			}
			mine = mine[:maxByName]
		}
		out = append(out, mine...)
	}
	return out, nil
}

// link loads the chunks at the far end of the kept relations, adds them as
// nodes (within the node budget) and adds the edges; it returns the new
// nodes' keys, the next frontier.
func (b *builder) link(ctx context.Context, h *hop, out []store.GraphRelation, in []inRel, depth int) ([]string, error) {
	var need []int64
	needSeen := map[int64]bool{}
	want := func(id int64) {
		if id > 0 && !needSeen[id] {
			if _, ok := b.res.index[chunkKey(id)]; !ok {
				needSeen[id] = true
				need = append(need, id)
			}
		}
	}
	var fids []int64
	fseen := map[int64]bool{}
	file := func(id int64) {
		if !fseen[id] {
			fseen[id] = true
			fids = append(fids, id)
		}
	}
	for _, r := range out {
		want(r.DstChunk)
		file(r.FileID)
	}
	for _, r := range in {
		want(r.SrcChunk)
		file(r.FileID)
	}
	chunks, err := b.db.GraphChunks(ctx, need, false)
	if err != nil {
		return nil, err
	}
	paths, err := b.db.FilePaths(ctx, fids)
	if err != nil {
		return nil, err
	}
	sortRels(out)
	sortInRels(in)
	next := h.next
	node := func(id int64) (string, bool) {
		k := chunkKey(id)
		if _, ok := b.res.index[k]; ok {
			return k, true
		}
		c, ok := chunks[id]
		if !ok {
			return "", false
		}
		if b.full() {
			b.res.Truncated = true
			return "", false
		}
		next = append(next, b.addChunk(c, depth))
		return k, true
	}
	for _, r := range out {
		e := Edge{From: chunkKey(r.SrcChunk), Kind: r.Kind, Path: paths[r.FileID], Line: r.Line, Resolution: r.Resolution, Detail: r.Detail, rel: r.ID}
		if r.DstChunk > 0 {
			to, ok := node(r.DstChunk)
			if !ok {
				continue
			}
			e.To, e.Resolved = to, true
		} else {
			label := targetLabel(r)
			if _, ok := b.unres[label]; !ok && b.full() {
				b.res.Truncated = true
				continue
			}
			e.To = b.addUnresolved(label, depth)
		}
		b.addEdge(e)
	}
	for _, r := range in {
		if r.SrcChunk == 0 {
			continue
		}
		from, ok := node(r.SrcChunk)
		if !ok {
			continue
		}
		rel := r.ID
		if r.byName {
			rel = 0 // the same row may match several frontier nodes by name
		}
		b.addEdge(Edge{From: from, To: chunkKey(r.DstChunk), Kind: r.Kind, Path: paths[r.FileID], Line: r.Line, Resolved: !r.byName,
			Resolution: r.Resolution, Detail: r.Detail, rel: rel})
	}
	return next, nil
}

// orphanMembers returns the contains relations of the frontier's types
// whose source chunk is unknown because the member lives in another file
// (Go methods), with source and target chunks filled in: the member is the
// chunk with the target symbol in the type's directory whose lines hold
// the relation.
func (b *builder) orphanMembers(ctx context.Context, ids []int64, byID map[int64]*Node) ([]store.GraphRelation, error) {
	var syms []string
	bySym := map[string][]int64{}
	for _, id := range ids {
		if n := byID[id]; n.Kind == "type" {
			if bySym[n.Name] == nil {
				syms = append(syms, n.Name)
			}
			bySym[n.Name] = append(bySym[n.Name], id)
		}
	}
	rels, err := b.db.OrphanContainsFrom(ctx, b.projectID, syms, b.maxNodes*4)
	if err != nil || len(rels) == 0 {
		return nil, err
	}
	var out []store.GraphRelation
	cache := map[string][]store.GraphChunk{}
	for _, r := range rels {
		list, ok := cache[r.Target]
		if !ok {
			if list, err = b.db.ChunksBySymbol(ctx, b.projectID, r.Target, DefaultMaxNodes); err != nil {
				return nil, err
			}
			cache[r.Target] = list
		}
		for _, tid := range bySym[r.SrcSymbol] {
			t := byID[tid]
			for _, c := range list {
				if c.FileID == r.FileID && r.Line >= c.StartLine && r.Line <= c.EndLine && path.Dir(c.Path) == path.Dir(t.Path) {
					r2 := r
					r2.SrcChunk, r2.DstChunk = tid, c.ID
					out = append(out, r2)
					break
				}
			}
		}
	}
	return out, nil
}

// containerBySymbol finds the type chunk a contains relation without a
// source chunk comes from: the only type with its source symbol in the
// relation's directory. 0 when there is none or several.
func (b *builder) containerBySymbol(ctx context.Context, r store.GraphRelation) (int64, error) {
	list, err := b.db.ChunksBySymbol(ctx, b.projectID, r.SrcSymbol, 20)
	if err != nil {
		return 0, err
	}
	paths, err := b.db.FilePaths(ctx, []int64{r.FileID})
	if err != nil {
		return 0, err
	}
	dir := path.Dir(paths[r.FileID])
	var found int64
	for _, c := range list {
		if c.Kind == "type" && path.Dir(c.Path) == dir {
			if found != 0 {
				return 0, nil
			}
			found = c.ID
		}
	}
	return found, nil
}

// fixOverloads points contains relations at the right overload: when one
// container holds several members with the same symbol, every relation was
// resolved to the same chunk; the relation's line tells which one it is.
func (b *builder) fixOverloads(ctx context.Context, rels []store.GraphRelation) error {
	count := map[string]int{}
	for _, r := range rels {
		if r.Kind == "contains" && r.DstChunk > 0 {
			count[fmt.Sprint(r.SrcChunk, "|", r.Target)]++
		}
	}
	cache := map[string][]store.GraphChunk{}
	for i := range rels {
		r := &rels[i]
		if r.Kind != "contains" || r.DstChunk <= 0 || count[fmt.Sprint(r.SrcChunk, "|", r.Target)] < 2 {
			continue
		}
		list, ok := cache[r.Target]
		if !ok {
			var err error
			if list, err = b.db.ChunksBySymbol(ctx, b.projectID, r.Target, DefaultMaxNodes); err != nil {
				return err
			}
			cache[r.Target] = list
		}
		for _, c := range list {
			if c.FileID == r.FileID && r.Line >= c.StartLine && r.Line <= c.EndLine {
				r.DstChunk = c.ID
				break
			}
		}
	}
	return nil
}

func sortRels(rs []store.GraphRelation) {
	sort.SliceStable(rs, func(i, j int) bool { return relLess(rs[i], rs[j]) })
}

func sortInRels(rs []inRel) {
	sort.SliceStable(rs, func(i, j int) bool { return relLess(rs[i].GraphRelation, rs[j].GraphRelation) })
}

// relLess orders relations by kind, file, line and row.
func relLess(a, b store.GraphRelation) bool {
	if kindOrder[a.Kind] != kindOrder[b.Kind] {
		return kindOrder[a.Kind] < kindOrder[b.Kind]
	}
	if a.FileID != b.FileID {
		return a.FileID < b.FileID
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.ID < b.ID
}

// sortEdges orders edges by source node order, then kind, then position,
// so output does not depend on query plans.
func (r *Result) sortEdges() {
	sort.SliceStable(r.Edges, func(i, j int) bool {
		a, b := r.Edges[i], r.Edges[j]
		if r.index[a.From] != r.index[b.From] {
			return r.index[a.From] < r.index[b.From]
		}
		if kindOrder[a.Kind] != kindOrder[b.Kind] {
			return kindOrder[a.Kind] < kindOrder[b.Kind]
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return r.index[a.To] < r.index[b.To]
	})
}
