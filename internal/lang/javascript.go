package lang

import "strings"

// jsSpec serves JavaScript, TypeScript and TSX: classes, interfaces, enums
// and type aliases are type chunks; function declarations, methods and
// arrow functions / function expressions bound to a name (variable, class
// field, assignment, object key) are function/method chunks.
var jsSpec = &spec{
	roles: map[string]role{
		"class_declaration":              roleType,
		"abstract_class_declaration":     roleType,
		"interface_declaration":          roleType,
		"enum_declaration":               roleType,
		"type_alias_declaration":         roleType,
		"function_declaration":           roleFunc,
		"generator_function_declaration": roleFunc,
		"method_definition":              roleFunc,
		"arrow_function":                 roleFunc,
		"function_expression":            roleFunc,
		"function":                       roleFunc,
		"generator_function":             roleFunc,
		"call_expression":                roleCall,
		"new_expression":                 roleCall,
		"import_statement":               roleImport,
		"export_statement":               roleImport,
	},
	docKinds:    map[string]bool{"comment": true},
	attrKinds:   map[string]bool{"decorator": true},
	typeDecl:    jsType,
	funcDecl:    jsFunc,
	call:        jsCall,
	imports:     jsImports,
	transparent: jsTransparent,
	noise: func(x *extractor, i int32) bool {
		t := x.t
		switch t.kind(i) {
		case "import_statement", "hash_bang_line", "empty_statement":
			return true
		case "export_statement": // re-export: export { a } from './a'
			return t.field(i, "source") >= 0
		case "expression_statement": // "use strict"
			c := t.first(i)
			return c >= 0 && t.kind(c) == "string"
		case "lexical_declaration", "variable_declaration": // const x = require('x')
			n := 0
			for c := t.first(i); c >= 0; c = t.next(c) {
				if t.kind(c) != "variable_declarator" {
					continue
				}
				v := t.field(c, "value")
				if t.kind(v) != "call_expression" || t.text(t.field(v, "function")) != "require" {
					return false
				}
				n++
			}
			return n > 0
		}
		return false
	},
	declNames: jsDeclNames,
	prepare:   jsPrepare,
	stdlib: func(target string) bool {
		if strings.HasPrefix(target, "node:") {
			return true
		}
		return nodeBuiltins[target]
	},
}

// jsExported returns the export_statement wrapping declaration i, or i.
func jsExported(t *tree, i int32) int32 {
	if p := t.parent(i); p >= 0 && t.kind(p) == "export_statement" {
		return p
	}
	return i
}

// jsDecorators returns the decorator children of node i.
func jsDecorators(t *tree, i int32, out []string) []string {
	for c := t.first(i); c >= 0; c = t.next(c) {
		if t.kind(c) == "decorator" {
			out = append(out, decorator(t.text(c)))
		}
	}
	return out
}

var jsTypeKinds = []string{"identifier", "type_identifier", "member_expression", "nested_type_identifier", "generic_type", "nested_identifier"}

func jsType(x *extractor, i int32) (typeDecl, bool) {
	t := x.t
	d := typeDecl{name: t.text(t.field(i, "name"))}
	outer := jsExported(t, i)
	if outer != i {
		d.outer = outer
		d.decorators = jsDecorators(t, outer, nil)
	}
	d.decorators = jsDecorators(t, i, d.decorators)
	for c := t.first(i); c >= 0; c = t.next(c) {
		switch t.kind(c) {
		case "class_heritage":
			for h := t.first(c); h >= 0; h = t.next(h) {
				switch t.kind(h) {
				case "extends_clause": // TypeScript
					for v := t.first(h); v >= 0; v = t.next(v) {
						if t.nodes[v].field == t.g.field("value") {
							d.extends = append(d.extends, simpleName(t.text(v)))
						}
					}
				case "implements_clause":
					d.implements = typeList(t, h, d.implements, jsTypeKinds...)
				case "identifier", "member_expression", "call_expression": // JavaScript
					d.extends = append(d.extends, simpleName(t.text(h)))
				}
			}
		case "extends_type_clause": // interface
			d.extends = typeList(t, c, d.extends, jsTypeKinds...)
		}
	}
	return d, true
}

// jsName returns the name a property/variable node stands for.
func jsName(t *tree, n int32) string {
	switch t.kind(n) {
	case "identifier", "property_identifier", "private_property_identifier", "shorthand_property_identifier":
		return t.text(n)
	case "string":
		return unquote(t.text(n))
	case "member_expression":
		return t.text(t.field(n, "property"))
	case "computed_property_name":
		return ""
	}
	return ""
}

func jsFunc(x *extractor, i int32) (funcDecl, bool) {
	t := x.t
	d := funcDecl{params: t.text(t.field(i, "parameters"))}
	if d.params == "" {
		d.params = t.text(t.field(i, "parameter")) // x => ...
	}
	switch t.kind(i) {
	case "function_declaration", "generator_function_declaration":
		d.name = t.text(t.field(i, "name"))
		d.outer = jsExported(t, i)
		return d, true
	case "method_definition":
		d.name = jsName(t, t.field(i, "name"))
		d.decorators = jsDecorators(t, i, nil)
		if p := t.parent(i); p >= 0 && t.kind(p) != "class_body" {
			d.function = true // object literal member
		}
		return d, true
	}
	// arrow functions and function expressions count when bound to a name
	p := t.parent(i)
	if p < 0 {
		return d, false
	}
	switch t.kind(p) {
	case "variable_declarator":
		if t.field(p, "value") != i {
			return d, false
		}
		d.name = jsName(t, t.field(p, "name"))
		d.outer = p
		if decl := t.parent(p); decl >= 0 && t.countKind(decl, "variable_declarator") == 1 {
			d.outer = jsExported(t, decl)
		}
	case "assignment_expression":
		if t.field(p, "right") != i {
			return d, false
		}
		d.name = jsName(t, t.field(p, "left"))
		d.outer = p
		if s := t.parent(p); s >= 0 && t.kind(s) == "expression_statement" {
			d.outer = s
		}
		d.function = true
	case "field_definition", "public_field_definition":
		d.name = jsName(t, t.field(p, "property"))
		if d.name == "" {
			d.name = jsName(t, t.field(p, "name"))
		}
		d.outer = p
		d.decorators = jsDecorators(t, p, nil)
	case "pair":
		if t.field(p, "value") != i {
			return d, false
		}
		d.name = jsName(t, t.field(p, "key"))
		d.outer = p
		d.function = true
	default:
		return d, false
	}
	return d, d.name != ""
}

func jsCall(x *extractor, i int32, fn string) {
	t := x.t
	var f int32
	if t.kind(i) == "new_expression" {
		f = t.field(i, "constructor")
	} else {
		f = t.field(i, "function")
	}
	for f >= 0 {
		switch t.kind(f) {
		case "await_expression", "parenthesized_expression", "non_null_expression":
			f = t.firstNamed(f)
			continue
		}
		break
	}
	if f < 0 {
		return
	}
	switch t.kind(f) {
	case "identifier":
		name := t.text(f)
		if name == "require" {
			if s := jsStringArg(t, i); s != "" {
				x.addImport(s, t.line(i))
				return
			}
		}
		recv := ""
		if t.kind(i) == "new_expression" {
			if ty := jType(t, f); ty != "" {
				recv = "new " + ty
			}
		} else if local, ty := x.jLocal(f, name); local && ty != "!function" {
			recv = "?local" // a parameter or local holding a function value
		}
		x.addCallRecv(fn, name, "", recv, t.line(i))
	case "import": // dynamic import('x')
		if s := jsStringArg(t, i); s != "" {
			x.addImport(s, t.line(i))
		}
	case "member_expression":
		q, recv := "", ""
		if o := t.field(f, "object"); o >= 0 {
			switch t.kind(o) {
			case "identifier", "this", "super":
				q = t.text(o)
			}
			switch {
			case t.kind(i) == "new_expression":
				if ty := jType(t, f); ty != "" {
					recv = "new " + ty
				}
			default:
				recv = x.jRecv(o, 0)
				if recv == "this" && q == "this" {
					recv = "" // this.m(): the caller's own type
				}
			}
		}
		x.addCallRecv(fn, jsName(t, t.field(f, "property")), q, recv, t.line(i))
	}
}

// jsStringArg returns the first argument of call i when it is a plain string.
func jsStringArg(t *tree, i int32) string {
	a := t.field(i, "arguments")
	s := t.firstNamed(a)
	if s < 0 || t.kind(s) != "string" {
		return ""
	}
	return unquote(t.text(s))
}

func jsImports(x *extractor, i int32) {
	t := x.t
	if s := t.field(i, "source"); s >= 0 {
		x.addImport(unquote(t.text(s)), t.line(i))
	}
}

func jsTransparent(x *extractor, i int32) int32 {
	t := x.t
	n := i
	switch t.kind(n) {
	case "expression_statement", "ambient_declaration", "export_statement":
		c := t.firstNamed(n)
		if c < 0 {
			return -1
		}
		n = c
	}
	switch t.kind(n) {
	case "internal_module", "module":
		return t.field(n, "body")
	}
	return -1
}

func jsDeclNames(x *extractor, i int32, out []string) []string {
	t := x.t
	switch t.kind(i) {
	case "export_statement":
		if d := t.field(i, "declaration"); d >= 0 {
			return jsDeclNames(x, d, out)
		}
	case "lexical_declaration", "variable_declaration":
		for c := t.first(i); c >= 0; c = t.next(c) {
			if t.kind(c) == "variable_declarator" {
				if n := jsName(t, t.field(c, "name")); n != "" {
					out = append(out, n)
				}
			}
		}
	case "expression_statement":
		if a := t.firstNamed(i); a >= 0 && t.kind(a) == "assignment_expression" {
			if l := t.text(t.field(a, "left")); len(l) <= 40 {
				out = append(out, collapse(l))
			}
		}
	}
	return out
}
