package lang

import (
	"go/build/constraint"
	"slices"
	"strconv"
	"strings"
)

// Go type facts and receiver typing, from the syntax tree alone (no type
// checker): the imports of the file (alias → import path), the declared
// types of struct fields, interface methods, function results and
// package-level variables (Result.Facts), and for every call the type of its
// receiver as far as the function's own declarations tell (Relation.Recv).
// Relation resolution (internal/index) evaluates both project-wide.

// goCtx is the per-file Go state of an extractor.
type goCtx struct {
	imports map[string]string    // alias (or package name) → import path
	locals  map[string][]goLocal // current function: local name → declarations in source order
	tparams map[string]bool      // current function: type parameters
	tconstr map[string]string    // current function: its own type parameters' named constraints
	// anonOwner, while a package variable's facts are made, is the type
	// name its anonymous struct type is declared under
	anonOwner string
	ltypes    map[string]string // current function: types it declares → reference ("" unknown)
}

// goLocal is one declaration of a local name: the byte range it is in
// scope and its type (Recv notation, "" unknown).
type goLocal struct {
	pos, end uint32
	ref      string
	res      string // a local holding a function: what calling it returns
}

// local returns the type of the local name at byte offset pos: the
// innermost declaration in scope there (ok false when none is).
func (g *goCtx) local(name string, pos uint32) (string, bool) {
	d := g.localDecl(name, pos)
	if d == nil {
		return "", false
	}
	return d.ref, true
}

// localDecl is the declaration of the local name in scope at pos, nil
// when none is.
func (g *goCtx) localDecl(name string, pos uint32) *goLocal {
	var out *goLocal
	ds := g.locals[name]
	for i := range ds {
		if ds[i].pos > pos {
			break
		}
		if pos < ds[i].end {
			out = &ds[i]
		}
	}
	return out
}

// goUniverse are Go's predeclared types: a method call on one of them never
// means a project method.
var goUniverse = wordSet(`any bool byte comparable complex64 complex128 error float32 float64 int int8 int16 int32 int64
	rune string uint uint8 uint16 uint32 uint64 uintptr`)

// goPrepare reads the file's imports and declares its type facts.
func goPrepare(x *extractor) {
	t := x.t
	g := &goCtx{imports: map[string]string{}}
	x.gx = g
	for c := t.first(0); c >= 0; c = t.next(c) {
		if t.kind(c) != "import_declaration" {
			continue
		}
		end := t.subtreeEnd(c)
		for j := c; j < end; j++ {
			if t.kind(j) != "import_spec" {
				continue
			}
			p := unquote(t.text(t.field(j, "path")))
			name := goPackageName(p)
			if n := t.field(j, "name"); n >= 0 {
				name = t.text(n)
			}
			if name != "_" && name != "." && p != "" {
				g.imports[name] = p
			}
			if name == "." && p != "" {
				// a dot import: the package's names are the file's own
				x.facts = append(x.facts, Fact{Kind: FactImport, Name: ".", Type: p})
			}
		}
	}
	if e := goBuildConstraint(t); e != "" {
		x.facts = append(x.facts, Fact{Kind: FactBuild, Name: e})
	}
	for c := t.first(0); c >= 0; c = t.next(c) {
		switch t.kind(c) {
		case "package_clause":
			for n := t.first(c); n >= 0; n = t.next(n) {
				// only a _test.go file can be in the external test package
				if name := t.text(n); t.kind(n) == "package_identifier" && strings.HasSuffix(name, "_test") && strings.HasSuffix(x.path, "_test.go") {
					x.facts = append(x.facts, Fact{Kind: FactPackage, Name: name})
				}
			}
		case "type_declaration":
			for s := t.first(c); s >= 0; s = t.next(s) {
				if k := t.kind(s); k == "type_spec" || k == "type_alias" {
					g.tparams = x.goTypeParams(s)
					x.goTypeFacts(s)
				}
			}
			g.tparams = nil
		case "var_declaration":
			end := t.subtreeEnd(c)
			for j := c; j < end; j++ {
				if t.kind(j) == "var_spec" {
					x.goVarFacts(j)
					j = t.subtreeEnd(j) - 1
				}
			}
		case "const_declaration":
			// a constant's type: declared, else its value's; a spec
			// with neither repeats the one before (iota groups)
			prevType, prevVals := int32(-1), int32(-1)
			for j := t.first(c); j >= 0; j = t.next(j) {
				if t.kind(j) != "const_spec" {
					continue
				}
				ty, v := t.field(j, "type"), t.field(j, "value")
				if ty < 0 && v < 0 {
					ty, v = prevType, prevVals
				}
				prevType, prevVals = ty, v
				x.goConstFacts(j, ty, v)
			}
		case "function_declaration", "method_declaration":
			g.tparams = x.goTypeParams(c)
			x.goFuncFact(c)
			g.tparams = nil
		}
	}
}

// goBuildConstraint is the file's build constraint in //go:build syntax
// (the //go:build line, else the // +build lines joined by &&), "" when it
// has none: comment lines before the package clause.
func goBuildConstraint(t *tree) string {
	var plus constraint.Expr
	for c := t.first(0); c >= 0; c = t.next(c) {
		if t.kind(c) != "comment" {
			break
		}
		for _, line := range strings.Split(t.text(c), "\n") {
			line = strings.TrimSpace(line)
			if !constraint.IsGoBuild(line) && !constraint.IsPlusBuild(line) {
				continue
			}
			e, err := constraint.Parse(line)
			if err != nil {
				continue
			}
			if constraint.IsGoBuild(line) {
				return e.String()
			}
			if plus == nil {
				plus = e
			} else {
				plus = &constraint.AndExpr{X: plus, Y: e}
			}
		}
	}
	if plus != nil {
		return plus.String()
	}
	return ""
}

// goPackageName guesses the package name of an import path: its last
// element, without a major-version element ("/v2") or a ".vN" / "go-" decoration.
func goPackageName(p string) string {
	parts := strings.Split(p, "/")
	name := parts[len(parts)-1]
	if len(parts) > 1 && len(name) > 1 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == "" {
		name = parts[len(parts)-2]
	}
	if k := strings.Index(name, ".v"); k > 0 {
		name = name[:k]
	}
	name = strings.TrimPrefix(name, "go-")
	return strings.ReplaceAll(name, "-", "_")
}

func (x *extractor) goTypeFacts(spec int32) {
	t := x.t
	name := t.text(t.field(spec, "name"))
	ty := t.field(spec, "type")
	if name == "" || ty < 0 {
		return
	}
	switch t.kind(ty) {
	case "struct_type":
		x.goStructFacts(name, ty)
	case "interface_type":
		if tp := t.field(spec, "type_parameters"); tp >= 0 {
			// a generic interface: its type parameters, in order
			var names []string
			end := t.subtreeEnd(tp)
			for j := tp; j < end; j++ {
				if t.kind(j) == "type_parameter_declaration" {
					for c := t.first(j); c >= 0; c = t.next(c) {
						if t.kind(c) == "identifier" {
							names = append(names, t.text(c))
						}
					}
				}
			}
			if len(names) > 0 {
				x.facts = append(x.facts, Fact{Kind: FactTypeParams, Owner: name, Name: strings.Join(names, ",")})
			}
		}
		for e := t.first(ty); e >= 0; e = t.next(e) {
			switch t.kind(e) {
			case "method_elem", "method_spec":
				x.facts = append(x.facts, Fact{Kind: FactIMethod, Owner: name, Name: t.text(t.field(e, "name")),
					Type: x.goResultRef(t.field(e, "result")), Sig: x.goSig(t.field(e, "parameters"), t.field(e, "result"))})
			case "type_elem":
				c := t.firstNamed(e)
				if c >= 0 && t.next(c) < 0 {
					if ref := x.goTypeRef(c); ref != "" {
						// an instantiated generic interface (Graph[int]):
						// its type arguments, as signatures write them
						sig := ""
						if t.kind(c) == "generic_type" {
							sig = strings.TrimPrefix(x.goSigType(c), x.goSigType(t.field(c, "type")))
						}
						x.facts = append(x.facts, Fact{Kind: FactIEmbed, Owner: name, Type: ref, Sig: sig})
					}
				}
			}
		}
	default:
		// a named non-struct type (type Header map[string][]string) or an
		// alias: the underlying type, so selectors and elements resolve
		// (for an alias, the same type under another name, Sig is "alias:"
		// and the type in the notation of signatures)
		if ref := x.goTypeRef(ty); ref != "" {
			sig := "underlying"
			if t.kind(spec) == "type_alias" {
				sig = "alias:" + x.goSigType(ty)
			}
			x.facts = append(x.facts, Fact{Kind: FactField, Owner: name, Name: "", Type: ref, Sig: sig})
		}
	}
}

// goConstFacts declares the typed constants of a const spec (FactVar):
// of type ty, else each of its value's type (untyped literals: none).
func (x *extractor) goConstFacts(spec, ty, vals int32) {
	ref := ""
	if ty >= 0 {
		if ref = x.goTypeRef(ty); ref == "" {
			return // a declared type not known here: not its value's
		}
	}
	x.goSpecFacts(spec, vals, ref)
}

// goSpecFacts declares the names of a const or var spec (FactVar): of
// type ref, else (ref "") each of its value's type, vals being the value
// list node (-1: none).
func (x *extractor) goSpecFacts(spec, vals int32, ref string) {
	t := x.t
	var vs []int32
	if vals >= 0 {
		for c := t.first(vals); c >= 0; c = t.next(c) {
			if t.named(c) && t.kind(c) != "comment" {
				vs = append(vs, c)
			}
		}
	}
	nameF := t.g.field("name")
	k := 0
	for c := t.first(spec); c >= 0; c = t.next(c) {
		if t.nodes[c].field != nameF {
			continue
		}
		r := ref
		if r == "" && len(vs) > k {
			r = x.goExprType(vs[k])
		}
		if r != "" && t.text(c) != "_" {
			x.facts = append(x.facts, Fact{Kind: FactVar, Name: t.text(c), Type: r})
		}
		k++
	}
}

// goStructFacts declares the fields of struct type st under the type name
// owner.
func (x *extractor) goStructFacts(owner string, st int32) {
	t := x.t
	fl := t.childKind(st, "field_declaration_list")
	for f := t.first(fl); f >= 0; f = t.next(f) {
		if t.kind(f) != "field_declaration" {
			continue
		}
		ft := t.field(f, "type")
		ref, sig := x.goTypeRef(ft), ""
		if t.kind(ft) == "function_type" {
			// a field holding a function: Type is what calling it returns
			ref, sig = x.goResultRef(t.field(ft, "result")), "func"
		}
		named := false
		for c := t.first(f); c >= 0; c = t.next(c) {
			if t.kind(c) == "field_identifier" {
				named = true
				x.facts = append(x.facts, Fact{Kind: FactField, Owner: owner, Name: t.text(c), Type: ref, Sig: sig})
			}
		}
		if !named && ref != "" {
			x.facts = append(x.facts, Fact{Kind: FactField, Owner: owner, Name: goRefName(ref), Type: ref, Sig: "embed"})
		}
	}
}

// goAnonSep joins a package variable's name into the name its anonymous
// struct type is declared under (V·struct): "·" is no letter, so no Go
// type has that name.
const goAnonSep = "·struct"

func (x *extractor) goVarFacts(spec int32) {
	t := x.t
	ref := ""
	// var cache struct{ sync.Mutex; … }, var tests = []struct{…}{…}: the
	// anonymous struct is declared as a type named after the variable
	g := x.gx
	if n := t.field(spec, "name"); n >= 0 {
		g.anonOwner = t.text(n) + goAnonSep
		defer func() { g.anonOwner = "" }()
	}
	if ty := t.field(spec, "type"); ty >= 0 {
		ref = x.goTypeRef(ty)
	}
	x.goSpecFacts(spec, t.field(spec, "value"), ref)
}

func (x *extractor) goFuncFact(fn int32) {
	t := x.t
	owner := ""
	if r := t.field(fn, "receiver"); r >= 0 {
		if pd := t.childKind(r, "parameter_declaration"); pd >= 0 {
			owner = simpleName(t.text(t.field(pd, "type")))
		}
	}
	res := t.field(fn, "result")
	ref := x.goResultRef(res)
	if owner == "" {
		// a function's fact types its callers' results; only methods
		// need the signature (method sets for implements)
		if ref != "" {
			x.facts = append(x.facts, Fact{Kind: FactResult, Name: t.text(t.field(fn, "name")), Type: ref})
		}
		return
	}
	x.facts = append(x.facts, Fact{Kind: FactResult, Owner: owner, Name: t.text(t.field(fn, "name")),
		Type: ref, Sig: x.goSig(t.field(fn, "parameters"), res)})
}

// goResultRef is the type references of a function's results, joined by ";".
func (x *extractor) goResultRef(res int32) string {
	t := x.t
	if res < 0 {
		return ""
	}
	if t.kind(res) != "parameter_list" {
		return x.goTypeRef(res)
	}
	var refs []string
	for c := t.first(res); c >= 0; c = t.next(c) {
		if t.kind(c) != "parameter_declaration" {
			continue
		}
		ref := x.goTypeRef(t.field(c, "type"))
		n := max(t.countKind(c, "identifier"), 1)
		for range n {
			refs = append(refs, ref)
		}
	}
	if len(refs) == 1 {
		return refs[0]
	}
	return strings.Join(refs, ";")
}

// goSig normalises a parameter list and result to "(T1,T2)(R1,R2)".
func (x *extractor) goSig(params, res int32) string {
	t := x.t
	var b strings.Builder
	list := func(l int32) {
		b.WriteByte('(')
		n := 0
		for c := t.first(l); c >= 0; c = t.next(c) {
			k := t.kind(c)
			if k != "parameter_declaration" && k != "variadic_parameter_declaration" {
				continue
			}
			ty := x.goSigType(t.field(c, "type"))
			if k == "variadic_parameter_declaration" {
				ty = "..." + ty
			}
			names := t.countKind(c, "identifier")
			if names == 0 {
				names = 1
			}
			for range names {
				if n > 0 {
					b.WriteByte(',')
				}
				b.WriteString(ty)
				n++
			}
		}
		b.WriteByte(')')
	}
	list(params)
	if res >= 0 {
		if t.kind(res) == "parameter_list" {
			list(res)
		} else {
			b.WriteByte('(')
			b.WriteString(x.goSigType(res))
			b.WriteByte(')')
		}
	}
	return b.String()
}

// goSigType writes a type for a signature with package-independent names:
// a type of the file's package is "@T", an imported one "PATH#T", so that
// resolution can compare signatures written in different packages.
func (x *extractor) goSigType(ty int32) string {
	t := x.t
	switch t.kind(ty) {
	case "type_identifier":
		n := t.text(ty)
		if goUniverse[n] || x.gx.tparams[n] {
			return n
		}
		return "@" + n
	case "qualified_type":
		pkg := t.text(t.field(ty, "package"))
		if p, ok := x.gx.imports[pkg]; ok {
			return p + "#" + t.text(t.field(ty, "name"))
		}
	case "pointer_type":
		return "*" + x.goSigType(t.firstNamed(ty))
	case "slice_type":
		return "[]" + x.goSigType(t.field(ty, "element"))
	case "map_type":
		return "map[" + x.goSigType(t.field(ty, "key")) + "]" + x.goSigType(t.field(ty, "value"))
	case "parenthesized_type":
		return x.goSigType(t.firstNamed(ty))
	case "array_type":
		return "[" + collapse(t.text(t.field(ty, "length"))) + "]" + x.goSigType(t.field(ty, "element"))
	case "channel_type":
		dir := "chan "
		if s := t.text(ty); strings.HasPrefix(s, "<-") {
			dir = "<-chan "
		} else if strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(s, "chan")), "<-") {
			dir = "chan<- "
		}
		return dir + x.goSigType(t.field(ty, "value"))
	case "function_type":
		// parameter names dropped, as in a method's own signature
		return "func" + x.goSig(t.field(ty, "parameters"), t.field(ty, "result"))
	case "interface_type":
		if t.firstNamed(ty) < 0 {
			return "any" // interface{} is any
		}
	case "generic_type":
		var b strings.Builder
		b.WriteString(x.goSigType(t.field(ty, "type")))
		b.WriteByte('[')
		n := 0
		for a := t.first(t.field(ty, "type_arguments")); a >= 0; a = t.next(a) {
			if !t.named(a) {
				continue
			}
			arg := a
			if t.kind(a) == "type_elem" && t.firstNamed(a) >= 0 && t.next(t.firstNamed(a)) < 0 {
				arg = t.firstNamed(a)
			}
			if n > 0 {
				b.WriteByte(',')
			}
			b.WriteString(x.goSigType(arg))
			n++
		}
		b.WriteByte(']')
		return b.String()
	}
	return collapse(t.text(ty))
}

// goRefName is the type name of a reference ("net/url#URL" → "URL").
func goRefName(ref string) string {
	ref = strings.TrimLeft(ref, "[]!")
	if k := strings.LastIndexByte(ref, '#'); k >= 0 {
		return ref[k+1:]
	}
	return ref
}

// goTypeRef turns a type node into a reference: "T", "PATH#T", "!T" for
// predeclared types, "[]"+elem for slices, arrays and maps (the value), ""
// when unknown (function, channel, anonymous or type-parameter types).
func (x *extractor) goTypeRef(ty int32) string {
	t := x.t
	for depth := 0; ty >= 0 && depth < 16; depth++ {
		switch t.kind(ty) {
		case "type_identifier":
			n := t.text(ty)
			if x.gx.tparams[n] {
				return x.gx.tconstr[n]
			}
			if ref, ok := x.gx.ltypes[n]; ok {
				return ref
			}
			if goUniverse[n] {
				return "!" + n
			}
			return n
		case "qualified_type":
			pkg := t.text(t.field(ty, "package"))
			if p, ok := x.gx.imports[pkg]; ok {
				return p + "#" + t.text(t.field(ty, "name"))
			}
			return ""
		case "pointer_type", "parenthesized_type":
			ty = t.firstNamed(ty)
		case "generic_type":
			ty = t.field(ty, "type")
		case "channel_type": // the values it carries, as a slice's
			e := x.goTypeRef(t.field(ty, "value"))
			if e == "" {
				return ""
			}
			return "[]" + e
		case "slice_type", "array_type", "implicit_length_array_type":
			e := x.goTypeRef(t.field(ty, "element"))
			if e == "" {
				return ""
			}
			return "[]" + e
		case "map_type":
			e := x.goTypeRef(t.field(ty, "value"))
			if e == "" {
				return ""
			}
			return "[]" + e
		case "struct_type":
			// an anonymous struct, in a function (tests := []struct{…}):
			// "~N", its node, which goExprType reads fields from; never
			// stored (goAnonMember, goCall). In a package variable's
			// declaration, a type of its own (goVarFacts).
			if x.gx.locals == nil {
				o := x.gx.anonOwner
				if o == "" {
					return ""
				}
				x.gx.anonOwner = "" // one struct per variable
				x.goStructFacts(o, ty)
				return o
			}
			return "~" + strconv.Itoa(int(ty))
		default:
			return ""
		}
	}
	return ""
}

// goTypeParams returns the type parameters a declaration introduces (nil
// when none): those of a generic function or type, and the names a method's
// receiver gives its generic type's parameters (func (b *Box[T]) …).
func (x *extractor) goTypeParams(decl int32) map[string]bool {
	t := x.t
	var out map[string]bool
	add := func(name string) {
		if name == "" || name == "_" {
			return
		}
		if out == nil {
			out = map[string]bool{}
		}
		out[name] = true
	}
	if tp := t.field(decl, "type_parameters"); tp >= 0 {
		end := t.subtreeEnd(tp)
		for j := tp; j < end; j++ {
			if t.kind(j) == "type_parameter_declaration" {
				for c := t.first(j); c >= 0; c = t.next(c) {
					if t.kind(c) == "identifier" {
						add(t.text(c))
					}
				}
			}
		}
	}
	if rc := t.field(decl, "receiver"); rc >= 0 {
		end := t.subtreeEnd(rc)
		for j := rc; j < end; j++ {
			if t.kind(j) != "type_arguments" {
				continue
			}
			for a := t.first(j); a >= 0; a = t.next(a) {
				if id := x.goTypeArgIdent(a); id >= 0 {
					add(t.text(id))
				}
			}
			j = t.subtreeEnd(j) - 1
		}
	}
	return out
}

// goTypeConstraints maps the type parameters a generic function declares
// to their constraint when it is a named interface (func F[T Iface](x T):
// x.M() calls Iface's method M), nil when none is. Only inside the
// function: a caller's instantiation binds T to a type of its own.
func (x *extractor) goTypeConstraints(fn int32) map[string]string {
	t := x.t
	tp := t.field(fn, "type_parameters")
	if tp < 0 {
		return nil
	}
	var out map[string]string
	for d := t.first(tp); d >= 0; d = t.next(d) {
		if t.kind(d) != "type_parameter_declaration" {
			continue
		}
		c := t.field(d, "type")
		if t.kind(c) == "type_constraint" {
			c = t.firstNamed(c)
			if t.next(c) >= 0 {
				continue // a union or several elements
			}
		}
		ref := ""
		switch t.kind(c) {
		case "type_identifier", "qualified_type", "generic_type":
			ref = x.goTypeRef(c)
		}
		if ref == "" || ref[0] == '!' {
			continue // any, comparable, or a type parameter
		}
		for n := t.first(d); n >= 0; n = t.next(n) {
			if t.kind(n) == "identifier" {
				if out == nil {
					out = map[string]string{}
				}
				out[t.text(n)] = ref
			}
		}
	}
	return out
}

// goTypeArgIdent is the identifier a receiver's type argument names (the
// argument itself, or inside a type_elem), -1 when it is not a bare name.
func (x *extractor) goTypeArgIdent(a int32) int32 {
	t := x.t
	for depth := 0; a >= 0 && depth < 3; depth++ {
		switch t.kind(a) {
		case "type_identifier", "identifier":
			return a
		case "type_elem":
			a = t.firstNamed(a)
		default:
			return -1
		}
	}
	return -1
}

// goFuncLocals collects the declared names of a function (receiver,
// parameters, var and := declarations, range variables, closures included)
// with their types where the declaration tells, each in scope from its
// statement's end (a parameter: from its function's start) to the end of
// the innermost block, clause or function literal around it, as Go's
// lexical scopes are.
func (x *extractor) goFuncLocals(fn int32) {
	t := x.t
	g := x.gx
	g.locals = map[string][]goLocal{}
	g.tparams = x.goTypeParams(fn)
	g.tconstr = nil
	g.tconstr = x.goTypeConstraints(fn)
	g.ltypes = nil
	scopeEnd := func(n int32) uint32 {
		for p := t.parent(n); p >= 0 && p != fn; p = t.parent(p) {
			switch t.kind(p) {
			case "block", "if_statement", "for_statement", "expression_switch_statement", "type_switch_statement",
				"select_statement", "expression_case", "type_case", "default_case", "communication_case", "func_literal":
				return t.nodes[p].end
			}
		}
		return t.nodes[fn].end
	}
	// res is what calling a function value returns when a function
	// literal or type node says so (one result)
	res := func(n int32) string {
		if k := t.kind(n); k != "func_literal" && k != "function_type" {
			return ""
		}
		if r := x.goResultRef(t.field(n, "result")); !strings.Contains(r, ";") {
			return r
		}
		return ""
	}
	var fres string // the function result of the declaration set records
	set := func(name, ref string, stmt int32) {
		defer func() { fres = "" }()
		if name == "" || name == "_" {
			return
		}
		pos, end := t.nodes[stmt].end, uint32(0)
		if k := t.kind(stmt); k == "parameter_declaration" || k == "variadic_parameter_declaration" {
			owner := t.parent(t.parent(stmt))
			pos, end = t.nodes[owner].start, t.nodes[owner].end
		} else {
			end = scopeEnd(stmt)
		}
		g.locals[name] = append(g.locals[name], goLocal{pos: pos, end: end, ref: ref, res: fres})
	}
	end := t.subtreeEnd(fn)
	for j := fn + 1; j < end; j++ {
		switch t.kind(j) {
		case "parameter_declaration", "variadic_parameter_declaration":
			switch t.kind(t.parent(t.parent(j))) {
			case "function_declaration", "method_declaration", "func_literal":
			default:
				continue // the parameter names of a function type declare nothing
			}
			ref := x.goTypeRef(t.field(j, "type"))
			if t.kind(j) == "variadic_parameter_declaration" && ref != "" {
				ref = "[]" + ref
			}
			for c := t.first(j); c >= 0; c = t.next(c) {
				if t.kind(c) == "identifier" {
					if t.kind(j) == "parameter_declaration" {
						fres = res(t.field(j, "type"))
					}
					set(t.text(c), ref, j)
				}
			}
		case "short_var_declaration", "range_clause", "receive_statement":
			l, r := t.field(j, "left"), t.field(j, "right")
			if t.kind(j) != "short_var_declaration" && t.childKind(j, ":=") < 0 {
				break // case v = <-c, for k, v = range: assignments
			}
			var lefts, rights []int32
			for c := t.first(l); c >= 0; c = t.next(c) {
				if t.kind(c) == "identifier" {
					lefts = append(lefts, c)
				}
			}
			if t.kind(r) == "expression_list" {
				for c := t.first(r); c >= 0; c = t.next(c) {
					if t.named(c) {
						rights = append(rights, c)
					}
				}
			}
			for k, c := range lefts {
				ref := ""
				switch {
				case t.kind(j) == "range_clause":
					if k == 1 {
						if rt := x.goExprType(r); rt != "" {
							ref = rt + " []"
						}
					}
				case t.kind(j) == "receive_statement":
					if k == 0 { // case v, ok := <-c
						ref = x.goExprType(r)
					}
				case len(rights) == len(lefts):
					ref = x.goExprType(rights[k])
					fres = res(rights[k])
				case k == 0 && len(rights) == 1:
					ref = x.goExprType(rights[0])
				case len(rights) == 1 && t.kind(rights[0]) == "call_expression":
					if rt := x.goExprType(rights[0]); strings.HasSuffix(rt, ")") || (rt != "" && rt[0] == '=' && !strings.Contains(rt, " ")) {
						ref = rt + "@" + strconv.Itoa(k)
					}
				}
				set(t.text(c), ref, j)
			}
		case "var_spec":
			ty := t.field(j, "type")
			ref := x.goTypeRef(ty)
			var vals []int32
			if v := t.field(j, "value"); v >= 0 {
				for c := t.first(v); c >= 0; c = t.next(c) {
					if t.named(c) {
						vals = append(vals, c)
					}
				}
			}
			nameF := t.g.field("name")
			k := 0
			for c := t.first(j); c >= 0; c = t.next(c) {
				if t.nodes[c].field == nameF {
					r := ref
					fres = res(ty)
					if ty < 0 && len(vals) > k {
						r = x.goExprType(vals[k])
						fres = res(vals[k])
					}
					set(t.text(c), r, j)
					k++
				}
			}
		case "type_spec", "type_alias":
			// a local type: an anonymous struct under a name (a table
			// of test cases), an alias; another is of unknown type
			// (it has no methods, and hides a package type's name)
			ref := ""
			if ty := t.field(j, "type"); t.kind(ty) == "struct_type" || t.kind(j) == "type_alias" {
				ref = x.goTypeRef(ty)
			}
			if g.ltypes == nil {
				g.ltypes = map[string]string{}
			}
			g.ltypes[t.text(t.field(j, "name"))] = ref
		case "type_switch_statement":
			a := t.field(j, "alias")
			if a < 0 {
				break
			}
			var names []int32
			for c := t.first(a); c >= 0; c = t.next(c) {
				if t.kind(c) == "identifier" {
					names = append(names, c)
				}
			}
			if len(names) != 1 || t.text(names[0]) == "_" {
				for _, c := range names {
					set(t.text(c), "", a)
				}
				break
			}
			// switch x := v.(type): in a clause naming one type, x has
			// that type; in the others (several types, default) the type
			// of v; each binding is the clause's scope.
			name := t.text(names[0])
			vt := x.goExprType(t.field(j, "value"))
			typeF := t.g.field("type")
			for c := t.first(j); c >= 0; c = t.next(c) {
				if k := t.kind(c); k != "type_case" && k != "default_case" {
					continue
				}
				ref, n := vt, 0
				for ty := t.first(c); ty >= 0; ty = t.next(ty) {
					if t.nodes[ty].field == typeF {
						n++
						ref = x.goTypeRef(ty)
						if t.text(ty) == "nil" {
							ref = vt
						}
					}
				}
				if n > 1 {
					ref = vt
				}
				g.locals[name] = append(g.locals[name], goLocal{pos: t.nodes[c].start, end: t.nodes[c].end, ref: ref})
			}
		}
	}
	for _, ds := range g.locals {
		slices.SortStableFunc(ds, func(a, b goLocal) int { return int(a.pos) - int(b.pos) })
	}
}

// goImportOf is the import path op names when op is an identifier that is
// an imported package's name, not shadowed by a local at that point.
func (x *extractor) goImportOf(op int32) (string, bool) {
	t, g := x.t, x.gx
	if t.kind(op) != "identifier" {
		return "", false
	}
	if _, local := g.local(t.text(op), t.nodes[op].start); local {
		return "", false
	}
	p, ok := g.imports[t.text(op)]
	return p, ok
}

// goExprType is the Recv notation of an expression's type, "" when the
// function's declarations do not tell.
func (x *extractor) goExprType(e int32) string {
	t := x.t
	g := x.gx
	for depth := 0; e >= 0 && depth < 32; depth++ {
		switch t.kind(e) {
		case "parenthesized_expression":
			e = t.firstNamed(e)
		case "unary_expression":
			op := t.field(e, "operator")
			switch t.text(op) {
			case "&", "*":
				e = t.field(e, "operand")
			case "-", "+", "^": // the operand's type
				e = t.field(e, "operand")
			case "!":
				return "!bool"
			case "<-": // a value received from a channel
				b := x.goExprType(t.field(e, "operand"))
				if b == "" {
					return ""
				}
				return b + " []"
			default:
				return ""
			}
		case "slice_expression": // s[i:j] is s's type
			e = t.field(e, "operand")
		case "binary_expression":
			// a comparison is a bool; a shift has its left operand's
			// type; other operators have both operands' type (an
			// untyped literal takes the other's)
			l, r := t.field(e, "left"), t.field(e, "right")
			switch t.text(t.field(e, "operator")) {
			case "==", "!=", "<", "<=", ">", ">=", "&&", "||":
				return "!bool"
			case "<<", ">>":
				e = l
				continue
			}
			if goLiteral(t.kind(l)) {
				e = r
				continue
			}
			if lt := x.goExprType(l); lt != "" || goLiteral(t.kind(r)) {
				return lt
			}
			e = r
		case "composite_literal":
			return x.goTypeRef(t.field(e, "type"))
		case "type_conversion_expression":
			// New[K, V](size), parsed as a conversion to a generic type:
			// the result of New, or the generic type New
			ty := t.field(e, "type")
			if t.kind(ty) != "generic_type" {
				return x.goTypeRef(ty)
			}
			switch base := t.field(ty, "type"); t.kind(base) {
			case "type_identifier":
				return "=" + t.text(base)
			case "qualified_type":
				if p, ok := g.imports[t.text(t.field(base, "package"))]; ok {
					return "=" + p + "#" + t.text(t.field(base, "name"))
				}
			}
			return ""
		case "type_assertion_expression":
			return x.goTypeRef(t.field(e, "type"))
		case "type_instantiation_expression":
			// F[A, B] as a value: the generic function F, instantiated
			// (F[A], one argument, parses as an index expression)
			switch base := t.field(e, "type"); t.kind(base) {
			case "type_identifier":
				return "$" + t.text(base)
			case "qualified_type":
				if p, ok := g.imports[t.text(t.field(base, "package"))]; ok {
					return "$" + p + "#" + t.text(t.field(base, "name"))
				}
			}
			return ""
		case "identifier":
			n := t.text(e)
			if ref, ok := g.local(n, t.nodes[e].start); ok {
				return ref
			}
			if _, ok := g.imports[n]; ok {
				return ""
			}
			return "$" + n
		case "selector_expression":
			op, f := t.field(e, "operand"), t.text(t.field(e, "field"))
			if p, ok := x.goImportOf(op); ok {
				return "$" + p + "#" + f
			}
			b := x.goExprType(op)
			if b == "" {
				return ""
			}
			if goAnon(b) {
				return x.goAnonMember(b, f, false)
			}
			return b + " ." + f
		case "index_expression":
			b := x.goExprType(t.field(e, "operand"))
			if b == "" {
				return ""
			}
			return b + " []"
		case "call_expression":
			fn := t.field(e, "function")
			switch t.kind(fn) {
			case "identifier":
				n := t.text(fn)
				if d := g.localDecl(n, t.nodes[fn].start); d != nil {
					return d.res // a local function value: its literal's or type's result
				}
				switch n {
				case "new", "make": // new(T), make(T, n)
					if a := t.field(e, "arguments"); a >= 0 {
						return x.goTypeRef(t.firstNamed(a))
					}
					return ""
				case "append": // append(s, …) is s's type
					if a := t.field(e, "arguments"); a >= 0 {
						return x.goExprType(t.firstNamed(a))
					}
					return ""
				}
				if goUniverse[n] {
					return "!" + n
				}
				return "=" + n
			case "selector_expression":
				op, f := t.field(fn, "operand"), t.text(t.field(fn, "field"))
				if p, ok := x.goImportOf(op); ok {
					return "=" + p + "#" + f
				}
				b := x.goExprType(op)
				if b == "" {
					return ""
				}
				if goAnon(b) {
					return x.goAnonMember(b, f, true)
				}
				return b + " ." + f + "()"
			case "parenthesized_expression", "type_identifier", "qualified_type", "pointer_type":
				// conversion (T)(x) / T(x)
				if ty := t.firstNamed(fn); t.kind(fn) == "parenthesized_expression" && ty >= 0 {
					return x.goTypeRef(ty)
				}
				return x.goTypeRef(fn)
			}
			return ""
		default:
			return ""
		}
	}
	return ""
}

// goAnon reports whether a type reference involves an anonymous struct
// ("~N", goTypeRef).
func goAnon(ref string) bool { return strings.IndexByte(ref, '~') >= 0 }

// goAnonStruct is the struct_type node of an anonymous struct reference
// whose slice/map levels ("[]" prefixes) are all taken by element
// selections (" []" suffixes), -1 otherwise.
func (x *extractor) goAnonStruct(ref string) int32 {
	pre, post := 0, 0
	for strings.HasPrefix(ref, "[]") {
		pre++
		ref = ref[2:]
	}
	for strings.HasSuffix(ref, " []") {
		post++
		ref = ref[:len(ref)-3]
	}
	if pre != post || len(ref) < 2 || ref[0] != '~' {
		return -1
	}
	n, err := strconv.Atoi(ref[1:])
	if err != nil || n < 0 || n >= len(x.t.nodes) || x.t.kind(int32(n)) != "struct_type" {
		return -1
	}
	return int32(n)
}

// goAnonMember is the type of field f of an anonymous struct value (ref),
// or of the result of calling its member f (call): a named field's
// declared type (for a call, the first result of its function type),
// else a member promoted from its only embedded field; "" when unknown.
func (x *extractor) goAnonMember(ref, f string, call bool) string {
	t := x.t
	st := x.goAnonStruct(ref)
	if st < 0 {
		return ""
	}
	var embedded []int32
	fl := t.childKind(st, "field_declaration_list")
	for d := t.first(fl); d >= 0; d = t.next(d) {
		if t.kind(d) != "field_declaration" {
			continue
		}
		named := false
		for c := t.first(d); c >= 0; c = t.next(c) {
			if t.kind(c) == "field_identifier" {
				named = true
				if t.text(c) == f {
					ft := t.field(d, "type")
					if call { // a function-typed field: its (first) result
						if t.kind(ft) != "function_type" {
							return ""
						}
						r, _, _ := strings.Cut(x.goResultRef(t.field(ft, "result")), ";")
						return r
					}
					return x.goTypeRef(ft)
				}
			}
		}
		if !named {
			embedded = append(embedded, d)
		}
	}
	if len(embedded) != 1 {
		return ""
	}
	e := x.goTypeRef(t.field(embedded[0], "type"))
	if e == "" || goAnon(e) {
		return ""
	}
	if call {
		return e + " ." + f + "()"
	}
	return e + " ." + f
}

// goAnonRecv is the receiver notation of a call of m on a value of an
// anonymous struct type: "?field" when m is a field (holding a function),
// else its only embedded field's type (whose method set the struct's is),
// "?" otherwise.
func (x *extractor) goAnonRecv(ref, m string) string {
	t := x.t
	st := x.goAnonStruct(ref)
	if st < 0 {
		return "?"
	}
	emb := ""
	fl := t.childKind(st, "field_declaration_list")
	for d := t.first(fl); d >= 0; d = t.next(d) {
		if t.kind(d) != "field_declaration" {
			continue
		}
		for c := t.first(d); c >= 0; c = t.next(c) {
			if t.kind(c) == "field_identifier" && t.text(c) == m {
				return "?field"
			}
		}
		if t.field(d, "name") < 0 {
			if emb != "" {
				return "?"
			}
			if emb = x.goTypeRef(t.field(d, "type")); emb == "" {
				return "?"
			}
		}
	}
	if emb == "" || goAnon(emb) {
		return "?"
	}
	return emb
}

// goLiteral reports whether a node kind is a literal of a basic type (an
// untyped constant).
func goLiteral(kind string) bool {
	switch kind {
	case "int_literal", "float_literal", "imaginary_literal", "rune_literal",
		"interpreted_string_literal", "raw_string_literal", "iota", "true", "false", "nil":
		return true
	}
	return false
}
