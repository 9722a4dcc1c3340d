package assemble

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// cl100kRanksURL names the cl100k_base merge table; the offline loader
// serves it from the copy compiled into the binary (nothing is downloaded).
const cl100kRanksURL = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"

// cl100kCount counts the cl100k_base tokens of s as ordinary text (special
// tokens are not recognised), exactly as tiktoken's EncodeOrdinary does
// (the tests compare the two on real and fuzzed text), without its
// backtracking regular expression: s is cut into pre-tokens by
// cl100kPieces, a hand-written form of the encoding's pattern, and each
// piece is counted by byte-pair merging over ranks.
func cl100kCount(ranks map[string]int, s string) int {
	if !utf8.ValidString(s) {
		s = runeValid(s)
	}
	n := 0
	cl100kPieces(s, func(p string) {
		n += pieceTokens(ranks, p)
	})
	return n
}

// runeValid replaces every byte of s that is not part of a valid UTF-8
// sequence by U+FFFD, one for each byte, as a conversion to runes does (the
// reference tokenizer matches its pattern over runes).
func runeValid(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range s {
		b.WriteRune(r)
	}
	return b.String()
}

// Character classes of the cl100k_base pattern
//
//	(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|
//	 ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// (\s is unicode.IsSpace, as in the reference's regexp2 engine).
const (
	clLetter = iota
	clNumber
	clSpace
	clOther // neither letter, number nor space
)

// asciiClass is the class of each ASCII byte.
var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for c := range utf8.RuneSelf {
		t[c] = runeClassSlow(rune(c))
	}
	return t
}()

func runeClassSlow(r rune) uint8 {
	switch {
	case unicode.IsLetter(r):
		return clLetter
	case unicode.IsNumber(r):
		return clNumber
	case unicode.IsSpace(r):
		return clSpace
	}
	return clOther
}

// runeAt decodes the rune at s[i:] and its class (size 0 at the end).
func runeAt(s string, i int) (r rune, size int, class uint8) {
	if i >= len(s) {
		return 0, 0, clOther
	}
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1, asciiClass[c]
	}
	r, size = utf8.DecodeRuneInString(s[i:])
	return r, size, runeClassSlow(r)
}

// cl100kPieces calls fn with each pre-token of s (valid UTF-8) in order:
// the matches of the pattern above, leftmost alternative first, as the
// reference's regular expression finds them.
func cl100kPieces(s string, fn func(string)) {
	for i := 0; i < len(s); {
		n := pieceLen(s, i)
		fn(s[i : i+n])
		i += n
	}
}

// pieceLen is the length in bytes of the pre-token that starts at s[i].
func pieceLen(s string, i int) int {
	r0, n0, c0 := runeAt(s, i)
	// (?i:'s|'t|'re|'ve|'m|'ll|'d)
	if r0 == '\'' && i+1 < len(s) {
		switch lower(s[i+1]) {
		case 's', 't', 'm', 'd':
			return 2
		case 'r', 'v':
			if i+2 < len(s) && lower(s[i+2]) == 'e' {
				return 3
			}
		case 'l':
			if i+2 < len(s) && lower(s[i+2]) == 'l' {
				return 3
			}
		}
	}
	// [^\r\n\p{L}\p{N}]?\p{L}+
	if c0 == clLetter {
		return n0 + letters(s, i+n0)
	}
	_, n1, c1 := runeAt(s, i+n0)
	if r0 != '\r' && r0 != '\n' && c0 != clNumber && c1 == clLetter {
		return n0 + n1 + letters(s, i+n0+n1)
	}
	// \p{N}{1,3}
	if c0 == clNumber {
		j := i + n0
		for k := 1; k < 3; k++ {
			_, n, c := runeAt(s, j)
			if n == 0 || c != clNumber {
				break
			}
			j += n
		}
		return j - i
	}
	// ' ?[^\s\p{L}\p{N}]+[\r\n]*'
	j := i
	if r0 == ' ' && c1 == clOther {
		j += n0
	}
	if _, n, c := runeAt(s, j); n > 0 && c == clOther {
		for {
			_, n, c := runeAt(s, j)
			if n == 0 || c != clOther {
				break
			}
			j += n
		}
		for j < len(s) && (s[j] == '\r' || s[j] == '\n') {
			j++
		}
		return j - i
	}
	// Only white space is left (c0 == clSpace). The run of white space
	// [i, end) and the last line break in it decide the next three.
	end, lastBreak, prev := i, -1, i
	for {
		r, n, c := runeAt(s, end)
		if n == 0 || c != clSpace {
			break
		}
		if r == '\r' || r == '\n' {
			lastBreak = end
		}
		prev = end
		end += n
	}
	switch {
	case lastBreak >= 0: // \s*[\r\n]+ (the break is the run's last)
		return lastBreak + 1 - i
	case end == len(s) || prev == i: // \s+(?!\S) to the end, or \s+ of one
		return end - i
	default: // \s+(?!\S): all but the last space before a non-space
		return prev - i
	}
}

// letters is the length in bytes of the run of letters at s[i:].
func letters(s string, i int) int {
	j := i
	for {
		_, n, c := runeAt(s, j)
		if n == 0 || c != clLetter {
			return j - i
		}
		j += n
	}
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// pieceTokens counts the tokens of one pre-token: one when the merge table
// holds it whole, else the parts left by byte-pair merging — repeatedly
// joining the adjacent pair of lowest rank (the leftmost of equals) until
// no adjacent pair is in the table.
func pieceTokens(ranks map[string]int, p string) int {
	if len(p) <= 1 {
		return len(p)
	}
	if _, ok := ranks[p]; ok {
		return 1
	}
	// bounds[k] is where part k starts; rank[k] the rank of parts k and
	// k+1 joined (math.MaxInt: not in the table).
	var bb, rb [64]int
	bounds := bb[:0]
	for k := 0; k <= len(p); k++ {
		bounds = append(bounds, k)
	}
	rank := rb[:0]
	pairRank := func(k int) int {
		if k+2 >= len(bounds) {
			return math.MaxInt
		}
		if r, ok := ranks[p[bounds[k]:bounds[k+2]]]; ok {
			return r
		}
		return math.MaxInt
	}
	for k := 0; k+1 < len(bounds); k++ {
		rank = append(rank, pairRank(k))
	}
	for len(bounds) > 2 {
		best, at := math.MaxInt, -1
		for k, r := range rank[:len(bounds)-2] {
			if r < best {
				best, at = r, k
			}
		}
		if at < 0 {
			break
		}
		// Join parts at and at+1: drop the bound between them.
		bounds = append(bounds[:at+1], bounds[at+2:]...)
		rank = append(rank[:at+1], rank[at+2:]...)
		rank[at] = pairRank(at)
		if at > 0 {
			rank[at-1] = pairRank(at - 1)
		}
	}
	return len(bounds) - 1
}
