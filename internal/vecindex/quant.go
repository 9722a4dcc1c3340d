package vecindex

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"unsafe"
)

// Quantized is a read-only matrix of int8 rows with one scale per row
// (row value ≈ scale × int8), about a quarter of the float32 matrix's size.
// Its scores approximate the dot product; callers re-score the best
// candidates with the exact vectors. Its rows may live in memory the caller
// maps from a file (see ParseQuantized).
type Quantized struct {
	dim    int
	ids    []int64
	scales []float32
	data   []int8 // len(ids)*dim
}

// quantMagic starts the encoding written by WriteQuantized (version 1).
const quantMagic = "CXQ8\x01\x00\x00\x00"

// quantHeader is the magic, the dimension and the row count (8 bytes each).
const quantHeader = 24

// WriteQuantized writes m's rows as int8 with per-row scales: a 24-byte
// header, the ids (int64), the scales (float32), then the rows. Every
// number is little-endian.
func WriteQuantized(w io.Writer, m *Matrix) error {
	q := NewQuantizer(m.dim, len(m.ids))
	row := make([]float32, 0, m.dim)
	for i, id := range m.ids {
		if err := q.Add(id, m.Row(row[:0], i)); err != nil {
			return err
		}
	}
	return q.Write(w)
}

// Quantizer builds WriteQuantized's encoding one vector at a time, keeping
// only the int8 rows (a quarter of the float32 matrix).
type Quantizer struct {
	dim    int
	ids    []int64
	scales []float32
	rows   []byte
}

// NewQuantizer returns an empty quantizer for vectors of dim values with
// room for capacity rows (dim <= 0: set by the first Add).
func NewQuantizer(dim, capacity int) *Quantizer {
	q := &Quantizer{dim: max(dim, 0), ids: make([]int64, 0, max(capacity, 0)), scales: make([]float32, 0, max(capacity, 0))}
	if q.dim > 0 {
		q.rows = make([]byte, 0, q.dim*max(capacity, 0))
	}
	return q
}

// Add quantises vec under id; an empty vec is skipped, one of another
// dimension is an error.
func (q *Quantizer) Add(id int64, vec []float32) error {
	if skip, err := fitDim(&q.dim, id, vec); skip || err != nil {
		return err
	}
	var mx float32
	for _, x := range vec {
		mx = max(mx, float32(math.Abs(float64(x))))
	}
	q.ids = append(q.ids, id)
	if mx == 0 || mx != mx {
		q.scales = append(q.scales, 0) // a zero (or NaN) row scores 0
		q.rows = append(q.rows, make([]byte, q.dim)...)
		return nil
	}
	q.scales = append(q.scales, mx/127)
	inv := 127 / mx
	for _, x := range vec {
		q.rows = append(q.rows, byte(int8(math.Round(float64(x*inv)))))
	}
	return nil
}

// Len is the number of rows added.
func (q *Quantizer) Len() int { return len(q.ids) }

// Write writes the encoding.
func (q *Quantizer) Write(w io.Writer) error {
	n := len(q.ids)
	hdr := make([]byte, quantHeader, quantHeader+12*n)
	copy(hdr, quantMagic)
	binary.LittleEndian.PutUint64(hdr[8:], uint64(max(q.dim, 1)))
	binary.LittleEndian.PutUint64(hdr[16:], uint64(n))
	for _, id := range q.ids {
		hdr = binary.LittleEndian.AppendUint64(hdr, uint64(id))
	}
	for _, s := range q.scales {
		hdr = binary.LittleEndian.AppendUint32(hdr, math.Float32bits(s))
	}
	if _, err := w.Write(hdr); err != nil {
		return err
	}
	_, err := w.Write(q.rows)
	return err
}

// ParseQuantized reads WriteQuantized's encoding. The rows are not copied:
// b must stay valid (and unchanged) while the result is used.
func ParseQuantized(b []byte) (*Quantized, error) {
	if len(b) < quantHeader || string(b[:8]) != quantMagic {
		return nil, errors.New("vecindex: not a quantized matrix")
	}
	d := binary.LittleEndian.Uint64(b[8:])
	n := binary.LittleEndian.Uint64(b[16:])
	if d == 0 || d > 1<<16 || n > 1<<32 || uint64(len(b)) != quantHeader+n*12+n*d {
		return nil, fmt.Errorf("vecindex: quantized matrix of %d × %d does not fit %d bytes", n, d, len(b))
	}
	q := &Quantized{dim: int(d), ids: make([]int64, n), scales: make([]float32, n)}
	off := quantHeader
	for i := range q.ids {
		q.ids[i] = int64(binary.LittleEndian.Uint64(b[off:]))
		off += 8
	}
	for i := range q.scales {
		q.scales[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[off:]))
		off += 4
	}
	if rows := b[off:]; len(rows) > 0 {
		q.data = unsafe.Slice((*int8)(unsafe.Pointer(&rows[0])), len(rows))
	}
	return q, nil
}

// Len is the number of rows.
func (q *Quantized) Len() int { return len(q.ids) }

// Dim is the vector dimension.
func (q *Quantized) Dim() int { return q.dim }

// TopK returns the k rows with the highest approximate dot product with
// query, ordered as Matrix.TopK orders. The query is quantised too, so a
// score is off by about 1 % of the vectors' norms: re-score the hits with
// the exact vectors and take a margin of candidates beyond what is needed.
func (q *Quantized) TopK(query []float32, k int) []Hit {
	n, d := len(q.ids), q.dim
	if k <= 0 || n == 0 || len(query) != d {
		return nil
	}
	var mx float32
	for _, x := range query {
		mx = max(mx, float32(math.Abs(float64(x))))
	}
	if mx == 0 || mx != mx {
		return nil
	}
	qs := mx / 127
	qv := make([]int32, d)
	for j, x := range query {
		qv[j] = int32(math.Round(float64(x / qs)))
	}
	k = min(k, n)
	heap := make([]Hit, 0, k)
	for i, id := range q.ids {
		h := Hit{ID: id, Score: float32(dot8(qv, q.data[i*d:(i+1)*d])) * qs * q.scales[i]}
		if len(heap) < k {
			heap = append(heap, h)
			siftUp(heap, len(heap)-1)
			continue
		}
		if better(h, heap[0]) {
			heap[0] = h
			siftDown(heap, 0)
		}
	}
	SortHits(heap)
	return heap
}

// dot8 is the integer inner product of a and b (len(b) >= len(a)).
func dot8(a []int32, b []int8) int32 {
	n := len(a)
	b = b[:n]
	var s0, s1, s2, s3 int32
	i := 0
	for ; i+8 <= n; i += 8 {
		x := (*[8]int32)(a[i : i+8])
		y := (*[8]int8)(b[i : i+8])
		s0 += x[0]*int32(y[0]) + x[4]*int32(y[4])
		s1 += x[1]*int32(y[1]) + x[5]*int32(y[5])
		s2 += x[2]*int32(y[2]) + x[6]*int32(y[6])
		s3 += x[3]*int32(y[3]) + x[7]*int32(y[7])
	}
	for ; i < n; i++ {
		s0 += a[i] * int32(b[i])
	}
	return s0 + s1 + s2 + s3
}
