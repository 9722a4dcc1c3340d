// Package compress is a fixture for context assembly tests.
package compress

// Compressor holds the settings of a compression run.
type Compressor struct {
	level int
}

// CompressBuffer compresses buf block by block.
func (c *Compressor) CompressBuffer(buf []byte) []byte {
	blocks := splitBlocks(buf)
	out := compressBlocks(blocks, c.level)
	validateInput(buf)
	compressBufferBlocksStats(len(out))
	return out
}

// splitBlocks cuts a buffer into blocks of 64 bytes.
func splitBlocks(buf []byte) [][]byte {
	var out [][]byte
	for len(buf) > 64 {
		out = append(out, buf[:64])
		buf = buf[64:]
	}
	return append(out, buf)
}

// compressBlocks compresses every block and joins the results.
func compressBlocks(blocks [][]byte, level int) []byte {
	var out []byte
	for _, b := range blocks {
		out = append(out, compressBlock(b, level)...)
	}
	return out
}

// compressBlock compresses one block.
func compressBlock(b []byte, level int) []byte {
	if level == 0 {
		return b
	}
	return b[:len(b)/2]
}

func validateInput(in []byte) {
	if len(in) == 0 {
		panic("empty input")
	}
}

// compressBufferBlocksStats records sizes; everything calls it.
func compressBufferBlocksStats(n int) {
	statsTotal += n
}

var statsTotal int
