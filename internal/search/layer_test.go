package search

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"codectx/internal/query"
	"codectx/internal/store"
	"codectx/internal/vecindex"
)

// layerProject is a small project shaped for the file layer: target.go
// holds the chunks nearest the query, thirty filler files hold weaker ones,
// and kw.go holds the only chunk named like the query, whose file points
// away from the query on average (its piece ranks last in the layer) while
// that chunk itself is nearer the query than any filler chunk.
func layerProject() []tchunk {
	var cs []tchunk
	for i, c := range []float64{0.9, 0.85, 0.8} {
		cs = append(cs, tchunk{path: "target.go", kind: "function", name: fmt.Sprintf("alpha%d", i), content: "func alpha() {}\n", cos: c})
	}
	for f := range 30 {
		for i, c := range []float64{0.3, 0.2, 0.1} {
			cs = append(cs, tchunk{path: fmt.Sprintf("fill%02d.go", f), kind: "function", name: fmt.Sprintf("filler%d", i), content: "func filler() {}\n", cos: c})
		}
	}
	for i, c := range []float64{0.35, -0.9, -0.9} {
		name := fmt.Sprintf("other%d", i)
		if i == 0 {
			name = "GzipCompression"
		}
		cs = append(cs, tchunk{path: "kw.go", kind: "function", name: name, content: "func " + name + "() {}\n", cos: c})
	}
	return cs
}

// withLayer sets the layer's knobs for one test.
func withLayer(t *testing.T, minRows, pieces int) {
	t.Helper()
	oldMin, oldPieces := layerMinRows, layerPieces
	layerMinRows, layerPieces = minRows, pieces
	t.Cleanup(func() { layerMinRows, layerPieces = oldMin, oldPieces })
}

// semIdx returns the chunk indexes of hits, in order, and their scores by
// chunk name.
func semByName(snap *snapshot, hits []semHit) ([]string, map[string]float64) {
	var order []string
	score := map[string]float64{}
	for _, h := range hits {
		n := snap.chunks[h.idx].Path + ":" + snap.chunks[h.idx].Name
		order = append(order, n)
		score[n] = h.score
	}
	return order, score
}

// With the layer engaged, the semantic channel scans only the best pieces'
// rows — the right file's chunks among them, first — and, after the
// keyword channel, the file holding its best chunk, which the layer left
// out, with that chunk's exact cosine.
func TestFileLayerPrunesAndKeepsKeywordFiles(t *testing.T) {
	withLayer(t, 1, 4)
	defer func(v int) { heldMatrixMax = v }(heldMatrixMax)
	heldMatrixMax = 0 // every search scores the side file, as past it
	ix := buildIndex(t, layerProject())
	ctx := context.Background()
	if err := Prepare(ctx, ix.DB, ix.Project); err != nil {
		t.Fatal(err)
	}
	if !ix.DB.HasSideFile(ctx, ix.Project, store.SideLayer) {
		t.Fatal("Prepare did not write the file layer")
	}
	resetCache() // a fresh process: the layer is read from its side file
	snap, err := loadSnapshot(ctx, ix.DB, ix.Project)
	if err != nil {
		t.Fatal(err)
	}
	q := buildQuery("gzip compression", nil, query.DefaultOptions)
	sem, ps, err := semanticChannel(ctx, ix, snap, q)
	if err != nil {
		t.Fatal(err)
	}
	if ps == nil {
		t.Fatal("the layer did not engage")
	}
	if ps.pieces != 32 || ps.rows >= ps.quant.Len() || ps.rows > 4*3 {
		t.Fatalf("layer of %d pieces scanned %d of %d rows, want 32 pieces and at most 4 pieces' rows", ps.pieces, ps.rows, ps.quant.Len())
	}
	order, score := semByName(snap, sem)
	if want := []string{"target.go:alpha0", "target.go:alpha1", "target.go:alpha2"}; !reflect.DeepEqual(order[:3], want) {
		t.Fatalf("pruned semantic hits %v, want %v first", order, want)
	}
	if _, ok := score["kw.go:GzipCompression"]; ok {
		t.Fatalf("kw.go was scanned before the keyword channel ran: %v", order)
	}
	kw, err := keywordChannel(ctx, ix.DB, ix.Project.ID, snap, q, false)
	if err != nil {
		t.Fatal(err)
	}
	sem, err = addKeywordFiles(ctx, ix, snap, ps, kw, sem)
	if err != nil {
		t.Fatal(err)
	}
	order, score = semByName(snap, sem)
	got, ok := score["kw.go:GzipCompression"]
	if !ok || math.Abs(got-0.35) > 1e-3 { // stored as half floats
		t.Fatalf("after the keyword channel, kw.go's chunk scored %v (found %v), want its cosine 0.35: %v", got, ok, order)
	}
	if at := slices.Index(order, "kw.go:GzipCompression"); at != 3 {
		t.Fatalf("kw.go's chunk at %d of %v, want 3 (after target.go's)", at, order)
	}
	// A search says it used the layer, and ranks the keyword file's chunk first.
	r, err := Search(ctx, ix, Options{Query: "gzip compression", K: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Results) == 0 || r.Results[0].Name != "GzipCompression" || !slices.Contains(r.Results[0].Signals, "semantic") {
		t.Fatalf("results %v (signals of the first %v)", names(r), r.Results[0].Signals)
	}
	if !strings.Contains(strings.Join(r.Signals, ";"), "file-level layer") {
		t.Fatalf("signals %v do not name the file layer", r.Signals)
	}
}

// The layer engages from layerMinRows vectors on, and below it the project
// gets no layer file and the same answers as with the layer out of reach.
// (Every search scores the quantised side file, as past heldMatrixMax,
// where the layer applies.)
func TestFileLayerThreshold(t *testing.T) {
	defer func(v int) { heldMatrixMax = v }(heldMatrixMax)
	heldMatrixMax = 0
	chunks := layerProject()
	queries := []string{"gzip compression", "alpha function", "filler"}
	flat := map[string][]string{}
	for _, tc := range []struct {
		name    string
		minRows int
		engaged bool
	}{
		{"out of reach", math.MaxInt, false},
		{"one row short", len(chunks) + 1, false},
		{"exactly reached", len(chunks), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			withLayer(t, tc.minRows, 4)
			ix := buildIndex(t, chunks)
			ctx := context.Background()
			if err := Prepare(ctx, ix.DB, ix.Project); err != nil {
				t.Fatal(err)
			}
			if got := ix.DB.HasSideFile(ctx, ix.Project, store.SideLayer); got != tc.engaged {
				t.Fatalf("layer file written: %v, want %v", got, tc.engaged)
			}
			resetCache()
			for _, qs := range queries {
				r, err := Search(ctx, ix, Options{Query: qs, K: 10})
				if err != nil {
					t.Fatal(err)
				}
				used := strings.Contains(strings.Join(r.Signals, ";"), "file-level layer")
				if used != tc.engaged {
					t.Fatalf("%q: layer used %v, want %v (signals %v)", qs, used, tc.engaged, r.Signals)
				}
				if tc.engaged {
					continue
				}
				got := names(r)
				if want, ok := flat[qs]; ok && !reflect.DeepEqual(got, want) {
					t.Fatalf("%q: %v, with the layer out of reach %v", qs, got, want)
				}
				flat[qs] = got
			}
			snap, err := loadSnapshot(ctx, ix.DB, ix.Project)
			if err != nil {
				t.Fatal(err)
			}
			if (snap.layer != nil) != tc.engaged {
				t.Fatalf("snapshot layer loaded: %v, want %v", snap.layer != nil, tc.engaged)
			}
		})
	}
}

// Pieces are runs of one file's rows, at most layerRun long, and the
// layer's ranges cover exactly the rows of the pieces selected.
func TestPieceStarts(t *testing.T) {
	var chunks []tchunk
	for i := range 2*layerRun + 3 {
		chunks = append(chunks, tchunk{path: "big.go", kind: "function", name: fmt.Sprintf("f%d", i), content: "x\n", cos: 0.5})
	}
	chunks = append(chunks, tchunk{path: "small.go", kind: "function", name: "g", content: "y\n", cos: 0.5})
	ix := buildIndex(t, chunks)
	ctx := context.Background()
	withLayer(t, 1, 2)
	if err := Prepare(ctx, ix.DB, ix.Project); err != nil {
		t.Fatal(err)
	}
	snap, err := loadSnapshot(ctx, ix.DB, ix.Project)
	if err != nil {
		t.Fatal(err)
	}
	f, err := ix.DB.OpenSideFile(ix.Project, store.SideVectors)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	q, err := vecindex.ParseQuantized(f.Data)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := pieceStarts(q, snap), []int{0, layerRun, 2 * layerRun, 2*layerRun + 3}; !reflect.DeepEqual(got, want) {
		t.Fatalf("piece starts %v, want %v", got, want)
	}
	for _, tc := range []struct {
		rs, want []vecindex.RowRange
	}{
		{[]vecindex.RowRange{rr(5, 7), rr(0, 5), rr(9, 10)}, []vecindex.RowRange{rr(0, 7), rr(9, 10)}},
		{[]vecindex.RowRange{rr(3, 4)}, []vecindex.RowRange{rr(3, 4)}},
		{[]vecindex.RowRange{rr(2, 8), rr(4, 6), rr(8, 9)}, []vecindex.RowRange{rr(2, 9)}},
	} {
		got := mergeRanges(slices.Clone(tc.rs))
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("mergeRanges(%v) = %v, want %v", tc.rs, got, tc.want)
		}
		for r := range 12 {
			in := slices.ContainsFunc(tc.want, func(x vecindex.RowRange) bool { return x.From <= r && r < x.To })
			if inRanges(got, r) != in {
				t.Errorf("inRanges(%v, %d) = %v", got, r, !in)
			}
		}
	}
}

func rr(from, to int) vecindex.RowRange { return vecindex.RowRange{From: from, To: to} }

// The layer belongs to one generation of the vectors' side file: a run
// that writes moves the generation, and the next Prepare (or search)
// builds the new generation's layer over the new rows and drops the old
// one; a layer file that does not fit its vectors is built again.
func TestFileLayerFollowsGeneration(t *testing.T) {
	withLayer(t, 1, 4)
	defer func(v int) { heldMatrixMax = v }(heldMatrixMax)
	heldMatrixMax = 0
	ix := buildIndex(t, layerProject())
	ctx := context.Background()
	if err := Prepare(ctx, ix.DB, ix.Project); err != nil {
		t.Fatal(err)
	}
	old := ix.DB.SideFilePath(ix.Project, store.SideLayer)
	writeChunks(t, ix.DB, ix.Project.ID, []tchunk{
		{path: "new.go", kind: "function", name: "fresh0", content: "func fresh() {}\n", cos: 0.99},
		{path: "new.go", kind: "function", name: "fresh1", content: "func fresh() {}\n", cos: 0.98},
	})
	if err := ix.DB.FinishRun(ctx, ix.Project.ID, testModel); err != nil {
		t.Fatal(err)
	}
	p, err := ix.DB.Project(ctx, "/project")
	if err != nil {
		t.Fatal(err)
	}
	ix.Project = p
	for _, step := range []string{"prepare", "corrupt layer file"} {
		switch step {
		case "prepare":
			if err := Prepare(ctx, ix.DB, p); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(old); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("the older generation's layer is still there: %v", err)
			}
		case "corrupt layer file":
			if err := os.WriteFile(ix.DB.SideFilePath(p, store.SideLayer), []byte("not a layer"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		resetCache()
		r, err := Search(ctx, ix, Options{Query: "fresh", K: 3})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Results) == 0 || r.Results[0].File != "new.go" || !strings.Contains(strings.Join(r.Signals, ";"), "file-level layer") {
			t.Fatalf("%s: results %v, signals %v", step, names(r), r.Signals)
		}
		snap, err := loadSnapshot(ctx, ix.DB, p)
		if err != nil {
			t.Fatal(err)
		}
		if snap.layer == nil || snap.layer.pieces.Len() != 33 || snap.layer.rows != len(snap.chunks) {
			t.Fatalf("%s: layer %+v, want 33 pieces over %d rows", step, snap.layer, len(snap.chunks))
		}
	}
}

// A database opened read-only whose layer file is missing keeps the flat
// scan (building would be lost work for every such process) and uses the
// file once a writer has built it.
func TestFileLayerReadOnly(t *testing.T) {
	withLayer(t, 1, 4)
	defer func(v int) { heldMatrixMax = v }(heldMatrixMax)
	heldMatrixMax = 0
	ix := buildIndex(t, layerProject())
	ctx := context.Background()
	if err := Prepare(ctx, ix.DB, ix.Project); err != nil { // the side files, the layer's too
		t.Fatal(err)
	}
	if err := os.Remove(ix.DB.SideFilePath(ix.Project, store.SideLayer)); err != nil {
		t.Fatal(err)
	}
	ro, err := store.Open(ctx, ix.DB.Path(), store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	rix := Index{DB: ro, Project: ix.Project, Embedder: ix.Embedder}
	for _, want := range []bool{false, true} {
		if want {
			if err := Prepare(ctx, ix.DB, ix.Project); err != nil {
				t.Fatal(err)
			}
		}
		resetCache()
		r, err := Search(ctx, rix, Options{Query: "alpha", K: 3})
		if err != nil {
			t.Fatal(err)
		}
		if used := strings.Contains(strings.Join(r.Signals, ";"), "file-level layer"); used != want {
			t.Fatalf("layer file there: %v; layer used %v", want, used)
		}
		if ro.HasSideFile(ctx, ix.Project, store.SideLayer) != want {
			t.Fatalf("layer file there: %v, want %v", !want, want)
		}
	}
}

// A huge project whose side files are missing for its generation (a
// long-lived process after an index run) gets them written, quantised as
// read, by its first semantic search, which then uses the layer and never
// holds the float matrix.
func TestFileLayerWrittenByFirstSearch(t *testing.T) {
	withLayer(t, 1, 4)
	defer func(v int) { heldMatrixMax = v }(heldMatrixMax)
	heldMatrixMax = 0
	ix := buildIndex(t, layerProject())
	ctx := context.Background()
	for _, kind := range []string{store.SideVectors, store.SideLayer} {
		if ix.DB.HasSideFile(ctx, ix.Project, kind) {
			t.Fatalf("%s written before the first search", kind)
		}
	}
	r, err := Search(ctx, ix, Options{Query: "gzip compression", K: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(r.Signals, ";"), "file-level layer") {
		t.Fatalf("the first search did not use the layer: %v", r.Signals)
	}
	for _, kind := range []string{store.SideVectors, store.SideLayer} {
		if !ix.DB.HasSideFile(ctx, ix.Project, kind) {
			t.Fatalf("the first search did not write %s", kind)
		}
	}
	snap, err := loadSnapshot(ctx, ix.DB, ix.Project)
	if err != nil {
		t.Fatal(err)
	}
	if snap.vecLoaded || snap.matrix != nil {
		t.Fatal("the first search loaded the float matrix")
	}
}

// Searches running at once share one snapshot's layer (the first of them
// builds it) and answer as one search alone does.
func TestFileLayerConcurrentSearches(t *testing.T) {
	withLayer(t, 1, 4)
	defer func(v int) { heldMatrixMax = v }(heldMatrixMax)
	heldMatrixMax = 0
	ix := buildIndex(t, layerProject())
	ctx := context.Background()
	want, err := Search(ctx, ix, Options{Query: "gzip compression", K: 5})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(want.Signals, ";"), "file-level layer") {
		t.Fatalf("the layer was not used: %v", want.Signals)
	}
	for _, kind := range []string{store.SideVectors, store.SideLayer} { // built again by the searches below
		if err := os.Remove(ix.DB.SideFilePath(ix.Project, kind)); err != nil {
			t.Fatal(err)
		}
	}
	resetCache()
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			r, err := Search(ctx, ix, Options{Query: "gzip compression", K: 5})
			if err == nil && !reflect.DeepEqual(names(r), names(want)) {
				err = fmt.Errorf("got %v, want %v", names(r), names(want))
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
