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

// What search needs of a project (its vectors, quantised, and its chunk
// metadata) is also kept in side files next to the database
// (<db>.vectors/p<project>-g<generation>-<model hash>.<kind>), so that a
// one-shot search maps a few tens of megabytes instead of decoding every
// row. The files are derived data: written whole under a temporary name and
// renamed, named by the generation they were built from, and rebuilt
// whenever missing. Their encodings belong to the caller.

// Side file kinds.
const (
	SideVectors = "i8"
	SideMeta    = "meta"
)

// SideFiles reports whether the backend keeps side files (SQLite does;
// PostgreSQL, shared by processes on many machines, does not).
func (db *DB) SideFiles() bool { return !db.pg }

// SideFilePath is where a project's side file of one kind lives for its
// current generation and model; "" on PostgreSQL, which keeps no side
// files (every process reads the vectors from the server).
func (db *DB) SideFilePath(p *Project, kind string) string {
	if db.pg {
		return ""
	}
	sum := sha256.Sum256([]byte(p.Model))
	return filepath.Join(db.path+".vectors", fmt.Sprintf("p%d-g%d-%s.%s", p.ID, p.Generation, hex.EncodeToString(sum[:6]), kind))
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

// OpenSideFile maps the project's side file of a kind; os.ErrNotExist
// when there is none for the project's current generation.
func (db *DB) OpenSideFile(p *Project, kind string) (*MappedFile, error) {
	if db.pg {
		return nil, os.ErrNotExist
	}
	path := db.SideFilePath(p, kind)
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

// WriteSideFile writes the project's side file of a kind with write
// (under a temporary name, then renamed) and removes the project's files of
// that kind from older generations. A read-only database directory is not an error: the search
// then keeps reading vectors from the database.
func (db *DB) WriteSideFile(p *Project, kind string, write func(io.Writer) error) error {
	if db.readOnly || db.pg {
		return nil
	}
	path := db.SideFilePath(p, kind)
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		if errors.Is(err, os.ErrPermission) {
			return nil
		}
		return fmt.Errorf("side file: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		if errors.Is(err, os.ErrPermission) {
			return nil
		}
		return fmt.Errorf("side file: %w", err)
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
		return fmt.Errorf("side file: %w", err)
	}
	// Older generations of this project are stale now.
	prefix := fmt.Sprintf("p%d-g", p.ID)
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if n := e.Name(); strings.HasPrefix(n, prefix) && strings.HasSuffix(n, "."+kind) && n != filepath.Base(path) {
			_ = os.Remove(filepath.Join(dir, n))
		}
	}
	return nil
}

// VectorsByID calls fn with the stored vector (model) of each of the given
// chunks that has one. The blob is only valid during the call.
func (db *DB) VectorsByID(ctx context.Context, ids []int64, model string, fn func(id int64, blob []byte) error) error {
	const batch = 500
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return db.classify("read vectors", err)
	}
	defer conn.Close()
	for lo := 0; lo < len(ids); lo += batch {
		part := ids[lo:min(lo+batch, len(ids))]
		args := make([]any, 0, len(part)+1)
		args = append(args, model)
		for _, id := range part {
			args = append(args, id)
		}
		rows, err := conn.QueryContext(ctx, `SELECT c.id, v.vec FROM chunks c
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
