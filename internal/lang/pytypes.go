package lang

import (
	"slices"
	"strconv"
	"strings"
)

// Python type facts and receivers. Per file, at parse time: the names the
// imports bind (standard library included: resolution needs to know that a
// qualifier is a module outside the project), module variables, instance
// and class attributes (`self.x = T(...)`, `self.x: T`, `x: T`, `x = v`),
// properties and what functions return, as type expressions: "T" (the
// value of calling T), "=path" (names, attributes and "()" calls:
// "=self.make().node"; "()[k]" element k of the tuple a call returns;
// "super:C()" super() in a method of class C; "^T" at the head: the
// module-level T a local shadows, as a parameter's default names it),
// "A|B" (alternatives; "?" one of unknown type: "A|?"), "*E" (a builtin
// container of E), "%V" (a
// builtin mapping of V values; x[k] is "=x.__getitem__()", "=x[2]" for
// an index written out; the v of `for k, v in d.items()`
// "=d.items()[][1]"); "" unknown. Branches a static condition rules out
// (sys.platform, sys.version_info, TYPE_CHECKING) give no facts
// (FactDead); @overload declarations are FactOverload; a module's
// __all__ is FactAll. The facts carry names as written; resolution
// decides what they denote in the project. A local's or self.x's type at
// a call is what the statements before it give (pyNarrow), else every
// assignment's alternatives.

// FactImport is a name a Python import binds: Name is bound to module Type
// (as written, relative dots kept); Sig is the imported member ("" for
// `import M` / `import M as N`, "*" for a star import); Owner is "" at
// module level, the lines of the function ("12-30") for an import in a
// function (a local of it).
const FactImport = "import"

// FactBase is a base class of Python class Owner as written (Type "mod.Base"),
// in order: resolution follows it through the file's imports.
const FactBase = "base"

// pyPrepare records the file's import bindings, module variables,
// attributes, properties and function results as facts.
func pyPrepare(x *extractor) {
	t := x.t
	// branches a static condition rules out: no facts, and resolution
	// leaves their definitions out
	deadBlocks := pyDeadBlocks(t)
	for _, b := range deadBlocks {
		x.facts = append(x.facts, Fact{Kind: FactDead, Sig: strconv.Itoa(t.line(b)) + "-" + strconv.Itoa(t.endLine(b))})
	}
	dead := func(i int32) bool {
		for _, b := range deadBlocks {
			if i >= b && i < t.subtreeEnd(b) {
				return true
			}
		}
		return false
	}
	vars := map[string]string{}
	var varOrder []string
	type attrKey struct{ owner, name string }
	attrs := map[attrKey]string{}
	var attrOrder []attrKey
	setAttr := func(k attrKey, ty string) {
		if old, seen := attrs[k]; seen {
			attrs[k] = pyMerge(old, ty) // resolution compares the alternatives
			return
		}
		attrs[k] = ty
		attrOrder = append(attrOrder, k)
	}
	// assignType records a value of type expression ty (none: None;
	// annotated: ty is the annotation's) assigned to target l by
	// assignment node i
	assignType := func(i, l int32, ty string, none, annotated bool) {
		// the scope binding the target: an if, try, with or loop at
		// module level or in a class body binds in that scope
		owner := pyScopeOf(t, i)
		switch {
		case t.kind(l) == "identifier" && (owner >= 0 && t.kind(owner) == "module" || x.pyGlobal(i, t.text(l))):
			// a module variable: assigned at module level, or in a
			// function that declares it global; None is a placeholder
			n := t.text(l)
			if none {
				return
			}
			if t.kind(owner) != "module" && !annotated {
				ty = x.pySubstAt(i, ty)
			}
			if old, seen := vars[n]; seen {
				vars[n] = pyMerge(old, ty)
				return
			}
			vars[n] = ty
			varOrder = append(varOrder, n)
		case owner >= 0 && t.kind(owner) == "class_definition" && t.kind(l) == "identifier":
			// a class attribute: annotated (x: T), or assigned (x = T(),
			// x = Name: evaluated at module level, so unknown when the
			// class body binds the name before, as in warn = warning;
			// Process = Process is the module's)
			if !annotated {
				if none {
					return // a placeholder
				}
				if pyClassBinds(t, t.field(owner, "body"), pyHead(ty), i) {
					ty = ""
				}
			}
			setAttr(attrKey{pyClassSymbol(t, owner), t.text(l)}, ty)
		case t.kind(l) == "attribute":
			// self.x = … inside a method: an instance attribute
			o := t.field(l, "object")
			if t.kind(o) != "identifier" {
				return
			}
			fn, cls := pyMethodOf(t, i)
			if fn < 0 || pyFirstParam(t, fn) != t.text(o) {
				return
			}
			if none {
				return // a placeholder, typed by the other assignments
			}
			if !annotated {
				// self.x = x, self.x = p.make(): through the local's
				// type, when the function tells
				ty = x.pySubstAt(i, ty)
			}
			setAttr(attrKey{pyClassSymbol(t, cls), t.text(t.field(l, "attribute"))}, ty)
		}
	}
	// assign records the value r (annotated ann, or -1) assigned to
	// target l by assignment node i
	assign := func(i, l, r, ann int32) {
		assignType(i, l, pyValueType(t, r, ann), r >= 0 && t.kind(r) == "none" && ann < 0, ann >= 0)
	}
	for i := int32(0); i < int32(len(t.nodes)); i++ {
		switch t.kind(i) {
		case "function_definition", "class_definition", "assignment":
			if dead(i) {
				continue // (the imports in it stay: calls in it resolve)
			}
		}
		switch t.kind(i) {
		case "function_definition":
			ty := x.pyResult(i)
			owner := ""
			if _, cls := pyMethodOf(t, t.field(i, "body")); cls >= 0 {
				owner = pyClassSymbol(t, cls)
			}
			if p := t.parent(i); t.kind(p) == "decorated_definition" {
				for c := t.first(p); c >= 0; c = t.next(c) {
					if t.kind(c) == "decorator" && pyTyping(t, t.firstNamed(c), "overload") {
						// an @overload declaration
						x.facts = append(x.facts, Fact{Kind: FactOverload, Owner: owner, Name: t.text(t.field(i, "name")), Sig: strconv.Itoa(t.line(p)) + "-" + strconv.Itoa(t.endLine(p))})
					}
				}
			}
			if ty != "" {
				x.facts = append(x.facts, Fact{Kind: FactResult, Owner: owner, Name: t.text(t.field(i, "name")), Type: ty})
			}
			for k, et := range x.pyTupleResult(i) {
				if et != "" { // element k of the tuple it returns
					x.facts = append(x.facts, Fact{Kind: FactResult, Owner: owner, Name: t.text(t.field(i, "name")), Type: et, Sig: "[" + strconv.Itoa(k) + "]"})
				}
			}
			if y := x.pyYields(i); y != "" {
				// a generator: what iterating its result gives
				x.facts = append(x.facts, Fact{Kind: FactResult, Owner: owner, Name: t.text(t.field(i, "name")), Type: y, Sig: "yield"})
				if pyDecoratedBy(t, i, "contextmanager", "contextlib.contextmanager", "asynccontextmanager", "contextlib.asynccontextmanager") {
					// @contextmanager: with f() as x is what it yields
					x.facts = append(x.facts, Fact{Kind: FactResult, Owner: owner, Name: t.text(t.field(i, "name")), Sig: "enter"})
				}
			}
			if owner != "" && pyProperty(t, i) {
				// reading the attribute calls the method: its value is
				// the result (recorded unknown too: not the method)
				x.facts = append(x.facts, Fact{Kind: FactField, Owner: owner, Name: t.text(t.field(i, "name")), Type: ty, Sig: "property"})
			}
		case "class_definition":
			if sc := t.field(i, "superclasses"); sc >= 0 {
				owner := pyClassSymbol(t, i)
				for c := t.first(sc); c >= 0; c = t.next(c) {
					b := c
					if t.kind(b) == "subscript" { // Generic[T]
						b = t.field(b, "value")
					}
					if (t.kind(b) == "identifier" || t.kind(b) == "attribute") && pyDotted(t, b) {
						// Sig: the class's line, which tells apart classes of
						// one name defined in different functions
						x.facts = append(x.facts, Fact{Kind: FactBase, Owner: owner, Type: t.text(b), Sig: strconv.Itoa(t.line(i))})
					}
				}
			}
		case "import_statement", "import_from_statement":
			owner := ""
			if fn := pyScopeOf(t, i); fn >= 0 && (t.kind(fn) == "function_definition" || t.kind(fn) == "lambda") {
				owner = strconv.Itoa(t.line(fn)) + "-" + strconv.Itoa(t.endLine(fn))
			}
			n := len(x.facts)
			x.pyImportFacts(i)
			for k := n; k < len(x.facts); k++ {
				x.facts[k].Owner = owner
			}
			if dead(i) && owner == "" {
				// a star import a static condition rules out binds
				// nothing for pyright (from .windows_events import *
				// under sys.platform == "win32"); the others stay, for
				// the calls in the branch
				kept := x.facts[:n]
				for _, f := range x.facts[n:] {
					if f.Sig != "*" {
						kept = append(kept, f)
					}
				}
				x.facts = kept
			}
		case "assignment":
			l, r := t.field(i, "left"), t.field(i, "right")
			stmt := t.parent(i)
			if stmt < 0 || t.kind(stmt) != "expression_statement" {
				continue
			}
			if (t.kind(l) == "pattern_list" || t.kind(l) == "tuple_pattern") && (t.kind(r) == "expression_list" || t.kind(r) == "tuple") {
				// a, self.b = A(), B(): element by element
				if ls, rs := pyElems(t, l), pyElems(t, r); len(ls) == len(rs) {
					for k := range ls {
						assign(i, ls[k], rs[k], -1)
					}
				}
				continue
			}
			if t.kind(l) == "pattern_list" || t.kind(l) == "tuple_pattern" {
				// a, self.b = f(): the elements of the tuple f returns
				for k, e := range pyElems(t, l) {
					assignType(i, e, pyUnpacked(t, r, k), false, false)
				}
				continue
			}
			assign(i, l, r, t.field(i, "type"))
		}
	}
	for _, n := range varOrder {
		if vars[n] != "" {
			x.facts = append(x.facts, Fact{Kind: FactVar, Name: n, Type: vars[n]})
		}
	}
	if names, ok, set := pyAll(t); set {
		// the names a star import of the module binds
		f := Fact{Kind: FactAll, Type: "?"}
		if ok {
			f.Type, f.Sig = "", strings.Join(names, ",")
		}
		x.facts = append(x.facts, f)
	}
	for _, k := range attrOrder {
		// an attribute of unknown type is recorded too: it hides the
		// bases' attribute of the same name
		x.facts = append(x.facts, Fact{Kind: FactField, Owner: k.owner, Name: k.name, Type: attrs[k]})
	}
}

// pyResult is the type expression of what function fn returns as far as
// the syntax tells: its return annotation or type comment (`Self`: the
// instance it is called on), else the value every return statement returns when they
// agree — `T(...)`, `self`, a parameter or local of known type, another
// call (`self.make()`, `p.build()`: resolution follows it); `None` and a
// bare return are placeholders; "" when unknown.
func (x *extractor) pyResult(fn int32) string {
	t := x.t
	ann, annotated := "", false
	if rt := t.field(fn, "return_type"); rt >= 0 {
		ann, annotated = t.text(rt), true
	} else if _, rt, ok := pyTypeComment(t, fn); ok {
		ann, annotated = rt, true // # type: (…) -> R, pyright's return annotation
	}
	if annotated {
		// -> Self (typing's, as the file imports it, or bare): the
		// instance it is called on
		return pyAlts(pyAnnotation(ann), func(a string) string {
			if a == "Self" || a == "typing.Self" || pyTypingRef(t, a, "Self") {
				return "=self"
			}
			return a
		})
	}
	body := t.field(fn, "body")
	if body < 0 {
		return ""
	}
	ty, seen := "", false
	end := t.subtreeEnd(body)
	for j := body; j < end; j++ {
		switch t.kind(j) {
		case "function_definition", "class_definition", "lambda":
			j = t.subtreeEnd(j) - 1
		case "yield":
			return "" // a generator
		case "return_statement":
			v := t.firstNamed(j)
			if v < 0 || t.kind(v) == "none" {
				continue // a placeholder, typed by the other returns
			}
			rt := x.pySubstAt(v, pyValueType(t, v, -1))
			if seen {
				rt = pyMerge(ty, rt) // an unknown one: the alternative "?"
			}
			ty, seen = rt, true
		}
	}
	return ty
}

// pyTupleResult is, when function fn is annotated to return a tuple of
// known length (`-> tuple[A, B]`) or every return statement of it
// returns a tuple of one length (`return a, b`; a bare return or None a
// placeholder), the type expression of each element, alternatives when
// the returns differ; nil otherwise.
func (x *extractor) pyTupleResult(fn int32) []string {
	t := x.t
	if rt := t.field(fn, "return_type"); rt >= 0 {
		// -> tuple[A, B]: A, B (not tuple[A, ...])
		name, args, ok := strings.Cut(strings.Trim(strings.TrimSpace(t.text(rt)), `"'`), "[")
		if short := name[strings.LastIndexByte(name, '.')+1:]; !ok || short != "tuple" && short != "Tuple" || !strings.HasSuffix(args, "]") {
			return nil
		}
		elems := pyTypeArgs(strings.TrimSuffix(args, "]"))
		if len(elems) == 0 || slices.Contains(elems, "...") {
			return nil
		}
		out := make([]string, len(elems))
		for k, e := range elems {
			out[k] = pyAnnotation(e)
		}
		return out
	}
	body := t.field(fn, "body")
	if body < 0 {
		return nil
	}
	var out []string
	for j, end := body, t.subtreeEnd(body); j < end; j++ {
		switch t.kind(j) {
		case "function_definition", "class_definition", "lambda":
			j = t.subtreeEnd(j) - 1
		case "yield":
			return nil
		case "return_statement":
			v := t.firstNamed(j)
			for v >= 0 && t.kind(v) == "parenthesized_expression" {
				v = t.firstNamed(v)
			}
			if v < 0 || t.kind(v) == "none" {
				continue
			}
			if t.kind(v) != "expression_list" && t.kind(v) != "tuple" {
				return nil
			}
			es := pyElems(t, v)
			if out != nil && len(es) != len(out) || len(es) == 0 {
				return nil
			}
			first := out == nil
			if first {
				out = make([]string, len(es))
			}
			for k, e := range es {
				et := ""
				if t.kind(e) != "list_splat" {
					et = x.pySubstAt(e, pyValueType(t, e, -1))
				}
				if !first {
					et = pyMerge(out[k], et)
				}
				out[k] = et
			}
		}
	}
	return out
}

// pyUnpacked is the type expression of element k of a tuple assignment
// whose value is r: of a call, element k of the tuple it returns
// ("=f()[k]"); "" otherwise.
func pyUnpacked(t *tree, r int32, k int) string {
	for r >= 0 && (t.kind(r) == "await" || t.kind(r) == "parenthesized_expression") {
		r = t.firstNamed(r)
	}
	if r < 0 || t.kind(r) != "call" {
		return ""
	}
	vt := pyValueType(t, r, -1)
	if vt == "" || strings.ContainsAny(vt, "|*") || !strings.HasSuffix(pyPath(vt), "()") {
		return ""
	}
	return "=" + pyPath(vt) + "[" + strconv.Itoa(k) + "]"
}

// pyItemValue is the path suffix of the value in the pairs a mapping's
// items() yields (`for k, v in d.items()`: v is `=d.items()[][1]`).
const pyItemValue = ".items()[][1]"

// PythonItemValue is pyItemValue for resolution.
const PythonItemValue = pyItemValue

// pyMappingValue are the calls of a mapping that give one of its values
// (`d[k]` is `d.__getitem__()`).
var pyMappingValue = []string{".__getitem__()", ".get()", ".pop()", ".setdefault()"}

// PythonMappingValue reports whether call (".get()") of a builtin mapping
// gives one of its values.
func PythonMappingValue(call string) bool { return slices.Contains(pyMappingValue, call) }

// pyHead is the first name of type expression expr.
func pyHead(expr string) string {
	p := strings.TrimPrefix(expr, "=")
	if k := strings.IndexAny(p, ".(["); k >= 0 {
		return p[:k]
	}
	return p
}

// pyClassBinds reports whether class body block binds name (a def, a
// class, an assignment) in a statement before node i.
func pyClassBinds(t *tree, block int32, name string, i int32) bool {
	if name == "" {
		return false
	}
	for c := t.first(block); c >= 0 && t.subtreeEnd(c) <= i; c = t.next(c) {
		d := c
		if t.kind(d) == "decorated_definition" {
			d = t.field(d, "definition")
		}
		switch t.kind(d) {
		case "function_definition", "class_definition":
			if t.text(t.field(d, "name")) == name {
				return true
			}
		case "expression_statement":
			if a := t.firstNamed(d); t.kind(a) == "assignment" && t.text(t.field(a, "left")) == name {
				return true
			}
		}
	}
	return false
}

// pyYields is the type expression of what generator fn yields: every
// `yield v` (`yield from g`: an element of g), alternatives when they
// differ, a bare yield or None a placeholder; "" when unknown or not a
// generator.
func (x *extractor) pyYields(fn int32) string {
	t := x.t
	body := t.field(fn, "body")
	if body < 0 {
		return ""
	}
	ty, seen := "", false
	for j, end := body, t.subtreeEnd(body); j < end; j++ {
		switch t.kind(j) {
		case "function_definition", "class_definition", "lambda":
			j = t.subtreeEnd(j) - 1
		case "yield":
			v := t.firstNamed(j)
			if v < 0 || t.kind(v) == "none" {
				continue
			}
			vt := x.pySubstAt(v, pyValueType(t, v, -1))
			for c := t.first(j); c >= 0; c = t.next(c) {
				if t.kind(c) == "from" {
					vt = pyAppend(vt, "[]")
				}
			}
			if seen {
				vt = pyMerge(ty, vt)
			}
			ty, seen = vt, true
		}
	}
	return ty
}

// pyProperty reports whether function fn is decorated as a property
// (`@property`, `@functools.cached_property`).
func pyProperty(t *tree, fn int32) bool {
	return pyDecoratedBy(t, fn, "property", "cached_property", "functools.cached_property")
}

// pyDecoratedBy reports whether function fn has one of decorators names
// (as written, without arguments).
func pyDecoratedBy(t *tree, fn int32, names ...string) bool {
	p := t.parent(fn)
	if p < 0 || t.kind(p) != "decorated_definition" {
		return false
	}
	for c := t.first(p); c >= 0; c = t.next(c) {
		if t.kind(c) == "decorator" && slices.Contains(names, t.text(t.firstNamed(c))) {
			return true
		}
	}
	return false
}

// pyValueType is the type expression of an assigned value as far as the
// syntax tells: the annotation when there is one, else the callee of a
// call (`T(...)`, `mod.T(...)`: resolution decides whether it is a class
// or a function whose result it is), or "=" and the path of the value
// (`= compat32`, `= self.policy`, `= self.make().node`: names, attributes
// and calls; `super().__new__(cls)`, `str.__new__(cls)`: "=cls()", an
// instance of cls); "" when unknown. A local at the head of it is
// replaced by the caller (pySubst).
func pyValueType(t *tree, r, ann int32) string {
	if ann >= 0 {
		return pyAnnotation(t.text(ann))
	}
	for {
		switch t.kind(r) {
		case "await", "parenthesized_expression":
			r = t.firstNamed(r)
			continue
		case "assignment": // a = b = T()
			r = t.field(r, "right")
			continue
		case "named_expression":
			r = t.field(r, "value")
			continue
		}
		break
	}
	if r < 0 {
		return ""
	}
	switch t.kind(r) {
	case "conditional_expression": // a if c else b: either
		if e := pyElems(t, r); len(e) == 3 {
			return pyEither(t, e[0], e[2])
		}
		return ""
	case "boolean_operator": // a or b: either (a and b: not known)
		for c := t.first(r); c >= 0; c = t.next(c) {
			if t.kind(c) == "or" {
				return pyEither(t, t.field(r, "left"), t.field(r, "right"))
			}
		}
		return ""
	}
	switch t.kind(r) {
	case "list", "set":
		// [A(), A()]: a list of A; elements of different types, none or
		// a splat: of unknown elements (pyright's list[Unknown])
		elem := ""
		for k, e := range pyElems(t, r) {
			et := pyValueType(t, e, -1)
			if et == "" || t.kind(e) == "list_splat" || k > 0 && et != elem {
				return ""
			}
			elem = et
		}
		return pyContainer(elem)
	case "tuple", "expression_list":
		// (A(), B()): iterating gives either
		elem := ""
		for k, e := range pyElems(t, r) {
			et := pyValueType(t, e, -1)
			if t.kind(e) == "list_splat" {
				et = ""
			}
			if k > 0 {
				et = pyMerge(elem, et)
			}
			elem = et
		}
		return pyContainer(elem)
	case "list_comprehension", "set_comprehension", "generator_expression":
		return pyContainer(pyComprehension(t, r))
	}
	if t.kind(r) == "call" {
		if f := t.field(r, "function"); t.kind(f) == "identifier" && pyIterates[t.text(f)] {
			// list(v), sorted(v): a container of v's elements
			if args := pyElems(t, t.field(r, "arguments")); len(args) == 1 {
				if vt := pyValueType(t, args[0], -1); vt != "" {
					return pyContainer(pyAppend(vt, "[]"))
				}
			}
		}
		if f := t.field(r, "function"); t.kind(f) == "identifier" && (t.text(f) == "map" || t.text(f) == "filter") {
			// map(F, v): what calling F gives, for each element (F a
			// class or function named); filter(f, v): v's elements
			args := pyElems(t, t.field(r, "arguments"))
			switch {
			case len(args) >= 2 && t.text(f) == "map" && pyDotted(t, args[0]):
				return pyContainer(t.text(args[0]))
			case len(args) == 2 && t.text(f) == "filter":
				if vt := pyValueType(t, args[1], -1); vt != "" {
					return pyContainer(pyAppend(vt, "[]"))
				}
			}
			return ""
		}
		if f := t.field(r, "function"); t.kind(f) == "identifier" && t.text(f) == "next" {
			// next(it), next(it, None): what it.__next__() returns (of
			// a builtin container's iterator, an element)
			args := pyElems(t, t.field(r, "arguments"))
			if len(args) == 1 || len(args) == 2 && t.kind(args[1]) == "none" {
				return pyAlts(pyValueType(t, args[0], -1), func(a string) string {
					if strings.HasPrefix(a, "*") {
						return pyAppend(a, "[]")
					}
					return pyAppend(a, ".__next__()")
				})
			}
			return ""
		}
		if f := t.field(r, "function"); t.kind(f) == "attribute" && t.text(t.field(f, "attribute")) == "__new__" {
			// super().__new__(cls, …), str.__new__(cls, …): an instance of cls
			if args := pyElems(t, t.field(r, "arguments")); len(args) > 0 && pyDotted(t, args[0]) {
				return "=" + t.text(args[0]) + "()"
			}
		}
		if f := t.field(r, "function"); pyTyping(t, f, "cast") {
			// typing.cast(T, v): a T
			if args := pyElems(t, t.field(r, "arguments")); len(args) == 2 {
				return pyAnnotation(t.text(args[0]))
			}
		}
		if f := t.field(r, "function"); f >= 0 && (t.kind(f) == "identifier" || t.kind(f) == "attribute") && pyDotted(t, f) {
			return t.text(f)
		}
	}
	if p := pyRaw(t, r); p != "" {
		return "=" + p
	}
	return ""
}

// pyIterates are the builtins that make a container of their argument's
// elements.
var pyIterates = map[string]bool{"list": true, "tuple": true, "set": true, "frozenset": true, "sorted": true, "reversed": true, "iter": true}

// pyContainer is the type expression of a builtin container whose
// elements are of type expression elem: "*E" for each alternative E (an
// unknown one stays unknown); "" when elem is.
func pyContainer(elem string) string {
	return pyAlts(elem, func(a string) string { return "*" + a })
}

// pyComprehension is the type expression of the elements comprehension
// r makes: its expression's, a variable of its for clauses at the head
// being an element of what the clause iterates ("" for a dict's).
func pyComprehension(t *tree, r int32) string {
	body := t.firstNamed(r)
	if body < 0 || t.kind(body) == "pair" {
		return ""
	}
	ty := pyValueType(t, body, -1)
	var clauses []int32
	for c := t.first(r); c >= 0; c = t.next(c) {
		if t.kind(c) == "for_in_clause" {
			clauses = append(clauses, c)
		}
	}
	for k := len(clauses) - 1; k >= 0; k-- { // inner clauses first: their iterables may name outer variables
		l := t.field(clauses[k], "left")
		ty = pySubst(ty, func(h string) (string, bool) {
			return pyLoopVar(t, l, t.field(clauses[k], "right"), h)
		})
	}
	return ty
}

// pyLoopVar is the type for target l, iterating right, gives name, as
// pyright types it through the builtins' generic stubs; !ok when l does
// not bind name. A name alone is an element of right; in a tuple of
// names (`for a, b in …`), the name at position k is the k-th element of
// the tuples right yields when they are known: `enumerate(v)` (an
// element of v second), `zip(v, w, …)` (an element of each in turn),
// `d.items()` (a mapping's value second); anything else, and a nested
// or starred target, is unknown ("").
func pyLoopVar(t *tree, l, right int32, name string) (string, bool) {
	if t.kind(l) == "identifier" {
		if t.text(l) != name {
			return "", false
		}
		return pyAppend(pyValueType(t, right, -1), "[]"), true
	}
	if !pyBinds(t, l, name) {
		return "", false
	}
	if t.kind(l) != "pattern_list" && t.kind(l) != "tuple_pattern" {
		return "", true
	}
	ls := pyElems(t, l)
	k := slices.IndexFunc(ls, func(e int32) bool { return t.kind(e) == "identifier" && t.text(e) == name })
	if k < 0 || t.kind(right) != "call" {
		return "", true
	}
	var args []int32
	for _, a := range pyElems(t, t.field(right, "arguments")) {
		if t.kind(a) == "keyword_argument" {
			continue // enumerate(v, start=1), zip(v, w, strict=True)
		}
		if t.kind(a) == "list_splat" || t.kind(a) == "dictionary_splat" {
			return "", true
		}
		args = append(args, a)
	}
	f := t.field(right, "function")
	switch {
	case t.kind(f) == "identifier" && t.text(f) == "enumerate" && len(ls) == 2 && len(args) >= 1 && len(args) <= 2:
		if k == 1 {
			return pyAppend(pyValueType(t, args[0], -1), "[]"), true
		}
	case t.kind(f) == "identifier" && t.text(f) == "zip" && len(ls) == len(args):
		return pyAppend(pyValueType(t, args[k], -1), "[]"), true
	case t.kind(f) == "attribute" && t.text(t.field(f, "attribute")) == "items" && len(ls) == 2 && len(args) == 0 && k == 1:
		return pyAppend(pyValueType(t, t.field(f, "object"), -1), pyItemValue), true
	}
	return "", true
}

// pyBinds reports whether target l (a name, a tuple or list pattern)
// binds name.
func pyBinds(t *tree, l int32, name string) bool {
	for j, end := l, t.subtreeEnd(l); j < end; j++ {
		if t.kind(j) == "identifier" && t.text(j) == name {
			return true
		}
	}
	return false
}

// pyEither is the type expression of a value that is a or b (None being
// a placeholder).
func pyEither(t *tree, a, b int32) string {
	switch {
	case t.kind(a) == "none":
		return pyValueType(t, b, -1)
	case t.kind(b) == "none":
		return pyValueType(t, a, -1)
	}
	return pyMerge(pyValueType(t, a, -1), pyValueType(t, b, -1))
}

// pyElems is the named children of node n, comments left out.
func pyElems(t *tree, n int32) []int32 {
	var out []int32
	for c := t.first(n); c >= 0; c = t.next(c) {
		if t.named(c) && t.kind(c) != "comment" {
			out = append(out, c)
		}
	}
	return out
}

// pyAppend is type expression expr followed by path suffix (".m()"), for
// each alternative (of a container "*E", "[]" is E, anything else
// unknown); "" when expr is.
func pyAppend(expr, suffix string) string {
	if pyIndexStep(suffix) > 0 && strings.Count(expr, "|*") > 0 && strings.HasPrefix(expr, "*") {
		// t[1] of (A(), B()): a container of several types keeps no
		// positions (a tuple's element 1 is a B, not an A or a B)
		return ""
	}
	return pyAlts(expr, func(a string) string {
		if e, ok := strings.CutPrefix(a, "*"); ok { // a builtin container
			rest, ok := strings.CutPrefix(suffix, "[]")
			if !ok {
				rest, ok = strings.CutPrefix(suffix, ".__getitem__()") // xs[i]
			}
			if n := pyIndexStep(suffix); !ok && n > 0 {
				rest, ok = suffix[n:], true // xs[0]
			}
			if ok {
				if rest == "" {
					return e // an element
				}
				return pyAppend(e, rest)
			}
			return "" // its methods' results: pyright types them through generic stubs
		}
		if v, ok := strings.CutPrefix(a, "%"); ok { // a mapping's values
			for _, m := range pyMappingValue {
				if rest, ok := strings.CutPrefix(suffix, m); ok {
					if rest == "" {
						return v
					}
					return pyAppend(v, rest)
				}
			}
			if n := pyIndexStep(suffix); n > 0 { // d[0]
				if suffix[n:] == "" {
					return v
				}
				return pyAppend(v, suffix[n:])
			}
			if rest, ok := strings.CutPrefix(suffix, pyItemValue); ok {
				if rest == "" {
					return v
				}
				return pyAppend(v, rest)
			}
			if rest, ok := strings.CutPrefix(suffix, ".values()"); ok {
				if rest == "" {
					return pyContainer(v)
				}
				return pyAppend(pyContainer(v), rest)
			}
			return "" // keys, items, other methods
		}
		return "=" + pyPath(a) + suffix
	})
}

// pyAlts maps f over the alternatives of type expression expr (an
// unknown one, "?", stays unknown) and merges the results; "" when expr
// is.
func pyAlts(expr string, f func(string) string) string {
	out := ""
	for k, a := range strings.Split(expr, "|") {
		sa := ""
		if a != pyAnyAlt && a != "" {
			sa = f(a)
		}
		if k > 0 {
			sa = pyMerge(out, sa)
		}
		out = sa
	}
	return out
}

// pyOperators are the methods Python's binary operators call on their
// left operand.
var pyOperators = map[string]string{"+": "__add__", "-": "__sub__", "*": "__mul__", "@": "__matmul__",
	"/": "__truediv__", "//": "__floordiv__", "%": "__mod__", "**": "__pow__", "<<": "__lshift__",
	">>": "__rshift__", "&": "__and__", "|": "__or__", "^": "__xor__"}

// pyRaw is the path of expression n: names and attributes joined by dots,
// "()" after each call (arguments dropped): "self.make().node"; super()
// in a method: "super:C()"; a binary operator the call of its left
// operand's method ("a.__truediv__()" for a / b); "" for anything else (a
// literal, a comparison, super(T, x)).
func pyRaw(t *tree, n int32) string {
	switch t.kind(n) {
	case "identifier":
		return t.text(n)
	case "attribute":
		if o := pyRaw(t, t.field(n, "object")); o != "" {
			return o + "." + t.text(t.field(n, "attribute"))
		}
	case "call":
		f := t.field(n, "function")
		if t.kind(f) == "identifier" && t.text(f) == "super" {
			// super() in a method of class C: "super:C()" (":" for
			// the dots of a nested class), whose members are C's
			// bases', self staying the instance
			if _, cls := pyMethodOf(t, n); cls >= 0 && len(pyElems(t, t.field(n, "arguments"))) == 0 {
				return PythonSuperHead + strings.ReplaceAll(pyClassSymbol(t, cls), ".", ":") + "()"
			}
			return ""
		}
		if a := t.field(n, "arguments"); t.kind(f) == "identifier" && t.text(f) == "type" && t.kind(a) == "argument_list" {
			// type(x): the class of x
			if args, o := pyElems(t, a), ""; len(args) == 1 {
				if o = pyRaw(t, args[0]); o != "" {
					return o + ".__class__"
				}
			}
			return ""
		}
		if o := pyRaw(t, f); o != "" {
			return o + "()"
		}
	case "parenthesized_expression", "await":
		return pyRaw(t, t.firstNamed(n))
	case "binary_operator":
		// a / b: what a's __truediv__ returns (pyright evaluates the
		// operator through the left operand's method)
		if m := pyOperators[t.text(t.field(n, "operator"))]; m != "" {
			if o := pyRaw(t, t.field(n, "left")); o != "" {
				return o + "." + m + "()"
			}
		}
	case "subscript":
		// x[k]: what x.__getitem__(k) returns (not T[int](): a
		// generic alias called)
		if p := t.parent(n); p >= 0 && t.kind(p) == "call" && t.field(p, "function") == n {
			return ""
		}
		if o := pyRaw(t, t.field(n, "value")); o != "" {
			if k := t.field(n, "subscript"); t.kind(k) == "integer" && pyDigits(t.text(k)) {
				return o + "[" + t.text(k) + "]" // x[2]: of a call's tuple, element 2
			}
			return o + ".__getitem__()"
		}
	}
	return ""
}

// pyDigits reports whether s is a decimal integer (an index written out).
func pyDigits(s string) bool {
	if s == "" || len(s) > 4 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// pyIndexStep is the length of a leading "[k]" (k digits) of path suffix
// s, or 0: x[k] written out, which is x.__getitem__(k) but for a call's
// tuple, element k.
func pyIndexStep(s string) int {
	if end := strings.IndexByte(s, ']'); len(s) > 2 && s[0] == '[' && end > 1 && pyDigits(s[1:end]) {
		return end + 1
	}
	return 0
}

// PythonIndexStep is pyIndexStep for resolution.
func PythonIndexStep(s string) int { return pyIndexStep(s) }

// PythonSuperHead starts the head of a path that is super() in a method of a
// class: "super:C()".
const PythonSuperHead = "super:"

// PythonModuleHead starts the head of a path that names a module-level
// name a local of the function shadows: a parameter's default, which
// Python evaluates where the def is (`def scan(s, Loader=Loader)`: the
// parameter's type is "=^Loader", the module's class).
const PythonModuleHead = "^"

// pyModuleMark marks the head of alternative a of a parameter's default
// as a module-level name (a name, or a path from one: "T", "=m.T()"; not
// self or cls, nor a container's elements).
func pyModuleMark(a string) string {
	p, eq := strings.CutPrefix(a, "=")
	head := p
	if k := strings.IndexAny(p, ".(["); k >= 0 {
		head = p[:k]
	}
	if head == "" || head == "self" || head == "cls" || strings.ContainsRune(head, ':') ||
		!(head[0] == '_' || head[0] >= 'a' && head[0] <= 'z' || head[0] >= 'A' && head[0] <= 'Z' || head[0] >= 0x80) {
		return a // (super:C, a container "*E", a mapping "%V")
	}
	if eq {
		return "=" + PythonModuleHead + p
	}
	return PythonModuleHead + p
}

// pyMarked is the module-level name at the head of alternative a that
// pyModuleMark marked, if it is.
func pyMarked(a string) (string, bool) {
	p, ok := strings.CutPrefix(strings.TrimPrefix(a, "="), PythonModuleHead)
	if !ok {
		return "", false
	}
	if k := strings.IndexAny(p, ".(["); k >= 0 {
		p = p[:k]
	}
	return p, true
}

// pyPath is type expression expr as a path ("T": the value of T(), so
// "T()"; "=p": p).
func pyPath(expr string) string {
	if p, ok := strings.CutPrefix(expr, "="); ok {
		return p
	}
	return expr + "()"
}

// pyAnyAlt is the alternative of a type expression that stands for a
// value of unknown type: "A|?" is an A or a value of unknown type (an
// untyped parameter assigned in one place, T() in another) — what
// pyright types as the union with Unknown, whose calls it resolves
// through the known part (resolution: inferred).
const pyAnyAlt = "?"

// pyMerge is the type expression of a name assigned values a and b: the
// alternatives of both in order ("A|B"; resolution takes them when they
// all denote the same class), an unknown one ("") the alternative "?";
// unknown when all are, or beyond four.
func pyMerge(a, b string) string {
	if a == "" {
		a = pyAnyAlt
	}
	if b == "" {
		b = pyAnyAlt
	}
	alts := strings.Split(a, "|")
	for _, y := range strings.Split(b, "|") {
		if !slices.Contains(alts, y) {
			alts = append(alts, y)
		}
	}
	if len(alts) > 4 || len(alts) == 1 && alts[0] == pyAnyAlt {
		return ""
	}
	return strings.Join(alts, "|")
}

// pySubst replaces a local at the head of type expression expr with the
// local's own type expression (lookup: whether a name is a local, and its
// type): "" when the local's type is unknown, expr itself when the head
// is not a local (self/cls, the instance and class of a method, are not:
// pyLocal).
// Alternatives are replaced each (an unknown one stays "?").
func pySubst(expr string, lookup func(string) (string, bool)) string {
	if expr == "" {
		return ""
	}
	if strings.Contains(expr, "|") {
		return pyAlts(expr, func(a string) string { return pySubst(a, lookup) })
	}
	if e, ok := strings.CutPrefix(expr, "*"); ok { // a container of E
		return pyContainer(pySubst(e, lookup))
	}
	p := pyPath(expr)
	head := p
	if k := strings.IndexAny(p, ".(["); k >= 0 {
		head = p[:k]
	}
	lt, local := lookup(head)
	switch {
	case !local:
		return expr
	case lt == "":
		return ""
	case "="+head == expr:
		return lt // the local's value itself
	}
	return pyAppend(lt, p[len(head):])
}

// pySubstAt is pySubst with the locals of the functions enclosing node i.
func (x *extractor) pySubstAt(i int32, expr string) string {
	return pySubst(expr, func(name string) (string, bool) {
		local, ty := x.pyLocalAt(i, name)
		return ty, local
	})
}

// pyAnnotation reduces an annotation to the class it names: "T", "mod.T",
// "Optional[T]", "T | None", a string "T", a generic class "T[X]",
// "ClassVar[T]", "Annotated[T, …]"; to alternatives ("A | B",
// "Union[A, B]": "A|B"); to the class itself ("type[T]": "=T"); or to a
// container of such ("list[T]", "Iterable[T]", "tuple[A, B]": "*T",
// "*A|*B"); "" for anything else (a dict, a callable, a literal).
func pyAnnotation(s string) string {
	s = strings.Trim(strings.TrimSpace(s), `"'`)
	if alts := pyUnion(s); len(alts) > 1 {
		// A | B | None, Union[A, B], Optional[A]: the alternatives (None
		// left out, as a placeholder); one unknown, all unknown
		var out []string
		for _, a := range alts {
			if a == "None" {
				continue
			}
			at := pyAnnotation(a)
			if at == "" {
				return ""
			}
			out = append(out, at)
		}
		ty := ""
		for k, a := range out {
			if k == 0 {
				ty = a
				continue
			}
			if ty = pyMerge(ty, a); ty == "" {
				return ""
			}
		}
		return ty
	}
	if name, args, ok := strings.Cut(s, "["); ok && strings.HasSuffix(args, "]") {
		name = strings.TrimSpace(name)
		short := name[strings.LastIndexByte(name, '.')+1:] // (typing., collections.abc., an alias of them)
		elems := pyTypeArgs(strings.TrimSuffix(args, "]"))
		switch {
		case len(elems) == 0:
			return ""
		case short == "Annotated" || short == "ClassVar" || short == "Final":
			return pyAnnotation(elems[0]) // the annotated type
		case short == "type" || short == "Type":
			// type[T]: the class itself
			if c := pyAnnotation(elems[0]); c != "" && !strings.ContainsAny(c, "*|=") {
				return "=" + c
			}
			return ""
		case pyMappingTypes[short] && len(elems) == 2:
			// dict[K, V]: a mapping whose values are V
			return pyAlts(pyAnnotation(elems[1]), func(a string) string { return "%" + a })
		case pyTypingForms[short]:
			return "" // a callable, a literal, an awaitable …
		case !pyContainerTypes[short]:
			// a generic class (Node[T], mod.Box[int]): its instance
			return pyAnnotation(name)
		case short != "tuple" && short != "Tuple" || len(elems) == 2 && elems[1] == "...":
			elems = elems[:1] // Generator[Y, S, R]: what it yields
		}
		elem := ""
		for k, e := range elems {
			et := pyAnnotation(e)
			if k > 0 {
				et = pyMerge(elem, et)
			}
			elem = et
		}
		return pyContainer(elem)
	}
	for _, c := range s {
		if !(c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return ""
		}
	}
	return s
}

// pyUnion splits annotation s into the alternatives of a union: "A | B"
// at the top level, Union[A, B], Optional[A] (A and None); one element
// when it is none.
func pyUnion(s string) []string {
	var out []string
	depth, start := 0, 0
	for k, c := range s {
		switch c {
		case '[', '(':
			depth++
		case ']', ')':
			depth--
		case '|':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:k]))
				start = k + 1
			}
		}
	}
	if len(out) > 0 {
		return append(out, strings.TrimSpace(s[start:]))
	}
	if name, args, ok := strings.Cut(s, "["); ok && strings.HasSuffix(args, "]") {
		name = strings.TrimSpace(name)
		switch name[strings.LastIndexByte(name, '.')+1:] {
		case "Union":
			return pyTypeArgs(strings.TrimSuffix(args, "]"))
		case "Optional":
			return []string{strings.TrimSuffix(args, "]"), "None"}
		}
	}
	return []string{s}
}

// pyMappingTypes are the builtin and typing mappings an annotation
// gives the values of ("%V").
var pyMappingTypes = map[string]bool{"dict": true, "Dict": true, "Mapping": true, "MutableMapping": true,
	"defaultdict": true, "DefaultDict": true, "OrderedDict": true}

// pyTypingForms are the generic forms of typing and collections.abc whose
// value is neither an instance of the class they name nor a container
// of their argument that codectx follows: mappings (iterating gives
// keys), callables, literals, awaitables, context managers, unions.
// (IO[T], Pattern[T] and Match[T] are instances of the class they name,
// as a generic class is: their methods take and give builtin values.)
var pyTypingForms = map[string]bool{"dict": true, "Dict": true, "Mapping": true, "MutableMapping": true,
	"DefaultDict": true, "defaultdict": true, "OrderedDict": true, "Counter": true, "ChainMap": true,
	"Callable": true, "Literal": true, "Awaitable": true, "Coroutine": true, "AsyncIterable": true,
	"AsyncIterator": true, "AsyncGenerator": true, "ContextManager": true, "AsyncContextManager": true,
	"Union": true, "Optional": true, "TypeGuard": true, "TypeIs": true, "Unpack": true, "Required": true,
	"NotRequired": true, "ReadOnly": true, "Concatenate": true, "Generic": true, "Protocol": true,
	"KeysView": true, "ValuesView": true, "ItemsView": true, "MappingView": true}

var pyContainerTypes = map[string]bool{"list": true, "List": true, "set": true, "Set": true, "frozenset": true,
	"FrozenSet": true, "tuple": true, "Tuple": true, "Sequence": true, "MutableSequence": true, "Iterable": true,
	"Iterator": true, "Collection": true, "AbstractSet": true, "MutableSet": true, "Reversible": true,
	"Generator": true, "deque": true, "Deque": true}

// pyTypeArgs splits the type arguments of a subscripted annotation at
// its top-level commas.
func pyTypeArgs(s string) []string {
	var out []string
	depth, start := 0, 0
	for k, c := range s {
		switch c {
		case '[':
			depth++
		case ']':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:k]))
				start = k + 1
			}
		}
	}
	if rest := strings.TrimSpace(s[start:]); rest != "" {
		out = append(out, rest)
	}
	return out
}

// pyDotted reports whether node i is an identifier or a chain of
// attributes over identifiers (a.b.c).
func pyDotted(t *tree, i int32) bool {
	for {
		switch t.kind(i) {
		case "identifier":
			return true
		case "attribute":
			i = t.field(i, "object")
		default:
			return false
		}
	}
}

// pyClassSymbol is the symbol of class node c ("Outer.Inner").
func pyClassSymbol(t *tree, c int32) string {
	name := t.text(t.field(c, "name"))
	for p := t.parent(c); p >= 0; p = t.parent(p) {
		if t.kind(p) == "class_definition" {
			name = t.text(t.field(p, "name")) + "." + name
		}
	}
	return name
}

// pyMethodOf returns the function enclosing node i and, when that function
// is a method (in a class body, or in an if or try of it), its class; -1s
// otherwise.
func pyMethodOf(t *tree, i int32) (fn, cls int32) {
	fn = pyScopeOf(t, i)
	if fn < 0 || t.kind(fn) != "function_definition" {
		return -1, -1
	}
	if cls = pyScopeOf(t, fn); cls < 0 || t.kind(cls) != "class_definition" {
		return -1, -1
	}
	return fn, cls
}

// pyScopeOf is the node of the scope node i is in: the innermost
// function, lambda or class enclosing it, else the module (an if, try,
// with or loop is no scope of its own); -1 when none.
func pyScopeOf(t *tree, i int32) int32 {
	for p := t.parent(i); p >= 0; p = t.parent(p) {
		switch t.kind(p) {
		case "function_definition", "lambda", "class_definition", "module":
			return p
		}
	}
	return -1
}

// pyFirstParam is the name of function fn's first parameter ("self").
func pyFirstParam(t *tree, fn int32) string {
	ps := t.field(fn, "parameters")
	for c := t.first(ps); c >= 0; c = t.next(c) {
		switch t.kind(c) {
		case "identifier":
			return t.text(c)
		case "typed_parameter":
			return t.text(t.childKind(c, "identifier"))
		case "default_parameter", "typed_default_parameter":
			return t.text(t.field(c, "name"))
		}
	}
	return ""
}

// pyScope is what a function (or lambda) binds locally: name → class as
// far as known ("" unknown); names of nested defs are not in it (a call of
// one is a call of its chunk).
func (x *extractor) pyScope(fn int32) map[string]string {
	if x.pyLocals == nil {
		x.pyLocals = map[int32]map[string]string{}
	}
	if locals, ok := x.pyLocals[fn]; ok {
		return locals
	}
	t := x.t
	locals := map[string]string{}
	global := map[string]bool{}
	bound := map[string]int{} // places binding each local, assigning each dotted name
	params := map[string]string{}
	const none = "\x00none" // None: a placeholder the other assignments type
	set := func(n int32, ty string) {
		if n < 0 || t.kind(n) != "identifier" {
			return
		}
		name := t.text(n)
		bound[name]++
		if old, seen := locals[name]; seen && old != ty {
			switch {
			case ty == none:
				ty = old
			case old != none:
				ty = pyMerge(old, ty)
			}
		}
		locals[name] = ty
	}
	var setAll func(n int32)
	setAll = func(n int32) { // a target: identifier, tuple/list pattern
		switch t.kind(n) {
		case "identifier":
			set(n, "")
		case "pattern_list", "tuple_pattern", "list_pattern", "as_pattern_target", "list_splat_pattern":
			for c := t.first(n); c >= 0; c = t.next(c) {
				setAll(c)
			}
		}
	}
	commented, _, _ := pyTypeComment(t, fn) // (A, B) -> R: the parameters' types
	if ps := t.field(fn, "parameters"); ps >= 0 {
		k := -1 // the parameter's position
		for c := t.first(ps); c >= 0; c = t.next(c) {
			switch t.kind(c) {
			case "identifier", "typed_parameter", "typed_default_parameter", "default_parameter", "list_splat_pattern", "dictionary_splat_pattern":
				k++
			}
			if k >= 0 && k < len(commented) && commented[k] != "" {
				switch t.kind(c) {
				case "identifier":
					set(c, commented[k])
					continue
				case "default_parameter":
					set(t.field(c, "name"), commented[k])
					continue
				}
			}
			switch t.kind(c) {
			case "identifier":
				set(c, "")
			case "typed_parameter", "typed_default_parameter":
				n := t.field(c, "name")
				if n < 0 {
					n = t.childKind(c, "identifier")
				}
				set(n, pyAnnotation(t.text(t.field(c, "type"))))
			case "default_parameter":
				// the default's type (as pyright infers an unannotated
				// one), evaluated where the def is: the enclosing
				// functions' locals, else module-level names (marked
				// until the function's own locals are known: a name it
				// binds itself, `Loader=Loader`, is the module's)
				v := t.field(c, "value")
				ty := pyAlts(x.pySubstAt(fn, pyValueType(t, v, -1)), pyModuleMark)
				if v >= 0 && t.kind(v) == "none" {
					ty = none
				}
				set(t.field(c, "name"), ty)
			case "list_splat_pattern", "dictionary_splat_pattern":
				set(t.childKind(c, "identifier"), "")
			}
		}
	}
	for n, ty := range locals { // the parameters: their values on entry
		if ty == none {
			ty = ""
		}
		params[n] = ty
	}
	body := t.field(fn, "body")
	if body >= 0 {
		end := t.subtreeEnd(body)
		for j := body; j < end; j++ {
			switch t.kind(j) {
			case "function_definition", "class_definition", "lambda":
				j = t.subtreeEnd(j) - 1 // a scope of its own
			case "assignment":
				l, r := t.field(j, "left"), t.field(j, "right")
				switch {
				case t.kind(l) == "identifier":
					ty := pyValueType(t, r, t.field(j, "type"))
					if r >= 0 && t.kind(r) == "none" && t.field(j, "type") < 0 {
						ty = none
					}
					set(l, ty)
				case (t.kind(l) == "pattern_list" || t.kind(l) == "tuple_pattern") && (t.kind(r) == "expression_list" || t.kind(r) == "tuple"):
					// a, b = A(), B(): element by element
					ls, rs := pyElems(t, l), pyElems(t, r)
					if len(ls) != len(rs) {
						setAll(l)
						break
					}
					for k := range ls {
						if t.kind(ls[k]) == "identifier" {
							set(ls[k], pyValueType(t, rs[k], -1))
						} else {
							setAll(ls[k])
						}
					}
				case t.kind(l) == "pattern_list" || t.kind(l) == "tuple_pattern":
					// a, b = f(): the elements of the tuple f returns
					for k, e := range pyElems(t, l) {
						if t.kind(e) == "identifier" {
							set(e, pyUnpacked(t, r, k))
						} else {
							setAll(e)
						}
					}
				case t.kind(l) == "attribute" && pyDotted(t, l):
					bound[t.text(l)]++ // self.x = …: narrows self.x after it
				default:
					setAll(l)
				}
			case "augmented_assignment":
				setAll(t.field(j, "left"))
				if l := t.field(j, "left"); t.kind(l) == "attribute" && pyDotted(t, l) {
					bound[t.text(l)]++
				}
			case "for_statement", "for_in_clause":
				// for x in v: an element of v ("[]": what iterating
				// it yields, known for the project's generators); for
				// a, b in v: pyLoopVar
				l, r := t.field(j, "left"), t.field(j, "right")
				switch t.kind(l) {
				case "identifier":
					ty, _ := pyLoopVar(t, l, r, t.text(l))
					set(l, ty)
				case "pattern_list", "tuple_pattern":
					for _, e := range pyElems(t, l) {
						if t.kind(e) == "identifier" {
							ty, _ := pyLoopVar(t, l, r, t.text(e))
							set(e, ty)
						} else {
							setAll(e)
						}
					}
				default:
					setAll(l)
				}
			case "as_pattern_target":
				// with T(...) as x: what T's __enter__ returns; except E as
				// e: an instance of E
				ty := ""
				if ap := t.parent(j); t.kind(ap) == "as_pattern" {
					v := t.firstNamed(ap)
					switch t.kind(t.parent(ap)) {
					case "with_item":
						ty = pyAppend(pyValueType(t, v, -1), pyEnter(t, ap))
					case "except_clause", "except_group_clause":
						ty = pyExcept(t, v)
					}
				}
				if n := t.firstNamed(j); t.kind(n) == "identifier" && t.next(n) < 0 {
					set(n, ty)
				} else {
					setAll(j)
				}
			case "named_expression":
				set(t.field(j, "name"), pyValueType(t, t.field(j, "value"), -1))
			case "global_statement", "nonlocal_statement":
				for c := t.first(j); c >= 0; c = t.next(c) {
					if t.kind(c) == "identifier" {
						global[t.text(c)] = true
						if t.kind(j) == "global_statement" {
							if x.pyGlobals == nil {
								x.pyGlobals = map[int32]map[string]bool{}
							}
							if x.pyGlobals[fn] == nil {
								x.pyGlobals[fn] = map[string]bool{}
							}
							x.pyGlobals[fn][t.text(c)] = true
						}
					}
				}
			}
		}
	}
	for n := range global {
		delete(locals, n)
	}
	// a default's module-level head stays marked only where a local of
	// the function shadows it
	unmark := func(ty string) string {
		if !strings.Contains(ty, PythonModuleHead) {
			return ty
		}
		return pyAlts(ty, func(a string) string {
			if h, ok := pyMarked(a); ok {
				if _, own := locals[h]; !own || x.pyRecv(fn, h) {
					return strings.Replace(a, PythonModuleHead, "", 1)
				}
			}
			return a
		})
	}
	for n, ty := range locals {
		locals[n] = unmark(ty)
	}
	for n, ty := range params {
		params[n] = unmark(ty)
	}

	for n, ty := range locals {
		if ty == none {
			locals[n] = ""
		}
	}
	// a local at the head of a local's type expression: that local's type
	// (a name resolution would look up at module level otherwise), the
	// enclosing functions' locals too; in name order, a cycle is unknown
	names := make([]string, 0, len(locals))
	for n := range locals {
		names = append(names, n)
	}
	slices.Sort(names)
	done := map[string]string{}
	var subst func(n string, depth int) string
	subst = func(n string, depth int) string {
		if ty, ok := done[n]; ok {
			return ty
		}
		if depth > 8 {
			return ""
		}
		done[n] = "" // in progress
		ty := pySubst(locals[n], func(h string) (string, bool) {
			if _, own := locals[h]; own && !x.pyRecv(fn, h) {
				return subst(h, depth+1), true
			}
			local, ty := x.pyLocal(fn, h)
			return ty, local
		})
		done[n] = ty
		return ty
	}
	for _, n := range names {
		subst(n, 0)
	}
	for _, n := range names {
		locals[n] = done[n]
	}
	x.pyLocals[fn] = locals
	if x.pyBound == nil {
		x.pyBound, x.pyParams = map[int32]map[string]int{}, map[int32]map[string]string{}
	}
	x.pyBound[fn], x.pyParams[fn] = bound, params
	return locals
}

// pyLocal reports whether name is bound locally in a function enclosing
// node i (innermost first: closures see their enclosing functions'
// locals; a method's self and cls are not locals), and its class when
// known.
func (x *extractor) pyLocal(i int32, name string) (bool, string) {
	t := x.t
	for fn := t.parent(i); fn >= 0; fn = t.parent(fn) {
		switch t.kind(fn) {
		case "function_definition", "lambda":
			if ty, ok := x.pyScope(fn)[name]; ok {
				if x.pyRecv(fn, name) {
					return false, "" // self, cls: resolution knows the method's class
				}
				return true, ty
			}
		case "class_definition":
			return false, "" // class bodies do not enclose their methods' names
		}
	}
	return false, ""
}

// pyModuleBinds reports whether the module level binds name: a def, a
// class, an import or an assignment there (in an if or try too).
func (x *extractor) pyModuleBinds(name string) bool {
	if x.pyModule == nil {
		t := x.t
		x.pyModule = map[string]bool{}
		for _, f := range x.facts {
			if f.Kind == FactImport && f.Owner == "" && f.Name != "*" {
				x.pyModule[f.Name] = true
			}
		}
		for i := int32(0); i < int32(len(t.nodes)); i++ {
			var n int32 = -1
			switch t.kind(i) {
			case "function_definition", "class_definition":
				n = t.field(i, "name")
			case "assignment":
				n = t.field(i, "left")
			}
			if n < 0 || t.kind(n) != "identifier" {
				continue
			}
			if sc := pyScopeOf(t, i); sc >= 0 && t.kind(sc) == "module" {
				x.pyModule[t.text(n)] = true
			}
		}
	}
	return x.pyModule[name]
}

// pyRecvAt reports whether name at node i is the self or cls parameter of
// the method that binds it (pyRecv).
func (x *extractor) pyRecvAt(i int32, name string) bool {
	t := x.t
	for fn := t.parent(i); fn >= 0; fn = t.parent(fn) {
		switch t.kind(fn) {
		case "function_definition", "lambda":
			if _, ok := x.pyScope(fn)[name]; ok {
				return x.pyRecv(fn, name)
			}
		case "class_definition":
			return false
		}
	}
	return false
}

// pyRecv reports whether name is self or cls as the first parameter of
// method fn (in a function, a parameter named cls is a local like any).
func (x *extractor) pyRecv(fn int32, name string) bool {
	t := x.t
	if name != "self" && name != "cls" || t.kind(fn) != "function_definition" {
		return false
	}
	for p := t.parent(fn); p >= 0; p = t.parent(p) {
		switch t.kind(p) {
		case "class_definition": // (a def in an if or try of the class body too)
			return pyFirstParam(t, fn) == name
		case "function_definition", "lambda", "module":
			return false
		}
	}
	return false
}

// pyGlobal reports whether the function enclosing node i declares name
// global.
func (x *extractor) pyGlobal(i int32, name string) bool {
	t := x.t
	for fn := t.parent(i); fn >= 0; fn = t.parent(fn) {
		switch t.kind(fn) {
		case "function_definition":
			x.pyScope(fn)
			return x.pyGlobals[fn][name]
		case "lambda", "class_definition":
			return false
		}
	}
	return false
}

// pyLocalAt is pyLocal with the type the statements before node i give
// the local (pyNarrow).
func (x *extractor) pyLocalAt(i int32, name string) (bool, string) {
	local, ty := x.pyLocal(i, name)
	if local {
		if nt, ok := x.pyNarrow(i, name); ok {
			ty = nt
		}
	}
	return local, ty
}

// pyNarrow is the type of a local or dotted reference (self.x) at node i
// as the statements before it tell, as pyright narrows on assignment and
// isinstance(): ok when they tell ("" then: of unknown type there), else
// the declared type holds (every assignment's alternatives). Walking out
// from i through the enclosing blocks of its function, the latest
// earlier statement that binds the name decides (pyAssigned): an
// assignment of it (`x = v`, `self.x = v`, `a, x = A(), v`) gives v's
// type; `if not isinstance(x, T): x = v` gives T or v's; an if or a try
// what its branches that go on end with (pyBranches, pyTry); any other
// binding statement (a loop, a with) leaves the declared type. Then
// assert isinstance(…),
// or if not isinstance(…) leaving the block (return, raise, continue,
// break) narrow the statements after them; an if, elif or while whose
// condition tests isinstance() (alone or in an "and") narrows its body;
// a for loop's or a comprehension's target is an element of what it
// iterates, a with's target what __enter__ returns; a loop binding the
// name elsewhere, or a try when i is in a handler, leaves the declared
// type; at the function's top a parameter is its annotation's or its
// default's type. The assignment rules apply to names bound in more than
// one place (a name bound once has its declared type), the isinstance
// rules in functions that call isinstance().
func (x *extractor) pyNarrow(i int32, name string) (string, bool) {
	ty, ok := x.pyFlow(i, name)
	if ty == pyNoneT {
		ty = ""
	}
	return ty, ok
}

// pyNoneT is the type pyFlow gives a name assigned None: a placeholder
// the other alternatives type (pyright's T | None resolves through T).
const pyNoneT = "\x00none"

// pyFlow is pyNarrow, pyNoneT for a name assigned None.
func (x *extractor) pyFlow(i int32, name string) (string, bool) {
	t := x.t
	fn := t.parent(i)
	for fn >= 0 && t.kind(fn) != "function_definition" && t.kind(fn) != "lambda" {
		fn = t.parent(fn)
	}
	if fn < 0 {
		return "", false
	}
	x.pyScope(fn)
	tests := x.pyTests(fn)
	min := 2 // a local bound once: its declared type
	if strings.Contains(name, ".") {
		min = 1 // self.x: its declared type is the class's
	}
	flow := x.pyBound[fn][name] >= min
	if !tests && !flow {
		return "", false
	}
	for c, p := i, t.parent(i); p >= 0; c, p = p, t.parent(p) {
		switch t.kind(p) {
		case "function_definition":
			if ty, param := x.pyParams[fn][name]; flow && param && p == fn {
				return ty, true
			}
			return "", false
		case "lambda", "class_definition", "module":
			return "", false
		case "block":
			ty, known, assigned := "", false, false
			for st := t.first(p); st >= 0 && st != c; st = t.next(st) {
				switch {
				case pyAssigns(t, st, name):
					ty, known = "", false
					assigned = true
					if flow {
						ty, known = x.pyAssigned(st, name)
					}
				case !tests:
				default:
					if g := pyGuard(t, st, name); g != "" {
						ty, known = g, true
					} else if d := pyExitIf(t, st, name); d != "" {
						// if isinstance(x, T): return — x is not a T after it
						v, ok := ty, known
						if !ok {
							v, ok = x.pyBefore(i, st, name)
						}
						if ok {
							ty, known = pyWithout(v, []string{d}), true
						}
					}
				}
			}
			if known {
				return ty, true
			}
			if assigned {
				return "", false
			}
		case "if_statement", "elif_clause", "while_statement":
			if t.kind(p) == "while_statement" && flow && pyAssigns(t, p, name) {
				return "", false // the loop binds it again
			}
			if tests && (t.field(p, "consequence") == c || t.field(p, "body") == c) {
				if ty := pyIsinstance(t, t.field(p, "condition"), name); ty != "" {
					return ty, true
				}
			}
			if tests && t.kind(p) == "if_statement" && (t.kind(c) == "else_clause" || t.kind(c) == "elif_clause") {
				if ty, ok := x.pyFailed(i, p, c, name); ok {
					return ty, true
				}
			}
		case "for_statement":
			if !flow {
				break
			}
			if c == t.field(p, "body") {
				if ty, ok := pyLoopVar(t, t.field(p, "left"), t.field(p, "right"), name); ok {
					return x.pySubstAt(p, ty), true
				}
			}
			if c != t.field(p, "right") && pyAssigns(t, p, name) {
				return "", false
			}
		case "except_clause", "except_group_clause":
			// except E as name: in the handler, an instance of E
			if ap := t.firstNamed(p); flow && t.kind(c) == "block" && t.kind(ap) == "as_pattern" {
				if tg := t.field(ap, "alias"); tg >= 0 && t.text(tg) == name {
					return pyExcept(t, t.firstNamed(ap)), true
				}
			}
		case "try_statement":
			if flow && c != t.field(p, "body") && pyAssigns(t, p, name) {
				return "", false // a handler: any point of the body may have bound it
			}
		case "with_statement":
			if !flow || t.field(p, "body") != c {
				break
			}
			for w := t.first(p); w >= 0; w = t.next(w) {
				if t.kind(w) != "with_clause" || !pyAssigns(t, w, name) {
					continue
				}
				items := pyElems(t, w)
				if len(items) == 1 {
					if ap := t.firstNamed(items[0]); t.kind(ap) == "as_pattern" {
						v, tg := t.firstNamed(ap), t.field(ap, "alias")
						if tg >= 0 && t.text(tg) == name && t.kind(t.firstNamed(tg)) == "identifier" {
							return x.pySubstAt(p, pyAppend(pyValueType(t, v, -1), pyEnter(t, ap))), true
						}
					}
				}
				return "", false
			}
		case "list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression":
			if !flow {
				break
			}
			first := true
			for f := t.first(p); f >= 0; f = t.next(f) {
				if t.kind(f) != "for_in_clause" {
					continue
				}
				if f == c && first {
					break // the first iterable: evaluated outside
				}
				first = false
				if ty, ok := pyLoopVar(t, t.field(f, "left"), t.field(f, "right"), name); ok {
					return x.pySubstAt(p, ty), true
				}
				if pyAssigns(t, f, name) {
					return "", false
				}
			}
		}
	}
	return "", false
}

// pyAssigned is the type statement st, which binds name, gives it: an
// assignment of it alone (`x = v`, `x: T = v`, `self.x = v`: v's type, ""
// unknown), of a tuple (`a, x = A(), v`: element by element, else
// unknown), `x += v` (unknown), an if or try statement (pyBranches,
// pyTry), or `if [not] isinstance(x, T): … x = v` with no else (T or
// v's type; after a positive test the other values are of unknown
// type); !ok for any other statement.
func (x *extractor) pyAssigned(st int32, name string) (string, bool) {
	t := x.t
	switch t.kind(st) {
	case "expression_statement":
		a := t.firstNamed(st)
		if t.kind(a) == "augmented_assignment" && t.text(t.field(a, "left")) == name {
			return "", true // x += v: what __iadd__ returns
		}
		if t.kind(a) != "assignment" || t.next(a) >= 0 && t.named(t.next(a)) {
			return "", false
		}
		l, r := t.field(a, "left"), t.field(a, "right")
		if t.kind(l) == "pattern_list" || t.kind(l) == "tuple_pattern" {
			// a, x = …: element by element when both sides are tuples
			ls, rs := pyElems(t, l), pyElems(t, r)
			for k, e := range ls {
				if t.text(e) != name {
					continue
				}
				if (t.kind(e) == "identifier" || t.kind(e) == "attribute") && t.kind(r) != "expression_list" && t.kind(r) != "tuple" {
					return x.pySubstAt(a, pyUnpacked(t, r, k)), true // a, x = f()
				}
				if t.kind(e) != "identifier" && t.kind(e) != "attribute" || len(ls) != len(rs) || t.kind(r) != "expression_list" && t.kind(r) != "tuple" {
					return "", true
				}
				if t.kind(rs[k]) == "none" {
					return pyNoneT, true
				}
				return x.pySubstAt(a, pyValueType(t, rs[k], -1)), true
			}
			return "", false
		}
		if t.text(l) != name || t.kind(l) != "identifier" && t.kind(l) != "attribute" || r >= 0 && t.kind(r) == "assignment" {
			return "", false
		}
		if ty, ok := x.pyAsg[a]; ok {
			return ty, true
		}
		ty := pyNoneT
		if r < 0 || t.kind(r) != "none" || t.field(a, "type") >= 0 {
			ty = x.pySubstAt(a, pyValueType(t, r, t.field(a, "type")))
		}
		if x.pyAsg == nil {
			x.pyAsg = map[int32]string{}
		}
		x.pyAsg[a] = ty
		return ty, true
	case "if_statement":
		cond, body := t.field(st, "condition"), t.field(st, "consequence")
		if last := pyLast(t, body); t.field(st, "alternative") < 0 && t.kind(last) == "expression_statement" {
			if v, ok := x.pyAssigned(last, name); ok {
				if t.kind(cond) == "not_operator" {
					if ty := pyIsinstance(t, t.field(cond, "argument"), name); ty != "" {
						if v == pyNoneT {
							return ty, true
						}
						return pyMerge(ty, v), true
					}
				} else if ty := pyIsinstance(t, cond, name); ty != "" {
					// v, or the value before but a T
					rest, ok := x.pyFlow(st, name)
					if !ok {
						rest = ""
					}
					if rest = pyWithout(rest, []string{ty}); v == pyNoneT {
						return rest, true
					}
					if rest == pyNoneT {
						return v, true
					}
					return pyMerge(rest, v), true
				}
			}
		}
		return x.pyBranches(st, name)
	case "try_statement":
		return x.pyTry(st, name)
	}
	return "", false
}

// pyBranches is the type an if statement that binds name leaves it: the
// alternatives of what each branch that does not leave the block (return,
// raise, continue, break) ends with, and of the value before the if when
// a branch does not bind it or there is no else; !ok when one of them is
// not known from the flow (a condition binds it, a branch ends with a
// loop that does).
func (x *extractor) pyBranches(st int32, name string) (string, bool) {
	t := x.t
	return x.pyAfterOnce(st, name, func() (string, bool) {
		blocks := []int32{t.field(st, "consequence")}
		conds := []int32{t.field(st, "condition")}
		hasElse := false
		for c := t.first(st); c >= 0; c = t.next(c) {
			switch t.kind(c) {
			case "elif_clause":
				blocks = append(blocks, t.field(c, "consequence"))
				conds = append(conds, t.field(c, "condition"))
			case "else_clause":
				blocks = append(blocks, t.field(c, "body"))
				hasElse = true
			}
		}
		for _, c := range conds {
			if c >= 0 && pyAssigns(t, c, name) {
				return "", false // (x := …) in a condition
			}
		}
		var parts []string
		before := false
		for _, b := range blocks {
			ty, ok, on, binds := x.pyBlockEnd(b, name)
			switch {
			case !ok:
				return "", false
			case !on: // does not reach the statement after the if
			case binds:
				parts = append(parts, ty)
			default:
				before = true
			}
		}
		if !hasElse && !before {
			// no condition held: `not isinstance(x, T)` false leaves a
			// T, `isinstance(x, T)` false the value before but T
			var is, not []string
			for _, c := range conds {
				if t.kind(c) == "not_operator" {
					if ty := pyIsinstance(t, t.field(c, "argument"), name); ty != "" {
						not = append(not, ty)
					}
				} else if ty := pyIsinstanceOnly(t, c, name); ty != "" {
					is = append(is, ty)
				}
			}
			switch {
			case len(not) > 0:
				parts = append(parts, not[len(not)-1])
			case len(is) > 0:
				v, ok := x.pyFlow(st, name)
				if !ok {
					return "", false
				}
				parts = append(parts, pyWithout(v, is))
			default:
				before = true
			}
		}
		return x.pyJoin(st, name, parts, before)
	})
}

// pyWithout is type expression v without its alternatives in drop (as
// written: "A|str" without "str" is "A"); unknown when none is left.
func pyWithout(v string, drop []string) string {
	if v == pyNoneT {
		return v
	}
	var all []string
	for _, d := range drop {
		all = append(all, strings.Split(d, "|")...) // isinstance(x, (A, B))
	}
	var keep []string
	for _, a := range strings.Split(v, "|") {
		if !slices.Contains(all, a) {
			keep = append(keep, a)
		}
	}
	return strings.Join(keep, "|")
}

// pyTry is the type a try statement that binds name leaves it: what the
// body (or its else) ends with, what each handler that goes on ends with
// — a handler that does not bind it sees the value before the try, or
// !ok when the body binds it (any point of the body may have been
// reached); !ok when the finally clause or an except … as binds it.
func (x *extractor) pyTry(st int32, name string) (string, bool) {
	t := x.t
	return x.pyAfterOnce(st, name, func() (string, bool) {
		body := t.field(st, "body")
		ty, ok, on, binds := x.pyBlockEnd(body, name)
		if !ok {
			return "", false
		}
		var parts []string
		before := false
		var handlers []int32
		for c := t.first(st); c >= 0; c = t.next(c) {
			switch t.kind(c) {
			case "else_clause":
				ety, eok, eon, ebinds := x.pyBlockEnd(t.field(c, "body"), name)
				switch {
				case !eok:
					return "", false
				case ebinds:
					ty, on, binds = ety, eon, true
				case !eon:
					on = false
				}
			case "finally_clause":
				if pyAssigns(t, c, name) {
					return "", false
				}
			case "except_clause", "except_group_clause":
				handlers = append(handlers, c)
			}
		}
		switch {
		case !on:
		case binds:
			parts = append(parts, ty)
		default:
			before = true
		}
		for _, h := range handlers {
			var blk int32 = -1
			for c := t.first(h); c >= 0; c = t.next(c) {
				if t.kind(c) == "block" {
					blk = c
				} else if pyAssigns(t, c, name) {
					return "", false // except E as name
				}
			}
			hty, hok, hon, hbinds := x.pyBlockEnd(blk, name)
			switch {
			case !hok:
				return "", false
			case !hon:
			case hbinds:
				parts = append(parts, hty)
			case pyAssigns(t, body, name):
				return "", false
			default:
				before = true
			}
		}
		return x.pyJoin(st, name, parts, before)
	})
}

// pyBlockEnd is the type block b leaves name with: ok false when the
// flow does not tell, on false when the block leaves (return, raise,
// continue, break as its last statement), binds false when nothing in it
// binds the name (the value it was entered with).
func (x *extractor) pyBlockEnd(b int32, name string) (ty string, ok, on, binds bool) {
	t := x.t
	if b < 0 {
		return "", false, false, false
	}
	switch t.kind(pyLast(t, b)) {
	case "return_statement", "raise_statement", "continue_statement", "break_statement":
		return "", true, false, false
	}
	var last int32 = -1
	for c := t.first(b); c >= 0; c = t.next(c) {
		if pyAssigns(t, c, name) {
			last = c
		}
	}
	if last < 0 {
		return "", true, true, false
	}
	ty, ok = x.pyAssigned(last, name)
	return ty, ok, true, true
}

// pyJoin is the alternatives of parts, and of the value before statement
// st when before is set (None a placeholder); !ok when nothing reaches
// the statement after st, or the value before it is not known.
func (x *extractor) pyJoin(st int32, name string, parts []string, before bool) (string, bool) {
	if before {
		v, ok := x.pyFlow(st, name)
		if !ok {
			return "", false
		}
		parts = append(parts, v)
	}
	if len(parts) == 0 {
		return "", false
	}
	ty, seen := pyNoneT, false
	for _, v := range parts {
		switch {
		case v == pyNoneT: // a placeholder
		case seen:
			ty = pyMerge(ty, v)
		default:
			ty, seen = v, true
		}
	}
	return ty, true
}

// pyAfterOnce memoizes f, the type compound statement st leaves name.
func (x *extractor) pyAfterOnce(st int32, name string, f func() (string, bool)) (string, bool) {
	k := pyAfterKey{st, name}
	if v, ok := x.pyAfter[k]; ok {
		return v.ty, v.ok
	}
	ty, ok := f()
	if x.pyAfter == nil {
		x.pyAfter = map[pyAfterKey]pyAfterVal{}
	}
	x.pyAfter[k] = pyAfterVal{ty, ok}
	return ty, ok
}

// pyAfterKey and pyAfterVal memoize pyBranches and pyTry.
type pyAfterKey struct {
	st   int32
	name string
}

type pyAfterVal struct {
	ty string
	ok bool
}

// pyLast is the last statement of block b (comments left out), or -1.
func pyLast(t *tree, b int32) int32 {
	var last int32 = -1
	for c := t.first(b); c >= 0; c = t.next(c) {
		if t.named(c) && t.kind(c) != "comment" {
			last = c
		}
	}
	return last
}

// pyTests reports whether function fn calls isinstance() anywhere (most
// do not: pyNarrow need not look at their statements).
func (x *extractor) pyTests(fn int32) bool {
	if has, ok := x.pyIsinst[fn]; ok {
		return has
	}
	if x.pyIsinst == nil {
		x.pyIsinst = map[int32]bool{}
	}
	t := x.t
	has := false
	for j, end := fn, t.subtreeEnd(fn); j < end && !has; j++ {
		if t.kind(j) == "call" {
			f := t.field(j, "function")
			has = t.kind(f) == "identifier" && t.text(f) == "isinstance"
		}
	}
	x.pyIsinst[fn] = has
	return has
}

// pyAssigns reports whether statement st assigns name (a target of an
// assignment, a for loop, :=, with … as; nested defs left out).
func pyAssigns(t *tree, st int32, name string) bool {
	end := t.subtreeEnd(st)
	for j := st; j < end; j++ {
		switch t.kind(j) {
		case "function_definition", "class_definition", "lambda":
			j = t.subtreeEnd(j) - 1
			continue
		case "identifier", "attribute":
		default:
			continue
		}
		if t.text(j) != name {
			continue
		}
		switch p := t.parent(j); t.kind(p) {
		case "assignment", "augmented_assignment", "for_statement", "for_in_clause":
			if t.field(p, "left") == j {
				return true
			}
		case "named_expression":
			if t.field(p, "name") == j {
				return true
			}
		case "pattern_list", "tuple_pattern", "list_pattern", "as_pattern_target":
			return true
		}
	}
	return false
}

// pyGuard is T when statement st narrows name for the statements after
// it: assert isinstance(name, T) (or `name is None or isinstance(name,
// T)`: T, None being a placeholder), or if not isinstance(name, T) (or
// `name is not None and not isinstance(name, T)`) whose body leaves the
// block (and no elif or else); else "".
func pyGuard(t *tree, st int32, name string) string {
	switch t.kind(st) {
	case "assert_statement":
		cond := t.firstNamed(st)
		if ty := pyIsinstance(t, cond, name); ty != "" {
			return ty
		}
		return pyNoneOr(t, cond, name, "or", "")
	case "if_statement":
		cond, body := t.field(st, "condition"), t.field(st, "consequence")
		if t.field(st, "alternative") >= 0 || body < 0 {
			return ""
		}
		if t.kind(cond) != "not_operator" {
			switch t.kind(pyLast(t, body)) {
			case "return_statement", "raise_statement", "continue_statement", "break_statement":
				return pyNoneOr(t, cond, name, "and", "not")
			}
			return ""
		}
		var last int32 = -1
		for c := t.first(body); c >= 0; c = t.next(c) {
			if t.named(c) && t.kind(c) != "comment" {
				last = c
			}
		}
		switch t.kind(last) {
		case "return_statement", "raise_statement", "continue_statement", "break_statement":
			return pyIsinstance(t, t.field(cond, "argument"), name)
		}
	}
	return ""
}

// pyTypeComment is the function type comment of function fn (PEP 484,
// read by pyright: `# type: (A, B) -> R` after the def line, before the
// body's first statement): each parameter's type expression in order
// (for a method written without its self, "" for self; "" where the
// comment's type is not one: `*A`, `...`; nil when the comment lists
// another number of parameters) and R; !ok without one.
func pyTypeComment(t *tree, fn int32) (params []string, ret string, ok bool) {
	if t.kind(fn) != "function_definition" {
		return nil, "", false
	}
	body := t.field(fn, "body")
	if body < 0 {
		return nil, "", false
	}
	// the comment: in the definition before its body, or the body's
	// first child
	var text string
	for c := t.first(fn); c >= 0 && text == "" && c != body; c = t.next(c) {
		if t.kind(c) == "comment" {
			text = t.text(c)
		}
	}
	for c := t.first(body); c >= 0 && text == "" && t.kind(c) == "comment"; c = t.next(c) {
		text = t.text(c)
	}
	text = strings.TrimSpace(strings.TrimPrefix(text, "#"))
	rest, found := strings.CutPrefix(text, "type:")
	if !found {
		return nil, "", false
	}
	rest = strings.TrimSpace(rest)
	if !strings.HasPrefix(rest, "(") {
		return nil, "", false
	}
	depth, end := 0, -1
	for i := 0; i < len(rest) && end < 0; i++ {
		switch rest[i] {
		case '(', '[':
			depth++
		case ')', ']':
			if depth--; depth == 0 {
				end = i
			}
		}
	}
	if end < 0 {
		return nil, "", false
	}
	r, arrow := strings.CutPrefix(strings.TrimSpace(rest[end+1:]), "->")
	if !arrow {
		return nil, "", false
	}
	ret = strings.TrimSpace(r)
	if k := strings.Index(ret, "#"); k >= 0 { // a comment after it
		ret = strings.TrimSpace(ret[:k])
	}
	var args []string
	if in := strings.TrimSpace(rest[1:end]); in != "" && in != "..." {
		args = pyTypeArgs(in)
	}
	n := 0 // the function's parameters
	if ps := t.field(fn, "parameters"); ps >= 0 {
		for c := t.first(ps); c >= 0; c = t.next(c) {
			switch t.kind(c) {
			case "identifier", "typed_parameter", "typed_default_parameter", "default_parameter", "list_splat_pattern", "dictionary_splat_pattern":
				n++
			}
		}
	}
	if m, _ := pyMethodOf(t, body); m == fn && len(args) == n-1 {
		args = append([]string{""}, args...) // self
	}
	if len(args) == n {
		for _, a := range args {
			a = strings.TrimSpace(a)
			if strings.HasPrefix(a, "*") || a == "..." {
				a = ""
			}
			if a != "" {
				a = pyAnnotation(a)
			}
			params = append(params, a)
		}
	}
	return params, ret, true
}

// pyNoneOr is T when condition cond is `name is None or isinstance(name,
// T)` (op "or", neg "") or `name is not None and not isinstance(name, T)`
// (op "and", neg "not": its failing tells the same), in either order;
// else "".
func pyNoneOr(t *tree, cond int32, name, op, neg string) string {
	for t.kind(cond) == "parenthesized_expression" {
		cond = t.firstNamed(cond)
	}
	if t.kind(cond) != "boolean_operator" {
		return ""
	}
	isOp := false
	for c := t.first(cond); c >= 0; c = t.next(c) {
		isOp = isOp || t.kind(c) == op
	}
	if !isOp {
		return ""
	}
	none := []string{name, "is", "None"}
	if neg != "" {
		none = []string{name, "is", "not", "None"}
	}
	l, r := t.field(cond, "left"), t.field(cond, "right")
	for range 2 {
		if slices.Equal(strings.Fields(t.text(l)), none) {
			test := r
			for t.kind(test) == "parenthesized_expression" {
				test = t.firstNamed(test)
			}
			if neg != "" {
				if t.kind(test) != "not_operator" {
					return ""
				}
				test = t.field(test, "argument")
			}
			return pyIsinstanceOnly(t, test, name)
		}
		l, r = r, l
	}
	return ""
}

// pyExcept is the type of the exception `except E as e` binds: E, one
// of A and B for (A, B); "" when they are not dotted names.
func pyExcept(t *tree, v int32) string {
	if pyDotted(t, v) {
		return t.text(v)
	}
	if t.kind(v) != "tuple" {
		return ""
	}
	var alts []string
	for _, e := range pyElems(t, v) {
		if !pyDotted(t, e) || len(alts) == 4 {
			return ""
		}
		alts = append(alts, t.text(e))
	}
	return strings.Join(alts, "|")
}

// pyExitIf is T when statement st is `if isinstance(name, T):` whose
// body leaves the block (return, raise, continue, break) and which has
// no elif or else: after it, name is not a T. Else "".
func pyExitIf(t *tree, st int32, name string) string {
	if t.kind(st) != "if_statement" || t.field(st, "alternative") >= 0 {
		return ""
	}
	cond, body := t.field(st, "condition"), t.field(st, "consequence")
	if body < 0 || t.kind(cond) == "not_operator" {
		return ""
	}
	switch t.kind(pyLast(t, body)) {
	case "return_statement", "raise_statement", "continue_statement", "break_statement":
		return pyIsinstanceOnly(t, cond, name)
	}
	return ""
}

// pyIsinstanceOnly is pyIsinstance of a condition that is the test alone
// (not in an "and": its failing does not tell that the test failed).
func pyIsinstanceOnly(t *tree, cond int32, name string) string {
	for t.kind(cond) == "parenthesized_expression" {
		cond = t.firstNamed(cond)
	}
	if t.kind(cond) != "call" {
		return ""
	}
	return pyIsinstance(t, cond, name)
}

// pyFailed is the type of name in clause c (an elif or the else) of if
// statement st, as the conditions before c, which failed, tell: `not
// isinstance(x, T)` failed leaves a T; `isinstance(x, T)` failed leaves
// the value before the if without T (`x: "A | str"`, `if isinstance(x,
// str): … else:` an A). !ok when no condition tests name, or the value
// before the if is not known here. i is the node whose type is asked.
func (x *extractor) pyFailed(i, st, c int32, name string) (string, bool) {
	t := x.t
	conds := []int32{t.field(st, "condition")}
	for e := t.first(st); e >= 0 && e != c; e = t.next(e) {
		if t.kind(e) == "elif_clause" {
			conds = append(conds, t.field(e, "condition"))
		}
	}
	var is []string
	for _, cd := range conds {
		if cd < 0 || pyAssigns(t, cd, name) {
			return "", false // (x := …) in a condition
		}
		if t.kind(cd) == "not_operator" {
			if ty := pyIsinstance(t, t.field(cd, "argument"), name); ty != "" {
				return ty, true
			}
		} else if ty := pyIsinstanceOnly(t, cd, name); ty != "" {
			is = append(is, ty)
		}
	}
	if len(is) == 0 {
		return "", false
	}
	v, ok := x.pyBefore(i, st, name)
	if !ok {
		return "", false
	}
	return pyWithout(v, is), true
}

// pyBefore is the type of name just before statement st (i: the node
// whose type is asked, in st): what the flow tells, else the declared
// type of a local (not of self.x: the class's, known at resolution).
func (x *extractor) pyBefore(i, st int32, name string) (string, bool) {
	if v, ok := x.pyFlow(st, name); ok {
		return v, true
	}
	if strings.Contains(name, ".") {
		return "", false
	}
	local, v := x.pyLocal(i, name)
	return v, local && v != ""
}

// pyIsinstance is T when condition cond holds isinstance(name, T) (T a
// dotted name; in an "and" of tests), else "".
func pyIsinstance(t *tree, cond int32, name string) string {
	switch t.kind(cond) {
	case "parenthesized_expression":
		return pyIsinstance(t, t.firstNamed(cond), name)
	case "boolean_operator":
		for c := t.first(cond); c >= 0; c = t.next(c) {
			if t.kind(c) == "and" {
				if ty := pyIsinstance(t, t.field(cond, "left"), name); ty != "" {
					return ty
				}
				return pyIsinstance(t, t.field(cond, "right"), name)
			}
		}
	case "call":
		if f := t.field(cond, "function"); t.kind(f) != "identifier" || t.text(f) != "isinstance" {
			return ""
		}
		args := pyElems(t, t.field(cond, "arguments"))
		if len(args) != 2 || !pyDotted(t, args[0]) || t.text(args[0]) != name {
			return ""
		}
		if pyDotted(t, args[1]) {
			return t.text(args[1])
		}
		if t.kind(args[1]) == "tuple" {
			// isinstance(x, (A, B)): one of them
			var alts []string
			for _, e := range pyElems(t, args[1]) {
				if !pyDotted(t, e) || len(alts) == 4 {
					return ""
				}
				alts = append(alts, t.text(e))
			}
			return strings.Join(alts, "|")
		}
	}
	return ""
}

// PythonStdlib reports whether absolute module name mod ("http.client") is
// in Python's standard library.
func PythonStdlib(mod string) bool { return pythonSpec.stdlib(mod) }

// PythonBuiltin reports whether name is one of Python's builtins (a
// function, a type, an exception): a qualifier naming one (`str.join`,
// `ValueError.__init__`) is outside the project.
func PythonBuiltin(name string) bool { return pythonSpec.builtins[name] || name == "object" }

// FactOverload is the range of lines (Sig "start-end") of a Python
// function or method (Owner, Name) declared @overload (typing's, as the
// file imports it).
const FactOverload = "overload"

// FactAll is a Python module's __all__: the names (Sig, comma-separated)
// a star import of it binds, or Type "?" when the module computes them
// (`__all__ = base.__all__ + …`).
const FactAll = "all"

// pyAll is the module's __all__ as the module level writes it: set when
// it assigns it; ok when every assignment (`__all__ = […]`, `+= […]`,
// `__all__.extend([…])`, `.append("…")`) writes out its strings.
func pyAll(t *tree) (names []string, ok, set bool) {
	ok = true
	strs := func(n int32) bool {
		if k := t.kind(n); k != "list" && k != "tuple" {
			return false
		}
		for _, e := range pyElems(t, n) {
			v := t.text(e)
			if t.kind(e) != "string" || len(v) < 2 || strings.ContainsAny(v[1:len(v)-1], `"'\{`) {
				return false
			}
			names = append(names, v[1:len(v)-1])
		}
		return true
	}
	for i := int32(0); i < int32(len(t.nodes)); i++ {
		switch t.kind(i) {
		case "assignment", "augmented_assignment":
			if l := t.field(i, "left"); t.kind(l) != "identifier" || t.text(l) != "__all__" {
				continue
			}
		case "call":
			f := t.field(i, "function")
			if t.kind(f) != "attribute" || t.text(t.field(f, "object")) != "__all__" {
				continue
			}
			if sc := pyScopeOf(t, i); sc < 0 || t.kind(sc) != "module" {
				continue
			}
			set = true
			args := pyElems(t, t.field(i, "arguments"))
			switch m := t.text(t.field(f, "attribute")); {
			case len(args) == 1 && m == "extend" && strs(args[0]):
			case len(args) == 1 && m == "append" && t.kind(args[0]) == "string":
				v := t.text(args[0])
				names = append(names, strings.Trim(v, `"'`))
			default:
				ok = false
			}
			continue
		default:
			continue
		}
		if sc := pyScopeOf(t, i); sc < 0 || t.kind(sc) != "module" {
			continue
		}
		set = true
		if !strs(t.field(i, "right")) {
			ok = false
		}
	}
	return names, ok, set
}

// FactDead is a range of lines (Sig "start-end") of a Python file in a
// branch that a static condition rules out (pyStatic): resolution leaves
// the definitions in it out, as pyright does.
const FactDead = "dead"

// The platform and version static conditions are evaluated for: pyright
// evaluates them for the configured platform and Python version (by
// default the machine's: Linux, and the version of the standard library
// pythonStdlib lists).
const (
	pyPlatform = "linux"
	pyOSName   = "posix"
	pyMajor    = 3
	pyMinor    = 11
)

// pyStatic evaluates condition n as pyright does statically:
// TYPE_CHECKING, sys.platform == / != "…", sys.platform.startswith("…"),
// os.name == / != "…", sys.version_info compared with a tuple of
// integers, and not / and / or of those; known false when it is none of
// them.
func pyStatic(t *tree, n int32) (val, known bool) {
	for n >= 0 && t.kind(n) == "parenthesized_expression" {
		n = t.firstNamed(n)
	}
	if n < 0 {
		return false, false
	}
	switch t.kind(n) {
	case "identifier", "attribute":
		if s := t.text(n); s == "TYPE_CHECKING" || strings.HasSuffix(s, ".TYPE_CHECKING") {
			return true, true
		}
	case "not_operator":
		v, ok := pyStatic(t, t.field(n, "argument"))
		return !v, ok
	case "boolean_operator":
		l, lok := pyStatic(t, t.field(n, "left"))
		r, rok := pyStatic(t, t.field(n, "right"))
		and := t.kind(t.field(n, "operator")) == "and"
		switch {
		case lok && rok && and:
			return l && r, true
		case lok && rok:
			return l || r, true
		case and && (lok && !l || rok && !r):
			return false, true
		case !and && (lok && l || rok && r):
			return true, true
		}
	case "call":
		f, args := t.field(n, "function"), pyElems(t, t.field(n, "arguments"))
		if t.text(f) == "sys.platform.startswith" && len(args) == 1 && t.kind(args[0]) == "string" {
			return strings.HasPrefix(pyPlatform, pyString(t, args[0])), true
		}
	case "comparison_operator":
		var ops []string
		for c := t.first(n); c >= 0; c = t.next(c) {
			if !t.named(c) {
				ops = append(ops, t.text(c))
			}
		}
		l, r := t.firstNamed(n), int32(-1)
		for c := t.first(n); c >= 0; c = t.next(c) {
			if t.named(c) {
				r = c
			}
		}
		if len(ops) != 1 || l == r {
			return false, false
		}
		cmp := 2 // l compared with r: -1, 0, 1
		switch lt := t.text(l); {
		case (lt == "sys.platform" || lt == "os.name") && t.kind(r) == "string":
			v := pyPlatform
			if lt == "os.name" {
				v = pyOSName
			}
			cmp = strings.Compare(v, pyString(t, r))
			if ops[0] != "==" && ops[0] != "!=" {
				return false, false
			}
		case lt == "sys.version_info" && t.kind(r) == "tuple":
			var want []int
			for _, e := range pyElems(t, r) {
				k, err := strconv.Atoi(t.text(e))
				if err != nil || t.kind(e) != "integer" {
					return false, false
				}
				want = append(want, k)
			}
			if len(want) == 0 || len(want) > 2 {
				return false, false
			}
			have := []int{pyMajor, pyMinor}[:len(want)]
			cmp = slices.Compare(have, want)
		}
		switch ops[0] {
		case "==":
			return cmp == 0, cmp != 2
		case "!=":
			return cmp != 0, cmp != 2
		case "<":
			return cmp < 0, cmp != 2
		case "<=":
			return cmp <= 0, cmp != 2
		case ">":
			return cmp > 0 && cmp != 2, cmp != 2
		case ">=":
			return cmp >= 0 && cmp != 2, cmp != 2
		}
	}
	return false, false
}

// pyDeadBlocks are the blocks of the if statements (anywhere in the
// file) that a static condition rules out: the body of a false
// condition, the elif and else clauses after a true one.
func pyDeadBlocks(t *tree) []int32 {
	var dead []int32
	for i := int32(0); i < int32(len(t.nodes)); i++ {
		if t.kind(i) != "if_statement" {
			continue
		}
		v, ok := pyStatic(t, t.field(i, "condition"))
		if !ok {
			continue
		}
		decided := v // a branch was taken: the rest are dead
		if !v {
			dead = append(dead, t.field(i, "consequence"))
		}
	clauses:
		for c := t.first(i); c >= 0; c = t.next(c) {
			switch t.kind(c) {
			case "elif_clause":
				if decided {
					dead = append(dead, t.field(c, "consequence"))
					continue
				}
				v, ok := pyStatic(t, t.field(c, "condition"))
				if !ok {
					break clauses // the rest may run
				}
				if v {
					decided = true
				} else {
					dead = append(dead, t.field(c, "consequence"))
				}
			case "else_clause":
				if decided {
					dead = append(dead, t.field(c, "body"))
				}
			}
		}
	}
	return dead
}

// pyImportFacts records the names import statement i binds.
func (x *extractor) pyImportFacts(i int32) {
	t := x.t
	if t.kind(i) == "import_statement" {
		for c := t.first(i); c >= 0; c = t.next(c) {
			switch t.kind(c) {
			case "dotted_name": // import a.b binds a
				mod := t.text(c)
				first, _, _ := strings.Cut(mod, ".")
				x.facts = append(x.facts, Fact{Kind: FactImport, Name: first, Type: first})
			case "aliased_import":
				x.facts = append(x.facts, Fact{Kind: FactImport, Name: t.text(t.field(c, "alias")), Type: t.text(t.field(c, "name"))})
			}
		}
		return
	}
	mod := t.text(t.field(i, "module_name"))
	nameF := t.g.field("name")
	for c := t.first(i); c >= 0; c = t.next(c) {
		switch {
		case t.kind(c) == "wildcard_import":
			x.facts = append(x.facts, Fact{Kind: FactImport, Name: "*", Type: mod, Sig: "*"})
		case t.nodes[c].field != nameF:
		case t.kind(c) == "aliased_import":
			x.facts = append(x.facts, Fact{Kind: FactImport, Name: t.text(t.field(c, "alias")), Type: mod, Sig: t.text(t.field(c, "name"))})
		default:
			x.facts = append(x.facts, Fact{Kind: FactImport, Name: t.text(c), Type: mod, Sig: t.text(c)})
		}
	}
}

// pyTyping reports whether expression f is typing's member as the file
// imports it (`cast`, `overload`): member from `from typing import
// member`, `M.member` where M is typing (`import typing`, `import typing
// as M`); typing_extensions' too.
func pyTyping(t *tree, f int32, member string) bool {
	switch {
	case f < 0:
		return false
	case t.kind(f) == "identifier" && t.text(f) == member:
	case t.kind(f) == "attribute" && t.text(t.field(f, "attribute")) == member && t.kind(t.field(f, "object")) == "identifier":
	default:
		return false
	}
	return pyTypingRef(t, t.text(f), member)
}

// pyTypingRef reports whether ref, "member" or "M.member" as written, is
// typing's member as the file imports it (pyTyping).
func pyTypingRef(t *tree, ref, member string) bool {
	name := ""
	switch {
	case ref == member:
		name = member // bound by from typing import member
	case strings.HasSuffix(ref, "."+member) && !strings.Contains(strings.TrimSuffix(ref, "."+member), "."):
		name = strings.TrimSuffix(ref, member) // a module bound to name, with its dot
	default:
		return false
	}
	typing := func(mod string) bool { return mod == "typing" || mod == "typing_extensions" }
	for i := int32(0); i < int32(len(t.nodes)); i++ {
		switch t.kind(i) {
		case "import_from_statement":
			if !typing(t.text(t.field(i, "module_name"))) || strings.HasSuffix(name, ".") {
				continue
			}
			nameF := t.g.field("name")
			for c := t.first(i); c >= 0; c = t.next(c) {
				switch {
				case t.nodes[c].field != nameF:
				case t.kind(c) == "dotted_name" && t.text(c) == member:
					return true
				}
			}
		case "import_statement":
			for c := t.first(i); c >= 0; c = t.next(c) {
				switch t.kind(c) {
				case "dotted_name":
					if typing(t.text(c)) && name == t.text(c)+"." {
						return true
					}
				case "aliased_import":
					if typing(t.text(t.field(c, "name"))) && name == t.text(t.field(c, "alias"))+"." {
						return true
					}
				}
			}
		}
	}
	return false
}

// pyEnter is the call that gives a with statement's target, for node n in
// it: ".__enter__()", or ".__aenter__()" in an async with (awaited: what
// the coroutine returns).
func pyEnter(t *tree, n int32) string {
	for ; n >= 0 && t.kind(n) != "with_statement"; n = t.parent(n) {
	}
	if n >= 0 && t.kind(t.first(n)) == "async" {
		return ".__aenter__()"
	}
	return ".__enter__()"
}
