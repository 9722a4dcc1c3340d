package vecindex

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
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

// quantMagic starts the encoding written by WriteQuantized: version 3,
// the blocked layout with the rows in ascending id order (version 2 kept
// the order they were added in, version 1 stored the rows one after
// another). Ordered rows put rows of neighbouring ids — a file's chunks —
// next to each other, so a scan of some ranges of rows (TopKRows) reads a
// few contiguous runs of each column instead of every block.
const quantMagic = "CXQ8\x03\x00\x00\x00"

// quantHeader is the magic, the dimension and the row count (8 bytes each).
const quantHeader = 24

// WriteQuantized writes m's rows as int8 with per-row scales, in ascending
// id order (m's ids must be distinct): a 24-byte header, the ids (int64),
// the scales (float32), then the int8 values in blocks of blockRows rows
// (the last one padded with zeros), each block column by column. Every
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
	if q.rows == nil { // the dimension was learned from this vector
		q.rows = make([]byte, 0, q.dim*max(cap(q.ids), 1))
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

// Write writes the encoding: the rows in ascending id order (an error when
// two rows share an id), transposed one block at a time.
func (q *Quantizer) Write(w io.Writer) error {
	n, d := len(q.ids), max(q.dim, 1)
	order := make([]int32, n) // order[i] is the added row written i-th
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return cmp.Compare(q.ids[a], q.ids[b]) })
	hdr := make([]byte, quantHeader, quantHeader+12*n)
	copy(hdr, quantMagic)
	binary.LittleEndian.PutUint64(hdr[8:], uint64(d))
	binary.LittleEndian.PutUint64(hdr[16:], uint64(n))
	for i, r := range order {
		if i > 0 && q.ids[r] == q.ids[order[i-1]] {
			return fmt.Errorf("vecindex: id %d added twice", q.ids[r])
		}
		hdr = binary.LittleEndian.AppendUint64(hdr, uint64(q.ids[r]))
	}
	for _, r := range order {
		hdr = binary.LittleEndian.AppendUint32(hdr, math.Float32bits(q.scales[r]))
	}
	if _, err := w.Write(hdr); err != nil {
		return err
	}
	block := make([]byte, blockRows*d)
	for start := 0; start < n; start += blockRows {
		clear(block)
		for r := range min(blockRows, n-start) {
			src := int(order[start+r])
			for j, x := range q.rows[src*d : (src+1)*d] {
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
		if i > 0 && q.ids[i] <= q.ids[i-1] {
			return nil, errors.New("vecindex: quantized matrix ids not ascending")
		}
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
	from, to = max(from, 0), min(to, q.Blocks())
	if from >= to {
		return nil
	}
	return q.TopKRows(query, k, []RowRange{{From: from * blockRows, To: min(to*blockRows, len(q.ids))}})
}

// RowRange is the rows From … To-1 of a matrix.
type RowRange struct{ From, To int }

// TopKRows is TopK over the rows of ranges only (ascending, disjoint; rows
// past the matrix are ignored). A row scores as in TopK, so the hits of
// disjoint sets of ranges merged by MergeHits are the hits of their union.
// Each range reads, per non-zero dimension of the query, one contiguous run
// of the column inside each block it touches.
func (q *Quantized) TopKRows(query []float32, k int, ranges []RowRange) []Hit {
	n, d := len(q.ids), q.dim
	if k <= 0 || n == 0 || len(query) != d || len(ranges) == 0 {
		return nil
	}
	qv, qs, nz := quantizeQueryNZ(query)
	if qv == nil {
		return nil
	}
	k = min(k, n)
	heap := make([]Hit, 0, k)
	var dots [blockRows]int32
	var segs []span // the current block's parts of the ranges
	blk := -1
	flush := func() {
		if len(segs) == 0 {
			return
		}
		blockDots(&dots, q.data[blk*blockRows*d:(blk+1)*blockRows*d], qv, nz, segs)
		base := blk * blockRows
		for _, sg := range segs {
			for i := sg.lo; i < sg.hi; i++ {
				heap = keep(heap, Hit{ID: q.ids[base+i], Score: float32(dots[i]) * qs * q.scales[base+i]}, k)
			}
		}
		segs = segs[:0]
	}
	for _, r := range ranges {
		for from, to := max(r.From, 0), min(r.To, n); from < to; {
			if b := from / blockRows; b != blk {
				flush()
				blk = b
			}
			base := blk * blockRows
			lo, hi := from-base, min(to-base, blockRows)
			segs = append(segs, span{lo, hi})
			from = base + hi
		}
	}
	flush()
	SortHits(heap)
	return heap
}

// span is the rows lo … hi-1 of one block.
type span struct{ lo, hi int }

// Scores returns every row's approximate score with query (TopK's score),
// in row order; nil when query has another dimension or is zero. For a
// caller that takes a large share of the rows, which a heap of the best
// would mostly take in.
func (q *Quantized) Scores(query []float32) []float32 {
	n, d := len(q.ids), q.dim
	if n == 0 || len(query) != d {
		return nil
	}
	qv, qs, nz := quantizeQueryNZ(query)
	if qv == nil {
		return nil
	}
	out := make([]float32, n)
	var dots [blockRows]int32
	for blk := range q.Blocks() {
		base := blk * blockRows
		rows := min(blockRows, n-base)
		blockDots(&dots, q.data[blk*blockRows*d:(blk+1)*blockRows*d], qv, nz, []span{{0, rows}})
		for i := range rows {
			out[base+i] = float32(dots[i]) * qs * q.scales[base+i]
		}
	}
	return out
}

// quantizeQueryNZ is quantizeQuery with the indexes of its non-zero
// dimensions.
func quantizeQueryNZ(query []float32) ([]int32, float32, []int32) {
	qv, qs := quantizeQuery(query)
	var nz []int32
	for j, x := range qv {
		if x != 0 {
			nz = append(nz, int32(j))
		}
	}
	return qv, qs, nz
}

// ID is row i's id (0 <= i < Len()); ids ascend with the row.
func (q *Quantized) ID(i int) int64 { return q.ids[i] }

// Row is the row holding id, and whether there is one.
func (q *Quantized) Row(id int64) (int, bool) {
	return slices.BinarySearch(q.ids, id)
}

// Centroids returns, for each run of rows starts[i] … starts[i+1]-1 (the
// last run ends at Len(); starts ascending, in range), the direction of the
// sum of the runs' rows (their int8 values times their scales), L2-
// normalised, as a quantizer row whose id is starts[i]. A run whose rows
// sum to zero gets a zero row.
func (q *Quantized) Centroids(starts []int) (*Quantizer, error) {
	n, d := len(q.ids), q.dim
	out := NewQuantizer(d, len(starts))
	sum := make([]float64, d)
	vec := make([]float32, d)
	for i, from := range starts {
		to := n
		if i+1 < len(starts) {
			to = starts[i+1]
		}
		if from < 0 || from >= to || to > n {
			return nil, fmt.Errorf("vecindex: run %d of rows %d … %d outside 0 … %d or empty", i, from, to, n)
		}
		clear(sum)
		for r := from; r < to; r++ {
			block := q.data[(r/blockRows)*blockRows*d:]
			s := float64(q.scales[r])
			for j := range d {
				sum[j] += s * float64(block[j*blockRows+r%blockRows])
			}
		}
		var norm float64
		for _, x := range sum {
			norm += x * x
		}
		norm = math.Sqrt(norm)
		for j, x := range sum {
			if norm > 0 {
				x /= norm
			}
			vec[j] = float32(x)
		}
		if err := out.Add(int64(from), vec); err != nil {
			return nil, err
		}
	}
	return out, nil
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

// blockDots sets dots over spans (disjoint) to the integer dot products
// of one block's rows with qv over the dimensions nz, four columns per pass
// (as blockScores). Each pass reads the spans of its columns in order, so
// the reads of a block's scattered rows still move forward through memory.
func blockDots(dots *[blockRows]int32, block []int8, qv []int32, nz []int32, spans []span) {
	for _, sp := range spans {
		clear(dots[sp.lo:sp.hi])
	}
	col := func(j int32) *[blockRows]int8 {
		return (*[blockRows]int8)(block[int(j)*blockRows : int(j+1)*blockRows])
	}
	t := 0
	for ; t+4 <= len(nz); t += 4 {
		c0, c1, c2, c3 := col(nz[t]), col(nz[t+1]), col(nz[t+2]), col(nz[t+3])
		q0, q1, q2, q3 := qv[nz[t]], qv[nz[t+1]], qv[nz[t+2]], qv[nz[t+3]]
		for _, sp := range spans {
			out := dots[sp.lo:sp.hi]
			a0, a1, a2, a3 := c0[sp.lo:sp.hi], c1[sp.lo:sp.hi], c2[sp.lo:sp.hi], c3[sp.lo:sp.hi]
			a0, a1, a2, a3 = a0[:len(out)], a1[:len(out)], a2[:len(out)], a3[:len(out)]
			for i := range out {
				out[i] += (q0*int32(a0[i]) + q1*int32(a1[i])) + (q2*int32(a2[i]) + q3*int32(a3[i]))
			}
		}
	}
	for ; t < len(nz); t++ {
		c, q := col(nz[t]), qv[nz[t]]
		for _, sp := range spans {
			out := dots[sp.lo:sp.hi]
			a := c[sp.lo:sp.hi]
			a = a[:len(out)]
			for i := range out {
				out[i] += q * int32(a[i])
			}
		}
	}
}
