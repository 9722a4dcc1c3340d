package search

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"sync"

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
	// fileChunks lists, per file id, the chunk indexes of that file.
	fileChunks map[int64][]int32
	// fileSHA is each file's content hash (identical files share it).
	fileSHA map[int64]string

	vecMu     sync.Mutex
	vecLoaded bool
	matrix    *vecindex.Matrix // nil when the project has no vectors
	model     string
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
	return e.snap, nil
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
	chunks, err := db.ChunkMetas(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	s := &snapshot{
		chunks:     chunks,
		byID:       make(map[int64]int32, len(chunks)),
		isTest:     make([]bool, len(chunks)),
		isDep:      make([]bool, len(chunks)),
		isStub:     make([]bool, len(chunks)),
		fileChunks: map[int64][]int32{},
		model:      p.Model,
	}
	if len(chunks) > 0 {
		s.ids = store.IDRange{Lo: chunks[0].ID, Hi: chunks[len(chunks)-1].ID}
	}
	fps, err := db.Fingerprints(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	s.fileSHA = make(map[int64]string, len(fps))
	for _, f := range fps {
		s.fileSHA[f.ID] = f.SHA256
	}
	type pathFlags struct{ test, dep, stub bool }
	flags := map[string]pathFlags{}
	for i := range chunks {
		c := &chunks[i]
		s.byID[c.ID] = int32(i)
		s.fileChunks[c.FileID] = append(s.fileChunks[c.FileID], int32(i))
		f, ok := flags[c.Path]
		if !ok {
			f = pathFlags{IsTestPath(c.Path), IsDependencyPath(c.Path), IsStubPath(c.Path)}
			flags[c.Path] = f
		}
		s.isTest[i], s.isDep[i], s.isStub[i] = f.test, f.dep, f.stub
	}
	return s, nil
}

// vectors loads the project's vectors into one matrix, once per snapshot
// (a failed or cancelled load is retried by the next search).
func (s *snapshot) vectors(ctx context.Context, db *store.DB, projectID int64) (*vecindex.Matrix, error) {
	s.vecMu.Lock()
	defer s.vecMu.Unlock()
	if s.vecLoaded {
		return s.matrix, nil
	}
	var m *vecindex.Matrix
	var buf []float32
	err := db.ProjectVectors(ctx, projectID, s.model, func(id int64, blob []byte) error {
		if len(blob) == 0 || len(blob)%4 != 0 {
			return nil // no usable vector: the chunk is only found by keywords
		}
		if m == nil {
			m = vecindex.NewMatrix(len(blob)/4, len(s.chunks))
		}
		buf = decodeInto(buf[:0], blob)
		if err := m.Add(id, buf); err != nil {
			return fmt.Errorf("load vectors: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if m != nil && m.Len() > 0 {
		s.matrix = m
	}
	s.vecLoaded = true
	return s.matrix, nil
}

// decodeInto appends the little-endian float32s of blob (the store's vector
// encoding, see vecindex.EncodeVector) to dst, without allocating per row.
func decodeInto(dst []float32, blob []byte) []float32 {
	for i := 0; i+4 <= len(blob); i += 4 {
		dst = append(dst, math.Float32frombits(binary.LittleEndian.Uint32(blob[i:])))
	}
	return dst
}
