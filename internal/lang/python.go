package lang

import "strings"

// pythonSpec: classes are type chunks (base classes are extends), defs are
// function/method chunks (a nested def gets its own chunk), decorators come
// from decorated_definition.
var pythonSpec = &spec{
	builtins: wordSet(`abs all any ascii bin bool bytearray bytes callable chr classmethod compile complex delattr dict dir divmod
		enumerate eval exec filter float format frozenset getattr globals hasattr hash hex id input int isinstance
		issubclass iter len list locals map max memoryview min next object oct open ord pow print property range repr
		reversed round set setattr slice sorted staticmethod str sum super tuple type vars zip
		BaseException Exception ArithmeticError AssertionError AttributeError BlockingIOError BrokenPipeError BufferError
		ConnectionError ConnectionResetError EOFError FileExistsError FileNotFoundError FloatingPointError ImportError
		IndexError InterruptedError IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError
		ModuleNotFoundError NameError NotADirectoryError NotImplementedError OSError OverflowError PermissionError
		RecursionError ReferenceError RuntimeError StopIteration StopAsyncIteration SyntaxError SystemError SystemExit
		TimeoutError TypeError UnboundLocalError UnicodeDecodeError UnicodeEncodeError UnicodeError ValueError
		ZeroDivisionError Warning DeprecationWarning UserWarning RuntimeWarning
		IOError EnvironmentError ConnectionAbortedError ConnectionRefusedError ChildProcessError ProcessLookupError
		GeneratorExit IndentationError TabError UnicodeTranslateError BaseExceptionGroup ExceptionGroup
		BytesWarning EncodingWarning FutureWarning ImportWarning PendingDeprecationWarning ResourceWarning
		SyntaxWarning UnicodeWarning aiter anext breakpoint __import__ __build_class__`),
	roles: map[string]role{
		"class_definition":        roleType,
		"function_definition":     roleFunc,
		"call":                    roleCall,
		"import_statement":        roleImport,
		"import_from_statement":   roleImport,
		"future_import_statement": roleImport,
	},
	docKinds: map[string]bool{"comment": true},
	typeDecl: pyType,
	funcDecl: pyFunc,
	call:     pyCall,
	imports:  pyImports,
	noise: func(x *extractor, i int32) bool {
		t := x.t
		switch t.kind(i) {
		case "import_statement", "import_from_statement", "future_import_statement":
			return true
		case "expression_statement": // docstring
			c := t.first(i)
			return c >= 0 && t.next(c) < 0 && t.kind(c) == "string"
		}
		return false
	},
	declNames: pyDeclNames,
	prepare:   pyPrepare,
	stdlib: func(target string) bool {
		if strings.HasPrefix(target, ".") {
			return false
		}
		first, _, _ := strings.Cut(target, ".")
		return pythonStdlib[first]
	},
}

// pyDecorated returns the decorated_definition wrapping i (or 0) and its
// decorators.
func pyDecorated(t *tree, i int32) (int32, []string) {
	p := t.parent(i)
	if p < 0 || t.kind(p) != "decorated_definition" {
		return 0, nil
	}
	var decos []string
	for c := t.first(p); c >= 0; c = t.next(c) {
		if t.kind(c) == "decorator" {
			decos = append(decos, decorator(t.text(c)))
		}
	}
	return p, decos
}

func pyType(x *extractor, i int32) (typeDecl, bool) {
	t := x.t
	d := typeDecl{name: t.text(t.field(i, "name"))}
	d.outer, d.decorators = pyDecorated(t, i)
	if sc := t.field(i, "superclasses"); sc >= 0 {
		for c := t.first(sc); c >= 0; c = t.next(c) {
			switch t.kind(c) {
			case "identifier", "attribute":
				d.extends = append(d.extends, simpleName(t.text(c)))
			case "subscript": // Generic[T]
				d.extends = append(d.extends, simpleName(t.text(t.field(c, "value"))))
			}
		}
	}
	return d, true
}

func pyFunc(x *extractor, i int32) (funcDecl, bool) {
	t := x.t
	d := funcDecl{name: t.text(t.field(i, "name")), params: t.text(t.field(i, "parameters"))}
	d.outer, d.decorators = pyDecorated(t, i)
	return d, true
}

func pyCall(x *extractor, i int32, fn string) {
	t := x.t
	f := t.field(i, "function")
	switch t.kind(f) {
	case "identifier":
		name := t.text(f)
		if name == "__import__" || name == "import_module" {
			if a := t.field(i, "arguments"); a >= 0 {
				if s := t.childKind(a, "string"); s >= 0 {
					x.addImport(pyString(t, s), t.line(i))
				}
			}
		}
		recv := ""
		local, _ := x.pyLocal(i, name)
		if local || x.pyRecvAt(i, name) {
			recv = "?local" // a parameter or local variable holding a callable (cls(…) too)
		}
		if recv == "" && fn != "" && x.sp.builtins[name] && x.pyModuleBinds(name) {
			// a builtin's name the module rebinds (def bin(s): …): the module's
			x.rels = append(x.rels, Relation{Kind: RelCalls, Source: fn, Target: name, Line: t.line(i)})
			return
		}
		x.addCallRecv(fn, name, "", recv, t.line(i))
	case "attribute":
		q, recv := "", ""
		o := t.field(f, "object")
		switch {
		case o >= 0 && t.kind(o) == "identifier":
			q = t.text(o)
			if local, ty := x.pyLocalAt(i, q); local { // (not a method's self or cls)
				recv = "?" // a local of unknown type
				if ty != "" {
					recv = ":" + ty
				}
			}
		case o >= 0 && t.kind(o) == "call" && t.text(t.field(o, "function")) == "super":
			recv = "super"
		case o >= 0 && t.kind(o) == "attribute" && pyDotted(t, o):
			// a.b.c: from a name that is not a local (self, a module, a
			// class, a module variable), or a typed local
			recv = "?"
			first := o
			for t.kind(first) == "attribute" {
				first = t.field(first, "object")
			}
			rest := t.text(o)[len(t.text(first)):]
			if nt, ok := x.pyNarrow(i, t.text(o)); ok {
				// if isinstance(self.x, T): self.x.m(); self.x = T(): …
				if nt != "" {
					recv = ":" + nt
				}
				break
			}
			switch local, ty := x.pyLocalAt(i, t.text(first)); {
			case !local:
				recv = "." + t.text(o)
			case ty != "":
				recv = ":" + ty + " " + rest
			}
		default:
			// T(...).m(), a.make().m(), self.x().y.m(): the value's path
			// (through a local's type at its head), resolution follows it;
			// any other expression's type is not known here
			recv = "?"
			if ty := x.pySubstAt(i, pyValueType(t, o, -1)); ty != "" {
				recv = ":" + ty
			}
		}
		x.addCallRecv(fn, t.text(t.field(f, "attribute")), q, recv, t.line(i))
	}
}

// pyString returns the content of a string literal node.
func pyString(t *tree, s int32) string {
	var b strings.Builder
	for c := t.first(s); c >= 0; c = t.next(c) {
		if t.kind(c) == "string_content" {
			b.WriteString(t.text(c))
		}
	}
	return b.String()
}

func pyImports(x *extractor, i int32) {
	t := x.t
	line := t.line(i)
	nameF := t.g.field("name")
	modName := func(c int32) string {
		if t.kind(c) == "aliased_import" {
			return t.text(t.field(c, "name"))
		}
		return t.text(c)
	}
	switch t.kind(i) {
	case "import_statement":
		for c := t.first(i); c >= 0; c = t.next(c) {
			if t.nodes[c].field == nameF {
				x.addImport(modName(c), line)
			}
		}
	case "import_from_statement":
		mod := t.text(t.field(i, "module_name"))
		if strings.Trim(mod, ".") == "" { // from . import a, b
			for c := t.first(i); c >= 0; c = t.next(c) {
				if t.nodes[c].field == nameF {
					x.addImport(mod+modName(c), line)
				}
			}
			return
		}
		x.addImport(mod, line)
	}
}

func pyDeclNames(x *extractor, i int32, out []string) []string {
	t := x.t
	if t.kind(i) != "expression_statement" {
		return out
	}
	for c := t.first(i); c >= 0; c = t.next(c) {
		if t.kind(c) != "assignment" {
			continue
		}
		l := t.field(c, "left")
		switch t.kind(l) {
		case "identifier":
			out = append(out, t.text(l))
		case "pattern_list", "tuple_pattern":
			for e := t.first(l); e >= 0; e = t.next(e) {
				if t.kind(e) == "identifier" {
					out = append(out, t.text(e))
				}
			}
		}
	}
	return out
}
