package lang

import "strings"

// phpSpec: classes, interfaces, traits and enums are type chunks (used
// traits are implements), methods and functions are method/function chunks,
// #[...] attributes are decorators, "use" declarations are imports.
var phpSpec = &spec{
	roles: map[string]role{
		"class_declaration":               roleType,
		"interface_declaration":           roleType,
		"trait_declaration":               roleType,
		"enum_declaration":                roleType,
		"method_declaration":              roleFunc,
		"function_definition":             roleFunc,
		"function_call_expression":        roleCall,
		"member_call_expression":          roleCall,
		"nullsafe_member_call_expression": roleCall,
		"scoped_call_expression":          roleCall,
		"object_creation_expression":      roleCall,
		"namespace_use_declaration":       roleImport,
	},
	docKinds:    map[string]bool{"comment": true},
	typeDecl:    phpType,
	funcDecl:    phpFunc,
	call:        phpCall,
	imports:     phpImports,
	transparent: phpTransparent,
	noise: func(x *extractor, i int32) bool {
		t := x.t
		switch t.kind(i) {
		case "php_tag", "namespace_use_declaration", "declare_statement", "text_interpolation":
			return true
		case "namespace_definition":
			return t.field(i, "body") < 0
		}
		return false
	},
	declNames: func(x *extractor, i int32, out []string) []string {
		t := x.t
		switch t.kind(i) {
		case "const_declaration":
			for c := t.first(i); c >= 0; c = t.next(c) {
				if t.kind(c) == "const_element" {
					out = append(out, t.text(t.childKind(c, "name")))
				}
			}
		case "expression_statement":
			if a := t.firstNamed(i); a >= 0 && t.kind(a) == "assignment_expression" {
				if l := t.field(a, "left"); t.kind(l) == "variable_name" {
					out = append(out, t.text(l))
				}
			}
		}
		return out
	},
}

// phpAttributes returns the #[...] attribute groups of declaration i.
func phpAttributes(t *tree, i int32) []string {
	var out []string
	if al := t.field(i, "attributes"); al >= 0 {
		for g := t.first(al); g >= 0; g = t.next(g) {
			if t.kind(g) == "attribute_group" {
				out = append(out, decorator(t.text(g)))
			}
		}
	}
	return out
}

var phpNameKinds = []string{"name", "qualified_name"}

func phpType(x *extractor, i int32) (typeDecl, bool) {
	t := x.t
	d := typeDecl{name: t.text(t.field(i, "name")), decorators: phpAttributes(t, i)}
	if b := t.childKind(i, "base_clause"); b >= 0 {
		d.extends = typeList(t, b, nil, phpNameKinds...)
	}
	if b := t.childKind(i, "class_interface_clause"); b >= 0 {
		d.implements = typeList(t, b, nil, phpNameKinds...)
	}
	body := t.field(i, "body")
	for c := t.first(body); c >= 0; c = t.next(c) {
		if t.kind(c) == "use_declaration" { // use SomeTrait;
			d.implements = typeList(t, c, d.implements, phpNameKinds...)
		}
	}
	return d, true
}

func phpFunc(x *extractor, i int32) (funcDecl, bool) {
	t := x.t
	return funcDecl{
		name:       t.text(t.field(i, "name")),
		params:     t.text(t.field(i, "parameters")),
		decorators: phpAttributes(t, i),
	}, true
}

// phpQualifier returns the receiver of a PHP call when it is a plain
// variable ($this -> "this") or a class name.
func phpQualifier(t *tree, r int32) string {
	switch t.kind(r) {
	case "variable_name":
		return strings.TrimPrefix(t.text(r), "$")
	case "name", "relative_scope":
		return t.text(r)
	case "qualified_name":
		return simpleName(t.text(r))
	}
	return ""
}

func phpCall(x *extractor, i int32, fn string) {
	t := x.t
	line := t.line(i)
	switch t.kind(i) {
	case "function_call_expression":
		f := t.field(i, "function")
		if k := t.kind(f); k == "name" || k == "qualified_name" {
			x.addCall(fn, simpleName(t.text(f)), "", line)
		}
	case "member_call_expression", "nullsafe_member_call_expression":
		x.addCall(fn, t.text(t.field(i, "name")), phpQualifier(t, t.field(i, "object")), line)
	case "scoped_call_expression":
		x.addCall(fn, t.text(t.field(i, "name")), phpQualifier(t, t.field(i, "scope")), line)
	case "object_creation_expression":
		if n := t.childKind(i, "name", "qualified_name"); n >= 0 {
			x.addCall(fn, simpleName(t.text(n)), "", line)
		}
	}
}

func phpImports(x *extractor, i int32) {
	t := x.t
	prefix := ""
	if p := t.childKind(i, "namespace_name"); p >= 0 { // use A\{B, C}
		prefix = t.text(p) + `\`
	}
	var visit func(n int32)
	visit = func(n int32) {
		for c := t.first(n); c >= 0; c = t.next(c) {
			switch t.kind(c) {
			case "namespace_use_clause":
				if q := t.childKind(c, "qualified_name", "name"); q >= 0 {
					x.addImport(prefix+strings.TrimPrefix(t.text(q), `\`), t.line(c))
				}
			case "namespace_use_group":
				visit(c)
			}
		}
	}
	visit(i)
}

func phpTransparent(x *extractor, i int32) int32 {
	t := x.t
	if t.kind(i) == "namespace_definition" {
		return t.field(i, "body")
	}
	return -1
}
