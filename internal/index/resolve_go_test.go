package index

import (
	"go/build"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// goXTestTree has a package with an internal test file (package store)
// and an external test package (package store_test) in one directory, each
// declaring its own helper of the same name, as Go allows: a bare call
// resolves in the calling file's own package, and the external test
// package reaches the directory's package only through its import.
var goXTestTree = map[string]string{
	"go.mod": "module example.com/kv\n\ngo 1.22\n",
	"store/store.go": `package store

type Store struct{ n int }

func New() *Store { return &Store{} }

func (s *Store) Put(k string) { s.n++ }
`,
	"store/internal_test.go": `package store

func mustOpen() *Store { return New() }

func TestPut(t *T) {
	s := mustOpen()
	s.Put("a")
}

type T struct{}
`,
	"store/store_test.go": `package store_test

import "example.com/kv/store"

func mustOpen() *store.Store { return store.New() }

func TestNew(t *T) {
	s := mustOpen()
	s.Put("b")
	other()
}

type T struct{}
`,
	"store/other_test.go": `package store_test

func other() {}
`,
	// a dot import makes the package's names the file's own
	"store/dot_test.go": `package store_test

import . "example.com/kv/store"

func TestDot(t *T) {
	var s *Store = New()
	s.Put("c")
}
`,
}

func TestGoExternalTestPackage(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, goXTestTree)
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT f.path, r.src_symbol, r.target, r.line, COALESCE(dc.path, ''), COALESCE(dc.symbol, ''), r.resolution
		FROM relations r JOIN files f ON f.id = r.file_id LEFT JOIN chunks dc ON dc.id = r.dst_chunk
		WHERE r.kind = 'calls'`, 7)
	containsAll(t, got, []string{
		// each package's own helper
		"store/internal_test.go | TestPut | mustOpen | 6 | store/internal_test.go | mustOpen | exact",
		"store/store_test.go | TestNew | mustOpen | 8 | store/store_test.go | mustOpen | exact",
		// the external test package's files see each other
		"store/store_test.go | TestNew | other | 10 | store/other_test.go | other | exact",
		// the directory's package through the import, and its types' methods
		"store/store_test.go | mustOpen | New | 5 | store/store.go | New | exact",
		"store/store_test.go | TestNew | Put | 9 | store/store.go | Store.Put | exact",
		"store/internal_test.go | TestPut | Put | 7 | store/store.go | Store.Put | exact",
		"store/dot_test.go | TestDot | New | 6 | store/store.go | New | exact",
		"store/dot_test.go | TestDot | Put | 7 | store/store.go | Store.Put | exact",
	})
}

// goImplTree: an interface satisfied through an alias in a signature, a
// promoted unexported method of another package, and a constraint
// interface whose type element (*T) names a type parameter.
var goImplTree = map[string]string{
	"go.mod": "module example.com/m\n\ngo 1.22\n",
	"wire/wire.go": `package wire

import (
	"io"
	"net"
	"time"
)

type Message interface{ ID() string }

type Request struct{ m string }

func (r *Request) Method() string { return r.m }

type Reader interface {
	Read(n int) (Message, error)
}

// Transport embeds a standard-library interface.
type Transport interface {
	Send(n int) error
	io.Closer
}

type deadliner interface {
	SetWriteDeadline(t time.Time) error
}

type Option func()

type Allocator interface {
	Allocate(n int, opts ...Option) error
}

// conn gets its methods from the net.Conn it embeds.
type conn struct{ net.Conn }
`,
	"api/api.go": `package api

import "example.com/m/wire"

type Message = wire.Message

// Req is wire's Request under another name: its methods are Request's.
type Req = wire.Request

func handle(r *Req) string { return r.Method() }

type Result interface {
	isResult()
	Meta() string
}

type ResultBase struct{}

func (ResultBase) isResult()    {}
func (ResultBase) Meta() string { return "" }

type Ptr[T any] interface {
	*T
	Result
}

type conn struct{}

func (c *conn) Read(n int) (Message, error) { return nil, nil }

type Binder[T any, S any] interface {
	Bind(n int, s S) T
	Drop(T)
}
`,
	"app/app.go": `package app

import (
	"example.com/m/api"
	"example.com/m/wire"
)

type MyResult struct {
	api.ResultBase
	N int
}

// other has methods of the same names, but its isResult is app's own: it
// cannot implement api.Result.
type other struct{}

func (other) isResult()    {}
func (other) Meta() string { return "" }

type Sess struct{}
type State struct{}

// Srv binds Binder's T to *Sess and S to *State; Bad's two methods bind T
// to different types.
type Srv struct{}

func (Srv) Bind(n int, s *State) *Sess { return nil }
func (Srv) Drop(*Sess)                 {}

type Bad struct{}

func (Bad) Bind(n int, s *State) *Sess { return nil }
func (Bad) Drop(*State)                {}

type pipe struct{}

func (pipe) Send(n int) error { return nil }
func (pipe) Close() error     { return nil }

type alloc struct{}

func (alloc) Allocate(n int, opts ...wire.Option) error { return nil }
`,
}

// TestGoAliasMethods: a method called on a value whose type is an alias
// is the aliased type's method.
func TestGoAliasMethods(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, goImplTree)
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT f.path, r.src_symbol, COALESCE(dc.path, ''), COALESCE(dc.symbol, ''), r.resolution
		FROM relations r JOIN files f ON f.id = r.file_id LEFT JOIN chunks dc ON dc.id = r.dst_chunk
		WHERE r.kind = 'calls' AND r.target = 'Method'`, 5)
	if want := "api/api.go | handle | wire/wire.go | Request.Method | exact"; !slices.Contains(got, want) {
		t.Errorf("missing %q in %q", want, got)
	}
}

func TestGoImplementsAcrossPackages(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, goImplTree)
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT f.path, r.src_symbol, COALESCE(dc.path, ''), r.target, r.resolution
		FROM relations r JOIN files f ON f.id = r.file_id LEFT JOIN chunks dc ON dc.id = r.dst_chunk
		WHERE r.kind = 'implements'`, 5)
	containsAll(t, got, []string{
		"api/api.go | conn | wire/wire.go | Reader | exact",
		"app/app.go | MyResult | api/api.go | Result | exact",
		"api/api.go | ResultBase | api/api.go | Result | exact",
		"app/app.go | MyResult | api/api.go | Ptr | exact",
		"app/app.go | Srv | api/api.go | Binder | exact",
		"app/app.go | pipe | wire/wire.go | Transport | exact",
		"wire/wire.go | conn | wire/wire.go | deadliner | exact",
		"app/app.go | alloc | wire/wire.go | Allocator | exact",
	})
	for _, bad := range []string{
		"app/app.go | other | api/api.go | Result | exact",
		"app/app.go | other | api/api.go | Ptr | exact",
		"app/app.go | Bad | api/api.go | Binder | exact",
	} {
		if slices.Contains(got, bad) {
			t.Errorf("unexpected %q", bad)
		}
	}
}

// goTestTypesTree: a type declared in one directory's test files implements
// an interface whose method other code calls.
var goTestTypesTree = map[string]string{
	"go.mod": "module example.com/r\n\ngo 1.22\n",
	"rows/rows.go": `package rows

type Rows interface{ Scan() error }

// Drain is library code: any test binary may pass it its own Rows.
func Drain(r Rows) error { return r.Scan() }
`,
	"a/a_test.go": `package a

import "example.com/r/rows"

type fakeRows struct{}

func (fakeRows) Scan() error { return nil }

func TestA(r rows.Rows) { r.Scan() }
`,
	"b/b_test.go": `package b

import "example.com/r/rows"

func TestB(r rows.Rows) { r.Scan() }
`,
}

// TestGoDispatchIntoTestTypes: a test file runs only in its own directory's
// test binary, so a call through an interface in another directory's test
// file cannot reach a type declared in a test file; library code can.
func TestGoDispatchIntoTestTypes(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, goTestTypesTree)
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT f.path, r.src_symbol, COALESCE(dc.symbol, '')
		FROM relations r JOIN files f ON f.id = r.file_id LEFT JOIN chunks dc ON dc.id = r.dst_chunk
		WHERE r.kind = 'dispatch'`, 3)
	containsAll(t, got, []string{
		"rows/rows.go | Drain | fakeRows.Scan",
		"a/a_test.go | TestA | fakeRows.Scan",
	})
	if bad := "b/b_test.go | TestB | fakeRows.Scan"; slices.Contains(got, bad) {
		t.Errorf("unexpected %q", bad)
	}
}

// goGenericTree: generic types with methods, fields of instantiated
// generic types, and explicit instantiations called with one argument
// (which tree-sitter parses as a conversion to a generic type).
var goGenericTree = map[string]string{
	"go.mod": "module example.com/g\n\ngo 1.22\n",
	"cache/cache.go": `package cache

type Node[K comparable, V any] struct {
	key  K
	val  V
	next *Node[K, V]
}

func (n *Node[K, V]) Next() *Node[K, V] { return n.next }

type List[K comparable, V any] struct {
	root Node[K, V]
	len  int
}

func NewList[K comparable, V any]() *List[K, V] { return &List[K, V]{} }

func (l *List[K, V]) Front() *Node[K, V] { return l.root.next }

func (l *List[K, V]) insert(n *Node[K, V]) *Node[K, V] { l.len++; return n }

func (l *List[K, V]) Push(k K, v V) *Node[K, V] {
	return l.insert(&Node[K, V]{key: k, val: v})
}

type LRU[K comparable, V any] struct {
	items map[K]*Node[K, V]
	list  *List[K, V]
}

func New[K comparable, V any](size int) (*LRU[K, V], error) {
	return &LRU[K, V]{list: NewList[K, V]()}, nil
}

func (c *LRU[K, V]) Add(k K, v V) {
	e := c.list.Push(k, v)
	c.items[k] = e
	c.list.Front().Next()
}

func (c *LRU[K, V]) Get(k K) (v V, ok bool) {
	if e, ok := c.items[k]; ok {
		e.Next()
		return e.val, true
	}
	return v, false
}
`,
	"app/app.go": `package app

import "example.com/g/cache"

func Use() {
	c, _ := cache.New[string, int](10)
	c.Add("a", 1)
	l := cache.NewList[int, int]()
	l.Push(1, 2).Next()
	var m cache.LRU[string, string]
	m.Get("x")
}
`,
}

func TestGoGenerics(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, goGenericTree)
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT r.src_symbol, r.target, r.line, COALESCE(dc.symbol, ''), r.resolution
		FROM relations r LEFT JOIN chunks dc ON dc.id = r.dst_chunk WHERE r.kind = 'calls'`, 5)
	containsAll(t, got, []string{
		"Use | New | 6 | New | exact",             // cache.New[string, int](10)
		"Use | Add | 7 | LRU.Add | exact",         // on its result
		"Use | Push | 9 | List.Push | exact",      // cache.NewList[int, int]()
		"Use | Next | 9 | Node.Next | exact",      // a method's generic result
		"Use | Get | 11 | LRU.Get | exact",        // a var of an instantiated type
		"LRU.Add | Push | 36 | List.Push | exact", // a field of an instantiated type
		"LRU.Get | Next | 43 | Node.Next | exact", // a map element of one
	})
}

// TestGoFunctionFieldResults: calling a function-typed field gives what its
// function type returns; the call of the field itself has no callee.
func TestGoFunctionFieldResults(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod": "module example.com/f\n\ngo 1.22\n",
		"srv/srv.go": `package srv

type Server struct{}

func (s *Server) Connect() {}

type Handler struct {
	getServer func(n int) *Server
	name      string
}

func (h *Handler) Serve() {
	s := h.getServer(1)
	s.Connect()
	h.getServer(2).Connect()
}
`,
	})
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT r.src_symbol, r.target, r.line, COALESCE(dc.symbol, ''), r.resolution, r.detail
		FROM relations r LEFT JOIN chunks dc ON dc.id = r.dst_chunk WHERE r.kind = 'calls'`, 6)
	containsAll(t, got, []string{
		"Handler.Serve | getServer | 13 |  | unresolved | function-typed field",
		"Handler.Serve | Connect | 14 | Server.Connect | exact | ",
		"Handler.Serve | Connect | 15 | Server.Connect | exact | ",
	})
}

// TestGoTypeSwitch: in a type switch's clause naming one type, the bound
// name has that type; in a clause of several types or the default one, the
// switched value's; after the statement, what the name was before.
func TestGoTypeSwitch(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod": "module example.com/ts\n\ngo 1.22\n",
		"ast/ast.go": `package ast

type Node interface{ Pos() int }

type Ident struct{}

func (x *Ident) Pos() int { return 0 }

type Lit struct{}

func (x Lit) Pos() int { return 1 }

func Walk(n Node) {
	switch x := n.(type) {
	case *Ident:
		x.Pos()
	case Lit, nil:
		x.Pos()
	default:
		x.Pos()
	}
}

func Shadow(n Node) {
	switch n := n.(type) {
	case Lit:
		n.Pos()
	}
	n.Pos()
}
`,
	})
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT r.src_symbol, r.target, r.line, COALESCE(dc.symbol, ''), r.resolution
		FROM relations r LEFT JOIN chunks dc ON dc.id = r.dst_chunk WHERE r.kind = 'calls'`, 5)
	containsAll(t, got, []string{
		"Walk | Pos | 16 | Ident.Pos | exact",
		"Walk | Pos | 18 | Node | exact", // the interface's method
		"Walk | Pos | 20 | Node | exact",
		"Shadow | Pos | 27 | Lit.Pos | exact",
		"Shadow | Pos | 29 | Node | exact", // n is the parameter again
	})
}

// TestGoBuildTwins: a function or method declared in two files for
// different builds resolves to the file the default build compiles, not to
// the first in path order (a //go:build line, a legacy // +build line, a
// _GOOS file name suffix).
func TestGoBuildTwins(t *testing.T) {
	other := "aix" // sorts before the host's GOOS
	if runtime.GOOS == other {
		other = "zos"
	}
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod": "module example.com/bt\n\ngo 1.22\n",
		"v/value_a.go": `// Copyright notice.

//go:build !go1.1

package v

func (v Value) String() string { return "" }

func Make() Value { return Value{} }
`,
		"v/value_b.go": `//go:build go1.1

package v

func (v Value) String() string { return "" }

func Make() Value { return Value{} }
`,
		"v/value.go": `package v

type Value struct{}

func Use() {
	Make().String()
	Open()
	Legacy()
}
`,
		"v/open_" + other + ".go":        "package v\n\nfunc Open() {}\n",
		"v/open_" + runtime.GOOS + ".go": "package v\n\nfunc Open() {}\n",
		"v/legacy_a.go":                  "// +build ignore\n\npackage v\n\nfunc Legacy() {}\n",
		"v/legacy_b.go":                  "package v\n\nfunc Legacy() {}\n",
	})
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT r.src_symbol, r.target, r.line, COALESCE(dc.path, ''), r.resolution
		FROM relations r LEFT JOIN chunks dc ON dc.id = r.dst_chunk WHERE r.kind = 'calls'`, 5)
	containsAll(t, got, []string{
		"Use | Make | 6 | v/value_b.go | exact",
		"Use | String | 6 | v/value_b.go | exact",
		"Use | Open | 7 | v/open_" + runtime.GOOS + ".go | exact",
		"Use | Legacy | 8 | v/legacy_b.go | exact",
	})
}

// TestGoAnonymousStructs: the fields of a function's anonymous struct
// values (a table of test cases ranged over or indexed, a struct literal)
// have their declared types; a method call on one is a method of its only
// embedded field; make(T, n) is a T and append(s, …) is s's type.
func TestGoAnonymousStructs(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod": "module example.com/an\n\ngo 1.22\n",
		"lv/lv.go": `package lv

type Level int

func (l Level) String() string { return "" }

type Box struct{}

func (b *Box) Open() {}
`,
		"lv/lv_test.go": `package lv

func TestString() {
	for _, test := range []struct {
		in   Level
		want string
	}{{1, "a"}} {
		test.in.String()
	}
	tests := []struct{ in, out Level }{{1, 2}}
	for i := range tests {
		tests[i].out.String()
	}
	p := &struct {
		*Box
		n int
	}{}
	p.Open()
	ls := make([]Level, 3)
	ls[0].String()
	ls = append(ls, 4)
	more := append(ls, 5)
	more[1].String()
	type row struct {
		lv Level
		n  int
	}
	rows := []row{{1, 2}}
	rows[0].lv.String()
	for _, tc := range []struct {
		setup func() (*Box, error)
	}{} {
		tc.setup().Open()
		b, _ := tc.setup()
		b.Open()
	}
}
`,
	})
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT r.src_symbol, r.target, r.line, COALESCE(dc.symbol, ''), r.resolution
		FROM relations r LEFT JOIN chunks dc ON dc.id = r.dst_chunk WHERE r.kind = 'calls'`, 5)
	containsAll(t, got, []string{
		"TestString | String | 8 | Level.String | exact",
		"TestString | String | 12 | Level.String | exact",
		"TestString | Open | 18 | Box.Open | exact",
		"TestString | String | 20 | Level.String | exact",
		"TestString | String | 23 | Level.String | exact",
		"TestString | String | 29 | Level.String | exact", // a local named struct type
		// what calling a function-typed field returns
		"TestString | Open | 33 | Box.Open | exact",
		"TestString | Open | 35 | Box.Open | exact",
	})
}

// TestGoChannels: a value received from a channel (v := <-c, a select
// case's v, ok := <-c) has the channel's element type.
func TestGoChannels(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod": "module example.com/ch\n\ngo 1.22\n",
		"rm/rm.go": `package rm

type Msg struct{}

func (m *Msg) Send() {}

type job struct{ msg *Msg }

type Srv struct{ jobs chan job }

func (s *Srv) Loop(in <-chan *Msg) {
	select {
	case j, ok := <-s.jobs:
		j.msg.Send()
	case m := <-in:
		m.Send()
	}
	first := <-in
	first.Send()
	(<-in).Send()
	var old *Msg
	select {
	case old = <-in:
	}
	old.Send()
}
`,
	})
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT r.src_symbol, r.target, r.line, COALESCE(dc.symbol, ''), r.resolution
		FROM relations r LEFT JOIN chunks dc ON dc.id = r.dst_chunk WHERE r.kind = 'calls'`, 5)
	containsAll(t, got, []string{
		"Srv.Loop | Send | 14 | Msg.Send | exact",
		"Srv.Loop | Send | 16 | Msg.Send | exact",
		"Srv.Loop | Send | 19 | Msg.Send | exact",
		"Srv.Loop | Send | 20 | Msg.Send | exact",
		"Srv.Loop | Send | 25 | Msg.Send | exact",
	})
}

// TestGoLocalScopes: a local name is in scope to the end of its block,
// clause or function literal: a closure's parameter or a variable declared
// in an if statement does not shadow the receiver or a parameter after
// it, and the parameter names of a function type declare nothing.
func TestGoLocalScopes(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod": "module example.com/sc\n\ngo 1.22\n",
		"rd/rd.go": `package rd

type Reader struct{}

func (r *Reader) line() {}

type Other struct{}

func (o Other) line() {}

func (r *Reader) record(keep func(r rune) bool) {
	skip := func(r rune) bool { return r == ' ' }
	_ = skip
	r.line()
	if r := (Other{}); true {
		r.line()
	}
	r.line()
}
`,
	})
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT r.src_symbol, r.target, r.line, COALESCE(dc.symbol, ''), r.resolution
		FROM relations r LEFT JOIN chunks dc ON dc.id = r.dst_chunk WHERE r.kind = 'calls'`, 5)
	containsAll(t, got, []string{
		"Reader.record | line | 14 | Reader.line | exact",
		"Reader.record | line | 16 | Other.line | exact",
		"Reader.record | line | 18 | Reader.line | exact",
	})
}

// TestGoExpressionTypes: typed constants (an iota group's later specs
// repeat the type), arithmetic on a typed operand and an untyped literal,
// unary minus, a slice expression; a function-typed field of an anonymous
// struct is called as one.
func TestGoExpressionTypes(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod": "module example.com/ex\n\ngo 1.22\n",
		"lv/lv.go": `package lv

type Level int

func (l Level) String() string { return "" }

const (
	Debug Level = iota
	Info
	Warn
)

const Top = Warn + 1

type Rec struct{ back []Level }

func Use(r *Rec) {
	w := Warn - 3
	w.String()
	(2 * Info).String()
	(-Debug).String()
	Top.String()
	end := r.back[:1][0]
	end.String()
	cases := []struct{ f func() Level }{}
	for _, c := range cases {
		c.f()
	}
}
`,
	})
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT r.src_symbol, r.target, r.line, COALESCE(dc.symbol, ''), r.resolution, r.detail
		FROM relations r LEFT JOIN chunks dc ON dc.id = r.dst_chunk WHERE r.kind = 'calls'`, 6)
	containsAll(t, got, []string{
		"Use | String | 19 | Level.String | exact | ",
		"Use | String | 20 | Level.String | exact | ",
		"Use | String | 21 | Level.String | exact | ",
		"Use | String | 22 | Level.String | exact | ",
		"Use | String | 24 | Level.String | exact | ",
		"Use | f | 27 |  | unresolved | function-typed field",
	})
}

// TestGoImplementsIgnoredDirs: the go command builds no package of a
// testdata directory (or one starting with "_" or "."): its types
// implement only its own interfaces (a module package's types implement
// its interfaces too).
func TestGoImplementsIgnoredDirs(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod": "module example.com/sh\n\ngo 1.22\n",
		"shapes/shapes.go": `package shapes

type Shape interface{ Area() int }

type Square struct{}

func (Square) Area() int { return 1 }
`,
		"shapes/testdata/a/a.go": `package a

type Sized interface{ Area() int }

type Circle struct{}

func (Circle) Area() int { return 2 }
`,
		"shapes/testdata/b/b.go": `package b

type Tri struct{}

func (Tri) Area() int { return 3 }
`,
		"_old/old.go": `package old

type Hex struct{}

func (Hex) Area() int { return 6 }
`,
	})
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT r.src_symbol, r.target FROM relations r WHERE r.kind = 'implements'`, 2)
	containsAll(t, got, []string{"Square | Shape", "Circle | Sized", "Square | Sized"})
	for _, bad := range []string{"Circle | Shape", "Tri | Sized", "Tri | Shape", "Hex | Shape", "Hex | Sized"} {
		if slices.Contains(got, bad) {
			t.Errorf("unexpected %q", bad)
		}
	}
}

// TestGoTypeParamConstraints: in a generic function, a value of a type
// parameter constrained by a named interface calls that interface's
// methods; a type switch on an expression of a name it rebinds reads the
// name as it was before the switch.
func TestGoTypeParamConstraints(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod": "module example.com/tp\n\ngo 1.22\n",
		"lat/lat.go": `package lat

type Lattice[E any] interface {
	Merge(a, b E) E
}

type Node interface{ Under() Node }

type Leaf struct{}

func (l Leaf) Under() Node { return l }

func Join[L Lattice[E], E any](l L, a, b E) E {
	return l.Merge(a, b)
}

func Kind(n Node) {
	switch n := n.Under().(type) {
	case Leaf:
		n.Under()
	}
}
`,
	})
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT r.src_symbol, r.target, r.line, COALESCE(dc.symbol, ''), r.resolution
		FROM relations r LEFT JOIN chunks dc ON dc.id = r.dst_chunk WHERE r.kind = 'calls'`, 5)
	containsAll(t, got, []string{
		"Join | Merge | 14 | Lattice | exact",
		"Kind | Under | 18 | Node | exact",
		"Kind | Under | 20 | Leaf.Under | exact",
	})
}

// TestGoPackageAnonymousStructs: a package variable of an anonymous
// struct type (a guarded cache, a table of test cases) has its fields.
func TestGoPackageAnonymousStructs(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod": "module example.com/pa\n\ngo 1.22\n",
		"c/c.go": `package c

import "sync"

type Item struct{}

func (i *Item) Use() {}

var cache struct {
	sync.Mutex
	m map[string]*Item
}

func Get() {
	cache.Lock()
	cache.m["x"].Use()
}
`,
		"c/c_test.go": `package c

var tests = []struct {
	in *Item
	n  int
}{{nil, 1}}

func TestUse() {
	for _, tt := range tests {
		tt.in.Use()
	}
}
`,
	})
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT r.src_symbol, r.target, r.line, COALESCE(dc.symbol, ''), r.resolution, r.detail
		FROM relations r LEFT JOIN chunks dc ON dc.id = r.dst_chunk WHERE r.kind = 'calls'`, 6)
	containsAll(t, got, []string{
		"Get | Lock | 15 |  | external | sync",
		"Get | Use | 16 | Item.Use | exact | ",
		"TestUse | Use | 10 | Item.Use | exact | ",
	})
}

// TestGoLocalFunctionResults: calling a local function value gives what
// its function literal or function type returns.
func TestGoLocalFunctionResults(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod": "module example.com/lf\n\ngo 1.22\n",
		"fn/fn.go": `package fn

type Func struct{}

func (f *Func) Origin() *Func { return f }

func Use(make func(n int) *Func) {
	load := func(n int) *Func { return nil }
	a := load(1)
	a.Origin()
	make(2).Origin()
	var get func() *Func
	get().Origin()
}
`,
	})
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT r.src_symbol, r.target, r.line, COALESCE(dc.symbol, ''), r.resolution
		FROM relations r LEFT JOIN chunks dc ON dc.id = r.dst_chunk WHERE r.kind = 'calls'`, 5)
	containsAll(t, got, []string{
		"Use | Origin | 10 | Func.Origin | exact",
		"Use | Origin | 11 | Func.Origin | exact",
		"Use | Origin | 13 | Func.Origin | exact",
	})
}

// TestGoImplementsSignatureSpelling: signatures compare by their types,
// not their spelling: the parameter names of a function type, interface{}
// and any, a generic type's arguments, an array's and a channel's element
// written in the interface's package and in another.
func TestGoImplementsSignatureSpelling(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod": "module example.com/sp\n\ngo 1.22\n",
		"api/api.go": `package api

type Box[T any] struct{ v T }

type Event struct{}

type Walker interface {
	Walk(fn func(path string, err error) error) error
	Put(v any, b Box[Event], a [2]Event, c <-chan Event)
}
`,
		"impl/impl.go": `package impl

import "example.com/sp/api"

type Dir struct{}

func (d *Dir) Walk(visit func(p string, e error) error) error { return nil }

func (d *Dir) Put(x interface{}, box api.Box[api.Event], arr [2]api.Event, ch <-chan api.Event) {}
`,
	})
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT r.src_symbol, r.target FROM relations r WHERE r.kind = 'implements'`, 2)
	containsAll(t, got, []string{"Dir | Walker"})
}

// TestGoImplementsEmbeddedStdTypes: a struct embedding a common
// standard-library concrete type (bytes.Buffer, *bufio.Writer,
// sync.Mutex) has its methods.
func TestGoImplementsEmbeddedStdTypes(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod": "module example.com/es\n\ngo 1.22\n",
		"w/w.go": `package w

import (
	"bufio"
	"bytes"
	"sync"
)

type stringWriter interface {
	WriteString(s string) (n int, err error)
}

type pipeBuffer interface {
	Len() int
	Write(p []byte) (int, error)
	Lock()
}

type lockedBuffer struct {
	sync.Mutex
	bytes.Buffer
}

type flushWriter struct {
	*bufio.Writer
}
`,
	})
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT r.src_symbol, r.target FROM relations r WHERE r.kind = 'implements'`, 2)
	containsAll(t, got, []string{"lockedBuffer | stringWriter", "lockedBuffer | pipeBuffer", "flushWriter | stringWriter"})
	if slices.Contains(got, "flushWriter | pipeBuffer") {
		t.Error("flushWriter has no Len and no Lock")
	}
}

// TestGoImplementsDefaultBuild: method sets are the default build's: a
// method declared in a file it does not compile (for another platform or
// Go version) gives no implements edge, even to a type of the same name
// declared in a file it compiles.
func TestGoImplementsDefaultBuild(t *testing.T) {
	other := "aix" // not the host's GOOS
	if runtime.GOOS == other {
		other = "zos"
	}
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod": "module example.com/db\n\ngo 1.22\n",
		"k/k.go": `package k

type Stringer interface{ String() string }

type backend interface{ Close() error }
`,
		"k/kind.go":                       "//go:build go1.1\n\npackage k\n\ntype Kind = int\n",
		"k/kind_old.go":                   "//go:build !go1.1\n\npackage k\n\ntype Kind uint8\n\nfunc (k Kind) String() string { return \"\" }\n",
		"k/watch_" + other + ".go":        "package k\n\ntype kqueue struct{}\n\nfunc (w *kqueue) Close() error { return nil }\n",
		"k/watch_" + runtime.GOOS + ".go": "package k\n\ntype inotify struct{}\n\nfunc (w *inotify) Close() error { return nil }\n",
	})
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT r.src_symbol, r.target FROM relations r WHERE r.kind = 'implements'`, 2)
	containsAll(t, got, []string{"inotify | backend"})
	for _, bad := range []string{"kqueue | backend", "Kind | Stringer"} {
		if slices.Contains(got, bad) {
			t.Errorf("unexpected %q", bad)
		}
	}
}

// TestGoImplementsEmbeddedGenericInterface: an interface embedding an
// instantiated generic interface (Graph[int]) has its methods with the
// type arguments in place of the parameters.
func TestGoImplementsEmbeddedGenericInterface(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod": "module example.com/gg\n\ngo 1.22\n",
		"graph/graph.go": `package graph

type Graph[NodeID comparable] interface {
	NumNodes() int
	Out(node NodeID) []NodeID
	Walk(fn func(NodeID) bool, ids ...NodeID)
}
`,
		"compact/compact.go": `package compact

import "example.com/gg/graph"

type Node struct{}

type Compact interface {
	graph.Graph[Node]
	IsCompact()
}

type dense struct{}

func (d *dense) NumNodes() int                            { return 0 }
func (d *dense) Out(n Node) []Node                        { return nil }
func (d *dense) Walk(fn func(Node) bool, ids ...Node)     {}
func (d *dense) IsCompact()                               {}

type other struct{}

func (o *other) NumNodes() int                        { return 0 }
func (o *other) Out(n int) []int                      { return nil }
func (o *other) Walk(fn func(int) bool, ids ...int)   {}
func (o *other) IsCompact()                           {}
`,
	})
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT r.src_symbol, r.target FROM relations r WHERE r.kind = 'implements'`, 2)
	containsAll(t, got, []string{"dense | Compact"})
	if slices.Contains(got, "other | Compact") {
		t.Error("other's methods take int, not Node")
	}
}

// TestGoImplementsFieldHidesPromotedMethod: a struct field hides the
// methods of its name that an embedded type would promote, so the struct
// does not implement an interface that needs them.
func TestGoImplementsFieldHidesPromotedMethod(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"m.go": `package m

type Saver interface {
	Save() error
}

type Loader interface {
	Load() error
}

type both struct{}

func (both) Save() error { return nil }
func (both) Load() error { return nil }

// all has both methods, promoted
type all struct {
	both
}

// noSave has a field named Save: the promoted Save is hidden
type noSave struct {
	both
	Save struct{}
}

// deeper: the field hides it one level down too
type deeper struct {
	noSave
}
`,
	})
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT r.src_symbol, r.target FROM relations r WHERE r.kind = 'implements'`, 2)
	containsAll(t, got, []string{"all | Saver", "all | Loader", "noSave | Loader", "deeper | Loader"})
	for _, bad := range []string{"noSave | Saver", "deeper | Saver"} {
		if slices.Contains(got, bad) {
			t.Errorf("unexpected %q: a field hides the promoted method", bad)
		}
	}
}

// TestGoBuildTwinTypes: a type declared in two files for different builds
// — an alias of another package's type in one, a struct in the other —
// has the compiled file's declaration only: a value of it calls the
// struct's methods, not the other package's.
func TestGoBuildTwinTypes(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod": "module example.com/tw\n\ngo 1.22\n",
		"text/alias.go": `//go:build someexperiment

package text

import "encoding/json"

type Decoder = json.Decoder
`,
		"text/decode.go": `//go:build !someexperiment

package text

type Decoder struct{ depth int }

func (d *Decoder) ReadToken() int { return d.depth }
`,
		"use/use.go": `package use

import "example.com/tw/text"

func Read(d *text.Decoder) int {
	return d.ReadToken()
}
`,
	})
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT r.src_symbol, r.target, COALESCE(dc.symbol, ''), r.resolution, r.detail
		FROM relations r LEFT JOIN chunks dc ON dc.id = r.dst_chunk WHERE r.kind = 'calls'`, 5)
	containsAll(t, got, []string{"Read | ReadToken | Decoder.ReadToken | exact | "})
}

// TestGoLocalTypeScope: a type declared inside a function is in scope in
// that function only. A package-level type of the same name, declared
// later in the file (or in a later file), is the package's type: it is
// the one that implements interfaces and whose methods are called; the
// local one, which can have no methods, is neither.
func TestGoLocalTypeScope(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"m.go": `package m

type Named interface {
	Name() string
}

type Checker interface {
	Check() error
}

type Base struct{}

func (Base) Name() string { return "" }
`,
		"a_test.go": `package m

func ExampleLocal() {
	type Custom struct {
		Base
	}
	_ = Custom{}
}

func (Thing) helper() {
	type Custom int
	_ = Custom(3)
}

type Thing struct{}

type Custom struct {
	Base
}

func (Custom) Check() error { return nil }

func use(c Custom) error { return c.Check() }
`,
	})
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT r.src_symbol, r.target, c.start_line FROM relations r JOIN chunks c ON c.id = r.src_chunk
		WHERE r.kind = 'implements'`, 3)
	want := []string{"Base | Named | 11", "Custom | Named | 17", "Custom | Checker | 17"}
	containsAll(t, got, want)
	for _, g := range got {
		if !slices.Contains(want, g) {
			t.Errorf("unexpected implements %q: a local type is not the package's", g)
		}
	}
	calls := querySet(t, db, `SELECT r.src_symbol, r.target, COALESCE(dc.symbol, ''), COALESCE(dc.start_line, 0), r.resolution
		FROM relations r LEFT JOIN chunks dc ON dc.id = r.dst_chunk WHERE r.kind = 'calls'`, 5)
	containsAll(t, calls, []string{"use | Check | Custom.Check | 21 | exact"})
	for _, c := range calls {
		if strings.HasPrefix(c, "Thing.helper | Custom |") {
			t.Errorf("unexpected %q: a conversion to a local type calls nothing", c)
		}
	}
}

// TestGoImplementsStdSource: the method sets of standard-library types a
// project type embeds come from the Go installation's source, for any
// standard-library package: an interface embedding several (net/http's
// ResponseWriter, flag's Getter, which itself embeds Value), a struct
// embedding an interface or a concrete type whose methods are promoted
// from an unexported embedded type (net.TCPConn's from net.conn).
func TestGoImplementsStdSource(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod": "module example.com/ss\n\ngo 1.22\n",
		"s/s.go": `package s

import (
	"flag"
	"net"
	"net/http"
	"time"
)

type Wrapped interface {
	http.ResponseWriter
	Status() int
}

type Value interface {
	flag.Getter
}

type deadliner interface {
	SetReadDeadline(t time.Time) error
	SetKeepAlive(keepalive bool) error
}

type basic struct {
	http.ResponseWriter
	code int
}

func (b *basic) Status() int { return b.code }

type half struct{}

func (half) Header() http.Header { return nil }
func (half) Status() int         { return 0 }

type getter struct{ flag.Value }

func (getter) Get() any { return nil }

type plain struct{ flag.Value }

type tcp struct{ *net.TCPConn }
`,
	})
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT r.src_symbol, r.target FROM relations r WHERE r.kind = 'implements'`, 2)
	for _, c := range []struct {
		edge string
		want bool
	}{
		{"basic | Wrapped", true},
		{"half | Wrapped", false}, // no Write, no WriteHeader
		{"getter | Value", true},
		{"plain | Value", false}, // no Get
		{"tcp | deadliner", true},
	} {
		if slices.Contains(got, c.edge) != c.want {
			t.Errorf("implements %q: got %v, want %v (all: %q)", c.edge, !c.want, c.want, got)
		}
	}
}

// TestGoImplementsStdWithoutSource: on a machine without the Go
// installation's source, the method sets of the standard-library interfaces
// projects embed most come from the tables compiled in.
func TestGoImplementsStdWithoutSource(t *testing.T) {
	for _, noSource := range []bool{false, true} {
		root := t.TempDir()
		writeFiles(t, root, map[string]string{
			"go.mod": "module example.com/ns\n\ngo 1.22\n",
			"s/s.go": `package s

import "io"

type Stream interface {
	io.ReadCloser
	Name() string
}

type file struct{}

func (file) Read(p []byte) (int, error) { return 0, nil }
func (file) Close() error               { return nil }
func (file) Name() string               { return "" }

type named struct{}

func (named) Name() string { return "" }
`,
		})
		goStdCache.Lock()
		saved, savedRoot := goStdCache.pkgs, build.Default.GOROOT
		goStdCache.pkgs = nil
		if noSource {
			build.Default.GOROOT = t.TempDir() // a GOROOT without src
		}
		goStdCache.Unlock()
		db := openDB(t)
		run(t, db, root, &fakeEmbedder{model: "fake:a"})
		goStdCache.Lock()
		goStdCache.pkgs, build.Default.GOROOT = saved, savedRoot
		goStdCache.Unlock()
		got := querySet(t, db, `SELECT r.src_symbol, r.target FROM relations r WHERE r.kind = 'implements'`, 2)
		if !slices.Contains(got, "file | Stream") || slices.Contains(got, "named | Stream") {
			t.Errorf("without source %v: implements %q, want file | Stream and not named", noSource, got)
		}
	}
}

// TestGoFunctionVariables: a package variable initialised with a function
// (var Plain = newPlain, var again = Plain) or an instantiation of a
// generic one (var NewInts = NewBox[int, string]): calling the variable returns what
// the function returns, so methods of its result resolve.
func TestGoFunctionVariables(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod": "module example.com/fv\n\ngo 1.22\n",
		"box/box.go": `package box

type Box[T any, C any] struct{ v T }

func (b *Box[T, C]) Set(s string) error { return nil }

func NewBox[T any, C any](v T) *Box[T, C] { return &Box[T, C]{v: v} }

func newPlain() *Box[int, int] { return nil }

var NewInts = NewBox[int, string]

var NewStrings = NewBox[string, int]

var Plain = newPlain

var again = Plain
`,
		"use/use.go": `package use

import "example.com/fv/box"

func Ints() {
	b := box.NewInts(1)
	b.Set("x")
}

func Strings() {
	box.NewStrings("a").Set("y")
}
`,
		"box/use.go": `package box

func plain() {
	p := Plain()
	p.Set("z")
	again().Set("w")
}
`,
	})
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT r.src_symbol, r.target, COALESCE(dc.symbol, ''), r.resolution
		FROM relations r LEFT JOIN chunks dc ON dc.id = r.dst_chunk WHERE r.kind = 'calls'`, 4)
	for _, want := range []string{
		"Ints | Set | Box.Set | exact",
		"Strings | Set | Box.Set | exact",
		"plain | Set | Box.Set | exact",
	} {
		n := 0
		for _, g := range got {
			if g == want {
				n++
			}
		}
		if want == "plain | Set | Box.Set | exact" && n != 2 || n == 0 {
			t.Errorf("%q: %d edges (all: %q)", want, n, got)
		}
	}
}
