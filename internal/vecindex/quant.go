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
// candidates with the exact vectors. Its rows are laid out as Matrix lays
// out its floats (blocks of blockRows rows, column by column), so that
// TopK reads only the query's non-zero dimensions, and may live in memory
// the caller maps from a file (see ParseQuantized).
type Quantized struct {
	dim    int
	ids    []int64
	scales []float32
	data   []int8 // blocksFor(len(ids)) blocks of dim columns of blockRows
}

// quantMagic starts the encoding written by WriteQuantized: version 2,
// the blocked layout (version 1 stored the rows one after another).
const quantMagic = "CXQ8\x02\x00\x00\x00"

// quantHeader is the magic, the dimension and the row count (8 bytes each).
const quantHeader = 24

// WriteQuantized writes m's rows as int8 with per-row scales: a 24-byte
// header, the ids (int64), the scales (float32), then the int8 values in
// blocks of blockRows rows (the last one padded with zeros), each block
// column by column. Every number is little-endian.
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

// Write writes the encoding, transposing the rows one block at a time.
func (q *Quantizer) Write(w io.Writer) error {
	n, d := len(q.ids), max(q.dim, 1)
	hdr := make([]byte, quantHeader, quantHeader+12*n)
	copy(hdr, quantMagic)
	binary.LittleEndian.PutUint64(hdr[8:], uint64(d))
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
	block := make([]byte, blockRows*d)
	for start := 0; start < n; start += blockRows {
		clear(block)
		for r := range min(blockRows, n-start) {
			for j, x := range q.rows[(start+r)*d : (start+r+1)*d] {
				block[j*blockRows+r] = x
			}
		}
		if _, err := w.Write(block); err != nil {
			return err
		}
	}
	return nil
}

// ParseQuantized reads WriteQuantized's encoding. The rows are not copied:
// b must stay valid (and unchanged) while the result is used.
func ParseQuantized(b []byte) (*Quantized, error) {
	if len(b) < quantHeader || string(b[:8]) != quantMagic {
		return nil, errors.New("vecindex: not a quantized matrix")
	}
	d := binary.LittleEndian.Uint64(b[8:])
	n := binary.LittleEndian.Uint64(b[16:])
	if d == 0 || d > 1<<16 || n > 1<<32 || uint64(len(b)) != quantHeader+n*12+uint64(blocksFor(int(n))*blockRows)*d {
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
	return q.TopKBlocks(query, k, 0, q.Blocks())
}

// Blocks is the number of row blocks (TopKBlocks's unit of work).
func (q *Quantized) Blocks() int { return blocksFor(len(q.ids)) }

// TopKBlocks is TopK over the rows of blocks from … to-1 only. The hits of
// disjoint block ranges merged by MergeHits are TopK's hits, so callers may
// scan the ranges side by side.
func (q *Quantized) TopKBlocks(query []float32, k, from, to int) []Hit {
	n, d := len(q.ids), q.dim
	from, to = max(from, 0), min(to, q.Blocks())
	if k <= 0 || n == 0 || len(query) != d || from >= to {
		return nil
	}
	qv, qs := quantizeQuery(query)
	if qv == nil {
		return nil
	}
	var nz []int32
	for j, x := range qv {
		if x != 0 {
			nz = append(nz, int32(j))
		}
	}
	k = min(k, n)
	heap := make([]Hit, 0, k)
	var dots [blockRows]int32
	for blk := from; blk < to; blk++ {
		blockDots(&dots, q.data[blk*blockRows*d:(blk+1)*blockRows*d], qv, nz)
		rows := min(blockRows, n-blk*blockRows)
		for i, id := range q.ids[blk*blockRows : blk*blockRows+rows] {
			heap = keep(heap, Hit{ID: id, Score: float32(dots[i]) * qs * q.scales[blk*blockRows+i]}, k)
		}
	}
	SortHits(heap)
	return heap
}

// MergeHits merges the hits of disjoint parts, each ordered as TopK orders
// them, into the k best, in that order.
func MergeHits(k int, parts ...[]Hit) []Hit {
	var all []Hit
	for _, p := range parts {
		all = append(all, p...)
	}
	SortHits(all)
	return all[:min(k, len(all))]
}

// quantizeQuery scales query to int8 steps of its largest component, as
// the rows are: the integer vector and the step; nil for a zero or NaN
// query.
func quantizeQuery(query []float32) ([]int32, float32) {
	var mx float32
	for _, x := range query {
		mx = max(mx, float32(math.Abs(float64(x))))
	}
	if mx == 0 || mx != mx {
		return nil, 0
	}
	qs := mx / 127
	qv := make([]int32, len(query))
	for j, x := range query {
		qv[j] = int32(math.Round(float64(x / qs)))
	}
	return qv, qs
}

// blockDots sets dots to the integer dot products of one block's rows with
// qv over the dimensions nz, four columns per pass (as blockScores).
func blockDots(dots *[blockRows]int32, block []int8, qv []int32, nz []int32) {
	clear(dots[:])
	col := func(j int32) *[blockRows]int8 {
		return (*[blockRows]int8)(block[int(j)*blockRows : int(j+1)*blockRows])
	}
	t := 0
	for ; t+4 <= len(nz); t += 4 {
		c0, c1, c2, c3 := col(nz[t]), col(nz[t+1]), col(nz[t+2]), col(nz[t+3])
		q0, q1, q2, q3 := qv[nz[t]], qv[nz[t+1]], qv[nz[t+2]], qv[nz[t+3]]
		for i := range dots {
			dots[i] += (q0*int32(c0[i]) + q1*int32(c1[i])) + (q2*int32(c2[i]) + q3*int32(c3[i]))
		}
	}
	for ; t < len(nz); t++ {
		c, q := col(nz[t]), qv[nz[t]]
		for i := range dots {
			dots[i] += q * int32(c[i])
		}
	}
}
