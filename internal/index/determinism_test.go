package index

import (
	"context"
	"fmt"
	"maps"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"codectx/internal/store"
)

// graphTree is a multi-package project whose edges depend on files other
// than the caller's: two packages declare the same type and method names
// (the archive/tar vs archive/zip Writer.Flush case), a field's type lives
// in another file, a constructor's result type in another package, an
// interface is implemented in a third one; Python and Java files exercise
// the name rules.
var graphTree = map[string]string{
	"go.mod": "module example.com/proj\n\ngo 1.22\n",
	"tarx/writer.go": `package tarx

type Writer struct{ n int }

func NewWriter() *Writer { return &Writer{} }

func (w *Writer) Flush() error { return nil }

func (w *Writer) Close() error { return w.Flush() }
`,
	"zipx/writer.go": `package zipx

import "bufio"

type Writer struct {
	cw  *countWriter
	buf *bufio.Writer
}

func (w *Writer) Flush() error { return w.buf.Flush() }

func (w *Writer) Close() error {
	w.cw.count()
	return w.Flush()
}
`,
	"zipx/count.go": `package zipx

type countWriter struct{ n int64 }

func (c *countWriter) count() int64 { return c.n }
`,
	"sink/sink.go": `package sink

import (
	"example.com/proj/tarx"
	z "example.com/proj/zipx"
)

type Flusher interface {
	Flush() error
}

type Acceptor interface {
	Accept(h *Holder, n int) error
}

type Holder struct {
	t *tarx.Writer
	z *z.Writer
	f Flusher
}

func (h *Holder) FlushAll() {
	h.t.Flush()
	h.z.Flush()
	h.f.Flush()
	w := tarx.NewWriter()
	w.Close()
	w.Close()
}
`,
	"plug/plug.go": `package plug

import "example.com/proj/sink"

type P struct{}

func (P) Accept(h *sink.Holder, n int) error { return nil }
`,
	"py/store.py": `class Store:
    def __init__(self):
        self.items = {}

    def get(self, key):
        return self.items.get(key)

    def save(self, key, value):
        self.check(key)
        self.items[key] = value

    def check(self, key):
        return key is not None
`,
	"py/cache.py": `from py.store import Store

def warm(keys):
    s = Store()
    for k in keys:
        s.save(k, 1)
`,
	"py/derived.py": `from py.store import Store


class Special(Store):
    def save(self, key, value):
        super().save(key, value)
        self.check(key)


def use(s: Store):
    s.save(1, 2)
`,
	"java/com/acme/app/App.java": `package com.acme.app;

import com.acme.Repo;

public class App {
    String run(Repo r) { return r.find(1); }
}
`,
	"web/main.ts": `import { guard } from "./policy/Guard.js";
import { util } from "./lib";

export function main() { return guard(util()); }
`,
	"web/policy/Guard.ts": `export function guard(x: number) { return x; }
`,
	"web/lib/index.ts": `export function util() { return 1; }
`,
	// two packages in one directory (as in testdata trees) that declare
	// the same names: which one a lookup sees must not depend on the order
	// the files were first written in
	"twins/a.go": `package one

type Itf interface{ Plark() }

type Bar struct{}

func (b *Bar) Plark() {}
`,
	"twins/b.go": `package two

type Itf interface{ Plark() Itf }

type Bar struct{}

func newBar() *Bar { return &Bar{} }

func (b *Bar) Plark() Itf { return b }

func use() { newBar().Plark().Plark() }
`,
	"java/com/acme/Repo.java": `package com.acme;

public class Repo {
    public String find(long id) { return lookup(id); }
    private String lookup(long id) { return "x"; }
}
`,
}

// relationSet is the project's relations in a form that does not depend on
// row ids: source file, kind, source chunk (symbol and line), target as
// written, line, target chunk (file, symbol, line), resolution and detail.
func relationSet(t *testing.T, db *store.DB) []string {
	t.Helper()
	return querySet(t, db, `SELECT f.path, r.kind, r.src_symbol, COALESCE(sc.start_line, 0), r.target, r.qualifier, r.recv, r.line,
		COALESCE(df.path, ''), COALESCE(dc.symbol, ''), COALESCE(dc.start_line, 0), r.resolution, r.detail, r.derived
		FROM relations r JOIN files f ON f.id = r.file_id
		LEFT JOIN chunks sc ON sc.id = r.src_chunk
		LEFT JOIN chunks dc ON dc.id = r.dst_chunk LEFT JOIN files df ON df.id = dc.file_id`, 14)
}

// fileSet and chunkSet are the files and chunks in the same id-free form.
func fileSet(t *testing.T, db *store.DB) []string {
	t.Helper()
	return querySet(t, db, "SELECT path, lang, size, sha256, parser, fallback FROM files", 6)
}

func chunkSet(t *testing.T, db *store.DB) []string {
	t.Helper()
	return querySet(t, db, "SELECT path, kind, name, symbol, start_line, end_line, container, hex(text_hash) FROM chunks", 8)
}

func querySet(t *testing.T, db *store.DB, q string, cols int, args ...any) []string {
	t.Helper()
	rows, err := db.SQL().Query(q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		vals := make([]any, cols)
		ptrs := make([]any, cols)
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for i, v := range vals {
			if i > 0 {
				b.WriteString(" | ")
			}
			if bs, ok := v.([]byte); ok {
				v = string(bs)
			}
			fmt.Fprint(&b, v)
		}
		out = append(out, b.String())
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// diffSets reports the first differences between two sorted sets.
func diffSets(t *testing.T, what string, got, want []string) {
	t.Helper()
	gm, wm := map[string]int{}, map[string]int{}
	for _, s := range got {
		gm[s]++
	}
	for _, s := range want {
		wm[s]++
	}
	shown := 0
	for _, s := range slices.Sorted(maps.Keys(wm)) {
		if gm[s] < wm[s] && shown < 10 {
			t.Errorf("%s missing: %s", what, s)
			shown++
		}
	}
	for _, s := range slices.Sorted(maps.Keys(gm)) {
		if wm[s] < gm[s] && shown < 20 {
			t.Errorf("%s extra:   %s", what, s)
			shown++
		}
	}
}

// cleanSets indexes tree into a fresh database and returns its files,
// chunks and relations.
func cleanSets(t *testing.T, tree map[string]string) (files, chunks, rels []string) {
	t.Helper()
	root := t.TempDir()
	writeFiles(t, root, tree)
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	return fileSet(t, db), chunkSet(t, db), relationSet(t, db)
}

func removeFile(t *testing.T, root, p string) {
	t.Helper()
	if err := os.Remove(filepath.Join(root, filepath.FromSlash(p))); err != nil {
		t.Fatal(err)
	}
}

// TestResolutionIsAFunctionOfTheTree indexes the same tree in several
// orders and batches and through incremental edits, renames, deletions and
// re-additions, and compares the full relation set with a clean index.
// shuffledArrivals indexes tree in seeds shuffled orders, files arriving
// 1..maxBatch at a time (each arrival an index run), and compares each
// result's relations with want.
func shuffledArrivals(t *testing.T, tree map[string]string, seeds int64, maxBatch int, want []string) {
	t.Helper()
	paths := slices.Sorted(maps.Keys(tree))
	for seed := int64(1); seed <= seeds; seed++ {
		t.Run(fmt.Sprintf("order%d", seed), func(t *testing.T) {
			rng := rand.New(rand.NewSource(seed))
			order := slices.Clone(paths)
			rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
			root := t.TempDir()
			db := openDB(t)
			for i := 0; i < len(order); {
				n := 1 + rng.Intn(maxBatch)
				batch := map[string]string{}
				for _, p := range order[i:min(i+n, len(order))] {
					batch[p] = tree[p]
				}
				writeFiles(t, root, batch)
				run(t, db, root, &fakeEmbedder{model: "fake:a"})
				i += n
			}
			diffSets(t, "relation", relationSet(t, db), want)
		})
	}
}

// deleteAndReadd indexes tree, then deletes and re-adds each of paths in
// turn (an index run after each step), and compares the relations with
// want.
func deleteAndReadd(t *testing.T, tree map[string]string, paths []string, want []string) {
	t.Run("delete and re-add", func(t *testing.T) {
		root := t.TempDir()
		db := openDB(t)
		writeFiles(t, root, tree)
		run(t, db, root, &fakeEmbedder{model: "fake:a"})
		for _, p := range paths {
			removeFile(t, root, p)
			run(t, db, root, &fakeEmbedder{model: "fake:a"})
			writeFiles(t, root, map[string]string{p: tree[p]})
			run(t, db, root, &fakeEmbedder{model: "fake:a"})
		}
		diffSets(t, "relation", relationSet(t, db), want)
	})
}

func TestResolutionIsAFunctionOfTheTree(t *testing.T) {
	// resolved edges are written in several transactions here
	defer func(v, w int) { updateBatch, insertBatch = v, w }(updateBatch, insertBatch)
	updateBatch, insertBatch = 16, 16
	_, _, want := cleanSets(t, graphTree)

	// the resolved edges are the right ones, not only stable ones
	for _, w := range []string{
		"zipx/writer.go | calls | Writer.Close | 12 | Flush | w | Writer | 14 | zipx/writer.go | Writer.Flush | 10 | exact",
		"tarx/writer.go | calls | Writer.Close | 9 | Flush | w | Writer | 9 | tarx/writer.go | Writer.Flush | 7 | exact",
		"sink/sink.go | calls | Holder.FlushAll | 22 | Flush |  | Holder .t | 23 | tarx/writer.go | Writer.Flush | 7 | exact",
		"sink/sink.go | calls | Holder.FlushAll | 22 | Flush |  | Holder .z | 24 | zipx/writer.go | Writer.Flush | 10 | exact",
		"sink/sink.go | calls | Holder.FlushAll | 22 | Close | w | =example.com/proj/tarx#NewWriter | 27 | tarx/writer.go | Writer.Close | 9 | exact",
		"sink/sink.go | calls | Holder.FlushAll | 22 | Close | w | =example.com/proj/tarx#NewWriter | 28 | tarx/writer.go | Writer.Close | 9 | exact",
		"zipx/writer.go | calls | Writer.Flush | 10 | Flush |  | Writer .buf | 10 |  |  | 0 | external | bufio",
		"zipx/writer.go | calls | Writer.Close | 12 | count |  | Writer .cw | 13 | zipx/count.go | countWriter.count | 5 | exact",
		"tarx/writer.go | implements | Writer | 3 | Flusher |  |  | 3 | sink/sink.go | Flusher | 8 | exact | method set | 1",
		// the signature names the parameter type from another package
		"plug/plug.go | implements | P | 5 | Acceptor |  |  | 5 | sink/sink.go | Acceptor | 12 | exact | method set | 1",
		"sink/sink.go | dispatch | Holder.FlushAll | 22 | Writer.Flush |  |  | 25 | zipx/writer.go | Writer.Flush | 10 | exact | dynamic | 1",
		// Python: super() and inherited members through the project's
		// classes, receivers typed by annotations and constructor calls
		"py/derived.py | calls | Special.save | 5 | save |  | super | 6 | py/store.py | Store.save | 8 | exact | base class",
		"py/derived.py | calls | Special.save | 5 | check | self |  | 7 | py/store.py | Store.check | 12 | exact | base class",
		"py/derived.py | calls | use | 10 | save | s | :Store | 11 | py/store.py | Store.save | 8 | exact | receiver type",
		"py/cache.py | calls | warm | 3 | save | s | :Store | 6 | py/store.py | Store.save | 8 | exact | receiver type",
		// imports to project files
		"py/cache.py | imports |  | 0 | py.store |  |  | 1 | py/store.py | Store | 1 | exact | module",
		"sink/sink.go | imports |  | 0 | example.com/proj/tarx |  |  | 4 | tarx/writer.go | Writer | 3 | exact | package",
		"java/com/acme/app/App.java | imports |  | 0 | com.acme.Repo |  |  | 3 | java/com/acme/Repo.java | Repo | 3 | exact | type",
		"web/main.ts | imports |  | 0 | ./policy/Guard.js |  |  | 1 | web/policy/Guard.ts | guard | 1 | exact | module",
		"web/main.ts | imports |  | 0 | ./lib |  |  | 2 | web/lib/index.ts | util | 1 | exact | module",
		// a builtin's method on a value of unknown type, never the calling method
		"py/store.py | calls | Store.get | 5 | get |  | .self.items | 6 |  |  | 0 | external | builtin",
	} {
		found := false
		for _, r := range want {
			if strings.HasPrefix(r, w) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("clean index lacks %q", w)
		}
	}

	shuffledArrivals(t, graphTree, 3, 3, want)

	t.Run("incremental", func(t *testing.T) {
		root := t.TempDir()
		db := openDB(t)
		writeFiles(t, root, graphTree)
		run(t, db, root, &fakeEmbedder{model: "fake:a"})
		steps := []func(){
			// edit: zipx's Writer loses Flush, then gets it back
			func() {
				writeFiles(t, root, map[string]string{"zipx/writer.go": strings.Replace(graphTree["zipx/writer.go"], "func (w *Writer) Flush() error { return w.buf.Flush() }", "", 1)})
			},
			func() { writeFiles(t, root, map[string]string{"zipx/writer.go": graphTree["zipx/writer.go"]}) },
			// rename: the field's type moves to another file
			func() {
				removeFile(t, root, "zipx/count.go")
				writeFiles(t, root, map[string]string{"zipx/counter.go": graphTree["zipx/count.go"]})
			},
			func() {
				removeFile(t, root, "zipx/counter.go")
				writeFiles(t, root, map[string]string{"zipx/count.go": graphTree["zipx/count.go"]})
			},
			// delete and re-add the interface's package
			func() { removeFile(t, root, "sink/sink.go") },
			func() { writeFiles(t, root, map[string]string{"sink/sink.go": graphTree["sink/sink.go"]}) },
			// delete and re-add a Python module
			func() { removeFile(t, root, "py/store.py") },
			func() { writeFiles(t, root, map[string]string{"py/store.py": graphTree["py/store.py"]}) },
		}
		for _, step := range steps {
			step()
			run(t, db, root, &fakeEmbedder{model: "fake:a"})
		}
		diffSets(t, "relation", relationSet(t, db), want)
	})
}

// TestResolveRepeatable runs Resolve twice on the same index: nothing
// changes the second time.
func TestResolveRepeatable(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, graphTree)
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	before := relationSet(t, db)
	p, err := db.Project(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	n, err := Resolve(context.Background(), db, p.ID, root)
	if err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("second resolution changed %d edges", n)
	}
	diffSets(t, "relation", relationSet(t, db), before)
}

// TestIncrementalEditMatchesColdIndex edits the tree step by step, each
// step an incremental run on the same database, and after every step
// compares the relation set with a cold index of the edited tree: edits
// that move lines (new chunk ids and lines for edges pointing into the
// file), remove and restore a method other packages call, change a
// field's type, move a type to another file, add a same-named type in
// another package, and delete a module other files import.
func TestIncrementalEditMatchesColdIndex(t *testing.T) {
	cur := maps.Clone(graphTree)
	edit := func(p, old, new string) func() {
		return func() {
			if !strings.Contains(cur[p], old) {
				t.Fatalf("%s does not contain %q", p, old)
			}
			cur[p] = strings.Replace(cur[p], old, new, 1)
		}
	}
	move := func(from, to string) func() {
		return func() { cur[to] = cur[from]; delete(cur, from) }
	}
	steps := []struct {
		name string
		do   func()
	}{
		{"lines move", edit("tarx/writer.go", "package tarx\n", "package tarx\n\n// Package tarx writes.\n\n")},
		{"body only", edit("zipx/count.go", "return c.n", "return c.n + 0")},
		{"method removed", edit("zipx/writer.go", "func (w *Writer) Flush() error { return w.buf.Flush() }", "")},
		{"method restored", edit("zipx/writer.go", "func (w *Writer) Close() error {", "func (w *Writer) Flush() error { return w.buf.Flush() }\n\nfunc (w *Writer) Close() error {")},
		{"field type changed", edit("sink/sink.go", "z *z.Writer", "z *tarx.Writer")},
		{"type moved", move("zipx/count.go", "zipx/counter.go")},
		{"same name elsewhere", func() {
			cur["other/writer.go"] = "package other\n\ntype Writer struct{}\n\nfunc (w *Writer) Flush() error { return nil }\n"
		}},
		{"python module deleted", func() { delete(cur, "py/store.py") }},
		{"python module back", func() { cur["py/store.py"] = graphTree["py/store.py"] }},
	}
	root := t.TempDir()
	db := openDB(t)
	writeFiles(t, root, cur)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	for _, st := range steps {
		before := maps.Clone(cur)
		st.do()
		for p := range before {
			if _, ok := cur[p]; !ok {
				removeFile(t, root, p)
			}
		}
		changed := map[string]string{}
		for p, body := range cur {
			if before[p] != body {
				changed[p] = body
			}
		}
		writeFiles(t, root, changed)
		run(t, db, root, &fakeEmbedder{model: "fake:a"})
		_, _, want := cleanSets(t, cur)
		t.Run(st.name, func(t *testing.T) { diffSets(t, "relation", relationSet(t, db), want) })
	}
}

// TestTypeFactRecordsMigration: schema 9 drops the old type fact rows and
// marks every file for a new parse; the next run writes the facts again
// and resolves the same edges as a clean index.
func TestTypeFactRecordsMigration(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, graphTree)
	path := filepath.Join(t.TempDir(), "index.db")
	ctx := context.Background()
	db, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	first := run(t, db, root, &fakeEmbedder{model: "fake:a"})
	want := relationSet(t, db)
	// A database of schema 8 had its facts elsewhere: none in the new table.
	for _, q := range []string{"DELETE FROM typefacts_files", "PRAGMA user_version = 8"} {
		if _, err := db.SQL().Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	db, err = store.Open(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if n := querySet(t, db, "SELECT count(*) FROM files WHERE parser != ''", 1); n[0] != "0" {
		t.Fatalf("files keeping their parser version after the migration: %v", n)
	}
	sum := run(t, db, root, &fakeEmbedder{model: "fake:a"})
	if sum.Changed != first.Changed {
		t.Errorf("files parsed again: %d, want %d", sum.Changed, first.Changed)
	}
	if n := querySet(t, db, "SELECT count(*) FROM typefacts_files", 1); n[0] == "0" {
		t.Error("no type facts written after the migration")
	}
	diffSets(t, "relation", relationSet(t, db), want)
}
