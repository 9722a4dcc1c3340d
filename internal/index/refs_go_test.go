package index

import (
	"strings"
	"testing"
)

// goRefTree is one package of a small module plus a library package, so
// that qualified references go through an import.
func goRefTree(files map[string]string) map[string]string {
	out := map[string]string{
		"go.mod": "module example.com/r\n\ngo 1.22\n",
		"lib/lib.go": `package lib

func Func() {}

var Hook = func() {}

const Limit = 3

type Conv func()
`,
	}
	for p, s := range files {
		out[p] = s
	}
	return out
}

// TestGoReferences: a Go function or method used as a value (not called)
// is a references edge from the enclosing function, resolved as a call of
// it would be; what does not resolve to a project function or method
// leaves no row. Every case has a reference that exists only with the rule
// (want) and uses that must not become one (absent: "source | target |
// line" with no references row).
func TestGoReferences(t *testing.T) {
	cases := []struct {
		name   string
		files  map[string]string
		want   []string // source | target | line | target chunk | resolution | detail
		absent []string // source | target | line
	}{{
		name: "an argument; a call is not a reference",
		files: map[string]string{"app/app.go": `package app

func index(n int) {}

func handle(p string, f func(int)) {}

func Setup() {
	handle("/", index)
	index(1)
}
`},
		want:   []string{"Setup | index | 8 | index | exact | function value"},
		absent: []string{"Setup | index | 9", "Setup | handle | 8"},
	}, {
		name: "a keyed composite-literal value; the key is a field",
		files: map[string]string{"app/app.go": `package app

type Client struct{ checkRedirect func() error }

func checkRedirect() error { return nil }

func defaultCheckRedirect() error { return nil }

func New() *Client {
	return &Client{checkRedirect: defaultCheckRedirect}
}

func table() map[string]func() error {
	return map[string]func() error{"a": checkRedirect}
}
`},
		want: []string{
			"New | defaultCheckRedirect | 10 | defaultCheckRedirect | exact | function value",
			"table | checkRedirect | 14 | checkRedirect | exact | function value",
		},
		absent: []string{"New | checkRedirect | 10"},
	}, {
		name: "assignments and returns, bare and through an import; a local shadows",
		files: map[string]string{"app/app.go": `package app

import "example.com/r/lib"

func helper() {}

func Pick(n int) func() {
	f := helper
	var g func() = lib.Func
	f, g = g, f
	if n > 0 {
		return lib.Func
	}
	helper := func() {}
	return helper
}
`},
		want: []string{
			"Pick | helper | 8 | helper | exact | function value",
			"Pick | Func | 9 | Func | exact | function value",
			"Pick | Func | 12 | Func | exact | function value",
		},
		absent: []string{"Pick | helper | 15", "Pick | f | 10", "Pick | g | 10"},
	}, {
		name: "method values and expressions; fields are not",
		files: map[string]string{"app/app.go": `package app

type T struct {
	hook func()
	n    int
}

func (t *T) handle() {}

type S struct {
	T
	handle func()
}

func register(fs ...any) {}

func Wire(t *T, s *S) {
	register(t.handle, (*T).handle, T.handle)
	register(t.hook, t.n)
	register(s.handle)
	register(s.T.handle)
}
`},
		want: []string{
			"Wire | handle | 18 | T.handle | exact | method value",
			"Wire | handle | 21 | T.handle | exact | method value",
		},
		// s.handle is S's own field, which hides T's promoted method
		absent: []string{"Wire | hook | 19", "Wire | n | 19", "Wire | handle | 20"},
	}, {
		name: "a conversion's argument; the conversion, types, variables and constants are not",
		files: map[string]string{"app/app.go": `package app

import "example.com/r/lib"

type HandlerFunc func()

type Box struct{}

func serve() {}

func use(xs ...any) {}

func Route() {
	h := HandlerFunc(serve)
	c := lib.Conv(serve)
	b := new(Box)
	use(h, c, b, lib.Hook, lib.Limit, defaultBox, limit)
}
`, "app/vars.go": `package app

var defaultBox = Box{}

const limit = 2
`},
		want: []string{
			"Route | serve | 14 | serve | exact | function value",
			"Route | serve | 15 | serve | exact | function value",
		},
		absent: []string{"Route | HandlerFunc | 14", "Route | Conv | 15", "Route | Box | 16",
			"Route | Hook | 17", "Route | Limit | 17", "Route | defaultBox | 17", "Route | limit | 17"},
	}, {
		name: "outside the project and interface methods are not; a closure's is its function's",
		files: map[string]string{"app/app.go": `package app

import (
	"sort"
	"strings"
)

type Reader interface{ Read() int }

func less(i, j int) bool { return i < j }

func apply(fs ...any) {}

func Sort(xs []int, r Reader) {
	sort.Slice(xs, less)
	apply(strings.ToUpper, r.Read)
	go func() {
		apply(less, less)
	}()
}
`},
		want: []string{
			"Sort | less | 15 | less | exact | function value",
			"Sort | less | 18 | less | exact | function value",
		},
		absent: []string{"Sort | ToUpper | 16", "Sort | Read | 16"},
	}, {
		name: "channel sends, range and slice elements; a parameter shadows",
		files: map[string]string{"app/app.go": `package app

func step() {}

func seq(yield func(int) bool) {}

func Loop(ch chan func(), step2 func()) {
	ch <- step
	for x := range seq {
		_ = x
	}
	fs := []func(){step, step2}
	_ = fs
}

func Shadow(step func()) func() {
	return step
}
`},
		want: []string{
			"Loop | step | 8 | step | exact | function value",
			"Loop | seq | 9 | seq | exact | function value",
			"Loop | step | 12 | step | exact | function value",
		},
		absent: []string{"Loop | step2 | 12", "Shadow | step | 17"},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeFiles(t, root, goRefTree(tc.files))
			db := openDB(t)
			run(t, db, root, &fakeEmbedder{model: "fake:a"})
			got := querySet(t, db, `SELECT r.src_symbol, r.target, r.line, COALESCE(dc.symbol, ''), r.resolution, r.detail
				FROM relations r LEFT JOIN chunks dc ON dc.id = r.dst_chunk WHERE r.kind = 'references'`, 6)
			containsAll(t, got, tc.want)
			for _, a := range tc.absent {
				for _, g := range got {
					if strings.HasPrefix(g, a+" | ") {
						t.Errorf("unexpected reference %q", g)
					}
				}
			}
			// only resolved rows, one per source, target and line
			bad := querySet(t, db, `SELECT count(*) FROM relations WHERE kind = 'references' AND (dst_chunk IS NULL OR resolution NOT IN ('exact', 'inferred'))`, 1)
			dup := querySet(t, db, `SELECT count(*) FROM (SELECT 1 FROM relations WHERE kind = 'references' GROUP BY src_chunk, dst_chunk, line HAVING count(*) > 1)`, 1)
			if bad[0] != "0" || dup[0] != "0" {
				t.Errorf("references rows without a resolved target: %s, duplicated: %s", bad[0], dup[0])
			}
		})
	}
}
