package search

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"codectx/internal/store"
)

// After the length prior raises (by ≥ 0) the best RerankTop candidates of
// a sorted list, sorting those alone gives the order a full sort gives,
// ties (same score, then path, line, name, id) included.
func TestRerankTopSortEqualsFullSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 95))
	var chunks []store.ChunkMeta
	for i := range 400 {
		chunks = append(chunks, store.ChunkMeta{ID: int64(i + 1), Path: fmt.Sprintf("p%d.go", rng.IntN(20)), StartLine: rng.IntN(5), Name: fmt.Sprint(rng.IntN(3))})
	}
	snap := newSnapshot(chunks, nil, "m")
	for _, c := range []struct{ n, top int }{{400, 100}, {50, 100}, {101, 100}, {400, 1}} {
		t.Run(fmt.Sprintf("%d of %d", c.top, c.n), func(t *testing.T) {
			list := make([]scored, c.n)
			for i := range list {
				// Few distinct scores, so ties reach the tie-breaks.
				list[i] = scored{idx: int32(i), score: float64(rng.IntN(8)) / 4}
			}
			sortScored(snap, list)
			for i := range list[:min(c.n, c.top)] {
				if rng.IntN(3) > 0 {
					list[i].score += float64(rng.IntN(3)) / 4
				}
			}
			full := slices.Clone(list)
			sortScored(snap, full)
			sortScored(snap, list[:min(c.n, c.top)])
			if !slices.Equal(list, full) {
				t.Fatalf("top-only sort differs from the full sort")
			}
		})
	}
}
