package grepindex

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// QueryOp is the kind of a Query node.
type QueryOp int

// Query operators.
const (
	QAll  QueryOp = iota // every file (no information)
	QNone                // no file
	QAnd                 // every trigram in Tri and every Sub
	QOr                  // some trigram in Tri or some Sub
)

// Query is a boolean expression over trigrams that every file holding a
// match satisfies. Trigrams are 3 bytes of the file, ASCII lower-cased
// (the index stores the trigrams of the lower-cased bytes).
type Query struct {
	Op  QueryOp
	Tri []string
	Sub []*Query
}

var (
	allQuery  = &Query{Op: QAll}
	noneQuery = &Query{Op: QNone}
)

// String renders the query for tests and logs: AND as a space, OR as " | ".
func (q *Query) String() string {
	switch q.Op {
	case QAll:
		return "ALL"
	case QNone:
		return "NONE"
	}
	sep := " "
	if q.Op == QOr {
		sep = " | "
	}
	var parts []string
	for _, t := range q.Tri {
		parts = append(parts, quoteTri(t))
	}
	for _, s := range q.Sub {
		parts = append(parts, "("+s.String()+")")
	}
	return strings.Join(parts, sep)
}

func quoteTri(t string) string { return `"` + strings.ReplaceAll(t, `"`, `\"`) + `"` }

// Implies reports whether the query holds for a file whose trigram set
// answers has (used by tests; the index evaluates on posting lists).
func (q *Query) Implies(has func(string) bool) bool {
	switch q.Op {
	case QAll:
		return true
	case QNone:
		return false
	case QAnd:
		for _, t := range q.Tri {
			if !has(t) {
				return false
			}
		}
		for _, s := range q.Sub {
			if !s.Implies(has) {
				return false
			}
		}
		return true
	}
	for _, t := range q.Tri {
		if has(t) {
			return true
		}
	}
	for _, s := range q.Sub {
		if s.Implies(has) {
			return true
		}
	}
	return false
}

func andQ(a, b *Query) *Query {
	switch {
	case a.Op == QNone || b.Op == QNone:
		return noneQuery
	case a.Op == QAll:
		return b
	case b.Op == QAll:
		return a
	}
	out := &Query{Op: QAnd}
	for _, x := range []*Query{a, b} {
		if x.Op == QAnd {
			out.Tri = append(out.Tri, x.Tri...)
			out.Sub = append(out.Sub, x.Sub...)
		} else {
			out.Sub = append(out.Sub, x)
		}
	}
	out.Tri = sortedUnique(out.Tri)
	return out
}

func orQ(a, b *Query) *Query {
	switch {
	case a.Op == QAll || b.Op == QAll:
		return allQuery
	case a.Op == QNone:
		return b
	case b.Op == QNone:
		return a
	}
	out := &Query{Op: QOr}
	for _, x := range []*Query{a, b} {
		switch {
		case x.Op == QOr:
			out.Tri = append(out.Tri, x.Tri...)
			out.Sub = append(out.Sub, x.Sub...)
		case x.Op == QAnd && len(x.Tri) == 1 && len(x.Sub) == 0:
			out.Tri = append(out.Tri, x.Tri[0])
		default:
			out.Sub = append(out.Sub, x)
		}
	}
	out.Tri = sortedUnique(out.Tri)
	return out
}

// setQuery is the query "the match contains one of the strings": the OR
// over the strings of the AND of each one's trigrams. A string shorter
// than three bytes says nothing, so the whole query is All.
func setQuery(set []string) *Query {
	if len(set) == 0 {
		return noneQuery
	}
	q := noneQuery
	for _, s := range set {
		if len(s) < 3 {
			return allQuery
		}
		and := &Query{Op: QAnd}
		for i := 0; i+3 <= len(s); i++ {
			and.Tri = append(and.Tri, s[i:i+3])
		}
		and.Tri = sortedUnique(and.Tri)
		q = orQ(q, and)
	}
	return q
}

func sortedUnique(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

// Limits of the analysis: beyond them sets are cut to shorter strings,
// which loses precision, never soundness.
const (
	maxSet       = 32 // strings in an exact, prefix or suffix set
	maxClassSize = 24 // runes a character class may expand to
)

// info is what the analysis knows about the strings a sub-expression
// matches. All strings are UTF-8 bytes, ASCII lower-cased.
type info struct {
	canEmpty bool
	exact    []string // every string it matches (nil: not known)
	prefix   []string // when exact is nil: every match starts with one of these
	suffix   []string // … and ends with one of these
	match    *Query   // holds for every file containing a match
}

// RegexpQuery turns a parsed regular expression into the trigram query
// every file holding a match satisfies. The result is QAll when the
// pattern has no usable trigram.
func RegexpQuery(re *syntax.Regexp) *Query {
	in := analyze(re.Simplify())
	q := in.match
	if in.exact != nil {
		q = andQ(q, setQuery(in.exact))
	} else {
		q = andQ(q, setQuery(in.prefix))
		q = andQ(q, setQuery(in.suffix))
	}
	return q
}

func anyChar() info {
	return info{prefix: []string{""}, suffix: []string{""}, match: allQuery}
}

func anyMatch() info {
	return info{canEmpty: true, prefix: []string{""}, suffix: []string{""}, match: allQuery}
}

func exactInfo(set []string) info {
	set = sortedUnique(set)
	in := info{exact: set, match: allQuery}
	for _, s := range set {
		if s == "" {
			in.canEmpty = true
		}
	}
	return in
}

func analyze(re *syntax.Regexp) info {
	switch re.Op {
	case syntax.OpNoMatch:
		return info{match: noneQuery, exact: []string{}}
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return exactInfo([]string{""})
	case syntax.OpLiteral:
		set := []string{""}
		for _, r := range re.Rune {
			vs := runeVariants(r, re.Flags&syntax.FoldCase != 0)
			if vs == nil {
				return literalFallback(re)
			}
			set = cross(set, vs)
			if len(set) > maxSet {
				return literalFallback(re)
			}
		}
		return exactInfo(set)
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		return anyChar()
	case syntax.OpCharClass:
		var set []string
		n := 0
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			n += int(hi-lo) + 1
			if n > maxClassSize || (lo <= utf8.RuneError && utf8.RuneError <= hi) {
				return anyChar()
			}
			for r := lo; r <= hi; r++ {
				set = append(set, lowerString(string(r)))
			}
		}
		if len(set) == 0 {
			return info{match: noneQuery, exact: []string{}}
		}
		return exactInfo(set)
	case syntax.OpCapture:
		return analyze(re.Sub[0])
	case syntax.OpStar:
		return anyMatch()
	case syntax.OpQuest:
		x := analyze(re.Sub[0])
		if x.exact != nil {
			return exactInfo(append(slices.Clone(x.exact), ""))
		}
		return anyMatch()
	case syntax.OpPlus:
		return plus(analyze(re.Sub[0]))
	case syntax.OpRepeat:
		if re.Min == 0 {
			return anyMatch()
		}
		return plus(analyze(re.Sub[0]))
	case syntax.OpConcat:
		x := exactInfo([]string{""})
		for _, sub := range re.Sub {
			x = concat(x, analyze(sub))
		}
		return x
	case syntax.OpAlternate:
		x := info{match: noneQuery, exact: []string{}}
		for _, sub := range re.Sub {
			x = alternate(x, analyze(sub))
		}
		return x
	}
	return anyMatch()
}

// literalFallback handles a literal whose expansion is too large or holds
// a rune that can stand for an invalid byte (U+FFFD).
func literalFallback(re *syntax.Regexp) info {
	// Split the literal at runes without variants and analyze the pieces as
	// a concatenation, so "foo\uFFFDbar" still yields foo and bar.
	x := exactInfo([]string{""})
	for _, r := range re.Rune {
		vs := runeVariants(r, re.Flags&syntax.FoldCase != 0)
		var y info
		if vs == nil {
			y = anyChar()
		} else {
			y = exactInfo(vs)
		}
		x = concat(x, y)
	}
	return x
}

// runeVariants are the byte strings (lower-cased) a literal rune matches;
// nil for U+FFFD, which Go's regexp also matches on an invalid byte.
func runeVariants(r rune, fold bool) []string {
	if r == utf8.RuneError {
		return nil
	}
	out := []string{lowerString(string(r))}
	if fold {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f == utf8.RuneError {
				return nil
			}
			out = append(out, lowerString(string(f)))
		}
	}
	return sortedUnique(out)
}

func lowerString(s string) string {
	b := []byte(s)
	LowerASCII(b, b)
	return string(b)
}

// plus is x+ (and x{n,m} with n ≥ 1): it starts like x and ends like x.
func plus(x info) info {
	x = toPrefixSuffix(x)
	return info{prefix: x.prefix, suffix: x.suffix, match: x.match}
}

// toPrefixSuffix turns an exact set into prefix and suffix sets (a match
// is one of the strings, so it starts and ends with it) and records its
// trigrams in match.
func toPrefixSuffix(x info) info {
	if x.exact == nil {
		return x
	}
	return info{canEmpty: x.canEmpty, prefix: x.exact, suffix: x.exact, match: andQ(x.match, setQuery(x.exact))}
}

func concat(x, y info) info {
	if x.exact != nil && y.exact != nil {
		if xy := cross(x.exact, y.exact); len(xy) <= maxSet {
			out := exactInfo(xy)
			out.match = andQ(x.match, y.match)
			return out
		}
	}
	xy := info{canEmpty: x.canEmpty && y.canEmpty, match: andQ(x.match, y.match)}
	if x.exact != nil {
		xy.prefix = cross(x.exact, prefixOf(y))
	} else {
		xy.prefix = x.prefix
		if x.canEmpty {
			xy.prefix = union(xy.prefix, prefixOf(y))
		}
	}
	if y.exact != nil {
		xy.suffix = cross(suffixOf(x), y.exact)
	} else {
		xy.suffix = y.suffix
		if y.canEmpty {
			xy.suffix = union(xy.suffix, suffixOf(x))
		}
	}
	// A match holds some suffix of x followed by some prefix of y.
	if x.exact == nil && y.exact == nil {
		if mid := cross(x.suffix, y.prefix); len(mid) <= maxSet {
			xy.match = andQ(xy.match, setQuery(mid))
		}
	}
	xy = trimSets(xy)
	return xy
}

func prefixOf(x info) []string {
	if x.exact != nil {
		return x.exact
	}
	return x.prefix
}

func suffixOf(x info) []string {
	if x.exact != nil {
		return x.exact
	}
	return x.suffix
}

func alternate(x, y info) info {
	if x.exact != nil && y.exact != nil {
		if u := union(x.exact, y.exact); len(u) <= maxSet {
			out := exactInfo(u)
			out.match = orMatch(x, y)
			return out
		}
	}
	xy := info{canEmpty: x.canEmpty || y.canEmpty}
	xs, ys := toPrefixSuffix(x), toPrefixSuffix(y)
	xy.match = orQ(xs.match, ys.match)
	xy.prefix = union(xs.prefix, ys.prefix)
	xy.suffix = union(xs.suffix, ys.suffix)
	return trimSets(xy)
}

// orMatch is the match query of x or y when both stay exact: each side's
// own match (their exact sets are checked at the end).
func orMatch(x, y info) *Query {
	if x.exact != nil && len(x.exact) == 0 {
		return y.match // x matches nothing
	}
	if y.exact != nil && len(y.exact) == 0 {
		return x.match
	}
	return orQ(x.match, y.match)
}

// trimSets keeps the prefix and suffix sets small: their trigrams go into
// match, then strings are cut to two bytes (a prefix's head is a prefix,
// a suffix's tail is a suffix) until the set fits.
func trimSets(x info) info {
	if x.exact != nil {
		return x
	}
	if len(x.prefix) > maxSet || longest(x.prefix) > 2 && len(x.prefix) > maxSet/2 {
		x.match = andQ(x.match, setQuery(x.prefix))
		for n := 2; n >= 0; n-- {
			var cut []string
			for _, s := range x.prefix {
				cut = append(cut, s[:min(len(s), n)])
			}
			x.prefix = sortedUnique(cut)
			if len(x.prefix) <= maxSet {
				break
			}
		}
	}
	if len(x.suffix) > maxSet || longest(x.suffix) > 2 && len(x.suffix) > maxSet/2 {
		x.match = andQ(x.match, setQuery(x.suffix))
		for n := 2; n >= 0; n-- {
			var cut []string
			for _, s := range x.suffix {
				cut = append(cut, s[max(0, len(s)-n):])
			}
			x.suffix = sortedUnique(cut)
			if len(x.suffix) <= maxSet {
				break
			}
		}
	}
	return x
}

func longest(set []string) int {
	n := 0
	for _, s := range set {
		n = max(n, len(s))
	}
	return n
}

func cross(a, b []string) []string {
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, x+y)
		}
	}
	return sortedUnique(out)
}

func union(a, b []string) []string {
	return sortedUnique(append(slices.Clone(a), b...))
}

// LowerASCII lower-cases the ASCII letters of src into dst (same length;
// they may be the same slice). The index and the queries share it.
func LowerASCII(dst, src []byte) {
	for i, c := range src {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst[i] = c
	}
}
