package lang

import "strconv"

// Go references: a function or method used as a value rather than called
// (checkRedirect: defaultCheckRedirect, http.HandleFunc("/", index),
// sort.Slice(xs, less), f := helper, return pkg.Func, a method value
// t.handle passed as a callback, a method expression (*T).m). The file
// alone cannot tell whether a name is a function: the extractor records a
// FactRef for every identifier or selector in a position where a function
// value can stand, and relation resolution (internal/index/refs_go.go)
// keeps as references edges those that resolve, as a call's callee would,
// to a project function or method. The others leave no trace.

// FactRef: in the Go function or method Owner (its chunk symbol), Name is
// used as a value at line Sig; Type is what qualifies it, in the receiver
// notation of calls (Relation.Recv): "" for a bare name (the package's, as a
// local does not shadow it), "pkg:PATH" for an imported package's member,
// a type or value notation for x.Name (a method value or expression).
const FactRef = "ref"

// goRefState is what the reference scan of a file knows beyond goCtx.
type goRefState struct {
	// top holds the names the file declares at top level as types,
	// variables and constants: a bare use of one is not a function.
	top map[string]bool
}

// goRefs records the references candidates of function declaration fn,
// whose chunk symbol d gives; the function's locals (goFuncLocals) are
// current.
func (x *extractor) goRefs(fn int32, d funcDecl) {
	t := x.t
	body := t.field(fn, "body")
	if body < 0 || d.name == "" {
		return
	}
	sym := d.name
	if d.container != "" {
		sym = d.container + "." + d.name
	}
	if x.gref == nil {
		x.gref = &goRefState{top: x.goTopNames()}
	}
	first := len(x.facts)
	end := t.subtreeEnd(body)
	for j := body + 1; j < end; j++ {
		k := t.kind(j)
		if (k != "identifier" && k != "selector_expression") || !x.goValuePos(j) {
			continue
		}
		var name, recv string
		var at int32
		switch k {
		case "identifier":
			name, at = t.text(j), j
			if x.sp.builtins[name] || x.gref.top[name] {
				continue
			}
			if _, local := x.gx.local(name, t.nodes[j].start); local {
				continue
			}
			if _, pkg := x.gx.imports[name]; pkg {
				continue
			}
		case "selector_expression":
			at = t.field(j, "field")
			name = t.text(at)
			op := t.field(j, "operand")
			if p, ok := x.goImportOf(op); ok {
				recv = "pkg:" + p
			} else if recv = x.goExprType(op); recv == "" {
				continue // a value of unknown type: nothing to resolve it by
			}
		}
		if name == "" || name == "_" {
			continue
		}
		f := Fact{Kind: FactRef, Owner: sym, Name: name, Type: recv, Sig: strconv.Itoa(t.line(at))}
		dup := false
		for _, g := range x.facts[first:] {
			if g == f {
				dup = true
				break
			}
		}
		if !dup {
			x.facts = append(x.facts, f)
		}
	}
}

// goValuePos reports whether expression e stands where a function value
// can: an argument (a conversion's too: HandlerFunc(index)), the right side
// of an assignment or declaration, a returned value, an element or a keyed
// value of a composite literal, a value sent on a channel, what a range
// iterates. Parentheses around e do not matter. The function of a call, a
// selector's operand, an assignment's left side, a composite literal's key
// and an operand of an operator are not.
func (x *extractor) goValuePos(e int32) bool {
	t := x.t
	p := t.parent(e)
	for t.kind(p) == "parenthesized_expression" {
		e, p = p, t.parent(p)
	}
	switch t.kind(p) {
	case "argument_list":
		return true
	case "expression_list":
		switch pp := t.parent(p); t.kind(pp) {
		case "return_statement":
			return true
		case "assignment_statement", "short_var_declaration":
			return p == t.field(pp, "right")
		case "var_spec":
			return p == t.field(pp, "value")
		}
	case "literal_element":
		switch pp := t.parent(p); t.kind(pp) {
		case "literal_value":
			return true
		case "keyed_element":
			return p == t.field(pp, "value")
		}
	case "send_statement":
		return e == t.field(p, "value")
	case "range_clause":
		return e == t.field(p, "right")
	}
	return false
}

// goTopNames returns the names the file declares at top level as types,
// variables and constants.
func (x *extractor) goTopNames() map[string]bool {
	t := x.t
	out := map[string]bool{}
	for c := t.first(0); c >= 0; c = t.next(c) {
		switch t.kind(c) {
		case "var_declaration", "const_declaration":
			for _, n := range goDeclNames(x, c, nil) {
				out[n] = true
			}
		case "type_declaration":
			for s := t.first(c); s >= 0; s = t.next(s) {
				if k := t.kind(s); k == "type_spec" || k == "type_alias" {
					out[t.text(t.field(s, "name"))] = true
				}
			}
		}
	}
	return out
}
