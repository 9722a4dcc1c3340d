package assemble

import (
	"context"
	"sync"

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

// callInDegree is store.CallInDegree through the per-generation cache
// (generation 0: not cached). Ids nobody calls are absent, as there.
func callInDegree(ctx context.Context, db *store.DB, projectID, generation int64, ids []int64) (map[int64]int, error) {
	if generation == 0 {
		return db.CallInDegree(ctx, ids)
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
	got, err := db.CallInDegree(ctx, missing)
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
