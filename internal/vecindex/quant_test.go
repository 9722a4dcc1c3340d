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
