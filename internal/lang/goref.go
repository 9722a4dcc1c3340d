package lang

import (
	"slices"
	"strconv"
	"strings"
)

// Go references: a function or method used as a value rather than called
// (checkRedirect: defaultCheckRedirect, http.HandleFunc("/", index),
// sort.Slice(xs, less), f := helper, return pkg.Func, a method value
// t.handle passed as a callback, a method expression (*T).m). The file
// alone cannot tell whether a name is a function: the extractor lists, in
// one FactRef per function, every identifier or selector in a position
// where a function value can stand, and relation resolution (internal/index/refs_go.go)
// keeps as references edges those that resolve, as a call's callee would,
// to a project function or method. The others leave no trace.

// FactRef: the names the Go function or method Owner (its chunk symbol)
// uses as values, one fact per function: Sig lists them, one per line
// ("\n"-separated), each as LINE, NAME and QUALIFIER separated by tabs,
// in source order, without repeats. QUALIFIER is in the receiver notation
// of calls (Relation.Recv): "" for a bare name (the package's, as no local
// shadows it), "pkg:PATH" for an imported package's member, a type or
// value notation for x.NAME (a method value or expression). One fact per
// function rather than per use keeps the table small: most candidates are
// field reads and constants that resolve to nothing.
const FactRef = "ref"

// GoRef is one use listed by a FactRef fact.
type GoRef struct {
	Line      int
	Name      string
	Qualifier string // Relation.Recv notation
}

// ParseGoRefs reads the uses a FactRef fact's Sig lists (malformed
// entries are skipped).
func ParseGoRefs(sig string, out []GoRef) []GoRef {
	for sig != "" {
		var e string
		e, sig, _ = strings.Cut(sig, "\n")
		ln, rest, ok := strings.Cut(e, "\t")
		name, q, ok2 := strings.Cut(rest, "\t")
		line, err := strconv.Atoi(ln)
		if ok && ok2 && err == nil && name != "" {
			out = append(out, GoRef{Line: line, Name: name, Qualifier: q})
		}
	}
	return out
}

// goRefState is what the reference scan of a file knows beyond goCtx.
type goRefState struct {
	// top holds the names the file declares at top level as types,
	// variables and constants: a bare use of one is not a function.
	top map[string]bool
	// refs is the current function's uses (reused from one to the next).
	refs []GoRef
}

// goRefs records the reference candidates of function declaration fn
// (its chunk symbol from d) as one FactRef; the function's locals
// (goFuncLocals) are current.
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
	st := x.gref
	st.refs = st.refs[:0]
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
		r := GoRef{Line: t.line(at), Name: name, Qualifier: recv}
		if !slices.Contains(st.refs, r) {
			st.refs = append(st.refs, r)
		}
	}
	if len(st.refs) == 0 {
		return
	}
	var b strings.Builder
	for k, r := range st.refs {
		if k > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(strconv.Itoa(r.Line))
		b.WriteByte('\t')
		b.WriteString(r.Name)
		b.WriteByte('\t')
		b.WriteString(r.Qualifier)
	}
	x.facts = append(x.facts, Fact{Kind: FactRef, Owner: sym, Sig: b.String()})
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
