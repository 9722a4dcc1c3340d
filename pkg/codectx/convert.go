package codectx

// The public result types are converted from the internal packages' types
// in one function each (newGrepResult, newSearchResult, …), next to the
// type's definition; convertSlice is their shared loop.

// convertSlice converts each element of in with f, keeping a nil slice nil
// and an empty one empty (their JSON differs: null and []).
func convertSlice[T, U any](in []T, f func(T) U) []U {
	if in == nil {
		return nil
	}
	out := make([]U, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}

// convertMap converts each value of in with f, keeping a nil map nil.
func convertMap[K comparable, T, U any](in map[K]T, f func(T) U) map[K]U {
	if in == nil {
		return nil
	}
	out := make(map[K]U, len(in))
	for k, v := range in {
		out[k] = f(v)
	}
	return out
}
