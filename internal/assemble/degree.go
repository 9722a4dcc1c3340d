package assemble

import (
	"context"
	"sync"

	"codectx/internal/search"
	"codectx/internal/store"
)

// Callers are counted once per project generation in a long-lived process:
// hubs come back in answer after answer, and counting a hub's callers reads
// every call row that points at it. A project's relations change only when
// its generation moves, so (database, project, generation) names the counts.

type degreeKey struct {
	db         string
	project    int64
	generation int64
}

// maxDegreeCaches bounds the projects whose counts are kept; maxDegreeIDs
// the chunks per project.
const (
	maxDegreeCaches = 4
	maxDegreeIDs    = 1 << 20
)

var degrees = struct {
	sync.Mutex
	m     map[degreeKey]map[int64]int32
	order []degreeKey // oldest first
}{m: map[degreeKey]map[int64]int32{}}

// callerDegree counts each of ids' callers: distinct calling chunks
// outside test files (store.CallersByPath). A hub is code the rest of the
// project calls from many places; tests that exercise one method in many
// cases, or one function calling another on several lines, do not make
// it one. Ids without such callers are absent.
func callerDegree(ctx context.Context, db *store.DB, ids []int64) (map[int64]int, error) {
	byPath, err := db.CallersByPath(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]int, len(byPath))
	for id, paths := range byPath {
		n := 0
		for path, callers := range paths {
			if !search.IsTestPath(path) {
				n += callers
			}
		}
		if n > 0 {
			out[id] = n
		}
	}
	return out, nil
}

// callInDegree is callerDegree through the per-generation cache
// (generation 0: not cached).
func callInDegree(ctx context.Context, db *store.DB, projectID, generation int64, ids []int64) (map[int64]int, error) {
	if generation == 0 {
		return callerDegree(ctx, db, ids)
	}
	key := degreeKey{db: db.Path(), project: projectID, generation: generation}
	out := make(map[int64]int, len(ids))
	var missing []int64
	degrees.Lock()
	known := degrees.m[key]
	for _, id := range ids {
		n, ok := known[id]
		switch {
		case !ok:
			missing = append(missing, id)
		case n > 0:
			out[id] = int(n)
		}
	}
	degrees.Unlock()
	if len(missing) == 0 {
		return out, nil
	}
	got, err := callerDegree(ctx, db, missing)
	if err != nil {
		return nil, err
	}
	degrees.Lock()
	defer degrees.Unlock()
	known = degrees.m[key]
	if known == nil {
		known = map[int64]int32{}
		degrees.m[key] = known
		degrees.order = append(degrees.order, key)
		for len(degrees.order) > maxDegreeCaches {
			delete(degrees.m, degrees.order[0])
			degrees.order = degrees.order[1:]
		}
	}
	if len(known)+len(missing) > maxDegreeIDs {
		clear(known)
	}
	for _, id := range missing {
		n := got[id]
		known[id] = int32(min(n, 1<<31-1))
		if n > 0 {
			out[id] = n
		}
	}
	return out, nil
}
