package store

import (
	"context"
	"fmt"

	"codectx/internal/lang"
)

// encodeFacts writes a file's type facts as a record (record.go): their
// count, then per fact its kind, owner, name, type and signature.
func encodeFacts(facts []lang.Fact) []byte {
	w := newRecordWriter()
	w.uint(uint64(len(facts)))
	for i := range facts {
		f := &facts[i]
		w.str(f.Kind)
		w.str(f.Owner)
		w.str(f.Name)
		w.str(f.Type)
		w.str(f.Sig)
	}
	return w.bytes()
}

// decodeFacts appends the facts of a record to out, with fileID set; the
// strings go through intern.
func decodeFacts(b []byte, fileID int64, intern func([]byte) string, out []FactRow) ([]FactRow, error) {
	r := newRecordReader(b, intern)
	n := r.count()
	for range n {
		f := FactRow{FileID: fileID}
		f.Kind, f.Owner, f.Name, f.Type, f.Sig = r.str(), r.str(), r.str(), r.str(), r.str()
		if r.err != nil {
			return out, r.err
		}
		out = append(out, f)
	}
	return out, r.end()
}

// TypeFacts loads every type fact of a project, in file order and, within
// a file, in the order the parser gave them.
func (db *DB) TypeFacts(ctx context.Context, projectID int64) ([]FactRow, error) {
	rows, err := db.sql.QueryContext(ctx, "SELECT file_id, data FROM typefacts_files WHERE project_id = ? ORDER BY file_id", projectID)
	if err != nil {
		return nil, db.classify("read type facts", err)
	}
	defer rows.Close()
	var out []FactRow
	w := words{} // kinds, owners, names and types repeat a lot: one copy of each
	var (
		fileID int64
		data   []byte
	)
	for rows.Next() {
		if err := rows.Scan(&fileID, &data); err != nil {
			return nil, db.classify("read type facts", err)
		}
		if out, err = decodeFacts(data, fileID, func(b []byte) string { return w.of(b) }, out); err != nil {
			return nil, fmt.Errorf("read type facts of file %d: %w: %w", fileID, ErrCorrupt, err)
		}
	}
	return out, db.classify("read type facts", rows.Err())
}
