package index

import (
	"slices"
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
		// a nested def, then the first of two definitions in an if
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
