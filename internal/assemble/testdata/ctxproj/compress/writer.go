package compress

import "io"

// WriteCompressedBuffer compresses buf and writes the result to w.
func WriteCompressedBuffer(w io.Writer, buf []byte) error {
	c := &Compressor{level: 1}
	_, err := w.Write(c.CompressBuffer(buf))
	return err
}

// ArchiveBuffer stores a buffer in the archive.
func ArchiveBuffer(w io.Writer, buf []byte) error {
	return WriteCompressedBuffer(w, buf)
}
