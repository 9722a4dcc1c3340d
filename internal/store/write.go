package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"codectx/internal/lang"
	"codectx/internal/vecindex"
)

// Project is one indexed root.
type Project struct {
	ID         int64
	Root       string
	Model      string
	IndexedAt  int64 // Unix seconds of the last completed run, 0 if none
	Dirty      bool  // a run wrote rows but did not finish resolving relations
	Generation int64 // bumped by every write; readers use it to invalidate caches
}

// ErrNoProject means the root has never been indexed into this database.
var ErrNoProject = errors.New("project is not indexed")

// Project returns the project for root, or ErrNoProject.
func (db *DB) Project(ctx context.Context, root string) (*Project, error) {
	p := &Project{Root: root}
	var dirty int
	err := db.sql.QueryRowContext(ctx, "SELECT id, model, indexed_at, dirty, generation FROM projects WHERE root = ?", root).
		Scan(&p.ID, &p.Model, &p.IndexedAt, &dirty, &p.Generation)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNoProject
	}
	if err != nil {
		return nil, db.classify("read project", err)
	}
	p.Dirty = dirty != 0
	return p, nil
}

// EnsureProject returns the project for root, creating its row when missing.
func (db *DB) EnsureProject(ctx context.Context, root string) (*Project, error) {
	if _, err := db.sql.ExecContext(ctx, "INSERT INTO projects(root) VALUES (?) ON CONFLICT(root) DO NOTHING", root); err != nil {
		return nil, db.classify("create project", err)
	}
	return db.Project(ctx, root)
}

// DeleteProject removes every indexed row of a project (files, chunks, FTS
// rows, relations) and resets it; cached vectors and feedback stay.
func (db *DB) DeleteProject(ctx context.Context, id int64) error {
	return db.inTx(ctx, "delete project", func(tx *sql.Tx) error {
		if err := db.ftsDelete(ctx, tx, id, "SELECT id FROM chunks WHERE project_id = ?", id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM relations WHERE project_id = ?", id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM relations_pending WHERE project_id = ?", id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM typefacts_files WHERE project_id = ?", id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM chunks WHERE project_id = ?", id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM files WHERE project_id = ?", id); err != nil {
			return err
		}
		// The project row stays (its feedback survives a rebuild); it is reset.
		_, err := tx.ExecContext(ctx, "UPDATE projects SET model = '', indexed_at = 0, dirty = 0, generation = generation + 1 WHERE id = ?", id)
		return err
	})
}

// FinishRun records a completed run: model, time, and clears the dirty flag.
// The generation moves only when the run (or an unfinished earlier one)
// wrote something or the model changed: a no-change run keeps what readers
// cached for the project, in memory and in side files.
func (db *DB) FinishRun(ctx context.Context, projectID int64, model string) error {
	_, err := db.sql.ExecContext(ctx, `UPDATE projects SET model = ?, indexed_at = ?, dirty = 0,
		generation = generation + CASE WHEN dirty != 0 OR model != ? THEN 1 ELSE 0 END WHERE id = ?`,
		model, time.Now().Unix(), model, projectID)
	return db.classify("finish run", err)
}

// Fingerprint is what the files table remembers of one file.
type Fingerprint struct {
	ID     int64
	Size   int64
	MTime  int64
	SHA256 string
	Model  string
	Parser string // chunker version the file was parsed with
}

// Fingerprints returns path → fingerprint for every file of a project.
func (db *DB) Fingerprints(ctx context.Context, projectID int64) (map[string]Fingerprint, error) {
	rows, err := db.sql.QueryContext(ctx, "SELECT id, path, size, mtime, sha256, model, parser FROM files WHERE project_id = ?", projectID)
	if err != nil {
		return nil, db.classify("read fingerprints", err)
	}
	defer rows.Close()
	out := make(map[string]Fingerprint)
	for rows.Next() {
		var f Fingerprint
		var path string
		if err := rows.Scan(&f.ID, &path, &f.Size, &f.MTime, &f.SHA256, &f.Model, &f.Parser); err != nil {
			return nil, db.classify("read fingerprints", err)
		}
		out[path] = f
	}
	return out, db.classify("read fingerprints", rows.Err())
}

// ChunkRecord is a chunk ready to be written: the parsed chunk plus its
// embedding-text hash, its vector (nil when already cached) and FTS texts.
type ChunkRecord struct {
	lang.Chunk
	TextHash []byte
	Vector   []float32
	FTSName  string
	FTSPath  string
	FTSBody  string
}

// FileRecord is one file's complete replacement.
type FileRecord struct {
	Path      string
	Lang      string
	Size      int64
	MTime     int64
	SHA256    string
	Parser    string // chunker version
	Fallback  bool
	Chunks    []ChunkRecord
	Relations []lang.Relation
	Facts     []lang.Fact
}

// Touch updates size and mtime of a file whose content hash did not change.
type Touch struct {
	Path  string
	Size  int64
	MTime int64
}

// Batch is one transaction's worth of changes.
type Batch struct {
	Files   []FileRecord
	Touches []Touch
	Removed []string
	// PendingRelations keeps the files' relations, imports aside, as one
	// pending record per file for resolution to insert with their targets
	// (ForEachPendingFile, InsertResolved) instead of inserting them
	// unresolved.
	PendingRelations bool
}

// BatchResult tells the caller which files and names a batch touched, so
// relation resolution can be limited to them.
type BatchResult struct {
	FileIDs []int64
	Names   []string // short names of chunks removed or added
}

// WriteBatch replaces files, updates touched fingerprints and removes deleted
// files in one transaction: old rows deleted, new chunks, vectors, FTS rows,
// relations and fingerprints inserted, commit. Any failure rolls it all back.
func (db *DB) WriteBatch(ctx context.Context, projectID int64, model string, b Batch) (*BatchResult, error) {
	res := &BatchResult{}
	names := map[string]struct{}{}
	err := db.inTx(ctx, "write batch", func(tx *sql.Tx) error {
		// Only new or removed files change what searches read: a batch of
		// stat updates alone (or of nothing: files skipped as binary)
		// keeps the generation, and with it the search side files.
		if len(b.Files) > 0 || len(b.Removed) > 0 {
			if _, err := tx.ExecContext(ctx, "UPDATE projects SET dirty = 1, generation = generation + 1 WHERE id = ?", projectID); err != nil {
				return err
			}
		}
		for _, t := range b.Touches {
			if _, err := tx.ExecContext(ctx, "UPDATE files SET size = ?, mtime = ? WHERE project_id = ? AND path = ?", t.Size, t.MTime, projectID, t.Path); err != nil {
				return err
			}
		}
		for _, p := range b.Removed {
			if err := db.removeFile(ctx, tx, projectID, p, names); err != nil {
				return fmt.Errorf("remove %s: %w", p, err)
			}
		}
		if len(b.Files) == 0 {
			return nil
		}
		if err := checkDims(ctx, tx, model, b.Files); err != nil {
			return err
		}
		// Chunk ids are assigned here (chunkIDs), so chunks, FTS rows,
		// vectors and relations go in as multi-row INSERTs: far fewer
		// statements than one per row.
		nextChunkID, err := db.chunkIDs(ctx, tx, b.Files)
		if err != nil {
			return err
		}
		chunks := newBulk(tx, "INSERT INTO chunks(id, project_id, file_id, path, lang, kind, name, symbol, short, start_line, end_line, container, extends, implements, decorators, content, model, text_hash)", 18)
		fts := db.newFTSWriter(tx, projectID)
		var vecs []vectorRow
		// Imports always go in as rows (resolution reads them as the
		// files' import lists).
		rels := newBulk(tx, "INSERT INTO relations(project_id, file_id, kind, src_chunk, src_symbol, target, qualifier, line, recv)", 9)
		pending := newBulk(tx, "INSERT INTO relations_pending(file_id, project_id, data)", 3)
		var prels []pendingRel
		facts := newBulk(tx, "INSERT INTO typefacts_files(file_id, project_id, data)", 3)
		now := time.Now().Unix()
		// One statement per batch, not a preparation per file.
		upsertFile, err := tx.PrepareContext(ctx, `INSERT INTO files(project_id, path, lang, size, mtime, sha256, model, parser, fallback, indexed_at)
			VALUES (?,?,?,?,?,?,?,?,?,?)
			ON CONFLICT(project_id, path) DO UPDATE SET lang=excluded.lang, size=excluded.size, mtime=excluded.mtime,
				sha256=excluded.sha256, model=excluded.model, parser=excluded.parser, fallback=excluded.fallback, indexed_at=excluded.indexed_at
			RETURNING id`)
		if err != nil {
			return err
		}
		defer upsertFile.Close()
		for i := range b.Files {
			f := &b.Files[i]
			if err := db.clearFile(ctx, tx, projectID, f.Path, names); err != nil {
				return fmt.Errorf("replace %s: %w", f.Path, err)
			}
			var fileID int64
			err := upsertFile.QueryRowContext(ctx, projectID, f.Path, f.Lang, f.Size, f.MTime, f.SHA256, model, f.Parser, boolInt(f.Fallback), now).Scan(&fileID)
			if err != nil {
				return fmt.Errorf("write file %s: %w", f.Path, err)
			}
			res.FileIDs = append(res.FileIDs, fileID)
			ids := make([]int64, len(f.Chunks))
			for j := range f.Chunks {
				c := &f.Chunks[j]
				short := ShortName(c.Symbol)
				names[short] = struct{}{}
				nextID := nextChunkID()
				ids[j] = nextID
				if err := chunks.add(ctx, nextID, projectID, fileID, f.Path, f.Lang, c.Kind, c.Name, c.Symbol, short,
					c.StartLine, c.EndLine, c.Container, strings.Join(c.Extends, ","), strings.Join(c.Implements, ","),
					strings.Join(c.Decorators, " "), c.Content, model, c.TextHash); err != nil {
					return fmt.Errorf("write chunk %s %s: %w", f.Path, c.Name, err)
				}
				if err := fts.add(ctx, nextID, c.FTSName, c.FTSPath, c.FTSBody); err != nil {
					return fmt.Errorf("write fts row %s: %w", f.Path, err)
				}
				if c.Vector != nil {
					vecs = append(vecs, vectorRow{hash: c.TextHash, vec: c.Vector})
				}
			}
			prels = prels[:0]
			for _, rel := range f.Relations {
				id := sourceChunk(f.Chunks, ids, rel)
				if b.PendingRelations && rel.Kind != lang.RelImports {
					prels = append(prels, pendingRel{kind: rel.Kind, srcSymbol: rel.Source, target: rel.Target, qualifier: rel.Qualifier, recv: rel.Recv, srcChunk: id, line: rel.Line})
					continue
				}
				if err := rels.add(ctx, projectID, fileID, rel.Kind, chunkRef(id), rel.Source, rel.Target, rel.Qualifier, rel.Line, rel.Recv); err != nil {
					return fmt.Errorf("write relation %s: %w", f.Path, err)
				}
			}
			if len(prels) > 0 {
				if err := pending.add(ctx, fileID, projectID, encodePending(prels)); err != nil {
					return fmt.Errorf("write relations %s: %w", f.Path, err)
				}
			}
			if len(f.Facts) > 0 {
				if err := facts.add(ctx, fileID, projectID, encodeFacts(f.Facts)); err != nil {
					return fmt.Errorf("write type facts %s: %w", f.Path, err)
				}
			}
		}
		for _, b := range []interface{ flush(context.Context) error }{chunks, rels, pending, facts} {
			if err := b.flush(ctx); err != nil {
				return err
			}
		}
		if err := db.writeVectors(ctx, tx, model, vecs); err != nil {
			return err
		}
		// The full-text rows last: see sqliteFTSWriter.
		return fts.flush(ctx)
	})
	if err != nil {
		return nil, err
	}
	for n := range names {
		res.Names = append(res.Names, n)
	}
	return res, nil
}

// chunkRef is a chunk id as a column value: NULL for 0 (no chunk).
func chunkRef(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

// sourceChunk finds the chunk a relation starts from: the innermost chunk with
// the relation's source symbol that contains its line.
func sourceChunk(chunks []ChunkRecord, ids []int64, rel lang.Relation) int64 {
	if rel.Source == "" {
		return 0
	}
	best := -1
	for i := range chunks {
		c := &chunks[i].Chunk
		if c.Symbol != rel.Source {
			continue
		}
		if rel.Line > 0 && (rel.Line < c.StartLine || rel.Line > c.EndLine) {
			continue
		}
		if best < 0 || c.StartLine >= chunks[best].StartLine {
			best = i
		}
	}
	if best < 0 {
		// Fall back to the first chunk with that symbol (line outside: e.g. a type header).
		for i := range chunks {
			if chunks[i].Symbol == rel.Source {
				return ids[i]
			}
		}
		return 0
	}
	return ids[best]
}

// clearFile deletes the chunks, FTS rows and relations of one file (keeping
// its files row), unlinking edges from other files that pointed into it.
func (db *DB) clearFile(ctx context.Context, tx *sql.Tx, projectID int64, path string, names map[string]struct{}) error {
	var fileID int64
	err := tx.QueryRowContext(ctx, "SELECT id FROM files WHERE project_id = ? AND path = ?", projectID, path).Scan(&fileID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, "SELECT DISTINCT short FROM chunks WHERE file_id = ?", fileID)
	if err != nil {
		return err
	}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			rows.Close()
			return err
		}
		names[s] = struct{}{}
	}
	rows.Close()
	if err := db.ftsDelete(ctx, tx, projectID, "SELECT id FROM chunks WHERE file_id = ?", fileID); err != nil {
		return err
	}
	stmts := []string{
		"UPDATE relations SET dst_chunk = NULL WHERE dst_chunk IN (SELECT id FROM chunks WHERE file_id = ?1) AND file_id != ?1",
		"DELETE FROM relations WHERE file_id = ?1",
		"DELETE FROM relations_pending WHERE file_id = ?1",
		"DELETE FROM typefacts_files WHERE file_id = ?1",
		"DELETE FROM chunks WHERE file_id = ?1",
	}
	for _, s := range stmts {
		if _, err := tx.ExecContext(ctx, s, fileID); err != nil {
			return err
		}
	}
	return nil
}

func (db *DB) removeFile(ctx context.Context, tx *sql.Tx, projectID int64, path string, names map[string]struct{}) error {
	if err := db.clearFile(ctx, tx, projectID, path, names); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, "DELETE FROM files WHERE project_id = ? AND path = ?", projectID, path)
	return err
}

// inTx runs fn in a transaction, rolling back on any error.
func (db *DB) inTx(ctx context.Context, op string, fn func(*sql.Tx) error) error {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return db.classify(op, err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return db.classify(op, err)
	}
	if err := tx.Commit(); err != nil {
		return db.classify(op, err)
	}
	return nil
}

// ShortName is the last segment of a symbol: "Server.Serve" → "Serve".
func ShortName(symbol string) string {
	if i := strings.LastIndexAny(symbol, ".:#"); i >= 0 && i+1 < len(symbol) {
		return symbol[i+1:]
	}
	return symbol
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// ErrDimensions is matched by a *DimensionError.
var ErrDimensions = errors.New("vector dimension differs from the embedding model's")

// DimensionError is a vector whose size differs from the dimension recorded
// for its embedding model.
type DimensionError struct {
	Model     string
	Got, Want int
}

func (e *DimensionError) Error() string {
	return fmt.Sprintf("embedding model %s returned %d-dimensional vectors, but the index records %d dimensions for it", e.Model, e.Got, e.Want)
}

func (e *DimensionError) Is(target error) bool { return target == ErrDimensions }

// ModelDims is the vector dimension recorded for model, 0 when none yet.
func (db *DB) ModelDims(ctx context.Context, model string) (int, error) {
	var d int
	err := db.sql.QueryRowContext(ctx, "SELECT dims FROM embedding_models WHERE model = ?", model).Scan(&d)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return d, db.classify("read model dimension", err)
}

// checkDims verifies (inside a write transaction) that every vector of the
// batch has model's recorded dimension, recording it when the model has
// none yet.
func checkDims(ctx context.Context, tx *sql.Tx, model string, files []FileRecord) error {
	want := 0
	err := tx.QueryRowContext(ctx, "SELECT dims FROM embedding_models WHERE model = ?", model).Scan(&want)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	recorded := want > 0
	for i := range files {
		for j := range files[i].Chunks {
			n := len(files[i].Chunks[j].Vector)
			if n == 0 {
				continue
			}
			if want == 0 {
				want = n
			}
			if n != want {
				return &DimensionError{Model: model, Got: n, Want: want}
			}
		}
	}
	if !recorded && want > 0 {
		// Two writers (of different projects) may record it at once.
		_, err := tx.ExecContext(ctx, "INSERT INTO embedding_models(model, dims) VALUES (?, ?) ON CONFLICT DO NOTHING", model, want)
		return err
	}
	return nil
}

// CachedVectors returns which of the given text hashes already have a vector
// for model (hex-free: keys are string(hash)). A cached vector whose size
// differs from the model's recorded dimension (left by an older build) is
// not a hit: it is embedded again and replaced.
func (db *DB) CachedVectors(ctx context.Context, model string, hashes [][]byte) (map[string]bool, error) {
	out := make(map[string]bool, len(hashes))
	dims, err := db.ModelDims(ctx, model)
	if err != nil {
		return nil, err
	}
	const chunk = 400
	for start := 0; start < len(hashes); start += chunk {
		end := min(start+chunk, len(hashes))
		half, single := vecindex.EncodedLengths(dims)
		args := make([]any, 0, end-start+4)
		args = append(args, model, dims, half, single)
		ph := make([]string, 0, end-start)
		for _, h := range hashes[start:end] {
			args = append(args, h)
			ph = append(ph, "?")
		}
		rows, err := db.sql.QueryContext(ctx, "SELECT text_hash FROM vectors WHERE model = ? AND (? = 0 OR length(vec) IN (?, ?)) AND text_hash IN ("+strings.Join(ph, ",")+")", args...)
		if err != nil {
			return nil, db.classify("read vector cache", err)
		}
		for rows.Next() {
			var h []byte
			if err := rows.Scan(&h); err != nil {
				rows.Close()
				return nil, db.classify("read vector cache", err)
			}
			out[string(h)] = true
		}
		rows.Close()
	}
	return out, nil
}

// bulk accumulates rows for one multi-row INSERT statement.
type bulk struct {
	tx     *sql.Tx
	prefix string
	suffix string // after the VALUES rows (an ON CONFLICT clause)
	cols   int
	args   []any
	rows   int
	stmts  map[int]*sql.Stmt // by row count
}

// bulkRows is how many rows go into one statement.
const bulkRows = 64

func newBulk(tx *sql.Tx, prefix string, cols int) *bulk {
	return &bulk{tx: tx, prefix: prefix, cols: cols, stmts: map[int]*sql.Stmt{}}
}

func (b *bulk) add(ctx context.Context, vals ...any) error {
	b.args = append(b.args, vals...)
	b.rows++
	if b.rows == bulkRows {
		return b.flush(ctx)
	}
	return nil
}

func (b *bulk) flush(ctx context.Context) error {
	if b.rows == 0 {
		return nil
	}
	st, ok := b.stmts[b.rows]
	if !ok {
		row := "(" + placeholders(b.cols) + ")"
		q := b.prefix + " VALUES " + strings.Repeat(row+",", b.rows-1) + row + b.suffix
		var err error
		if st, err = b.tx.PrepareContext(ctx, q); err != nil {
			return err
		}
		b.stmts[b.rows] = st
	}
	_, err := st.ExecContext(ctx, b.args...)
	b.args, b.rows = b.args[:0], 0
	return err
}

// chunkIDs returns the allocator of the ids of a batch's new chunks. SQLite
// counts up from the largest id (its write transaction excludes every
// other writer); PostgreSQL, whose writers of different projects run at
// once, draws them from the chunk_ids sequence.
func (db *DB) chunkIDs(ctx context.Context, tx *sql.Tx, files []FileRecord) (func() int64, error) {
	if !db.pg {
		var next int64
		if err := tx.QueryRowContext(ctx, "SELECT COALESCE(max(id), 0) FROM chunks").Scan(&next); err != nil {
			return nil, err
		}
		return func() int64 { next++; return next }, nil
	}
	n := 0
	for i := range files {
		n += len(files[i].Chunks)
	}
	rows, err := tx.QueryContext(ctx, "SELECT nextval('chunk_ids') FROM generate_series(1, ?)", n)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	ids := make([]int64, 0, n)
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	slices.Sort(ids)
	i := 0
	return func() int64 { i++; return ids[i-1] }, nil
}

// vectorRow is a new vector of a batch.
type vectorRow struct {
	hash []byte
	vec  []float32
}

// writeVectors stores a batch's new vectors, once per text hash and in
// hash order (so that writers of two projects sharing texts lock the rows
// in the same order). A vector is only sent for a cache miss; the upsert
// overwrites a cached vector of the wrong size (see CachedVectors).
func (db *DB) writeVectors(ctx context.Context, tx *sql.Tx, model string, rows []vectorRow) error {
	slices.SortStableFunc(rows, func(a, b vectorRow) int { return bytes.Compare(a.hash, b.hash) })
	rows = slices.CompactFunc(rows, func(a, b vectorRow) bool { return bytes.Equal(a.hash, b.hash) })
	vecs := newBulk(tx, "INSERT OR REPLACE INTO vectors(model, text_hash, vec)", 3)
	if db.pg {
		vecs = newBulk(tx, "INSERT INTO vectors(model, text_hash, vec)", 3)
		vecs.suffix = " ON CONFLICT (model, text_hash) DO UPDATE SET vec = excluded.vec"
	}
	for _, r := range rows {
		if err := vecs.add(ctx, model, r.hash, vecindex.EncodeVector(r.vec)); err != nil {
			return fmt.Errorf("write vector: %w", err)
		}
	}
	return vecs.flush(ctx)
}
