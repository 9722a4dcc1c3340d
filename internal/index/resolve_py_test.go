package index

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// pyTree exercises the Python rules: names a file binds (imports of
// project and standard-library modules, aliases, relative imports, star
// imports), nested defs, definitions in both branches of an if, module
// variables, instance attributes, parameter defaults, the class hierarchy,
// and receivers of unknown type (never resolved by name, even when the
// name is defined once in the project).
var pyTree = map[string]string{
	"app/__init__.py": `from .models import Model


def version():
    return 1
`,
	"app/models.py": `import os


class Model(dict):
    def save(self):
        self.check()
        os.path.join("a", "b")

    def check(self):
        return True

    def render(self):
        return self.get("x")


class Special(Model):
    def save(self):
        Model.save(self)
        ValueError.__init__(self)


def build():
    return Model()
`,
	"app/store.py": `import json as j
from . import models
from .models import Special as S
from app import models as m2
from .util import *

if j:
    def pick(x):
        return x
else:
    def pick(x):
        return None

DEFAULT = models.Model()


class Store:
    def __init__(self, backend, policy=DEFAULT):
        self.backend = backend
        self.model = models.Model()
        self.policy = policy

    def put(self, rows, cb):
        def norm(r):
            return pick(r)
        self.model.save()
        self.policy.check()
        self.backend.flush()
        rows.sort()
        rows.frobnicate()
        cb()
        norm(rows)
        S().save()
        m2.build()
        j.dumps(rows)
        shared()
        DEFAULT.render()
        made = models.build()
        made.check()
`,
	"app/util.py": `def shared():
    return 1


def frobnicate():
    return 2
`,
}

func TestPythonResolution(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, pyTree)
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT f.path, r.src_symbol, r.target, r.line, COALESCE(dc.symbol, ''), r.resolution, r.detail
		FROM relations r JOIN files f ON f.id = r.file_id LEFT JOIN chunks dc ON dc.id = r.dst_chunk
		WHERE r.kind = 'calls'`, 7)
	for _, want := range []string{
		// self: the own class, its project bases, a base outside the project
		"app/models.py | Model.save | check | 6 | Model.check | exact | own type",
		"app/models.py | Model.render | get | 13 |  | external | dict",
		// a class named as qualifier; a builtin class outside the project
		"app/models.py | Special.save | save | 18 | Model.save | exact | qualifier type",
		"app/models.py | Special.save | __init__ | 19 |  | external | builtin",
		// a standard-library module
		"app/models.py | Model.save | join | 7 |  | external | os",
		// a nested def, then the last of two definitions in an if
		"app/store.py | Store.put | norm | 32 | norm | exact | enclosing function",
		"app/store.py | norm | pick | 25 | pick | exact | same file",
		// instance attributes: a constructed one, one from a parameter's default
		"app/store.py | Store.put | save | 26 | Model.save | exact | receiver type",
		"app/store.py | Store.put | check | 27 | Model.check | exact | receiver type",
		// an attribute from an untyped parameter; a builtin's method; a
		// method whose name is defined once in the project: never by name
		"app/store.py | Store.put | flush | 28 |  | unresolved | receiver of unknown type",
		"app/store.py | Store.put | sort | 29 |  | external | builtin",
		"app/store.py | Store.put | frobnicate | 30 |  | unresolved | receiver of unknown type",
		"app/store.py | Store.put | cb | 31 |  | unresolved | local function value",
		// an imported class's instance, an aliased package module, a
		// standard-library alias, a star import, a module variable
		"app/store.py | Store.put | save | 33 | Special.save | exact | receiver type",
		"app/store.py | Store.put | build | 34 | build | exact | module member",
		"app/store.py | Store.put | dumps | 35 |  | external | json",
		"app/store.py | Store.put | shared | 36 | shared | exact | import",
		"app/store.py | Store.put | render | 37 | Model.render | exact | receiver type",
		// the class a function returns
		"app/store.py | Store.put | check | 39 | Model.check | exact | receiver type",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("missing %q", want)
		}
	}
	// imports: relative modules, a package's __init__.py, absolute from the root
	imps := querySet(t, db, `SELECT f.path, r.target, COALESCE(df.path, ''), r.resolution
		FROM relations r JOIN files f ON f.id = r.file_id LEFT JOIN chunks dc ON dc.id = r.dst_chunk
		LEFT JOIN files df ON df.id = dc.file_id WHERE r.kind = 'imports'`, 4)
	for _, want := range []string{
		"app/store.py | .models | app/models.py | exact",
		"app/store.py | .util | app/util.py | exact",
		"app/store.py | app | app/__init__.py | exact",
		"app/__init__.py | .models | app/models.py | exact",
	} {
		if !slices.Contains(imps, want) {
			t.Errorf("missing import %q", want)
		}
	}
	if t.Failed() {
		for _, g := range append(got, imps...) {
			t.Log(g)
		}
	}
}

// pyResultTree exercises values typed by what a call returns: methods
// (self.m(), cls.m(), on a typed parameter, inherited), chains, class
// and static methods constructing cls(...), attributes assigned from
// calls, properties; and what stays unknown: conflicting results or assignments, a
// cycle, an untyped local at the head (never the module-level name it
// shadows), a result from outside the project.
var pyResultTree = map[string]string{
	"pkg/__init__.py": ``,
	"pkg/nodes.py": `import os


class Node:
    def render(self):
        return ""

    def clone(self):
        return self

    def parent(self) -> "Node":
        return self


class Element(Node):
    def tag(self):
        return "x"


class Document:
    def __init__(self):
        self.root = Element()

    def create(self, name):
        return Element()

    def make_root(self):
        return self.create("root")

    def make_any(self, flag):
        if flag:
            return Element()
        return Document()

    def find(self, name):
        if name:
            return self.root
        return None

    @classmethod
    def load(cls, text):
        return cls()

    @staticmethod
    def blank():
        return Document()

    def cwd(self):
        return os.getcwd()

    def loop_a(self):
        return self.loop_b()

    def loop_b(self):
        return self.loop_a()


class Sub(Document):
    def extra(self):
        return 1


class Tree(Document):
    @property
    def first(self):
        return self.root

    @property
    def size(self):
        return self.root or self
`,
	"pkg/use.py": `from .nodes import Document, Sub, Tree

other = Document()


def build(doc: Document):
    return doc.make_root()


class Builder:
    def __init__(self):
        self.doc = Document()
        self.node = self.doc.create("x")
        self.mixed = self.doc.create("y")
        self.mixed = Document()

    def _make(self):
        return self.doc

    def run(self, doc: Document, other):
        d = self._make()
        d.make_root()
        e = d.create("a")
        e.tag()
        e.render()
        self.node.tag()
        doc.create("b").clone().tag()
        build(doc).parent().render()
        Document.load("t").make_root()
        Sub.load("t").extra()
        Document.blank().find("x").tag()
        m = d.make_any(1)
        m.tag()
        self.mixed.tag()
        w = d.cwd()
        w.strip()
        d.loop_a().tag()
        o = other.create("z")
        o.tag()
        t = Tree()
        t.first.tag()
        t.size.tag()
`,
}

// pyCalls indexes tree and returns the call edges of file as "path |
// source | target | line | destination symbol | resolution | detail".
func pyCalls(t *testing.T, tree map[string]string, file string) []string {
	t.Helper()
	root := t.TempDir()
	writeFiles(t, root, tree)
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	return querySet(t, db, `SELECT f.path, r.src_symbol, r.target, r.line, COALESCE(dc.symbol, ''), r.resolution, r.detail
		FROM relations r JOIN files f ON f.id = r.file_id LEFT JOIN chunks dc ON dc.id = r.dst_chunk
		WHERE r.kind = 'calls' AND f.path = ?`, 7, file)
}

// containsAll reports each of wants missing from got, and then logs got.
func containsAll(t *testing.T, got, wants []string) {
	t.Helper()
	for _, want := range wants {
		if !slices.Contains(got, want) {
			t.Errorf("missing %q", want)
		}
	}
	if t.Failed() {
		for _, g := range got {
			t.Log(g)
		}
	}
}

func TestPythonCallResults(t *testing.T) {
	got := pyCalls(t, pyResultTree, "pkg/use.py")
	containsAll(t, got, []string{
		// a local from self.m(), whose result is an attribute (self.doc)
		"pkg/use.py | Builder.run | make_root | 22 | Document.make_root | exact | receiver type",
		// through locals: a method returning T(...); an inherited method
		"pkg/use.py | Builder.run | tag | 24 | Element.tag | exact | receiver type",
		"pkg/use.py | Builder.run | render | 25 | Node.render | exact | base class",
		// an attribute assigned from a method call on another attribute
		"pkg/use.py | Builder.run | tag | 26 | Element.tag | exact | receiver type",
		// chains: a parameter's method, an inherited "return self"
		"pkg/use.py | Builder.run | clone | 27 | Node.clone | exact | base class",
		"pkg/use.py | Builder.run | tag | 27 | Element.tag | exact | receiver type",
		// a function's result is another call's (doc.make_root() → self.create())
		"pkg/use.py | Builder.run | parent | 28 | Node.parent | exact | base class",
		"pkg/use.py | Builder.run | render | 28 | Node.render | exact | receiver type",
		// a classmethod returning cls(): the class it is called on
		"pkg/use.py | Builder.run | make_root | 29 | Document.make_root | exact | receiver type",
		"pkg/use.py | Builder.run | extra | 30 | Sub.extra | exact | receiver type",
		// a staticmethod constructor; a result that is an attribute or None
		"pkg/use.py | Builder.run | find | 31 | Document.find | exact | receiver type",
		"pkg/use.py | Builder.run | tag | 31 | Element.tag | exact | receiver type",
		// returns of two classes; an attribute assigned two classes:
		// the method of the one that has it (pyright lists it)
		"pkg/use.py | Builder.run | tag | 33 | Element.tag | inferred | receiver partly lacking the method",
		"pkg/use.py | Builder.run | tag | 34 | Element.tag | inferred | receiver partly lacking the method",
		// a result from outside the project stays outside
		"pkg/use.py | Builder.run | strip | 36 |  | external | os",
		// methods returning each other's result
		"pkg/use.py | Builder.run | tag | 37 |  | unresolved | receiver of unknown type",
		// an untyped parameter shadowing a module variable: never the variable
		"pkg/use.py | Builder.run | create | 38 |  | unresolved | receiver of unknown type",
		"pkg/use.py | Builder.run | tag | 39 |  | unresolved | receiver of unknown type",
		// a property's value is its result; unknown when the result is
		"pkg/use.py | Builder.run | tag | 41 | Element.tag | exact | receiver type",
		"pkg/use.py | Builder.run | tag | 42 | Element.tag | inferred | receiver partly lacking the method",
		// a function whose parameter is annotated
		"pkg/use.py | build | make_root | 7 | Document.make_root | exact | receiver type",
	})
}

// pyClassValueTree: classes held by class attributes, parameters'
// defaults, module variables; self.__class__ and type(self); class
// attributes constructed outside the project; a class-body alias of a
// method (evaluated in the class, never at module level); a local
// assigned in several places; with … as, tuple assignment, :=, chained
// assignment, a conditional expression, "or", except … as; isinstance()
// tests; module variables assigned under "global"; a value of several
// classes; self in a def nested in a method; __call__; loops over
// generators; super().
var pyClassValueTree = map[string]string{
	"lib/__init__.py": ``,
	"lib/core.py": `import re


class Reply:
    def begin(self):
        return 1


class Conn:
    reply_class = Reply
    pattern = re.compile("x")
    warn = ping

    def __init__(self, factory=Reply):
        self._factory = factory

    def ping(self):
        return 2

    def copy(self):
        return self.__class__()

    def copy2(self):
        return type(self)()

    def run(self):
        r = self.reply_class()
        r.begin()
        self._factory().begin()
        self.pattern.match("x")
        self.copy().ping()
        self.copy2().ping()
        self.warn().begin()


Factory = Conn


def main():
    Factory().ping()
    Factory()


def pick(flag):
    if flag:
        r = Reply()
    else:
        r = Conn().reply_class()
    r.begin()
    m = Conn.pattern.match("a")
    if not m:
        m = re.match("b", "c")
    m.group()
    c = Reply() if flag else Conn()
    c = Conn() if flag else Reply()
    c.begin()


class Session:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def query(self):
        return Reply()


def forms(flag, given):
    with Session() as s:
        s.query().begin()
    a, b = Reply(), Session()
    a.begin()
    b.query()
    if (w := Session()):
        w.query()
    x = y = Session()
    y.query()
    z = Reply() if flag else None
    z.begin()
    o = given or Reply()
    o.begin()
    try:
        pass
    except KeyError as e:
        e.frob()


class Holder:
    def use(self, node, other):
        if isinstance(node, Reply) and node:
            node.begin()
        elif isinstance(node, Session):
            node.query()
        else:
            node.begin()
        if isinstance(self.item, Reply):
            self.item.begin()
        while isinstance(other, (Reply, Session)):
            other.begin()
        if not isinstance(other, Reply):
            other.begin()


_default = None
_other = None


def default_session():
    global _default
    if _default is None:
        _default = Session()
    return _default


def reset(flag):
    global _other
    _other = Session() if flag else Reply()
    _default.query()
    _other.query()
    default_session().query()


def shadow():
    _default = Reply()
    _default.begin()


def outer():
    current = None

    def inner():
        nonlocal current
        current = Reply()
    _default.query()


def guards(a, b, c, items):
    assert isinstance(a, Reply)
    a.begin()
    if not isinstance(b, Session):
        return
    b.query()
    for it in items:
        if not isinstance(it, Reply):
            continue
        it.begin()
    assert isinstance(c, Reply)
    c = items
    c.begin()
    if not isinstance(b, Reply):
        print(b)
    b.query()


class Base2:
    def shared(self):
        return 1


class Left(Base2):
    pass


class Right(Base2):
    def own(self):
        return 2


def union(flag):
    v = Left() if flag else Right()
    v.shared()
    v.own()


class Outer:
    def helper(self):
        return 1

    def run(self):
        def cb():
            self.helper()
        return cb


class Maker:
    def __call__(self):
        return Reply()


def tuples():
    maker, other = Maker(), None
    maker().begin()


class Tree2:
    def __init__(self):
        self.kids = []

    def walk(self):
        yield self
        for k in self.kids:
            yield from k.walk()

    def replies(self):
        yield Reply()
        yield None

    def __iter__(self):
        return self.replies()

    def name(self):
        return "t"

    def me(self):
        yield self


class Counter2:
    def __iter__(self):
        return self

    def __next__(self):
        return Reply()


def loops(tree: Tree2, items):
    for n in tree.walk():
        n.name()
    for r in tree:
        r.begin()
    for c in Counter2():
        c.begin()
    for i in items:
        i.begin()
    for x in [Reply()]:
        x.begin()
    g = tree.walk()
    g.close()
    [m.begin() for m in tree.replies()]
    for s in Tree2().me():
        s.name()


class MyErr(ValueError):
    def __init__(self, msg):
        super().__init__(msg)


class Plain:
    def __init__(self):
        super().__init__()
        super().frob()


class Kid(Conn):
    def run(self):
        super().run()
        super().__repr__()


class Odd(unknown_thing.Base):
    def go(self):
        super().go()


def objs():
    Plain().__sizeof__()


class Cases:
    def first_case(self):
        class Foo(Conn):
            def run(self):
                return super().run()

    def second_case(self):
        class Foo(Kid):
            def run(self):
                super().run()
                self.ping()
`,
}

func TestPythonClassValues(t *testing.T) {
	got := pyCalls(t, pyClassValueTree, "lib/core.py")
	containsAll(t, got, []string{
		// a class attribute holding a class, called
		"lib/core.py | Conn.run | begin | 28 | Reply.begin | exact | receiver type",
		// a parameter whose default is a class, kept in an attribute
		"lib/core.py | Conn.run | begin | 29 | Reply.begin | exact | receiver type",
		// a class attribute constructed outside the project
		"lib/core.py | Conn.run | match | 30 |  | external | re",
		// self.__class__() and type(self)(): the instance's class
		"lib/core.py | Conn.run | ping | 31 | Conn.ping | exact | receiver type",
		"lib/core.py | Conn.run | ping | 32 | Conn.ping | exact | receiver type",
		// a class body name bound to a method: not a class
		"lib/core.py | Conn.run | begin | 33 |  | unresolved | receiver of unknown type",
		// a module variable holding a class: its instances' methods; the
		// call of the variable itself is not a call of the class's name
		"lib/core.py | main | ping | 40 | Conn.ping | exact | receiver type",
		"lib/core.py | main | Factory | 41 |  | unresolved | module variable",
		// assigned in two places: the same class (through a class
		// attribute), the same module outside the project; two classes,
		// one having the method: its method, inferred
		"lib/core.py | pick | begin | 49 | Reply.begin | exact | receiver type",
		"lib/core.py | pick | group | 53 |  | external | re",
		"lib/core.py | pick | begin | 56 | Reply.begin | inferred | receiver partly lacking the method",
		// with … as (what __enter__ returns), tuple assignment, :=,
		// chained assignment, a conditional with None, "or" with an
		// untyped parameter (the known part: inferred), except … as
		"lib/core.py | forms | query | 72 | Session.query | exact | receiver type",
		"lib/core.py | forms | begin | 72 | Reply.begin | exact | receiver type",
		"lib/core.py | forms | begin | 74 | Reply.begin | exact | receiver type",
		"lib/core.py | forms | query | 75 | Session.query | exact | receiver type",
		"lib/core.py | forms | query | 77 | Session.query | exact | receiver type",
		"lib/core.py | forms | query | 79 | Session.query | exact | receiver type",
		"lib/core.py | forms | begin | 81 | Reply.begin | exact | receiver type",
		"lib/core.py | forms | begin | 83 | Reply.begin | inferred | receiver partly of unknown type",
		"lib/core.py | forms | frob | 87 |  | external | builtin",
		// isinstance() narrows a parameter or an attribute in the body
		// of an if, elif or while; in else, of an untyped parameter,
		// nothing is left; not under "not"; to a tuple of classes, one
		// of them (Session has no begin)
		"lib/core.py | Holder.use | begin | 93 | Reply.begin | exact | receiver type",
		"lib/core.py | Holder.use | query | 95 | Session.query | exact | receiver type",
		"lib/core.py | Holder.use | begin | 97 |  | unresolved | receiver of unknown type",
		"lib/core.py | Holder.use | begin | 99 | Reply.begin | exact | receiver type",
		"lib/core.py | Holder.use | begin | 101 | Reply.begin | inferred | receiver partly lacking the method",
		"lib/core.py | Holder.use | begin | 103 |  | unresolved | receiver of unknown type",
		// a module variable: None a placeholder, assigned in a function
		// that declares it global (a local of the same name does not
		// count, nor a nonlocal); two classes, one having the method:
		// its method, inferred
		"lib/core.py | reset | query | 120 | Session.query | exact | receiver type",
		"lib/core.py | reset | query | 121 | Session.query | inferred | receiver partly lacking the method",
		"lib/core.py | reset | query | 122 | Session.query | exact | receiver type",
		"lib/core.py | shadow | begin | 127 | Reply.begin | exact | receiver type",
		"lib/core.py | outer | query | 136 | Session.query | exact | receiver type",
		// assert isinstance(), "if not isinstance(): return/continue"
		// narrow the statements after them; an assignment ends it; an if
		// that does not leave the block does not narrow
		"lib/core.py | guards | begin | 141 | Reply.begin | exact | receiver type",
		"lib/core.py | guards | query | 144 | Session.query | exact | receiver type",
		"lib/core.py | guards | begin | 148 | Reply.begin | exact | receiver type",
		"lib/core.py | guards | begin | 151 |  | unresolved | receiver of unknown type",
		"lib/core.py | guards | query | 154 | Session.query | exact | receiver type",
		// a value of two classes: a method both resolve to (inherited);
		// one only one of them has, inferred (pyright lists it)
		"lib/core.py | union | shared | 173 | Base2.shared | exact | base class",
		"lib/core.py | union | own | 174 | Right.own | inferred | receiver partly lacking the method",
		// a def nested in a method sees the method's self
		"lib/core.py | cb | helper | 183 | Outer.helper | exact | own type",
		// calling an instance: its __call__'s result; a tuple assignment
		"lib/core.py | tuples | begin | 194 | Reply.begin | exact | receiver type",
		// loops over project generators: what they yield (a yield of
		// unknown type leaves the known part, inferred), a class's
		// __iter__ returning a generator, or self with __next__; a list
		// of one class (its elements); not an untyped parameter; a
		// generator's own methods are builtin
		"lib/core.py | loops | name | 230 | Tree2.name | inferred | receiver partly of unknown type",
		"lib/core.py | loops | begin | 232 | Reply.begin | exact | receiver type",
		"lib/core.py | loops | begin | 234 | Reply.begin | exact | receiver type",
		"lib/core.py | loops | begin | 236 |  | unresolved | receiver of unknown type",
		"lib/core.py | loops | begin | 238 | Reply.begin | exact | receiver type",
		"lib/core.py | loops | close | 240 |  | external | builtin",
		"lib/core.py | loops | begin | 241 | Reply.begin | exact | receiver type",
		"lib/core.py | loops | name | 243 | Tree2.name | exact | receiver type",
		// super(): the first base that has it, else outside the project
		// with the first base outside it, object's methods, unknown
		"lib/core.py | MyErr.__init__ | __init__ | 248 |  | external | ValueError",
		"lib/core.py | Plain.__init__ | __init__ | 253 |  | external | builtin",
		"lib/core.py | Plain.__init__ | frob | 254 |  | unresolved | no such method",
		"lib/core.py | Kid.run | run | 259 | Conn.run | exact | base class",
		"lib/core.py | Kid.run | __repr__ | 260 |  | external | builtin",
		"lib/core.py | Odd.go | go | 265 |  | unresolved | base class of unknown origin",
		"lib/core.py | objs | __sizeof__ | 269 |  | external | builtin",
		// classes defined in functions sharing a name: each method is
		// its own class's
		"lib/core.py | Cases.Foo.run | run | 276 | Conn.run | exact | base class",
		"lib/core.py | Cases.Foo.run | run | 281 | Kid.run | exact | base class",
		"lib/core.py | Cases.Foo.run | ping | 282 | Conn.ping | exact | base class",
	})
}

// pyFlowTree exercises what pyright does with values partly of unknown
// type and with the flow of a function: a union with an unknown part
// resolves through the known part (inferred); an assignment, a loop's or
// comprehension's target, a with's target and an isinstance() test with
// an assignment narrow a local or self.x after them, as do if and try
// statements by what their branches end with; values of several
// types all outside the project are outside it; eval() is any value;
// self and cls are a method's receiver only; builtin containers of known
// elements.
var pyFlowTree = map[string]string{
	"flow/core.py": `import io


class Reply:
    def begin(self):
        return True


class Session:
    def query(self):
        return Reply()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class Conn:
    def __init__(self, sink):
        self.sink = sink
        self.reply = sink

    def reset(self):
        self.sink = Reply()
        self.reply = self.sink

    def run(self, factory):
        self.sink.begin()
        self.reply.begin()
        self.conn = factory()
        self.conn.query()
        self.conn = Session()
        self.conn.query()


def maybe(flag, given):
    if flag:
        return Reply()
    return given


def flow(flag, given):
    maybe(flag, given).begin()
    x = given
    x.begin()
    x = Reply()
    x.begin()
    if flag:
        x = given
    x.begin()
    for x in given:
        x.begin()
    y = Session()
    for item in given:
        y.query()
        y = Reply()
    with Session() as z:
        z.query()
    z = given
    z.query()
    [w.begin() for w in given]
    w = Reply()
    a, w = given, Session()
    w.query()


def coerce(value, other="x"):
    if not isinstance(value, Reply):
        value = Reply()
    value.begin()
    if isinstance(other, str):
        other = Session()
    other.query()


def files(flag, name):
    if flag:
        f = io.BytesIO()
    else:
        f = open(name)
    f.close()
    obj = eval(name)
    obj.begin()


def build(cls=None):
    if cls is None:
        cls = Session
    cls().query()


def walk(self):
    self.begin()


class Text(str):
    def __new__(cls, value):
        self = str.__new__(cls, value)
        self.setup()
        return self

    def setup(self):
        pass


def parts(items):
    rest = list(items)
    rest.pop().begin()


def containers(given, items: list[Reply], pairs: "tuple[Reply, Session]"):
    for r in items:
        r.begin()
    for p in pairs:
        p.begin()
    for s in [Session(), Session()]:
        s.query()
    for s2 in [Session(), Reply()]:
        s2.query()
    for t in (Session(), given):
        t.query()
    for u in sorted(items):
        u.begin()
    for v in [q.query() for q in [Session()]]:
        v.begin()
    kept = [Reply()]
    kept.append(Reply())
    kept.pop().begin()


def branches(flag, given):
    x = None
    if flag:
        x = Reply()
    x.begin()
    y = given
    if flag:
        y = given
    y.begin()
    y = Reply()
    z = given
    if not flag:
        z = Reply()
    else:
        return
    z.begin()


class Platform:
    def helper(self):
        return 1

    if Reply:
        def run(self):
            self.helper()


def tries(given):
    t = given
    try:
        t = Reply()
    except KeyError:
        t = Reply()
    t.begin()
    u = Reply()
    try:
        u = given
    except KeyError:
        return
    u.begin()
    u = Session()
`,
}

func TestPythonFlowAndPartlyUnknownValues(t *testing.T) {
	got := pyCalls(t, pyFlowTree, "flow/core.py")
	containsAll(t, got, []string{
		// an attribute assigned an untyped parameter and a class: the
		// class's method, inferred; through another attribute (a union in
		// a union)
		"flow/core.py | Conn.run | begin | 30 | Reply.begin | inferred | receiver partly of unknown type",
		"flow/core.py | Conn.run | begin | 31 | Reply.begin | inferred | receiver partly of unknown type",
		// self.x = v narrows self.x after it: unknown, then Session
		"flow/core.py | Conn.run | query | 33 |  | unresolved | receiver of unknown type",
		"flow/core.py | Conn.run | query | 35 | Session.query | exact | receiver type",
		// a function returning a class or an untyped parameter
		"flow/core.py | flow | begin | 45 | Reply.begin | inferred | receiver partly of unknown type",
		// a local assigned an untyped parameter, then a class: each
		// assignment decides the calls after it; after an if that may
		// assign it, either
		"flow/core.py | flow | begin | 47 |  | unresolved | receiver of unknown type",
		"flow/core.py | flow | begin | 49 | Reply.begin | exact | receiver type",
		"flow/core.py | flow | begin | 52 | Reply.begin | inferred | receiver partly of unknown type",
		// a loop's target is an element of what it iterates (unknown
		// here), whatever the name held before
		"flow/core.py | flow | begin | 54 |  | unresolved | receiver of unknown type",
		// a loop assigning the name after the call: both values
		"flow/core.py | flow | query | 57 | Session.query | inferred | receiver partly lacking the method",
		// with … as, then an untyped parameter
		"flow/core.py | flow | query | 60 | Session.query | exact | receiver type",
		"flow/core.py | flow | query | 62 |  | unresolved | receiver of unknown type",
		// a comprehension's variable; a tuple assignment element by element
		"flow/core.py | flow | begin | 63 |  | unresolved | receiver of unknown type",
		"flow/core.py | flow | query | 66 | Session.query | exact | receiver type",
		// if not isinstance(v, T): v = T(…) leaves a T; if isinstance(v,
		// str): v = T() a T or the rest
		"flow/core.py | coerce | begin | 72 | Reply.begin | exact | receiver type",
		"flow/core.py | coerce | query | 75 | Session.query | inferred | receiver partly of unknown type",
		// two classes outside the project; eval(): any value
		"flow/core.py | files | close | 83 |  | external | io|builtin",
		"flow/core.py | files | begin | 85 |  | unresolved | receiver of unknown type",
		// in a function, parameters named cls or self are locals like any
		// other; X.__new__(cls) is an instance of cls
		"flow/core.py | build | query | 91 | Session.query | inferred | receiver partly of unknown type",
		"flow/core.py | walk | begin | 95 |  | unresolved | receiver of unknown type",
		"flow/core.py | Text.__new__ | setup | 101 | Text.setup | exact | receiver type",
		// a builtin value's method returns any value (an element)
		"flow/core.py | parts | begin | 110 |  | unresolved | receiver of unknown type",
		// containers: list[T] and tuple annotations, list literals of one
		// class (not of two), tuples (either element), sorted(),
		// comprehensions; a container's methods are builtin, their
		// results unknown
		"flow/core.py | containers | begin | 115 | Reply.begin | exact | receiver type",
		"flow/core.py | containers | begin | 117 | Reply.begin | inferred | receiver partly lacking the method",
		"flow/core.py | containers | query | 119 | Session.query | exact | receiver type",
		"flow/core.py | containers | query | 121 |  | unresolved | receiver of unknown type",
		"flow/core.py | containers | query | 123 | Session.query | inferred | receiver partly of unknown type",
		"flow/core.py | containers | begin | 125 | Reply.begin | exact | receiver type",
		"flow/core.py | containers | begin | 127 | Reply.begin | exact | receiver type",
		"flow/core.py | containers | append | 129 |  | external | builtin",
		"flow/core.py | containers | begin | 130 |  | unresolved | receiver of unknown type",
		// after an if: what each branch that goes on ends with, and the
		// value before it without an else (None a placeholder; a
		// parameter defaulting to None is of unknown type, as above)
		"flow/core.py | branches | begin | 137 | Reply.begin | exact | receiver type",
		"flow/core.py | branches | begin | 141 |  | unresolved | receiver of unknown type",
		"flow/core.py | branches | begin | 148 | Reply.begin | exact | receiver type",
		// a method defined in an if of the class body: self is its receiver
		"flow/core.py | Platform.run | helper | 157 | Platform.helper | exact | own type",
		// after a try: what the body and each handler that goes on end with
		"flow/core.py | tries | begin | 166 | Reply.begin | exact | receiver type",
		"flow/core.py | tries | begin | 172 |  | unresolved | receiver of unknown type",
	})
}

// pyScopeTree exercises the scopes of blocks, super() results, calls of
// attribute values and absolute imports of standard-library modules that
// a package folder of the project also names.
var pyScopeTree = map[string]string{
	"blk/__init__.py": ``,
	"blk/http.py": `def client():
    return 1
`,
	"blk/core.py": `import os
import sys
import typing
from http import client
from typing import TYPE_CHECKING


class Conn:
    def send(self):
        return 1


class Ctx:
    Conn = Conn

    def __init__(self, cb):
        self.cb = cb
        self.factory = Conn

    def get(self):
        return self

    def run(self):
        self.cb()
        self.factory()
        self.Conn().send()


if sys.platform == "win32":
    DEFAULT = Ctx(None)
else:
    DEFAULT = Ctx(None)

try:
    SHARED = Conn()
except ImportError:
    SHARED = None


class Sub(Ctx):
    if sys.version_info >= (3, 8):
        def setup(self):
            self.conn = Conn()

    def get(self):
        return super().get()

    def use(self):
        self.get().run()
        self.conn.send()


def main():
    DEFAULT.run()
    SHARED.send()
    with open("f") as f:
        f.write("x")
    client.HTTPConnection("h").connect()


class Win:
    def close(self):
        return 1


if sys.platform != "win32":
    def plat():
        return Conn()
else:
    def plat():
        return Win()

if sys.version_info >= (3, 8) and os.name == "posix":
    def modern():
        return Conn()
elif TYPE_CHECKING:
    def modern():
        return 1
else:
    def modern():
        return Win()

if sys.platform.startswith("win"):
    HANDLE = Win()
else:
    HANDLE = Conn()


@typing.overload
def ov(x: int) -> int: ...
@typing.overload
def ov(x: str) -> str: ...
def ov(x):
    return Conn()


class Ov:
    @typing.overload
    def get(self, k: int) -> int: ...
    @typing.overload
    def get(self, k: str) -> str: ...
    def get(self, k):
        return Conn()


def main2():
    plat().send()
    modern().send()
    HANDLE.send()
    ov(1).send()
    Ov().get(1).send()
    typed().send()


if TYPE_CHECKING:
    def typed():
        return Conn()
else:
    def typed():
        return Win()
`,
	"blk/lazy.py": `import sys


def first():
    from .core import plat as f
    from . import http as c
    return f(), c.client()


def second():
    from .core import modern as f
    return f()


def modern():
    from . import core as c
    from .core import modern
    return modern(), c.ov(1)


if sys.platform == "win32":
    def helper():
        import winreg
        return winreg.OpenKey()

    def caller():
        return helper()

    class OnlyWin:
        def run(self):
            return 1


def live():
    OnlyWin().run()


def narrow(h: "Conn | str | None", k: "Win | str", m: "Win | str"):
    from .core import Conn, Win
    if h is None:
        h = Conn()
    elif not isinstance(h, Conn):
        h = Conn()
    h.send()
    if isinstance(k, str):
        k = Win()
    k.close()
    if isinstance(m, str):
        m = Win()
    elif m:
        m = Win()
    m.close()


def pair(flag):
    from .core import Conn, Win
    if flag:
        return None
    return Conn(), Win()


class Pairs:
    def __init__(self):
        self.p, self.q = self.again()

    def again(self):
        return pair(1)

    def run(self):
        a, b = pair(0)
        a.send()
        b.close()
        self.q.close()
        c = None
        c, d = pair(0)
        c.send()


if sys.platform == "win32":
    def proxies():
        return 1
else:
    proxies = pair


def use_proxies():
    proxies()


class Session:
    async def __aenter__(self):
        return self

    def __enter__(self):
        return 1

    def ping(self):
        return 2


async def use_session():
    async with Session() as s:
        s.ping()


import contextlib


@contextlib.contextmanager
def opened():
    yield Session()


def use_opened():
    with opened() as o:
        o.ping()


class Registry:
    def __init__(self):
        self.by_name: "dict[str, Session]" = {}
        self.items: "list[Session]" = []

    def use(self, k, m: "dict[str, Session]"):
        self.by_name.get(k).ping()
        self.by_name[k].ping()
        for s in self.by_name.values():
            s.ping()
        self.items[0].ping()
        d = self.by_name
        d[k].ping()
        self.by_name.keys()
        m.get(k).ping()
        s2, n = self.pick()
        s2.ping()

    def pick(self) -> "tuple[Session, int]":
        return self.items[0], 1
`,
	"blk/use.py": `from . import core
from .core import ov


def use():
    core.ov(1)
    ov(2)
`,
}

// Python scopes: an if, try or with at module level or in a class body
// binds module variables and class attributes (and methods whose self.x
// are attributes); a class attribute naming the class body's own name
// before it binds it is the module's (X = X); super().m() is the bases'
// m called on self; a call of an attribute's value is a call of a
// function-typed field (outside the project when the value is); a
// builtin context manager enters as itself; an absolute import of a
// standard-library module is not a package folder's module of that name.
func TestPythonScopesSuperAndFieldCalls(t *testing.T) {
	got := pyCalls(t, pyScopeTree, "blk/core.py")
	containsAll(t, got, []string{
		"blk/core.py | Ctx.run | cb | 24 |  | unresolved | function-typed field",
		"blk/core.py | Ctx.run | factory | 25 |  | unresolved | function-typed field",
		// Conn = Conn: the module's class
		"blk/core.py | Ctx.run | send | 26 | Conn.send | exact | receiver type",
		// super().get() returns self: the Sub
		"blk/core.py | Sub.use | run | 49 | Ctx.run | exact | base class",
		// self.conn assigned in a method defined in an if of the class body
		"blk/core.py | Sub.use | send | 50 | Conn.send | exact | receiver type",
		// module variables assigned in an if and in a try
		"blk/core.py | main | run | 54 | Ctx.run | exact | receiver type",
		"blk/core.py | main | send | 55 | Conn.send | exact | receiver type",
		"blk/core.py | main | write | 57 |  | external | builtin",
		"blk/core.py | main | HTTPConnection | 58 |  | external | http",
		// definitions in branches static conditions rule out are left
		// out (functions, module variables); of several, the last
		// (overloads: the implementation)
		"blk/core.py | main2 | send | 107 | Conn.send | exact | receiver type",
		"blk/core.py | main2 | send | 108 | Conn.send | exact | receiver type",
		"blk/core.py | main2 | send | 109 | Conn.send | exact | receiver type",
		"blk/core.py | main2 | send | 110 | Conn.send | exact | receiver type",
		"blk/core.py | main2 | send | 111 | Conn.send | exact | receiver type",
		"blk/core.py | main2 | send | 112 | Conn.send | exact | receiver type",
	})
	db := openDB(t)
	root := t.TempDir()
	writeFiles(t, root, pyScopeTree)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	containsAll(t, querySet(t, db, `SELECT r.target, r.line, dc.start_line FROM relations r
		JOIN chunks dc ON dc.id = r.dst_chunk WHERE r.kind = 'calls' AND r.target IN ('plat', 'modern', 'ov', 'get')`, 3), []string{
		"plat | 107 | 67", "modern | 108 | 74", "ov | 110 | 93", "get | 111 | 102",
		"ov | 6 | 93", "ov | 7 | 93", // from another module
	})
	// an import in a function binds a local of it: the name another
	// function imports, a module-level def of the name, are not it
	containsAll(t, querySet(t, db, `SELECT r.src_symbol, r.target, dc.path, dc.start_line FROM relations r
		JOIN files f ON f.id = r.file_id JOIN chunks dc ON dc.id = r.dst_chunk WHERE r.kind = 'calls' AND f.path = 'blk/lazy.py'`, 4), []string{
		"first | f | blk/core.py | 67", "first | client | blk/http.py | 1", "second | f | blk/core.py | 74", "modern | modern | blk/core.py | 74", "modern | ov | blk/core.py | 93",
		// a call in a ruled-out branch sees its definitions and imports
		"caller | helper | blk/lazy.py | 22",
	})
	containsAll(t, pyCalls(t, pyScopeTree, "blk/lazy.py"), []string{
		"blk/lazy.py | helper | OpenKey | 24 |  | external | winreg",
		// defined only where a static condition rules it out: that one
		"blk/lazy.py | live | OnlyWin | 35 | OnlyWin | exact | same file",
		"blk/lazy.py | live | run | 35 | OnlyWin.run | exact | receiver type",
		// after an if without else, what its conditions being false
		// tell: not isinstance(h, T) a T; isinstance(k, str) not a str
		"blk/lazy.py | narrow | send | 44 | Conn.send | exact | receiver type",
		"blk/lazy.py | narrow | close | 47 | Win.close | exact | receiver type",
		"blk/lazy.py | narrow | close | 52 | Win.close | exact | receiver type",
		// a, b = f(): the elements of the tuple f returns (through
		// another function returning f's result)
		"blk/lazy.py | Pairs.run | send | 71 | Conn.send | exact | receiver type",
		"blk/lazy.py | Pairs.run | close | 72 | Win.close | exact | receiver type",
		"blk/lazy.py | Pairs.run | close | 73 | Win.close | exact | receiver type",
		"blk/lazy.py | Pairs.run | send | 76 | Conn.send | exact | receiver type",
		// a module variable the live branch binds, not the ruled-out def
		"blk/lazy.py | use_proxies | proxies | 87 |  | unresolved | module variable",
		// async with: what __aenter__ returns
		"blk/lazy.py | use_session | ping | 103 | Session.ping | exact | receiver type",
		// with f() as x, f a @contextmanager generator: what it yields
		"blk/lazy.py | use_opened | ping | 116 | Session.ping | exact | receiver type",
		// mappings' values (get, d[k], values()) and lists' elements (xs[i])
		"blk/lazy.py | Registry.use | ping | 125 | Session.ping | exact | receiver type",
		"blk/lazy.py | Registry.use | ping | 126 | Session.ping | exact | receiver type",
		"blk/lazy.py | Registry.use | ping | 128 | Session.ping | exact | receiver type",
		"blk/lazy.py | Registry.use | ping | 129 | Session.ping | exact | receiver type",
		"blk/lazy.py | Registry.use | ping | 131 | Session.ping | exact | receiver type",
		"blk/lazy.py | Registry.use | keys | 132 |  | external | builtin",
		"blk/lazy.py | Registry.use | ping | 133 | Session.ping | exact | receiver type",
		// -> tuple[A, B]: the elements
		"blk/lazy.py | Registry.use | ping | 135 | Session.ping | exact | receiver type",
	})
}

// Python resolution through call results, alternatives and narrowing is
// a function of the tree: shuffled arrival orders and batch sizes, and the
// deletion and re-addition of a module others take results from, give
// the relations of a clean index.
func TestPythonResolutionIsAFunctionOfTheTree(t *testing.T) {
	tree := maps.Clone(pyTree)
	maps.Copy(tree, pyResultTree)
	maps.Copy(tree, pyClassValueTree)
	maps.Copy(tree, pyFlowTree)
	maps.Copy(tree, pyScopeTree)
	_, _, want := cleanSets(t, tree)
	shuffledArrivals(t, tree, 2, 3, want)
	deleteAndReadd(t, tree, []string{"pkg/nodes.py", "lib/core.py"}, want)
}

// Python tuples unpacked in for targets: enumerate(v) and zip(v, w) give
// elements of their arguments, a mapping's items() its values (through
// an annotated attribute, resolved after the run, or a local); items()
// of a project class is not followed.
func TestPythonLoopTupleTargets(t *testing.T) {
	tree := map[string]string{"loop/tuples.py": `class Session:
    def ping(self):
        return 1


class Maker:
    def __call__(self):
        return Session()


class Bag:
    def items(self):
        return self

    def __iter__(self):
        yield Maker()


class Registry:
    def __init__(self):
        self.by_name: "dict[str, Session]" = {}
        self.sessions: "list[Session]" = []

    def use(self, m: "dict[str, Session]", bag: Bag):
        for k, s in self.by_name.items():
            s.ping()
        for k, s in m.items():
            s.ping()
        for i, s in enumerate(self.sessions):
            s.ping()
        for a, b in zip(self.sessions, m.values()):
            b.ping()
        for k, s in bag.items():
            s.ping()
        return [s.ping() for k, s in self.by_name.items()]
`}
	got := pyCalls(t, tree, "loop/tuples.py")
	for _, c := range []struct {
		line int
		want string
	}{
		{26, "Session.ping | exact | receiver type"},
		{28, "Session.ping | exact | receiver type"},
		{30, "Session.ping | exact | receiver type"},
		{32, "Session.ping | exact | receiver type"},
		{34, " | unresolved | receiver of unknown type"},
		{35, "Session.ping | exact | receiver type"},
	} {
		want := fmt.Sprintf("loop/tuples.py | Registry.use | ping | %d | %s", c.line, c.want)
		if !slices.Contains(got, want) {
			t.Errorf("missing %q in %v", want, got)
		}
	}
}

// Python calls of a name a module or class defines several times: a
// calls edge to every definition the call sees (a def in both branches of
// an if whose condition is not static, a method's overloads), not to one
// ruled out by a static condition nor to a function's overloads (pyright
// lists the implementation), and one edge for a name defined once.
func TestPythonCallsOfSeveralDefinitions(t *testing.T) {
	tree := map[string]string{"defs/m.py": `import sys
from typing import overload
if hasattr(sys, "x"):
    def pick(v):
        return 1
else:
    def pick(v):
        return 2

if sys.platform == "win32":
    def plat():
        return 1
else:
    def plat():
        return 2


@overload
def conv(v: int) -> int: ...
@overload
def conv(v: str) -> str: ...
def conv(v):
    return v


def once():
    return 0


def use():
    pick(1)
    plat()
    once()
    conv(1)


class Box:
    @overload
    def get(self, k: int) -> int: ...
    @overload
    def get(self, k: str) -> str: ...
    def get(self, k):
        return k

    def put(self):
        return self.get(1)
`,
		"defs/use.py": `from . import m
from .m import pick


def use():
    m.pick(1)
    pick(2)
    m.Box().get(3)
`}
	root := t.TempDir()
	writeFiles(t, root, tree)
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT f.path, r.src_symbol, r.target, r.line, dc.start_line, r.resolution, r.detail, r.derived
		FROM relations r JOIN chunks dc ON dc.id = r.dst_chunk
		JOIN files f ON f.id = r.file_id
		WHERE r.kind = 'calls' AND r.src_symbol IN ('use', 'Box.put')`, 8)
	for _, c := range []struct {
		name  string
		edges []string
	}{
		{"both branches", []string{"defs/m.py | use | pick | 31 | 7 | exact | same file | 0", "defs/m.py | use | pick | 31 | 4 | exact | another definition | 1"}},
		{"the live branch only", []string{"defs/m.py | use | plat | 32 | 14 | exact | same file | 0"}},
		{"defined once", []string{"defs/m.py | use | once | 33 | 26 | exact | same file | 0"}},
		{"method overloads", []string{"defs/m.py | Box.put | get | 46 | 42 | exact | own type | 0", "defs/m.py | Box.put | get | 46 | 38 | exact | another definition | 1", "defs/m.py | Box.put | get | 46 | 40 | exact | another definition | 1"}},
		{"module member", []string{"defs/use.py | use | pick | 6 | 7 | exact | module member | 0", "defs/use.py | use | pick | 6 | 4 | exact | another definition | 1"}},
		{"imported", []string{"defs/use.py | use | pick | 7 | 7 | exact | import | 0", "defs/use.py | use | pick | 7 | 4 | exact | another definition | 1"}},
		{"method of an instance", []string{"defs/use.py | use | get | 8 | 42 | exact | receiver type | 0", "defs/use.py | use | get | 8 | 38 | exact | another definition | 1", "defs/use.py | use | get | 8 | 40 | exact | another definition | 1"}},
		{"function overloads: the implementation", []string{"defs/m.py | use | conv | 34 | 22 | exact | same file | 0"}},
	} {
		site := strings.Join(strings.Split(c.edges[0], " | ")[:4], " | ") + " | "
		var of []string
		for _, g := range got {
			if strings.HasPrefix(g, site) {
				of = append(of, g)
			}
		}
		slices.Sort(of)
		want := slices.Sorted(slices.Values(c.edges))
		if !slices.Equal(of, want) {
			t.Errorf("%s: edges %q, want %q (all: %q)", c.name, of, want, got)
		}
	}
}

// Python calls on a value of several types whose members define the
// method apart (two project modules returned, two classes' methods): an
// edge to each, as pyright lists the declaration of each member of a
// union; a member lacking the method leaves the others' (inferred: pyright
// lists them and reports the access).
func TestPythonCallsOnUnions(t *testing.T) {
	tree := map[string]string{
		"u/a.py": "def enc():\n    return 1\n",
		"u/b.py": "def enc():\n    return 2\n",
		"u/use.py": `from . import a, b


class A:
    def run(self):
        return 1


class B:
    def run(self):
        return 2


class C:
    pass


def pick(flag):
    if flag:
        return a
    return b


def use(flag):
    pick(flag).enc()
    x = A() if flag else B()
    x.run()
    y = A() if flag else C()
    y.run()
`}
	root := t.TempDir()
	writeFiles(t, root, tree)
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT r.target, r.line, COALESCE(dc.path || ':' || dc.start_line, ''), r.resolution, r.detail, r.derived
		FROM relations r LEFT JOIN chunks dc ON dc.id = r.dst_chunk
		WHERE r.kind = 'calls' AND r.src_symbol = 'use'`, 6)
	for _, c := range []struct {
		name  string
		edges []string
	}{
		{"two modules", []string{"enc | 25 | u/a.py:1 | exact | module member | 0", "enc | 25 | u/b.py:1 | exact | another definition | 1"}},
		{"two classes", []string{"run | 27 | u/use.py:5 | exact | receiver type | 0", "run | 27 | u/use.py:10 | exact | another definition | 1"}},
		{"a member lacking it", []string{"run | 29 | u/use.py:5 | inferred | receiver partly lacking the method | 0"}},
	} {
		site := strings.Join(strings.Split(c.edges[0], " | ")[:2], " | ") + " | "
		var of []string
		for _, g := range got {
			if strings.HasPrefix(g, site) {
				of = append(of, g)
			}
		}
		slices.Sort(of)
		want := slices.Sorted(slices.Values(c.edges))
		if !slices.Equal(of, want) {
			t.Errorf("%s: edges %q, want %q (all: %q)", c.name, of, want, got)
		}
	}
}

// TestPythonOutsideValues covers values whose type comes from outside the
// project: an attribute a class and its project bases do not define but a
// base outside the project does.
func TestPythonOutsideValues(t *testing.T) {
	tree := map[string]string{"outside/values.py": `import re
import socketserver
import typing as t
from lib import Unknown


class Local:
    def readline(self):
        return ""


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        self.rfile.readline()


class Sub(Handler):
    def more(self):
        self.wfile.flush()


class Plain(Local):
    def go(self):
        self.rfile.readline()


class Lib(Unknown):
    def go(self):
        self.rfile.readline()


def factory(base):
    class Odd(base):
        def go(self):
            self.rfile.readline()
    return Odd


def rd(stream: t.IO[bytes], m: "re.Match[str]"):
    m.group(1)
    return stream.read()
`}
	got := pyCalls(t, tree, "outside/values.py")
	containsAll(t, got, []string{
		"outside/values.py | Handler.handle | readline | 14 |  | external | socketserver.StreamRequestHandler",
		"outside/values.py | Sub.more | flush | 19 |  | external | socketserver.StreamRequestHandler",
		"outside/values.py | Plain.go | readline | 24 |  | unresolved | receiver of unknown type",
		"outside/values.py | Lib.go | readline | 29 |  | external | Unknown",
		"outside/values.py | Odd.go | readline | 35 |  | unresolved | receiver of unknown type",
		"outside/values.py | rd | group | 40 |  | external | re",
		"outside/values.py | rd | read | 41 |  | external | typing",
	})
}

// TestPythonNarrowingByFailedTests covers isinstance() tests that fail:
// in the else or a later elif of an if, and after `if isinstance(x, T):
// return`, the value before without T; a tuple of classes is one of them.
func TestPythonNarrowingByFailedTests(t *testing.T) {
	tree := map[string]string{"narrow/failed.py": `class Header:
    def to_header(self):
        return ""


class Range(Header):
    pass


class Span(Header):
    pass


class Resp:
    def a(self, value: "Range | str | None"):
        if not value:
            pass
        elif isinstance(value, str):
            pass
        else:
            value.to_header()

    def b(self, value: "Range | str"):
        if isinstance(value, str):
            return
        value.to_header()

    def c(self, value: "Range | str", flag):
        if isinstance(value, str) and flag:
            return
        value.to_header()

    def d(self, value: "Range | Span | str"):
        if isinstance(value, (Range, Span)):
            value.to_header()
        if isinstance(value, (str, bytes)):
            raise TypeError(value)
        value.to_header()

    def e(self, value):
        if isinstance(value, str):
            return
        value.to_header()

    def f(self, value: "Range | str"):
        if isinstance(value, str):
            value = Span()
        elif not isinstance(value, Range):
            pass
        else:
            value.to_header()
`}
	got := pyCalls(t, tree, "narrow/failed.py")
	containsAll(t, got, []string{
		"narrow/failed.py | Resp.a | to_header | 21 | Header.to_header | exact | base class",
		"narrow/failed.py | Resp.b | to_header | 26 | Header.to_header | exact | base class",
		// a failed "and" does not tell that isinstance failed: Range or
		// str, the project's method inferred (str lacks it)
		"narrow/failed.py | Resp.c | to_header | 31 | Header.to_header | inferred | receiver partly outside the project",
		"narrow/failed.py | Resp.d | to_header | 35 | Header.to_header | exact | base class",
		"narrow/failed.py | Resp.d | to_header | 38 | Header.to_header | exact | base class",
		// an untyped parameter: nothing is left to narrow
		"narrow/failed.py | Resp.e | to_header | 43 |  | unresolved | receiver of unknown type",
		// `not isinstance(x, T)` failed: a T
		"narrow/failed.py | Resp.f | to_header | 51 | Header.to_header | exact | base class",
	})
}

// TestPythonIndexedValues covers x[k] with k written out: element k of
// the tuple a call returns, an element of a list a call returns, an
// element of a value from outside the project.
func TestPythonIndexedValues(t *testing.T) {
	tree := map[string]string{"index/values.py": `import socket


class Item:
    def ping(self):
        return 1


def three() -> "tuple[int, str, Item]":
    return 1, "", Item()


def items() -> "list[Item]":
    return []


def use():
    rv = three()
    rv[2].ping()
    three()[2].ping()
    items()[0].ping()
    a, b = items()
    b.ping()
    s1, s2 = socket.socketpair()
    s1.detach()
    xs = [Item(), Item()]
    xs[1].ping()
    rv[1].ping()
    r = row()
    r[0].ping()
    row()[1].ping()


class Row:
    def __getitem__(self, k) -> Item:
        return Item()


def row() -> Row:
    return Row()


class Other:
    def ping(self):
        return 2


class Pairs:
    def items(self):
        return [(Item(), Other())]


def pairs(p: Pairs):
    for k, v in p.items():
        v.ping()
    t = (Item(), Other())
    t[1].ping()


class Holder:
    def __init__(self):
        self.t = (Item(), Other())

    def use(self):
        self.t[1].ping()
`}
	got := pyCalls(t, tree, "index/values.py")
	containsAll(t, got, []string{
		"index/values.py | use | ping | 19 | Item.ping | exact | receiver type",
		"index/values.py | use | ping | 20 | Item.ping | exact | receiver type",
		"index/values.py | use | ping | 21 | Item.ping | exact | receiver type",
		"index/values.py | use | ping | 23 | Item.ping | exact | receiver type",
		"index/values.py | use | detach | 25 |  | external | socket",
		"index/values.py | use | ping | 27 | Item.ping | exact | receiver type",
		"index/values.py | use | ping | 28 |  | external | builtin",
		// of a project class's instance: what its __getitem__ returns
		"index/values.py | use | ping | 30 | Item.ping | exact | receiver type",
		"index/values.py | use | ping | 31 | Item.ping | exact | receiver type",
		// the pairs a project class's items() yields keep no positions
		"index/values.py | pairs | ping | 55 |  | unresolved | receiver of unknown type",
		// nor does a tuple of several types (element 1 is an Other)
		"index/values.py | pairs | ping | 57 |  | unresolved | receiver of unknown type",
		"index/values.py | Holder.use | ping | 65 |  | unresolved | receiver of unknown type",
	})
}

// TestPythonNextOfIterators covers next(it): what it.__next__() returns,
// an element of a generator or of a builtin container's iterator.
func TestPythonNextOfIterators(t *testing.T) {
	tree := map[string]string{"iter/next.py": `class Tok:
    def test(self):
        return 1


class Stream:
    def __next__(self) -> Tok:
        return Tok()


def gen():
    yield Tok()


def use(s: Stream, toks: "list[Tok]", other):
    tok = next(s)
    tok.test()
    g = next(gen())
    g.test()
    first = next(iter(toks), None)
    first.test()
    odd = next(s, other)
    odd.test()
`}
	got := pyCalls(t, tree, "iter/next.py")
	containsAll(t, got, []string{
		"iter/next.py | use | test | 17 | Tok.test | exact | receiver type",
		"iter/next.py | use | test | 19 | Tok.test | exact | receiver type",
		"iter/next.py | use | test | 21 | Tok.test | exact | receiver type",
		// a default of unknown type: any value
		"iter/next.py | use | test | 23 |  | unresolved | receiver of unknown type",
	})
}

// TestPythonStarImports covers the names a star import binds: what the
// module defines, imports (from outside the project too) or binds through
// its own star imports; a name of a module outside the project imported
// with a star; never a name that starts with "_".
func TestPythonStarImports(t *testing.T) {
	tree := map[string]string{
		"pkg/__init__.py": `from _cext import sizeof
from .inner import *


def helper():
    pass
`,
		"pkg/inner.py": `def deep():
    pass


def _hidden():
    pass
`,
		"use.py": `from pkg import *
from os.path import *


def go():
    sizeof(1)
    helper()
    deep()
    join("a")
    _hidden()
`}
	tree["lim.py"] = `__all__ = ["shown", "_listed"]
__all__ += ["more"]


def shown():
    pass


def hidden():
    pass


def _listed():
    pass


def more():
    pass
`
	tree["comp/__init__.py"] = `from .part import *
from os import path as p
from . import part

__all__ = part.__all__ + ["own"]


def own():
    pass
`
	tree["comp/part.py"] = `__all__ = ["piece"]


def piece():
    pass


def other():
    pass
`
	tree["use2.py"] = `from lim import *
from comp import *


def go():
    shown()
    hidden()
    _listed()
    more()
    own()
    piece()
    other()
    p()
`
	containsAll(t, pyCalls(t, tree, "use2.py"), []string{
		// __all__ written out: the names it lists
		"use2.py | go | shown | 6 | shown | exact | import",
		"use2.py | go | hidden | 7 |  | unresolved | name not bound in the file",
		"use2.py | go | _listed | 8 | _listed | exact | import",
		"use2.py | go | more | 9 | more | exact | import",
		// computed: what the module defines or star-imports
		"use2.py | go | own | 10 | own | exact | import",
		"use2.py | go | piece | 11 | piece | exact | import",
		"use2.py | go | other | 12 |  | unresolved | name not bound in the file",
		"use2.py | go | p | 13 |  | unresolved | name not bound in the file",
	})
	got := pyCalls(t, tree, "use.py")
	containsAll(t, got, []string{
		"use.py | go | sizeof | 6 |  | external | _cext",
		"use.py | go | helper | 7 | helper | exact | import",
		"use.py | go | deep | 8 | deep | exact | import",
		"use.py | go | join | 9 |  | external | os.path",
		"use.py | go | _hidden | 10 |  | unresolved | name not bound in the file",
	})
}

// TestPythonModuleVariableMembers covers a module variable holding a
// class called as a module's member (m.H() where H = K): as called bare,
// no callee (pyright's call hierarchy does not follow variables).
func TestPythonModuleVariableMembers(t *testing.T) {
	tree := map[string]string{"m.py": `class K:
    pass


H = K
`, "use.py": `import m


def go():
    m.H()
    m.K()
`}
	containsAll(t, pyCalls(t, tree, "use.py"), []string{
		"use.py | go | H | 5 |  | unresolved | module variable",
		"use.py | go | K | 6 | K | exact | module member",
	})
}

// TestPythonMoreBuiltins covers builtins of Python 3.11 that are not
// classes or functions every program calls (IOError, aiter,
// __import__): a bare call of one is not a call of the project, a
// method called on one is external builtin.
func TestPythonMoreBuiltins(t *testing.T) {
	tree := map[string]string{"more/util.py": `def open(path):
    pass
`, "more/builtins.py": `from .util import open


def bin(s):
    return s


class NotFound(IOError):
    def __init__(self, name):
        IOError.__init__(self, name)


class Plain:
    def copy(self):
        return self.__class__()


def go(it):
    mod = __import__("os")
    anext(it)
    raise ConnectionRefusedError("no")


def shadowed(x):
    open(bin(x))
`}
	got := pyCalls(t, tree, "more/builtins.py")
	containsAll(t, got, []string{
		"more/builtins.py | NotFound.__init__ | __init__ | 10 |  | external | builtin",
		// object's __class__ called: builtin
		"more/builtins.py | Plain.copy | __class__ | 15 |  | external | builtin",
		// a builtin's name the module binds: the module's
		"more/builtins.py | shadowed | bin | 25 | bin | exact | same file",
		"more/builtins.py | shadowed | open | 25 | open | exact | import",
	})
	for _, g := range got {
		if strings.Contains(g, "| go |") {
			t.Errorf("a call of a builtin recorded: %s", g)
		}
	}
}

// TestPythonExceptTargets covers `except E as e` in a function that binds
// e in several handlers: in each handler an instance of its E, of one of
// the classes of a tuple.
func TestPythonExceptTargets(t *testing.T) {
	tree := map[string]string{"exc/handlers.py": `class Shown(Exception):
    def show(self):
        pass


class Told(Exception):
    def show(self):
        pass


def run(job):
    try:
        job()
    except (KeyError, OSError) as e:
        e.show()
    except Shown as e:
        e.show()
    except (Shown, Told) as e:
        e.show()
`}
	containsAll(t, pyCalls(t, tree, "exc/handlers.py"), []string{
		"exc/handlers.py | run | show | 15 |  | external | builtin",
		"exc/handlers.py | run | show | 17 | Shown.show | exact | receiver type",
		"exc/handlers.py | run | show | 19 | Shown.show | exact | receiver type",
	})
}

// TestPythonNestedClassesAndImportUnions covers a class a class body
// defines, reached as a member of the class, its instance or a subclass
// (`self._Local()`, `Finder.Context()`); a name several module-level
// imports bind (`try: import _c as boot` / `except ImportError: from .
// import boot`: pyright's union of both modules, whose project members
// it lists); and a value of a project class and one outside the project
// (the project's method, as pyright lists it).
func TestPythonNestedClassesAndImportUnions(t *testing.T) {
	tree := map[string]string{"nest/boot.py": `def find_spec(name):
    return name


class Spec:
    pass
`, "nest/top.py": `import io
try:
    import _cboot as boot
    from _cboot import Spec
except ImportError:
    from . import boot
    from .boot import Spec


class Policy:
    class _Local:
        def get(self):
            pass

    class Context:
        def path(self):
            pass

    def __init__(self):
        self._local = self._Local()

    def use(self):
        self._local.get()
        c = Policy.Context()
        c.path()


class Sub(Policy):
    def more(self):
        self.Context().path()


def find(name):
    boot.find_spec(name)
    Spec()


def mixed(flag):
    x = Policy.Context() if flag else io.BytesIO()
    x.path()
    x.close()
`}
	containsAll(t, pyCalls(t, tree, "nest/top.py"), []string{
		"nest/top.py | Policy.__init__ | _Local | 20 | Policy._Local | exact | own type",
		"nest/top.py | Policy.use | get | 23 | Policy._Local.get | exact | receiver type",
		"nest/top.py | Policy.use | Context | 24 | Policy.Context | exact | qualifier type",
		"nest/top.py | Policy.use | path | 25 | Policy.Context.path | exact | receiver type",
		"nest/top.py | Sub.more | Context | 30 | Policy.Context | exact | own type",
		"nest/top.py | Sub.more | path | 30 | Policy.Context.path | exact | receiver type",
		"nest/top.py | find | find_spec | 34 | find_spec | inferred | receiver partly outside the project",
		"nest/top.py | find | Spec | 35 | Spec | inferred | imported from outside the project too",
		"nest/top.py | mixed | path | 40 | Policy.Context.path | inferred | receiver partly outside the project",
		"nest/top.py | mixed | close | 41 |  | external | io",
	})
}

// TestPythonNoneOrIsinstance covers the guards that leave a value None or
// a T: `assert x is None or isinstance(x, T)` and `if x is not None and
// not isinstance(x, T): raise` (either order) narrow x to T after them
// (None a placeholder), in the function and in what an attribute it is
// assigned to holds; a guard that tells nothing (`x is not None and
// isinstance(x, T)` failing) leaves it unknown.
func TestPythonNoneOrIsinstance(t *testing.T) {
	tree := map[string]string{"g/w.py": `class Loop:
    def run(self):
        pass


class Watcher:
    def __init__(self):
        self._loop = None

    def attach(self, loop):
        assert loop is None or isinstance(loop, Loop)
        self._loop = loop
        loop.run()

    def go(self):
        self._loop.run()


def setp(policy):
    if policy is not None and not isinstance(policy, Loop):
        raise TypeError("x")
    policy.run()


def setq(policy):
    if not isinstance(policy, Loop) and policy is not None:
        raise TypeError("x")
    policy.run()


def told_nothing(policy):
    if policy is not None and isinstance(policy, Loop):
        raise TypeError("x")
    policy.run()
`}
	containsAll(t, pyCalls(t, tree, "g/w.py"), []string{
		"g/w.py | Watcher.attach | run | 13 | Loop.run | exact | receiver type",
		"g/w.py | Watcher.go | run | 16 | Loop.run | exact | receiver type",
		"g/w.py | setp | run | 22 | Loop.run | exact | receiver type",
		"g/w.py | setq | run | 28 | Loop.run | exact | receiver type",
		"g/w.py | told_nothing | run | 34 |  | unresolved | receiver of unknown type",
	})
}

// TestPythonTypeComments covers function type comments (PEP 484, read
// by pyright): `# type: (A, B) -> R` after the def line gives the
// parameters' types (a method's comment leaves out self) and the result.
func TestPythonTypeComments(t *testing.T) {
	tree := map[string]string{"tc/res.py": `from typing import List, Optional


class Trav:
    def iterdir(self):
        pass


class Reader:
    def children(self):
        # type: () -> List['Reader']
        return []

    def open_binary(self, name):
        pass


def files(package):
    # type: (str) -> Trav
    """Doc."""
    return make(package)


def maybe(package):  # type: (str) -> Optional[Trav]
    return None


class Container:
    def __init__(self, reader, name=None):
        # type: (Reader, str) -> None
        self.reader = reader
        self.name = name

    def use(self):
        self.reader.open_binary(self.name)
        for c in self.reader.children():
            c.open_binary("x")
        files("p").iterdir()
        maybe("p").iterdir()


def wrong(a, b):
    # type: (Reader) -> None
    a.open_binary("x")
`}
	containsAll(t, pyCalls(t, tree, "tc/res.py"), []string{
		"tc/res.py | Container.use | open_binary | 35 | Reader.open_binary | exact | receiver type",
		"tc/res.py | Container.use | open_binary | 37 | Reader.open_binary | exact | receiver type",
		"tc/res.py | Container.use | iterdir | 38 | Trav.iterdir | exact | receiver type",
		"tc/res.py | Container.use | iterdir | 39 | Trav.iterdir | exact | receiver type",
		// a comment listing another number of parameters types none
		"tc/res.py | wrong | open_binary | 44 |  | unresolved | receiver of unknown type",
	})
}

// TestPythonBinaryOperators covers a binary operator's value: what the
// left operand's method returns (`files(p) / "x"`: Trav.__truediv__'s
// result), as pyright evaluates it; unknown when the left operand's class
// lacks the method or the operand is of unknown type.
func TestPythonBinaryOperators(t *testing.T) {
	tree := map[string]string{"op/t.py": `class Trav:
    def __truediv__(self, child) -> "Trav":
        return self

    def read(self):
        pass


class Plain:
    def read(self):
        pass


def files(p) -> Trav:
    return Trav()


def use(p, s):
    (files(p) / "x").read()
    t = files(p) / "y" / "z"
    t.read()
    (Plain() / "x").read()
    (s + "x").read()
`}
	containsAll(t, pyCalls(t, tree, "op/t.py"), []string{
		"op/t.py | use | read | 19 | Trav.read | exact | receiver type",
		"op/t.py | use | read | 21 | Trav.read | exact | receiver type",
		"op/t.py | use | read | 22 |  | unresolved | receiver of unknown type",
		"op/t.py | use | read | 23 |  | unresolved | receiver of unknown type",
	})
}

// TestPythonMapAndFilter covers iterating the builtins map and filter:
// map(F, v) gives what calling F gives (a class named: its instances; a
// function: its result), filter(f, v) v's elements; map of a lambda,
// unknown.
func TestPythonMapAndFilter(t *testing.T) {
	tree := map[string]string{"mp/t.py": `class FastPath:
    def __init__(self, root):
        self.root = root

    def search(self, name):
        pass


def make(x) -> FastPath:
    return FastPath(x)


def use(paths, prepared):
    for path in map(FastPath, paths):
        path.search(prepared)
    found = (p.search(prepared) for p in map(make, paths))
    for q in filter(None, [FastPath(1), FastPath(2)]):
        q.search(prepared)
    for r in map(lambda x: x, paths):
        r.search(prepared)
`}
	containsAll(t, pyCalls(t, tree, "mp/t.py"), []string{
		"mp/t.py | use | search | 15 | FastPath.search | exact | receiver type",
		"mp/t.py | use | search | 16 | FastPath.search | exact | receiver type",
		"mp/t.py | use | search | 18 | FastPath.search | exact | receiver type",
		"mp/t.py | use | search | 20 |  | unresolved | receiver of unknown type",
	})
}

// TestPythonImportsInFunctionsAndStarBranches covers a class a function
// imports from its package (`from . import DefaultPolicy`, re-exported
// by the package's star import of the platform's module) and assigns to
// a module variable: the star import under the platform a static
// condition rules out binds nothing, a name only functions import is no
// attribute of their module, and the modules an import goes through are
// no steps of the value (get_policy() returning the variable resolves).
func TestPythonImportsInFunctionsAndStarBranches(t *testing.T) {
	tree := map[string]string{"ev/events.py": `class Policy:
    def get_loop(self):
        return 1


_policy = None


def _init_policy():
    global _policy
    from . import DefaultPolicy
    _policy = DefaultPolicy()


def get_policy():
    if _policy is None:
        _init_policy()
    return _policy


def use():
    get_policy().get_loop()
`, "ev/__init__.py": `import sys
from .events import *
if sys.platform == 'win32':
    from .win import *
else:
    from .unix import *
`, "ev/unix.py": `from . import events

__all__ = ('DefaultPolicy',)


class _UnixPolicy(events.Policy):
    def get_loop(self):
        return 2


DefaultPolicy = _UnixPolicy
`, "ev/win.py": `from . import events

__all__ = ('DefaultPolicy',)


class _WinPolicy(events.Policy):
    def get_loop(self):
        return 3


DefaultPolicy = _WinPolicy
`}
	containsAll(t, pyCalls(t, tree, "ev/events.py"), []string{
		"ev/events.py | _init_policy | DefaultPolicy | 12 |  | unresolved | module variable",
		"ev/events.py | use | get_loop | 22 | _UnixPolicy.get_loop | exact | receiver type",
	})
}

// TestPythonLongerChains covers a value reached through more than eight
// steps of evaluation (a watcher reached through the policy a
// module variable holds and the functions returning it): up to twelve
// are followed.
func TestPythonLongerChains(t *testing.T) {
	tree := map[string]string{"ch/w.py": `class Watcher:
    def __enter__(self):
        return self

    def is_active(self):
        pass


def a():
    return b()


def b():
    return c()


def c():
    return d()


def d():
    return e()


def e():
    return Watcher()


def use():
    with a() as w:
        w.is_active()
`}
	containsAll(t, pyCalls(t, tree, "ch/w.py"), []string{
		"ch/w.py | use | is_active | 31 | Watcher.is_active | exact | receiver type",
	})
}

// TestPythonLocalsBoundByDefs covers a local (a parameter) the function
// also binds with a def of its own (`if log is None: def log(…): …`): a
// call of it reaches that def, as pyright lists it (inferred: the local
// may hold another function); a def of another function does not count,
// nor a call in a function nested in it.
func TestPythonLocalsBoundByDefs(t *testing.T) {
	tree := map[string]string{"lb/env.py": `def compile_all(names, log=None):
    if log is None:

        def log(x):
            pass

    for n in names:
        log(n)


def other(log):
    log("x")


def outer(cb):
    def inner():
        cb()

    def cb():
        pass

    inner()
`}
	containsAll(t, pyCalls(t, tree, "lb/env.py"), []string{
		"lb/env.py | compile_all | log | 8 | log | inferred | a def the function binds the name to",
		"lb/env.py | other | log | 12 |  | unresolved | local function value",
		// called in a nested function: left open
		"lb/env.py | inner | cb | 17 |  | unresolved | local function value",
	})
}

// TestPythonImportsOutsideInBothBranches covers a name two module-level
// imports bind, both from outside the project (`try: from
// collections.abc import Sequence` / `except ImportError: from
// collections import Sequence`): the first's, so that a class based on
// it has a base outside the project and its inherited methods are
// external, not of unknown origin.
func TestPythonImportsOutsideInBothBranches(t *testing.T) {
	tree := map[string]string{"ob/seq.py": `try:
    from collections.abc import Sequence
except ImportError:
    from collections import Sequence


class Items(Sequence):
    def first(self):
        return self.index(0)
`}
	containsAll(t, pyCalls(t, tree, "ob/seq.py"), []string{
		"ob/seq.py | Items.first | index | 9 |  | external | Sequence",
	})
}

// A call of a method on an instance (self included) also reaches the
// overrides of that method in the project's subclasses of the instance's
// class, as dispatch edges; calls on the class object and super() calls
// are static.
func TestPythonOverrideDispatch(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"pkg/node.py": `class Node:
    def render(self):
        return ""

    def all(self):
        return self.render()


class If(Node):
    def render(self):
        return "if " + super().render()


class Block(Node):
    pass


class Loop(Block):
    def render(self):
        return Node.render(self) + "loop"
`,
		"pkg/use.py": `from pkg.node import Node, Block


def show(n: Node):
    return n.render()


def show_block(b: Block):
    return b.render()


def show_new():
    return Block().render()
`,
	})
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT r.src_symbol, r.line, COALESCE(dc.symbol, '')
		FROM relations r LEFT JOIN chunks dc ON dc.id = r.dst_chunk WHERE r.kind = 'dispatch'`, 3)
	containsAll(t, got, []string{
		"Node.all | 6 | If.render",
		"Node.all | 6 | Loop.render",
		"show | 5 | If.render",
		"show | 5 | Loop.render",
		"show_block | 9 | Loop.render", // Block inherits Node.render; Loop overrides it
		"show_new | 13 | Loop.render",
	})
	for _, bad := range []string{
		"show_block | 9 | If.render",   // If is no Block
		"If.render | 11 | Node.render", // a super() call is static
		"Loop.render | 20 | If.render", // so is a call on the class object
		"Loop.render | 20 | Loop.render",
	} {
		if slices.Contains(got, bad) {
			t.Errorf("unexpected %q", bad)
		}
	}
	// the direct edges are unchanged: the static target
	calls := querySet(t, db, `SELECT r.src_symbol, r.line, COALESCE(dc.symbol, ''), r.resolution
		FROM relations r LEFT JOIN chunks dc ON dc.id = r.dst_chunk WHERE r.kind = 'calls'`, 4)
	containsAll(t, calls, []string{
		"Node.all | 6 | Node.render | exact",
		"show_block | 9 | Node.render | exact",
		"Loop.render | 20 | Node.render | exact",
	})
}

// TestPythonConstructorNew covers a call of a class with a __new__ of the
// project (its own or a base's): the value is what __new__ returns, as
// pyright types a constructor call — an instance of the class or of a
// subclass it picks (either: a call on it reaches both), another class's
// instance; a __new__ that returns the class's own instance
// (`object.__new__(cls)`, `super().__new__(cls)`), a value of unknown
// type, typing's Any (`-> t.Any`) or a value from outside the project
// (a cache's get(): pyright's Unknown) constructs the class.
func TestPythonConstructorNew(t *testing.T) {
	tree := map[string]string{"nw/lists.py": `import typing as t
import weakref


class Plain:
    def __new__(cls, key=None):
        if key is None:
            return object.__new__(cls)
        return object.__new__(Keyed)

    def clear(self):
        pass

    def size(self):
        pass


class Keyed(Plain):
    def __new__(cls, key=None):
        return object.__new__(cls)

    def clear(self):
        pass


class Other:
    def go(self):
        pass


class Maker:
    def __new__(cls):
        return Other()

    def go(self):
        pass


class Base:
    def __new__(cls, *args):
        return super().__new__(cls)

    def go(self):
        pass


class Derived(Base):
    def go(self):
        pass


class Raw:
    def __new__(cls, v):
        return v

    def go(self):
        pass


class Typed:
    def __new__(cls, src) -> t.Any:
        return make(cls, src)

    def go(self):
        pass


class Cached:
    _cache = weakref.WeakValueDictionary()

    def __new__(cls, key):
        inst = cls._cache.get(key, None)
        if inst is None:
            inst = cls._cache.setdefault(key, object.__new__(cls))
        return inst

    def go(self):
        pass


class Holder:
    def __init__(self, key):
        self._items = Plain(key=key)

    def reset(self):
        self._items.clear()
        self._items.size()


def use():
    m = Maker()
    m.go()
    d = Derived()
    d.go()
    r = Raw(3)
    r.go()
    k = Keyed()
    k.clear()
    y = Typed(1)
    y.go()
    c = Cached(1)
    c.go()
`}
	got := pyCalls(t, tree, "nw/lists.py")
	for _, c := range []struct {
		name string
		rows []string
	}{
		{"the class or a subclass __new__ picks", []string{
			"nw/lists.py | Holder.reset | clear | 86 | Plain.clear | exact | receiver type",
			"nw/lists.py | Holder.reset | clear | 86 | Keyed.clear | exact | another definition",
		}},
		{"a method only the class has", []string{"nw/lists.py | Holder.reset | size | 87 | Plain.size | exact | receiver type"}},
		{"another class's instance", []string{"nw/lists.py | use | go | 92 | Other.go | exact | receiver type"}},
		{"super().__new__(cls) in a base", []string{"nw/lists.py | use | go | 94 | Derived.go | exact | receiver type"}},
		{"a value of unknown type", []string{"nw/lists.py | use | go | 96 | Raw.go | exact | receiver type"}},
		{"object.__new__(cls)", []string{"nw/lists.py | use | clear | 98 | Keyed.clear | exact | receiver type"}},
		{"a __new__ returning typing's Any", []string{"nw/lists.py | use | go | 100 | Typed.go | exact | receiver type"}},
		{"a value from outside the project", []string{"nw/lists.py | use | go | 102 | Cached.go | exact | receiver type"}},
	} {
		for _, row := range c.rows {
			if !slices.Contains(got, row) {
				t.Errorf("%s: missing %q", c.name, row)
			}
		}
	}
	if slices.Contains(got, "nw/lists.py | use | go | 92 | Maker.go | exact | receiver type") {
		t.Errorf("Maker() reached Maker.go: __new__ returns an Other")
	}
	if t.Failed() {
		t.Log(strings.Join(got, "\n"))
	}
}

// TestPythonDefaultsAndImpliedSubmodules covers a parameter's default,
// which Python evaluates where the def is (`def scan(s, Loader=Loader)`:
// the module's class, though the parameter shadows it; `K=K` in a nested
// def: the enclosing function's local), and a submodule that a package's
// __init__.py binds by importing from it (`from .loader import *` binds
// `loader`, as pyright's binder does; `from .sub.deep import f` does not
// bind `sub`, nor does a from-import in another module).
func TestPythonDefaultsAndImpliedSubmodules(t *testing.T) {
	tree := map[string]string{
		"pk/__init__.py": `from .loader import *
from .sub.deep import f


def scan(stream, Loader=Loader):
    loader = Loader(stream)
    loader.check_token()


def add(tag, Loader=None):
    if Loader is None:
        loader.Loader.add_resolver(tag)


def deep():
    sub.deep.f()


def outer(stream):
    K = Loader

    def inner(x, K=K):
        k = K(x)
        k.dispose()

    return inner(stream)
`,
		"pk/loader.py": `__all__ = ["Loader"]


class Scanner:
    def check_token(self):
        return True


class Loader(Scanner):
    def __init__(self, stream):
        self.stream = stream

    def dispose(self):
        pass

    @classmethod
    def add_resolver(cls, tag):
        pass
`,
		"pk/sub/__init__.py": "",
		"pk/sub/deep.py":     "def f():\n    pass\n",
		"pk/plain.py": `from .loader import Loader


def g():
    loader.Loader.add_resolver(1)
`,
	}
	for _, c := range []struct {
		name, file, want string
	}{
		{"a default naming the module's class the parameter shadows", "pk/__init__.py", "pk/__init__.py | scan | check_token | 7 | Scanner.check_token | exact | base class"},
		{"a default naming the enclosing function's local", "pk/__init__.py", "pk/__init__.py | inner | dispose | 24 | Loader.dispose | exact | receiver type"},
		{"a submodule its __init__.py imports from", "pk/__init__.py", "pk/__init__.py | add | add_resolver | 12 | Loader.add_resolver | exact | receiver type"},
		{"from .sub.deep binds no sub", "pk/__init__.py", "pk/__init__.py | deep | f | 16 |  | unresolved | receiver of unknown type"},
		{"a from-import outside __init__.py binds no submodule", "pk/plain.py", "pk/plain.py | g | add_resolver | 5 |  | unresolved | receiver of unknown type"},
	} {
		got := pyCalls(t, tree, c.file)
		if !slices.Contains(got, c.want) {
			t.Errorf("%s: missing %q; got\n%s", c.name, c.want, strings.Join(got, "\n"))
		}
	}
}
