package index

import (
	"strings"

	"codectx/internal/lang"
	"codectx/internal/store"
)

// Go references edges: a function or method used as a value (a callback,
// a handler, a method value or expression), from the lang.FactRef facts
// the extractor records for every identifier or selector where a function
// value can stand. Each is resolved as a call of the same name and
// receiver would be (goCall: a bare name is the package's function, pkg.F
// through the file's imports, x.M through the type of x), and kept only
// when that gives a project function or method: a variable, a constant, a
// type, a field, an interface method or anything outside the project
// leaves no row. One row per source function, target and line, derived
// (rebuilt by every resolution, like dispatch edges).

// goReferenceEdges resolves the reference facts of the project's Go files.
func (r *resolver) goReferenceEdges(facts []store.FactRow) []store.DerivedRelation {
	g := r.g
	if g == nil || len(g.goFiles) == 0 {
		return nil
	}
	type key struct {
		src, dst int64
		line     int
	}
	seen := map[key]bool{}
	var out []store.DerivedRelation
	var uses []lang.GoRef
	for i := range facts {
		f := &facts[i]
		if f.Kind != lang.FactRef || !g.goFiles[f.FileID] {
			continue
		}
		dir := g.pkgKey(f.FileID, r.fileDir[f.FileID])
		uses = lang.ParseGoRefs(f.Sig, uses[:0])
		if len(uses) == 0 {
			continue
		}
		// the uses of one fact are in one function
		src := r.chunkAt(f.FileID, f.Owner, uses[0].Line)
		if src < 0 {
			continue
		}
		for _, u := range uses {
			if e, ok := r.goReference(f.FileID, src, u, dir); ok && !seen[key{e.SrcChunk, e.DstChunk, e.Line}] {
				seen[key{e.SrcChunk, e.DstChunk, e.Line}] = true
				out = append(out, e)
			}
		}
	}
	return out
}

// goReference resolves use u of function src (symbol index) of file
// fileID in package dir: a references edge when it reaches a project
// function or method.
func (r *resolver) goReference(fileID int64, src int, u lang.GoRef, dir string) (store.DerivedRelation, bool) {
	g := r.g
	o := r.goCall(store.EdgeRow{FileID: fileID, Kind: "calls", Target: u.Name, Recv: u.Qualifier, Line: u.Line}, dir)
	di, ok := r.byID[o.dst]
	if !ok || o.dst == 0 || (o.res != store.ResExact && o.res != store.ResInferred) {
		return store.DerivedRelation{}, false
	}
	dst := &r.syms[di]
	detail := "function value"
	switch {
	case dst.Kind == "method":
		// x.f names a field when the type declares one of that name (a
		// field hides a method promoted from an embedded type)
		if q := u.Qualifier; q != "" && !strings.HasPrefix(q, "pkg:") {
			if t := g.eval(q, dir, 0); t.project() && g.hasField(t, u.Name) {
				return store.DerivedRelation{}, false
			}
		}
		detail = "method value"
	case dst.Kind != "function":
		return store.DerivedRelation{}, false // a type (a conversion's), an interface method
	}
	s := &r.syms[src]
	return store.DerivedRelation{FileID: fileID, Kind: lang.RelReferences, SrcChunk: s.ID, SrcSymbol: s.Symbol,
		Target: u.Name, Line: u.Line, DstChunk: dst.ID, Resolution: o.res, Detail: detail}, true
}

// chunkAt is the chunk of file fileID with the given symbol whose lines
// hold line (a file may declare several init functions), -1 when none.
func (r *resolver) chunkAt(fileID int64, symbol string, line int) int {
	for _, i := range r.bySymbol[symbol] {
		if s := &r.syms[i]; s.FileID == fileID && line >= s.StartLine && line <= s.EndLine {
			return i
		}
	}
	return -1
}
