package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// A project's vectors are also kept, quantised, in a side file next to the
// database (<db>.vectors/p<project>-g<generation>-<model hash>), so that a
// one-shot search maps a few tens of megabytes instead of decoding every
// vector. The file is derived data: written whole under a temporary name
// and renamed, named by the generation it was built from, and rebuilt
// whenever it is missing. Its encoding belongs to the caller.

// VectorFilePath is where the side file of a project's vectors for one
// generation and model lives.
func (db *DB) VectorFilePath(p *Project) string {
	sum := sha256.Sum256([]byte(p.Model))
	return filepath.Join(db.path+".vectors", fmt.Sprintf("p%d-g%d-%s", p.ID, p.Generation, hex.EncodeToString(sum[:6])))
}

// MappedFile is a read-only file mapped into memory (or read whole where
// mapping is not available).
type MappedFile struct {
	Data  []byte
	unmap func() error
}

// Close releases the mapping.
func (m *MappedFile) Close() error {
	if m == nil || m.unmap == nil {
		return nil
	}
	err := m.unmap()
	m.unmap, m.Data = nil, nil
	return err
}

// OpenVectorFile maps the project's side file; os.ErrNotExist when there
// is none for the project's current generation.
func (db *DB) OpenVectorFile(p *Project) (*MappedFile, error) {
	path := db.VectorFilePath(p)
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := mapFile(f)
	if err != nil {
		return nil, fmt.Errorf("map %s: %w", path, err)
	}
	return m, nil
}

// WriteVectorFile writes the project's side file with write (under a
// temporary name, then renamed) and removes the project's files of older
// generations. A read-only database directory is not an error: the search
// then keeps reading vectors from the database.
func (db *DB) WriteVectorFile(p *Project, write func(io.Writer) error) error {
	if db.readOnly {
		return nil
	}
	path := db.VectorFilePath(p)
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		if errors.Is(err, os.ErrPermission) {
			return nil
		}
		return fmt.Errorf("vector file: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		if errors.Is(err, os.ErrPermission) {
			return nil
		}
		return fmt.Errorf("vector file: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", tmp.Name(), err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("vector file: %w", err)
	}
	// Older generations of this project are stale now.
	prefix := fmt.Sprintf("p%d-g", p.ID)
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if n := e.Name(); strings.HasPrefix(n, prefix) && n != filepath.Base(path) {
			_ = os.Remove(filepath.Join(dir, n))
		}
	}
	return nil
}

// VectorsByID calls fn with the stored vector (model) of each of the given
// chunks that has one. The blob is only valid during the call.
func (db *DB) VectorsByID(ctx context.Context, ids []int64, model string, fn func(id int64, blob []byte) error) error {
	const batch = 500
	for lo := 0; lo < len(ids); lo += batch {
		part := ids[lo:min(lo+batch, len(ids))]
		args := make([]any, 0, len(part)+1)
		args = append(args, model)
		for _, id := range part {
			args = append(args, id)
		}
		rows, err := db.sql.QueryContext(ctx, `SELECT c.id, v.vec FROM chunks c
			JOIN vectors v ON v.model = c.model AND v.text_hash = c.text_hash
			WHERE c.model = ? AND c.id IN (`+placeholders(len(part))+`)`, args...)
		if err != nil {
			return db.classify("read vectors", err)
		}
		var blob []byte
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id, &blob); err != nil {
				rows.Close()
				return db.classify("read vectors", err)
			}
			if err := fn(id, blob); err != nil {
				rows.Close()
				return err
			}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return db.classify("read vectors", err)
		}
	}
	return nil
}
