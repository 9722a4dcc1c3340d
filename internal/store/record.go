package store

import (
	"encoding/binary"
	"errors"
)

// This file holds the compact encoding of the per-file records that are
// only ever read whole (pending relations, type facts): a format byte, a
// table of the distinct strings, then the body, where every string is an
// index into the table and every number a varint. A file's rows repeat a
// few strings (a caller's symbol, a type's name) many times.

// recordFormat is the first byte of a record.
const recordFormat = 1

// errRecord is the cause of a record that does not decode.
var errRecord = errors.New("malformed record")

// recordWriter builds one record.
type recordWriter struct {
	index map[string]uint64
	table []string
	body  []byte
}

func newRecordWriter() *recordWriter { return &recordWriter{index: map[string]uint64{}} }

func (w *recordWriter) str(s string) {
	i, ok := w.index[s]
	if !ok {
		i = uint64(len(w.table))
		w.index[s] = i
		w.table = append(w.table, s)
	}
	w.body = binary.AppendUvarint(w.body, i)
}

func (w *recordWriter) uint(x uint64) { w.body = binary.AppendUvarint(w.body, x) }
func (w *recordWriter) int(x int64)   { w.body = binary.AppendVarint(w.body, x) }

// bytes returns the record.
func (w *recordWriter) bytes() []byte {
	size := 1 + binary.MaxVarintLen64 + len(w.body)
	for _, s := range w.table {
		size += binary.MaxVarintLen64 + len(s)
	}
	b := make([]byte, 0, size)
	b = append(b, recordFormat)
	b = binary.AppendUvarint(b, uint64(len(w.table)))
	for _, s := range w.table {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return append(b, w.body...)
}

// recordReader reads one record; the first error sticks and every later
// read returns a zero value.
type recordReader struct {
	b     []byte
	table []string
	err   error
}

// newRecordReader reads the header and string table of b; intern, when
// set, gives the strings one shared copy across records.
func newRecordReader(b []byte, intern func([]byte) string) *recordReader {
	r := &recordReader{}
	if len(b) == 0 || b[0] != recordFormat {
		r.err = errRecord
		return r
	}
	r.b = b[1:]
	n := r.uint()
	if n > uint64(len(r.b)) { // every string takes at least its length byte
		r.err = errRecord
		return r
	}
	r.table = make([]string, 0, n)
	for range n {
		l := r.uint()
		if r.err != nil || l > uint64(len(r.b)) {
			r.err = errRecord
			return r
		}
		if intern != nil {
			r.table = append(r.table, intern(r.b[:l]))
		} else {
			r.table = append(r.table, string(r.b[:l]))
		}
		r.b = r.b[l:]
	}
	return r
}

func (r *recordReader) uint() uint64 {
	if r.err != nil {
		return 0
	}
	x, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errRecord
		return 0
	}
	r.b = r.b[n:]
	return x
}

func (r *recordReader) int() int64 {
	if r.err != nil {
		return 0
	}
	x, n := binary.Varint(r.b)
	if n <= 0 {
		r.err = errRecord
		return 0
	}
	r.b = r.b[n:]
	return x
}

func (r *recordReader) str() string {
	i := r.uint()
	if r.err != nil || i >= uint64(len(r.table)) {
		r.err = errRecord
		return ""
	}
	return r.table[i]
}

// count reads a row count, bounded by the bytes left (each row takes at
// least one).
func (r *recordReader) count() uint64 {
	n := r.uint()
	if n > uint64(len(r.b)) {
		r.err = errRecord
		return 0
	}
	return n
}

// end reports the first error, or one when bytes are left over.
func (r *recordReader) end() error {
	if r.err == nil && len(r.b) != 0 {
		r.err = errRecord
	}
	return r.err
}
