package index

import (
	"context"
	"errors"
	"path"
	"slices"
	"strconv"
	"strings"

	"codectx/internal/store"
)

// selfQualifiers name the current object or class in the supported languages.
var selfQualifiers = map[string]bool{"": true, "this": true, "self": true, "cls": true, "super": true, "$this": true, "static": true, "parent": true, "Self": true}

// bareCallsAreFree lists languages where an unqualified call can only mean a
// free function or a constructor, never a method of the enclosing class.
var bareCallsAreFree = map[string]bool{"python": true, "javascript": true, "typescript": true, "tsx": true, "go": true, "rust": true, "php": true}

// crashHook, set only by the crash tests of this package, is called where
// they stop a run: "batch" after each committed batch, "resolve" after
// resolution computed the edges and before it writes them.
var crashHook func(point string)

// builtinMethods are methods of a language's builtin types (Python dict,
// list, str, set, bytes; JavaScript Array, String, Map, Promise): a call of
// one on a value of unknown type is taken as the builtin's.
var builtinMethods = map[string]map[string]bool{
	"python": wordSet(`append clear copy count extend index insert pop remove reverse sort get items keys values update
		setdefault popitem fromkeys add discard difference intersection union issubset issuperset symmetric_difference
		capitalize casefold center encode decode endswith expandtabs find format format_map isalnum isalpha isascii
		isdecimal isdigit isidentifier islower isnumeric isprintable isspace istitle isupper join ljust lower lstrip
		partition removeprefix removesuffix replace rfind rindex rjust rpartition rsplit rstrip split splitlines
		startswith strip swapcase title translate upper zfill hex`),
	"javascript": jsBuiltinMethods, "typescript": jsBuiltinMethods, "tsx": jsBuiltinMethods,
}

var jsBuiltinMethods = wordSet(`push pop shift unshift slice splice concat join reverse sort indexOf lastIndexOf includes
	find findIndex filter map forEach reduce reduceRight some every flat flatMap fill keys values entries at
	charAt charCodeAt codePointAt endsWith startsWith padEnd padStart repeat replace replaceAll split substring
	toLowerCase toUpperCase trim trimStart trimEnd match matchAll then catch finally get set has delete clear
	toString toFixed hasOwnProperty`)

func wordSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// Resolve links every relation of a project to its target chunk and records
// how the target was found (store.ResExact … store.ResUnresolved). It is a
// pure function of the indexed tree: every edge is recomputed from the
// project's chunks, imports and type facts, whatever was resolved before and
// whatever order the files were written in, so incremental runs, renames
// and interrupted runs end with the same edges as a clean index. Derived
// edges (Go implements by method sets, dispatch through interfaces) are
// recomputed too. root is the project directory (Go module paths are read
// from the go.mod files above its packages). It returns how many edges
// changed.
func Resolve(ctx context.Context, db *store.DB, projectID int64, root string) (int, error) {
	syms, err := db.Symbols(ctx, projectID)
	if err != nil {
		return 0, err
	}
	imports, err := db.Imports(ctx, projectID)
	if err != nil {
		return 0, err
	}
	facts, err := db.TypeFacts(ctx, projectID)
	if err != nil {
		return 0, err
	}
	files, err := db.FilePathsOf(ctx, projectID)
	if err != nil {
		return 0, err
	}
	// Facts come in file-id order, which is the order files were first
	// written in; the tables keep the first of duplicate keys (two
	// packages in one directory, build-tag twins), so order them by path.
	slices.SortStableFunc(facts, func(a, b store.FactRow) int { return strings.Compare(files[a.FileID], files[b.FileID]) })
	r := newResolver(syms, imports, files)
	r.root = root
	r.goInit(root, facts)
	r.pyInit(files, facts)
	r.jtsInit(files, facts)
	refs := r.goReferenceEdges(facts)
	facts = nil
	var updates []store.EdgeResolution
	var derived []store.DerivedRelation
	type pair struct{ src, dst int64 }
	dispatched := map[pair]bool{}
	n, changed := 0, 0
	// derive adds the edges an edge's resolution implies: a calls edge to
	// each other definition of a name defined several times, at the
	// call's line (in a function: a call at module level has no source
	// chunk), and one dispatch edge per caller and implementation, for
	// interfaces with at most maxDispatch implementations.
	derive := func(e *store.EdgeRow, out edgeOut) {
		if src, ok := r.byID[e.SrcChunk]; ok && e.SrcChunk != 0 {
			for _, d := range out.also {
				derived = append(derived, store.DerivedRelation{FileID: e.FileID, Kind: "calls", SrcChunk: e.SrcChunk, SrcSymbol: r.syms[src].Symbol,
					Target: e.Target, Line: e.Line, DstChunk: r.syms[d].ID, Resolution: out.res, Detail: "another definition"})
			}
		}
		if len(out.dispatch) > maxDispatch {
			return
		}
		for _, d := range out.dispatch {
			s := &r.syms[d]
			if e.SrcChunk == 0 || dispatched[pair{e.SrcChunk, s.ID}] {
				continue
			}
			dispatched[pair{e.SrcChunk, s.ID}] = true
			src := &r.syms[r.byID[e.SrcChunk]]
			derived = append(derived, store.DerivedRelation{FileID: e.FileID, Kind: "dispatch", SrcChunk: e.SrcChunk, SrcSymbol: src.Symbol,
				Target: s.Symbol, Line: e.Line, DstChunk: s.ID, Resolution: store.ResExact, Detail: "dynamic"})
		}
	}
	tick := func() error {
		if n++; n%4096 == 0 {
			return ctx.Err()
		}
		return nil
	}
	apply := startApplier(ctx)
	// Stored edges: a changed outcome is an update. Written as they come
	// so memory stays flat, on another goroutine while the next edges are
	// read and resolved; an interrupted run leaves the project dirty and
	// the next one recomputes every edge anyway.
	err = db.ForEachEdge(ctx, projectID, func(e *store.EdgeRow) error {
		if err := tick(); err != nil {
			return err
		}
		out := r.resolve(*e)
		out.detail = r.intern(out.detail)
		if out.dst != e.DstChunk || out.res != e.Resolution || out.detail != e.Detail {
			updates = append(updates, store.EdgeResolution{ID: e.ID, DstChunk: out.dst, Resolution: out.res, Detail: out.detail})
			if len(updates) == updateBatch {
				u := updates
				if err := apply.send(func() error { return db.ApplyResolution(ctx, projectID, u, nil, false) }); err != nil {
					return err
				}
				changed += len(updates)
				updates = make([]store.EdgeResolution, 0, updateBatch)
			}
		}
		derive(e, out)
		return nil
	})
	// Pending edges (those of the files this run wrote, and of an
	// interrupted run's): each is inserted once, resolved, with the
	// other edges of its file.
	var rows []store.ResolvedRelation
	var rowFiles []int64
	flushRows := func() error {
		if len(rows) == 0 {
			return nil
		}
		batch, files := rows, rowFiles
		changed += len(batch)
		rows, rowFiles = make([]store.ResolvedRelation, 0, insertBatch), nil
		return apply.send(func() error { return db.InsertResolved(ctx, projectID, files, batch) })
	}
	if err == nil {
		err = db.ForEachPendingFile(ctx, projectID, func(fileID int64, edges []store.PendingEdge) error {
			for i := range edges {
				if err := tick(); err != nil {
					return err
				}
				e := &edges[i]
				out := r.resolve(e.EdgeRow)
				out.detail = r.intern(out.detail)
				rows = append(rows, store.ResolvedRelation{PendingEdge: *e, DstChunk: out.dst, Resolution: out.res, Detail: out.detail})
				derive(&e.EdgeRow, out)
			}
			rowFiles = append(rowFiles, fileID)
			if len(rows) >= insertBatch {
				return flushRows()
			}
			return nil
		})
	}
	if err == nil {
		err = flushRows()
	}
	if werr := apply.wait(); werr != nil {
		err = werr // the cause of a failed send
	}
	if err != nil {
		return 0, err
	}
	derived = append(derived, r.goImplementsEdges()...)
	derived = append(derived, refs...)
	if crashHook != nil {
		crashHook("resolve")
	}
	if err := db.ApplyResolution(ctx, projectID, updates, derived, true); err != nil {
		return 0, err
	}
	return changed + len(updates), nil
}

// applier runs the writes of resolved edges, in order, on its own
// goroutine (and SQLite connection) while Resolve keeps reading edges: the
// WAL lets the read go on from its snapshot.
type applier struct {
	ctx     context.Context
	batches chan func() error
	done    chan error
	failed  chan struct{} // closed after the first error
}

func startApplier(ctx context.Context) *applier {
	a := &applier{ctx: ctx, batches: make(chan func() error, 1), done: make(chan error, 1), failed: make(chan struct{})}
	go func() {
		var first error
		for write := range a.batches {
			if first != nil {
				continue // drain after a failure
			}
			if first = write(); first != nil {
				close(a.failed)
			}
		}
		a.done <- first
	}()
	return a
}

// send queues a write; it fails once a write failed or ctx ended.
func (a *applier) send(write func() error) error {
	select {
	case a.batches <- write:
		return nil
	case <-a.failed:
		return errors.New("write resolved edges failed")
	case <-a.ctx.Done():
		return a.ctx.Err()
	}
}

// wait returns the first write error after every queued write is done.
func (a *applier) wait() error {
	close(a.batches)
	return <-a.done
}

// updateBatch is how many resolved edges are written per transaction (a
// batch of pending edges ends with the file that reaches it).
var updateBatch = 50000

// insertBatch is how many pending edges are resolved before they are
// inserted (a batch ends with the file that reaches it): smaller than
// updateBatch, as a resolved relation holds its strings (the batch being
// filled, the one queued and the one being written are all in memory).
var insertBatch = 10000

// maxDispatch bounds the implementations a call through an interface method
// gets dispatch edges to: an interface implemented all over the project
// (a writer, a stringer) would otherwise multiply every call site.
const maxDispatch = 32

// intern returns one shared copy of a detail string.
func (r *resolver) intern(s string) string {
	if s == "" {
		return ""
	}
	if v, ok := r.details[s]; ok {
		return v
	}
	s = strings.Clone(s)
	r.details[s] = s
	return s
}

// edgeOut is the resolution of one edge.
type edgeOut struct {
	dst      int64
	res      string
	detail   string
	dispatch []int // symbol indexes of the implementations of an interface method
	also     []int // symbol indexes of the other definitions the call reaches (Python: a def in several branches)
}

func exact(id int64) edgeOut        { return edgeOut{dst: id, res: store.ResExact} }
func inferred(id int64) edgeOut     { return edgeOut{dst: id, res: store.ResInferred} }
func external(pkg string) edgeOut   { return edgeOut{res: store.ResExternal, detail: pkg} }
func unresolved(why string) edgeOut { return edgeOut{res: store.ResUnresolved, detail: why} }
func ambiguous(n int) edgeOut {
	return edgeOut{res: store.ResName, detail: strconv.Itoa(n) + " candidates"}
}
func (o edgeOut) with(d string) edgeOut { o.detail = d; return o }

type resolver struct {
	syms      []store.SymbolRow // in (path, start line, id) order
	byID      map[int64]int
	byShort   map[string][]int
	bySymbol  map[string][]int
	fileDir   map[int64]string
	fileLang  map[int64]string
	imports   map[int64]map[string]bool // file → last segments of its imports
	g         *goResolver
	py        *pyResolver
	jts       *jtsResolver
	root      string               // project directory (go.mod, tsconfig.json files are read from it)
	tsConfigs map[string]*tsConfig // directory → nearest tsconfig.json (lazy)
	details   map[string]string    // interned detail strings
	byPath    map[string]int       // file path → its first chunk
	byDir     map[string]int       // directory → first chunk of its first file (lazy)
}

func newResolver(syms []store.SymbolRow, imports map[int64][]string, files map[int64]string) *resolver {
	r := &resolver{
		syms: syms, byID: make(map[int64]int, len(syms)),
		byShort: map[string][]int{}, bySymbol: map[string][]int{},
		fileDir: map[int64]string{}, fileLang: map[int64]string{}, imports: map[int64]map[string]bool{},
		details: map[string]string{}, byPath: map[string]int{},
	}
	for id, p := range files {
		r.fileDir[id] = path.Dir(p)
	}
	for i, s := range syms {
		if _, ok := r.byPath[s.Path]; !ok {
			r.byPath[s.Path] = i
		}
		r.byID[s.ID] = i
		r.byShort[s.Short] = append(r.byShort[s.Short], i)
		r.bySymbol[s.Symbol] = append(r.bySymbol[s.Symbol], i)
		r.fileLang[s.FileID] = s.Lang
	}
	for fid, list := range imports {
		set := map[string]bool{}
		for _, imp := range list {
			imp = strings.Trim(imp, `"'<>`)
			imp = strings.TrimSuffix(imp, ".*")
			if i := strings.LastIndexAny(imp, "./\\:"); i >= 0 {
				imp = imp[i+1:]
			}
			if imp != "" {
				set[imp] = true
			}
		}
		r.imports[fid] = set
	}
	return r
}

func (r *resolver) resolve(e store.EdgeRow) edgeOut {
	if r.fileLang[e.FileID] == "go" || (r.fileLang[e.FileID] == "" && r.g.goFile(e.FileID)) {
		if o, ok := r.goResolve(e); ok {
			return o
		}
	}
	if r.fileLang[e.FileID] == "python" {
		if o, ok := r.pyResolve(e); ok {
			return o
		}
	}
	if jtsLang(r.fileLang[e.FileID]) {
		if o, ok := r.jtsResolve(e); ok {
			return o
		}
	}
	switch e.Kind {
	case "imports":
		return r.resolveImport(e)
	case "contains":
		// The member in the same file; among overloads, the one whose lines
		// hold the relation's line (else the first).
		var first int64
		for _, i := range r.bySymbol[e.Target] {
			s := &r.syms[i]
			if s.FileID != e.FileID {
				continue
			}
			if e.Line >= s.StartLine && e.Line <= s.EndLine {
				return exact(s.ID)
			}
			if first == 0 {
				first = s.ID
			}
		}
		if first == 0 {
			return unresolved("")
		}
		return exact(first)
	case "extends", "implements":
		return r.pick(e, func(s *store.SymbolRow) bool { return s.Kind == "type" }, false)
	case "calls":
		return r.pick(e, func(s *store.SymbolRow) bool { return s.Kind != "file" }, true)
	}
	return unresolved("")
}

// pick resolves a call or a type reference by name through rules tried in
// order: the type a qualifier names, the caller's own type (a self
// qualifier), the same file, the same package directory, the modules the
// file imports, a name defined once in the project. The first rule with
// candidates decides: one candidate (or overloads of one type) resolves it,
// several leave it at ResName. A qualifier that is neither a self word, a
// project type nor an imported module is a value of unknown type: the call
// stays unresolved rather than being guessed by name.
func (r *resolver) pick(e store.EdgeRow, ok func(*store.SymbolRow) bool, call bool) edgeOut {
	short := store.ShortName(e.Target)
	var cands []int
	for _, i := range r.byShort[short] {
		if ok(&r.syms[i]) {
			cands = append(cands, i)
		}
	}
	var src *store.SymbolRow
	srcContainer := ""
	if si, found := r.byID[e.SrcChunk]; found {
		src = &r.syms[si]
		srcContainer = src.Container
		if src.Kind == "type" {
			srcContainer = src.Symbol
		}
	}
	lang := r.fileLang[e.FileID]
	dir := r.fileDir[e.FileID]
	imps := r.imports[e.FileID]
	if call && src != nil {
		// never the calling function itself by name coincidence: a
		// recursive call is an unqualified or self call in its own type
		kept := cands[:0:0]
		for _, i := range cands {
			if r.syms[i].ID == src.ID && !selfQualifiers[e.Qualifier] {
				continue
			}
			kept = append(kept, i)
		}
		cands = kept
	}
	if len(cands) == 0 {
		if call && e.Qualifier != "" && !selfQualifiers[e.Qualifier] && imps[e.Qualifier] {
			return external(e.Qualifier)
		}
		return unresolved("")
	}
	// A name the language's scoping rules bind (a type reference, a bare
	// call, a member of the caller's own type) resolved by one candidate of
	// a scope rule is exact; a member call on a value of unknown type that
	// only the name connects is inferred.
	scoped := !call || e.Qualifier == "" && e.Recv == "" || selfQualifiers[e.Qualifier] && e.Recv == ""
	tier := func(rule string, match func(*store.SymbolRow) bool, sameType bool) (edgeOut, bool) {
		var found []int
		for _, i := range cands {
			if match(&r.syms[i]) {
				found = append(found, i)
			}
		}
		mk := inferred
		if scoped && rule != "unique name" {
			mk = exact
		}
		switch {
		case len(found) == 1:
			return mk(r.syms[found[0]].ID).with(rule), true
		case len(found) > 1 && sameType:
			// overloads of one type: the first in source order
			return mk(r.syms[found[0]].ID).with(rule), true
		case len(found) > 1:
			return ambiguous(len(found)), true
		}
		return edgeOut{}, false
	}
	sameUnit := func(s *store.SymbolRow) bool { return s.FileID == e.FileID || path.Dir(s.Path) == dir }
	if call && lang != "go" {
		switch {
		case e.Recv == "super" && src != nil:
			// the first base (depth first, left to right) that has it
			if ti := r.ownType(src); ti >= 0 {
				if m := r.inBases(ti, short, 0, map[int]bool{}); m >= 0 {
					return exact(r.syms[m].ID).with("base class")
				}
			}
			return unresolved("base class outside the project")
		case strings.HasPrefix(e.Recv, ":"):
			if ti := r.findType(e.Recv[1:], e.FileID, imps); ti >= 0 {
				if m := r.member(ti, short); m >= 0 {
					return exact(r.syms[m].ID).with("receiver type")
				}
				if m := r.inBases(ti, short, 0, map[int]bool{}); m >= 0 {
					return exact(r.syms[m].ID).with("base class")
				}
				return unresolved("no such method")
			}
		case (e.Qualifier == "self" || e.Qualifier == "this" || e.Qualifier == "cls") && src != nil:
			if ti := r.ownType(src); ti >= 0 {
				if m := r.member(ti, short); m >= 0 {
					return exact(r.syms[m].ID).with("own type")
				}
				if m := r.inBases(ti, short, 0, map[int]bool{}); m >= 0 {
					return exact(r.syms[m].ID).with("base class")
				}
			}
		}
	}
	if call {
		q := e.Qualifier
		if q == "" && e.Recv == "?" {
			q = "?" // a receiver expression of unknown type
		}
		switch {
		case !selfQualifiers[q]:
			// A qualifier that names a type: that type's member.
			if o, done := tier("qualifier type", func(s *store.SymbolRow) bool {
				return s.Container != "" && (s.Container == q || store.ShortName(s.Container) == q) && sameContainer(r, s, q, sameUnit, imps)
			}, true); done {
				return o
			}
			// A qualifier that names an imported module: its members.
			if imps[q] {
				if o, done := tier("imported module", func(s *store.SymbolRow) bool {
					return s.Container == "" && (path.Base(strings.TrimSuffix(s.Path, path.Ext(s.Path))) == q || path.Base(path.Dir(s.Path)) == q)
				}, false); done {
					return o
				}
				return external(q)
			}
			// A value of unknown type. Methods of the language's builtin
			// types are never project methods; otherwise only the rules
			// below (same file, package, imports, unique name) may
			// decide, and several candidates stay at ResName.
			if builtinMethods[lang][e.Target] {
				return external("builtin")
			}
		case q == "" && bareCallsAreFree[lang]:
			cands = filter(cands, func(i int) bool { s := &r.syms[i]; return s.Container == "" || s.Kind == "type" })
		case q != "" && srcContainer != "":
			// self/this: the caller's own type (same file or package)
			if o, done := tier("own type", func(s *store.SymbolRow) bool { return s.Container == srcContainer && sameUnit(s) }, true); done {
				return o
			}
			if q == "self" || q == "this" || q == "cls" || q == "$this" {
				// inherited or dynamic: the name alone does not tell
				return unresolved("member not in own type")
			}
		}
		if q == "" && srcContainer != "" && !bareCallsAreFree[lang] {
			if o, done := tier("own type", func(s *store.SymbolRow) bool { return s.Container == srcContainer && sameUnit(s) }, true); done {
				return o
			}
		}
		if len(cands) == 0 {
			return unresolved("")
		}
	}
	if o, done := tier("same file", func(s *store.SymbolRow) bool { return s.FileID == e.FileID }, false); done {
		return o
	}
	if o, done := tier("same package", func(s *store.SymbolRow) bool { return path.Dir(s.Path) == dir }, false); done {
		return o
	}
	if len(imps) > 0 {
		if o, done := tier("imported", func(s *store.SymbolRow) bool {
			return imps[store.ShortName(s.Container)] || imps[path.Base(path.Dir(s.Path))] || (s.Kind == "type" && imps[s.Short])
		}, false); done {
			return o
		}
	}
	if len(cands) == 1 {
		return inferred(r.syms[cands[0]].ID).with("unique name")
	}
	return ambiguous(len(cands))
}

// resolveImport links an import to the project file (its first chunk, or
// the imported type) it names: Go import paths through go.mod; Java
// package + type to the type's file; Python modules and packages, relative
// imports included; TypeScript/JavaScript relative paths, a compiled ".js"
// extension standing for ".ts"/".tsx", index files, and the path aliases
// and baseUrl of the nearest tsconfig.json. Anything else that names no
// project file is external.
func (r *resolver) resolveImport(e store.EdgeRow) edgeOut {
	target := strings.TrimSpace(e.Target)
	dir := r.fileDir[e.FileID]
	switch r.fileLang[e.FileID] {
	case "go":
		if r.g != nil {
			if d, ok := r.g.dirOf(target); ok {
				for _, i := range r.dirFirst(d) {
					return exact(r.syms[i].ID).with("package")
				}
			}
		}
		return external(target)
	case "java":
		name := strings.TrimPrefix(target, "static ")
		if strings.HasSuffix(name, ".*") {
			return external(name)
		}
		parts := strings.Split(name, ".")
		// the longest prefix that is a file: a.b.Type or a.b.Type.Inner / a.b.Type.member
		for k := len(parts); k > 0; k-- {
			file := strings.Join(parts[:k], "/") + ".java"
			for _, i := range r.byShort[parts[k-1]] {
				s := &r.syms[i]
				if s.Kind == "type" && (s.Path == file || strings.HasSuffix(s.Path, "/"+file)) {
					return exact(s.ID).with("type")
				}
			}
		}
		return external(name)
	case "python":
		if f, ok := pyModuleFile(func(p string) bool { _, ok := r.byPath[p]; return ok }, dir, target); ok {
			return exact(r.syms[r.byPath[f]].ID).with("module")
		}
		if strings.HasPrefix(target, ".") {
			return unresolved("module not in the index")
		}
		return external(target)
	case "typescript", "tsx", "javascript":
		if !strings.HasPrefix(target, ".") {
			// a path alias or baseUrl of the tsconfig.json above the file
			for _, p := range r.tsAliases(dir, target) {
				if i, ok := r.tsModule(p); ok {
					return exact(r.syms[i].ID).with("path alias")
				}
			}
			return external(target)
		}
		if i, ok := r.tsModule(path.Join(dir, target)); ok {
			return exact(r.syms[i].ID).with("module")
		}
		return unresolved("module not in the index")
	}
	return edgeOut{}
}

// dirFirst lists the first chunk of the first file (in path order)
// directly in dir, computed once for all directories.
func (r *resolver) dirFirst(dir string) []int {
	if r.byDir == nil {
		r.byDir = map[string]int{}
		for p, i := range r.byPath {
			d := path.Dir(p)
			if j, ok := r.byDir[d]; !ok || r.syms[i].Path < r.syms[j].Path {
				r.byDir[d] = i
			}
		}
	}
	if i, ok := r.byDir[dir]; ok {
		return []int{i}
	}
	return nil
}

// ownType is the type chunk a member chunk belongs to (same file), or -1.
func (r *resolver) ownType(src *store.SymbolRow) int {
	name := src.Container
	if src.Kind == "type" {
		name = src.Symbol
	}
	if name == "" {
		return -1
	}
	for _, i := range r.bySymbol[name] {
		if s := &r.syms[i]; s.Kind == "type" && s.FileID == src.FileID {
			return i
		}
	}
	return -1
}

// findType finds the project type a name used in a file denotes: in the
// file, in its directory, in a module it imports, or the only one of that
// name; -1 when none or ambiguous.
func (r *resolver) findType(name string, fileID int64, imps map[string]bool) int {
	name = store.ShortName(name)
	var types []int
	for _, i := range r.byShort[name] {
		if r.syms[i].Kind == "type" {
			types = append(types, i)
		}
	}
	dir := r.fileDir[fileID]
	for _, match := range []func(*store.SymbolRow) bool{
		func(s *store.SymbolRow) bool { return s.FileID == fileID },
		func(s *store.SymbolRow) bool { return path.Dir(s.Path) == dir },
		func(s *store.SymbolRow) bool {
			return imps[path.Base(strings.TrimSuffix(s.Path, path.Ext(s.Path)))] || imps[path.Base(path.Dir(s.Path))] || imps[name]
		},
		func(*store.SymbolRow) bool { return true },
	} {
		found := -1
		for _, i := range types {
			if match(&r.syms[i]) {
				if found >= 0 {
					return -1 // ambiguous
				}
				found = i
			}
		}
		if found >= 0 {
			return found
		}
	}
	return -1
}

// baseRef is a base of a type as a base walk sees it: a project type
// (sym ≥ 0), a type outside the project (ext), or unknown (neither).
type baseRef struct {
	sym int
	ext string
}

// lookupInBases finds method m in type ti and its bases, depth first in
// the order bases gives them (at most 8 deep, each type once): the chunk,
// or -1 and the first base outside the project met on the way ("" when
// none, "?" when a base is unknown).
func (r *resolver) lookupInBases(ti int, m string, bases func(ti int) []baseRef) (int, string) {
	seen := map[int]bool{}
	outside := ""
	var walk func(ti, depth int) int
	walk = func(ti, depth int) int {
		if depth > 8 || seen[ti] {
			return -1
		}
		seen[ti] = true
		if k := r.member(ti, m); k >= 0 {
			return k
		}
		for _, b := range bases(ti) {
			switch {
			case b.sym >= 0:
				if k := walk(b.sym, depth+1); k >= 0 {
					return k
				}
			case b.ext != "" && outside == "":
				outside = b.ext
			case b.ext == "" && outside == "":
				outside = "?"
			}
		}
		return -1
	}
	k := walk(ti, 0)
	return k, outside
}

// member is the method m of type chunk ti (first in source order; in
// Python, where a later def rebinds the name, the last one a static
// condition does not rule out, else the last), or -1.
func (r *resolver) member(ti int, m string) int {
	t := &r.syms[ti]
	last, dead := -1, -1
	for _, i := range r.byShort[m] {
		if s := &r.syms[i]; s.Container == t.Symbol && s.FileID == t.FileID && s.Kind != "type" {
			switch {
			case t.Lang != "python":
				return i
			case r.pyLive(i):
				last = i
			default:
				dead = i
			}
		}
	}
	if last < 0 {
		return dead
	}
	return last
}

// inBases looks m up in the bases of type chunk ti, depth first and left to
// right (the method resolution order of single and simple multiple
// inheritance), or -1.
func (r *resolver) inBases(ti int, m string, depth int, seen map[int]bool) int {
	if depth > 8 || seen[ti] {
		return -1
	}
	seen[ti] = true
	t := &r.syms[ti]
	if t.Extends == "" {
		return -1
	}
	imps := r.imports[t.FileID]
	for _, b := range strings.Split(t.Extends, ",") {
		bi := r.findType(b, t.FileID, imps)
		if bi < 0 || bi == ti {
			continue
		}
		if k := r.member(bi, m); k >= 0 {
			return k
		}
		if k := r.inBases(bi, m, depth+1, seen); k >= 0 {
			return k
		}
	}
	return -1
}

// sameContainer reports whether s's container, named q, is one the file can
// see: in the same file or package, or in a file it imports.
func sameContainer(r *resolver, s *store.SymbolRow, q string, sameUnit func(*store.SymbolRow) bool, imps map[string]bool) bool {
	if sameUnit(s) {
		return true
	}
	return imps[q] || imps[path.Base(strings.TrimSuffix(s.Path, path.Ext(s.Path)))] || imps[path.Base(path.Dir(s.Path))] || len(r.byShort[q]) <= 1
}

func filter(list []int, keep func(int) bool) []int {
	out := list[:0:0]
	for _, i := range list {
		if keep(i) {
			out = append(out, i)
		}
	}
	return out
}
