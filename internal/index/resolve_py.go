package index

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"codectx/internal/lang"
	"codectx/internal/store"
)

// Python resolution by the names a file binds: imports (standard library
// included, recorded as facts by the extractor), module-level definitions
// (a nested def only inside the function that defines it), module
// variables, instance and class attributes and function results as type
// expressions, and the project's class hierarchy. The extractor's receiver
// notation (lang.Relation.Recv) for Python:
//
//	""        a bare call, or a call qualified by a name that is not a local
//	          (a module, a class, a module variable; "self"/"cls")
//	"?local"  a call of a parameter or local variable (a method's own
//	          cls or self too)
//	"?"       a receiver of unknown type (an untyped local, an expression)
//	"super"   super().m()
//	":E"      a value of type expression E: "T" the value of calling T (a
//	          class's instance, a function's result), "=path" a path of
//	          names, attributes and calls ("=self.make().node"; "=f()[0]"
//	          element 0 of the tuple f returns, "=x[2]" x.__getitem__(2)
//	          of a value that is not a call's; "=super:C().m()" the
//	          result of super().m() in a method of class C; "=^T()" the
//	          module-level T a local shadows), "A|B"
//	          alternatives ("A|?": an A or a value of unknown type, whose
//	          calls resolve through A, inferred); ":E .a.b" its attributes
//	".a.b"    attributes of a name that is not a local (self.x, mod.Class)
//
// The facts hold type expressions too (module variables, attributes,
// properties, what functions return). A call on a value whose type is not
// known is unresolved, never guessed by name; a call on a module or class
// outside the project is external. A call of a name defined several
// times in its scope, or on a union whose members define the method
// apart, also reaches the other definitions (edgeOut.also: derived calls
// rows).

// pyResolver holds the Python tables.
type pyResolver struct {
	paths   map[int64]string                      // file id → path
	files   map[string]bool                       // Python file paths of the project
	binds   map[int64]map[string]*store.FactRow   // file → bound name → import
	rebinds map[int64]map[string][]*store.FactRow // file → bound name → the other module-level imports of it (try/except)
	inFuncs map[string]bool                       // file\x00name: bound by functions' imports only (not a module attribute)
	stars   map[int64][]*store.FactRow            // file → star imports
	all     map[int64]*[]string                   // file → its __all__ (nil: computed)
	vars    map[int64]map[string]string           // file → module variable → type expression
	attrs   map[string]*string                    // file\x00class\x00attr → type expression ("" unknown)
	bases   map[string][]pyBase                   // file\x00class → its bases as written, in order
	results map[string]string                     // file\x00owner\x00function → the type expression it returns
	yields  map[string]string                     // file\x00owner\x00generator → the type expression it yields
	props   map[string]string                     // file\x00class\x00method → a property's value (its result)
	nest    map[int]int                           // chunk → innermost function chunk enclosing it
	dead    map[int64][][2]int                    // file → line ranges a static condition rules out
	ovl     map[int64][][2]int                    // file → line ranges of @overload declarations
	locals  map[int64][]pyLocalImport             // file → the imports in its functions
	enters  map[string]bool                       // file\x00owner\x00generator → decorated @contextmanager
	budget  int                                   // type expressions left to evaluate for the current call
	subs    map[int][]int                         // class → the project classes whose bases name it (nil: not built)
	newing  map[int]bool                          // classes whose __new__ is being evaluated (pyConstruct)
	implied map[int64]map[string]bool             // __init__.py → the submodules its `from .X import …` binds (X)
}

// pyLocalImport is an import in a function (lines from-to of the file).
type pyLocalImport struct {
	from, to int
	fact     *store.FactRow
}

// pyBudget bounds the type expressions evaluated for one call (chains of
// results with alternatives could otherwise multiply): past it, unknown.
// Reset per call, so a call's resolution does not depend on the others.
const pyBudget = 2000

// pyMaxDepth bounds the steps of one evaluation (a result's result, an
// attribute's value, a member …): past it, unknown (cycles: a() returning
// b() returning a()).
const pyMaxDepth = 12

// pyBase is a base class as written, with the line of its class.
type pyBase struct {
	expr string
	line int
}

// pyEnt is what a Python name denotes: a project module (file), a chunk
// (class or function; inst: an instance of the class; val: a class held
// by a variable), or something outside the project (ext: module name or
// "builtin").
type pyEnt struct {
	file string
	sym  int
	inst bool
	val  bool // a class reached through a variable or attribute, not its name
	ext  string
	alts *[]pyEnt // a value of one of several known types (sym -1)
	// partial: some of the places that give the value (with alts) give
	// a value of unknown type; calls resolved through the known types
	// are inferred, not exact
	partial bool
	gen     bool   // a generator: what calling generator function sym returned
	recv    *pyEnt // the generator function's self
	elem    *pyOf  // a builtin container (ext "builtin"): its elements
	vals    *pyOf  // a builtin mapping (ext "builtin"): its values
}

// pyOf is a type expression as file fileID writes it, self the instance
// its self denotes: a container's elements.
type pyOf struct {
	fileID int64
	expr   string
	self   pyEnt
}

var pyUnknown = pyEnt{sym: -1}

func (e pyEnt) known() bool { return e.file != "" || e.sym >= 0 || e.ext != "" || e.alts != nil }

// pyElem is an element of iterating c: what a project generator yields
// (a generator function's result, or the one a class's __iter__ returns),
// what __next__ returns when __iter__ returns self, the elements of a
// builtin container whose type is known ([A()], list[A]); unknown
// otherwise.
func (r *resolver) pyElem(c pyEnt, depth int) pyEnt {
	switch {
	case depth > pyMaxDepth:
		return pyUnknown
	case c.elem != nil:
		return r.pyInstance(c.elem.fileID, c.elem.expr, c.elem.self, depth+1)
	case c.alts != nil:
		return pyEach(*c.alts, c.partial, func(a pyEnt) pyEnt { return r.pyElem(a, depth+1) })
	case c.gen:
		s := &r.syms[c.sym]
		self := pyUnknown
		if c.recv != nil {
			self = *c.recv
		}
		return r.pyInstance(s.FileID, r.py.yields[key3(s.Path, s.Container, s.Short)], self, depth+1)
	case c.sym >= 0 && c.inst && r.syms[c.sym].Kind == "type":
		if m := r.pyMethod(c.sym, "__iter__"); m >= 0 {
			it := r.pyResult(c, pyEnt{sym: m}, depth+1)
			if it.gen {
				return r.pyElem(it, depth+1)
			}
			if n := r.pyMethod(c.sym, "__next__"); it == c && n >= 0 {
				return r.pyResult(c, pyEnt{sym: n}, depth+1)
			}
		}
	}
	return pyUnknown
}

// pyEach maps f over the alternatives of a union: the one result when they
// agree and all are known, else a union of the known results (a result
// that is a union adds its members) — partial when some are unknown or a
// union mapped was partial; unknown when none is known, or beyond eight.
func pyEach(alts []pyEnt, partial bool, f func(pyEnt) pyEnt) pyEnt {
	var out []pyEnt
	for _, a := range alts {
		e := f(a)
		members := []pyEnt{e}
		switch {
		case !e.known():
			partial = true
			continue
		case e.alts != nil: // a union in a union: its members
			members, partial = *e.alts, partial || e.partial
		}
		for _, m := range members {
			if !slices.Contains(out, m) {
				out = append(out, m)
			}
		}
		if len(out) > 8 {
			return pyUnknown
		}
	}
	switch {
	case len(out) == 0:
		return pyUnknown
	case len(out) == 1 && !partial:
		return out[0]
	}
	return pyEnt{sym: -1, alts: &out, partial: partial}
}

// pyInit builds the Python tables from the file paths and type facts.
func (r *resolver) pyInit(files map[int64]string, facts []store.FactRow) {
	p := &pyResolver{paths: files, files: map[string]bool{}, binds: map[int64]map[string]*store.FactRow{},
		stars: map[int64][]*store.FactRow{}, all: map[int64]*[]string{}, vars: map[int64]map[string]string{}, attrs: map[string]*string{}, nest: map[int]int{},
		bases: map[string][]pyBase{}, results: map[string]string{}, props: map[string]string{}, yields: map[string]string{},
		rebinds: map[int64]map[string][]*store.FactRow{}, inFuncs: map[string]bool{}, dead: map[int64][][2]int{}, ovl: map[int64][][2]int{}, locals: map[int64][]pyLocalImport{}, enters: map[string]bool{}}
	for id, f := range files {
		if r.fileLang[id] == "python" || strings.HasSuffix(f, ".py") {
			p.files[f] = true
		}
	}
	if len(p.files) == 0 {
		return
	}
	r.py = p
	p.budget = pyBudget
	for i := range facts {
		f := &facts[i]
		if r.fileLang[f.FileID] != "python" {
			continue
		}
		switch f.Kind {
		case lang.FactImport:
			if x, ok := strings.CutPrefix(f.Type, "."); ok && x != "" && !strings.ContainsAny(x, ".") && f.Sig != "" && f.Owner == "" &&
				path.Base(files[f.FileID]) == "__init__.py" {
				// from .X import … in a package's __init__.py binds X
				// to the submodule too (as pyright's binder does; not
				// from .X.Y, nor an absolute import of it)
				if p.implied == nil {
					p.implied = map[int64]map[string]bool{}
				}
				if p.implied[f.FileID] == nil {
					p.implied[f.FileID] = map[string]bool{}
				}
				p.implied[f.FileID][x] = true
			}
			if f.Sig == "*" {
				p.stars[f.FileID] = append(p.stars[f.FileID], f)
				continue
			}
			if f.Owner != "" { // in a function: a local of it
				a, b, _ := strings.Cut(f.Owner, "-")
				from, _ := strconv.Atoi(a)
				to, _ := strconv.Atoi(b)
				p.locals[f.FileID] = append(p.locals[f.FileID], pyLocalImport{from, to, f})
				continue
			}
			m := p.binds[f.FileID]
			if m == nil {
				m = map[string]*store.FactRow{}
				p.binds[f.FileID] = m
			}
			if first, dup := m[f.Name]; !dup {
				m[f.Name] = f
			} else if first.Type != f.Type || first.Sig != f.Sig {
				rm := p.rebinds[f.FileID]
				if rm == nil {
					rm = map[string][]*store.FactRow{}
					p.rebinds[f.FileID] = rm
				}
				rm[f.Name] = append(rm[f.Name], f)
			}
		case lang.FactAll:
			var names *[]string
			if f.Type != "?" {
				l := strings.Split(f.Sig, ",")
				names = &l
			}
			p.all[f.FileID] = names
		case lang.FactVar:
			m := p.vars[f.FileID]
			if m == nil {
				m = map[string]string{}
				p.vars[f.FileID] = m
			}
			m[f.Name] = f.Type
		case lang.FactResult:
			if f.Sig == "yield" {
				p.yields[key3(files[f.FileID], f.Owner, f.Name)] = f.Type
				continue
			}
			if f.Sig == "enter" { // a @contextmanager generator
				p.enters[key3(files[f.FileID], f.Owner, f.Name)] = true
				continue
			}
			if pos, ok := strings.CutPrefix(f.Sig, "["); ok { // element pos of the tuple it returns
				p.results[key3(files[f.FileID], f.Owner, f.Name)+"\x00"+strings.TrimSuffix(pos, "]")] = f.Type
				continue
			}
			p.results[key3(files[f.FileID], f.Owner, f.Name)] = f.Type
		case lang.FactDead, lang.FactOverload:
			a, b, _ := strings.Cut(f.Sig, "-")
			from, _ := strconv.Atoi(a)
			to, _ := strconv.Atoi(b)
			if f.Kind == lang.FactDead {
				p.dead[f.FileID] = append(p.dead[f.FileID], [2]int{from, to})
			} else {
				p.ovl[f.FileID] = append(p.ovl[f.FileID], [2]int{from, to})
			}
		case lang.FactBase:
			k := key2(files[f.FileID], f.Owner)
			line, _ := strconv.Atoi(f.Sig)
			p.bases[k] = append(p.bases[k], pyBase{f.Type, line})
		case lang.FactField:
			if f.Sig == "property" {
				p.props[key3(files[f.FileID], f.Owner, f.Name)] = f.Type
				continue
			}
			ty := f.Type
			p.attrs[key3(files[f.FileID], f.Owner, f.Name)] = &ty
		}
	}
	// a name only functions import: the first of them, for the type
	// expressions, which do not tell the function
	for id, ls := range p.locals {
		for _, l := range ls {
			m := p.binds[id]
			if m == nil {
				m = map[string]*store.FactRow{}
				p.binds[id] = m
			}
			if _, dup := m[l.fact.Name]; !dup {
				m[l.fact.Name] = l.fact
				p.inFuncs[key2(files[id], l.fact.Name)] = true
			}
		}
	}
	// nested defs: the innermost function chunk holding each chunk
	var stack []int
	for i := range r.syms {
		s := &r.syms[i]
		if s.Lang != "python" {
			continue
		}
		for len(stack) > 0 {
			top := &r.syms[stack[len(stack)-1]]
			if top.Path == s.Path && s.StartLine >= top.StartLine && s.EndLine <= top.EndLine {
				break
			}
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 {
			p.nest[i] = stack[len(stack)-1]
		}
		if s.Kind == "function" || s.Kind == "method" {
			stack = append(stack, i)
		}
	}
}

// filePath is the path of a file.
func (r *resolver) filePath(fileID int64) string { return r.py.paths[fileID] }

// pyModuleFile is the project file of module mod imported from a file in
// dir: relative modules from dir; absolute ones from the project root or a
// source folder above the file (a folder that is no package: without an
// __init__.py), else, unless mod is a standard-library module, from a
// package folder above the file (as pyright, whose last resort is the
// importing file's folder and its parents: `from http import client` in
// pkg/sub/m.py is the standard library's even when pkg/http.py exists);
// M.py or M/__init__.py.
func pyModuleFile(files func(string) bool, dir, mod string) (string, bool) {
	var cands []string
	if strings.HasPrefix(mod, ".") {
		n := len(mod) - len(strings.TrimLeft(mod, "."))
		base := dir
		for range n - 1 {
			base = path.Dir(base)
		}
		rel := strings.ReplaceAll(mod[n:], ".", "/")
		cands = []string{path.Join(base, rel) + ".py", path.Join(base, rel, "__init__.py")}
	} else {
		rel := strings.ReplaceAll(mod, ".", "/")
		var pkgs []string
		for d := dir; ; d = path.Dir(d) {
			c := []string{path.Join(d, rel) + ".py", path.Join(d, rel, "__init__.py")}
			if files(path.Clean(path.Join(d, "__init__.py"))) {
				pkgs = append(pkgs, c...)
			} else {
				cands = append(cands, c...)
			}
			if d == "." || d == "/" || d == "" {
				break
			}
		}
		if !lang.PythonStdlib(mod) {
			cands = append(cands, pkgs...)
		}
	}
	for _, c := range cands {
		if c = path.Clean(c); files(c) {
			return c, true
		}
	}
	return "", false
}

func (p *pyResolver) isFile(f string) bool { return p.files[f] }

// pyTopLevel is the module-level function or class named name in file,
// or -1: of a name defined several times (overloads, the branches of an
// if), the last definition a static condition does not rule out, as the
// one a call in a function sees (the last one when all are ruled out).
func (r *resolver) pyTopLevel(file, name string) int {
	best, dead := -1, -1
	for _, i := range r.byShort[name] {
		s := &r.syms[i]
		if s.Path == file && s.Container == "" && (s.Kind == "function" || s.Kind == "type") {
			if _, nested := r.py.nest[i]; nested {
				continue
			}
			if r.pyLive(i) {
				best = i
			} else {
				dead = i
			}
		}
	}
	if best < 0 && !r.pyVarOf(file, name) {
		return dead
	}
	return best
}

// pyVarOf reports whether file assigns module variable name where no
// static condition rules it out (`f = g` in the else of a platform test
// whose other branches define f).
func (r *resolver) pyVarOf(file, name string) bool {
	id, ok := r.pyFileID(file)
	if !ok {
		return false
	}
	_, v := r.py.vars[id][name]
	return v
}

// pyLive reports whether chunk i is not in a branch a static condition
// rules out (lang.FactDead).
func (r *resolver) pyLive(i int) bool { return r.pyVisible(i, 0) }

// pyVisible reports whether chunk i is not in a branch a static condition
// rules out, or is in the one that holds line (a call in it sees its
// definitions).
func (r *resolver) pyVisible(i, line int) bool {
	s := &r.syms[i]
	for _, d := range r.py.dead[s.FileID] {
		if s.StartLine >= d[0] && s.StartLine <= d[1] && (line < d[0] || line > d[1]) {
			return false
		}
	}
	return true
}

// pyImport is what an import binding denotes.
func (r *resolver) pyImport(dir string, f *store.FactRow, depth int) pyEnt {
	p := r.py
	if f.Sig == "" {
		if file, ok := pyModuleFile(p.isFile, dir, f.Type); ok {
			return pyEnt{file: file, sym: -1}
		}
		return pyEnt{sym: -1, ext: f.Type}
	}
	sub := f.Type + "." + f.Sig
	if strings.HasSuffix(f.Type, ".") {
		sub = f.Type + f.Sig
	}
	if file, ok := pyModuleFile(p.isFile, dir, sub); ok {
		return pyEnt{file: file, sym: -1}
	}
	if file, ok := pyModuleFile(p.isFile, dir, f.Type); ok {
		return r.pyMember(pyEnt{file: file, sym: -1}, f.Sig, depth+1)
	}
	return pyEnt{sym: -1, ext: f.Type}
}

// pyBound is what the module-level imports of file fileID bind name to
// (b the first): its one import's value, or, when several import it and
// one from the project (`try: import _c as m` / `except ImportError:
// from . import m`), the union of their values, as pyright's declared
// type of the name; when every one is from outside the project, the
// first's (a base class from outside stays one).
func (r *resolver) pyBound(fileID int64, name string, b *store.FactRow, depth int) pyEnt {
	dir := path.Dir(r.filePath(fileID))
	first := r.pyImport(dir, b, depth)
	more := r.py.rebinds[fileID][name]
	if len(more) == 0 {
		return first
	}
	alts := []pyEnt{first}
	inProject := first.ext == ""
	for _, f := range more {
		e := r.pyImport(dir, f, depth)
		alts = append(alts, e)
		inProject = inProject || e.ext == ""
	}
	if !inProject {
		// every one outside the project (try: from collections.abc
		// import Sequence / except ImportError: from collections
		// import …): the first, a value or base class from outside
		return first
	}
	return pyEach(alts, false, func(a pyEnt) pyEnt { return a })
}

// pyFileID is the id of a project file, for its bindings.
func (r *resolver) pyFileID(file string) (int64, bool) {
	if i, ok := r.byPath[file]; ok {
		return r.syms[i].FileID, true
	}
	return 0, false
}

// pyNameAt evaluates a name (dotted: a.b.c) as a call at line of file
// fileID sees it: imported by the innermost function around the line
// that imports it, else as pyName.
func (r *resolver) pyNameAt(fileID int64, dotted string, line int) pyEnt {
	first, rest, _ := strings.Cut(dotted, ".")
	var best *pyLocalImport
	for k := range r.py.locals[fileID] {
		l := &r.py.locals[fileID][k]
		if l.fact.Name == first && l.from <= line && line <= l.to && (best == nil || l.from >= best.from) {
			best = l
		}
	}
	if best == nil {
		return r.pyName(fileID, dotted, 0)
	}
	cur := r.pyImport(path.Dir(r.filePath(fileID)), best.fact, 0)
	for seg := range strings.SplitSeq(rest, ".") {
		if seg != "" && cur.known() {
			cur = r.pyMember(cur, seg, 1)
		}
	}
	return cur
}

// pyName evaluates a name (dotted: a.b.c) as file fileID sees it at module
// level.
func (r *resolver) pyName(fileID int64, dotted string, depth int) pyEnt {
	if depth > pyMaxDepth || dotted == "" {
		return pyUnknown
	}
	p := r.py
	segs := strings.Split(dotted, ".")
	file := r.filePath(fileID)
	var cur pyEnt
	if i := r.pyTopLevel(file, segs[0]); i >= 0 {
		cur = pyEnt{sym: i}
	} else if b, ok := p.binds[fileID][segs[0]]; ok {
		// (the modules an import goes through, re-exports and star
		// imports, are looked up afresh: they are no steps of the
		// value, whose evaluations the budget bounds)
		cur = r.pyBound(fileID, segs[0], b, 0)
	} else if ty, ok := p.vars[fileID][segs[0]]; ok {
		cur = r.pyInstance(fileID, ty, pyUnknown, depth)
	} else if f, ok := r.pyImplied(fileID, segs[0]); ok {
		cur = pyEnt{file: f, sym: -1}
	} else if lang.PythonBuiltin(segs[0]) {
		cur = pyEnt{sym: -1, ext: "builtin"}
	} else if cur = r.pyStar(fileID, segs[0], 0); !cur.known() {
		return pyUnknown
	}
	for _, seg := range segs[1:] {
		if cur = r.pyMember(cur, seg, depth+1); !cur.known() {
			return cur
		}
	}
	return cur
}

// pyImplied is the project module name denotes in package file fileID
// (an __init__.py) whose `from .name import …` binds it.
func (r *resolver) pyImplied(fileID int64, name string) (string, bool) {
	if !r.py.implied[fileID][name] {
		return "", false
	}
	return pyModuleFile(r.py.isFile, path.Dir(r.filePath(fileID)), "."+name)
}

// pyStar is what the star imports of file fileID bind name to (a name
// that starts with "_" only when __all__ lists it): the first project module that
// defines it, imports it or binds it through its own star imports (a
// value from outside the project when it imports it from outside: from
// ctypes import * binds ctypes' sizeof, imported from _ctypes) — of a
// module with __all__, only a name it lists, or, when the module
// computes it, one it defines or binds through a star import — else a
// name of the first module outside the project imported with a star
// (from tkinter.constants import *); unknown when there is none.
func (r *resolver) pyStar(fileID int64, name string, depth int) pyEnt {
	if depth > pyMaxDepth {
		return pyUnknown
	}
	private := strings.HasPrefix(name, "_")
	dir := path.Dir(r.filePath(fileID))
	outside := ""
	for _, s := range r.py.stars[fileID] {
		f, ok := pyModuleFile(r.py.isFile, dir, s.Type)
		if !ok {
			if outside == "" && !private {
				outside = s.Type
			}
			continue
		}
		id, _ := r.pyFileID(f)
		all, hasAll := r.py.all[id]
		switch {
		case private && (!hasAll || all == nil):
			continue // not listed: a star import leaves out names starting with _
		case hasAll && all != nil && !slices.Contains(*all, name):
			continue // __all__ leaves it out
		case hasAll && all == nil:
			// a computed __all__: what the module defines, or binds
			// through its own star imports (__all__ = x.__all__ + …)
			if i := r.pyTopLevel(f, name); i >= 0 {
				return pyEnt{sym: i}
			}
			if e := r.pyStar(id, name, depth+1); e.known() {
				return e
			}
			continue
		}
		if e := r.pyImport(dir, &store.FactRow{Type: s.Type, Sig: name}, depth+1); e.known() {
			return e
		}
	}
	if outside != "" {
		return pyEnt{sym: -1, ext: outside}
	}
	return pyUnknown
}

// pyInstance is the instance a type expression of fileID denotes: the
// value of calling "T" (a class: its instance; a function or method: the
// class it returns), or of "=" and a path ("=compat32", "=self.policy",
// "=self.make().node", self being the instance self), the one value of
// alternatives "A|B" (or the union of their values, partial when one is
// unknown: "A|?"), or unknown.
func (r *resolver) pyInstance(fileID int64, expr string, self pyEnt, depth int) pyEnt {
	if expr == "" || expr == "?" || depth > pyMaxDepth || r.py.budget <= 0 {
		return pyUnknown
	}
	r.py.budget--
	if strings.Contains(expr, "|") {
		// alternatives (assigned or returned in several places): the
		// value when they all denote the same, else a union whose
		// members and calls are known where they agree
		var vals []pyEnt
		for _, a := range strings.Split(expr, "|") {
			vals = append(vals, r.pyInstance(fileID, a, self, depth+1))
		}
		return pyEach(vals, false, func(a pyEnt) pyEnt { return a })
	}
	if elem, ok := strings.CutPrefix(expr, "*"); ok { // a builtin container of elem
		return pyEnt{sym: -1, ext: "builtin", inst: true, elem: &pyOf{fileID, elem, self}}
	}
	if v, ok := strings.CutPrefix(expr, "%"); ok { // a builtin mapping whose values are v
		return pyEnt{sym: -1, ext: "builtin", inst: true, vals: &pyOf{fileID, v, self}}
	}
	path, ok := strings.CutPrefix(expr, "=")
	if !ok {
		path += "()"
	}
	e := r.pyValue(fileID, path, self, depth+1)
	switch {
	case e.inst || e.ext != "" || e.alts != nil || e.gen || e.file != "":
		return e // (a project module held or returned: pyright's Module type)
	case e.sym >= 0 && r.syms[e.sym].Kind == "type":
		e.val = true // a class held by a variable, an attribute, a parameter
		return e
	}
	return pyUnknown
}

// pyValue evaluates a path as file fileID sees it: a module-level name,
// or self/cls (the instance self and its class), then attributes and
// "()" calls ("self.make().node").
func (r *resolver) pyValue(fileID int64, path string, self pyEnt, depth int) pyEnt {
	cur, recv := pyUnknown, pyUnknown
	sup := -1 // super() in a method of class sup: the next name is its bases'
	for k, seg := range strings.Split(path, ".") {
		name := seg
		if k := strings.IndexAny(seg, "(["); k >= 0 {
			name = seg[:k]
		}
		steps := seg[len(name):] // "()" a call, "[]" an element, "()[k]" an element of the tuple it returns
		switch {
		case k == 1 && sup >= 0:
			// super().m: the first base (depth first, left to right)
			// that has m, called on self
			recv, cur = cur, pyUnknown
			for _, b := range r.pyBases(sup) {
				if b.sym >= 0 {
					if m := r.pyMethod(b.sym, name); m >= 0 {
						cur = pyEnt{sym: m}
						break
					}
				}
			}
		case k == 0 && strings.HasPrefix(name, lang.PythonSuperHead):
			sup = r.pyClassIn(fileID, strings.ReplaceAll(name[len(lang.PythonSuperHead):], ":", "."))
			if sup < 0 {
				return pyUnknown
			}
			cur, steps = self, ""
			if cur.sym < 0 {
				cur = pyEnt{sym: sup, inst: true}
			}
		case k > 0:
			recv = cur
			cur = r.pyMember(cur, name, depth)
			if name == "__enter__" && recv.ext == "builtin" && recv.inst && recv.elem == nil && strings.HasPrefix(steps, "()") {
				// with open(…) as f: a builtin context manager (a
				// file, a memoryview) enters as itself
				cur, steps = recv, steps[2:]
			}
			if recv.ext == "builtin" && recv.inst && strings.HasPrefix(steps, "()") {
				switch {
				case recv.elem != nil && name == "__getitem__": // xs[i]: an element
					cur, steps = r.pyElem(recv, depth), steps[2:]
				case recv.vals != nil && lang.PythonMappingValue("."+name+"()"):
					cur, steps = r.pyInstance(recv.vals.fileID, recv.vals.expr, recv.vals.self, depth+1), steps[2:]
				case recv.vals != nil && strings.HasPrefix("."+name+steps, lang.PythonItemValue): // for k, v in d.items(): v is a value
					cur, steps = r.pyInstance(recv.vals.fileID, recv.vals.expr, recv.vals.self, depth+1), steps[len(lang.PythonItemValue)-len(name)-1:]
				case recv.vals != nil && name == "values": // iterating them gives the values
					cur, steps = pyEnt{sym: -1, ext: "builtin", inst: true, elem: recv.vals}, steps[2:]
				}
			}
			if name == "__next__" && (recv.gen || recv.elem != nil) && strings.HasPrefix(steps, "()") {
				// next(g) of a generator, of a builtin container's iterator: an element
				cur, steps = r.pyElem(recv, depth), steps[2:]
			}
			if (name == "__enter__" || name == "__aenter__") && recv.gen && strings.HasPrefix(steps, "()") {
				// with f() as x, f a @contextmanager generator: what it yields
				if s := &r.syms[recv.sym]; r.py.enters[key3(s.Path, s.Container, s.Short)] {
					cur, steps = r.pyElem(recv, depth), steps[2:]
				}
			}
		case name == "self" || name == "cls":
			cur = pyUnknown
			if self.sym >= 0 {
				cur = pyEnt{sym: self.sym, inst: name == "self"}
			}
		default:
			name = strings.TrimPrefix(name, lang.PythonModuleHead) // (^T: the module's T, which a local shadows)
			cur = r.pyName(fileID, name, depth)
			if cur.ext == "builtin" && pyAnyBuiltins[name] && strings.HasPrefix(steps, "()") {
				return pyUnknown // eval(…), getattr(…), max(…): any value
			}
		}
		for elem := false; len(steps) >= 2; {
			after := elem // the step follows an element's "[]"
			elem = false
			switch {
			case steps[:2] == "[]":
				cur = r.pyElem(cur, depth)
				steps, elem = steps[2:], true
			case lang.PythonIndexStep(steps) > 0 && !after:
				// x[k] of a value that is not a call's: x.__getitem__(k)
				// (not of an element: the pairs d.items() yields keep no
				// positions)
				cur = r.pyGetItem(cur, depth)
				steps = steps[lang.PythonIndexStep(steps):]
			case steps[0] == '[':
				return pyUnknown // [k] of anything but a call's tuple (d.items()[][1] of a project class)
			case strings.HasPrefix(steps, "()[") && len(steps) > 3 && steps[3] >= '0' && steps[3] <= '9':
				// f()[k]: element k of the tuple f returns
				end := strings.IndexByte(steps, ']')
				pos, err := strconv.Atoi(steps[3:max(end, 3)])
				if end < 0 || err != nil {
					return pyUnknown
				}
				cur = r.pyResultAt(recv, cur, pos, depth)
				steps = steps[end+1:]
			default:
				cur = r.pyResult(recv, cur, depth)
				steps = steps[2:]
			}
			recv = pyUnknown
		}
		if !cur.known() {
			return pyUnknown
		}
	}
	return cur
}

// pyResult is the value of calling c (reached as an attribute of recv, or
// unknown): a class's instance, the instance a function or method returns
// (self in its result being recv's instance, else the method's own
// class), what an instance's __call__ returns, the module of something
// outside the project (a value, inst; calling a builtin value or its
// method gives a value of unknown type); else unknown.
func (r *resolver) pyResult(recv, c pyEnt, depth int) pyEnt { return r.pyResultAt(recv, c, -1, depth) }

// pyResultAt is pyResult, or with pos >= 0 element pos of the tuple the
// call returns (a function every return of which is a tuple of that
// many elements; unknown otherwise).
func (r *resolver) pyResultAt(recv, c pyEnt, pos, depth int) pyEnt {
	switch {
	case c.alts != nil:
		return pyEach(*c.alts, c.partial, func(a pyEnt) pyEnt { return r.pyResultAt(pyUnknown, a, pos, depth+1) })
	case pos >= 0 && c.ext != "" && c.ext != "builtin":
		return pyEnt{sym: -1, ext: c.ext, inst: true} // an element of a value from outside the project
	case pos >= 0 && c.sym >= 0 && r.syms[c.sym].Kind == "type" && !c.inst:
		return r.pyGetItem(pyEnt{sym: c.sym, inst: true}, depth+1) // T()[k]: what its __getitem__ returns
	case pos >= 0 && (c.ext != "" || c.sym < 0):
		return pyUnknown // a builtin's: not a tuple we follow
	case c.ext == "builtin" && c.inst:
		// a builtin value's method or the value itself (list.pop, a
		// staticmethod object): pyright types the result through the
		// builtins' generic stubs (an element, any value); unknown here
		return pyUnknown
	case c.ext != "":
		return pyEnt{sym: -1, ext: c.ext, inst: true} // a value from outside the project
	case c.sym >= 0 && c.inst && depth <= pyMaxDepth:
		// calling an instance: what its class's __call__ returns
		if m := r.pyMethod(c.sym, "__call__"); m >= 0 {
			return r.pyResultAt(c, pyEnt{sym: m}, pos, depth+1)
		}
		return pyUnknown
	case c.sym < 0 || c.inst || depth > pyMaxDepth:
		return pyUnknown
	}
	s := &r.syms[c.sym]
	if s.Kind == "type" {
		return r.pyConstruct(c.sym, depth)
	}
	self := pyUnknown
	if recv.sym >= 0 && r.syms[recv.sym].Kind == "type" {
		self = pyEnt{sym: recv.sym, inst: true}
	} else if ti := r.pyOwnType(s); ti >= 0 {
		self = pyEnt{sym: ti, inst: true}
	}
	if _, gen := r.py.yields[key3(s.Path, s.Container, s.Short)]; gen {
		if pos >= 0 {
			return pyUnknown
		}
		return pyEnt{sym: c.sym, gen: true, recv: &self}
	}
	key := key3(s.Path, s.Container, s.Short)
	ty, ok := r.py.results[key]
	if pos >= 0 {
		ty, ok = r.py.results[key+"\x00"+strconv.Itoa(pos)]
		if base := r.py.results[key]; !ok && base != "" && !strings.ContainsAny(base, "|*") {
			// return g(…): element pos of the tuple g returns
			if p, isPath := strings.CutPrefix(base, "="); !isPath {
				ty, ok = "="+base+"()["+strconv.Itoa(pos)+"]", true
			} else if strings.HasSuffix(p, "()") {
				ty, ok = "="+p+"["+strconv.Itoa(pos)+"]", true
			}
		}
	}
	if !ok && pos >= 0 {
		// not a tuple of known length: what indexing what it returns
		// gives (an element of a list of A, what a class's
		// __getitem__ returns, a value from outside the project)
		return r.pyGetItem(r.pyResultAt(recv, c, -1, depth+1), depth+1)
	}
	if !ok {
		return pyUnknown
	}
	return r.pyInstance(s.FileID, ty, self, depth+1)
}

// pyConstruct is the value of calling class ti: what the __new__ it
// defines or inherits from a project base returns, called on ti, when
// that is instances of project classes, as pyright types a constructor
// call by __new__'s return type (an instance of ti or of a subclass it
// picks, `object.__new__(cls) if key is None else
// object.__new__(Keyed)`: either; another class's instance); else its
// instance. While a class's __new__ is evaluated, a call of that class
// (`object.__new__(cls)`, `super().__new__(cls)`: the fact "=cls()") is
// its instance.
func (r *resolver) pyConstruct(ti, depth int) pyEnt {
	inst := pyEnt{sym: ti, inst: true}
	if r.py.newing[ti] || depth > pyMaxDepth {
		return inst
	}
	m := r.pyMethod(ti, "__new__")
	if m < 0 {
		return inst
	}
	ms := &r.syms[m]
	ty := r.py.results[key3(ms.Path, ms.Container, ms.Short)]
	if ty == "" {
		return inst
	}
	if r.py.newing == nil {
		r.py.newing = map[int]bool{}
	}
	r.py.newing[ti] = true
	v := r.pyInstance(ms.FileID, ty, inst, depth+1)
	delete(r.py.newing, ti)
	if !r.pyProjectInstances(v) {
		// unknown, typing's Any (`-> t.Any`), a value from outside the
		// project (a cache's get(): pyright's Unknown, of a generic
		// container whose types it does not know): pyright constructs ti
		return inst
	}
	return v
}

// pyProjectInstances reports whether v is an instance of a project class,
// or a union whose known members all are.
func (r *resolver) pyProjectInstances(v pyEnt) bool {
	if v.alts == nil {
		return v.sym >= 0 && v.inst && v.ext == "" && r.syms[v.sym].Kind == "type"
	}
	for _, a := range *v.alts {
		if !r.pyProjectInstances(a) {
			return false
		}
	}
	return len(*v.alts) > 0
}

// pyGetItem is what x[k] gives for x of value v: an element of a builtin
// container, a value of a builtin mapping, a value from outside the
// project for one from outside, what a project class's __getitem__
// returns; else unknown.
func (r *resolver) pyGetItem(v pyEnt, depth int) pyEnt {
	switch {
	case depth > pyMaxDepth:
		return pyUnknown
	case v.alts != nil:
		for _, a := range *v.alts {
			if a.elem != nil {
				return pyUnknown // containers of several types (a tuple of an A and a B) keep no positions
			}
		}
		return pyEach(*v.alts, v.partial, func(a pyEnt) pyEnt { return r.pyGetItem(a, depth+1) })
	case v.elem != nil:
		return r.pyElem(v, depth+1)
	case v.vals != nil:
		return r.pyInstance(v.vals.fileID, v.vals.expr, v.vals.self, depth+1)
	case v.ext == "builtin":
		return pyUnknown
	case v.ext != "":
		return pyEnt{sym: -1, ext: v.ext, inst: true}
	case v.sym >= 0 && v.inst && r.syms[v.sym].Kind == "type":
		if m := r.pyMethod(v.sym, "__getitem__"); m >= 0 {
			return r.pyResult(v, pyEnt{sym: m}, depth+1)
		}
	}
	return pyUnknown
}

// pyMember is attribute name of e.
func (r *resolver) pyMember(e pyEnt, name string, depth int) pyEnt {
	if depth > pyMaxDepth {
		return pyUnknown
	}
	switch {
	case e.alts != nil:
		return pyEach(*e.alts, e.partial, func(a pyEnt) pyEnt { return r.pyMember(a, name, depth+1) })
	case e.ext != "":
		return pyEnt{sym: -1, ext: e.ext, inst: e.inst} // (not a container's elements)
	case e.file != "":
		if i := r.pyTopLevel(e.file, name); i >= 0 {
			return pyEnt{sym: i}
		}
		if path.Base(e.file) == "__init__.py" {
			if f, ok := pyModuleFile(r.py.isFile, path.Dir(e.file), "."+name); ok {
				return pyEnt{file: f, sym: -1}
			}
		}
		if id, ok := r.pyFileID(e.file); ok { // a name the module imports (a re-export)
			if b, ok := r.py.binds[id][name]; ok && !r.py.inFuncs[key2(e.file, name)] {
				// (a name only its functions import is no attribute
				// of the module)
				return r.pyBound(id, name, b, depth+1)
			}
			if ty, ok := r.py.vars[id][name]; ok {
				return r.pyInstance(id, ty, pyUnknown, depth+1)
			}
			return r.pyStar(id, name, depth+1) // a name its star imports bind
		}
		return pyUnknown
	case e.sym >= 0 && r.syms[e.sym].Kind == "type":
		if name == "__class__" && e.inst {
			return pyEnt{sym: e.sym}
		}
		if m := r.pyMethod(e.sym, name); m >= 0 {
			ms := &r.syms[m]
			if ty, ok := r.py.props[key3(ms.Path, ms.Container, ms.Short)]; ok && e.inst {
				return r.pyInstance(ms.FileID, ty, e, depth+1) // a property's value
			}
			return pyEnt{sym: m}
		}
		if k := r.pyNested(e.sym, name); k >= 0 {
			return pyEnt{sym: k} // a class the class body defines
		}
		// instance and class attributes
		if ty, fid, ok := r.pyAttr(e.sym, name, 0, map[int]bool{}); ok {
			if ty == "" {
				return pyUnknown
			}
			return r.pyInstance(fid, ty, e, depth+1)
		}
		// an attribute neither the class nor its project bases define
		// is a base's outside the project (`self.rfile` of a
		// socketserver.StreamRequestHandler): a value from outside
		if _, outside := r.pyLookup(e.sym, name); outside != "" && outside != "?" {
			return pyEnt{sym: -1, ext: outside, inst: true}
		}
	}
	return pyUnknown
}

// pyClassIn is the class of symbol sym ("Outer.Inner") defined in file
// fileID, or -1.
func (r *resolver) pyClassIn(fileID int64, sym string) int {
	short := sym[strings.LastIndexByte(sym, '.')+1:]
	for _, i := range r.byShort[short] {
		if s := &r.syms[i]; s.FileID == fileID && s.Symbol == sym && s.Kind == "type" {
			return i
		}
	}
	return -1
}

// pyMethod is method (or nested class) m of class ti or of its bases, or -1.
func (r *resolver) pyMethod(ti int, m string) int {
	k, _ := r.pyLookup(ti, m)
	return k
}

// pyNested is the class named name that the body of class ti, or of one
// of its project bases (depth first, left to right), defines
// (`self._Local()`, `Finder.Context(…)`: pyright looks class attributes
// up through the class's bases), or -1.
func (r *resolver) pyNested(ti int, name string) int {
	var walk func(ti, depth int) int
	walk = func(ti, depth int) int {
		if depth > pyMaxDepth {
			return -1
		}
		t := &r.syms[ti]
		sym := t.Symbol + "." + name
		for _, i := range r.byShort[name] {
			if s := &r.syms[i]; s.Kind == "type" && s.FileID == t.FileID && s.Symbol == sym && r.pyLive(i) {
				return i
			}
		}
		for _, b := range r.pyBases(ti) {
			if b.sym >= 0 && b.sym != ti {
				if k := walk(b.sym, depth+1); k >= 0 {
					return k
				}
			}
		}
		return -1
	}
	return walk(ti, 0)
}

// pyBases is what the bases of class ti denote, in order: a project class
// (sym), a class outside the project (ext), or unknown.
func (r *resolver) pyBases(ti int) []pyEnt {
	t := &r.syms[ti]
	var out []pyEnt
	exprs, ok := r.py.bases[key2(t.Path, t.Symbol)]
	if !ok {
		// no base facts: the chunk's base names, as the scope rules find them
		for _, b := range strings.Split(t.Extends, ",") {
			if b = strings.TrimSpace(b); b == "" {
				continue
			}
			if bi := r.findType(b, t.FileID, r.imports[t.FileID]); bi >= 0 {
				out = append(out, pyEnt{sym: bi})
			} else {
				out = append(out, pyEnt{sym: -1, ext: b})
			}
		}
		return out
	}
	for _, b := range exprs {
		if b.line > 0 && (b.line < t.StartLine || b.line > t.EndLine) {
			continue // another class of the same name in the file
		}
		x := b.expr
		e := r.pyName(t.FileID, x, 1)
		switch {
		case e.sym >= 0 && !e.inst && r.syms[e.sym].Kind == "type" && e.sym != ti:
			out = append(out, pyEnt{sym: e.sym})
		case e.ext != "":
			out = append(out, pyEnt{sym: -1, ext: x})
		default:
			out = append(out, pyUnknown)
		}
	}
	return out
}

// pyLookup finds method m in class ti and its bases (depth first, left to
// right): the chunk, or -1 and the first base outside the project ("" when
// none; "?" when a base is unknown) on the way.
func (r *resolver) pyLookup(ti int, m string) (int, string) {
	return r.lookupInBases(ti, m, func(ti int) []baseRef {
		var out []baseRef
		for _, b := range r.pyBases(ti) {
			switch {
			case b.sym >= 0:
				out = append(out, baseRef{sym: b.sym})
			case b.ext == "object": // every class's base: no outside base
			case b.ext != "":
				out = append(out, baseRef{sym: -1, ext: b.ext})
			case !b.known():
				out = append(out, baseRef{sym: -1})
			}
		}
		return out
	})
}

// pyAttr is the type expression of instance attribute name of class ti
// (or of its bases, first in order), with the file it is written in.
func (r *resolver) pyAttr(ti int, name string, depth int, seen map[int]bool) (string, int64, bool) {
	if depth > pyMaxDepth || seen[ti] {
		return "", 0, false
	}
	seen[ti] = true
	t := &r.syms[ti]
	if ty, ok := r.py.attrs[key3(t.Path, t.Symbol, name)]; ok {
		return *ty, t.FileID, true
	}
	for _, b := range r.pyBases(ti) {
		if b.sym >= 0 {
			if ty, fid, ok := r.pyAttr(b.sym, name, depth+1, seen); ok {
				return ty, fid, true
			}
		}
	}
	return "", 0, false
}

// pyCallOn resolves a call of target on what e denotes.
func (r *resolver) pyCallOn(e pyEnt, target, rule string) edgeOut {
	switch {
	case e.gen:
		return external("builtin") // a generator's send, close …
	case e.alts != nil:
		// a value of several types: the method they all resolve to, or
		// outside the project when every one is (list or tuple, two
		// modules' file objects: the outside names joined); methods of
		// the project that differ are each a definition the call reaches
		// (pyright lists the declaration of each member of a union: two
		// modules' functions, two classes' methods)
		// (a member outside the project: the project's members'
		// methods, pyright listing the declaration of each member that
		// has it — `io.BytesIO() | Loop()`, a module imported from
		// outside or else from the project)
		var out, ext edgeOut
		lacking := false
		for _, a := range *e.alts {
			o := r.pyCallOn(a, target, rule)
			switch {
			case o.res == store.ResUnresolved && o.detail == "no such method":
				// a project class lacking it: pyright lists the
				// others' (and reports the access)
				lacking = true
			case o.res == store.ResExternal && ext.res == "":
				ext = o
			case o.res == store.ResExternal:
				if !slices.Contains(strings.Split(ext.detail, "|"), o.detail) {
					ext.detail += "|" + o.detail
				}
			case o.res != store.ResExact:
				return unresolved("receiver of several types")
			case out.res == "":
				out = o
			default:
				for _, d := range append([]int{r.byID[o.dst]}, o.also...) {
					if r.syms[d].ID != out.dst && !slices.Contains(out.also, d) {
						out.also = append(out.also, d)
					}
				}
			}
		}
		switch {
		case out.res == "" && ext.res == "":
			return unresolved("receiver of several types")
		case out.res == "":
			return ext
		case ext.res != "":
			out.res, out.detail = store.ResInferred, "receiver partly outside the project"
		case lacking:
			out.res, out.detail = store.ResInferred, "receiver partly lacking the method"
		case e.partial:
			// the known part of a value some places leave unknown
			out.res, out.detail = store.ResInferred, "receiver partly of unknown type"
		}
		return out
	case e.ext != "":
		return external(e.ext)
	case e.file != "":
		if i := r.pyTopLevel(e.file, target); i >= 0 {
			return r.pyExact(i, "module member")
		}
		if m := r.pyMember(e, target, 0); m.sym >= 0 && (m.val || m.inst) {
			// a module variable holding a class (pyright: no callee)
			return unresolved("module variable")
		} else if m.sym >= 0 {
			return exact(r.syms[m.sym].ID).with("module member")
		} else if m.ext != "" {
			return external(m.ext)
		}
		return unresolved("not in the module")
	case e.sym >= 0 && r.syms[e.sym].Kind == "type":
		if k := r.member(e.sym, target); k >= 0 {
			return r.pyDispatch(e, k, r.pyExact(k, rule))
		}
		if k := r.pyNested(e.sym, target); k >= 0 {
			return exact(r.syms[k].ID).with(rule) // a class the class body defines, called
		}
		k, outside := r.pyLookup(e.sym, target)
		switch {
		case k >= 0:
			return r.pyDispatch(e, k, r.pyExact(k, "base class"))
		case outside == "?":
			return unresolved("base class of unknown origin")
		case outside != "":
			return external(outside)
		case builtinMethods["python"][target] || pyObjectMethods[target]:
			return external("builtin")
		}
		if ty, fid, ok := r.pyAttr(e.sym, target, 0, map[int]bool{}); ok {
			// a call of the value an attribute holds (a callback, a
			// class): outside the project when that value is, else
			// as Go's calls of a function-typed field
			if v := r.pyInstance(fid, ty, e, 0); v.ext != "" && v.alts == nil {
				return external(v.ext)
			}
			return unresolved("function-typed field")
		}
		return unresolved("no such method")
	}
	return unresolved("receiver of unknown type")
}

// pyDispatch adds to o, the call of method k on an instance of class
// e.sym (self included), a dispatch edge to each override of k in the
// project subclasses of that class (transitively): the methods a
// subclass defines itself under k's name. A call on the class object
// itself (C.m(self)) or through super() is static and gets none; a value
// of unknown subclass is what a call on an instance always may be.
func (r *resolver) pyDispatch(e pyEnt, k int, o edgeOut) edgeOut {
	if !e.inst || o.res != store.ResExact {
		return o
	}
	m := r.syms[k].Short
	seen := map[int]bool{e.sym: true}
	var walk func(ti, depth int)
	walk = func(ti, depth int) {
		if depth > 8 {
			return
		}
		for _, c := range r.pySubclasses(ti) {
			if seen[c] || len(o.dispatch) > maxDispatch {
				continue // past maxDispatch the call gets none: stop looking
			}
			seen[c] = true
			if k2 := r.member(c, m); k2 >= 0 && k2 != k && !slices.Contains(o.dispatch, k2) {
				o.dispatch = append(o.dispatch, k2)
			}
			walk(c, depth+1)
		}
	}
	walk(e.sym, 0)
	return o
}

// pySubclasses lists the project classes that name class ti among their
// bases, in symbol order (built once for the project).
func (r *resolver) pySubclasses(ti int) []int {
	p := r.py
	if p.subs == nil {
		// built during some call's resolution: that call's budget is
		// kept, and each class's bases get a budget of their own, so the
		// lists do not depend on which call came first
		saved := p.budget
		defer func() { p.budget = saved }()
		p.subs = map[int][]int{}
		for i := range r.syms {
			if s := &r.syms[i]; s.Kind != "type" || s.Lang != "python" || s.Extends == "" && p.bases[key2(s.Path, s.Symbol)] == nil {
				continue
			}
			p.budget = pyBudget
			for _, b := range r.pyBases(i) {
				if b.sym >= 0 && b.sym != i && !slices.Contains(p.subs[b.sym], i) {
					p.subs[b.sym] = append(p.subs[b.sym], i)
				}
			}
		}
	}
	return p.subs[ti]
}

// pyResolve resolves a Python call; false leaves it to the scope and name
// rules (super() and self/cls calls).
func (r *resolver) pyResolve(e store.EdgeRow) (edgeOut, bool) {
	if r.py == nil || e.Kind != "calls" {
		return edgeOut{}, false
	}
	r.py.budget = pyBudget
	unknown := func() edgeOut {
		if builtinMethods["python"][e.Target] {
			return external("builtin")
		}
		return unresolved("receiver of unknown type")
	}
	recv := e.Recv
	switch {
	case recv == "?local":
		// a local the function also binds with a def of its own (`if
		// cb is None: def cb(…): …`): pyright lists that def
		if src, ok := r.byID[e.SrcChunk]; ok {
			for _, i := range r.byShort[e.Target] {
				if s := &r.syms[i]; s.Kind == "function" && s.FileID == e.FileID {
					if outer, nested := r.py.nest[i]; nested && outer == src {
						out := inferred(s.ID)
						out.detail = "a def the function binds the name to"
						return out, true
					}
				}
			}
		}
		return unresolved("local function value"), true
	case recv == "?":
		return unknown(), true
	case recv == "super":
		return r.pySuper(e)
	case strings.HasPrefix(recv, ":"):
		ty, rest, _ := strings.Cut(recv[1:], " ")
		ent := r.pyInstance(e.FileID, ty, r.pySelf(e), 0)
		for _, seg := range strings.Split(strings.TrimPrefix(rest, "."), ".") {
			if seg != "" && ent.known() {
				ent = r.pyMember(ent, seg, 0)
			}
		}
		if !ent.known() {
			return unknown(), true
		}
		return r.pyCallOn(ent, e.Target, "receiver type"), true
	case strings.HasPrefix(recv, "."):
		segs := strings.Split(recv[1:], ".")
		var ent pyEnt
		if segs[0] == "self" || segs[0] == "cls" {
			ent = r.pySelf(e)
			ent.inst = ent.sym >= 0 && segs[0] == "self"
		} else {
			ent = r.pyNameAt(e.FileID, segs[0], e.Line)
		}
		for _, seg := range segs[1:] {
			if ent.known() {
				ent = r.pyMember(ent, seg, 0)
			}
		}
		if !ent.known() {
			return unknown(), true
		}
		return r.pyCallOn(ent, e.Target, "receiver type"), true
	case e.Qualifier == "self" || e.Qualifier == "cls":
		ent := r.pySelf(e)
		if !ent.known() {
			return edgeOut{}, false // self outside a method: the scope rules
		}
		ent.inst = e.Qualifier == "self"
		return r.pyCallOn(ent, e.Target, "own type"), true
	case e.Qualifier != "":
		ent := r.pyNameAt(e.FileID, e.Qualifier, e.Line)
		if !ent.known() {
			return unknown(), true
		}
		rule := "qualifier type"
		if ent.inst {
			rule = "receiver type"
		}
		return r.pyCallOn(ent, e.Target, rule), true
	}
	// a bare call: a name the function imports, a def of an enclosing
	// function, a module-level definition of the file, an imported name
	if ent, local := r.pyLocalCall(e); local {
		return ent, true
	}
	file := r.filePath(e.FileID)
	src, hasSrc := r.byID[e.SrcChunk]
	best, bestDepth, bestVisible := -1, -1, false
	for _, i := range r.byShort[e.Target] {
		s := &r.syms[i]
		outer, nested := r.py.nest[i]
		if s.Path != file || (s.Container != "" && !nested) || (s.Kind != "function" && s.Kind != "type") {
			continue
		}
		depth := 0
		if nested {
			// visible only inside the function that defines it
			if !hasSrc || !r.pyWithin(src, outer) {
				continue
			}
			depth = r.pyDepth(outer)
		}
		// a definition a static condition rules out only when no
		// other is visible from the call
		visible := r.pyVisible(i, e.Line)
		if bestVisible && !visible {
			continue
		}
		if visible && !bestVisible {
			best, bestDepth = -1, -1
		}
		bestVisible = visible
		if depth >= bestDepth { // (of one depth, the last definition)
			best, bestDepth = i, depth
		}
	}
	if best >= 0 && !bestVisible && bestDepth == 0 && r.pyVarOf(file, e.Target) {
		best = -1 // only ruled out defs, and a module variable that is not
	}
	if best >= 0 {
		if bestDepth > 0 {
			return exact(r.syms[best].ID).with("enclosing function"), true
		}
		out := exact(r.syms[best].ID).with("same file")
		if bestVisible {
			out.also = r.pyOtherDefs(best, e.Line)
		}
		return out, true
	}
	if out, ok := r.pyImported(r.pyName(e.FileID, e.Target, 0)); ok {
		return out, true
	}
	if r.pyVarOf(file, e.Target) {
		return unresolved("module variable"), true // a function value, a class held (pyright: no callee)
	}
	return unresolved("name not bound in the file"), true
}

// pyOtherDefs are the definitions of best's name in its scope (a
// module-level function's file, a method's class), other than best, that
// a call at line sees (not ruled out by a static condition; line 0: any
// live one): as pyright, whose call hierarchy lists every declaration of
// the name a call in a function reaches (a def in both branches of an if
// whose condition is not static, the overloads of an @overload'ed method,
// a redefinition; of an overloaded function pyright lists the
// implementation alone). Nil for a class or a nested def.
func (r *resolver) pyOtherDefs(best, line int) []int {
	b := &r.syms[best]
	if b.Kind == "type" || !r.pyVisible(best, line) {
		return nil
	}
	if _, nested := r.py.nest[best]; nested {
		return nil
	}
	var out []int
	for _, i := range r.byShort[b.Short] {
		s := &r.syms[i]
		if _, nested := r.py.nest[i]; i == best || nested || s.FileID != b.FileID || s.Container != b.Container || s.Kind != b.Kind || !r.pyVisible(i, line) {
			continue
		}
		if s.Container == "" && slices.ContainsFunc(r.py.ovl[s.FileID], func(o [2]int) bool { return s.StartLine >= o[0] && s.StartLine <= o[1] }) {
			continue // an overload of a module-level function
		}
		out = append(out, i)
	}
	return out
}

// pyExact is an exact edge to definition i by rule, with the other
// definitions of its name a call sees (pyOtherDefs).
func (r *resolver) pyExact(i int, rule string) edgeOut {
	out := exact(r.syms[i].ID).with(rule)
	out.also = r.pyOtherDefs(i, 0)
	return out
}

// pyLocalCall resolves a bare call of a name an enclosing function
// imports; false when none does.
func (r *resolver) pyLocalCall(e store.EdgeRow) (edgeOut, bool) {
	for _, l := range r.py.locals[e.FileID] {
		if l.fact.Name == e.Target && l.from <= e.Line && e.Line <= l.to {
			ent := r.pyNameAt(e.FileID, e.Target, e.Line)
			if out, ok := r.pyImported(ent); ok {
				return out, true
			}
			if ent.known() {
				return unresolved("module variable"), true // a class or function another module holds in a variable
			}
			return unresolved("name not bound in the file"), true
		}
	}
	return edgeOut{}, false
}

// pyImported is the call of an imported name denoting ent: outside the
// project, or a function or class of it; false otherwise.
func (r *resolver) pyImported(ent pyEnt) (edgeOut, bool) {
	switch {
	case ent.ext != "":
		return external(ent.ext), true
	case ent.sym >= 0 && !ent.inst && !ent.val:
		return r.pyExact(ent.sym, "import"), true
	case ent.alts != nil && !ent.partial:
		// imported in several places: the project's functions and
		// classes among them (pyright lists each declaration), the
		// others outside the project
		var out edgeOut
		var outside []string
		for _, a := range *ent.alts {
			switch {
			case a.ext != "":
				if !slices.Contains(outside, a.ext) {
					outside = append(outside, a.ext)
				}
			case a.sym >= 0 && !a.inst && !a.val && out.res == "":
				out = r.pyExact(a.sym, "import")
			case a.sym >= 0 && !a.inst && !a.val:
				out.also = append(out.also, a.sym)
			default:
				return edgeOut{}, false
			}
		}
		if out.res == "" {
			return external(strings.Join(outside, "|")), true
		}
		if outside != nil {
			out.res, out.detail = store.ResInferred, "imported from outside the project too"
		}
		return out, true
	}
	return edgeOut{}, false
}

// pyAnyBuiltins are the builtin functions whose result may be any value
// (an argument, an element of one, an attribute, an evaluated
// expression): of unknown type, where the result of another builtin (a
// class: str, list; len, open) is a value outside the project.
var pyAnyBuiltins = map[string]bool{"eval": true, "getattr": true, "next": true, "max": true, "min": true,
	"sum": true, "pow": true, "abs": true, "round": true, "vars": true, "globals": true, "locals": true, "__import__": true}

// pyObjectMethods are the methods every class inherits from object.
var pyObjectMethods = map[string]bool{"__init__": true, "__new__": true, "__init_subclass__": true,
	"__repr__": true, "__str__": true, "__format__": true, "__hash__": true, "__eq__": true, "__ne__": true,
	"__lt__": true, "__le__": true, "__gt__": true, "__ge__": true, "__setattr__": true, "__getattribute__": true,
	"__delattr__": true, "__dir__": true, "__sizeof__": true, "__reduce__": true, "__reduce_ex__": true,
	"__subclasshook__": true, "__getstate__": true, "__class_getitem__": true, "__class__": true}

// pySuper resolves super().m(): the first of the caller's class's bases
// (depth first, left to right) that has m; else outside the project with
// the first base outside it, object's methods (__init__ …) with none;
// false (the scope rules) when the caller is not a method.
func (r *resolver) pySuper(e store.EdgeRow) (edgeOut, bool) {
	self := r.pySelf(e)
	if self.sym < 0 {
		return edgeOut{}, false
	}
	outside := ""
	for _, b := range r.pyBases(self.sym) {
		switch {
		case b.sym >= 0:
			k, out := r.pyLookup(b.sym, e.Target)
			if k >= 0 {
				return exact(r.syms[k].ID).with("base class"), true
			}
			if outside == "" {
				outside = out
			}
		case outside == "" && b.ext != "" && b.ext != "object":
			outside = b.ext
		case outside == "" && !b.known():
			outside = "?"
		}
	}
	switch {
	case outside == "?":
		return unresolved("base class of unknown origin"), true
	case outside != "":
		return external(outside), true
	case pyObjectMethods[e.Target]:
		return external("builtin"), true
	}
	return unresolved("no such method"), true
}

// pySelf is the instance of the class whose method makes call e, or
// unknown.
func (r *resolver) pySelf(e store.EdgeRow) pyEnt {
	si, ok := r.byID[e.SrcChunk]
	for k := 0; ok && k < 16; k++ {
		if ti := r.pyOwnType(&r.syms[si]); ti >= 0 {
			return pyEnt{sym: ti, inst: true}
		}
		si, ok = r.py.nest[si] // a def nested in a method sees its self
	}
	return pyUnknown
}

// pyOwnType is the class a method belongs to: of the classes of its
// file named as its container, the innermost one holding its lines
// (classes defined in functions often share a name: class Foo in one
// test, class Foo in the next); -1 for a function.
func (r *resolver) pyOwnType(src *store.SymbolRow) int {
	if src.Kind == "type" || src.Container == "" {
		return r.ownType(src)
	}
	best := -1
	for _, i := range r.bySymbol[src.Container] {
		s := &r.syms[i]
		if s.Kind != "type" || s.FileID != src.FileID || s.StartLine > src.StartLine || s.EndLine < src.EndLine {
			continue
		}
		if best < 0 || s.StartLine >= r.syms[best].StartLine {
			best = i
		}
	}
	return best
}

// pyWithin reports whether chunk i is chunk outer or nested in it.
func (r *resolver) pyWithin(i, outer int) bool {
	for k := 0; k < 16; k++ {
		if i == outer {
			return true
		}
		p, ok := r.py.nest[i]
		if !ok {
			return false
		}
		i = p
	}
	return false
}

// pyDepth is 1 + how many functions enclose function chunk i.
func (r *resolver) pyDepth(i int) int {
	d := 1
	for k := 0; k < 16; k++ {
		p, ok := r.py.nest[i]
		if !ok {
			break
		}
		d++
		i = p
	}
	return d
}
