package topk

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

type item struct{ score, id int }

// byScore ranks higher scores first, then lower ids: a strict total order.
func byScore(a, b item) int {
	if c := cmp.Compare(b.score, a.score); c != 0 {
		return c
	}
	return cmp.Compare(a.id, b.id)
}

// Front keeps exactly the first k of a full sort, in order, and keeps
// every element of s (the rest behind them), for any k, with ties.
func TestFrontMatchesFullSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 7, 100, 1000} {
		s := make([]item, n)
		for i := range s {
			s[i] = item{score: rng.IntN(10), id: i} // many equal scores
		}
		want := slices.Clone(s)
		slices.SortFunc(want, byScore)
		for _, k := range []int{-1, 0, 1, 3, n / 2, n, n + 5} {
			got := slices.Clone(s)
			rng.Shuffle(len(got), func(i, j int) { got[i], got[j] = got[j], got[i] })
			front := Front(got, k, byScore)
			wantK := want[:max(0, min(k, n))]
			if !slices.Equal(front, wantK) {
				t.Fatalf("n %d, k %d: %v, want %v", n, k, front, wantK)
			}
			all := slices.Clone(got)
			slices.SortFunc(all, byScore)
			if !slices.Equal(all, want) {
				t.Fatalf("n %d, k %d: elements lost or duplicated", n, k)
			}
		}
	}
}

// Input already in ranked order, in reverse, or all equal (the cases a
// quickselect's pivot can be worst at) gives the full sort's front too.
func TestFrontOrderedInput(t *testing.T) {
	const n = 5000
	for name, score := range map[string]func(i int) int{
		"ranked":   func(i int) int { return -i },
		"reversed": func(i int) int { return i },
		"equal":    func(int) int { return 7 },
		"sawtooth": func(i int) int { return i % 97 },
	} {
		s := make([]item, n)
		for i := range s {
			s[i] = item{score: score(i), id: i}
		}
		want := slices.Clone(s)
		slices.SortFunc(want, byScore)
		for _, k := range []int{1, n / selectShare, n/selectShare + 1, 100, n / 2, n - 1} {
			got := Front(slices.Clone(s), k, byScore)
			if !slices.Equal(got, want[:k]) {
				t.Fatalf("%s, k %d: front differs from the full sort's", name, k)
			}
			best := Best(slices.Clone(s), k, byScore) // the same set, any order
			slices.SortFunc(best, byScore)
			if !slices.Equal(best, want[:k]) {
				t.Fatalf("%s, k %d: Best is not the full sort's first k", name, k)
			}
		}
	}
}
