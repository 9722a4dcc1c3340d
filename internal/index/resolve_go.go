package index

import (
	"bufio"
	"go/build"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"codectx/internal/lang"
	"codectx/internal/store"
)

// Go resolution by types: the receiver notation recorded by the extractor
// (lang.Relation.Recv) is evaluated against the type facts of the whole
// project (struct fields, embedded fields, function and method results,
// interface method sets, package variables). Packages are directories;
// import paths map to directories through the go.mod files above them.

// goResolver holds the project's Go declarations keyed by package directory.
type goResolver struct {
	pkgDir    map[string]string // import path → project directory
	dirs      map[string]bool   // directories holding Go files
	noMod     bool              // some Go directories have no go.mod above them
	types     map[string]int    // dir\x00Type → type chunk
	funcs     map[string]int    // dir\x00Func → function chunk
	methods   map[string]int    // dir\x00Type\x00method → method chunk
	fields    map[string][]*store.FactRow
	results   map[string]*store.FactRow // dir\x00Owner\x00name
	imethods  map[string][]*store.FactRow
	iembeds   map[string][]*store.FactRow
	vars      map[string]*store.FactRow
	under     map[string]*store.FactRow  // dir\x00Type → underlying type of a named non-struct type
	aliases   map[string]*store.FactRow  // dir\x00Type → the type an alias (type T = U) names
	tparams   map[string]map[string]bool // dir\x00Iface → a generic interface's type parameters
	tparamSeq map[string][]string        // dir\x00Iface → the same, in order
	dots      map[string][]string        // package key → import paths its files dot-import (sorted)
	factDir   map[*store.FactRow]string
	goFiles   map[int64]bool
	xtest     map[int64]bool      // files of a directory's external test package (package x_test)
	offBuild  map[int64]bool      // files the default build context does not compile (gobuild.go)
	testFiles map[int64]bool      // _test.go files
	impls     map[string][]string // iface key → implementing type keys
}

// xtestSuffix marks the package key of a directory's external test package
// (its _test.go files in package x_test): a package of its own, which sees
// the directory's package only through its import. It cannot occur in a
// path.
const xtestSuffix = "\x01test"

// pkgKey is the package a Go file belongs to: its directory, or the
// directory's external test package.
func (g *goResolver) pkgKey(fileID int64, dir string) string {
	if g.xtest[fileID] {
		return dir + xtestSuffix
	}
	return dir
}

// gtype is an evaluated Go type: a project type (dir, name), an external
// package, a predeclared type, or unknown (all empty). elem counts the
// slice/map levels above the named type.
type gtype struct {
	dir, name string
	elem      int
	ext       string
	universe  bool
}

func (t gtype) known() bool   { return t.name != "" || t.ext != "" || t.universe }
func (t gtype) key() string   { return t.dir + "\x00" + t.name }
func (t gtype) project() bool { return t.name != "" && t.ext == "" && !t.universe }

func key2(a, b string) string    { return a + "\x00" + b }
func key3(a, b, c string) string { return a + "\x00" + b + "\x00" + c }

func (g *goResolver) goFile(fileID int64) bool { return g != nil && g.goFiles[fileID] }

// goInit builds the Go tables from the symbols and type facts.
func (r *resolver) goInit(root string, facts []store.FactRow) {
	g := &goResolver{
		pkgDir: map[string]string{}, dirs: map[string]bool{},
		types: map[string]int{}, funcs: map[string]int{}, methods: map[string]int{},
		fields: map[string][]*store.FactRow{}, results: map[string]*store.FactRow{},
		imethods: map[string][]*store.FactRow{}, iembeds: map[string][]*store.FactRow{},
		vars: map[string]*store.FactRow{}, under: map[string]*store.FactRow{}, aliases: map[string]*store.FactRow{},
		tparams: map[string]map[string]bool{}, tparamSeq: map[string][]string{}, dots: map[string][]string{},
		factDir: map[*store.FactRow]string{}, goFiles: map[int64]bool{}, xtest: map[int64]bool{}, testFiles: map[int64]bool{},
	}
	r.g = g
	built := map[int64]string{} // file → its build constraint
	for i := range facts {
		switch facts[i].Kind {
		case lang.FactPackage:
			g.xtest[facts[i].FileID] = true
		case lang.FactBuild:
			built[facts[i].FileID] = facts[i].Name
		}
	}
	// the files the default build context leaves out: a declaration in
	// one gives way to a build-tag twin in a file it compiles
	g.offBuild = map[int64]bool{}
	for i := range r.syms {
		s := &r.syms[i]
		if s.Lang != "go" || (i > 0 && r.syms[i-1].FileID == s.FileID) {
			continue
		}
		if !goBuildsIn(&build.Default, s.Path, built[s.FileID]) {
			g.offBuild[s.FileID] = true
		}
	}
	// first in (path, line) order, unless a build-tag twin replaces it
	keep := func(old, new int64) bool { return !g.offBuild[old] || g.offBuild[new] }
	var fn *store.SymbolRow // the last function or method seen: its body's lines
	for i := range r.syms {
		s := &r.syms[i]
		if s.Lang != "go" {
			continue
		}
		if s.Kind == "function" || s.Kind == "method" {
			fn = s
		} else if s.Kind == "type" && fn != nil && fn.FileID == s.FileID && s.StartLine > fn.StartLine && s.EndLine <= fn.EndLine {
			// a type declared in a function body is in scope there
			// only: not the package's type of its name
			continue
		}
		g.goFiles[s.FileID] = true
		if strings.HasSuffix(s.Path, "_test.go") {
			g.testFiles[s.FileID] = true
		}
		g.dirs[path.Dir(s.Path)] = true
		dir := g.pkgKey(s.FileID, path.Dir(s.Path))
		var k string
		var m map[string]int
		switch s.Kind {
		case "type":
			k, m = key2(dir, s.Symbol), g.types
		case "function":
			k, m = key2(dir, s.Symbol), g.funcs
		case "method":
			k, m = key3(dir, s.Container, s.Short), g.methods
		default:
			continue
		}
		if old, dup := m[k]; !dup || !keep(r.syms[old].FileID, s.FileID) {
			m[k] = i
		}
	}
	if len(g.goFiles) == 0 {
		return
	}
	for i := range facts {
		f := &facts[i]
		if !g.goFiles[f.FileID] {
			continue
		}
		dir := g.pkgKey(f.FileID, r.fileDir[f.FileID])
		g.factDir[f] = dir
		switch f.Kind {
		case lang.FactField, lang.FactIMethod, lang.FactIEmbed:
			if g.offBuild[f.FileID] {
				if ti, ok := g.types[key2(dir, f.Owner)]; ok && !g.offBuild[r.syms[ti].FileID] {
					// a type's build-tag twin (type T = other.T beside
					// type T struct{…}): the compiled one's facts only
					continue
				}
			}
		}
		switch f.Kind {
		case lang.FactField:
			if alias := strings.HasPrefix(f.Sig, "alias:"); alias || f.Sig == "underlying" {
				if old, dup := g.under[key2(dir, f.Owner)]; !dup || !keep(old.FileID, f.FileID) {
					g.under[key2(dir, f.Owner)] = f
				}
				if old, dup := g.aliases[key2(dir, f.Owner)]; alias && (!dup || !keep(old.FileID, f.FileID)) {
					g.aliases[key2(dir, f.Owner)] = f
				}
				continue
			}
			g.fields[key2(dir, f.Owner)] = append(g.fields[key2(dir, f.Owner)], f)
		case lang.FactResult:
			if old, dup := g.results[key3(dir, f.Owner, f.Name)]; !dup || !keep(old.FileID, f.FileID) {
				g.results[key3(dir, f.Owner, f.Name)] = f
			}
		case lang.FactIMethod:
			g.imethods[key2(dir, f.Owner)] = append(g.imethods[key2(dir, f.Owner)], f)
		case lang.FactIEmbed:
			g.iembeds[key2(dir, f.Owner)] = append(g.iembeds[key2(dir, f.Owner)], f)
		case lang.FactImport:
			if f.Name == "." && !slices.Contains(g.dots[dir], f.Type) {
				g.dots[dir] = append(g.dots[dir], f.Type)
				slices.Sort(g.dots[dir])
			}
		case lang.FactTypeParams:
			set := map[string]bool{}
			seq := strings.Split(f.Name, ",")
			for _, n := range seq {
				set[n] = true
			}
			g.tparams[key2(dir, f.Owner)] = set
			g.tparamSeq[key2(dir, f.Owner)] = seq
		case lang.FactVar:
			if old, dup := g.vars[key2(dir, f.Name)]; !dup || !keep(old.FileID, f.FileID) {
				g.vars[key2(dir, f.Name)] = f
			}
		}
	}
	g.modules(root)
	g.computeImplements(r)
}

// modules maps the import path of every Go directory: module path of the
// nearest go.mod above it plus the relative directory ("std" lays packages
// out at their import path; vendor/X is X).
func (g *goResolver) modules(root string) {
	mods := map[string][2]string{} // abs dir → (module dir, module path)
	var find func(abs string) (string, string)
	find = func(abs string) (string, string) {
		if v, ok := mods[abs]; ok {
			return v[0], v[1]
		}
		var md, mp string
		if f, err := os.Open(filepath.Join(abs, "go.mod")); err == nil {
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				line := strings.TrimSpace(sc.Text())
				if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
					mp = strings.Trim(strings.TrimSpace(rest), `"`)
					md = abs
					break
				}
			}
			f.Close()
		}
		if md == "" {
			if parent := filepath.Dir(abs); parent != abs {
				md, mp = find(parent)
			}
		}
		mods[abs] = [2]string{md, mp}
		return md, mp
	}
	dirs := make([]string, 0, len(g.dirs))
	for d := range g.dirs {
		dirs = append(dirs, d)
	}
	slices.Sort(dirs)
	for _, d := range dirs {
		if root == "" {
			g.noMod = true
			continue
		}
		abs := filepath.Join(root, filepath.FromSlash(d))
		md, mp := find(abs)
		if md == "" {
			g.noMod = true
			continue
		}
		rel, err := filepath.Rel(md, abs)
		if err != nil {
			g.noMod = true
			continue
		}
		rel = filepath.ToSlash(rel)
		var ip string
		switch {
		case rel == "vendor" || strings.HasPrefix(rel, "vendor/"):
			ip = strings.TrimPrefix(rel, "vendor/")
		case mp == "std":
			ip = rel
		case rel == ".":
			ip = mp
		default:
			ip = mp + "/" + rel
		}
		if _, dup := g.pkgDir[ip]; !dup {
			g.pkgDir[ip] = d
		}
	}
}

// dirOf returns the project directory of an import path. Without go.mod,
// the longest project directory the import path ends with.
func (g *goResolver) dirOf(importPath string) (string, bool) {
	if d, ok := g.pkgDir[importPath]; ok {
		return d, true
	}
	if g.noMod {
		best := ""
		for d := range g.dirs {
			if d != "." && (importPath == d || strings.HasSuffix(importPath, "/"+d)) && len(d) > len(best) {
				best = d
			}
		}
		if best != "" {
			return best, true
		}
	}
	return "", false
}

// ref evaluates a type reference or value notation (lang.Relation.Recv)
// written in a file of directory dir.
func (g *goResolver) eval(recv, dir string, depth int) gtype {
	if depth > 8 || recv == "" || recv[0] == '?' {
		return gtype{}
	}
	parts := strings.Split(recv, " ")
	t := g.base(parts[0], dir, depth)
	for _, seg := range parts[1:] {
		if !t.project() {
			return t // external and predeclared types stay what they are
		}
		seg, k := splitResult(seg)
		switch {
		case seg == "[]":
			t = g.elem(t, depth)
		case strings.HasSuffix(seg, "()"):
			t = g.methodResult(t, strings.TrimSuffix(seg[1:], "()"), k, depth)
		default:
			t = g.fieldType(t, seg[1:], depth)
		}
	}
	return t
}

// splitResult splits a result index off a call notation ("=F@1", ".m()@2").
func splitResult(s string) (string, int) {
	if i := strings.LastIndexByte(s, '@'); i > 0 {
		if k, err := strconv.Atoi(s[i+1:]); err == nil {
			return s[:i], k
		}
	}
	return s, 0
}

// nthResult picks result k of a ";"-joined result list.
func nthResult(types string, k int) string {
	for i := 0; i < k; i++ {
		j := strings.IndexByte(types, ';')
		if j < 0 {
			return ""
		}
		types = types[j+1:]
	}
	if j := strings.IndexByte(types, ';'); j >= 0 {
		types = types[:j]
	}
	return types
}

func (g *goResolver) base(b, dir string, depth int) gtype {
	b, k := splitResult(b)
	elem := 0
	for strings.HasPrefix(b, "[]") {
		elem++
		b = b[2:]
	}
	if b == "" {
		return gtype{}
	}
	var t gtype
	switch b[0] {
	case '!':
		t = gtype{universe: true, name: b[1:]}
	case '=', '$':
		d, name, ok := g.qualified(b[1:], dir)
		if !ok {
			return gtype{ext: d}
		}
		if b[0] == '=' {
			if f := g.results[key3(d, "", name)]; f != nil {
				t = g.eval(nthResult(f.Type, k), g.factDir[f], depth+1)
			} else if _, ok := g.types[key2(d, name)]; ok {
				t = gtype{dir: d, name: name} // conversion
			} else if v := g.vars[key2(d, name)]; v != nil {
				// a variable holding a function (var New = newT, var
				// NewInts = NewSlice[int]): calling it calls that
				if fn, ok := goFuncValue(v.Type); ok {
					if k > 0 {
						fn += "@" + strconv.Itoa(k)
					}
					t = g.base("="+fn, g.factDir[v], depth+1)
				}
			}
		} else {
			if f := g.vars[key2(d, name)]; f != nil {
				t = g.eval(f.Type, g.factDir[f], depth+1)
			} else if _, ok := g.types[key2(d, name)]; ok {
				t = gtype{dir: d, name: name}
			}
		}
	default:
		d, name, ok := g.qualified(b, dir)
		if !ok {
			return gtype{ext: d}
		}
		t = gtype{dir: d, name: name}
	}
	// an alias (type Request = jsonrpc2.Request) is the type it names:
	// its methods and fields are that type's
	if len(g.aliases) > 0 && t.project() && depth < 8 {
		if a := g.aliases[t.key()]; a != nil {
			if at := g.eval(a.Type, g.factDir[a], depth+1); at.known() {
				t = at
			}
		}
	}
	t.elem += elem
	return t
}

// goFuncValue is the function a package variable's initialiser names, in
// the notation of calls ("F", "PATH#F"): a bare or qualified name ("$F",
// "$PATH#F"), or one instantiated with type arguments ("$F []", which is
// also what indexing a variable F writes: resolution then finds no
// function F).
func goFuncValue(init string) (string, bool) {
	fn, ok := strings.CutPrefix(init, "$")
	fn = strings.TrimSuffix(fn, " []")
	return fn, ok && fn != "" && !strings.ContainsAny(fn, " @")
}

// qualified splits "PATH#Name" (or "Name" in dir) into project directory
// and name; ok is false (and the first result the import path) when the
// package is not in the project.
func (g *goResolver) qualified(s, dir string) (string, string, bool) {
	k := strings.LastIndexByte(s, '#')
	if k < 0 {
		return g.bareDir(s, dir), s, true
	}
	d, ok := g.dirOf(s[:k])
	if !ok {
		return s[:k], "", false
	}
	return d, s[k+1:], true
}

// bareDir is the package a bare name of package dir is declared in: dir
// itself, else the first package its files dot-import that declares it
// (the union of the package's files' dot imports: a name is declared once
// across them in a package that builds).
func (g *goResolver) bareDir(name, dir string) string {
	if len(g.dots[dir]) == 0 || g.declares(dir, name) {
		return dir
	}
	for _, ip := range g.dots[dir] {
		if d, ok := g.dirOf(ip); ok && g.declares(d, name) {
			return d
		}
	}
	return dir
}

func (g *goResolver) declares(dir, name string) bool {
	k := key2(dir, name)
	if _, ok := g.types[k]; ok {
		return true
	}
	if _, ok := g.funcs[k]; ok {
		return true
	}
	_, ok := g.vars[k]
	return ok
}

func (g *goResolver) elem(t gtype, depth int) gtype {
	if t.elem > 0 {
		t.elem--
		return t
	}
	if u := g.under[t.key()]; u != nil && depth < 8 {
		return g.elem(g.eval(u.Type, g.factDir[u], depth+1), depth+1)
	}
	return gtype{}
}

// methodResult is the type of t.m(): the method's first result, found on
// t, on what t embeds, or in t's interface method set.
func (g *goResolver) methodResult(t gtype, m string, k, depth int) gtype {
	if t.elem > 0 {
		return gtype{}
	}
	if f := g.results[key3(t.dir, t.name, m)]; f != nil {
		return g.eval(nthResult(f.Type, k), g.factDir[f], depth+1)
	}
	if f := g.imethod(t, m, 0); f != nil {
		return g.eval(nthResult(f.Type, k), g.factDir[f], depth+1)
	}
	for _, f := range g.fields[t.key()] {
		if f.Name == m && f.Sig == "func" { // t.m() calls a function-typed field
			return g.eval(nthResult(f.Type, k), g.factDir[f], depth+1)
		}
	}
	if depth < 6 {
		for _, f := range g.fields[t.key()] {
			if f.Sig == "embed" {
				et := g.eval(f.Type, g.factDir[f], depth+1)
				if !et.project() {
					continue
				}
				if r := g.methodResult(et, m, k, depth+1); r.known() {
					return r
				}
			}
		}
	}
	return gtype{}
}

// fieldType is the type of t.f, through embedded fields.
func (g *goResolver) fieldType(t gtype, f string, depth int) gtype {
	if t.elem > 0 {
		return gtype{}
	}
	fs := g.fields[t.key()]
	for _, fr := range fs {
		if fr.Name == f {
			if fr.Sig == "func" {
				return gtype{} // a function value (its Type is what a call returns)
			}
			return g.eval(fr.Type, g.factDir[fr], depth+1)
		}
	}
	if depth < 6 {
		for _, fr := range fs {
			if fr.Sig == "embed" {
				et := g.eval(fr.Type, g.factDir[fr], depth+1)
				if et.project() {
					if r := g.fieldType(et, f, depth+1); r.known() {
						return r
					}
				}
			}
		}
	}
	return gtype{}
}

// hasField reports whether t declares a field named f.
func (g *goResolver) hasField(t gtype, f string) bool {
	for _, fr := range g.fields[t.key()] {
		if fr.Name == f {
			return true
		}
	}
	return false
}

// imethod finds method m in interface t's method set (embedded interfaces included).
func (g *goResolver) imethod(t gtype, m string, depth int) *store.FactRow {
	for _, f := range g.imethods[t.key()] {
		if f.Name == m {
			return f
		}
	}
	if depth < 6 {
		for _, f := range g.iembeds[t.key()] {
			et := g.eval(f.Type, g.factDir[f], depth+1)
			if et.project() {
				if r := g.imethod(et, m, depth+1); r != nil {
					return r
				}
			}
		}
	}
	return nil
}

func (g *goResolver) isInterface(t gtype) bool {
	return len(g.imethods[t.key()]) > 0 || len(g.iembeds[t.key()]) > 0
}

// findMethod returns the method chunk of t.m (promoted through embedded
// fields), or the external package an embedded field comes from.
func (g *goResolver) findMethod(t gtype, m string, depth int) (int, string) {
	if i, ok := g.methods[key3(t.dir, t.name, m)]; ok {
		return i, ""
	}
	if depth >= 6 {
		return -1, ""
	}
	ext := ""
	for _, f := range g.fields[t.key()] {
		if f.Sig != "embed" {
			continue
		}
		et := g.eval(f.Type, g.factDir[f], depth+1)
		switch {
		case et.project() && et.elem == 0:
			if i, e := g.findMethod(et, m, depth+1); i >= 0 {
				return i, ""
			} else if e != "" && ext == "" {
				ext = e
			}
		case et.ext != "" && ext == "":
			ext = et.ext
		}
	}
	return -1, ext
}

// goResolve resolves an edge of a Go file; ok is false when the generic
// rules should decide (extends of a name the facts do not know).
func (r *resolver) goResolve(e store.EdgeRow) (edgeOut, bool) {
	g := r.g
	dir := g.pkgKey(e.FileID, r.fileDir[e.FileID])
	switch e.Kind {
	case "calls":
		return r.goCall(e, dir), true
	case "extends":
		src, ok := r.byID[e.SrcChunk]
		if !ok {
			return edgeOut{}, false
		}
		owner := key2(dir, r.syms[src].Symbol)
		var refs []*store.FactRow
		for _, f := range g.fields[owner] {
			if f.Sig == "embed" && f.Name == e.Target {
				refs = append(refs, f)
			}
		}
		for _, f := range g.iembeds[owner] {
			if lastName(f.Type) == e.Target {
				refs = append(refs, f)
			}
		}
		if len(refs) == 0 {
			return edgeOut{}, false
		}
		t := g.eval(refs[0].Type, dir, 0)
		switch {
		case t.ext != "":
			return external(t.ext), true
		case t.project():
			if i, ok := g.types[t.key()]; ok {
				return exact(r.syms[i].ID), true
			}
		}
		return unresolved(""), true
	}
	return edgeOut{}, false
}

func lastName(ref string) string {
	ref = strings.TrimLeft(ref, "[]!")
	if k := strings.LastIndexByte(ref, '#'); k >= 0 {
		return ref[k+1:]
	}
	return ref
}

func (r *resolver) goCall(e store.EdgeRow, dir string) edgeOut {
	g := r.g
	name := e.Target
	switch {
	case e.Recv == "":
		dir := g.bareDir(name, dir)
		if i, ok := g.funcs[key2(dir, name)]; ok {
			return exact(r.syms[i].ID)
		}
		if i, ok := g.types[key2(dir, name)]; ok {
			return exact(r.syms[i].ID)
		}
		return unresolved("not declared in the package")
	case e.Recv == "?local":
		return unresolved("local function value")
	case e.Recv == "?":
		return unresolved("receiver of unknown type")
	case e.Recv == "?field": // of an anonymous struct
		return unresolved("function-typed field")
	case strings.HasPrefix(e.Recv, "pkg:"):
		ip := e.Recv[4:]
		d, ok := g.dirOf(ip)
		if !ok {
			return external(ip)
		}
		if i, ok := g.funcs[key2(d, name)]; ok {
			return exact(r.syms[i].ID)
		}
		if i, ok := g.types[key2(d, name)]; ok {
			return exact(r.syms[i].ID)
		}
		return unresolved("not declared in the package")
	}
	t := g.eval(e.Recv, dir, 0)
	switch {
	case t.universe:
		return external("builtin")
	case t.ext != "":
		return external(t.ext)
	case !t.project() || t.elem > 0:
		return unresolved("receiver of unknown type")
	}
	if i, ext := g.findMethod(t, name, 0); i >= 0 {
		return exact(r.syms[i].ID)
	} else if g.isInterface(t) {
		if g.imethod(t, name, 0) == nil {
			for _, f := range g.iembeds[t.key()] {
				if et := g.eval(f.Type, g.factDir[f], 0); et.ext != "" {
					return external(et.ext)
				}
			}
		} else {
			ti, ok := g.types[t.key()]
			if !ok {
				return unresolved("")
			}
			o := exact(r.syms[ti].ID).with("interface method")
			if len(g.impls[t.key()]) > maxDispatch {
				return o
			}
			callerTest := g.testFiles[e.FileID]
			for _, impl := range g.impls[t.key()] {
				d, n, _ := strings.Cut(impl, "\x00")
				if mi, _ := g.findMethod(gtype{dir: d, name: n}, name, 0); mi >= 0 {
					// a test file runs only in its own directory's test
					// binary: it cannot reach a type declared in another
					// directory's test files
					if p := r.syms[mi].Path; callerTest && strings.HasSuffix(p, "_test.go") && path.Dir(p) != r.fileDir[e.FileID] {
						continue
					}
					o.dispatch = append(o.dispatch, mi)
				}
			}
			return o
		}
	} else if ext != "" {
		return external(ext)
	}
	if g.fieldType(t, name, 0).known() || g.hasField(t, name) {
		return unresolved("function-typed field")
	}
	return unresolved("no such method")
}

// goFieldHides marks, in a method set being made, a name a struct field
// holds: no promoted method of that name belongs to the set.
const goFieldHides = "\x00field"

// computeImplements finds, for every project interface with a known method
// set, the project's named non-interface types whose method set (pointer
// receivers and promoted methods included) has every method with the same
// signature; an unexported method must be implemented in the same package.
func (g *goResolver) computeImplements(r *resolver) {
	g.impls = map[string][]string{}
	// a method's signature and the package that declares it (an
	// unexported method is implemented only by its own package's methods,
	// promoted ones included)
	type msig struct{ sig, dir string }
	type sigs map[string]msig
	// method sets of interfaces
	var ifaceSet func(t gtype, depth int, out sigs) bool
	ifaceSet = func(t gtype, depth int, out sigs) bool {
		for _, f := range g.imethods[t.key()] {
			out[f.Name] = msig{g.canonSig(f.Sig, g.factDir[f]), g.factDir[f]}
		}
		for _, f := range g.iembeds[t.key()] {
			et := g.eval(f.Type, g.factDir[f], 0)
			if !et.project() && (et.universe || et.ext != "") {
				if ms, iface, ok := goStdSet(f.Type); ok && iface {
					for m, sig := range ms {
						out[m] = msig{sig, ""}
					}
					continue
				}
			}
			if !et.project() || depth > 6 || !g.isInterface(et) {
				return false // an external or non-interface element: not known here
			}
			if seq := g.tparamSeq[et.key()]; len(seq) > 0 && f.Sig != "" {
				// an instantiated generic interface (Graph[int]): its
				// methods with the arguments for its parameters
				args := splitTypeArgs(f.Sig)
				if len(args) != len(seq) {
					return false
				}
				inner := sigs{}
				if !ifaceSet(et, depth+1, inner) {
					return false
				}
				bind := map[string]string{}
				for i, p := range seq {
					bind[p] = g.canonSig(args[i], g.factDir[f])
				}
				for m, ms := range inner {
					out[m] = msig{substParams(ms.sig, bind), ms.dir}
				}
				continue
			}
			if !ifaceSet(et, depth+1, out) {
				return false
			}
		}
		return true
	}
	// method sets of concrete types
	methodsOf := map[string]map[string][]int{} // type key → method name → chunk
	byType := map[string][]string{}            // dir\x00Type → method names
	for k, i := range g.methods {
		if g.offBuild[r.syms[i].FileID] {
			continue // a method the default build does not compile (a twin's type's, or of another platform)
		}
		parts := strings.SplitN(k, "\x00", 3)
		tk := key2(parts[0], parts[1])
		byType[tk] = append(byType[tk], parts[2])
	}
	var concrete func(t gtype, depth int, out sigs) bool
	concrete = func(t gtype, depth int, out sigs) bool {
		complete := true
		for _, m := range byType[t.key()] {
			if _, ok := out[m]; !ok {
				sig := ""
				if f := g.results[key3(t.dir, t.name, m)]; f != nil {
					sig = g.canonSig(f.Sig, g.factDir[f])
				}
				out[m] = msig{sig, t.dir}
			}
		}
		for _, f := range g.fields[t.key()] {
			if _, ok := out[f.Name]; !ok && f.Sig != "embed" {
				// a field hides the methods of its name promoted from
				// deeper embedded types (struct{ T; Close struct{} }
				// has no Close method); dropped once the set is made
				out[f.Name] = msig{sig: goFieldHides}
			}
		}
		for _, f := range g.fields[t.key()] {
			if f.Sig != "embed" {
				continue
			}
			et := g.eval(f.Type, g.factDir[f], 0)
			if !et.project() && (et.universe || et.ext != "") {
				ms, _, ok := goStdSet(f.Type)
				for m, sig := range ms {
					if _, ok := out[m]; !ok {
						out[m] = msig{sig, ""}
					}
				}
				if !ok {
					complete = false
				}
				continue
			}
			if !et.project() || depth > 6 {
				complete = false
				continue
			}
			if g.isInterface(et) {
				s := sigs{}
				if !ifaceSet(et, 0, s) {
					complete = false
				}
				for m, sg := range s {
					if _, ok := out[m]; !ok {
						out[m] = sg
					}
				}
				continue
			}
			if !concrete(et, depth+1, out) {
				complete = false
			}
		}
		return complete
	}
	_ = methodsOf
	typeKeys := make([]string, 0, len(g.types))
	for k, i := range g.types {
		if !g.offBuild[r.syms[i].FileID] {
			typeKeys = append(typeKeys, k)
		}
	}
	slices.Sort(typeKeys)
	concreteSets := map[string]sigs{}
	byMethod := map[string][]string{}
	var ifaces []string
	for _, k := range typeKeys {
		d, n, _ := strings.Cut(k, "\x00")
		t := gtype{dir: d, name: n}
		if g.isInterface(t) {
			ifaces = append(ifaces, k)
			continue
		}
		s := sigs{}
		concrete(t, 0, s)
		for m, ms := range s {
			if ms.sig == goFieldHides {
				delete(s, m)
			}
		}
		if len(s) == 0 {
			continue
		}
		concreteSets[k] = s
		for m := range s {
			byMethod[m] = append(byMethod[m], k)
		}
	}
	for _, ik := range ifaces {
		d, n, _ := strings.Cut(ik, "\x00")
		want := sigs{}
		if !ifaceSet(gtype{dir: d, name: n}, 0, want) || len(want) == 0 {
			continue
		}
		names := make([]string, 0, len(want))
		for m := range want {
			names = append(names, m)
		}
		slices.Sort(names)
		// the method with the fewest implementers drives the search
		seed := names[0]
		for _, m := range names {
			if len(byMethod[m]) < len(byMethod[seed]) {
				seed = m
			}
		}
		params := g.tparams[ik]
		for _, tk := range byMethod[seed] {
			if td, _, _ := strings.Cut(tk, "\x00"); td != d && goIgnoredDir(td) &&
				strings.TrimSuffix(td, xtestSuffix) != strings.TrimSuffix(d, xtestSuffix) {
				continue // a package the go command does not build, seen only from its own files
			}
			have := concreteSets[tk]
			ok := true
			var bound map[string]string // a generic interface's parameters, as the type's methods bind them
			if params != nil {
				bound = map[string]string{}
			}
			for _, m := range names {
				got, found := have[m]
				same := found && got.sig == want[m].sig
				if found && !same && params != nil {
					same = matchGeneric(want[m].sig, got.sig, params, bound)
				}
				if !same || (!exported(m) && got.dir != want[m].dir) {
					ok = false
					break
				}
			}
			if ok {
				g.impls[ik] = append(g.impls[ik], tk)
			}
		}
	}
}

// splitTypeArgs splits "[A,B]" into its type arguments (commas inside
// brackets and parentheses belong to an argument).
func splitTypeArgs(s string) []string {
	if len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' {
		return nil
	}
	s = s[1 : len(s)-1]
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// substParams writes a signature with the type parameter names it uses
// bare (bind's keys) replaced by their arguments.
func substParams(sig string, bind map[string]string) string {
	var b strings.Builder
	for i := 0; i < len(sig); {
		c := sig[i]
		if !isPathByte(c) {
			b.WriteByte(c)
			i++
			continue
		}
		j := i
		for j < len(sig) && isPathByte(sig[j]) {
			j++
		}
		if dots := strings.IndexFunc(sig[i:j], func(r rune) bool { return r != '.' }); dots > 0 {
			b.WriteString(sig[i : i+dots]) // a variadic parameter's "..."
			i += dots
		}
		tok := sig[i:j]
		prev := byte(0)
		if i > 0 && sig[i-1] != '.' {
			prev = sig[i-1]
		}
		if a, ok := bind[tok]; ok && prev != ':' && prev != '#' && prev != '@' && (j == len(sig) || sig[j] != '#' && sig[j] != ':') {
			b.WriteString(a)
		} else {
			b.WriteString(tok)
		}
		i = j
	}
	return b.String()
}

// matchGeneric reports whether signature have is signature want with
// want's type parameters (params) replaced by types, each parameter by the
// same type wherever it occurs (bound, shared across an interface's
// methods, records the types).
func matchGeneric(want, have string, params map[string]bool, bound map[string]string) bool {
	i, j := 0, 0
	for i < len(want) {
		c := want[i]
		if isPathByte(c) && (i == 0 || !isPathByte(want[i-1]) && want[i-1] != ':' && want[i-1] != '#') {
			k := i
			for k < len(want) && isPathByte(want[k]) {
				k++
			}
			if tok := want[i:k]; params[tok] && (k == len(want) || want[k] != ':' && want[k] != '#') {
				// the type at have[j:]: up to a separator outside brackets
				e, depth := j, 0
				for ; e < len(have); e++ {
					b := have[e]
					if depth == 0 && (b == ',' || b == ')' || b == ']') {
						break
					}
					switch b {
					case '(', '[', '{':
						depth++
					case ')', ']', '}':
						depth--
					}
				}
				if e == j {
					return false
				}
				if prev, ok := bound[tok]; ok && prev != have[j:e] {
					return false
				}
				bound[tok] = have[j:e]
				i, j = k, e
				continue
			}
		}
		if j >= len(have) || have[j] != c {
			return false
		}
		i++
		j++
	}
	return j == len(have)
}

// canonSig rewrites a signature's package-independent names ("@T" of the
// declaring file's package dir, "PATH#T" of an imported package) to
// "DIR#T" for project packages, so signatures compare across packages. A
// project alias (type T = U) is written as the type it names.
func (g *goResolver) canonSig(sig, dir string) string {
	return g.canonSigDepth(sig, dir, 0)
}

func (g *goResolver) canonSigDepth(sig, dir string, depth int) string {
	if !strings.ContainsAny(sig, "@#") {
		return sig
	}
	var b strings.Builder
	// named writes the type name of package directory d (ok) or of the
	// package path word (not in the project) that starts at sig[i].
	named := func(word string, d string, ok bool, i int) int {
		j := i
		for j < len(sig) && isPathByte(sig[j]) {
			j++
		}
		name := sig[i:j]
		if ok {
			d = g.bareDir(name, d)
			if a := g.aliases[key2(d, name)]; a != nil && depth < 4 {
				b.WriteString(g.canonSigDepth(strings.TrimPrefix(a.Sig, "alias:"), g.factDir[a], depth+1))
				return j
			}
			b.WriteString("dir:" + d + "#" + name)
			return j
		}
		b.WriteString(word + "#" + name)
		return j
	}
	for i := 0; i < len(sig); {
		c := sig[i]
		switch {
		case c == '@':
			i = named("", dir, true, i+1)
		case isPathByte(c):
			j := i
			for j < len(sig) && isPathByte(sig[j]) {
				j++
			}
			word := sig[i:j]
			if j < len(sig) && sig[j] == '#' {
				// a variadic parameter's "..." is no part of the path
				dots := len(word) - len(strings.TrimLeft(word, "."))
				b.WriteString(word[:dots])
				word = word[dots:]
				d, ok := g.dirOf(word)
				i = named(word, d, ok, j+1)
				continue
			}
			b.WriteString(word)
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// goIgnoredDir reports whether the go command ignores package directory
// dir (a path element testdata or starting with "_" or "."): its files
// form no package of the module, so types there implement only interfaces
// of their own directory (gopls, asked from a file there, sees that
// package and the module's packages).
func goIgnoredDir(dir string) bool {
	for _, e := range strings.Split(strings.TrimSuffix(dir, xtestSuffix), "/") {
		if e == "testdata" || (e != "" && e != "." && (e[0] == '_' || e[0] == '.')) {
			return true
		}
	}
	return false
}

func isPathByte(c byte) bool {
	return c == '_' || c == '.' || c == '/' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func exported(name string) bool { return name != "" && name[0] >= 'A' && name[0] <= 'Z' }

// goImplementsEdges turns the implements table into derived relations from
// each implementing type chunk to the interface's type chunk.
func (r *resolver) goImplementsEdges() []store.DerivedRelation {
	g := r.g
	if g == nil {
		return nil
	}
	keys := make([]string, 0, len(g.impls))
	for k := range g.impls {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var out []store.DerivedRelation
	for _, ik := range keys {
		ii := g.types[ik]
		iface := &r.syms[ii]
		for _, tk := range g.impls[ik] {
			ti := g.types[tk]
			s := &r.syms[ti]
			out = append(out, store.DerivedRelation{FileID: s.FileID, Kind: "implements", SrcChunk: s.ID, SrcSymbol: s.Symbol,
				Target: iface.Symbol, Line: s.StartLine, DstChunk: iface.ID, Resolution: store.ResExact, Detail: "method set"})
		}
	}
	return out
}
