package lang

import (
	"strconv"
	"strings"
)

// Java and TypeScript/JavaScript type facts and receivers. Per file, at
// parse time: the names the imports bind (standard library included:
// resolution needs to know that a type comes from outside the project),
// the bases of each type as written, which types are interfaces, fields
// with their declared type (or the class a field is assigned `new T(...)`),
// method results, and for every call the receiver in the notation below.
// The facts carry type names as written; resolution decides what they
// denote in the project (internal/index/resolve_jts.go).
//
// Receivers (Relation.Recv) for Java, TypeScript and JavaScript: a base and
// space-separated segments.
//
//	""        a bare call
//	"new T"   a constructor call of type T as written
//	"this"    the enclosing class's instance; "super" its superclass
//	":T"      a local or parameter of declared (or constructed) type T
//	"~n"      a name that is not a local: a field of the class, a type, an
//	          import, a module variable
//	"?"       a value of unknown type
//	"!T"      a value of a builtin type outside the project (a string, an array)
//	"?local"  (a bare call) a parameter or local variable holding a function
//	          value, not a function declared by name
//
// and segments ".f" (field f), ".m()" (the result of method m) or "()"
// (the result of calling the function the base names). A local
// initialised with a call, a field or another name has its value's
// receiver (`var x = a.get()` is `~a .get()`). Generic
// type arguments are dropped (`List<Foo>` is `List`).

// FactInterface marks Owner as an interface (Java, TypeScript).
const FactInterface = "interface"

// jDecl is one declaration of a local name: the node index where it is
// declared (declarations are positional) and its type ("" unknown).
type jDecl struct {
	at int32
	ty string
}

// jFuncKinds are the node kinds that open a scope of locals.
var jFuncKinds = map[string]bool{
	// Java
	"method_declaration": true, "constructor_declaration": true, "compact_constructor_declaration": true, "lambda_expression": true,
	// JavaScript, TypeScript
	"function_declaration": true, "generator_function_declaration": true, "function_expression": true, "function": true,
	"generator_function": true, "arrow_function": true, "method_definition": true,
}

// jTypeDeclKinds are the type declarations that name a container.
var jTypeDeclKinds = map[string]bool{
	"class_declaration": true, "interface_declaration": true, "enum_declaration": true, "record_declaration": true,
	"annotation_type_declaration": true, "abstract_class_declaration": true,
}

// specifierNames is the name an import or export specifier (`a as b`)
// takes from its module and the name it binds (the same without an alias).
func specifierNames(t *tree, s int32) (name, alias string) {
	name = t.text(t.field(s, "name"))
	alias = name
	if a := t.field(s, "alias"); a >= 0 {
		alias = t.text(a)
	}
	return name, alias
}

// jOwner is the symbol of the type declaration enclosing node i ("Outer.Inner"
// when i is that declaration's name scope), or "".
func jOwner(t *tree, i int32) string {
	name := ""
	for p := i; p >= 0; p = t.parent(p) {
		if jTypeDeclKinds[t.kind(p)] {
			n := t.text(t.field(p, "name"))
			if name == "" {
				name = n
			} else {
				name = n + "." + name
			}
		}
	}
	return name
}

// jTypeParam reports whether name is a type parameter of a declaration
// enclosing node i.
func jTypeParam(t *tree, i int32, name string) bool {
	for p := i; p >= 0; p = t.parent(p) {
		tp := t.field(p, "type_parameters")
		if tp < 0 {
			continue
		}
		for c := t.first(tp); c >= 0; c = t.next(c) {
			if t.kind(c) != "type_parameter" {
				continue
			}
			n := t.field(c, "name")
			if n < 0 {
				n = t.childKind(c, "type_identifier", "identifier")
			}
			if t.text(n) == name {
				return true
			}
		}
	}
	return false
}

// jType reduces a Java or TypeScript type node to the type it names:
// "Foo", "a.b.Foo", "!array", "!string"; "" when unknown (a type
// parameter, a primitive, `var`, a union of classes, any).
func jType(t *tree, n int32) string {
	if n < 0 {
		return ""
	}
	switch t.kind(n) {
	case "type_annotation", "parenthesized_type", "annotated_type", "readonly_type":
		c := t.firstNamed(n)
		for nx := c; nx >= 0; nx = t.next(nx) {
			if t.named(nx) && t.kind(nx) != "marker_annotation" && t.kind(nx) != "annotation" {
				c = nx
			}
		}
		return jType(t, c)
	case "type_identifier", "identifier":
		s := t.text(n)
		if s == "var" || jTypeParam(t, n, s) {
			return ""
		}
		return s
	case "scoped_type_identifier", "nested_type_identifier", "member_expression", "scoped_identifier":
		s := t.text(n)
		if strings.ContainsAny(s, "<@ \t\n(") {
			return ""
		}
		return s
	case "generic_type":
		if c := t.field(n, "name"); c >= 0 {
			return jType(t, c)
		}
		return jType(t, t.firstNamed(n))
	case "array_type", "tuple_type":
		return "!array"
	case "predefined_type":
		switch s := t.text(n); s {
		case "string", "number", "boolean", "bigint", "symbol":
			return "!" + s
		}
	case "union_type":
		// T | null | undefined is T
		var one int32 = -1
		for c := t.first(n); c >= 0; c = t.next(c) {
			if !t.named(c) {
				continue
			}
			if k := t.kind(c); k == "literal_type" || (k == "predefined_type" && (t.text(c) == "undefined" || t.text(c) == "null")) {
				if s := t.text(c); s == "null" || s == "undefined" {
					continue
				}
			}
			if one >= 0 {
				return ""
			}
			one = c
		}
		return jType(t, one)
	}
	return ""
}

// jValueType is the type a value expression has as far as the syntax tells:
// `new T(...)`, a cast or `as T`; "" when unknown.
func jValueType(t *tree, v int32) string {
	for v >= 0 {
		switch t.kind(v) {
		case "parenthesized_expression", "non_null_expression":
			v = t.firstNamed(v)
			continue
		case "object_creation_expression":
			if t.childKind(v, "class_body") >= 0 {
				return "" // an anonymous class
			}
			return jType(t, t.field(v, "type"))
		case "new_expression":
			return jType(t, t.field(v, "constructor"))
		case "cast_expression":
			return jType(t, t.field(v, "type"))
		case "as_expression", "satisfies_expression":
			c := t.firstNamed(v)
			return jType(t, t.next(c))
		case "string", "template_string", "string_literal":
			return "!string"
		case "arrow_function", "function_expression", "function":
			return "!function"
		case "array", "array_creation_expression", "array_initializer":
			return "!array"
		}
		return ""
	}
	return ""
}

// jLocalValue is the type of a local initialised with value v: its
// jValueType, or "@" and the value's node when the value is a call, a
// field or another name, whose receiver notation jRecv builds at the use.
func jLocalValue(t *tree, v int32) string {
	if ty := jValueType(t, v); ty != "" {
		return ty
	}
	switch t.kind(v) {
	case "method_invocation", "call_expression", "field_access", "member_expression", "identifier":
		return "@" + strconv.Itoa(int(v))
	}
	return ""
}

// jScope lists what function node fn binds locally: parameters and local
// variables with their declarations in order. Nested functions and class
// bodies are scopes of their own.
func (x *extractor) jScope(fn int32) map[string][]jDecl {
	if x.jLocals == nil {
		x.jLocals = map[int32]map[string][]jDecl{}
	}
	if m, ok := x.jLocals[fn]; ok {
		return m
	}
	t := x.t
	m := map[string][]jDecl{}
	add := func(n int32, at int32, ty string) {
		if n < 0 {
			return
		}
		switch t.kind(n) {
		case "identifier":
			m[t.text(n)] = append(m[t.text(n)], jDecl{at, ty})
		case "object_pattern", "array_pattern", "pair_pattern", "shorthand_property_identifier_pattern", "rest_pattern", "assignment_pattern", "object_assignment_pattern":
			// destructuring: names of unknown type
			end := t.subtreeEnd(n)
			for j := n; j < end; j++ {
				if k := t.kind(j); k == "identifier" || k == "shorthand_property_identifier_pattern" {
					m[t.text(j)] = append(m[t.text(j)], jDecl{at, ""})
				}
			}
		}
	}
	param := func(c int32) {
		switch t.kind(c) {
		case "formal_parameter", "spread_parameter", "receiver_parameter": // Java
			ty := jType(t, t.field(c, "type"))
			if t.kind(c) == "spread_parameter" {
				ty = "!array"
			}
			n := t.field(c, "name")
			if n < 0 {
				if d := t.childKind(c, "variable_declarator"); d >= 0 {
					n = t.field(d, "name")
				}
			}
			add(n, fn, ty)
		case "required_parameter", "optional_parameter": // TypeScript
			add(t.field(c, "pattern"), fn, jType(t, t.field(c, "type")))
		case "identifier":
			add(c, fn, "")
		case "assignment_pattern": // JavaScript default: x = new Foo()
			add(t.field(c, "left"), fn, jValueType(t, t.field(c, "right")))
		default:
			add(c, fn, "")
		}
	}
	if ps := t.field(fn, "parameters"); ps >= 0 {
		if t.kind(ps) == "identifier" {
			add(ps, fn, "")
		} else {
			for c := t.first(ps); c >= 0; c = t.next(c) {
				if t.named(c) {
					param(c)
				}
			}
		}
	}
	if p := t.field(fn, "parameter"); p >= 0 { // x => ...
		add(p, fn, "")
	}
	body := t.field(fn, "body")
	if body >= 0 {
		end := t.subtreeEnd(body)
		for j := body; j < end; j++ {
			k := t.kind(j)
			if jFuncKinds[k] || k == "class_body" || k == "class_declaration" || k == "class" {
				j = t.subtreeEnd(j) - 1
				continue
			}
			switch k {
			case "local_variable_declaration", "field_declaration": // Java
				ty := jType(t, t.field(j, "type"))
				for c := t.first(j); c >= 0; c = t.next(c) {
					if t.kind(c) == "variable_declarator" {
						vt := ty
						if vt == "" {
							vt = jLocalValue(t, t.field(c, "value"))
						}
						add(t.field(c, "name"), j, vt)
					}
				}
			case "variable_declarator": // JavaScript, TypeScript
				if t.kind(t.parent(j)) == "local_variable_declaration" {
					continue
				}
				if jsRequire(t, t.field(j, "value")) != "" {
					continue // a module binding (jsPrepare), not a value
				}
				ty := jType(t, t.field(j, "type"))
				if n := t.field(j, "name"); ty == "" && t.kind(n) == "object_pattern" {
					// const {a, b: c} = v: a is v.a, c is v.b (one level)
					add(n, j, "")
					if v := t.field(j, "value"); jLocalValue(t, v) != "" {
						for c := t.first(n); c >= 0; c = t.next(c) {
							switch t.kind(c) {
							case "shorthand_property_identifier_pattern":
								m[t.text(c)] = append(m[t.text(c)], jDecl{j, "@" + strconv.Itoa(int(v)) + " ." + t.text(c)})
							case "pair_pattern":
								if b := t.field(c, "value"); t.kind(b) == "identifier" {
									m[t.text(b)] = append(m[t.text(b)], jDecl{j, "@" + strconv.Itoa(int(v)) + " ." + jsName(t, t.field(c, "key"))})
								}
							}
						}
					}
					continue
				}
				if ty == "" {
					ty = jLocalValue(t, t.field(j, "value"))
				}
				add(t.field(j, "name"), j, ty)
			case "enhanced_for_statement", "resource":
				add(t.field(j, "name"), j, jType(t, t.field(j, "type")))
			case "catch_formal_parameter":
				add(t.field(j, "name"), j, "")
			case "instanceof_expression", "type_pattern", "record_pattern":
				if n := t.field(j, "name"); n >= 0 {
					add(n, j, jType(t, t.field(j, "right")))
				}
			case "for_in_statement":
				add(t.field(j, "left"), j, "")
			case "catch_clause":
				add(t.field(j, "parameter"), j, "")
			}
		}
	}
	x.jLocals[fn] = m
	return m
}

// jLocal reports whether name is a local of a function enclosing node i
// declared before i, and its type.
func (x *extractor) jLocal(i int32, name string) (bool, string) {
	t := x.t
	for fn := t.parent(i); fn >= 0; fn = t.parent(fn) {
		if !jFuncKinds[t.kind(fn)] {
			continue
		}
		decls := x.jScope(fn)[name]
		found, ty := false, ""
		for _, d := range decls {
			if d.at <= i {
				found, ty = true, d.ty
			}
		}
		if found {
			return true, ty
		}
	}
	return false, ""
}

// maxRecvSegs bounds the selectors a receiver notation follows.
const maxRecvSegs = 4

// jRecv is the receiver notation of expression o (the object of a call at
// node i).
func (x *extractor) jRecv(o int32, depth int) string {
	t := x.t
	if depth > maxRecvSegs {
		return "?"
	}
	seg := func(inner int32, s string) string {
		r := x.jRecv(inner, depth+1)
		if r == "?" || strings.HasPrefix(r, "!") {
			return "?"
		}
		return r + " " + s
	}
	switch k := t.kind(o); k {
	case "this":
		return "this"
	case "super":
		return "super"
	case "identifier":
		n := t.text(o)
		if local, ty := x.jLocal(o, n); local {
			if v, ok := strings.CutPrefix(ty, "@"); ok {
				// the value the local was initialised with; "@N .p": its
				// property p (destructured)
				v, prop, member := strings.Cut(v, " ")
				k, _ := strconv.Atoi(v)
				r := x.jRecv(int32(k), depth+1)
				if !member {
					return r
				}
				if r == "?" || strings.HasPrefix(r, "!") {
					return "?"
				}
				return r + " " + prop
			}
			if ty == "" {
				return "?"
			}
			if strings.HasPrefix(ty, "!") {
				return ty
			}
			return ":" + ty
		}
		return "~" + n
	case "parenthesized_expression", "non_null_expression":
		return x.jRecv(t.firstNamed(o), depth)
	case "field_access": // Java a.f
		return seg(t.field(o, "object"), "."+t.text(t.field(o, "field")))
	case "member_expression": // TypeScript a.f
		return seg(t.field(o, "object"), "."+jsName(t, t.field(o, "property")))
	case "method_invocation": // Java a.m()
		name := "." + t.text(t.field(o, "name")) + "()"
		if obj := t.field(o, "object"); obj >= 0 {
			return seg(obj, name)
		}
		return "this " + name
	case "call_expression": // TypeScript a.m(), f()
		f := t.field(o, "function")
		switch t.kind(f) {
		case "member_expression":
			return seg(t.field(f, "object"), "."+jsName(t, t.field(f, "property"))+"()")
		case "identifier":
			if local, _ := x.jLocal(f, t.text(f)); !local {
				return "~" + t.text(f) + " ()" // a function's result
			}
		}
		return "?"
	case "string", "template_string", "string_literal", "array", "array_creation_expression":
		return jValueType(t, o)
	default:
		if ty := jValueType(t, o); ty != "" {
			if strings.HasPrefix(ty, "!") {
				return ty
			}
			return ":" + ty
		}
	}
	return "?"
}

// javaPrepare records a Java file's imports, bases, interfaces, fields
// and method results as facts.
func javaPrepare(x *extractor) {
	t := x.t
	for i := int32(0); i < int32(len(t.nodes)); i++ {
		switch k := t.kind(i); k {
		case "import_declaration":
			id := t.childKind(i, "scoped_identifier", "identifier")
			if id < 0 {
				continue
			}
			full := t.text(id)
			static := strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(t.text(i), "import")), "static")
			switch {
			case t.childKind(i, "asterisk") >= 0 && !static:
				x.facts = append(x.facts, Fact{Kind: FactImport, Name: "*", Type: full, Sig: "*"})
			case t.childKind(i, "asterisk") >= 0:
			case static:
				cls, member := full, full
				if d := strings.LastIndexByte(full, '.'); d >= 0 {
					cls, member = full[:d], full[d+1:]
				}
				x.facts = append(x.facts, Fact{Kind: FactImport, Name: member, Type: cls, Sig: "static"})
			default:
				x.facts = append(x.facts, Fact{Kind: FactImport, Name: simpleName(full), Type: full})
			}
		case "class_declaration", "interface_declaration", "enum_declaration", "record_declaration":
			owner := jOwner(t, i)
			if k == "interface_declaration" {
				x.facts = append(x.facts, Fact{Kind: FactInterface, Owner: owner})
			}
			bases := func(n int32, how string) {
				end := t.subtreeEnd(n)
				for j := n; j < end; j++ {
					switch t.kind(j) {
					case "type_arguments":
						j = t.subtreeEnd(j) - 1
					case "type_identifier", "scoped_type_identifier", "generic_type":
						if ty := jType(t, j); ty != "" {
							x.facts = append(x.facts, Fact{Kind: FactBase, Owner: owner, Type: ty, Sig: how})
						}
						j = t.subtreeEnd(j) - 1
					}
				}
			}
			if sc := t.field(i, "superclass"); sc >= 0 {
				bases(sc, "extends")
			}
			if ei := t.childKind(i, "extends_interfaces"); ei >= 0 {
				bases(ei, "extends")
			}
			if si := t.field(i, "interfaces"); si >= 0 {
				bases(si, "implements")
			}
			if k == "record_declaration" {
				for c := t.first(t.field(i, "parameters")); c >= 0; c = t.next(c) {
					if t.kind(c) == "formal_parameter" {
						x.facts = append(x.facts, Fact{Kind: FactField, Owner: owner, Name: t.text(t.field(c, "name")), Type: jType(t, t.field(c, "type"))})
					}
				}
			}
		case "enum_constant":
			owner := jOwner(t, i)
			x.facts = append(x.facts, Fact{Kind: FactField, Owner: owner, Name: t.text(t.field(i, "name")), Type: simpleName(owner)})
		case "field_declaration", "constant_declaration":
			if jInsideFunc(t, i) {
				continue
			}
			owner := jOwner(t, i)
			ty := jType(t, t.field(i, "type"))
			for c := t.first(i); c >= 0; c = t.next(c) {
				if t.kind(c) != "variable_declarator" {
					continue
				}
				vt := ty
				if vt == "" {
					vt = jValueType(t, t.field(c, "value"))
				}
				x.facts = append(x.facts, Fact{Kind: FactField, Owner: owner, Name: t.text(t.field(c, "name")), Type: vt})
			}
		case "method_declaration":
			if jInsideFunc(t, i) {
				continue
			}
			if ty := jType(t, t.field(i, "type")); ty != "" {
				x.facts = append(x.facts, Fact{Kind: FactResult, Owner: jOwner(t, i), Name: t.text(t.field(i, "name")), Type: ty})
			}
		}
	}
}

// jInsideFunc reports whether node i is inside a function body (a local or
// anonymous class), where its members are not the named type's.
func jInsideFunc(t *tree, i int32) bool {
	for p := t.parent(i); p >= 0; p = t.parent(p) {
		k := t.kind(p)
		if jTypeDeclKinds[k] {
			return false
		}
		if jFuncKinds[k] || k == "object_creation_expression" || k == "class" {
			return true
		}
	}
	return false
}

// jsPrepare records a JavaScript/TypeScript file's import bindings and
// re-exports, bases, interfaces, fields, method and function results and
// module variables as facts.
func jsPrepare(x *extractor) {
	t := x.t
	type fkey struct{ owner, name string }
	fields := map[fkey]string{}
	declared := map[fkey]bool{}
	var order []fkey
	setField := func(k fkey, ty string, decl bool) {
		if old, seen := fields[k]; seen {
			switch {
			case declared[k]:
			case decl:
				fields[k], declared[k] = ty, true
			case old != ty:
				fields[k] = ""
			}
			return
		}
		fields[k], declared[k] = ty, decl
		order = append(order, k)
	}
	for i := int32(0); i < int32(len(t.nodes)); i++ {
		switch k := t.kind(i); k {
		case "import_statement":
			src := unquote(t.text(t.field(i, "source")))
			cl := t.childKind(i, "import_clause")
			for c := t.first(cl); c >= 0; c = t.next(c) {
				switch t.kind(c) {
				case "identifier":
					x.facts = append(x.facts, Fact{Kind: FactImport, Name: t.text(c), Type: src, Sig: "default"})
				case "namespace_import":
					x.facts = append(x.facts, Fact{Kind: FactImport, Name: t.text(t.childKind(c, "identifier")), Type: src, Sig: "*"})
				case "named_imports":
					for s := t.first(c); s >= 0; s = t.next(s) {
						if t.kind(s) != "import_specifier" {
							continue
						}
						name, alias := specifierNames(t, s)
						x.facts = append(x.facts, Fact{Kind: FactImport, Name: alias, Type: src, Sig: name})
					}
				}
			}
		case "export_statement":
			if s := t.field(i, "source"); s >= 0 {
				src := unquote(t.text(s))
				ec := t.childKind(i, "export_clause")
				if ec < 0 {
					if t.childKind(i, "namespace_export") < 0 {
						x.facts = append(x.facts, Fact{Kind: FactImport, Owner: "export", Name: "*", Type: src, Sig: "*"})
					}
					continue
				}
				for s := t.first(ec); s >= 0; s = t.next(s) {
					if t.kind(s) != "export_specifier" {
						continue
					}
					name, alias := specifierNames(t, s)
					x.facts = append(x.facts, Fact{Kind: FactImport, Owner: "export", Name: alias, Type: src, Sig: name})
				}
				continue
			}
			if t.childKind(i, "default") < 0 {
				continue
			}
			// export default class X / export default X
			if d := t.field(i, "declaration"); d >= 0 {
				x.facts = append(x.facts, Fact{Kind: FactVar, Name: "default", Type: t.text(t.field(d, "name"))})
			} else if v := t.field(i, "value"); v >= 0 && t.kind(v) == "identifier" {
				x.facts = append(x.facts, Fact{Kind: FactVar, Name: "default", Type: t.text(v)})
			}
		case "class_declaration", "abstract_class_declaration", "interface_declaration":
			owner := jOwner(t, i)
			if k == "interface_declaration" {
				x.facts = append(x.facts, Fact{Kind: FactInterface, Owner: owner})
			}
			for c := t.first(i); c >= 0; c = t.next(c) {
				switch t.kind(c) {
				case "class_heritage":
					for h := t.first(c); h >= 0; h = t.next(h) {
						switch t.kind(h) {
						case "extends_clause":
							if v := t.field(h, "value"); v >= 0 {
								if ty := jType(t, v); ty != "" {
									x.facts = append(x.facts, Fact{Kind: FactBase, Owner: owner, Type: ty, Sig: "extends"})
								}
							}
						case "implements_clause":
							for v := t.first(h); v >= 0; v = t.next(v) {
								if ty := jType(t, v); ty != "" {
									x.facts = append(x.facts, Fact{Kind: FactBase, Owner: owner, Type: ty, Sig: "implements"})
								}
							}
						case "identifier", "member_expression": // JavaScript
							if ty := jType(t, h); ty != "" {
								x.facts = append(x.facts, Fact{Kind: FactBase, Owner: owner, Type: ty, Sig: "extends"})
							}
						}
					}
				case "extends_type_clause":
					for v := t.first(c); v >= 0; v = t.next(v) {
						if ty := jType(t, v); ty != "" {
							x.facts = append(x.facts, Fact{Kind: FactBase, Owner: owner, Type: ty, Sig: "extends"})
						}
					}
				}
			}
		case "public_field_definition", "field_definition":
			if t.kind(t.parent(i)) != "class_body" {
				continue
			}
			n := t.field(i, "name")
			if n < 0 {
				n = t.field(i, "property")
			}
			ty, decl := jType(t, t.field(i, "type")), true
			if t.field(i, "type") < 0 {
				ty, decl = jValueType(t, t.field(i, "value")), false
			}
			setField(fkey{jOwner(t, i), jsName(t, n)}, ty, decl)
		case "method_definition", "method_signature", "abstract_method_signature":
			owner := jOwner(t, i)
			name := jsName(t, t.field(i, "name"))
			if k != "method_definition" && owner != "" {
				x.facts = append(x.facts, Fact{Kind: FactIMethod, Owner: owner, Name: name})
			}
			if rt := t.field(i, "return_type"); rt >= 0 && owner != "" {
				if ty := jType(t, rt); ty != "" {
					x.facts = append(x.facts, Fact{Kind: FactResult, Owner: owner, Name: name, Type: ty})
				}
			}
			if name == "constructor" && owner != "" {
				// parameter properties: constructor(private foo: Foo)
				for c := t.first(t.field(i, "parameters")); c >= 0; c = t.next(c) {
					if (t.kind(c) == "required_parameter" || t.kind(c) == "optional_parameter") &&
						(t.childKind(c, "accessibility_modifier", "override_modifier") >= 0 || strings.Contains(t.text(c), "readonly ")) {
						if p := t.field(c, "pattern"); t.kind(p) == "identifier" {
							setField(fkey{owner, t.text(p)}, jType(t, t.field(c, "type")), true)
						}
					}
				}
			}
		case "function_declaration":
			if rt := t.field(i, "return_type"); rt >= 0 && jOwner(t, i) == "" && !jInsideFunc(t, i) {
				if ty := jType(t, rt); ty != "" {
					x.facts = append(x.facts, Fact{Kind: FactResult, Name: t.text(t.field(i, "name")), Type: ty})
				}
			}
		case "assignment_expression":
			l := t.field(i, "left")
			if t.text(l) == "module.exports" {
				// CommonJS: module.exports = X / = class X {}
				switch r := t.field(i, "right"); t.kind(r) {
				case "identifier":
					x.facts = append(x.facts, Fact{Kind: FactVar, Name: "module.exports", Type: t.text(r)})
				case "class":
					if n := t.field(r, "name"); n >= 0 {
						x.facts = append(x.facts, Fact{Kind: FactVar, Name: "module.exports", Type: t.text(n)})
					}
				}
				continue
			}
			// this.f = new T(...) / this.f = param in a method
			if t.kind(l) != "member_expression" || t.kind(t.field(l, "object")) != "this" {
				continue
			}
			m := t.parent(i)
			for m >= 0 && t.kind(m) != "method_definition" {
				if jFuncKinds[t.kind(m)] && t.kind(m) != "arrow_function" {
					m = -1
					break
				}
				m = t.parent(m)
			}
			if m < 0 {
				continue
			}
			r := t.field(i, "right")
			ty := jValueType(t, r)
			if ty == "" && t.kind(r) == "identifier" {
				if _, lt := x.jLocal(i, t.text(r)); !strings.HasPrefix(lt, "@") {
					ty = lt
				}
			}
			setField(fkey{jOwner(t, m), jsName(t, t.field(l, "property"))}, ty, false)
		case "variable_declarator":
			// CommonJS: const X = require('m'), const { A, B: C } = require('m')
			src := jsRequire(t, t.field(i, "value"))
			if src == "" {
				continue
			}
			switch n := t.field(i, "name"); t.kind(n) {
			case "identifier":
				x.facts = append(x.facts, Fact{Kind: FactImport, Name: t.text(n), Type: src, Sig: "module"})
			case "object_pattern":
				for c := t.first(n); c >= 0; c = t.next(c) {
					switch t.kind(c) {
					case "shorthand_property_identifier_pattern":
						x.facts = append(x.facts, Fact{Kind: FactImport, Name: t.text(c), Type: src, Sig: t.text(c)})
					case "pair_pattern":
						if v := t.field(c, "value"); t.kind(v) == "identifier" {
							x.facts = append(x.facts, Fact{Kind: FactImport, Name: t.text(v), Type: src, Sig: jsName(t, t.field(c, "key"))})
						}
					}
				}
			}
		case "lexical_declaration", "variable_declaration":
			if p := t.parent(i); p != 0 && !(t.kind(p) == "export_statement" && t.parent(p) == 0) {
				continue
			}
			for c := t.first(i); c >= 0; c = t.next(c) {
				if t.kind(c) != "variable_declarator" || t.kind(t.field(c, "name")) != "identifier" {
					continue
				}
				ty := jType(t, t.field(c, "type"))
				if ty == "" {
					ty = jValueType(t, t.field(c, "value"))
				}
				if ty != "" {
					x.facts = append(x.facts, Fact{Kind: FactVar, Name: t.text(t.field(c, "name")), Type: ty})
				}
			}
		}
	}
	for _, k := range order {
		if k.owner != "" {
			x.facts = append(x.facts, Fact{Kind: FactField, Owner: k.owner, Name: k.name, Type: fields[k]})
		}
	}
}

// jsRequire is the module of a `require('m')` call node v, or "".
func jsRequire(t *tree, v int32) string {
	if v < 0 || t.kind(v) != "call_expression" || t.text(t.field(v, "function")) != "require" {
		return ""
	}
	return jsStringArg(t, v)
}
