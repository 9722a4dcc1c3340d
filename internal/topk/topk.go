// Package topk selects the best k elements of a slice by a caller's order
// without sorting the rest: a heap of the k best so far, worst at the
// root, costs about one comparison per element when k is much smaller
// than the slice; for a larger share of it (or input in nearly ranked
// order, where the heap would take most elements in) a quickselect
// partitions the k best to the front in a few passes.
//
// It must not allocate, know what the elements are, or keep state between
// calls.
package topk

import (
	"math/bits"
	"slices"
)

// selectShare: from k > len(s)/selectShare on, Best partitions instead
// of keeping a heap. A heap takes in about k·(1+ln(n/k)) elements in
// random order — a quarter of them at k = n/16 — and more when the input
// comes in runs of similar rank, each for up to log2(k) comparisons; a
// quickselect compares each element about three times, whatever the
// order.
const selectShare = 16

// Front moves the k best elements of s to its front, in order, and returns
// them (s itself when k >= len(s), all of it sorted); the rest of s follows
// in no particular order. cmp(a, b) < 0 means a ranks before b; it must be
// a strict total order for the result not to depend on s's order.
func Front[T any](s []T, k int, cmp func(a, b T) int) []T {
	best := Best(s, k, cmp)
	slices.SortFunc(best, cmp)
	return best
}

// Best is Front without the ordering: the k best elements of s, moved to
// its front in no particular order (all of s when k >= len(s)), for a
// caller that orders them otherwise.
func Best[T any](s []T, k int, cmp func(a, b T) int) []T {
	if k >= len(s) {
		return s
	}
	if k <= 0 {
		return s[:0]
	}
	if k > len(s)/selectShare {
		partition(s, k, cmp)
		return s[:k]
	}
	h := s[:k]
	down := func(i int) {
		for {
			l := 2*i + 1
			if l >= len(h) {
				return
			}
			w := l // the child that ranks later
			if r := l + 1; r < len(h) && cmp(h[w], h[r]) < 0 {
				w = r
			}
			if cmp(h[i], h[w]) >= 0 {
				return
			}
			h[i], h[w] = h[w], h[i]
			i = w
		}
	}
	for i := len(h)/2 - 1; i >= 0; i-- {
		down(i)
	}
	for i := k; i < len(s); i++ {
		if cmp(s[i], h[0]) < 0 {
			s[i], h[0] = h[0], s[i]
			down(0)
		}
	}
	return h
}

// partition moves the k best elements of s (0 < k < len(s)) to s[:k], in
// no particular order: a quickselect with a median-of-three pivot and a
// three-way split (elements equal to the pivot are not moved again). A
// range that still needs splitting after 2·log2(n)+8 rounds is sorted
// instead, which bounds the worst case by a sort's.
func partition[T any](s []T, k int, cmp func(a, b T) int) {
	lo, hi := 0, len(s)
	for round := 0; hi-lo > 1; round++ {
		if round > 2*bits.Len(uint(len(s)))+8 {
			slices.SortFunc(s[lo:hi], cmp)
			return
		}
		a, b, c := lo, lo+(hi-lo)/2, hi-1
		if cmp(s[b], s[a]) < 0 {
			a, b = b, a
		}
		if cmp(s[c], s[b]) < 0 {
			b = c
			if cmp(s[b], s[a]) < 0 {
				b = a
			}
		}
		p := s[b]
		// [lo, lt) ranks before p, [lt, i) equals p, [gt, hi) ranks after p.
		lt, i, gt := lo, lo, hi
		for i < gt {
			switch c := cmp(s[i], p); {
			case c < 0:
				s[lt], s[i] = s[i], s[lt]
				lt++
				i++
			case c > 0:
				gt--
				s[i], s[gt] = s[gt], s[i]
			default:
				i++
			}
		}
		switch {
		case k <= lt:
			hi = lt
		case k <= gt:
			return
		default:
			lo = gt
		}
	}
}
