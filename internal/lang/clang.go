package lang

import "strings"

// cSpec: struct/union/enum specifiers with a body are type chunks (named by
// their typedef name when they have one), function definitions are function
// chunks, "local.h" includes are imports (<system> includes are left out).
// Preprocessor conditionals are looked through for top-level items.
var cSpec = &spec{
	roles: map[string]role{
		"struct_specifier":    roleType,
		"union_specifier":     roleType,
		"enum_specifier":      roleType,
		"function_definition": roleFunc,
		"call_expression":     roleCall,
		"preproc_include":     roleImport,
	},
	docKinds:    map[string]bool{"comment": true},
	typeDecl:    cType,
	funcDecl:    cFunc,
	call:        cCall,
	imports:     cImports,
	transparent: cTransparent,
	noise:       cNoise,
	declNames:   cDeclNames,
}

// cppSpec extends cSpec with classes (bases are extends), namespaces
// (looked through), templates, out-of-class method definitions
// ("Foo::bar" is a method of Foo) and new expressions.
var cppSpec = &spec{
	roles: map[string]role{
		"struct_specifier":    roleType,
		"union_specifier":     roleType,
		"enum_specifier":      roleType,
		"class_specifier":     roleType,
		"function_definition": roleFunc,
		"call_expression":     roleCall,
		"new_expression":      roleCall,
		"preproc_include":     roleImport,
	},
	docKinds:    map[string]bool{"comment": true},
	typeDecl:    cType,
	funcDecl:    cFunc,
	call:        cCall,
	imports:     cImports,
	transparent: cTransparent,
	noise:       cNoise,
	declNames:   cDeclNames,
}

// cOuter climbs the wrappers of a C/C++ declaration (template, typedef,
// declaration with declarators, field declaration).
func cOuter(t *tree, i int32) int32 {
	outer := i
	for {
		p := t.parent(outer)
		if p < 0 {
			return outer
		}
		switch t.kind(p) {
		case "template_declaration", "type_definition", "declaration":
			outer = p
			continue
		case "field_declaration":
			outer = p
		}
		return outer
	}
}

func cType(x *extractor, i int32) (typeDecl, bool) {
	t := x.t
	if t.field(i, "body") < 0 {
		return typeDecl{}, false // forward declaration or use of the type
	}
	d := typeDecl{name: simpleName(t.text(t.field(i, "name")))}
	outer := cOuter(t, i)
	if outer != i {
		d.outer = outer
	}
	if td := t.parent(i); td >= 0 && t.kind(td) == "type_definition" {
		if n := t.field(td, "declarator"); n >= 0 && t.kind(n) == "type_identifier" {
			d.name = t.text(n)
		}
	}
	if b := t.childKind(i, "base_class_clause"); b >= 0 {
		for c := t.first(b); c >= 0; c = t.next(c) {
			switch t.kind(c) {
			case "type_identifier", "template_type", "qualified_identifier":
				d.extends = append(d.extends, simpleName(t.text(c)))
			}
		}
	}
	return d, d.name != ""
}

// cDeclarator follows a declarator chain down to the function declarator.
func cDeclarator(t *tree, d int32) int32 {
	for d >= 0 {
		switch t.kind(d) {
		case "function_declarator":
			return d
		case "pointer_declarator", "reference_declarator", "parenthesized_declarator", "attributed_declarator":
			d = t.field(d, "declarator")
			if d < 0 {
				return -1
			}
		default:
			return -1
		}
	}
	return -1
}

func cFunc(x *extractor, i int32) (funcDecl, bool) {
	t := x.t
	fd := cDeclarator(t, t.field(i, "declarator"))
	if fd < 0 {
		return funcDecl{}, false
	}
	d := funcDecl{params: t.text(t.field(fd, "parameters"))}
	if outer := cOuter(t, i); outer != i {
		d.outer = outer
	}
	n := t.field(fd, "declarator")
	switch t.kind(n) {
	case "qualified_identifier": // Foo::bar or ns::Foo::bar
		name := t.text(n)
		if k := strings.LastIndex(name, "::"); k >= 0 {
			d.name = name[k+2:]
			d.container = simpleName(stripTemplateArgs(name[:k]))
			d.method = d.container != ""
		}
	case "identifier", "field_identifier", "destructor_name", "operator_name":
		d.name = t.text(n)
	default:
		d.name = collapse(t.text(n))
	}
	return d, d.name != ""
}

// stripTemplateArgs removes <...> sections ("Box<T>::get" scope -> "Box").
func stripTemplateArgs(s string) string {
	if !strings.Contains(s, "<") {
		return s
	}
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '<':
			depth++
		case r == '>' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func cCall(x *extractor, i int32, fn string) {
	t := x.t
	if t.kind(i) == "new_expression" {
		x.addCall(fn, simpleName(t.text(t.field(i, "type"))), "", t.line(i))
		return
	}
	f := t.field(i, "function")
	switch t.kind(f) {
	case "identifier":
		x.addCall(fn, t.text(f), "", t.line(i))
	case "field_expression":
		q := ""
		if a := t.field(f, "argument"); a >= 0 && (t.kind(a) == "identifier" || t.kind(a) == "this") {
			q = t.text(a)
		}
		x.addCall(fn, simpleName(t.text(t.field(f, "field"))), q, t.line(i))
	case "qualified_identifier":
		name := stripTemplateArgs(t.text(f))
		q := ""
		if k := strings.LastIndex(name, "::"); k >= 0 {
			q, name = simpleName(name[:k]), name[k+2:]
		}
		x.addCall(fn, simpleName(name), q, t.line(i))
	case "template_function":
		x.addCall(fn, t.text(t.field(f, "name")), "", t.line(i))
	}
}

func cImports(x *extractor, i int32) {
	t := x.t
	p := t.field(i, "path")
	if p >= 0 && t.kind(p) == "string_literal" {
		x.addImport(unquote(t.text(p)), t.line(i))
	}
}

func cTransparent(x *extractor, i int32) int32 {
	t := x.t
	switch t.kind(i) {
	case "preproc_ifdef", "preproc_if", "preproc_else", "preproc_elif", "preproc_elifdef":
		return i
	case "namespace_definition", "linkage_specification":
		if b := t.field(i, "body"); b >= 0 && t.kind(b) == "declaration_list" {
			return b
		}
	}
	return -1
}

func cNoise(x *extractor, i int32) bool {
	t := x.t
	switch t.kind(i) {
	case "preproc_include", "preproc_call", "using_declaration", "alias_declaration", "namespace_alias_definition":
		return true
	case "preproc_def": // include guard
		return t.field(i, "value") < 0
	}
	return false
}

func cDeclNames(x *extractor, i int32, out []string) []string {
	t := x.t
	switch t.kind(i) {
	case "preproc_def", "preproc_function_def":
		return append(out, t.text(t.field(i, "name")))
	case "declaration", "type_definition", "template_declaration":
		declF := t.g.field("declarator")
		for c := t.first(i); c >= 0; c = t.next(c) {
			if t.nodes[c].field == declF {
				if n := cDeclName(t, c); n != "" {
					out = append(out, n)
				}
			} else if t.kind(c) == "declaration" {
				out = cDeclNames(x, c, out)
			}
		}
	}
	return out
}

// cDeclName returns the identifier declared by a declarator.
func cDeclName(t *tree, d int32) string {
	for d >= 0 {
		switch t.kind(d) {
		case "identifier", "type_identifier", "field_identifier", "qualified_identifier", "operator_name":
			return t.text(d)
		}
		d = t.field(d, "declarator")
	}
	return ""
}
