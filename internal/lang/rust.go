package lang

import "strings"

// rustSpec: struct/enum/union/trait/impl items are type chunks (an impl is
// named by its type, its trait is implemented), fn items are
// function/method chunks, outer attributes are decorators, calls inside
// macro token trees are found heuristically (ident followed by "(...)").
var rustSpec = &spec{
	roles: map[string]role{
		"struct_item":              roleType,
		"enum_item":                roleType,
		"union_item":               roleType,
		"trait_item":               roleType,
		"impl_item":                roleType,
		"function_item":            roleFunc,
		"function_signature_item":  roleFunc,
		"call_expression":          roleCall,
		"token_tree":               roleCall,
		"use_declaration":          roleImport,
		"extern_crate_declaration": roleImport,
	},
	docKinds:    map[string]bool{"line_comment": true, "block_comment": true},
	attrKinds:   map[string]bool{"attribute_item": true},
	typeDecl:    rustType,
	funcDecl:    rustFunc,
	call:        rustCall,
	imports:     rustImports,
	transparent: rustTransparent,
	noise: func(x *extractor, i int32) bool {
		t := x.t
		switch t.kind(i) {
		case "use_declaration", "extern_crate_declaration", "inner_attribute_item":
			return true
		case "mod_item": // mod foo;
			return t.field(i, "body") < 0
		}
		return false
	},
	declNames: func(x *extractor, i int32, out []string) []string {
		t := x.t
		switch t.kind(i) {
		case "const_item", "static_item", "type_item", "macro_definition", "mod_item":
			if n := t.text(t.field(i, "name")); n != "" {
				out = append(out, n)
			}
		}
		return out
	},
	stdlib: func(target string) bool {
		first, _, _ := strings.Cut(strings.TrimPrefix(target, "::"), "::")
		return first == "std" || first == "core" || first == "alloc"
	},
}

func rustType(x *extractor, i int32) (typeDecl, bool) {
	t := x.t
	if t.kind(i) == "impl_item" {
		d := typeDecl{name: simpleName(t.text(t.field(i, "type")))}
		if tr := t.field(i, "trait"); tr >= 0 {
			d.implements = []string{simpleName(t.text(tr))}
		}
		return d, d.name != ""
	}
	d := typeDecl{name: t.text(t.field(i, "name"))}
	if b := t.field(i, "bounds"); b >= 0 { // trait Area: Display
		for c := t.first(b); c >= 0; c = t.next(c) {
			switch t.kind(c) {
			case "type_identifier", "scoped_type_identifier", "generic_type":
				d.extends = append(d.extends, simpleName(t.text(c)))
			}
		}
	}
	return d, true
}

func rustFunc(x *extractor, i int32) (funcDecl, bool) {
	t := x.t
	return funcDecl{name: t.text(t.field(i, "name")), params: t.text(t.field(i, "parameters"))}, true
}

func rustCall(x *extractor, i int32, fn string) {
	t := x.t
	if t.kind(i) == "token_tree" {
		rustMacroCalls(x, i, fn)
		return
	}
	f := t.field(i, "function")
	if t.kind(f) == "generic_function" { // f::<T>()
		f = t.field(f, "function")
	}
	switch t.kind(f) {
	case "identifier":
		x.addCall(fn, t.text(f), "", t.line(i))
	case "field_expression":
		q := ""
		if v := t.field(f, "value"); v >= 0 && (t.kind(v) == "identifier" || t.kind(v) == "self") {
			q = t.text(v)
		}
		x.addCall(fn, t.text(t.field(f, "field")), q, t.line(i))
	case "scoped_identifier":
		q := ""
		if p := t.field(f, "path"); p >= 0 {
			switch t.kind(p) {
			case "identifier", "self", "super", "crate":
				q = t.text(p)
			default:
				q = simpleName(t.text(p))
			}
		}
		x.addCall(fn, t.text(t.field(f, "name")), q, t.line(i))
	}
}

// rustMacroCalls finds "name(" and "recv.name(" patterns among the tokens
// of a macro invocation, whose arguments tree-sitter leaves unparsed.
func rustMacroCalls(x *extractor, i int32, fn string) {
	t := x.t
	if fn == "" {
		return
	}
	var s3, s2, s1 int32 = -1, -1, -1 // the three previous siblings of c
	for c := t.first(i); c >= 0; c = t.next(c) {
		if t.kind(c) == "token_tree" && s1 >= 0 && t.kind(s1) == "identifier" &&
			t.nodes[c].start == t.nodes[s1].end && t.src[t.nodes[c].start] == '(' {
			q := ""
			if s2 >= 0 && s3 >= 0 && (t.kind(s2) == "." || t.kind(s2) == "::") {
				if k := t.kind(s3); k == "identifier" || k == "self" {
					q = t.text(s3)
				}
			}
			x.addCall(fn, t.text(s1), q, t.line(s1))
		}
		s3, s2, s1 = s2, s1, c
	}
}

func rustImports(x *extractor, i int32) {
	t := x.t
	if t.kind(i) == "extern_crate_declaration" {
		x.addImport(t.text(t.field(i, "name")), t.line(i))
		return
	}
	a := t.field(i, "argument")
	var target string
	switch t.kind(a) {
	case "scoped_use_list":
		target = t.text(t.field(a, "path"))
	case "use_as_clause":
		target = t.text(t.field(a, "path"))
	case "use_wildcard":
		target = strings.TrimSuffix(t.text(a), "::*")
	case "use_list":
		return
	default:
		target = t.text(a)
	}
	switch target = collapse(target); target {
	case "self", "super", "crate":
		return // use super::*; names no module
	}
	x.addImport(target, t.line(i))
}

func rustTransparent(x *extractor, i int32) int32 {
	if x.t.kind(i) == "mod_item" {
		return x.t.field(i, "body")
	}
	return -1
}
