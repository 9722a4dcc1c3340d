package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
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
	// SideVectors is vecindex's quantised vectors, blocked layout, rows in
	// id order (was "q8": rows in the order read; "i8": rows one after
	// another).
	SideVectors = "q8s"
	SideMeta    = "meta"
	// SideLayer is search's file-level layer over SideVectors (one int8
	// centroid per run of a file's rows), rebuilt with it.
	SideLayer = "q8f"
)

// retiredKinds are the kinds a kind replaced: writing the new kind removes
// the project's files (and PostgreSQL rows) of the old ones.
var retiredKinds = map[string][]string{SideVectors: {"i8", "q8"}}

// derivedKinds are the kinds built from a kind's file: writing it removes
// the project's files of those kinds (any generation), which their reader
// then rebuilds from the new one.
var derivedKinds = map[string][]string{SideVectors: {SideLayer}}

// SideFilePath is where a project's side file of one kind lives for its
// current generation and model. On PostgreSQL the "file" is a row of the
// side_files table (one per project and kind, named like the file), so
// that processes on every machine share it; the path then only names it.
func (db *DB) SideFilePath(p *Project, kind string) string {
	if db.pg {
		return "side_files:" + sideFileName(p, kind)
	}
	return filepath.Join(SideDir(db.path), sideFileName(p, kind))
}

func sideFileName(p *Project, kind string) string {
	sum := sha256.Sum256([]byte(p.Model))
	return fmt.Sprintf("p%d-g%d-%s.%s", p.ID, p.Generation, hex.EncodeToString(sum[:6]), kind)
}

// HasSideFile reports whether the project's side file of a kind may exist
// for its current generation and model (false only when it surely does not).
func (db *DB) HasSideFile(ctx context.Context, p *Project, kind string) bool {
	if db.pg {
		var n int
		err := db.sql.QueryRowContext(ctx, "SELECT count(*) FROM side_files WHERE project_id = ? AND kind = ? AND name = ?", p.ID, kind, sideFileName(p, kind)).Scan(&n)
		return err != nil || n > 0
	}
	_, err := os.Stat(db.SideFilePath(p, kind))
	return !errors.Is(err, os.ErrNotExist)
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
		var data []byte
		err := db.sql.QueryRow("SELECT data FROM side_files WHERE project_id = ? AND kind = ? AND name = ?", p.ID, kind, sideFileName(p, kind)).Scan(&data)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, os.ErrNotExist
		}
		if err != nil {
			return nil, db.classify("read side file "+sideFileName(p, kind), err)
		}
		return &MappedFile{Data: data}, nil
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
	if db.readOnly {
		return nil
	}
	if db.pg {
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			return fmt.Errorf("write side file %s: %w", sideFileName(p, kind), err)
		}
		// One row per project and kind: the new generation replaces the old.
		_, err := db.sql.Exec(`INSERT INTO side_files(project_id, kind, name, data) VALUES (?, ?, ?, ?)
			ON CONFLICT (project_id, kind) DO UPDATE SET name = excluded.name, data = excluded.data`,
			p.ID, kind, sideFileName(p, kind), buf.Bytes())
		for _, old := range slices.Concat(retiredKinds[kind], derivedKinds[kind]) {
			if err == nil {
				_, err = db.sql.Exec("DELETE FROM side_files WHERE project_id = ? AND kind = ?", p.ID, old)
			}
		}
		return db.classify("write side file "+sideFileName(p, kind), err)
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
	// Older generations of this project are stale now, and so is every
	// file derived from this kind's.
	prefix := fmt.Sprintf("p%d-g", p.ID)
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		n := e.Name()
		if !strings.HasPrefix(n, prefix) || n == filepath.Base(path) {
			continue
		}
		if ext := strings.TrimPrefix(filepath.Ext(n), "."); ext == kind || slices.Contains(retiredKinds[kind], ext) || slices.Contains(derivedKinds[kind], ext) {
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
