package graph

import (
	"context"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"codectx/internal/store"
)

// Suggest returns up to n existing symbols closest to name. Candidates come
// from indexed lookups only (prefix ranges on the symbol and short-name
// indexes, in the case given and with the first letter's case flipped,
// members of the named container, and a bounded substring walk of the
// short-name index); they are ranked by prefix/substring match, then by
// Levenshtein distance.
func Suggest(ctx context.Context, db *store.DB, projectID int64, name string, n int) ([]string, error) {
	if i := strings.IndexByte(name, '('); i > 0 {
		name = name[:i]
	}
	name = strings.TrimSpace(name)
	short := store.ShortName(name)
	cands := map[string]bool{}
	add := func(list []string, err error) error {
		for _, s := range list {
			cands[s] = true
		}
		return err
	}
	prefixes := func(s string, k int) []string {
		r := []rune(s)
		if len(r) > k {
			r = r[:k]
		}
		if len(r) == 0 {
			return nil
		}
		out := []string{string(r)}
		r2 := append([]rune(nil), r...)
		if unicode.IsUpper(r2[0]) {
			r2[0] = unicode.ToLower(r2[0])
		} else {
			r2[0] = unicode.ToUpper(r2[0])
		}
		if string(r2) != out[0] {
			out = append(out, string(r2))
		}
		return out
	}
	// Same first letters of the short name: typos after the start (the
	// longer prefix first, so close names are not crowded out).
	for _, k := range []int{max(3, utf8.RuneCountInString(short)-2), 3, 1} {
		for _, p := range prefixes(short, k) {
			if err := add(db.SymbolsWithShortPrefix(ctx, projectID, p, 300)); err != nil {
				return nil, err
			}
		}
	}
	// Same first letters of the whole name (container typos, nested types).
	if name != short {
		for _, p := range prefixes(name, 2) {
			if err := add(db.SymbolsWithPrefix(ctx, projectID, p, 300)); err != nil {
				return nil, err
			}
		}
		// Members of the container as written.
		if i := strings.LastIndexAny(name, ".:#"); i > 0 {
			if err := add(db.SymbolsWithPrefix(ctx, projectID, name[:i+1], 300)); err != nil {
				return nil, err
			}
		}
	}
	// Names that contain what was typed.
	if utf8.RuneCountInString(short) >= 3 {
		if err := add(db.SymbolsWithShortContaining(ctx, projectID, short, 50)); err != nil {
			return nil, err
		}
	}
	type scored struct {
		s     string
		class int // 0 contains what was typed, 1 near
		dist  int
	}
	lname, lshort := strings.ToLower(name), strings.ToLower(short)
	dotted := name != short
	var list []scored
	for s := range cands {
		ls := strings.ToLower(s)
		lss := strings.ToLower(store.ShortName(s))
		var d, class int
		if dotted {
			// Container and member both count: compare whole names.
			d, class = Levenshtein(lname, ls), 1
			if strings.Contains(ls, lname) {
				class = 0
			}
		} else {
			d, class = min(Levenshtein(lname, ls), Levenshtein(lshort, lss)), 1
			if len(lshort) >= 3 && strings.Contains(lss, lshort) {
				class = 0 // what was typed is part of the name
			}
		}
		limit := max(2, utf8.RuneCountInString(name)/3)
		if class == 1 && d > limit {
			continue
		}
		list = append(list, scored{s, class, d})
	}
	sort.Slice(list, func(i, j int) bool {
		a, b := list[i], list[j]
		if a.class != b.class {
			return a.class < b.class
		}
		if a.dist != b.dist {
			return a.dist < b.dist
		}
		if len(a.s) != len(b.s) {
			return len(a.s) < len(b.s)
		}
		return a.s < b.s
	})
	var out []string
	for _, x := range list {
		if len(out) == n {
			break
		}
		out = append(out, x.s)
	}
	return out, nil
}

// Levenshtein is the edit distance between a and b in runes.
func Levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) < len(rb) {
		ra, rb = rb, ra
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
