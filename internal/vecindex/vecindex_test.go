package vecindex

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

func randVec(rng *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	var s float64
	for i := range v {
		x := rng.NormFloat64()
		v[i] = float32(x)
		s += x * x
	}
	inv := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= inv
	}
	return v
}

func TestTopKMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, dim := range []int{1, 3, 8, 13, 64, 384} {
		m := NewMatrix(dim, 0)
		var rows [][]float32
		for i := 0; i < 1500; i++ {
			v := randVec(rng, dim)
			rows = append(rows, v)
			if err := m.Add(int64(1000+i*3), v); err != nil {
				t.Fatal(err)
			}
		}
		for q := 0; q < 8; q++ {
			query := randVec(rng, dim)
			if q >= 5 {
				// Sparse queries (the built-in embedder's): most dimensions zero.
				query = sparseVec(rng, dim, 1+dim/10)
			}
			type sc struct {
				id int64
				s  float64
			}
			all := make([]sc, len(rows))
			for i, r := range rows {
				var s float64
				for j := range r {
					s += float64(r[j]) * float64(query[j])
				}
				all[i] = sc{int64(1000 + i*3), s}
			}
			sort.Slice(all, func(a, b int) bool {
				if all[a].s != all[b].s {
					return all[a].s > all[b].s
				}
				return all[a].id < all[b].id
			})
			for _, k := range []int{1, 10, 100} {
				got := m.TopK(query, k)
				if len(got) != k {
					t.Fatalf("dim %d k %d: %d hits", dim, k, len(got))
				}
				for i, h := range got {
					if math.Abs(float64(h.Score)-all[i].s) > 1e-4 {
						t.Fatalf("dim %d k %d rank %d: score %v, brute force %v", dim, k, i, h.Score, all[i].s)
					}
					// Equal IDs unless the brute-force neighbours are within rounding.
					if h.ID != all[i].id && math.Abs(all[i].s-float64(h.Score)) > 1e-6 {
						t.Fatalf("dim %d k %d rank %d: id %d, brute force %d", dim, k, i, h.ID, all[i].id)
					}
					if i > 0 && better(h, got[i-1]) {
						t.Fatalf("dim %d k %d: not sorted at %d", dim, k, i)
					}
				}
			}
		}
	}
}

// sparseVec is a unit vector with at most nnz non-zero dimensions.
func sparseVec(rng *rand.Rand, dim, nnz int) []float32 {
	v := make([]float32, dim)
	var s float64
	for range nnz {
		x := rng.NormFloat64()
		v[rng.IntN(dim)] = float32(x)
		s += x * x
	}
	inv := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= inv
	}
	return v
}

// Row gives back each row as added, across block boundaries.
func TestMatrixRow(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	m := NewMatrix(0, 0)
	var rows [][]float32
	for i := range 2*blockRows + 3 {
		v := randVec(rng, 7)
		rows = append(rows, v)
		if err := m.Add(int64(i), v); err != nil {
			t.Fatal(err)
		}
	}
	for i, want := range rows {
		if got := m.Row(nil, i); !slices.Equal(got, want) {
			t.Fatalf("row %d: %v, want %v", i, got, want)
		}
	}
}

func TestTopKTiesDeterministic(t *testing.T) {
	// All rows equal: order must be by ID ascending whatever the insertion order.
	ids := []int64{42, 7, 19, 3, 100, 8, 55, 1, 77, 23}
	for trial := 0; trial < 5; trial++ {
		rng := rand.New(rand.NewPCG(uint64(trial), 1))
		perm := slices.Clone(ids)
		rng.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		m := NewMatrix(4, len(perm))
		for _, id := range perm {
			if err := m.Add(id, []float32{0.5, 0.5, 0.5, 0.5}); err != nil {
				t.Fatal(err)
			}
		}
		got := m.TopK([]float32{1, 0, 0, 0}, 4)
		want := []int64{1, 3, 7, 8}
		for i, h := range got {
			if h.ID != want[i] || h.Score != 0.5 {
				t.Fatalf("trial %d: got %+v, want IDs %v", trial, got, want)
			}
		}
	}
}

func TestTopKEdges(t *testing.T) {
	m := NewMatrix(0, 0)
	if m.TopK([]float32{1}, 3) != nil {
		t.Fatal("empty matrix must give nil")
	}
	if err := m.Add(1, nil); err != nil || m.Len() != 0 {
		t.Fatalf("empty vector: err %v len %d", err, m.Len())
	}
	if err := m.Add(1, []float32{1, 0}); err != nil || m.Dim() != 2 {
		t.Fatalf("dim learned: err %v dim %d", err, m.Dim())
	}
	if err := m.Add(2, []float32{1, 0, 0}); err == nil {
		t.Fatal("wrong dim must fail")
	}
	if err := m.Add(3, []float32{float32(math.NaN()), 0}); err != nil {
		t.Fatal(err)
	}
	if err := m.Add(4, []float32{0, 1}); err != nil {
		t.Fatal(err)
	}
	if m.Len() != 3 {
		t.Fatalf("len %d", m.Len())
	}
	if m.TopK([]float32{1, 0, 0}, 2) != nil || m.TopK([]float32{1, 0}, 0) != nil {
		t.Fatal("bad query or k must give nil")
	}
	got := m.TopK([]float32{1, 0}, 10) // k > Len; NaN row skipped
	if len(got) != 2 || got[0].ID != 1 || got[1].ID != 4 {
		t.Fatalf("got %+v", got)
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	v := []float32{0, -0.5, 1, float32(math.Inf(1)), 1e-9, math.MaxFloat32, -3.25, 0.1234567, -70000}
	b := EncodeVector(v)
	if len(b) != 1+2*len(v) || b[0] != halfTag {
		t.Fatalf("len %d, tag %q", len(b), b[0])
	}
	if b[5] != 0x00 || b[6] != 0x3c { // 1.0 as a little-endian half float
		t.Fatalf("not little-endian binary16: % x", b[5:7])
	}
	if VectorDims(b) != len(v) {
		t.Fatalf("VectorDims %d, want %d", VectorDims(b), len(v))
	}
	want := []float32{0, -0.5, 1, maxHalf, 0, maxHalf, -3.25, 0.1234567, -maxHalf}
	got := DecodeVector(b)
	for i := range want {
		if d := math.Abs(float64(got[i] - want[i])); d > math.Abs(float64(want[i]))/2048 {
			t.Errorf("at %d: %v, want %v within 2^-11", i, got[i], want[i])
		}
	}
	for _, bad := range [][]byte{nil, {1, 2, 3}, {'x', 0, 0}, {1, 2, 3, 4, 5, 6}} {
		if DecodeVector(bad) != nil || VectorDims(bad) != 0 {
			t.Errorf("% x: an empty or malformed BLOB must decode to nil", bad)
		}
	}
	if len(EncodeVector(nil)) != 0 {
		t.Fatal("nil vector encodes to empty BLOB")
	}
}

// TestDecodeFloat32Blob reads the float32 encoding older databases hold.
func TestDecodeFloat32Blob(t *testing.T) {
	v := []float32{0, -0.5, 1, math.SmallestNonzeroFloat32, math.MaxFloat32, -3.25}
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	if VectorDims(b) != len(v) {
		t.Fatalf("VectorDims %d", VectorDims(b))
	}
	got := AppendDecoded([]float32{42}, b)
	if got[0] != 42 || len(got) != 1+len(v) {
		t.Fatalf("AppendDecoded must append: %v", got)
	}
	for i := range v {
		if math.Float32bits(got[1+i]) != math.Float32bits(v[i]) {
			t.Fatalf("at %d: %v != %v", i, got[1+i], v[i])
		}
	}
	if h, s := EncodedLengths(len(v)); h != 1+2*len(v) || s != len(b) {
		t.Fatalf("EncodedLengths %d, %d", h, s)
	}
}

func BenchmarkTopK100k(b *testing.B) {
	const rows, dim = 100_000, 512
	rng := rand.New(rand.NewPCG(3, 5))
	m := NewMatrix(dim, rows)
	for i := 0; i < rows; i++ {
		if err := m.Add(int64(i), randVec(rng, dim)); err != nil {
			b.Fatal(err)
		}
	}
	q := randVec(rng, dim)
	b.ReportAllocs()
	for b.Loop() {
		if h := m.TopK(q, 10); len(h) != 10 {
			b.Fatal(len(h))
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()*1000/float64(b.N), "ms/op")
}

// BenchmarkTopK100kSearch is the semantic channel's scan: the 1,000 best of
// 100,000 × 512 for a dense query and for a sparse one (52 of 512
// dimensions non-zero, as the built-in embedder gives a short question).
func BenchmarkTopK100kSearch(b *testing.B) {
	const rows, dim = 100_000, 512
	rng := rand.New(rand.NewPCG(3, 5))
	m := NewMatrix(dim, rows)
	for i := 0; i < rows; i++ {
		if err := m.Add(int64(i), randVec(rng, dim)); err != nil {
			b.Fatal(err)
		}
	}
	for _, c := range []struct {
		name string
		q    []float32
	}{{"dense", randVec(rng, dim)}, {"sparse", sparseVec(rng, dim, 52)}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if h := m.TopK(c.q, 1000); len(h) != 1000 {
					b.Fatal(len(h))
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()*1000/float64(b.N), "ms/op")
		})
	}
}

// DotsF64 sums as a float64 loop over every dimension does.
func TestDotsF64(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 9))
	m := NewMatrix(64, 0)
	var rows [][]float32
	for i := range blockRows + 10 {
		v := randVec(rng, 64)
		rows = append(rows, v)
		if err := m.Add(int64(i), v); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range [][]float32{randVec(rng, 64), sparseVec(rng, 64, 6)} {
		pick := []int{0, 5, blockRows - 1, blockRows, blockRows + 9}
		got := m.DotsF64(q, pick)
		for k, i := range pick {
			var want float64
			for j := range q {
				want += float64(q[j]) * float64(rows[i][j])
			}
			if got[k] != want {
				t.Errorf("row %d: %v, want %v", i, got[k], want)
			}
		}
	}
}
