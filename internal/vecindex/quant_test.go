package vecindex

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The quantised scan, re-scored exactly over a margin of candidates, must
// find the exact top hits.
func TestQuantizedRescoreFindsExactTop(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for _, dim := range []int{13, 64, 512} {
		m := NewMatrix(dim, 0)
		for i := range 5000 {
			if err := m.Add(int64(i+1), randVec(rng, dim)); err != nil {
				t.Fatal(err)
			}
		}
		var buf bytes.Buffer
		if err := WriteQuantized(&buf, m); err != nil {
			t.Fatal(err)
		}
		q, err := ParseQuantized(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if q.Len() != m.Len() || q.Dim() != dim {
			t.Fatalf("dim %d: parsed %d × %d", dim, q.Len(), q.Dim())
		}
		for range 5 {
			query := randVec(rng, dim)
			exact := m.TopK(query, 50)
			approx := q.TopK(query, 200)
			re := NewMatrix(dim, len(approx))
			for _, h := range approx {
				row := slices.IndexFunc(m.ids, func(id int64) bool { return id == h.ID })
				if err := re.Add(h.ID, m.Row(nil, row)); err != nil {
					t.Fatal(err)
				}
			}
			got := re.TopK(query, 50)
			if !slices.Equal(got, exact) {
				t.Fatalf("dim %d: re-scored top 50 differs from exact:\n%v\n%v", dim, got, exact)
			}
		}
	}
}

func TestParseQuantizedRejectsBadInput(t *testing.T) {
	m := NewMatrix(4, 0)
	_ = m.Add(1, []float32{1, 0, 0, 0})
	var buf bytes.Buffer
	if err := WriteQuantized(&buf, m); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	for name, b := range map[string][]byte{
		"empty":     nil,
		"magic":     append([]byte("XXXX"), good[4:]...),
		"truncated": good[:len(good)-1],
		"longer":    append(slices.Clone(good), 0),
	} {
		if _, err := ParseQuantized(b); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
	if _, err := ParseQuantized(good); err != nil {
		t.Fatal(err)
	}
}

func FuzzParseQuantized(f *testing.F) {
	m := NewMatrix(3, 0)
	_ = m.Add(7, []float32{0.6, -0.8, 0})
	var buf bytes.Buffer
	_ = WriteQuantized(&buf, m)
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, b []byte) {
		q, err := ParseQuantized(b)
		if err != nil {
			return
		}
		q.TopK(make([]float32, q.Dim()), 3)
	})
}

// TopK over the blocked layout gives exactly the hits of a plain scan of
// the rows (the same integer dot products and scale, the same order), for
// dense and sparse queries and a last block that is not full.
func TestQuantizedTopKMatchesRowScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, tc := range []struct{ rows, dim int }{{1, 5}, {blockRows, 16}, {2*blockRows + 37, 48}} {
		m := NewMatrix(tc.dim, 0)
		for i := range tc.rows {
			if err := m.Add(int64(3*i+1), randVec(rng, tc.dim)); err != nil {
				t.Fatal(err)
			}
		}
		quant := NewQuantizer(tc.dim, tc.rows)
		for i := range tc.rows {
			if err := quant.Add(m.ID(i), m.Row(nil, i)); err != nil {
				t.Fatal(err)
			}
		}
		var buf bytes.Buffer
		if err := quant.Write(&buf); err != nil {
			t.Fatal(err)
		}
		q, err := ParseQuantized(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		for trial := range 6 {
			query := randVec(rng, tc.dim)
			if trial%2 == 1 { // sparse: most dimensions zero
				for j := range query {
					if rng.IntN(4) != 0 {
						query[j] = 0
					}
				}
			}
			// the reference: every row's int8 values as the quantizer kept them
			qv, qs := quantizeQuery(query)
			if qv == nil { // a zero query: no hits
				if got := q.TopK(query, 3); got != nil {
					t.Fatalf("zero query: %v", got)
				}
				continue
			}
			var all []Hit
			for i := range tc.rows {
				var dot int32
				for j, x := range quant.rows[i*tc.dim : (i+1)*tc.dim] {
					dot += qv[j] * int32(int8(x))
				}
				all = append(all, Hit{ID: quant.ids[i], Score: float32(dot) * qs * quant.scales[i]})
			}
			SortHits(all)
			for _, k := range []int{1, 10, tc.rows + 5} {
				want, got := all[:min(k, len(all))], q.TopK(query, k)
				if !slices.Equal(got, want) {
					t.Fatalf("%d rows × %d, k %d, trial %d: blocked %v\nrow scan %v", tc.rows, tc.dim, k, trial, got, want)
				}
				// block ranges scanned apart and merged give the same hits,
				// for the float matrix as for the quantised one
				exact := m.TopK(query, k)
				if mh := m.Blocks() / 2; !slices.Equal(MergeHits(k, m.TopKBlocks(query, k, 0, mh), m.TopKBlocks(query, k, mh, m.Blocks())), exact) {
					t.Fatalf("%d rows × %d, k %d, trial %d: float halves merged differ from TopK", tc.rows, tc.dim, k, trial)
				}
				half := q.Blocks() / 2
				merged := MergeHits(k, q.TopKBlocks(query, k, half, q.Blocks()), q.TopKBlocks(query, k, 0, half))
				if !slices.Equal(merged, want) {
					t.Fatalf("%d rows × %d, k %d, trial %d: merged halves %v\nrow scan %v", tc.rows, tc.dim, k, trial, merged, want)
				}
			}
		}
	}
}

func BenchmarkQuantizedTopK100k(b *testing.B) {
	const rows, dim = 100_000, 512
	rng := rand.New(rand.NewPCG(3, 5))
	m := NewMatrix(dim, rows)
	for i := range rows {
		if err := m.Add(int64(i), randVec(rng, dim)); err != nil {
			b.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := WriteQuantized(&buf, m); err != nil {
		b.Fatal(err)
	}
	q, err := ParseQuantized(buf.Bytes())
	if err != nil {
		b.Fatal(err)
	}
	query := make([]float32, dim) // a sparse question, as the built-in embedder gives
	for j := 0; j < dim; j += 12 {
		query[j] = rng.Float32() - 0.5
	}
	b.Run("quantized", func(b *testing.B) {
		for b.Loop() {
			q.TopK(query, 1000)
		}
	})
	b.Run("float", func(b *testing.B) {
		for b.Loop() {
			m.TopK(query, 1000)
		}
	})
}

// BenchmarkQuantizedTopKRows compares a scan of scattered runs of 10 rows
// covering an eighth of 262,144 rows (a pruned scan) with the full scan,
// for a sparse question.
func BenchmarkQuantizedTopKRows(b *testing.B) {
	const rows, dim = 262_144, 512
	rng := rand.New(rand.NewPCG(3, 5))
	quant := NewQuantizer(dim, rows)
	vec := make([]float32, dim)
	for i := range rows {
		for j := range vec {
			vec[j] = rng.Float32() - 0.5
		}
		if err := quant.Add(int64(i), vec); err != nil {
			b.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := quant.Write(&buf); err != nil {
		b.Fatal(err)
	}
	q, err := ParseQuantized(buf.Bytes())
	if err != nil {
		b.Fatal(err)
	}
	query := make([]float32, dim)
	for j := 0; j < dim; j += 12 {
		query[j] = rng.Float32() - 0.5
	}
	var ranges []RowRange
	for r := 0; r+10 <= rows; r += 80 {
		ranges = append(ranges, RowRange{From: r, To: r + 10})
	}
	b.Run("eighth", func(b *testing.B) {
		for b.Loop() {
			q.TopKRows(query, 1000, ranges)
		}
	})
	b.Run("all", func(b *testing.B) {
		for b.Loop() {
			q.TopK(query, 1000)
		}
	})
}

// Rows added in any id order are written in ascending id order (each with
// its own values), TopKRows over ranges scores exactly the rows of the
// ranges, and a repeated id is refused.
func TestQuantizedRowOrderAndRanges(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 17))
	const rows, dim = 2*blockRows + 300, 24
	ids := rng.Perm(rows)
	quant := NewQuantizer(dim, rows)
	vecs := map[int64][]float32{}
	for _, id := range ids {
		v := randVec(rng, dim)
		vecs[int64(10*id)] = v
		if err := quant.Add(int64(10*id), v); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := quant.Write(&buf); err != nil {
		t.Fatal(err)
	}
	q, err := ParseQuantized(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		if q.ID(i) != int64(10*i) {
			t.Fatalf("row %d has id %d, want %d", i, q.ID(i), 10*i)
		}
		if r, ok := q.Row(int64(10 * i)); !ok || r != i {
			t.Fatalf("Row(%d) = %d, %v", 10*i, r, ok)
		}
	}
	if _, ok := q.Row(5); ok {
		t.Fatal("Row found an absent id")
	}
	query := randVec(rng, dim)
	all := q.TopK(query, rows) // every row, scored
	score := map[int64]float32{}
	for _, h := range all {
		score[h.ID] = h.Score
	}
	// Scores gives every row TopK's score, in row order
	sc := q.Scores(query)
	if len(sc) != rows {
		t.Fatalf("Scores: %d scores for %d rows", len(sc), rows)
	}
	for i := range rows {
		if sc[i] != score[q.ID(i)] {
			t.Fatalf("Scores: row %d scored %v, TopK %v", i, sc[i], score[q.ID(i)])
		}
	}
	if q.Scores(make([]float32, dim)) != nil || q.Scores(query[:dim-1]) != nil {
		t.Fatal("Scores of a zero query or one of another dimension")
	}
	// each row scores by its own values: its score is its quantised dot
	qv, qs := quantizeQuery(query)
	for id, v := range vecs {
		var mx float32
		for _, x := range v {
			mx = max(mx, float32(math.Abs(float64(x))))
		}
		var dot int32
		for j, x := range v {
			dot += qv[j] * int32(int8(math.Round(float64(x*127/mx))))
		}
		if want := float32(dot) * qs * (mx / 127); score[id] != want {
			t.Fatalf("id %d scored %v, want %v", id, score[id], want)
		}
	}
	for _, ranges := range [][]RowRange{
		{{From: 0, To: 1}},
		{{From: 5, To: 40}, {From: blockRows - 3, To: blockRows + 9}, {From: 2 * blockRows, To: rows}},
		{{From: 0, To: rows}},
		{{From: rows - 2, To: rows + 50}},
	} {
		var want []Hit
		for _, h := range all {
			if slices.ContainsFunc(ranges, func(r RowRange) bool { return int64(10*r.From) <= h.ID && h.ID < int64(10*r.To) }) {
				want = append(want, h)
			}
		}
		for _, k := range []int{1, 7, rows} {
			if got := q.TopKRows(query, k, ranges); !slices.Equal(got, want[:min(k, len(want))]) {
				t.Fatalf("ranges %v, k %d: %v, want %v", ranges, k, got, want[:min(k, len(want))])
			}
		}
	}
	dup := NewQuantizer(dim, 2)
	_ = dup.Add(4, randVec(rng, dim))
	_ = dup.Add(4, randVec(rng, dim))
	if err := dup.Write(&bytes.Buffer{}); err == nil {
		t.Fatal("a repeated id was written")
	}
}

// A centroid is the normalised sum of its run's rows as stored.
func TestQuantizedCentroids(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 23))
	const rows, dim = blockRows + 10, 8
	quant := NewQuantizer(dim, rows)
	for i := range rows {
		if err := quant.Add(int64(i), randVec(rng, dim)); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := quant.Write(&buf); err != nil {
		t.Fatal(err)
	}
	q, err := ParseQuantized(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for _, starts := range [][]int{
		{0, 3, blockRows - 2, blockRows + 9}, // a run across the block boundary
		{0},                                  // one run over both blocks
		{0, 1, 2, blockRows, blockRows + 1},  // runs of one row; one ending at the boundary
	} {
		checkCentroids(t, quant, q, starts)
	}
	for _, bad := range [][]int{{0, 0}, {1, rows + 1}, {rows}} {
		if _, err := q.Centroids(bad); err == nil {
			t.Errorf("Centroids(%v) accepted", bad)
		}
	}
}

func checkCentroids(t *testing.T, quant *Quantizer, q *Quantized, starts []int) {
	t.Helper()
	rows, dim := quant.Len(), quant.dim
	cq, err := q.Centroids(starts)
	if err != nil {
		t.Fatal(err)
	}
	if cq.Len() != len(starts) {
		t.Fatalf("%d centroids, want %d", cq.Len(), len(starts))
	}
	for c, from := range starts {
		to := rows
		if c+1 < len(starts) {
			to = starts[c+1]
		}
		sum := make([]float64, dim)
		for r := from; r < to; r++ {
			for j := range dim {
				sum[j] += float64(quant.scales[r]) * float64(int8(quant.rows[r*dim+j]))
			}
		}
		var norm float64
		for _, x := range sum {
			norm += x * x
		}
		norm = math.Sqrt(norm)
		if cq.ids[c] != int64(from) {
			t.Fatalf("centroid %d has id %d, want %d", c, cq.ids[c], from)
		}
		for j := range dim {
			got := float64(cq.scales[c]) * float64(int8(cq.rows[c*dim+j]))
			if math.Abs(got-sum[j]/norm) > 0.01 {
				t.Fatalf("runs %v, centroid %d, dimension %d: %v, want %v", starts, c, j, got, sum[j]/norm)
			}
		}
	}
}
