package vecindex

import (
	"bytes"
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
