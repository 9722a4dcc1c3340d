package lang

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The Python receivers and facts resolution reads: what a call's receiver
// is (Relation.Recv) and what the file binds (imports, module variables,
// instance attributes).
func TestPythonReceiversAndFacts(t *testing.T) {
	src := []byte(`import os.path
import json as j
from . import sibling
from .pkg.mod import Thing as T, helper
from lib import *

DEFAULT = Config()
EMPTY = ''


def factory(flag):
    if flag:
        return Box(1)
    return Box(2)


def annotated() -> "Optional[Box]":
    return make()


def generator():
    yield Box(1)
    return Box(2)


class Box(Base):
    size: "Size"

    def __init__(self, store, policy=DEFAULT, fmt=None):
        self.store = Store()
        self.policy = policy
        self.fmt = None
        self.fmt = Formatter()
        self.mixed = Store()
        self.mixed = Other()

    def run(self, items, cb, p: Parser, q: "Optional[Query]" = None):
        def inner():
            return items.pop()
        local = Thing()
        alias = local
        os.path.join("a", "b")
        self.store.save(1)
        self.size.grow()
        p.parse()
        q.run()
        local.go()
        alias.go()
        items.append(1)
        cb()
        inner()
        helper()
        j.dumps({})
        "".upper()
        Box(1).run()
        (items or []).count(1)
        for row in items:
            row.emit()
        tmp = None
        tmp = Parser()
        tmp.parse()
        return T.make()
`)
	res := strictParse(t, "pkg/box.py", "python", src)
	recv := map[string]string{}
	for _, r := range res.Relations {
		if r.Kind == RelCalls {
			recv[r.Target+"@"+r.Qualifier] = r.Recv
		}
	}
	for call, want := range map[string]string{
		"join@":        ".os.path",    // a module's attribute: not a local
		"save@":        ".self.store", // an attribute of self
		"grow@":        ".self.size",
		"parse@p":      ":Parser", // annotated parameter
		"run@q":        ":Query",  // Optional[...] in a string annotation
		"go@local":     ":Thing",  // constructed local
		"go@alias":     ":Thing",  // a local holding another local
		"pop@items":    "?",       // an untyped parameter
		"append@items": "?",       // (the closure sees the parameter too)
		"cb@":          "?local",  // a parameter called
		"inner@":       "",        // a nested def: resolution finds its chunk
		"helper@":      "",        // an imported name
		"dumps@j":      "",        // qualified by an import alias
		"count@":       "?",       // an expression
		"emit@row":     "?",       // a loop variable
		"make@T":       "",        // qualified by an imported class
	} {
		got, ok := recv[call]
		if !ok {
			t.Errorf("no call %s (calls: %v)", call, recv)
			continue
		}
		if got != want {
			t.Errorf("call %s: Recv %q, want %q", call, got, want)
		}
	}
	// T(...).m() is the method of T's instance; a literal's method is an expression
	var sawCtor bool
	for _, r := range res.Relations {
		if r.Kind == RelCalls && r.Target == "run" && r.Recv == ":Box" {
			sawCtor = true
		}
	}
	if !sawCtor {
		t.Errorf("Box(1).run(): no call with Recv :Box")
	}

	var facts []string
	for _, f := range res.Facts {
		facts = append(facts, strings.Join([]string{f.Kind, f.Owner, f.Name, f.Type, f.Sig}, "|"))
	}
	for _, want := range []string{
		"import||os|os|",            // import a.b binds a
		"import||j|json|",           // an alias, standard library included
		"import||sibling|.|sibling", // relative: module "." member sibling
		"import||T|.pkg.mod|Thing",
		"import||helper|.pkg.mod|helper",
		"import||*|lib|*",
		"var||DEFAULT|Config|",
		"field|Box|size|Size|",         // class-level annotation
		"field|Box|store|Store|",       // self.x = T()
		"field|Box|policy|=DEFAULT|",   // self.x = parameter whose default is DEFAULT
		"field|Box|fmt|Formatter|",     // None is a placeholder
		"field|Box|mixed|Store|Other|", // two classes: resolution compares them
		"result||factory|Box|",         // every return constructs Box
		"result||annotated|Box|",       // the return annotation
		"result||generator|Box|yield",  // what a generator yields
	} {
		if !slices.Contains(facts, want) {
			t.Errorf("missing fact %q in %v", want, facts)
		}
	}
	for _, f := range facts {
		if strings.HasPrefix(f, "var||EMPTY") || f == "result||generator|Box|" {
			t.Errorf("not a class: %q", f)
		}
	}
}

func TestPyAnnotation(t *testing.T) {
	for in, want := range map[string]string{
		"Foo":                       "Foo",
		"mod.Foo":                   "mod.Foo",
		`"Foo"`:                     "Foo",
		"Optional[Foo]":             "Foo",
		"Foo | None":                "Foo",
		"None | mod.Foo":            "mod.Foo",
		"list[Foo]":                 "*Foo", // a container: iterating gives Foo
		"typing.Iterable[mod.Foo]":  "*mod.Foo",
		"tuple[Foo, ...]":           "*Foo",
		"tuple[Foo, Bar]":           "*Foo|*Bar",
		"Optional[List[Foo]]":       "*Foo",
		"dict[str, Foo]":            "%Foo", // a mapping: its values are Foo
		"list[Foo | Bar]":           "*Foo|*Bar",
		"Foo | Bar":                 "Foo|Bar", // a union: the alternatives
		"Union[Foo, mod.Bar, None]": "Foo|mod.Bar",
		"dict[str, Foo] | None":     "%Foo",
		"t.Mapping[str, list[Foo]]": "%*Foo",
		"Dict[str, Foo | Bar]":      "%Foo|%Bar",
		"Foo | Callable[[], Bar]":   "",
		"Callable[[], Foo]":         "",
		"Node[T]":                   "Node", // a generic class's instance
		"mod.Box[int, str]":         "mod.Box",
		"t.ClassVar[Foo]":           "Foo",
		"Annotated[Foo, 1]":         "Foo",
		"type[Foo]":                 "=Foo", // the class itself
		"typing.Type[mod.Foo]":      "=mod.Foo",
		"Callable[[Foo], Bar]":      "",
		"Awaitable[Foo]":            "",
		"t.IO[bytes]":               "t.IO", // typing's classes of builtin values
		"IO[t.Any]":                 "IO",
		"re.Match[str]":             "re.Match",
	} {
		if got := pyAnnotation(in); got != want {
			t.Errorf("pyAnnotation(%q) = %q, want %q", in, got, want)
		}
	}
}

// Values typed through calls: a local or attribute assigned from a call
// keeps the call's path (through a local's type at its head) for
// resolution to follow; a function's result is what every return returns.
func TestPythonCallResultFacts(t *testing.T) {
	src := []byte(`class Doc:
    def __init__(self, p: Parser):
        self.node = self.make("x")
        self.via = p.parse()

    def make(self, name):
        return Node()

    def again(self):
        return self.make("y")

    def me(self):
        return self

    def opt(self, flag):
        if flag:
            return self.node
        return None

    def mine(self) -> "Self":
        return self

    def untyped(self, x):
        return x

    def typed(self, n: Node):
        return n

    def mixed(self, flag):
        if flag:
            return Node()
        return self

    @classmethod
    def load(cls):
        return cls()

    def run(self, q: Query, u):
        a = self.make("z")
        b = a
        c = b.child().next
        d = u.make()
        a.go()
        c.go()
        d.go()
        q.build().step().go()
        self.make("w").go()
        u.make().go()
        (q or u).go()

    def pair(self):
        self.left, self.right = Node(), self.make("q")
`)
	res := strictParse(t, "pkg/doc.py", "python", src)
	var recv []string
	for _, r := range res.Relations {
		if r.Kind == RelCalls && r.Target == "go" {
			recv = append(recv, strconv.Itoa(r.Line)+" "+r.Recv)
		}
	}
	want := []string{
		"43 :self.make",                 // a local from self.m()
		"44 :=self.make().child().next", // through two locals
		"45 ?",                          // an untyped parameter at the head
		"46 :=Query().build().step()",   // a chain on an annotated parameter
		"47 :self.make",                 // a chain on self
		"48 ?",
		"49 :Query|?", // q or u: a Query, or of unknown type
	}
	if !slices.Equal(recv, want) {
		t.Errorf("receivers %q, want %q", recv, want)
	}
	var facts []string
	for _, f := range res.Facts {
		facts = append(facts, strings.Join([]string{f.Kind, f.Owner, f.Name, f.Type}, "|"))
	}
	for _, w := range []string{
		"field|Doc|node|self.make",
		"field|Doc|via|=Parser().parse()",
		"result|Doc|make|Node",
		"result|Doc|again|self.make",
		"result|Doc|me|=self",
		"result|Doc|opt|=self.node", // None is a placeholder
		"result|Doc|mine|=self",
		"result|Doc|typed|Node",
		"result|Doc|load|cls",
		"result|Doc|mixed|Node|=self", // alternatives: resolution compares them
		"field|Doc|left|Node",         // a tuple assignment, element by element
		"field|Doc|right|self.make",
	} {
		if !slices.Contains(facts, w) {
			t.Errorf("missing fact %q in %v", w, facts)
		}
	}
	for _, f := range facts {
		if strings.HasPrefix(f, "result|Doc|untyped") {
			t.Errorf("unknown result recorded: %q", f)
		}
	}
}

// A value some places give a class and others a value of unknown type
// keeps the known part with the alternative "?" (pyright's union with
// Unknown); all unknown stays unknown.
func TestPythonPartlyUnknownFacts(t *testing.T) {
	src := []byte(`MODE = Mode()


def setup(m):
    global MODE
    MODE = m


def pick(flag, given):
    if flag:
        return Box()
    return given


def neither(a, b):
    if a:
        return a
    return b


class Box:
    def __init__(self, sink):
        self.sink = sink
        self.both = sink

    def reset(self):
        self.sink = Store()
`)
	res := strictParse(t, "pkg/partial.py", "python", src)
	var facts []string
	for _, f := range res.Facts {
		facts = append(facts, strings.Join([]string{f.Kind, f.Owner, f.Name, f.Type}, "|"))
	}
	for _, w := range []string{
		"var||MODE|Mode|?",
		"result||pick|Box|?",
		"field|Box|sink|?|Store",
		"field|Box|both|",
	} {
		if !slices.Contains(facts, w) {
			t.Errorf("missing fact %q in %v", w, facts)
		}
	}
	for _, f := range facts {
		if strings.HasPrefix(f, "result||neither") {
			t.Errorf("unknown result recorded: %q", f)
		}
	}
}

// Annotations as pyright reads them (generic classes, unions, ClassVar,
// type[T]) and typing.cast as the file imports it.
func TestPythonCastAndAnnotationFacts(t *testing.T) {
	src := []byte(`import typing as t
from typing import cast, Union


class Box:
    kind: t.ClassVar["Node[int]"]

    def __init__(self, v):
        self.node: "Node[int]" = make()
        self.either: Union[Node, Leaf] = v
        self.cls: type[Node] = Node
        self.a = cast(Node, v)
        self.b = t.cast("Optional[Leaf]", v)
        self.c = other.cast(Node, v)
`)
	res := strictParse(t, "pkg/cast.py", "python", src)
	var facts []string
	for _, f := range res.Facts {
		facts = append(facts, strings.Join([]string{f.Kind, f.Owner, f.Name, f.Type}, "|"))
	}
	for _, w := range []string{
		"field|Box|kind|Node",
		"field|Box|node|Node",
		"field|Box|either|Node|Leaf",
		"field|Box|cls|=Node",
		"field|Box|a|Node",
		"field|Box|b|Leaf",
		"field|Box|c|other.cast", // not typing's: the call's result
	} {
		if !slices.Contains(facts, w) {
			t.Errorf("missing fact %q in %v", w, facts)
		}
	}
}

// Tuples unpacked in for targets, as pyright types them through the
// builtins' generic stubs: enumerate, zip and a mapping's items().
func TestPythonLoopTupleTargets(t *testing.T) {
	for _, c := range []struct{ name, body, want string }{
		{"enumerate", "for i, x in enumerate(xs):\n        x.m()", ":Node"},
		{"enumerate with start", "for i, x in enumerate(xs, 1):\n        x.m()", ":Node"},
		{"enumerate index", "for x, i in enumerate(xs):\n        x.m()", "?"},
		{"zip", "for a, x in zip(ys, xs):\n        x.m()", ":Node"},
		{"zip strict", "for x, a in zip(xs, ys, strict=True):\n        x.m()", ":Node"},
		{"zip of fewer targets", "for x in zip(xs, ys):\n        x.m()", ":=zip()[]"}, // a builtin's result: unknown at resolution
		{"mapping items", "for k, x in by_name.items():\n        x.m()", ":Node"},
		{"mapping key", "for x, v in by_name.items():\n        x.m()", "?"},
		{"items of an unknown", "for k, x in ys.items():\n        x.m()", "?"},
		{"parenthesised", "for (i, x) in enumerate(xs):\n        x.m()", ":Node"},
		{"nested target", "for i, (x, y) in enumerate(xs):\n        x.m()", "?"},
		{"other call", "for i, x in pairs(xs):\n        x.m()", "?"},
		{"comprehension", "[x.m() for i, x in enumerate(xs)]", ":Node"},
		{"bound twice", "for i, x in enumerate(xs):\n        pass\n    x = Leaf()\n    for i, x in enumerate(xs):\n        x.m()", ":Node"},
	} {
		src := "def f(ys, xs: list[Node], by_name: dict[str, Node]):\n    " + c.body + "\n"
		res := strictParse(t, "pkg/loops.py", "python", []byte(src))
		got, found := "", false
		for _, r := range res.Relations {
			if r.Kind == RelCalls && r.Target == "m" {
				got, found = r.Recv, true
			}
		}
		if !found {
			t.Errorf("%s: no call of m", c.name)
			continue
		}
		if got != c.want {
			t.Errorf("%s: Recv %q, want %q", c.name, got, c.want)
		}
	}
}

// @overload declarations, typing's as the file imports it.
func TestPythonOverloadFacts(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"from typing", "from typing import overload\n\n@overload\ndef f(v: int) -> int: ...\ndef f(v): return v\n", "overload||f|3-4"},
		{"module alias", "import typing as ty\n\nclass C:\n    @ty.overload\n    def m(self, v: int) -> int: ...\n    def m(self, v): return v\n", "overload|C|m|4-5"},
		{"typing_extensions", "import typing_extensions\n\n@typing_extensions.overload\ndef f(v: int) -> int: ...\n", "overload||f|3-4"},
		{"not typing's", "from lib import overload\n\n@overload\ndef f(v: int) -> int: ...\n", ""},
		{"undecorated", "def f(v): return v\n", ""},
	} {
		res := strictParse(t, "pkg/ovl.py", "python", []byte(c.src))
		got := ""
		for _, f := range res.Facts {
			if f.Kind == FactOverload {
				got = strings.Join([]string{f.Kind, f.Owner, f.Name, f.Sig}, "|")
			}
		}
		if got != c.want {
			t.Errorf("%s: fact %q, want %q", c.name, got, c.want)
		}
	}
}

// -> Self, typing's as the file imports it: the instance a method is
// called on.
func TestPythonSelfResultFacts(t *testing.T) {
	for _, c := range []struct{ name, ann, want string }{
		{"bare", "Self", "=self"},
		{"typing_extensions alias", "te.Self", "=self"},
		{"a string", `"te.Self"`, "=self"},
		{"with None", "te.Self | None", "=self"},
		{"typing alias", "ty.Self", "=self"},
		{"another module's", "other.Self", "other.Self"},
	} {
		src := "import typing as ty\nimport other\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import typing_extensions as te\n\n\nclass C:\n    def m(self) -> " + c.ann + ":\n        return self\n"
		res := strictParse(t, "pkg/self.py", "python", []byte(src))
		got := ""
		for _, f := range res.Facts {
			if f.Kind == FactResult && f.Owner == "C" && f.Name == "m" && f.Sig == "" {
				got = f.Type
			}
		}
		if got != c.want {
			t.Errorf("%s: result %q, want %q", c.name, got, c.want)
		}
	}
}

// A module's __all__: the names written out, or "?" when computed.
func TestPythonAllFacts(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"list", "__all__ = ['a', \"b\"]\n", "all||a,b"},
		{"tuple and additions", "__all__ = ('a',)\n__all__ += ['b']\n__all__.extend(['c'])\n__all__.append('d')\n", "all||a,b,c,d"},
		{"computed", "from . import x\n__all__ = x.__all__ + ['a']\n", "all|?|"},
		{"extended by a value", "__all__ = ['a']\n__all__.extend(names)\n", "all|?|"},
		{"in a function", "def f():\n    __all__ = ['a']\n", ""},
		{"none", "a = 1\n", ""},
	} {
		res := strictParse(t, "pkg/all.py", "python", []byte(c.src))
		got := ""
		for _, f := range res.Facts {
			if f.Kind == FactAll {
				got = strings.Join([]string{f.Kind, f.Type, f.Sig}, "|")
			}
		}
		if got != c.want {
			t.Errorf("%s: fact %q, want %q", c.name, got, c.want)
		}
	}
}

// A method's own self or cls called (cls(…) in a classmethod) is a
// parameter holding a callable, as any parameter called.
func TestPythonReceiverCalled(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"classmethod", "class A:\n    @classmethod\n    def make(cls):\n        return cls()\n", "?local"},
		{"self", "class A:\n    def m(self):\n        return self()\n", "?local"},
		{"in a nested def", "class A:\n    @classmethod\n    def make(cls):\n        def f():\n            return cls()\n        return f\n", "?local"},
		{"a function's cls", "def make(cls):\n    return cls()\n", "?local"},
		{"a module name", "def make():\n    return cls()\n", ""},
	} {
		res := strictParse(t, "pkg/recv.py", "python", []byte(c.src))
		got := "none"
		for _, r := range res.Relations {
			if r.Kind == RelCalls && (r.Target == "cls" || r.Target == "self") {
				got = r.Recv
			}
		}
		if got != c.want {
			t.Errorf("%s: recv %q, want %q", c.name, got, c.want)
		}
	}
}

// Function type comments (PEP 484: `# type: (A, B) -> R` after the def
// line, before the body) give the result and the parameters' types, a
// method's comment leaving out self.
func TestPythonTypeCommentFacts(t *testing.T) {
	src := []byte(`def files(package):
    # type: (str) -> Trav
    """Doc."""
    return make(package)


def maybe(package):  # type: (str) -> Optional[Trav]
    return None


class Container:
    def __init__(self, reader, name=None):
        # type: (Reader, str) -> None
        self.reader = reader

    def kids(self):
        # type: () -> List['Reader']
        return []
`)
	res := strictParse(t, "pkg/tc.py", "python", src)
	var facts []string
	for _, f := range res.Facts {
		facts = append(facts, strings.Join([]string{f.Kind, f.Owner, f.Name, f.Type}, "|"))
	}
	for _, w := range []string{
		"result||files|Trav",
		"result||maybe|Trav",
		"field|Container|reader|Reader",
		"result|Container|kids|*Reader",
	} {
		if !slices.Contains(facts, w) {
			t.Errorf("missing fact %q in %v", w, facts)
		}
	}
}

// A parameter's default is evaluated where the def is: a module-level
// name the function's own locals shadow keeps a mark ("^"), one they do
// not is written as it is, an enclosing function's local is its value.
func TestPythonDefaultFacts(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"shadowed by the parameter", "def scan(s, Loader=Loader):\n    x = Loader(s)\n    x.check()\n", ":=^Loader()"},
		{"shadowed, a call", "def scan(s, conf=conf()):\n    conf.check()\n", ":^conf"},
		{"not shadowed", "def scan(s, Kind=Loader):\n    x = Kind(s)\n    x.check()\n", ":=Loader()"},
		{"an enclosing local", "def outer():\n    K = Loader\n\n    def inner(s, K=K):\n        x = K(s)\n        x.check()\n", ":=Loader()"},
	} {
		res := strictParse(t, "pkg/dflt.py", "python", []byte(c.src))
		got := "none"
		for _, r := range res.Relations {
			if r.Kind == RelCalls && r.Target == "check" {
				got = r.Recv
			}
		}
		if got != c.want {
			t.Errorf("%s: recv %q, want %q", c.name, got, c.want)
		}
	}
}
