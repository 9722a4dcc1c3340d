package search

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"codectx/internal/store"
)

// The snapshot's chunk metadata and file hashes are kept in a side file per
// generation (store.SideMeta), so that a one-shot search decodes a compact
// file instead of reading every chunk row. Encoding (all integers
// varints): magic; a string table (count, then length and bytes of each
// distinct string); the chunks (count, then per chunk the id's delta from
// the previous one, the file id, the string indexes of path, lang, kind,
// name, symbol, short and container, start and end line); the files
// (count, then id and the string index of the hash).

const metaMagic = "CXSM\x01"

// encodeMeta writes chunks (ordered by id) and file hashes.
func encodeMeta(w io.Writer, chunks []store.ChunkMeta, fileSHA map[int64]string) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	idx := map[string]uint64{}
	var table []string
	str := func(s string) uint64 {
		i, ok := idx[s]
		if !ok {
			i = uint64(len(table))
			idx[s] = i
			table = append(table, s)
		}
		return i
	}
	var body []byte
	u := func(v uint64) { body = binary.AppendUvarint(body, v) }
	u(uint64(len(chunks)))
	var prev int64
	for i := range chunks {
		c := &chunks[i]
		body = binary.AppendVarint(body, c.ID-prev)
		prev = c.ID
		u(uint64(c.FileID))
		for _, s := range []string{c.Path, c.Lang, c.Kind, c.Name, c.Symbol, c.Short, c.Container} {
			u(str(s))
		}
		u(uint64(max(c.StartLine, 0)))
		u(uint64(max(c.EndLine, 0)))
	}
	u(uint64(len(fileSHA)))
	for id, sha := range fileSHA {
		u(uint64(id))
		u(str(sha))
	}
	head := []byte(metaMagic)
	head = binary.AppendUvarint(head, uint64(len(table)))
	for _, s := range table {
		head = binary.AppendUvarint(head, uint64(len(s)))
	}
	if _, err := bw.Write(head); err != nil {
		return err
	}
	for _, s := range table {
		if _, err := bw.WriteString(s); err != nil {
			return err
		}
	}
	if _, err := bw.Write(body); err != nil {
		return err
	}
	return bw.Flush()
}

var errBadMeta = errors.New("malformed snapshot file")

// decodeMeta reads encodeMeta's output. The strings share one allocation.
func decodeMeta(b []byte) ([]store.ChunkMeta, map[int64]string, error) {
	if len(b) < len(metaMagic) || string(b[:len(metaMagic)]) != metaMagic {
		return nil, nil, errBadMeta
	}
	b = b[len(metaMagic):]
	var bad bool
	u := func() uint64 {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			bad = true
			return 0
		}
		b = b[n:]
		return v
	}
	nstr := u()
	if bad || nstr > uint64(len(b)) {
		return nil, nil, errBadMeta
	}
	lens := make([]uint64, nstr)
	var total uint64
	for i := range lens {
		lens[i] = u()
		total += lens[i]
		if bad || total > uint64(len(b)) {
			return nil, nil, errBadMeta
		}
	}
	all := string(b[:total])
	b = b[total:]
	table := make([]string, nstr)
	var off uint64
	for i, l := range lens {
		table[i] = all[off : off+l]
		off += l
	}
	str := func() string {
		i := u()
		if i >= nstr {
			bad = true
			return ""
		}
		return table[i]
	}
	n := u()
	if bad || n > uint64(len(b)) {
		return nil, nil, errBadMeta
	}
	chunks := make([]store.ChunkMeta, n)
	var id int64
	for i := range chunks {
		d, k := binary.Varint(b)
		if k <= 0 {
			return nil, nil, errBadMeta
		}
		b = b[k:]
		id += d
		c := &chunks[i]
		c.ID = id
		c.FileID = int64(u())
		c.Path, c.Lang, c.Kind, c.Name, c.Symbol, c.Short, c.Container = str(), str(), str(), str(), str(), str(), str()
		c.StartLine, c.EndLine = int(u()), int(u())
		if bad {
			return nil, nil, errBadMeta
		}
	}
	nf := u()
	if bad || nf > uint64(len(b)) {
		return nil, nil, errBadMeta
	}
	files := make(map[int64]string, nf)
	for range nf {
		id := int64(u())
		files[id] = str()
	}
	if bad || len(b) != 0 {
		return nil, nil, fmt.Errorf("%w: %d trailing bytes", errBadMeta, len(b))
	}
	return chunks, files, nil
}
