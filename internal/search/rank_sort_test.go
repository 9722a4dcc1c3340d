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

// The default ranker's last steps without a full sort — the best n
// selected, the file aggregate from each file's best scores, the answer
// popped from a heap — give what sorting the whole list gave: the same
// chunks, scores and order.
func TestSelectionMatchesFullSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	var chunks []store.ChunkMeta
	for i := range 3000 {
		f := rng.IntN(200)
		chunks = append(chunks, store.ChunkMeta{ID: int64(i + 1), FileID: int64(f + 1), Path: fmt.Sprintf("f%d.go", f), StartLine: rng.IntN(50), Name: fmt.Sprint(rng.IntN(4))})
	}
	snap := newSnapshot(chunks, nil, "m")
	p := defaultParams
	for _, n := range []int{0, 5, 40, 2500} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			list := make([]scored, 0, n)
			for _, i := range rng.Perm(len(chunks))[:n] {
				list = append(list, scored{idx: int32(i), score: float64(rng.IntN(40)) / 7}) // many ties, sums that round
			}
			// Before: sort, file aggregate over the sorted list, sort, perFile.
			want := slices.Clone(list)
			sortScored(snap, want)
			sum, cnt := map[int64]float64{}, map[int64]int{}
			for _, c := range want {
				if f := snap.chunks[c.idx].FileID; cnt[f] < p.FileTop {
					sum[f] += c.score
					cnt[f]++
				}
			}
			for i := range want {
				want[i].score += p.WFile * sum[snap.chunks[want[i].idx].FileID] / float64(p.FileTop)
			}
			sortScored(snap, want)
			wantOut := perFile(snap, want, p.PerFile, 20)

			got := slices.Clone(list)
			selectBest(snap, got, 10)
			ref := slices.Clone(list)
			sortScored(snap, ref)
			if !slices.Equal(got[:min(10, n)], ref[:min(10, n)]) {
				t.Fatal("selectBest's front differs from the sorted list's")
			}
			addFileScores(snap, got, p, nil)
			if gotOut := bestPerFile(snap, got, p.PerFile, 20); !slices.Equal(gotOut, wantOut) {
				t.Fatalf("answer %v, with full sorts %v", gotOut, wantOut)
			}
		})
	}
}
