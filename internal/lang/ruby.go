package lang

import "strings"

// rubySpec: classes and modules are type chunks (superclass is extends,
// include/extend/prepend of a module is implements), def and def self.x are
// method/function chunks, require/require_relative are imports.
var rubySpec = &spec{
	roles: map[string]role{
		"class":            roleType,
		"module":           roleType,
		"method":           roleFunc,
		"singleton_method": roleFunc,
		"call":             roleCall,
	},
	docKinds: map[string]bool{"comment": true},
	typeDecl: rubyType,
	funcDecl: func(x *extractor, i int32) (funcDecl, bool) {
		t := x.t
		return funcDecl{name: t.text(t.field(i, "name")), params: t.text(t.field(i, "parameters"))}, true
	},
	call: rubyCall,
	noise: func(x *extractor, i int32) bool {
		t := x.t
		if t.kind(i) == "call" {
			switch t.text(t.field(i, "method")) {
			case "require", "require_relative", "load":
				return t.field(i, "receiver") < 0
			}
		}
		return false
	},
	declNames: func(x *extractor, i int32, out []string) []string {
		t := x.t
		if t.kind(i) == "assignment" {
			if l := t.field(i, "left"); l >= 0 {
				switch t.kind(l) {
				case "constant", "identifier", "global_variable":
					out = append(out, t.text(l))
				}
			}
		}
		return out
	},
	stdlib: func(target string) bool { return rubyStdlib[target] },
}

func rubyType(x *extractor, i int32) (typeDecl, bool) {
	t := x.t
	d := typeDecl{name: simpleName(t.text(t.field(i, "name")))}
	if sc := t.field(i, "superclass"); sc >= 0 {
		if c := t.firstNamed(sc); c >= 0 {
			d.extends = append(d.extends, simpleName(strings.TrimPrefix(t.text(c), "<")))
		}
	}
	body := t.field(i, "body")
	if body < 0 {
		body = t.childKind(i, "body_statement")
	}
	for c := t.first(body); c >= 0; c = t.next(c) {
		if t.kind(c) != "call" || t.field(c, "receiver") >= 0 {
			continue
		}
		switch t.text(t.field(c, "method")) {
		case "include", "extend", "prepend":
			a := t.field(c, "arguments")
			for m := t.first(a); m >= 0; m = t.next(m) {
				if k := t.kind(m); k == "constant" || k == "scope_resolution" {
					d.implements = append(d.implements, simpleName(t.text(m)))
				}
			}
		}
	}
	return d, d.name != ""
}

func rubyCall(x *extractor, i int32, fn string) {
	t := x.t
	name := t.text(t.field(i, "method"))
	r := t.field(i, "receiver")
	if r < 0 {
		switch name {
		case "require", "require_relative", "load":
			a := t.field(i, "arguments")
			if s := t.firstNamed(a); s >= 0 && t.kind(s) == "string" {
				target := unquote(t.text(s))
				if name == "require_relative" && !strings.HasPrefix(target, ".") {
					target = "./" + target
				}
				x.addImport(target, t.line(i))
			}
			return
		}
	}
	q := ""
	if r >= 0 {
		switch t.kind(r) {
		case "identifier", "self", "constant", "instance_variable":
			q = t.text(r)
		case "scope_resolution":
			q = simpleName(t.text(r))
		}
	}
	x.addCall(fn, name, q, t.line(i))
}
