package store

import (
	"context"
	"database/sql"
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

// pendingRel is one relation as WriteBatch has it.
type pendingRel struct {
	kind, srcSymbol, target, qualifier, recv string
	srcChunk                                 int64
	line                                     int
}

// encodePending writes relations as a record (record.go): their count,
// then per relation its kind, source symbol, target, qualifier, receiver,
// source chunk and line.
func encodePending(rels []pendingRel) []byte {
	w := newRecordWriter()
	w.uint(uint64(len(rels)))
	for i := range rels {
		r := &rels[i]
		w.str(r.kind)
		w.str(r.srcSymbol)
		w.str(r.target)
		w.str(r.qualifier)
		w.str(r.recv)
		w.int(r.srcChunk)
		w.int(int64(r.line))
	}
	return w.bytes()
}

// decodePending appends the relations of a record to out, with fileID set;
// a record that does not decode is an error (never a panic).
func decodePending(b []byte, fileID int64, out []PendingEdge) ([]PendingEdge, error) {
	r := newRecordReader(b, nil)
	n := r.count()
	for range n {
		var e PendingEdge
		e.FileID = fileID
		e.Kind, e.SrcSymbol, e.Target, e.Qualifier, e.Recv = r.str(), r.str(), r.str(), r.str(), r.str()
		e.SrcChunk = r.int()
		e.Line = int(r.int())
		if r.err != nil {
			return out, r.err
		}
		out = append(out, e)
	}
	return out, r.end()
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
			if err := b.add(ctx, projectID, r.FileID, r.Kind, chunkRef(r.SrcChunk), r.SrcSymbol, r.Target, r.Qualifier, r.Line, r.Recv, chunkRef(r.DstChunk), r.Resolution, r.Detail); err != nil {
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
