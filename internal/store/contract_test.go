package store

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"codectx/internal/lang"
	"codectx/internal/pgtest"
)

// The contract suite: every behaviour here runs against each backend —
// SQLite always, PostgreSQL when CODECTX_TEST_PG names a server — and the
// answers of the two are compared where they must be equal.

// backend opens fresh, empty databases of one kind.
type backend struct {
	name string
	// location returns where a new empty database lives (file or DSN).
	location func(t *testing.T) string
}

func sqliteBackend() backend {
	return backend{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "index.db") }}
}

func pgBackend() backend {
	return backend{"postgres", func(t *testing.T) string { return pgtest.DSN(t) }}
}

// eachBackend runs fn as a subtest per backend.
func eachBackend(t *testing.T, fn func(t *testing.T, b backend)) {
	for _, b := range []backend{sqliteBackend(), pgBackend()} {
		t.Run(b.name, func(t *testing.T) { fn(t, b) })
	}
}

func openAt(t *testing.T, loc string, opt Options) *DB {
	t.Helper()
	db, err := Open(context.Background(), loc, opt)
	if err != nil {
		t.Fatalf("open %s: %v", loc, err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// contractFiles is a small project: calls, a type with a method, text
// with repeated and multi-token phrases, several languages.
func contractFiles() []FileRecord {
	chunk := func(kind, name, symbol string, start, end int, body string, vec []float32) ChunkRecord {
		h := sha256.Sum256([]byte(symbol + body))
		return ChunkRecord{
			Chunk:    lang.Chunk{Kind: kind, Name: name, Symbol: symbol, StartLine: start, EndLine: end, Content: body},
			TextHash: h[:], Vector: vec, FTSName: name, FTSBody: body,
		}
	}
	files := []FileRecord{
		{Path: "server/serve.go", Lang: "go", Size: 100, MTime: 1, SHA256: "s1", Parser: "p1",
			Chunks: []ChunkRecord{
				chunk(lang.KindType, "Server", "Server", 1, 5, "type Server struct { addr string; handler Handler }", []float32{1, 0, 0}),
				chunk(lang.KindMethod, "Serve", "Server.Serve", 7, 20, "func (s *Server) Serve() error { return s.listen(s.addr) } // serve the http request loop", []float32{0.9, 0.1, 0}),
				chunk(lang.KindMethod, "listen", "Server.listen", 22, 30, "func (s *Server) listen(addr string) error { return net.Listen(\"tcp\", addr) }", []float32{0.5, 0.5, 0}),
			},
			Relations: []lang.Relation{
				{Kind: lang.RelCalls, Source: "Server.Serve", Target: "listen", Recv: "s", Line: 8},
				{Kind: lang.RelCalls, Source: "Server.listen", Target: "Listen", Qualifier: "net", Line: 23},
				{Kind: "imports", Target: "net", Line: 1},
				{Kind: lang.RelContains, Source: "Server", Target: "Server.Serve", Line: 7},
			},
			Facts: []lang.Fact{{Kind: "field", Owner: "Server", Name: "addr", Type: "string"}},
		},
		{Path: "server/handler.go", Lang: "go", Size: 50, MTime: 2, SHA256: "s2", Parser: "p1",
			Chunks: []ChunkRecord{
				chunk(lang.KindType, "Handler", "Handler", 1, 3, "type Handler interface { ServeHTTP(w ResponseWriter, r *Request) }", []float32{0, 1, 0}),
				chunk(lang.KindFunction, "NewServer", "NewServer", 5, 9, "func NewServer(h Handler) *Server { return &Server{handler: h} } // new server server server", []float32{0.7, 0.7, 0}),
			},
			Relations: []lang.Relation{
				{Kind: lang.RelCalls, Source: "NewServer", Target: "Server", Line: 6},
				// a method of a type of another file: no source chunk
				{Kind: lang.RelContains, Source: "Server", Target: "Server.Close", Line: 11},
			},
		},
		{Path: "docs/README.md", Lang: "markdown", Size: 30, MTime: 3, SHA256: "s3", Parser: "p1",
			Chunks: []ChunkRecord{
				chunk(lang.KindText, "README", "README", 1, 9, "The HTTP server serves requests. Serve HTTP requests with a Handler; the http request loop. Ünïcödé ΣΊΣΥΦΟΣ Straße 東京", []float32{0.1, 0.1, 0.9}),
			},
		},
		{Path: "testdata/blob.json", Lang: "json", Size: 9000, MTime: 5, SHA256: "s5", Parser: "p1",
			Chunks: []ChunkRecord{
				// One token longer than a PostgreSQL b-tree entry may be.
				chunk(lang.KindText, "blob", "blob", 1, 1, `{"key": "`+longToken+`", "other": "`+longToken[:300]+`"}`, []float32{0.3, 0.3, 0.3}),
			},
		},
		{Path: "py/app.py", Lang: "python", Size: 40, MTime: 4, SHA256: "s4", Parser: "p1",
			Chunks: []ChunkRecord{
				chunk(lang.KindFunction, "serve_forever", "serve_forever", 1, 4, "def serve_forever(server): server.serve() # request loop", []float32{0.8, 0.2, 0.1}),
			},
			Relations: []lang.Relation{{Kind: lang.RelCalls, Source: "serve_forever", Target: "serve", Line: 2}},
		},
	}
	for i := range files {
		for j := range files[i].Chunks {
			files[i].Chunks[j].FTSPath = files[i].Path
		}
	}
	return files
}

// longToken is one 4000-character token.
var longToken = strings.Repeat("0123456789abcdef", 250)

// transcript runs every read of the store over a project and returns the
// answers, for comparison between backends.
func transcript(t *testing.T, db *DB, root string) map[string]any {
	t.Helper()
	ctx := context.Background()
	out := map[string]any{}
	// Ids differ between backends (SQLite reuses the largest id after a
	// delete, PostgreSQL's sequences never do) but keep the same order:
	// answers are compared with every id replaced by its rank.
	ranks := map[string]map[int64]int{}
	for kind, q := range map[string]string{"chunk": "SELECT id FROM chunks ORDER BY id", "file": "SELECT id FROM files ORDER BY id", "rel": "SELECT id FROM relations ORDER BY id"} {
		ranks[kind] = map[int64]int{}
		rows, err := db.sql.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var id int64
			rows.Scan(&id)
			ranks[kind][id] = len(ranks[kind]) + 1
		}
		rows.Close()
	}
	must := func(name string, v any, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b, _ := json.Marshal(v)
		var tree any
		json.Unmarshal(b, &tree)
		idKind, keyKind := "chunk", ""
		switch strings.Fields(name)[0] {
		case "RelationsFrom", "RelationsTo", "UnresolvedTo", "FileImports", "ContainsNamed", "OrphanContainsFrom", "ForEachEdge":
			idKind = "rel"
		case "Judgements":
			idKind = ""
		case "FilePathsOf", "Imports":
			keyKind = "file"
		case "GraphChunks", "ChunkVectors", "CallersByPath":
			keyKind = "chunk"
		}
		b, _ = json.Marshal(renumber(tree, ranks, idKind, keyKind))
		out[name] = string(b)
	}
	p, err := db.Project(ctx, root)
	must("Project", []any{p.Model, p.Dirty, p.IndexedAt > 0}, err)
	fp, err := db.Fingerprints(ctx, p.ID)
	for k, f := range fp {
		f.ID = 0
		fp[k] = f
	}
	must("Fingerprints", fp, err)
	st, err := db.Stats(ctx, p)
	st.DB, st.IndexedAt = "", 0
	must("Stats", st, err)
	syms, err := db.Symbols(ctx, p.ID)
	must("Symbols", syms, err)
	metas, err := db.ChunkMetas(ctx, p.ID)
	must("ChunkMetas", metas, err)
	imps, err := db.Imports(ctx, p.ID)
	must("Imports", imps, err)
	var ids []int64
	for _, m := range metas {
		ids = append(ids, m.ID)
	}
	rng := IDRange{Lo: ids[0], Hi: ids[len(ids)-1]}
	for _, q := range []string{`"server"`, `"serve"`, `"http request loop"`, `"request loop"`, `"straße"`, `"σίσυφος"`, `"東京"`, `"handler"`, `"nothing here"`, `"s"`, `"server server"`, `"` + longToken + `"`, `"` + longToken[:300] + `"`, `"key ` + longToken + `"`} {
		for _, pid := range []int64{0, p.ID} {
			hits, err := db.FTSMatch(ctx, pid, rng, q, FTSWeights{Name: 5, Path: 2, Body: 1}, 0)
			must(fmt.Sprintf("FTSMatch %s %d", q, pid), roundHits(hits), err)
			hits, err = db.FTSMatch(ctx, pid, rng, q, FTSWeights{Name: 5, Path: 2, Body: 1}, 2)
			must(fmt.Sprintf("FTSMatch %s %d limit", q, pid), roundHits(hits), err)
			n, err := db.FTSCount(ctx, q, pid, rng)
			must(fmt.Sprintf("FTSCount %s %d", q, pid), n, err)
		}
	}
	df, err := db.FTSDocFreq(ctx, []string{"server", "serve", "http", "absent", longToken, longToken[:300]})
	must("FTSDocFreq", df, err)
	n, err := db.FTSRows(ctx)
	must("FTSRows", n, err)
	for _, s := range []string{"Server", "Server.Serve", "NewServer"} {
		c, err := db.ChunksBySymbol(ctx, p.ID, s, 0)
		must("ChunksBySymbol "+s, c, err)
	}
	c, err := db.ChunksByShort(ctx, p.ID, "Serve", 0)
	must("ChunksByShort", c, err)
	fc, err := db.FileChunks(ctx, p.ID, "server/serve.go", false)
	must("FileChunks", fc, err)
	gc, err := db.GraphChunks(ctx, ids, true)
	must("GraphChunks", gc, err)
	from, err := db.RelationsFrom(ctx, ids)
	must("RelationsFrom", from, err)
	to, err := db.RelationsTo(ctx, ids, lang.RelCalls)
	must("RelationsTo", to, err)
	un, err := db.UnresolvedTo(ctx, p.ID, []string{"Listen", "serve", "listen"}, 0)
	must("UnresolvedTo", un, err)
	var fileIDs []int64
	for _, f := range fp {
		_ = f
	}
	paths, err := db.FilePathsOf(ctx, p.ID)
	for id := range paths {
		fileIDs = append(fileIDs, id)
	}
	sort.Slice(fileIDs, func(i, j int) bool { return fileIDs[i] < fileIDs[j] })
	must("FilePathsOf", paths, err)
	fi, err := db.FileImports(ctx, fileIDs)
	must("FileImports", fi, err)
	deg, err := db.CallersByPath(ctx, ids)
	must("CallersByPath", deg, err)
	cv, err := db.ChunkVectors(ctx, ids, "m")
	must("ChunkVectors", cv, err)
	var pv []string
	err = db.ProjectVectors(ctx, p.ID, "m", func(id int64, blob []byte) error {
		pv = append(pv, fmt.Sprintf("%d:%x", ranks["chunk"][id], blob))
		return nil
	})
	sort.Strings(pv)
	must("ProjectVectors", pv, err)
	for _, pre := range []string{"Serv", "Server.", "N"} {
		s, err := db.SymbolsWithPrefix(ctx, p.ID, pre, 10)
		sort.Strings(s)
		must("SymbolsWithPrefix "+pre, s, err)
		s, err = db.SymbolsWithShortPrefix(ctx, p.ID, pre, 10)
		sort.Strings(s)
		must("SymbolsWithShortPrefix "+pre, s, err)
	}
	sc, err := db.SymbolsWithShortContaining(ctx, p.ID, "SERV", 10)
	sort.Strings(sc)
	must("SymbolsWithShortContaining", sc, err)
	ca, ok, err := db.ChunkAt(ctx, p.ID, "Server.Serve", "server/serve.go", 7)
	must("ChunkAt", []any{ca, ok}, err)
	sym, err := db.ChunkAtLine(ctx, p.ID, "server/serve.go", 25)
	must("ChunkAtLine", sym, err)
	named, err := db.ContainsNamed(ctx, p.ID, []string{"Server.Serve", "Server.Close", "listen"}, 0)
	if len(named) != 2 {
		t.Errorf("ContainsNamed: %d relations, want 2", len(named))
	}
	must("ContainsNamed", named, err)
	orphans, err := db.OrphanContainsFrom(ctx, p.ID, []string{"Server", "NewServer"}, 0)
	if len(orphans) != 1 || orphans[0].Target != "Server.Close" {
		t.Errorf("OrphanContainsFrom: %+v, want the contains relation of Server.Close", orphans)
	}
	must("OrphanContainsFrom", orphans, err)
	facts, err := db.TypeFacts(ctx, p.ID)
	must("TypeFacts", facts, err)
	pc, err := db.ProjectChunks(ctx, p.ID)
	must("ProjectChunks", pc, err)
	edges, err := db.ResolvedEdges(ctx, p.ID)
	must("ResolvedEdges", edges, err)
	sizes, langs, err := db.FileSizes(ctx, p.ID)
	must("FileSizes", []any{sizes, langs}, err)
	var edgeRows []EdgeRow
	err = db.ForEachEdge(ctx, p.ID, func(e *EdgeRow) error { edgeRows = append(edgeRows, *e); return nil })
	must("ForEachEdge", edgeRows, err)
	roots, err := db.IndexedRoots(ctx)
	must("IndexedRoots", roots, err)
	votes, err := db.FeedbackVotes(ctx, p.ID, "k")
	must("FeedbackVotes", votes, err)
	js, err := db.Judgements(ctx, p.ID, "")
	for i := range js {
		js[i].CreatedAt = 0
	}
	must("Judgements", js, err)
	return out
}

// renumber replaces the ids in a decoded JSON answer by their ranks: "ID"
// of kind idKind, file and chunk references by field name, map keys of
// kind keyKind.
func renumber(v any, ranks map[string]map[int64]int, idKind, keyKind string) any {
	rank := func(kind string, x any) any {
		f, ok := x.(float64)
		if !ok || f == 0 || kind == "" {
			return x
		}
		return ranks[kind][int64(f)]
	}
	switch v := v.(type) {
	case []any:
		for i := range v {
			v[i] = renumber(v[i], ranks, idKind, "")
		}
		return v
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			switch k {
			case "ID":
				x = rank(idKind, x)
			case "FileID":
				x = rank("file", x)
			case "SrcChunk", "DstChunk", "Src", "Dst":
				x = rank("chunk", x)
			default:
				x = renumber(x, ranks, idKind, "")
			}
			if keyKind != "" {
				var id int64
				fmt.Sscan(k, &id)
				k = fmt.Sprint(ranks[keyKind][id])
			}
			out[k] = x
		}
		return out
	}
	return v
}

// roundHits keeps 12 significant digits of the scores: the two backends
// compute them with the same formula, but not the same log().
func roundHits(hits []FTSHit) []FTSHit {
	r := func(x float64) float64 {
		if x == 0 {
			return 0
		}
		e := math.Pow(10, 11-math.Floor(math.Log10(math.Abs(x))))
		return math.Round(x*e) / e
	}
	for i := range hits {
		h := &hits[i]
		h.Weighted, h.Name, h.Path, h.Body = r(h.Weighted), r(h.Name), r(h.Path), r(h.Body)
	}
	return hits
}

// scenario writes the contract project and resolves, votes and re-writes
// part of it, as an index run and its users would.
func scenario(t *testing.T, db *DB, root string) {
	t.Helper()
	ctx := context.Background()
	// Another project first, so that statistics span two projects.
	other, err := db.EnsureProject(ctx, "/other")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.WriteBatch(ctx, other.ID, "m", Batch{Files: []FileRecord{record("o.go", "Other", "Server")}}); err != nil {
		t.Fatal(err)
	}
	p, err := db.EnsureProject(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	files := contractFiles()
	if _, err := db.WriteBatch(ctx, p.ID, "m", Batch{Files: files[:2]}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.WriteBatch(ctx, p.ID, "m", Batch{Files: files[2:]}); err != nil {
		t.Fatal(err)
	}
	// Rewrite one file, touch one, remove one and write it back.
	if _, err := db.WriteBatch(ctx, p.ID, "m", Batch{Files: files[1:2], Touches: []Touch{{Path: "docs/README.md", Size: 31, MTime: 5}}, Removed: []string{"py/app.py"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.WriteBatch(ctx, p.ID, "m", Batch{Files: files[3:]}); err != nil {
		t.Fatal(err)
	}
	// Resolve: every call whose target names a chunk of the project.
	chunks, err := db.Symbols(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	byShort := map[string]int64{}
	for _, c := range chunks {
		byShort[c.Short] = c.ID
	}
	var ups []EdgeResolution
	var derived []DerivedRelation
	err = db.ForEachEdge(ctx, p.ID, func(e *EdgeRow) error {
		if e.Kind != lang.RelCalls {
			return nil
		}
		if id, ok := byShort[e.Target]; ok {
			ups = append(ups, EdgeResolution{ID: e.ID, DstChunk: id, Resolution: ResExact})
			derived = append(derived, DerivedRelation{FileID: e.FileID, Kind: "dispatch", SrcChunk: e.SrcChunk, Target: e.Target, DstChunk: id, Resolution: ResInferred})
		} else {
			ups = append(ups, EdgeResolution{ID: e.ID, Resolution: ResExternal, Detail: "net"})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.ApplyResolution(ctx, p.ID, ups, derived, true); err != nil {
		t.Fatal(err)
	}
	if err := db.FinishRun(ctx, p.ID, "m"); err != nil {
		t.Fatal(err)
	}
	for _, j := range []Judgement{
		{Query: "serve", QueryKey: "k", Path: "server/serve.go", Symbol: "Server.Serve", Vote: 1},
		{Query: "serve", QueryKey: "k", Path: "server/serve.go", Symbol: "Server.Serve", Vote: 1},
		{Query: "serve", QueryKey: "k", Path: "docs/README.md", Symbol: "README", Vote: -1},
		{Query: "serve", QueryKey: "k", Path: "docs/README.md", Symbol: "README", Vote: 1},
	} {
		if _, err := db.RecordJudgement(ctx, p.ID, j); err != nil {
			t.Fatal(err)
		}
	}
}

// TestContractSameAnswers runs one scenario on every backend and requires
// every read to answer the same on PostgreSQL as on SQLite (scores to 12
// significant digits, ids included).
func TestContractSameAnswers(t *testing.T) {
	sq := openAt(t, sqliteBackend().location(t), Options{})
	scenario(t, sq, "/proj")
	want := transcript(t, sq, "/proj")
	pg := openAt(t, pgBackend().location(t), Options{})
	scenario(t, pg, "/proj")
	got := transcript(t, pg, "/proj")
	keys := make([]string, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !reflect.DeepEqual(want[k], got[k]) {
			t.Errorf("%s:\nsqlite:   %v\npostgres: %v", k, want[k], got[k])
		}
	}
}

// TestContractBehaviour checks, on each backend, behaviours stated by the
// store's API rather than by comparison.
func TestContractBehaviour(t *testing.T) {
	cases := []struct {
		name string
		run  func(t *testing.T, db *DB, loc string)
	}{
		{"scenario answers", func(t *testing.T, db *DB, _ string) {
			ctx := context.Background()
			scenario(t, db, "/proj")
			p, _ := db.Project(ctx, "/proj")
			hits, err := db.FTSMatch(ctx, p.ID, IDRange{}, `"server"`, FTSWeights{Name: 5, Path: 2, Body: 1}, 10)
			if err != nil || len(hits) == 0 {
				t.Fatalf("FTSMatch server: %v %v", hits, err)
			}
			for i := 1; i < len(hits); i++ {
				if hits[i].Weighted > hits[i-1].Weighted {
					t.Errorf("hits not ordered by score: %v", hits)
				}
			}
			edges, err := db.ResolvedEdges(ctx, p.ID)
			if err != nil || len(edges) == 0 {
				t.Fatalf("resolved edges: %v %v", edges, err)
			}
			votes, _ := db.FeedbackVotes(ctx, p.ID, "k")
			if votes[VoteKey("server/serve.go", "Server.Serve")] != 1 || votes[VoteKey("docs/README.md", "README")] != 1 {
				t.Errorf("votes = %v", votes)
			}
		}},
		{"retired side-file kind", func(t *testing.T, db *DB, _ string) {
			ctx := context.Background()
			p, err := db.EnsureProject(ctx, "/proj")
			if err != nil {
				t.Fatal(err)
			}
			p.Model = "m"
			write := func(w io.Writer) error { _, err := io.WriteString(w, "data"); return err }
			for _, old := range retiredKinds[SideVectors] {
				if err := db.WriteSideFile(p, old, write); err != nil {
					t.Fatal(err)
				}
				if !db.HasSideFile(ctx, p, old) {
					t.Fatalf("the retired kind %s's file was not written", old)
				}
			}
			// a file derived from the vectors' (the file layer) goes with them
			if err := db.WriteSideFile(p, SideLayer, write); err != nil || !db.HasSideFile(ctx, p, SideLayer) {
				t.Fatalf("the layer's file was not written: %v", err)
			}
			if err := db.WriteSideFile(p, SideVectors, write); err != nil {
				t.Fatal(err)
			}
			if db.HasSideFile(ctx, p, SideLayer) {
				t.Fatal("writing the vectors' file left the layer's file")
			}
			for _, old := range retiredKinds[SideVectors] {
				if db.HasSideFile(ctx, p, old) || !db.HasSideFile(ctx, p, SideVectors) {
					t.Fatalf("after writing %s: %s still there (%v) or %s missing", SideVectors, old, db.HasSideFile(ctx, p, old), SideVectors)
				}
			}
		}},
		{"delete project", func(t *testing.T, db *DB, _ string) {
			ctx := context.Background()
			scenario(t, db, "/proj")
			p, _ := db.Project(ctx, "/proj")
			before, _ := db.FTSRows(ctx)
			if err := db.DeleteProject(ctx, p.ID); err != nil {
				t.Fatal(err)
			}
			after, _ := db.FTSRows(ctx)
			if n, _ := db.ChunkCount(ctx, p.ID); n != 0 || after >= before {
				t.Errorf("after delete: %d chunks, fts rows %d → %d", n, before, after)
			}
			if hits, _ := db.FTSMatch(ctx, p.ID, IDRange{}, `"handler"`, FTSWeights{1, 1, 1}, 0); len(hits) != 0 {
				t.Errorf("deleted project still matches: %v", hits)
			}
		}},
		{"dimension error writes nothing", func(t *testing.T, db *DB, _ string) {
			ctx := context.Background()
			p, _ := db.EnsureProject(ctx, "/proj")
			a, b := record("a.go", "A"), record("b.go", "B")
			b.Chunks[0].Vector = []float32{1, 2}
			_, err := db.WriteBatch(ctx, p.ID, "m", Batch{Files: []FileRecord{a, b}})
			if !errors.Is(err, ErrDimensions) {
				t.Fatalf("err = %v, want ErrDimensions", err)
			}
			if fp, _ := db.Fingerprints(ctx, p.ID); len(fp) != 0 {
				t.Errorf("a failed batch left files: %v", fp)
			}
		}},
		{"second writer reports the holder", func(t *testing.T, db *DB, loc string) {
			ctx := context.Background()
			l, err := db.LockWriter(ctx, "/proj", nil)
			if err != nil {
				t.Fatal(err)
			}
			other := openAt(t, loc, Options{})
			_, err = other.LockWriter(ctx, "/proj", func(h Holder) error { return &BusyError{Holder: h, Root: "/proj"} })
			var be *BusyError
			if !errors.As(err, &be) || be.Holder.PID == 0 {
				t.Fatalf("second writer: %v, want a BusyError naming the holder", err)
			}
			// Another project is not locked.
			l2, err := other.LockWriter(ctx, "/other", nil)
			if err != nil {
				t.Fatalf("lock another project: %v", err)
			}
			l2.Release()
			l.Release()
			l3, err := other.LockWriter(ctx, "/proj", func(Holder) error { return errors.New("still held") })
			if err != nil {
				t.Fatalf("after release: %v", err)
			}
			l3.Release()
		}},
		{"read-only open refuses writes", func(t *testing.T, db *DB, loc string) {
			ctx := context.Background()
			scenario(t, db, "/proj")
			ro := openAt(t, loc, Options{ReadOnly: true})
			if _, err := ro.Project(ctx, "/proj"); err != nil {
				t.Fatal(err)
			}
			if _, err := ro.EnsureProject(ctx, "/new"); !errors.Is(err, ErrReadOnly) {
				t.Errorf("write on a read-only open: %v, want ErrReadOnly", err)
			}
		}},
		{"reader never sees half a batch", func(t *testing.T, db *DB, loc string) {
			ctx := context.Background()
			p, _ := db.EnsureProject(ctx, "/proj")
			reader := openAt(t, loc, Options{})
			done := make(chan error, 1)
			go func() {
				for i := range 15 {
					files := []FileRecord{record(fmt.Sprintf("a%d.go", i), "A", "B"), record(fmt.Sprintf("b%d.go", i), "C")}
					if _, err := db.WriteBatch(ctx, p.ID, "m", Batch{Files: files}); err != nil {
						done <- err
						return
					}
				}
				done <- nil
			}()
			for {
				select {
				case err := <-done:
					if err != nil {
						t.Fatal(err)
					}
					if n, _ := reader.ChunkCount(ctx, p.ID); n != 45 {
						t.Errorf("final chunk count %d, want 45", n)
					}
					return
				default:
				}
				// Each batch adds 3 chunks in one transaction.
				if n, err := reader.ChunkCount(ctx, p.ID); err != nil || n%3 != 0 {
					t.Fatalf("reader saw %d chunks (%v): half a batch", n, err)
				}
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			eachBackend(t, func(t *testing.T, b backend) {
				loc := b.location(t)
				c.run(t, openAt(t, loc, Options{}), loc)
			})
		})
	}
}

// TestPGConcurrentFirstOpens opens a new PostgreSQL schema from many
// goroutines at once: the migration runs once under its advisory lock,
// every open succeeds and the version is the current one.
func TestPGConcurrentFirstOpens(t *testing.T) {
	loc := pgBackend().location(t)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			db, err := Open(context.Background(), loc, Options{})
			if err == nil {
				_, err = db.EnsureProject(context.Background(), "/p")
				db.Close()
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	db := openAt(t, loc, Options{})
	if v, err := db.pgVersion(context.Background(), db.sql); err != nil || v != pgSchemaVersion {
		t.Errorf("version %d (%v), want %d", v, err, pgSchemaVersion)
	}
	// A newer schema is refused, and left as it is.
	if _, err := db.sql.Exec("UPDATE codectx_schema SET version = ?", pgSchemaVersion+1); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(context.Background(), loc, Options{}); !errors.Is(err, ErrNewerSchema) {
		t.Errorf("open of a newer schema: %v, want ErrNewerSchema", err)
	}
	if v, _ := db.pgVersion(context.Background(), db.sql); v != pgSchemaVersion+1 {
		t.Errorf("version moved down to %d", v)
	}
}

// TestPGMissingSchemaIsNoIndex: a read-only or must-exist open of an empty
// PostgreSQL schema is a NoIndexError, and creates nothing.
func TestPGMissingSchemaIsNoIndex(t *testing.T) {
	loc := pgBackend().location(t)
	for _, opt := range []Options{{ReadOnly: true}, {MustExist: true}} {
		if _, err := Open(context.Background(), loc, opt); !errors.Is(err, ErrNoIndex) {
			t.Errorf("%+v: %v, want ErrNoIndex", opt, err)
		}
	}
	if strings.Contains(redactDSN("postgres://u:secret@h/db"), "secret") {
		t.Error("redactDSN shows the password")
	}
}
