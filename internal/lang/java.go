package lang

import "strings"

// javaSpec: classes, interfaces, enums, records and annotation types are
// type chunks; methods and constructors are method chunks (methods of
// anonymous classes belong to the enclosing method).
var javaSpec = &spec{
	roles: map[string]role{
		"class_declaration":               roleType,
		"interface_declaration":           roleType,
		"enum_declaration":                roleType,
		"record_declaration":              roleType,
		"annotation_type_declaration":     roleType,
		"method_declaration":              roleFunc,
		"constructor_declaration":         roleFunc,
		"compact_constructor_declaration": roleFunc,
		"method_invocation":               roleCall,
		"object_creation_expression":      roleCall,
		"import_declaration":              roleImport,
	},
	docKinds: map[string]bool{"block_comment": true, "line_comment": true},
	typeDecl: javaType,
	funcDecl: javaFunc,
	call:     javaCall,
	imports: func(x *extractor, i int32) {
		t := x.t
		id := t.childKind(i, "scoped_identifier", "identifier")
		if id < 0 {
			return
		}
		target := t.text(id)
		if t.childKind(i, "asterisk") >= 0 {
			target += ".*"
		}
		x.addImport(target, t.line(i))
	},
	noise: func(x *extractor, i int32) bool {
		switch x.t.kind(i) {
		case "package_declaration", "import_declaration", "module_declaration":
			return true
		}
		return false
	},
	prepare: javaPrepare,
	stdlib: func(target string) bool {
		for _, p := range []string{"java.", "javax.", "jdk.", "sun.", "com.sun."} {
			if strings.HasPrefix(target, p) {
				return true
			}
		}
		return false
	},
}

// typeList appends the simple names of the types listed below node i.
func typeList(t *tree, i int32, out []string, kinds ...string) []string {
	if i < 0 {
		return out
	}
	for c := t.first(i); c >= 0; c = t.next(c) {
		k := t.kind(c)
		match := false
		for _, want := range kinds {
			if k == want {
				match = true
				break
			}
		}
		if match {
			out = append(out, simpleName(t.text(c)))
		} else if t.named(c) && k != "type_arguments" && t.first(c) >= 0 {
			out = typeList(t, c, out, kinds...)
		}
	}
	return out
}

var javaTypeKinds = []string{"type_identifier", "generic_type", "scoped_type_identifier"}

// annotations returns the annotations in the modifiers of declaration i.
func annotations(t *tree, i int32, mods string, kinds ...string) []string {
	var out []string
	m := t.childKind(i, mods)
	if m < 0 {
		return nil
	}
	for c := t.first(m); c >= 0; c = t.next(c) {
		k := t.kind(c)
		for _, want := range kinds {
			if k == want {
				out = append(out, decorator(t.text(c)))
				break
			}
		}
	}
	return out
}

func javaType(x *extractor, i int32) (typeDecl, bool) {
	t := x.t
	d := typeDecl{name: t.text(t.field(i, "name"))}
	if sc := t.field(i, "superclass"); sc >= 0 {
		d.extends = typeList(t, sc, nil, javaTypeKinds...)
	}
	if si := t.field(i, "interfaces"); si >= 0 {
		d.implements = typeList(t, si, nil, javaTypeKinds...)
	}
	if ei := t.childKind(i, "extends_interfaces"); ei >= 0 {
		d.extends = typeList(t, ei, d.extends, javaTypeKinds...)
	}
	d.decorators = annotations(t, i, "modifiers", "marker_annotation", "annotation")
	return d, true
}

func javaFunc(x *extractor, i int32) (funcDecl, bool) {
	t := x.t
	// methods of anonymous classes are not chunks
	if b := t.parent(i); b >= 0 && t.kind(b) == "class_body" {
		if p := t.parent(b); p >= 0 && t.kind(p) == "object_creation_expression" {
			return funcDecl{}, false
		}
	}
	d := funcDecl{
		name:       t.text(t.field(i, "name")),
		params:     t.text(t.field(i, "parameters")),
		decorators: annotations(t, i, "modifiers", "marker_annotation", "annotation"),
	}
	return d, true
}

func javaCall(x *extractor, i int32, fn string) {
	t := x.t
	switch t.kind(i) {
	case "method_invocation":
		q, recv := "", ""
		if o := t.field(i, "object"); o >= 0 {
			switch t.kind(o) {
			case "identifier", "this", "super":
				q = t.text(o)
			}
			recv = x.jRecv(o, 0)
			if recv == "this" && q == "this" {
				recv = "" // this.m(): the caller's own type, as a bare call
			}
		}
		x.addCallRecv(fn, t.text(t.field(i, "name")), q, recv, t.line(i))
	case "object_creation_expression":
		recv := ""
		if ty := jType(t, t.field(i, "type")); ty != "" && !strings.HasPrefix(ty, "!") {
			recv = "new " + ty
		}
		x.addCallRecv(fn, simpleName(t.text(t.field(i, "type"))), "", recv, t.line(i))
	}
}
