package vecindex

import (
	"encoding/binary"
	"math"

	"github.com/x448/float16"
)

// The BLOB encodings of a stored vector. Vectors are written as half
// floats: a tag byte, then 2 bytes a dimension, little-endian IEEE 754
// binary16 (an odd length). Databases written before hold 4 bytes a
// dimension, little-endian float32 (a length that is a multiple of 4);
// both are read. Half precision keeps 11 significant bits (a relative
// error under 2^-11 per component), far below what ranking by cosine can
// tell apart, and halves the vector cache (with SQLite's 4 KiB pages, three
// 512-dimension vectors fit on a page instead of one).
const halfTag = 'h'

// maxHalf is the largest finite half float; larger components are clamped
// to it rather than turned into infinities.
const maxHalf = 65504

// EncodeVector packs v in the half-float encoding (1 + 2·len(v) bytes). An
// empty vector encodes as an empty BLOB.
func EncodeVector(v []float32) []byte {
	if len(v) == 0 {
		return []byte{}
	}
	b := make([]byte, 1+2*len(v))
	b[0] = halfTag
	for i, x := range v {
		x = max(min(x, maxHalf), -maxHalf)
		binary.LittleEndian.PutUint16(b[1+2*i:], float16.Fromfloat32(x).Bits())
	}
	return b
}

// VectorDims is the number of dimensions a stored BLOB holds in either
// encoding, 0 for an empty or malformed one.
func VectorDims(b []byte) int {
	switch {
	case len(b) == 0:
		return 0
	case len(b)%2 == 1:
		if b[0] != halfTag {
			return 0
		}
		return (len(b) - 1) / 2
	case len(b)%4 == 0:
		return len(b) / 4
	}
	return 0
}

// EncodedLengths are the BLOB lengths of a dims-dimensional vector: the
// half-float encoding, then the float32 one of older databases.
func EncodedLengths(dims int) (half, single int) {
	return 1 + 2*dims, 4 * dims
}

// AppendDecoded appends the components of a stored BLOB (either encoding)
// to dst without allocating per call; a malformed BLOB appends nothing.
func AppendDecoded(dst []float32, b []byte) []float32 {
	n := VectorDims(b)
	if n == 0 {
		return dst
	}
	if len(b)%2 == 1 {
		for i := range n {
			dst = append(dst, float16.Frombits(binary.LittleEndian.Uint16(b[1+2*i:])).Float32())
		}
		return dst
	}
	for i := range n {
		dst = append(dst, math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
	}
	return dst
}

// DecodeVector unpacks a stored BLOB (either encoding). It returns nil for
// an empty or malformed one, which Add skips.
func DecodeVector(b []byte) []float32 {
	n := VectorDims(b)
	if n == 0 {
		return nil
	}
	return AppendDecoded(make([]float32, 0, n), b)
}
