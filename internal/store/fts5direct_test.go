package store

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// ftsVocab are the tokens of the generated chunks: a few held by most
// rows (whose doclists span leaf pages), others by few.
var ftsVocab = []string{"value", "string", "parse", "read", "write", "buffer", "x", "über", "rare", "zz9"}

// randomFile is a file of n chunks whose name, path and body texts are
// drawn from ftsVocab; some bodies repeat a token hundreds of times (long
// position lists, split across pages).
func randomFile(rng *rand.Rand, path string, n, version int) FileRecord {
	f := record(path)
	f.SHA256 = fmt.Sprintf("h-%s-%d", path, version)
	pick := func() string {
		// Skewed: the first tokens are far more frequent.
		return ftsVocab[min(int(rng.ExpFloat64()*2.5), len(ftsVocab)-1)]
	}
	for i := range n {
		var body strings.Builder
		words := 1 + rng.IntN(60)
		if rng.IntN(10) == 0 {
			words = 200 + rng.IntN(400)
		}
		for range words {
			body.WriteString(pick())
			body.WriteByte(' ')
		}
		name := pick() + strings.ToUpper(pick()[:1])
		c := record(path, fmt.Sprintf("c%d", i)).Chunks[0]
		c.FTSName, c.FTSPath, c.FTSBody = name, path+" "+pick(), body.String()
		c.StartLine, c.EndLine = i*3+1, i*3+2
		f.Chunks = append(f.Chunks, c)
	}
	return f
}

// ftsStructure decodes the current structure record (tests).
func ftsStructure(t *testing.T, db *DB) []fts5Segment {
	t.Helper()
	var rec []byte
	if err := db.sql.QueryRow("SELECT block FROM chunks_fts_data WHERE id = 10").Scan(&rec); err != nil {
		t.Fatal(err)
	}
	segs, err := readFTS5Segments(rec)
	if err != nil {
		t.Fatal(err)
	}
	return segs
}

// The direct scorer returns FTS5's rows, order and scores for single
// tokens, through bulk loads, several segments, replaced and removed
// files (tombstones), and several projects.
func TestFTSDirectMatchesFTS5(t *testing.T) {
	defer func(n int, c int64) { ftsDirectMin, fts5RowCost = n, c }(ftsDirectMin, fts5RowCost)
	ftsDirectMin, fts5RowCost = 1, 1<<30 // every token, lengths read at once
	db, _ := openTemp(t)
	ctx := context.Background()
	p, err := db.EnsureProject(ctx, "/proj")
	if err != nil {
		t.Fatal(err)
	}
	q, err := db.EnsureProject(ctx, "/other")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(15, 95))
	w := FTSWeights{Name: 5, Path: 2, Body: 1}
	maxSegs, maxTomb := 0, int64(0)
	compare := func(step string) {
		t.Helper()
		segs := ftsStructure(t, db)
		maxSegs = max(maxSegs, len(segs))
		for _, s := range segs {
			maxTomb = max(maxTomb, s.tombPages)
		}
		var ranges []IDRange
		for _, pr := range []*Project{p, q} {
			var lo, hi int64
			if err := db.sql.QueryRow("SELECT COALESCE(min(id), 0), COALESCE(max(id), 0) FROM chunks WHERE project_id = ?", pr.ID).Scan(&lo, &hi); err != nil {
				t.Fatal(err)
			}
			ranges = append(ranges, IDRange{Lo: lo, Hi: hi})
		}
		for _, tok := range append(ftsVocab, "absent") {
			for _, c := range []struct {
				pid int64
				ids IDRange
			}{{0, IDRange{}}, {p.ID, ranges[0]}, {q.ID, ranges[1]}, {p.ID, IDRange{}}, {q.ID, IDRange{}}, {0, ranges[0]}} {
				for _, limit := range []int{0, 7, 2000} {
					for _, cols := range []bool{false, true} {
						what := fmt.Sprintf("%s: %q project %d %v limit %d cols %v", step, tok, c.pid, c.ids, limit, cols)
						want, err := db.ftsMatchSQL(ctx, c.pid, c.ids, `"`+tok+`"`, w, limit, cols)
						if err != nil {
							t.Fatal(what, err)
						}
						got, matched, ok, err := db.ftsMatchDirect(ctx, c.pid, c.ids, tok, w, limit, cols)
						if err != nil || (!ok && tok != "absent") {
							t.Fatalf("%s: ok %v, %v", what, ok, err)
						}
						if !ok {
							continue
						}
						if all, err := db.ftsMatchSQL(ctx, c.pid, c.ids, `"`+tok+`"`, w, 0, false); err != nil || len(all) != matched {
							t.Fatalf("%s: matched %d, FTS5 %d rows (%v)", what, matched, len(all), err)
						}
						if len(got) != len(want) {
							t.Fatalf("%s: %d hits, FTS5 %d", what, len(got), len(want))
						}
						for i := range got {
							g, h := got[i], want[i]
							if g.ID != h.ID || !near(g.Weighted, h.Weighted) || !near(g.Name, h.Name) || !near(g.Path, h.Path) || !near(g.Body, h.Body) {
								t.Fatalf("%s: hit %d %+v, FTS5 %+v", what, i, g, h)
							}
						}
					}
				}
			}
		}
	}

	var files []FileRecord
	for i := range 40 {
		files = append(files, randomFile(rng, fmt.Sprintf("pkg%d/f%d.go", i%4, i), 2+rng.IntN(12), 0))
	}
	if _, err := db.WriteBatch(ctx, p.ID, "m", Batch{Files: files}); err != nil {
		t.Fatal(err)
	}
	compare("first batch")
	var other []FileRecord
	for i := range 8 {
		other = append(other, randomFile(rng, fmt.Sprintf("o%d.go", i), 5, 0))
	}
	if _, err := db.WriteBatch(ctx, q.ID, "m", Batch{Files: other}); err != nil {
		t.Fatal(err)
	}
	compare("second project")
	for round := 1; round <= 6; round++ {
		var changed []FileRecord
		for range 3 {
			i := rng.IntN(len(files))
			changed = append(changed, randomFile(rng, files[i].Path, 2+rng.IntN(12), round))
		}
		removed := []string{files[rng.IntN(len(files))].Path}
		if _, err := db.WriteBatch(ctx, p.ID, "m", Batch{Files: changed, Removed: removed}); err != nil {
			t.Fatal(err)
		}
		compare(fmt.Sprintf("round %d", round))
	}
	sparse := 0
	for _, e := range db.docLens.entries {
		if e.sparse != nil {
			sparse++
		}
	}
	if sparse == 0 {
		t.Fatal("no sparse lengths table was built: the test no longer covers it")
	}
	// FTSMatch itself takes the direct path (it fills the lengths cache).
	db.docLens = docLenCache{}
	if _, err := db.FTSMatch(ctx, 0, IDRange{}, `"value"`, w, 10); err != nil {
		t.Fatal(err)
	}
	if len(db.docLens.entries) != 1 || !db.docLens.entries[0].loaded {
		t.Fatalf("FTSMatch did not score from the postings: cache %+v", db.docLens.entries)
	}
	if maxSegs < 2 || maxTomb == 0 {
		t.Fatalf("the writes left at most %d segments and %d tombstone pages: the test no longer covers merging and deletes", maxSegs, maxTomb)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// The lengths are read once the tokens answered without them would have
// paid for reading them.
func TestLengthsWorthIt(t *testing.T) {
	defer func(c int64) { fts5RowCost = c }(fts5RowCost)
	fts5RowCost = 4
	var deferred int64
	for i, c := range []struct {
		rows int64
		want bool
		left int64
	}{
		{rows: 100, want: false, left: 400}, // 400 < 1000
		{rows: 100, want: false, left: 800}, // 800 < 1000
		{rows: 50, want: true, left: 800},   // 1000 ≥ 1000
		{rows: 0, want: false, left: 800},   // nothing to score
		{rows: 1000, want: true, left: 800}, // alone worth it
	} {
		if got := lengthsWorthIt(&deferred, c.rows, 1000); got != c.want || deferred != c.left {
			t.Errorf("step %d: %v with %d deferred, want %v with %d", i, got, deferred, c.want, c.left)
		}
	}
}

// Only an expression of one quoted token is scored from its postings.
func TestDirectToken(t *testing.T) {
	for _, c := range []struct{ match, want string }{
		{`"value"`, "value"},
		{`"Value"`, "value"},
		{`"net http"`, ""},
		{`value`, ""},
		{`""`, ""},
	} {
		if got := directToken(c.match); got != c.want {
			t.Errorf("directToken(%s) = %q, want %q", c.match, got, c.want)
		}
	}
}

// Records the reader does not know are refused with errFTS5Format (the
// caller then asks FTS5), never misread.
func TestFTS5FormatRefused(t *testing.T) {
	for _, rec := range [][]byte{
		nil,
		{0, 0, 0, 4},                   // version 1: no FF 00 00 01
		{0, 0, 0, 4, 0xff, 0, 0, 1, 1}, // truncated
		{0, 0, 0, 4, 0xff, 0, 0, 1, 1, 2, 0, 0, 1, 5, 1, 3, 0, 0, 0, 0, 0}, // two segments counted, one listed
	} {
		if _, err := readFTS5Segments(rec); !errors.Is(err, errFTS5Format) {
			t.Errorf("readFTS5Segments(%x) = %v, want errFTS5Format", rec, err)
		}
	}
	d := doclistParser{first: true}
	// Rowid 5, a position list of 4 bytes of which only 2 follow.
	if err := d.feed([]byte{5, 8, 1, 9}, 0, 4, 0); err == nil {
		// A column number 9 in a 3-column table.
		t.Error("doclistParser accepted column 9")
	}
}
