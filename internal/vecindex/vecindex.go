// Package vecindex is the in-memory semantic index: a float32 matrix of
// pre-normalised vectors (stored in column blocks) with exact top-K search
// by dot product over the query's non-zero dimensions; an int8-quantised
// read-only matrix in the same column blocks, rows in id order, for
// approximate top-K over bytes the caller provides (e.g. a mapped file),
// over all its rows or some ranges of them, and the normalised centroids
// of runs of its rows; and the little-endian encodings of both (the
// store's vector BLOBs: half floats, float32 read from older databases;
// the quantised matrix).
//
// It must not normalise the vectors it is given (only the centroids it
// derives are unit vectors), persist, or know about SQL, files or
// embedders; it spawns no goroutines. A Matrix is not safe for concurrent
// Add; concurrent TopK calls are safe when no Add runs at the same time.
package vecindex

import (
	"fmt"
	"slices"
)

// Matrix holds rows of Dim float32 values with one ID per row. The rows
// are stored in blocks of blockRows, column by column inside a block
// (dimension j of the block's rows is one contiguous run), so that a query
// with few non-zero dimensions — the built-in embedder's short questions
// touch about a tenth of them — reads only those columns, and a dense one
// adds four columns per pass over a block's scores.
type Matrix struct {
	dim  int
	data []float32 // whole blocks of blockRows×dim values; rows past len(ids) are zero
	ids  []int64
}

// blockRows is the number of rows of a block: its scores (4 KiB) stay in
// the first-level cache while the block's columns stream through.
const blockRows = 1024

// fitDim takes the dimension from the first non-empty vector and checks
// vec against it: skip is true for an empty vec (nothing to add), and a vec
// of another dimension is an error.
func fitDim(dim *int, id int64, vec []float32) (skip bool, err error) {
	if len(vec) == 0 {
		return true, nil
	}
	if *dim == 0 {
		*dim = len(vec)
	}
	if len(vec) != *dim {
		return false, fmt.Errorf("vecindex: vector for id %d has %d dimensions, matrix has %d", id, len(vec), *dim)
	}
	return false, nil
}

// NewMatrix returns an empty matrix for vectors of dim values with room for
// capacity rows. dim <= 0 means the dimension is set by the first non-empty
// Add (useful when the embedder learns it from its first response).
func NewMatrix(dim int, capacity int) *Matrix {
	dim = max(dim, 0)
	capacity = max(capacity, 0)
	m := &Matrix{dim: dim, ids: make([]int64, 0, capacity)}
	if dim > 0 {
		m.data = make([]float32, 0, dim*blocksFor(capacity)*blockRows)
	}
	return m
}

func blocksFor(rows int) int { return (rows + blockRows - 1) / blockRows }

// Add appends vec (copied) under id. A zero-length vec is skipped and
// returns nil; a vec of another dimension is an error. Add does not check
// for duplicate IDs.
func (m *Matrix) Add(id int64, vec []float32) error {
	if skip, err := fitDim(&m.dim, id, vec); skip || err != nil {
		return err
	}
	i := len(m.ids)
	if i%blockRows == 0 {
		m.data = append(m.data, make([]float32, m.dim*blockRows)...)
	}
	base := (i / blockRows) * m.dim * blockRows
	pos := i % blockRows
	for j, x := range vec {
		m.data[base+j*blockRows+pos] = x
	}
	m.ids = append(m.ids, id)
	return nil
}

// ID is row i's id (0 <= i < Len()).
func (m *Matrix) ID(i int) int64 { return m.ids[i] }

// DotsF64 returns the inner products of query with the given rows, each
// summed in float64 over the dimensions in ascending order, reading only
// the query's non-zero dimensions: the products of the others are zeros,
// which leave such a sum unchanged. len(query) must be Dim().
func (m *Matrix) DotsF64(query []float32, rows []int) []float64 {
	out := make([]float64, len(rows))
	nz := make([]int, 0, len(query))
	for j, x := range query {
		if x != 0 {
			nz = append(nz, j)
		}
	}
	for k, i := range rows {
		base := (i / blockRows) * m.dim * blockRows
		pos := i % blockRows
		var s float64
		for _, j := range nz {
			s += float64(query[j]) * float64(m.data[base+j*blockRows+pos])
		}
		out[k] = s
	}
	return out
}

// Row appends row i's values to dst (0 <= i < Len()).
func (m *Matrix) Row(dst []float32, i int) []float32 {
	base := (i / blockRows) * m.dim * blockRows
	pos := i % blockRows
	for j := 0; j < m.dim; j++ {
		dst = append(dst, m.data[base+j*blockRows+pos])
	}
	return dst
}

// Len is the number of rows.
func (m *Matrix) Len() int { return len(m.ids) }

// Dim is the vector dimension, 0 while unknown.
func (m *Matrix) Dim() int { return m.dim }

// Hit is one search result.
type Hit struct {
	ID    int64
	Score float32
}

// better orders hits: higher score first, then lower ID.
func better(a, b Hit) bool {
	return a.Score > b.Score || a.Score == b.Score && a.ID < b.ID
}

// TopK returns the k rows with the highest dot product with query, sorted
// by score descending then ID ascending, so equal scores come out the same
// way every time. It returns nil when k <= 0, the matrix is empty, or query
// has the wrong dimension. Only the query's non-zero dimensions are read;
// rows scoring NaN on them are skipped. A row's score does not depend on
// the other rows, so the same row and query score the same in any matrix.
func (m *Matrix) TopK(query []float32, k int) []Hit {
	return m.TopKBlocks(query, k, 0, m.Blocks())
}

// Blocks is the number of row blocks (TopKBlocks's unit of work).
func (m *Matrix) Blocks() int { return blocksFor(len(m.ids)) }

// TopKBlocks is TopK over the rows of blocks from … to-1 only; the hits of
// disjoint ranges merged by MergeHits are TopK's hits.
func (m *Matrix) TopKBlocks(query []float32, k, from, to int) []Hit {
	n := len(m.ids)
	d := m.dim
	from, to = max(from, 0), min(to, m.Blocks())
	if k <= 0 || n == 0 || len(query) != d || from >= to {
		return nil
	}
	k = min(k, n)
	nz := make([]int32, 0, d)
	for j, x := range query {
		if x != 0 {
			nz = append(nz, int32(j))
		}
	}
	heap := make([]Hit, 0, k) // min-heap: heap[0] is the worst kept hit
	var scores [blockRows]float32
	for b := from; b < to; b++ {
		blockScores(&scores, m.data[b*d*blockRows:(b+1)*d*blockRows], query, nz)
		rows := min(blockRows, n-b*blockRows)
		for i, id := range m.ids[b*blockRows : b*blockRows+rows] {
			s := scores[i]
			if s != s { // NaN
				continue
			}
			heap = keep(heap, Hit{ID: id, Score: s}, k)
		}
	}
	SortHits(heap)
	return heap
}

// keep adds h to heap, a min-heap of the best hits so far (the worst at
// the root) holding at most k.
func keep(heap []Hit, h Hit, k int) []Hit {
	if len(heap) < k {
		heap = append(heap, h)
		siftUp(heap, len(heap)-1)
		return heap
	}
	if better(h, heap[0]) {
		heap[0] = h
		siftDown(heap, 0)
	}
	return heap
}

// blockScores sets scores to the dot products of one block's rows with
// query over the dimensions nz (the query's non-zero ones), four columns
// per pass.
func blockScores(scores *[blockRows]float32, block []float32, query []float32, nz []int32) {
	clear(scores[:])
	col := func(j int32) *[blockRows]float32 {
		return (*[blockRows]float32)(block[int(j)*blockRows : int(j+1)*blockRows])
	}
	t := 0
	for ; t+4 <= len(nz); t += 4 {
		c0, c1, c2, c3 := col(nz[t]), col(nz[t+1]), col(nz[t+2]), col(nz[t+3])
		q0, q1, q2, q3 := query[nz[t]], query[nz[t+1]], query[nz[t+2]], query[nz[t+3]]
		for i := range scores {
			scores[i] += (q0*c0[i] + q1*c1[i]) + (q2*c2[i] + q3*c3[i])
		}
	}
	for ; t < len(nz); t++ {
		c, q := col(nz[t]), query[nz[t]]
		for i := range scores {
			scores[i] += q * c[i]
		}
	}
}

// SortHits orders hits as TopK returns them: score descending, then ID
// ascending.
func SortHits(h []Hit) {
	slices.SortFunc(h, func(a, b Hit) int {
		switch {
		case better(a, b):
			return -1
		case better(b, a):
			return 1
		}
		return 0
	})
}

// Dot is the inner product of a and b (len(b) >= len(a)).
func Dot(a, b []float32) float32 { return dot(a, b) }

func siftUp(h []Hit, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !better(h[p], h[i]) {
			break
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

func siftDown(h []Hit, i int) {
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		w := l // the worse child
		if r := l + 1; r < n && better(h[l], h[r]) {
			w = r
		}
		if !better(h[i], h[w]) {
			return
		}
		h[i], h[w] = h[w], h[i]
		i = w
	}
}

// dot is the inner product of a and b (len(b) >= len(a)), unrolled 8-way
// into 4 independent accumulators.
func dot(a, b []float32) float32 {
	n := len(a)
	b = b[:n]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+8 <= n; i += 8 {
		x := (*[8]float32)(a[i : i+8])
		y := (*[8]float32)(b[i : i+8])
		s0 += x[0]*y[0] + x[4]*y[4]
		s1 += x[1]*y[1] + x[5]*y[5]
		s2 += x[2]*y[2] + x[6]*y[6]
		s3 += x[3]*y[3] + x[7]*y[7]
	}
	for ; i < n; i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}
