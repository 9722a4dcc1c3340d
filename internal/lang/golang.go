package lang

import "strings"

// goSpec: type specs are type chunks, functions and methods (receiver type as
// container) are function/method chunks, embedded struct fields and
// embedded interfaces are extends.
var goSpec = &spec{
	roles: map[string]role{
		"type_spec":            roleType,
		"type_alias":           roleType,
		"function_declaration": roleFunc,
		"method_declaration":   roleFunc,
		"call_expression":      roleCall,
		// f[T](x): an explicit instantiation called with one argument
		// parses as a conversion to a generic type
		"type_conversion_expression": roleCall,
		"import_spec":                roleImport,
	},
	docKinds: map[string]bool{"comment": true},
	builtins: wordSet(`append cap clear close complex copy delete imag len make max min new panic print println real recover
		any bool byte comparable complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string
		uint uint8 uint16 uint32 uint64 uintptr`),
	prepare:  goPrepare,
	typeDecl: goType,
	funcDecl: goFunc,
	call:     goCall,
	imports: func(x *extractor, i int32) {
		t := x.t
		if p := t.field(i, "path"); p >= 0 {
			x.addImport(unquote(t.text(p)), t.line(i))
		}
	},
	noise: func(x *extractor, i int32) bool {
		switch x.t.kind(i) {
		case "package_clause", "import_declaration":
			return true
		}
		return false
	},
	declNames: goDeclNames,
	stdlib: func(target string) bool {
		first, _, _ := strings.Cut(target, "/")
		return !strings.Contains(first, ".")
	},
}

func goType(x *extractor, i int32) (typeDecl, bool) {
	t := x.t
	d := typeDecl{name: t.text(t.field(i, "name"))}
	// a lone spec spans its "type" keyword too
	if p := t.parent(i); p >= 0 && t.kind(p) == "type_declaration" {
		specs := 0
		for c := t.first(p); c >= 0; c = t.next(c) {
			if k := t.kind(c); k == "type_spec" || k == "type_alias" {
				specs++
			}
		}
		if specs == 1 {
			d.outer = p
		} else {
			x.claimed[p] = true // a type ( ... ) group holds nothing but type chunks
		}
	}
	ty := t.field(i, "type")
	switch t.kind(ty) {
	case "struct_type":
		fl := t.childKind(ty, "field_declaration_list")
		for f := t.first(fl); f >= 0; f = t.next(f) {
			if t.kind(f) == "field_declaration" && t.field(f, "name") < 0 {
				d.extends = append(d.extends, simpleName(t.text(t.field(f, "type"))))
			}
		}
	case "interface_type":
		for e := t.first(ty); e >= 0; e = t.next(e) {
			if t.kind(e) != "type_elem" {
				continue
			}
			c := t.first(e)
			if c >= 0 && t.next(c) < 0 {
				switch t.kind(c) {
				case "type_identifier", "qualified_type", "generic_type":
					d.extends = append(d.extends, simpleName(t.text(c)))
				}
			}
		}
	}
	return d, true
}

func goFunc(x *extractor, i int32) (funcDecl, bool) {
	t := x.t
	d := funcDecl{name: t.text(t.field(i, "name")), params: t.text(t.field(i, "parameters"))}
	x.goFuncLocals(i)
	if r := t.field(i, "receiver"); r >= 0 {
		if pd := t.childKind(r, "parameter_declaration"); pd >= 0 {
			d.container = simpleName(t.text(t.field(pd, "type")))
			d.method = d.container != ""
		}
	}
	x.goRefs(i, d)
	return d, true
}

func goCall(x *extractor, i int32, fn string) {
	t := x.t
	g := x.gx
	if t.kind(i) == "type_conversion_expression" {
		// New[K, V](size) parses as a conversion to the generic type
		// New[K, V]: a call of New (or a conversion to a generic type
		// New, which resolution tells apart)
		ty := t.field(i, "type")
		if t.kind(ty) != "generic_type" {
			return
		}
		switch base := t.field(ty, "type"); t.kind(base) {
		case "type_identifier":
			x.addCall(fn, t.text(base), "", t.line(i))
		case "qualified_type":
			q := t.text(t.field(base, "package"))
			if p, ok := g.imports[q]; ok {
				x.addCallRecv(fn, t.text(t.field(base, "name")), q, "pkg:"+p, t.line(i))
			}
		}
		return
	}
	f := t.field(i, "function")
	for f >= 0 && t.kind(f) == "parenthesized_expression" {
		f = t.first(f)
		for f >= 0 && !t.named(f) {
			f = t.next(f)
		}
	}
	if f < 0 {
		return
	}
	switch t.kind(f) {
	case "identifier":
		name := t.text(f)
		if _, local := g.local(name, t.nodes[f].start); local {
			x.addCallRecv(fn, name, "", "?local", t.line(i))
			return
		}
		if _, local := g.ltypes[name]; local {
			return // a conversion to a type the function declares calls nothing
		}
		x.addCall(fn, name, "", t.line(i))
	case "selector_expression":
		q, recv := "", ""
		op := t.field(f, "operand")
		if t.kind(op) == "identifier" {
			q = t.text(op)
			if _, local := g.local(q, t.nodes[op].start); !local {
				if p, ok := g.imports[q]; ok {
					recv = "pkg:" + p
				}
			}
		}
		if recv == "" {
			recv = x.goExprType(op)
			if goAnon(recv) {
				recv = x.goAnonRecv(recv, t.text(t.field(f, "field")))
			}
			if recv == "" {
				recv = "?"
			}
		}
		x.addCallRecv(fn, t.text(t.field(f, "field")), q, recv, t.line(i))
	case "index_expression", "generic_type": // explicit instantiation f[T](x)
		if op := t.field(f, "operand"); op >= 0 && t.kind(op) == "identifier" {
			x.addCall(fn, t.text(op), "", t.line(i))
		} else if op >= 0 && t.kind(op) == "selector_expression" {
			if o := t.field(op, "operand"); t.kind(o) == "identifier" {
				if p, ok := g.imports[t.text(o)]; ok {
					x.addCallRecv(fn, t.text(t.field(op, "field")), t.text(o), "pkg:"+p, t.line(i))
				}
			}
		}
	}
}

func goDeclNames(x *extractor, i int32, out []string) []string {
	t := x.t
	switch t.kind(i) {
	case "var_declaration", "const_declaration":
		end := t.subtreeEnd(i)
		nameF := t.g.field("name")
		for j := i + 1; j < end; j++ {
			if k := t.kind(j); k == "var_spec" || k == "const_spec" {
				for c := t.first(j); c >= 0; c = t.next(c) {
					if t.nodes[c].field == nameF {
						out = append(out, t.text(c))
					}
				}
				j = t.subtreeEnd(j) - 1
			}
		}
	}
	return out
}

// unquote strips one level of matching quotes ("x", 'x', `x`).
func unquote(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 {
		switch s[0] {
		case '"', '\'', '`':
			if s[len(s)-1] == s[0] {
				return s[1 : len(s)-1]
			}
		}
	}
	return s
}
