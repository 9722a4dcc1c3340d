package index

import (
	"context"
	"path"
	"strings"

	"codectx/internal/store"
)

// selfQualifiers name the current object or class in the supported languages.
var selfQualifiers = map[string]bool{"": true, "this": true, "self": true, "cls": true, "super": true, "$this": true, "static": true, "parent": true, "Self": true}

// Resolve links relation targets to chunks where the code allows it: the same
// type first, then the same file, then the same package directory, then types
// imported by the file, then a name defined exactly once in the project. A
// tier with several candidates (other than overloads in the same type) is
// ambiguous and leaves the edge unresolved. With fileIDs and names nil every
// edge of the project is resolved; otherwise only edges from those files or
// aiming at those names. It returns how many edges changed.
func Resolve(ctx context.Context, db *store.DB, projectID int64, fileIDs []int64, names []string) (int, error) {
	edges, err := db.EdgesToResolve(ctx, projectID, fileIDs, names)
	if err != nil || len(edges) == 0 {
		return 0, err
	}
	syms, err := db.Symbols(ctx, projectID)
	if err != nil {
		return 0, err
	}
	imports, err := db.Imports(ctx, projectID)
	if err != nil {
		return 0, err
	}
	r := newResolver(syms, imports)
	updates := map[int64]int64{}
	for _, e := range edges {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		dst := r.resolve(e)
		if dst != e.DstChunk {
			updates[e.ID] = dst
		}
	}
	if err := db.SetTargets(ctx, updates); err != nil {
		return 0, err
	}
	return len(updates), nil
}

type resolver struct {
	syms     []store.SymbolRow
	byID     map[int64]int
	byShort  map[string][]int
	bySymbol map[string][]int
	fileDir  map[int64]string
	imports  map[int64]map[string]bool // file → last segments of its imports
}

func newResolver(syms []store.SymbolRow, imports map[int64][]string) *resolver {
	r := &resolver{
		syms: syms, byID: make(map[int64]int, len(syms)),
		byShort: map[string][]int{}, bySymbol: map[string][]int{},
		fileDir: map[int64]string{}, imports: map[int64]map[string]bool{},
	}
	for i, s := range syms {
		r.byID[s.ID] = i
		r.byShort[s.Short] = append(r.byShort[s.Short], i)
		r.bySymbol[s.Symbol] = append(r.bySymbol[s.Symbol], i)
		r.fileDir[s.FileID] = path.Dir(s.Path)
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

func (r *resolver) resolve(e store.EdgeRow) int64 {
	switch e.Kind {
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
				return s.ID
			}
			if first == 0 {
				first = s.ID
			}
		}
		return first
	case "extends", "implements":
		return r.pick(e, func(s *store.SymbolRow) bool { return s.Kind == "type" }, false)
	case "calls":
		return r.pick(e, func(s *store.SymbolRow) bool { return s.Kind != "file" }, true)
	}
	return 0
}

func (r *resolver) pick(e store.EdgeRow, ok func(*store.SymbolRow) bool, call bool) int64 {
	short := store.ShortName(e.Target)
	var cands []int
	for _, i := range r.byShort[short] {
		if ok(&r.syms[i]) {
			cands = append(cands, i)
		}
	}
	if len(cands) == 0 {
		return 0
	}
	srcContainer := ""
	if si, found := r.byID[e.SrcChunk]; found {
		s := &r.syms[si]
		srcContainer = s.Container
		if s.Kind == "type" {
			srcContainer = s.Symbol
		}
	}
	tier := func(match func(*store.SymbolRow) bool, firstWins bool) (int64, bool) {
		var found []int
		for _, i := range cands {
			if match(&r.syms[i]) {
				found = append(found, i)
			}
		}
		switch {
		case len(found) == 1 || (len(found) > 1 && firstWins):
			return r.syms[found[0]].ID, true
		case len(found) > 1:
			return 0, true // ambiguous: stop here
		}
		return 0, false
	}
	if call {
		// A qualifier that names a type: that type's member.
		if !selfQualifiers[e.Qualifier] {
			if id, done := tier(func(s *store.SymbolRow) bool {
				return s.Container != "" && (s.Container == e.Qualifier || store.ShortName(s.Container) == e.Qualifier)
			}, true); done {
				return id
			}
		}
		if srcContainer != "" {
			if id, done := tier(func(s *store.SymbolRow) bool { return s.Container == srcContainer }, true); done && id != 0 {
				return id
			}
		}
	}
	if id, done := tier(func(s *store.SymbolRow) bool { return s.FileID == e.FileID }, false); done {
		return id
	}
	dir := r.fileDir[e.FileID]
	if id, done := tier(func(s *store.SymbolRow) bool { return path.Dir(s.Path) == dir }, false); done {
		return id
	}
	if imps := r.imports[e.FileID]; len(imps) > 0 {
		if id, done := tier(func(s *store.SymbolRow) bool {
			return imps[store.ShortName(s.Container)] || imps[path.Base(path.Dir(s.Path))] || (s.Kind == "type" && imps[s.Short])
		}, false); done {
			return id
		}
	}
	if len(cands) == 1 {
		return r.syms[cands[0]].ID
	}
	return 0
}
