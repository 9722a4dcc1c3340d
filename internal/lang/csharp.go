package lang

import "strings"

// csharpSpec: classes, structs, interfaces, enums and records are type
// chunks; methods, constructors, destructors, operators and local functions
// are method/function chunks; attributes are decorators. In a base list,
// names of the form IName are implemented interfaces, others are extends
// (an interface's bases are all extends). using System.* is standard
// library.
var csharpSpec = &spec{
	roles: map[string]role{
		"class_declaration":                 roleType,
		"struct_declaration":                roleType,
		"interface_declaration":             roleType,
		"enum_declaration":                  roleType,
		"record_declaration":                roleType,
		"record_struct_declaration":         roleType,
		"method_declaration":                roleFunc,
		"constructor_declaration":           roleFunc,
		"destructor_declaration":            roleFunc,
		"operator_declaration":              roleFunc,
		"local_function_statement":          roleFunc,
		"invocation_expression":             roleCall,
		"object_creation_expression":        roleCall,
		"using_directive":                   roleImport,
		"file_scoped_namespace_declaration": roleNone,
	},
	docKinds:    map[string]bool{"comment": true},
	typeDecl:    csType,
	funcDecl:    csFunc,
	call:        csCall,
	imports:     csImports,
	transparent: csTransparent,
	noise: func(x *extractor, i int32) bool {
		switch x.t.kind(i) {
		case "using_directive", "extern_alias_directive":
			return true
		}
		return false
	},
	stdlib: func(target string) bool {
		return target == "System" || strings.HasPrefix(target, "System.")
	},
}

// csAttributes returns the attribute lists of declaration i as written.
func csAttributes(t *tree, i int32) []string {
	var out []string
	for c := t.first(i); c >= 0; c = t.next(c) {
		if t.kind(c) == "attribute_list" {
			out = append(out, decorator(t.text(c)))
		}
	}
	return out
}

// isInterfaceName reports whether a C# type name follows the IName convention.
func isInterfaceName(s string) bool {
	return len(s) >= 2 && s[0] == 'I' && s[1] >= 'A' && s[1] <= 'Z'
}

func csType(x *extractor, i int32) (typeDecl, bool) {
	t := x.t
	d := typeDecl{name: t.text(t.field(i, "name")), decorators: csAttributes(t, i)}
	iface := t.kind(i) == "interface_declaration"
	if b := t.childKind(i, "base_list"); b >= 0 {
		for c := t.first(b); c >= 0; c = t.next(c) {
			switch t.kind(c) {
			case "identifier", "generic_name", "qualified_name", "primary_constructor_base_type":
				n := simpleName(t.text(c))
				if !iface && isInterfaceName(n) {
					d.implements = append(d.implements, n)
				} else {
					d.extends = append(d.extends, n)
				}
			}
		}
	}
	return d, true
}

func csFunc(x *extractor, i int32) (funcDecl, bool) {
	t := x.t
	d := funcDecl{
		name:       t.text(t.field(i, "name")),
		params:     t.text(t.field(i, "parameters")),
		decorators: csAttributes(t, i),
	}
	switch t.kind(i) {
	case "operator_declaration":
		d.name = "operator" + strings.TrimSpace(t.text(t.field(i, "operator")))
	case "destructor_declaration":
		d.name = "~" + d.name
	case "local_function_statement":
		d.function = true
	}
	return d, true
}

func csCall(x *extractor, i int32, fn string) {
	t := x.t
	if t.kind(i) == "object_creation_expression" {
		x.addCall(fn, simpleName(t.text(t.field(i, "type"))), "", t.line(i))
		return
	}
	f := t.field(i, "function")
	switch t.kind(f) {
	case "identifier":
		x.addCall(fn, t.text(f), "", t.line(i))
	case "generic_name":
		x.addCall(fn, simpleName(t.text(f)), "", t.line(i))
	case "member_access_expression":
		q := ""
		if e := t.field(f, "expression"); e >= 0 {
			switch t.kind(e) {
			case "identifier", "this", "base", "this_expression", "base_expression":
				q = t.text(e)
			}
		}
		x.addCall(fn, simpleName(t.text(t.field(f, "name"))), q, t.line(i))
	}
}

func csImports(x *extractor, i int32) {
	t := x.t
	// using A.B; using static A.B; using X = A.B; -> the last name node
	target := ""
	for c := t.first(i); c >= 0; c = t.next(c) {
		switch t.kind(c) {
		case "qualified_name", "identifier", "generic_name":
			if t.nodes[c].field == 0 || t.nodes[c].field != t.g.field("name") {
				target = t.text(c)
			}
		}
	}
	x.addImport(target, t.line(i))
}

func csTransparent(x *extractor, i int32) int32 {
	t := x.t
	switch t.kind(i) {
	case "namespace_declaration":
		return t.field(i, "body")
	case "file_scoped_namespace_declaration":
		return i
	}
	return -1
}
