package index

import (
	"path"
	"strings"

	"codectx/internal/lang"
	"codectx/internal/store"
)

// Java and TypeScript/JavaScript resolution by declared types. The
// extractor records per file the import bindings (Java single-type,
// wildcard and static imports; TypeScript named, default and namespace
// imports and re-exports), the bases of each type as written, interfaces,
// fields with their declared type or the class they are assigned
// `new T(...)`, method results and module variables, and for every call
// a receiver (see internal/lang/jtypes.go):
//
//	""        a bare call (Java: the class, its outer classes and bases;
//	          TypeScript: a function of the file or an imported one)
//	"new T"   a constructor call
//	"this"    the caller's class; "super" its superclass
//	":T"      a local or parameter of type T
//	"~n"      a name that is not a local: a field, a type, an import
//	"?"       unknown; "!T" a builtin type (a string, an array)
//	"?local"  a bare call of a parameter or local holding a function value
//
// followed by ".f" (field), ".m()" (method result) and "()" (a
// function's result) segments. A type
// name is looked up as the language scopes it: Java the file, its
// single-type imports, its package (directory), its wildcard imports,
// else a type outside the project (java.lang …); TypeScript the file's
// declarations and import bindings, followed through the modules that
// re-export them. A call on a value of a type outside the project is
// external with that type; on a value of unknown type it is unresolved —
// never guessed by name.

// jBase is a base type of a class or interface as written.
type jBase struct{ ty, how string }

// jEnt is what a name or receiver denotes: a project type (sym, a chunk
// index), a project function (fn), a module (file), something outside the
// project (ext), or nothing known (all empty, sym and fn -1).
type jEnt struct {
	sym, fn int
	file    string
	ext     string
}

var jUnknown = jEnt{sym: -1, fn: -1}

func jExt(name string) jEnt { return jEnt{sym: -1, fn: -1, ext: name} }
func jSym(i int) jEnt       { return jEnt{sym: i, fn: -1} }

func (e jEnt) known() bool { return e.sym >= 0 || e.fn >= 0 || e.file != "" || e.ext != "" }

// jtsResolver holds the Java and TypeScript tables.
type jtsResolver struct {
	paths    map[int64]string
	ids      map[string]int64                    // path → file id (files without chunks included)
	binds    map[int64]map[string]*store.FactRow // file → bound name → import (TypeScript; Java single-type)
	exports  map[int64]map[string]*store.FactRow // file → name → re-export
	stars    map[int64][]*store.FactRow          // file → export * from (TypeScript), wildcard imports (Java)
	statics  map[int64]map[string]*store.FactRow // Java static imports: member → fact
	vars     map[int64]map[string]string         // TypeScript module variables ("default": the default export)
	fields   map[string]string                   // path\x00owner\x00field → type
	results  map[string]string                   // path\x00owner\x00method → type ("" when overloads disagree)
	imethods map[string]bool                     // path\x00owner\x00method declared without a body (TypeScript)
	ifaces   map[string]bool                     // path\x00owner is an interface
	bases    map[string][]jBase                  // path\x00owner → bases in order
	typeAt   map[string]int                      // path\x00symbol → type chunk
	dirTypes map[string][]int                    // Java: directory\x00symbol → type chunks in path order
	baseEnts map[int][]jEnt                      // type chunk → its bases (lazy)
	impls    map[int][]int                       // interface chunk → implementing types (lazy)
	subs     map[int][]int                       // class chunk → its subclasses, transitively (lazy)
	funcsIn  map[string][]int                    // path → its function and method chunks (lazy, jFuncAt)
	encl     map[int]int                         // chunk → innermost function or method holding it (lazy)
}

// jtsExt are the extensions of Java and TypeScript/JavaScript files (a
// file without chunks has no language in the symbol table).
var jtsExt = map[string]bool{".java": true, ".ts": true, ".tsx": true, ".mts": true, ".cts": true, ".js": true, ".jsx": true, ".mjs": true, ".cjs": true}

func jtsLang(l string) bool {
	return l == "java" || l == "typescript" || l == "tsx" || l == "javascript"
}

// jtsInit builds the Java and TypeScript tables from the type facts.
func (r *resolver) jtsInit(files map[int64]string, facts []store.FactRow) {
	j := &jtsResolver{paths: files, binds: map[int64]map[string]*store.FactRow{}, exports: map[int64]map[string]*store.FactRow{},
		stars: map[int64][]*store.FactRow{}, statics: map[int64]map[string]*store.FactRow{}, vars: map[int64]map[string]string{},
		fields: map[string]string{}, results: map[string]string{}, imethods: map[string]bool{}, ifaces: map[string]bool{},
		bases: map[string][]jBase{}, typeAt: map[string]int{}, dirTypes: map[string][]int{}, baseEnts: map[int][]jEnt{}}
	found := false
	for i := range r.syms {
		s := &r.syms[i]
		if !jtsLang(s.Lang) {
			continue
		}
		found = true
		if s.Kind != "type" {
			continue
		}
		if _, ok := j.typeAt[key2(s.Path, s.Symbol)]; !ok {
			j.typeAt[key2(s.Path, s.Symbol)] = i
		}
		if s.Lang == "java" {
			k := key2(path.Dir(s.Path), s.Symbol)
			j.dirTypes[k] = append(j.dirTypes[k], i)
		}
	}
	if !found {
		return
	}
	r.jts = j
	j.ids = map[string]int64{}
	for id, p := range files {
		if jtsLang(r.fileLang[id]) || jtsExt[path.Ext(p)] {
			j.ids[p] = id
		}
	}
	put := func(m map[int64]map[string]*store.FactRow, f *store.FactRow) {
		mm := m[f.FileID]
		if mm == nil {
			mm = map[string]*store.FactRow{}
			m[f.FileID] = mm
		}
		if _, dup := mm[f.Name]; !dup {
			mm[f.Name] = f
		}
	}
	for i := range facts {
		f := &facts[i]
		p := files[f.FileID]
		if _, ok := j.ids[p]; !ok {
			continue
		}
		switch f.Kind {
		case lang.FactImport:
			switch {
			case f.Sig == "static":
				put(j.statics, f)
			case f.Name == "*":
				j.stars[f.FileID] = append(j.stars[f.FileID], f)
			case f.Owner == "export":
				put(j.exports, f)
			default:
				put(j.binds, f)
			}
		case lang.FactVar:
			m := j.vars[f.FileID]
			if m == nil {
				m = map[string]string{}
				j.vars[f.FileID] = m
			}
			if _, dup := m[f.Name]; !dup {
				m[f.Name] = f.Type
			}
		case lang.FactField:
			if _, dup := j.fields[key3(p, f.Owner, f.Name)]; !dup {
				j.fields[key3(p, f.Owner, f.Name)] = f.Type
			}
		case lang.FactResult:
			k := key3(p, f.Owner, f.Name)
			if old, seen := j.results[k]; seen && old != f.Type {
				j.results[k] = "" // overloads with different results
			} else if !seen {
				j.results[k] = f.Type
			}
		case lang.FactIMethod:
			j.imethods[key3(p, f.Owner, f.Name)] = true
		case lang.FactInterface:
			j.ifaces[key2(p, f.Owner)] = true
		case lang.FactBase:
			k := key2(p, f.Owner)
			j.bases[k] = append(j.bases[k], jBase{f.Type, f.Sig})
		}
	}
}

// jFile is the id of a project file by path.
func (r *resolver) jFile(p string) (int64, bool) {
	id, ok := r.jts.ids[p]
	return id, ok
}

// jModule is the project file module path p (project-relative) stands
// for, chunks or not (an index file that only re-exports has none).
func (r *resolver) jModule(p string) (string, bool) {
	for _, c := range tsCandidates(p) {
		if _, ok := r.jts.ids[c]; ok {
			return c, true
		}
	}
	return "", false
}

// jJava reports whether a file is Java.
func (r *resolver) jJava(fileID int64) bool { return r.fileLang[fileID] == "java" }

// jFQN is the project type a Java fully qualified name (a.b.Type,
// a.b.Type.Inner) denotes, or -1.
func (r *resolver) jFQN(name string) int {
	parts := strings.Split(name, ".")
	for k := len(parts); k > 0; k-- {
		file := strings.Join(parts[:k], "/") + ".java"
		sym := strings.Join(parts[k-1:], ".")
		for _, i := range r.bySymbol[sym] {
			s := &r.syms[i]
			if s.Kind == "type" && (s.Path == file || strings.HasSuffix(s.Path, "/"+file)) {
				return i
			}
		}
	}
	return -1
}

// jTypeIn is the type a type name written in file fileID denotes.
func (r *resolver) jTypeIn(fileID int64, name string, depth int) jEnt {
	j := r.jts
	if name == "" || depth > 8 {
		return jUnknown
	}
	if b, ok := strings.CutPrefix(name, "!"); ok {
		return jExt(b)
	}
	file := j.paths[fileID]
	first, rest, dotted := strings.Cut(name, ".")
	if r.jJava(fileID) {
		if dotted {
			if e := r.jTypeIn(fileID, first, depth+1); e.sym >= 0 {
				s := &r.syms[e.sym]
				if i, ok := j.typeAt[key2(s.Path, s.Symbol+"."+rest)]; ok {
					return jSym(i)
				}
				return jUnknown
			}
			if i := r.jFQN(name); i >= 0 {
				return jSym(i)
			}
			return jExt(name)
		}
		// the file (its own and nested types), single-type imports, the
		// package, wildcard imports; else outside the project
		for _, i := range r.byShort[name] {
			if s := &r.syms[i]; s.Kind == "type" && s.Path == file {
				return jSym(i)
			}
		}
		if b, ok := j.binds[fileID][name]; ok {
			if i := r.jFQN(b.Type); i >= 0 {
				return jSym(i)
			}
			return jExt(b.Type)
		}
		if l := j.dirTypes[key2(path.Dir(file), name)]; len(l) > 0 {
			return jSym(l[0])
		}
		for _, st := range j.stars[fileID] {
			if i := r.jFQN(st.Type + "." + name); i >= 0 {
				return jSym(i)
			}
		}
		return jExt(name)
	}
	if dotted {
		e := r.jNameTS(fileID, first, depth+1)
		for _, seg := range strings.Split(rest, ".") {
			switch {
			case e.file != "":
				e = r.jExported(e.file, seg, depth+1)
			case e.ext != "":
				return jExt(name)
			default:
				return jUnknown
			}
		}
		if e.sym >= 0 || e.ext != "" {
			return e
		}
		return jUnknown
	}
	if i, ok := j.typeAt[key2(file, name)]; ok {
		return jSym(i)
	}
	if b, ok := j.binds[fileID][name]; ok {
		if e := r.jImport(fileID, b, depth+1); e.sym >= 0 || e.ext != "" {
			return e
		}
		return jUnknown
	}
	if tsGlobals[name] {
		return jExt(name)
	}
	return jUnknown
}

// tsGlobals are the global objects and types of JavaScript and the web
// and Node.js platforms: a name the file does not bind that is one of
// these is outside the project.
var tsGlobals = wordSet(`Array ArrayBuffer BigInt Boolean DataView Date Error EvalError Float32Array Float64Array Function
	Int8Array Int16Array Int32Array Intl JSON Map Math Number Object Promise Proxy RangeError ReferenceError Reflect RegExp
	Set String Symbol SyntaxError TypeError URIError URL URLSearchParams Uint8Array Uint16Array Uint32Array WeakMap WeakSet
	AbortController Blob Buffer Event EventTarget FormData Headers HTMLElement Element Node Request Response TextDecoder
	TextEncoder WebSocket Worker console document globalThis localStorage navigator process sessionStorage window
	Iterable Iterator AsyncIterable Partial Readonly Record ReadonlyArray PromiseLike`)

// jImport is what a TypeScript import binding of fileID denotes.
func (r *resolver) jImport(fileID int64, f *store.FactRow, depth int) jEnt {
	if depth > 8 {
		return jUnknown
	}
	dir := r.fileDir[fileID]
	file, ok := "", false
	if strings.HasPrefix(f.Type, ".") {
		file, ok = r.jModule(path.Join(dir, f.Type))
	} else {
		for _, p := range r.tsAliases(dir, f.Type) {
			if file, ok = r.jModule(p); ok {
				break
			}
		}
		if !ok {
			return jExt(f.Type)
		}
	}
	if !ok {
		return jUnknown
	}
	switch f.Sig {
	case "*":
		return jEnt{sym: -1, fn: -1, file: file}
	case "module":
		// CommonJS require: what module.exports is, else the module
		if fid, ok := r.jFile(file); ok {
			if v := r.jts.vars[fid]["module.exports"]; v != "" {
				return r.jExported(file, v, depth+1)
			}
		}
		return jEnt{sym: -1, fn: -1, file: file}
	}
	return r.jExported(file, f.Sig, depth+1)
}

// jExported is what module file exports as name: a type or function it
// declares, a binding it re-exports, a module variable's type; "default"
// is its default export.
func (r *resolver) jExported(file, name string, depth int) jEnt {
	j := r.jts
	if depth > 8 {
		return jUnknown
	}
	fid, ok := r.jFile(file)
	if !ok {
		return jUnknown
	}
	if name == "default" {
		if v, ok := j.vars[fid]["default"]; ok && v != "" {
			return r.jExported(file, v, depth+1)
		}
		return jUnknown
	}
	if i, ok := j.typeAt[key2(file, name)]; ok {
		return jSym(i)
	}
	if i := r.jFunc(file, name); i >= 0 {
		return jEnt{sym: -1, fn: i}
	}
	if f, ok := j.exports[fid][name]; ok {
		return r.jImport(fid, f, depth+1)
	}
	if f, ok := j.binds[fid][name]; ok {
		return r.jImport(fid, f, depth+1)
	}
	if v, ok := j.vars[fid][name]; ok {
		return r.jTypeIn(fid, v, depth+1)
	}
	for _, st := range j.stars[fid] {
		if e := r.jImport(fid, &store.FactRow{Type: st.Type, Sig: name}, depth+1); e.known() {
			return e
		}
	}
	return jUnknown
}

// jFunc is the first top-level function named name in file, or -1.
func (r *resolver) jFunc(file, name string) int {
	for _, i := range r.byShort[name] {
		if s := &r.syms[i]; s.Path == file && s.Container == "" && s.Kind == "function" {
			return i
		}
	}
	return -1
}

// jFuncAt is the function named name of file that a bare call at line
// sees: one declared at the top level, or nested in a function holding
// the line — the innermost such scope first (two functions may each
// declare a local helper of one name); -1 when none is in scope.
func (r *resolver) jFuncAt(file, name string, line int) int {
	best, bestScope := -1, -1
	for _, i := range r.byShort[name] {
		s := &r.syms[i]
		if s.Path != file || s.Container != "" || s.Kind != "function" {
			continue
		}
		scope := 0 // the start line of the innermost function holding it; 0: the top level
		if p := r.jEnclosingFunc(file, i); p >= 0 {
			ps := &r.syms[p]
			if line < ps.StartLine || line > ps.EndLine {
				continue // local to another function
			}
			scope = ps.StartLine
		}
		if scope > bestScope {
			best, bestScope = i, scope
		}
	}
	return best
}

// jEnclosingFunc is the innermost function or method chunk of file that
// holds chunk i's lines (i excluded), -1 when i is at the top level.
func (r *resolver) jEnclosingFunc(file string, i int) int {
	j := r.jts
	if j.funcsIn == nil {
		j.funcsIn, j.encl = map[string][]int{}, map[int]int{}
		for k := range r.syms {
			if s := &r.syms[k]; (s.Kind == "function" || s.Kind == "method") && jtsLang(s.Lang) {
				j.funcsIn[s.Path] = append(j.funcsIn[s.Path], k)
			}
		}
	}
	if p, ok := j.encl[i]; ok {
		return p
	}
	c := &r.syms[i]
	best := -1
	for _, k := range j.funcsIn[file] {
		p := &r.syms[k]
		if k == i || p.StartLine > c.StartLine || p.EndLine < c.EndLine || (p.StartLine == c.StartLine && p.EndLine == c.EndLine) {
			continue
		}
		if best < 0 || p.StartLine >= r.syms[best].StartLine {
			best = k
		}
	}
	j.encl[i] = best
	return best
}

// jNameTS is what a TypeScript name that is not a local denotes in file
// fileID: a module variable's type, a type or function of the file, an
// import binding, a global.
func (r *resolver) jNameTS(fileID int64, n string, depth int) jEnt {
	j := r.jts
	file := j.paths[fileID]
	if v, ok := j.vars[fileID][n]; ok && n != "default" {
		return r.jTypeIn(fileID, v, depth+1)
	}
	if i, ok := j.typeAt[key2(file, n)]; ok {
		return jSym(i)
	}
	if i := r.jFunc(file, n); i >= 0 {
		return jEnt{sym: -1, fn: i}
	}
	if b, ok := j.binds[fileID][n]; ok {
		return r.jImport(fileID, b, depth+1)
	}
	if tsGlobals[n] {
		return jExt(n)
	}
	return jUnknown
}

// jBases lists what the bases of type chunk ti denote, in order (extends
// before implements as written).
func (r *resolver) jBases(ti int) []jEnt {
	j := r.jts
	if b, ok := j.baseEnts[ti]; ok {
		return b
	}
	j.baseEnts[ti] = nil // a cycle sees no bases
	t := &r.syms[ti]
	var out []jEnt
	for _, b := range j.bases[key2(t.Path, t.Symbol)] {
		e := r.jTypeIn(t.FileID, b.ty, 1)
		if e.sym == ti {
			e = jUnknown
		}
		out = append(out, e)
	}
	j.baseEnts[ti] = out
	return out
}

// jLookup finds method m in type ti and its bases (depth first, in the
// order written): the chunk, or -1 and the first base outside the project
// ("?" when a base is unknown).
func (r *resolver) jLookup(ti int, m string) (int, string) {
	return r.lookupInBases(ti, m, func(ti int) []baseRef {
		var out []baseRef
		for _, b := range r.jBases(ti) {
			switch {
			case b.sym >= 0, b.ext != "":
				out = append(out, baseRef{sym: b.sym, ext: b.ext})
			case !b.known():
				out = append(out, baseRef{sym: -1})
			}
		}
		return out
	})
}

// jDeclared finds the type among ti and its bases that declares m without
// a body (a TypeScript interface or abstract method), or -1.
func (r *resolver) jDeclared(ti int, m string, depth int) int {
	if depth > 8 {
		return -1
	}
	t := &r.syms[ti]
	if r.jts.imethods[key3(t.Path, t.Symbol, m)] {
		return ti
	}
	for _, b := range r.jBases(ti) {
		if b.sym >= 0 {
			if k := r.jDeclared(b.sym, m, depth+1); k >= 0 {
				return k
			}
		}
	}
	return -1
}

// jMemberType is the type of field (or, call, the result of method) name
// of type ti or of its bases, evaluated in the file that declares it.
func (r *resolver) jMemberType(ti int, name string, call bool, depth int) (jEnt, bool) {
	if depth > 8 {
		return jUnknown, false
	}
	t := &r.syms[ti]
	tab := r.jts.fields
	if call {
		tab = r.jts.results
	}
	if ty, ok := tab[key3(t.Path, t.Symbol, name)]; ok {
		return r.jTypeIn(t.FileID, ty, depth+1), true
	}
	for _, b := range r.jBases(ti) {
		if b.sym >= 0 {
			if e, ok := r.jMemberType(b.sym, name, call, depth+1); ok {
				return e, true
			}
		}
	}
	return jUnknown, false
}

// jIsIface reports whether type chunk ti is an interface.
func (r *resolver) jIsIface(ti int) bool {
	t := &r.syms[ti]
	return r.jts.ifaces[key2(t.Path, t.Symbol)]
}

// jImpls lists the project's non-interface types that have interface ti
// among their bases (transitively), in path and line order.
func (r *resolver) jImpls(ti int) []int {
	j := r.jts
	if j.impls == nil {
		j.impls, j.subs = map[int][]int{}, map[int][]int{}
		for i := range r.syms {
			s := &r.syms[i]
			if s.Kind != "type" || !jtsLang(s.Lang) || r.jIsIface(i) {
				continue
			}
			seen := map[int]bool{}
			var walk func(k, depth int)
			walk = func(k, depth int) {
				if depth > 8 {
					return
				}
				for _, b := range r.jBases(k) {
					if b.sym < 0 || seen[b.sym] {
						continue
					}
					seen[b.sym] = true
					if r.jIsIface(b.sym) {
						j.impls[b.sym] = append(j.impls[b.sym], i)
					} else {
						j.subs[b.sym] = append(j.subs[b.sym], i)
					}
					walk(b.sym, depth+1)
				}
			}
			walk(i, 0)
		}
	}
	return j.impls[ti]
}

// jOverrides lists, for a call of m resolved to method k on a value of
// class ti, the methods of ti's subclasses that override it (the
// implementations a virtual call may reach besides k).
func (r *resolver) jOverrides(ti, k int, m string) []int {
	r.jImpls(ti) // builds the subclass lists
	var out []int
	seen := map[int]bool{k: true}
	for _, c := range r.jts.subs[ti] {
		if k2, _ := r.jLookup(c, m); k2 >= 0 && !seen[k2] {
			seen[k2] = true
			out = append(out, k2)
		}
	}
	return out
}

// jDispatch lists the implementations of method m of interface ti: for
// every implementing type, the method it has (its own or inherited from a
// class), once each.
func (r *resolver) jDispatch(ti int, m string) []int {
	var out []int
	seen := map[int]bool{}
	for _, c := range r.jImpls(ti) {
		k, _ := r.jLookup(c, m)
		if k < 0 || seen[k] {
			continue
		}
		if owner := r.ownType(&r.syms[k]); owner >= 0 && r.jIsIface(owner) {
			continue // not implemented: the interface's own (default) method
		}
		seen[k] = true
		out = append(out, k)
	}
	return out
}

// jCallOn resolves a call of m on what e denotes.
func (r *resolver) jCallOn(e jEnt, m, rule string, fileID int64) edgeOut {
	switch {
	case e.ext != "":
		return external(e.ext)
	case e.file != "":
		switch x := r.jExported(e.file, m, 0); {
		case x.fn >= 0:
			return exact(r.syms[x.fn].ID).with("module member")
		case x.sym >= 0:
			return exact(r.syms[x.sym].ID).with("module member")
		case x.ext != "":
			return external(x.ext)
		}
		return unresolved("not in the module")
	case e.sym >= 0:
		k, outside := r.jLookup(e.sym, m)
		// a value typed by an interface: dispatch to the implementations
		// of that interface
		var dispatch []int
		if r.jIsIface(e.sym) {
			dispatch = r.jDispatch(e.sym, m)
		}
		if k >= 0 {
			if k2 := r.member(e.sym, m); k2 != k {
				rule = "base class"
			}
			o := exact(r.syms[k].ID).with(rule)
			if owner := r.ownType(&r.syms[k]); owner >= 0 && r.jIsIface(owner) {
				o.detail = "interface method"
				o.dispatch = dispatch
			} else if !r.jIsIface(e.sym) {
				// a method of a class: the overrides in its subclasses
				// may run instead (a super call is static, see above)
				o.dispatch = r.jOverrides(e.sym, k, m)
			}
			return o
		}
		if d := r.jDeclared(e.sym, m, 0); d >= 0 {
			// declared without a body (TypeScript): the declaring type
			o := exact(r.syms[d].ID).with("interface method")
			o.dispatch = dispatch
			return o
		}
		switch {
		case outside == "?":
			return unresolved("base class of unknown origin")
		case outside != "":
			return external(outside)
		case r.jJava(fileID) && javaObjectMethods[m]:
			return external("java.lang.Object")
		}
		return unresolved("no such method")
	case e.fn >= 0:
		return unresolved("member of a function")
	}
	return r.jUnknownCall(m, fileID)
}

// javaObjectMethods are the methods every Java class inherits from Object.
var javaObjectMethods = wordSet(`equals hashCode toString getClass clone finalize notify notifyAll wait`)

// jUnknownCall is a call of m on a value of unknown type.
func (r *resolver) jUnknownCall(m string, fileID int64) edgeOut {
	if builtinMethods[r.fileLang[fileID]][m] {
		return external("builtin")
	}
	return unresolved("receiver of unknown type")
}

// jEval evaluates a receiver notation of a call made by chunk src.
func (r *resolver) jEval(recv string, fileID int64, src *store.SymbolRow) (jEnt, string) {
	parts := strings.Split(recv, " ")
	var e jEnt
	rule := "receiver type"
	switch b := parts[0]; {
	case b == "this" || b == "super":
		e = jUnknown
		if src != nil {
			if ti := r.ownType(src); ti >= 0 {
				e = jSym(ti)
			}
		}
	case strings.HasPrefix(b, ":"):
		e = r.jTypeIn(fileID, b[1:], 0)
	case strings.HasPrefix(b, "!"):
		e = jExt(b[1:])
	case strings.HasPrefix(b, "~"):
		n := b[1:]
		e = r.jName(fileID, n, src)
		value := r.jFieldOf(src, n)
		if !r.jJava(fileID) {
			_, value = r.jts.vars[fileID][n]
		}
		if e.sym >= 0 && len(parts) == 1 && !value {
			rule = "qualifier type" // a static call on a type
		}
	default:
		e = jUnknown
	}
	for _, seg := range parts[1:] {
		if !e.known() {
			break
		}
		name, call := strings.CutSuffix(strings.TrimPrefix(seg, "."), "()")
		switch {
		case name == "":
			// "()": the result of calling the function the base names
			x := jUnknown
			if e.fn >= 0 {
				s := &r.syms[e.fn]
				if ty, ok := r.jts.results[key3(s.Path, "", s.Short)]; ok {
					x = r.jTypeIn(s.FileID, ty, 0)
				}
			}
			e = x
		case e.ext != "":
			return jUnknown, rule // a member of a value outside the project: not known
		case e.file != "":
			x := r.jExported(e.file, name, 0)
			if call && x.fn >= 0 {
				s := &r.syms[x.fn]
				if ty, ok := r.jts.results[key3(s.Path, "", s.Short)]; ok {
					x = r.jTypeIn(s.FileID, ty, 0)
				} else {
					x = jUnknown
				}
			}
			e = x
		case e.sym >= 0:
			e, _ = r.jMemberType(e.sym, name, call, 0)
		default:
			e = jUnknown
		}
	}
	return e, rule
}

// jFieldOf reports whether name is a field of src's class (Java), so that
// a call on it is a call on a value, not a static call.
func (r *resolver) jFieldOf(src *store.SymbolRow, name string) bool {
	if src == nil {
		return false
	}
	for ti := r.ownType(src); ti >= 0; ti = r.jOuter(ti) {
		if _, ok := r.jMemberType(ti, name, false, 0); ok {
			return true
		}
	}
	return false
}

// jOuter is the type enclosing type chunk ti in its file, or -1.
func (r *resolver) jOuter(ti int) int {
	t := &r.syms[ti]
	if t.Container == "" {
		return -1
	}
	if i, ok := r.jts.typeAt[key2(t.Path, t.Container)]; ok {
		return i
	}
	return -1
}

// jName is what a name that is not a local denotes at a call site: Java a
// field of the class (or of an outer class) else a type; TypeScript a
// module variable, a type or function of the file, an import, a global.
func (r *resolver) jName(fileID int64, n string, src *store.SymbolRow) jEnt {
	if !r.jJava(fileID) {
		return r.jNameTS(fileID, n, 0)
	}
	if src != nil {
		for ti := r.ownType(src); ti >= 0; ti = r.jOuter(ti) {
			if e, ok := r.jMemberType(ti, n, false, 0); ok {
				return e
			}
		}
	}
	if n == "" || n[0] < 'A' || n[0] > 'Z' {
		return jUnknown // a field of a base outside the project, a package
	}
	return r.jTypeIn(fileID, n, 0)
}

// jtsResolve resolves a Java or TypeScript/JavaScript edge; false leaves
// it to the scope and name rules.
func (r *resolver) jtsResolve(e store.EdgeRow) (edgeOut, bool) {
	j := r.jts
	if j == nil {
		return edgeOut{}, false
	}
	var src *store.SymbolRow
	if si, ok := r.byID[e.SrcChunk]; ok {
		src = &r.syms[si]
	}
	java := r.jJava(e.FileID)
	switch e.Kind {
	case "extends", "implements":
		if src == nil {
			return edgeOut{}, false
		}
		for _, b := range j.bases[key2(src.Path, src.Symbol)] {
			if store.ShortName(b.ty) != e.Target && b.ty != e.Target {
				continue
			}
			switch t := r.jTypeIn(e.FileID, b.ty, 0); {
			case t.sym >= 0:
				return exact(r.syms[t.sym].ID).with("type"), true
			case t.ext != "":
				return external(t.ext), true
			}
		}
		return edgeOut{}, false
	case "calls":
	default:
		return edgeOut{}, false
	}
	m := store.ShortName(e.Target) // "#p" is the chunk p
	switch recv := e.Recv; {
	case strings.HasPrefix(recv, "new "):
		t := r.jTypeIn(e.FileID, recv[4:], 0)
		switch {
		case t.ext != "":
			return external(t.ext), true
		case t.sym >= 0:
			if java {
				if k := r.member(t.sym, r.syms[t.sym].Short); k >= 0 {
					return exact(r.syms[k].ID).with("constructor"), true
				}
			}
			return exact(r.syms[t.sym].ID).with("constructor"), true
		}
		if java {
			return edgeOut{}, false
		}
		return unresolved("name not bound in the file"), true
	case recv == "super":
		if src == nil {
			return edgeOut{}, false
		}
		ti := r.ownType(src)
		if ti < 0 {
			return unresolved("super outside a class"), true
		}
		t := &r.syms[ti]
		for _, b := range j.bases[key2(t.Path, t.Symbol)] {
			if b.how != "extends" {
				continue
			}
			be := r.jTypeIn(t.FileID, b.ty, 0)
			if be.sym >= 0 {
				o := r.jCallOn(be, m, "base class", e.FileID)
				o.dispatch = nil // a super call is static
				return o, true
			}
			if be.ext != "" {
				return external(be.ext), true
			}
			return unresolved("base class of unknown origin"), true
		}
		if java {
			return external("java.lang.Object"), true
		}
		return unresolved("no base class"), true
	case recv == "":
		if java && (e.Qualifier == "" || e.Qualifier == "this") && src != nil {
			return r.jBareJava(e, src), true
		}
		if e.Qualifier == "this" {
			if src == nil || r.ownType(src) < 0 {
				return unresolved("receiver of unknown type"), true
			}
			return r.jCallOn(jSym(r.ownType(src)), m, "own type", e.FileID), true
		}
		if !java && e.Qualifier == "" {
			// a function of the file, else an imported one
			file := j.paths[e.FileID]
			if i := r.jFuncAt(file, m, e.Line); i >= 0 {
				return exact(r.syms[i].ID).with("same file"), true
			}
			if b, ok := j.binds[e.FileID][m]; ok {
				switch x := r.jImport(e.FileID, b, 0); {
				case x.fn >= 0:
					return exact(r.syms[x.fn].ID).with("import"), true
				case x.sym >= 0:
					return exact(r.syms[x.sym].ID).with("import"), true
				case x.ext != "":
					return external(x.ext), true
				}
			}
		}
		return edgeOut{}, false
	case recv == "?":
		return r.jUnknownCall(m, e.FileID), true
	case recv == "?local":
		return unresolved("local function value"), true
	}
	ent, rule := r.jEval(e.Recv, e.FileID, src)
	if !ent.known() {
		return r.jUnknownCall(m, e.FileID), true
	}
	return r.jCallOn(ent, m, rule, e.FileID), true
}

// jBareJava resolves a Java bare call (or this.m()): a method of the
// class or its bases, of an outer class, or a static import.
func (r *resolver) jBareJava(e store.EdgeRow, src *store.SymbolRow) edgeOut {
	j := r.jts
	m := store.ShortName(e.Target)
	ti := r.ownType(src)
	var first edgeOut
	for cur, depth := ti, 0; cur >= 0 && depth < 8; cur, depth = r.jOuter(cur), depth+1 {
		rule := "own type"
		if depth > 0 {
			rule = "enclosing type"
		}
		o := r.jCallOn(jSym(cur), m, rule, e.FileID)
		if o.res == store.ResExact {
			return o
		}
		if depth == 0 {
			first = o
		}
		if e.Qualifier == "this" {
			break
		}
	}
	if f, ok := j.statics[e.FileID][m]; ok && e.Qualifier == "" {
		if i := r.jFQN(f.Type); i >= 0 {
			if k := r.member(i, m); k >= 0 {
				return exact(r.syms[k].ID).with("static import")
			}
			return unresolved("no such method")
		}
		return external(f.Type)
	}
	if ti < 0 {
		return unresolved("")
	}
	if first.res == store.ResExternal {
		return first
	}
	return unresolved("not a method of the class or its bases")
}
