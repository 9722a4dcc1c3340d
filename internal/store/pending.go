package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
)

// This file holds the relations of written files that resolution has not
// turned into rows yet. WriteBatch stores a file's relations (imports
// aside) as one compact record of relations_pending, in the transaction
// that writes the file; Resolve decodes them, resolves each edge and
// inserts the finished rows, deleting the pending record in the same
// transaction (InsertResolved). Each relation is so written once, with
// its target, instead of being inserted, read back and updated. A run
// killed between the two leaves pending records, which the next run's
// resolution (always a full one after an unfinished run) turns into rows;
// until then the graph lacks those files' edges, as it lacked their
// targets before.

// PendingEdge is a relation written by WriteBatch that resolution has not
// stored as a row yet: ID, DstChunk, Resolution and Detail are empty.
type PendingEdge struct {
	EdgeRow
	SrcSymbol string
}

// ResolvedRelation is a pending relation with its resolution, as it is
// inserted.
type ResolvedRelation struct {
	PendingEdge
	DstChunk   int64 // 0: none
	Resolution string
	Detail     string
}

// pendingFormat is the first byte of a pending record.
const pendingFormat = 1

// errPendingRecord is the cause of a pending record that does not decode.
var errPendingRecord = errors.New("malformed pending relations record")

// pendingRel is one relation as WriteBatch has it.
type pendingRel struct {
	kind, srcSymbol, target, qualifier, recv string
	srcChunk                                 int64
	line                                     int
}

// encodePending writes relations as: the format byte, a table of distinct
// strings, then per relation its kind, source symbol, target, qualifier
// and receiver as indexes into the table, its source chunk and its line.
// The table holds each string once (a file's calls repeat their source
// symbol and many targets).
func encodePending(rels []pendingRel) []byte {
	index := map[string]uint64{}
	var table []string
	ref := func(s string) uint64 {
		if i, ok := index[s]; ok {
			return i
		}
		i := uint64(len(table))
		index[s] = i
		table = append(table, s)
		return i
	}
	refs := make([]uint64, 0, 5*len(rels))
	for i := range rels {
		r := &rels[i]
		refs = append(refs, ref(r.kind), ref(r.srcSymbol), ref(r.target), ref(r.qualifier), ref(r.recv))
	}
	size := 1 + binary.MaxVarintLen64
	for _, s := range table {
		size += binary.MaxVarintLen64 + len(s)
	}
	size += binary.MaxVarintLen64 + len(rels)*(5*2+2*binary.MaxVarintLen64)
	b := make([]byte, 0, size)
	b = append(b, pendingFormat)
	b = binary.AppendUvarint(b, uint64(len(table)))
	for _, s := range table {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	b = binary.AppendUvarint(b, uint64(len(rels)))
	for i := range rels {
		for _, x := range refs[5*i : 5*i+5] {
			b = binary.AppendUvarint(b, x)
		}
		b = binary.AppendVarint(b, rels[i].srcChunk)
		b = binary.AppendVarint(b, int64(rels[i].line))
	}
	return b
}

// pendingReader reads the fields of a record.
type pendingReader struct {
	b   []byte
	err error
}

func (r *pendingReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	x, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errPendingRecord
		return 0
	}
	r.b = r.b[n:]
	return x
}

func (r *pendingReader) varint() int64 {
	if r.err != nil {
		return 0
	}
	x, n := binary.Varint(r.b)
	if n <= 0 {
		r.err = errPendingRecord
		return 0
	}
	r.b = r.b[n:]
	return x
}

// decodePending appends the relations of a record to out, with fileID set;
// a record that does not decode is an error (never a panic).
func decodePending(b []byte, fileID int64, out []PendingEdge) ([]PendingEdge, error) {
	if len(b) == 0 || b[0] != pendingFormat {
		return out, errPendingRecord
	}
	r := &pendingReader{b: b[1:]}
	n := r.uvarint()
	if n > uint64(len(r.b)) { // every string takes at least its length byte
		return out, errPendingRecord
	}
	table := make([]string, 0, n)
	for range n {
		l := r.uvarint()
		if r.err != nil || l > uint64(len(r.b)) {
			return out, errPendingRecord
		}
		table = append(table, string(r.b[:l]))
		r.b = r.b[l:]
	}
	str := func() string {
		i := r.uvarint()
		if r.err != nil || i >= uint64(len(table)) {
			r.err = errPendingRecord
			return ""
		}
		return table[i]
	}
	count := r.uvarint()
	if count > uint64(len(r.b)) {
		return out, errPendingRecord
	}
	for range count {
		var e PendingEdge
		e.FileID = fileID
		e.Kind, e.SrcSymbol, e.Target, e.Qualifier, e.Recv = str(), str(), str(), str(), str()
		e.SrcChunk = r.varint()
		e.Line = int(r.varint())
		if r.err != nil {
			return out, r.err
		}
		out = append(out, e)
	}
	if len(r.b) != 0 {
		return out, errPendingRecord
	}
	return out, nil
}

// ForEachPendingFile calls fn with the pending relations of each file of a
// project that has some, in file id order (the order files were first
// written in). The slice passed to fn is reused between calls.
func (db *DB) ForEachPendingFile(ctx context.Context, projectID int64, fn func(fileID int64, edges []PendingEdge) error) error {
	rows, err := db.sql.QueryContext(ctx, "SELECT file_id, data FROM relations_pending WHERE project_id = ? ORDER BY file_id", projectID)
	if err != nil {
		return db.classify("read pending relations", err)
	}
	defer rows.Close()
	var (
		fileID int64
		data   []byte
		edges  []PendingEdge
	)
	for rows.Next() {
		if err := rows.Scan(&fileID, &data); err != nil {
			return db.classify("read pending relations", err)
		}
		if edges, err = decodePending(data, fileID, edges[:0]); err != nil {
			return fmt.Errorf("read pending relations of file %d: %w: %w", fileID, ErrCorrupt, err)
		}
		if err := fn(fileID, edges); err != nil {
			return err
		}
	}
	return db.classify("read pending relations", rows.Err())
}

// InsertResolved inserts resolved relations and deletes the pending
// records of fileIDs, in one transaction: the relations must be all those
// of these files.
func (db *DB) InsertResolved(ctx context.Context, projectID int64, fileIDs []int64, rels []ResolvedRelation) error {
	return db.inTx(ctx, "store resolved relations", func(tx *sql.Tx) error {
		b := newBulk(tx, "INSERT INTO relations(project_id, file_id, kind, src_chunk, src_symbol, target, qualifier, line, recv, dst_chunk, resolution, detail)", 12)
		for i := range rels {
			r := &rels[i]
			var src, dst any
			if r.SrcChunk != 0 {
				src = r.SrcChunk
			}
			if r.DstChunk != 0 {
				dst = r.DstChunk
			}
			if err := b.add(ctx, projectID, r.FileID, r.Kind, src, r.SrcSymbol, r.Target, r.Qualifier, r.Line, r.Recv, dst, r.Resolution, r.Detail); err != nil {
				return err
			}
		}
		if err := b.flush(ctx); err != nil {
			return err
		}
		for start := 0; start < len(fileIDs); start += 400 {
			end := min(start+400, len(fileIDs))
			if _, err := tx.ExecContext(ctx, "DELETE FROM relations_pending WHERE file_id IN ("+placeholders(end-start)+")", int64Args(fileIDs[start:end])...); err != nil {
				return err
			}
		}
		return nil
	})
}
