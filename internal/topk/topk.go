// Package topk selects the best k elements of a slice by a caller's order
// without sorting the rest: a heap of the k best so far, worst at the
// root, costs about one comparison per element when k is much smaller
// than the slice.
//
// It must not allocate, know what the elements are, or keep state between
// calls.
package topk

import "slices"

// Front moves the k best elements of s to its front, in order, and returns
// them (s itself when k >= len(s), all of it sorted); the rest of s follows
// in no particular order. cmp(a, b) < 0 means a ranks before b; it must be
// a strict total order for the result not to depend on s's order.
func Front[T any](s []T, k int, cmp func(a, b T) int) []T {
	if k >= len(s) {
		slices.SortFunc(s, cmp)
		return s
	}
	if k <= 0 {
		return s[:0]
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
	slices.SortFunc(h, cmp)
	return h
}
