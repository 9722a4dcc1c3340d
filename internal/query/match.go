package query

import (
	"bytes"
	"slices"
	"strings"
	"unicode/utf8"
)

// TermMatcher tells which of a few terms are tokens of a text as
// IndexTextWith splits it, for relevance filters that test many texts
// against one question's terms. It gives the same answer as splitting
// IndexTextWith(s, opt) on spaces and looking every token up, but splits
// only the pieces (see nextPiece) that may hold a term: every token of an
// ASCII piece is a lower-cased substring of it, so an ASCII piece in which
// no term occurs (compared lower-case) holds none of them. Pieces with
// other characters (whose lower case may change length) are always split.
//
// A TermMatcher reuses its buffers: it is not safe for concurrent use.
type TermMatcher struct {
	index map[string]int
	terms [][]byte
	opt   IndexOptions
	low   []byte // s lower-cased in ASCII, same length
	hits  []span // occurrences of terms in low, by start
	buf   []byte // one piece's index form
	split int    // pieces split so far (for tests)
}

type span struct{ start, end int }

// NewTermMatcher returns a matcher for terms (index forms, as Parse gives
// them: lower-case); the index of a term in terms is what Match reports.
// Empty terms and repeats never match (only their first index is reported).
func NewTermMatcher(terms []string, opt IndexOptions) *TermMatcher {
	m := &TermMatcher{index: make(map[string]int, len(terms)), opt: opt}
	for i, t := range terms {
		if _, ok := m.index[t]; !ok && t != "" && !strings.ContainsRune(t, ' ') {
			m.index[t] = i
			m.terms = append(m.terms, []byte(t))
		}
	}
	return m
}

// Match calls fn with the index of every term that is a token of
// IndexTextWith(s, opt), once per occurrence of the token, in text order
// for a given term.
func (m *TermMatcher) Match(s string, fn func(i int)) {
	if len(m.index) == 0 || s == "" {
		return
	}
	m.low = asciiLower(m.low[:0], s)
	m.hits = m.hits[:0]
	for _, t := range m.terms {
		for off := 0; off < len(m.low); {
			k := bytes.Index(m.low[off:], t)
			if k < 0 {
				break
			}
			m.hits = append(m.hits, span{off + k, off + k + len(t)})
			off += k + 1
		}
	}
	ascii := isASCII(s)
	if len(m.hits) == 0 && ascii {
		return
	}
	slices.SortFunc(m.hits, func(a, b span) int { return a.start - b.start })
	h := 0
	for i := 0; ; {
		st, en, han := nextPiece(s, i)
		if st >= len(s) {
			break
		}
		i = en
		for h < len(m.hits) && m.hits[h].start < st {
			h++
		}
		split := han || (!ascii && !isASCII(s[st:en]))
		for j := h; !split && j < len(m.hits) && m.hits[j].start < en; j++ {
			split = m.hits[j].end <= en
		}
		if !split {
			continue
		}
		m.split++
		m.buf = appendPiece(m.buf[:0], s[st:en], han, m.opt)
		for tok := range bytes.SplitSeq(m.buf, []byte{' '}) {
			if k, ok := m.index[string(tok)]; ok {
				fn(k)
			}
		}
	}
}

// asciiLower appends s to dst with ASCII upper-case letters lowered and
// every other byte kept, so offsets in the result are offsets in s.
func asciiLower(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
