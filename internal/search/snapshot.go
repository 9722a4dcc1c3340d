package search

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"sync"
	"sync/atomic"

	"codectx/internal/store"
	"codectx/internal/vecindex"
)

// snapshot is one project's chunk metadata and vectors as of one
// generation. It is immutable once loaded and shared between searches.
type snapshot struct {
	chunks []store.ChunkMeta
	byID   map[int64]int32 // chunk id → index in chunks
	ids    store.IDRange   // smallest and largest chunk id
	isTest []bool          // per chunk: the file looks like a test
	isDep  []bool          // per chunk: the file is vendored / third-party dependency code
	isStub []bool          // per chunk: the file only declares (type stubs, .d.ts)
	// per chunk: the file is an example program (IsExamplePath) or a
	// changelog (IsChangelogPath)
	isExample, isChangelog []bool
	isCtor                 []bool      // per chunk: a constructor (isConstructor)
	class                  []FileClass // per chunk: ClassifyPath of its file
	kind                   []int32     // per chunk: index of its Kind in kinds
	kinds                  []string    // the distinct chunk kinds
	file                   []int32     // per chunk: its file's ordinal (0 … files-1)
	files                  int
	// fileChunks lists, per file id, the chunk indexes of that file.
	fileChunks map[int64][]int32
	// fileSHA is each file's content hash (identical files share it).
	fileSHA map[int64]string

	vecMu     sync.Mutex
	vecLoaded bool
	matrix    *vecindex.Matrix // nil when the project has no vectors
	model     string
	// The quantised side file, used until the snapshot serves a second
	// semantic search (a one-shot process never loads the full matrix),
	// and for a project past heldMatrixMax from then on too.
	quantTried bool
	quant      *vecindex.Quantized
	semUses    int
	// The file layer over quant (layer.go), loaded with it; nil below
	// layerMinRows.
	layer *fileLayer
	// rowOf maps chunk ids to matrix rows, built by the first HeldDots.
	rowOf map[int64]int32

	// Keyword postings per term, kept for the snapshot's life (a
	// long-lived process answers later queries sharing a term without
	// asking FTS5 again).
	termMu sync.Mutex
	terms  map[termKey]termPostings
}

// termKey names one term's postings; rows (the database's FTS row count)
// changes when another project's writes change the global BM25 statistics;
// cols says whether the hits carry their column bits.
type termKey struct {
	text string
	rows int
	cols bool
}

// termPostings is one term's project document frequency and hits.
type termPostings struct {
	df   int
	hits []termHit // read-only once stored
}

// maxCachedTerms bounds the postings kept per snapshot (each at most
// perTermLimit hits).
const maxCachedTerms = 512

func (s *snapshot) cachedTerm(k termKey) (termPostings, bool) {
	s.termMu.Lock()
	defer s.termMu.Unlock()
	t, ok := s.terms[k]
	return t, ok
}

func (s *snapshot) storeTerm(k termKey, t termPostings) {
	s.termMu.Lock()
	defer s.termMu.Unlock()
	if s.terms == nil {
		s.terms = map[termKey]termPostings{}
	}
	if len(s.terms) < maxCachedTerms {
		s.terms[k] = t
	}
}

// cacheKey identifies a snapshot; the generation is checked separately so a
// newer one replaces the entry instead of piling up.
type cacheKey struct {
	db      string
	project int64
	model   string
}

type cacheEntry struct {
	gen  int64
	once sync.Once
	snap *snapshot
	err  error
	used uint64
	// ready is snap once loaded, for readers that must not load it.
	ready atomic.Pointer[snapshot]
}

// maxCached bounds the number of snapshots kept per process.
const maxCached = 8

var cache = struct {
	sync.Mutex
	m     map[cacheKey]*cacheEntry
	clock uint64
}{m: map[cacheKey]*cacheEntry{}}

// loadSnapshot returns the cached snapshot for the project's current
// generation, loading it on first use. Concurrent callers share one load.
func loadSnapshot(ctx context.Context, db *store.DB, p *store.Project) (*snapshot, error) {
	key := cacheKey{db: db.Path(), project: p.ID, model: p.Model}
	cache.Lock()
	e := cache.m[key]
	if e == nil || e.gen != p.Generation {
		e = &cacheEntry{gen: p.Generation}
		cache.m[key] = e
		evictLocked()
	}
	cache.clock++
	e.used = cache.clock
	cache.Unlock()

	e.once.Do(func() { e.snap, e.err = readSnapshot(ctx, db, p) })
	if e.err != nil {
		// Do not keep a failed load (it may be a cancelled context).
		cache.Lock()
		if cache.m[key] == e {
			delete(cache.m, key)
		}
		cache.Unlock()
		return nil, e.err
	}
	e.ready.Store(e.snap)
	return e.snap, nil
}

// HeldDots returns, for those of ids whose stored vectors a search
// snapshot of the project's current generation holds in memory (a
// long-lived process, from its second semantic search on), the inner
// product of q with the vector, summed in float64 in dimension order
// (vecindex.Matrix.DotsF64). It reads nothing from the database and loads
// nothing: ids it does not hold are absent, and it returns nil when no
// such snapshot is held or q has another dimension.
func HeldDots(ix Index, q []float32, ids []int64) map[int64]float64 {
	if ix.DB == nil || ix.Project == nil {
		return nil
	}
	key := cacheKey{db: ix.DB.Path(), project: ix.Project.ID, model: ix.Project.Model}
	cache.Lock()
	e := cache.m[key]
	cache.Unlock()
	if e == nil || e.gen != ix.Project.Generation {
		return nil
	}
	s := e.ready.Load()
	if s == nil {
		return nil
	}
	s.vecMu.Lock()
	defer s.vecMu.Unlock()
	if !s.vecLoaded || s.matrix == nil || len(q) != s.matrix.Dim() {
		return nil
	}
	if s.rowOf == nil {
		s.rowOf = make(map[int64]int32, s.matrix.Len())
		for i := range s.matrix.Len() {
			s.rowOf[s.matrix.ID(i)] = int32(i)
		}
	}
	var rows []int
	var held []int64
	for _, id := range ids {
		if i, ok := s.rowOf[id]; ok {
			rows = append(rows, int(i))
			held = append(held, id)
		}
	}
	dots := s.matrix.DotsF64(q, rows)
	out := make(map[int64]float64, len(held))
	for k, id := range held {
		out[id] = dots[k]
	}
	return out
}

// evictLocked drops the least recently used entries beyond maxCached.
func evictLocked() {
	for len(cache.m) > maxCached {
		var oldest cacheKey
		var t uint64
		first := true
		for k, e := range cache.m {
			if first || e.used < t {
				oldest, t, first = k, e.used, false
			}
		}
		delete(cache.m, oldest)
	}
}

// resetCache empties the cache (tests).
func resetCache() {
	cache.Lock()
	cache.m = map[cacheKey]*cacheEntry{}
	cache.Unlock()
}

func readSnapshot(ctx context.Context, db *store.DB, p *store.Project) (*snapshot, error) {
	if f, err := db.OpenSideFile(p, store.SideMeta); err == nil {
		chunks, fileSHA, derr := decodeMeta(f.Data)
		f.Close() // the decoded strings are copies
		if derr == nil {
			return newSnapshot(chunks, fileSHA, p.Model), nil
		}
		slog.Warn("unusable snapshot file; reading the database", "path", db.SideFilePath(p, store.SideMeta), "err", derr)
	} else if !errors.Is(err, os.ErrNotExist) {
		slog.Warn("open the snapshot file", "err", err)
	}
	chunks, fileSHA, err := readMeta(ctx, db, p.ID)
	if err != nil {
		return nil, err
	}
	if err := writeMeta(ctx, db, p, chunks, fileSHA); err != nil {
		slog.Warn("write the snapshot file", "err", err)
	}
	return newSnapshot(chunks, fileSHA, p.Model), nil
}

// readMeta reads a project's chunk metadata and file hashes from the database.
func readMeta(ctx context.Context, db *store.DB, projectID int64) ([]store.ChunkMeta, map[int64]string, error) {
	chunks, err := db.ChunkMetas(ctx, projectID)
	if err != nil {
		return nil, nil, err
	}
	fps, err := db.Fingerprints(ctx, projectID)
	if err != nil {
		return nil, nil, err
	}
	fileSHA := make(map[int64]string, len(fps))
	for _, f := range fps {
		fileSHA[f.ID] = f.SHA256
	}
	return chunks, fileSHA, nil
}

// writeMeta writes the snapshot side file for p's generation, unless a
// write since p was read changed the project (the rows read may then
// belong to the newer generation).
func writeMeta(ctx context.Context, db *store.DB, p *store.Project, chunks []store.ChunkMeta, fileSHA map[int64]string) error {
	now, err := db.Project(ctx, p.Root)
	if err != nil || now.ID != p.ID || now.Generation != p.Generation {
		return err
	}
	return db.WriteSideFile(p, store.SideMeta, func(w io.Writer) error { return encodeMeta(w, chunks, fileSHA) })
}

// newSnapshot indexes chunks (ordered by id) for ranking.
func newSnapshot(chunks []store.ChunkMeta, fileSHA map[int64]string, model string) *snapshot {
	s := &snapshot{
		chunks:      chunks,
		byID:        make(map[int64]int32, len(chunks)),
		isTest:      make([]bool, len(chunks)),
		isDep:       make([]bool, len(chunks)),
		isStub:      make([]bool, len(chunks)),
		isExample:   make([]bool, len(chunks)),
		isChangelog: make([]bool, len(chunks)),
		isCtor:      make([]bool, len(chunks)),
		class:       make([]FileClass, len(chunks)),
		kind:        make([]int32, len(chunks)),
		file:        make([]int32, len(chunks)),
		fileChunks:  map[int64][]int32{},
		fileSHA:     fileSHA,
		model:       model,
	}
	if len(chunks) > 0 {
		s.ids = store.IDRange{Lo: chunks[0].ID, Hi: chunks[len(chunks)-1].ID}
	}
	type pathFlags struct {
		test, dep, stub, example, changelog bool
		class                               FileClass
	}
	flags := map[string]pathFlags{}
	kindOf := map[string]int32{}
	fileOf := map[int64]int32{}
	for i := range chunks {
		c := &chunks[i]
		k, ok := kindOf[c.Kind]
		if !ok {
			k = int32(len(s.kinds))
			kindOf[c.Kind] = k
			s.kinds = append(s.kinds, c.Kind)
		}
		s.kind[i] = k
		fo, ok := fileOf[c.FileID]
		if !ok {
			fo = int32(len(fileOf))
			fileOf[c.FileID] = fo
		}
		s.file[i] = fo
		s.byID[c.ID] = int32(i)
		s.fileChunks[c.FileID] = append(s.fileChunks[c.FileID], int32(i))
		f, ok := flags[c.Path]
		if !ok {
			f = pathFlags{IsTestPath(c.Path), IsDependencyPath(c.Path), IsStubPath(c.Path), IsExamplePath(c.Path),
				IsChangelogPath(c.Path), ClassifyPath(c.Path)}
			flags[c.Path] = f
		}
		s.isTest[i], s.isDep[i], s.isStub[i], s.class[i] = f.test, f.dep, f.stub, f.class
		s.isExample[i], s.isChangelog[i] = f.example, f.changelog
		s.isCtor[i] = isConstructor(c)
	}
	s.files = len(fileOf)
	return s
}

// kindValues returns m's value for each of the snapshot's chunk kinds, by
// kind index (0 for a kind m lacks).
func (s *snapshot) kindValues(m map[string]float64) []float64 {
	out := make([]float64, len(s.kinds))
	for i, k := range s.kinds {
		out[i] = m[k]
	}
	return out
}

// vectorSource is what the semantic channel searches: the full matrix, or
// the quantised one whose hits are re-scored from the database.
type vectorSource struct {
	matrix *vecindex.Matrix
	quant  *vecindex.Quantized
	layer  *fileLayer // with quant: its file layer, when the project is past layerMinRows
}

// heldMatrixMax is the largest float matrix (rows × dimensions × 4 bytes)
// a long-lived process loads into memory: 512 MiB, about 260,000 vectors
// of 512 dimensions. Past it, the process keeps searching the quantised
// side file it maps (a quarter of the size, shared with other processes
// through the page cache, nearly the same speed for a question the
// built-in embedder makes sparse) and re-scores the best hits from the
// database, as a one-shot process does: a 1M-chunk project would
// otherwise hold 2 GB of floats in every process.
var heldMatrixMax = 512 << 20 // a variable for the tests

// vectorSource returns the quantised side file for the first semantic
// search of a snapshot (when the file exists), and the full matrix from
// the second on: a one-shot process maps ~¼ of the vectors' size and reads
// only the candidates' exact vectors, while a long-lived one pays the full
// load once and then searches in memory — unless the matrix would pass
// heldMatrixMax, when it stays on the side file. A missing side file is
// written from the full matrix for the next process.
func (s *snapshot) vectorSource(ctx context.Context, db *store.DB, p *store.Project, sideFileOnly bool) (vectorSource, error) {
	s.vecMu.Lock()
	s.semUses++
	if !s.quantTried && !s.vecLoaded {
		s.quantTried = true
		s.quant = openQuantized(db, p, s)
		if s.quant == nil && len(s.chunks) >= layerMinRows && !db.ReadOnly() {
			// A huge project without its side files for this generation
			// (a long-lived process after an index run: only `codectx
			// index` writes them itself) gets them written from the
			// stored vectors, quantised as read, instead of holding every
			// vector as floats for the snapshot's life (~2 GB at 1M): a
			// slower first search, bounded memory and the file layer after.
			if err := Prepare(ctx, db, p); err != nil {
				slog.Warn("write the search side files", "err", err)
			}
			s.quant = openQuantized(db, p, s)
		}
		s.layer = loadLayer(ctx, db, p, s, s.quant)
	}
	q := s.quant
	if q != nil && !s.vecLoaded && (s.semUses == 1 || sideFileOnly || q.Len()*q.Dim()*4 > heldMatrixMax) {
		l := s.layer
		s.vecMu.Unlock()
		return vectorSource{quant: q, layer: l}, nil
	}
	s.vecMu.Unlock()
	m, err := s.vectors(ctx, db, p.ID)
	if err != nil {
		return vectorSource{}, err
	}
	if q == nil && m != nil {
		if !db.HasSideFile(ctx, p, store.SideVectors) {
			if err := writeQuantized(ctx, db, p, m); err != nil {
				slog.Warn("write the quantised vector file", "err", err)
			}
		}
	}
	return vectorSource{matrix: m}, nil
}

// openQuantized maps the project's side file; nil when there is none or it
// does not match the snapshot (then the full matrix is used). The mapping
// is released when the snapshot is collected.
func openQuantized(db *store.DB, p *store.Project, s *snapshot) *vecindex.Quantized {
	f, err := db.OpenSideFile(p, store.SideVectors)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			slog.Warn("open the quantised vector file", "err", err)
		}
		return nil
	}
	q, err := vecindex.ParseQuantized(f.Data)
	if err != nil || q.Len() > len(s.chunks) {
		slog.Warn("unusable quantised vector file", "path", db.SideFilePath(p, store.SideVectors), "err", err)
		f.Close()
		return nil
	}
	runtime.AddCleanup(s, func(f *store.MappedFile) { f.Close() }, f)
	return q
}

// writeQuantized writes m as the project's side file, unless a write since
// p was read changed the project (m may then hold the newer vectors).
func writeQuantized(ctx context.Context, db *store.DB, p *store.Project, m *vecindex.Matrix) error {
	now, err := db.Project(ctx, p.Root)
	if err != nil || now.ID != p.ID || now.Generation != p.Generation {
		return err
	}
	return db.WriteSideFile(p, store.SideVectors, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<20)
		if err := vecindex.WriteQuantized(bw, m); err != nil {
			return err
		}
		return bw.Flush()
	})
}

// Prepare writes the project's side files (chunk metadata, quantised
// vectors) when they are missing, so that the next one-shot search reads
// neither every chunk row nor every vector. Indexing calls it after a run.
func Prepare(ctx context.Context, db *store.DB, p *store.Project) error {
	if !db.HasSideFile(ctx, p, store.SideMeta) {
		chunks, fileSHA, err := readMeta(ctx, db, p.ID)
		if err != nil {
			return err
		}
		if err := writeMeta(ctx, db, p, chunks, fileSHA); err != nil {
			return err
		}
	}
	if db.HasSideFile(ctx, p, store.SideVectors) {
		return prepareLayer(ctx, db, p)
	}
	n, err := db.ChunkCount(ctx, p.ID)
	if err != nil {
		return err
	}
	// Quantised as read: the float matrix is never held.
	q := vecindex.NewQuantizer(0, n)
	var buf []float32
	err = db.ProjectVectorsPaged(ctx, p.ID, p.Model, func(id int64, blob []byte) error {
		if vecindex.VectorDims(blob) == 0 {
			return nil
		}
		buf = vecindex.AppendDecoded(buf[:0], blob)
		return q.Add(id, buf)
	})
	if err != nil || q.Len() == 0 {
		return err
	}
	// The rows read belong to p's generation only if no run wrote since.
	if now, err := db.Project(ctx, p.Root); err != nil || now.ID != p.ID || now.Generation != p.Generation {
		return err
	}
	err = db.WriteSideFile(p, store.SideVectors, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<20)
		if err := q.Write(bw); err != nil {
			return err
		}
		return bw.Flush()
	})
	if err != nil {
		return err
	}
	return prepareLayer(ctx, db, p)
}

// prepareLayer writes the project's file layer when the quantised side
// file is past layerMinRows and the layer's file is missing.
func prepareLayer(ctx context.Context, db *store.DB, p *store.Project) error {
	if db.HasSideFile(ctx, p, store.SideLayer) {
		return nil
	}
	n, err := db.ChunkCount(ctx, p.ID)
	if err != nil || n < layerMinRows {
		return err
	}
	snap, err := loadSnapshot(ctx, db, p)
	if err != nil {
		return err
	}
	// Its own mapping of the vectors' file: a cached snapshot may have
	// opened (or done without) the file before it existed.
	if q := openQuantized(db, p, snap); q != nil {
		loadLayer(ctx, db, p, snap, q) // builds and writes the missing file
	}
	return nil
}

// vectors loads the project's vectors into one matrix, once per snapshot
// (a failed or cancelled load is retried by the next search).
func (s *snapshot) vectors(ctx context.Context, db *store.DB, projectID int64) (*vecindex.Matrix, error) {
	s.vecMu.Lock()
	defer s.vecMu.Unlock()
	if s.vecLoaded {
		return s.matrix, nil
	}
	m, err := loadMatrix(ctx, db, projectID, s.model, len(s.chunks))
	if err != nil {
		return nil, err
	}
	s.matrix = m
	s.vecLoaded = true
	return s.matrix, nil
}

// loadMatrix reads a project's vectors into one matrix (nil when it has
// none); capacity is a hint, the project's chunk count.
func loadMatrix(ctx context.Context, db *store.DB, projectID int64, model string, capacity int) (*vecindex.Matrix, error) {
	var m *vecindex.Matrix
	var buf []float32
	err := db.ProjectVectors(ctx, projectID, model, func(id int64, blob []byte) error {
		dims := vecindex.VectorDims(blob)
		if dims == 0 {
			return nil // no usable vector: the chunk is only found by keywords
		}
		if m == nil {
			m = vecindex.NewMatrix(dims, capacity)
		}
		buf = vecindex.AppendDecoded(buf[:0], blob)
		if err := m.Add(id, buf); err != nil {
			return fmt.Errorf("load vectors: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if m == nil || m.Len() == 0 {
		return nil, nil
	}
	return m, nil
}
