package query

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Character classes used to find sub-word boundaries.
const (
	clSep   uint8 = iota // separator: punctuation, space, '_', '$', '.', '-', invalid UTF-8
	clLower              // lower-case letter, or a letter without case (Han, kana, ...)
	clUpper              // upper-case letter
	clDigit              // decimal digit
)

// asciiClass is the class of every ASCII byte.
var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = clLower
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = clUpper
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = clDigit
	}
	return t
}()

// asciiTok marks the ASCII bytes that may start or continue a token:
// letters, digits, '_' and '$'. '.' and '-' are joiners: they stay inside a
// token only when a token byte follows them (see scanToken).
var asciiTok = func() (t [utf8.RuneSelf]bool) {
	for c := 0; c < utf8.RuneSelf; c++ {
		t[c] = asciiClass[c] != clSep
	}
	t['_'], t['$'] = true, true
	return t
}()

func runeClass(r rune) uint8 {
	switch {
	case r == utf8.RuneError:
		return clSep
	case unicode.IsUpper(r):
		return clUpper
	case unicode.IsLetter(r), unicode.IsMark(r):
		return clLower
	case unicode.IsDigit(r):
		return clDigit
	}
	return clSep
}

// classAt returns the class of the character at s[i] and its size in bytes.
func classAt(s string, i int) (uint8, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return asciiClass[c], 1
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	return runeClass(r), n
}

// isHan reports whether r is a Han (Chinese) character.
func isHan(r rune) bool {
	return r >= 0x2E80 && unicode.Is(unicode.Han, r)
}

// isWordRune reports whether a non-ASCII rune belongs in a token (a letter,
// mark or digit of a script other than Han; Han runs are segmented apart).
func isWordRune(r rune) bool {
	return r != utf8.RuneError && !isHan(r) && (unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r))
}

// HasCJK reports whether s contains Han characters.
func HasCJK(s string) bool {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if isHan(r) {
			return true
		}
		i += n
	}
	return false
}

// tokAt reports whether a token character starts at s[i].
func tokAt(s string, i int) bool {
	if c := s[i]; c < utf8.RuneSelf {
		return asciiTok[c]
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return isWordRune(r)
}

// scanToken returns the end of the token that starts at s[i] (s[i] must be a
// token character). A token is a run of letters, digits, '_' and '$' (any
// script but Han); '.' and '-' are kept inside it only when followed by
// another token character, so "a.b-c" is one token and a trailing "." or
// "-" is not part of it.
func scanToken(s string, i int) int {
	n := len(s)
	for i < n {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case asciiTok[c]:
				i++
			case (c == '.' || c == '-') && i+1 < n && tokAt(s, i+1):
				i++
			default:
				return i
			}
			continue
		}
		r, sz := utf8.DecodeRuneInString(s[i:])
		if !isWordRune(r) {
			return i
		}
		i += sz
	}
	return i
}

// nextPiece returns the span of the next token (see scanToken) or run of
// Han characters in s at or after byte i, and whether it is a Han run;
// start == len(s) when there is none. Everything in between (punctuation,
// spaces, symbols, invalid UTF-8) is skipped.
func nextPiece(s string, i int) (start, end int, han bool) {
	n := len(s)
	for i < n {
		c := s[i]
		if c < utf8.RuneSelf {
			if asciiTok[c] {
				return i, scanToken(s, i), false
			}
			i++
			continue
		}
		r, sz := utf8.DecodeRuneInString(s[i:])
		switch {
		case isHan(r):
			j := i + sz
			for j < n {
				r2, sz2 := utf8.DecodeRuneInString(s[j:])
				if !isHan(r2) {
					break
				}
				j += sz2
			}
			return i, j, true
		case isWordRune(r):
			return i, scanToken(s, i), false
		}
		i += sz
	}
	return n, n, false
}

// nextSubword returns the byte span [start, end) of the first sub-word of s
// at or after byte i; start == len(s) when there is none. Boundaries are
// separators, lower→upper ("compressIf"), the last upper of an upper run
// followed by a lower ("HTTPServer" → HTTP|Server, but a closing plural "s"
// stays: "URLs", "userIDs"), and letter↔digit ("Server2Go").
func nextSubword(s string, i int) (start, end int) {
	n := len(s)
	for i < n {
		c, sz := classAt(s, i)
		if c != clSep {
			break
		}
		i += sz
	}
	if i >= n {
		return n, n
	}
	start = i
	prev, sz := classAt(s, i)
	i += sz
	for i < n {
		c, sz := classAt(s, i)
		switch {
		case c == clSep, (c == clDigit) != (prev == clDigit), c == clUpper && prev == clLower:
			return start, i
		case c == clUpper && prev == clUpper:
			if j := i + sz; j < n {
				c2, sz2 := classAt(s, j)
				if c2 == clLower && !isPluralS(s, j, sz2) {
					return start, i
				}
			}
		}
		prev = c
		i += sz
	}
	return start, n
}

// isPluralS reports whether s[j] is an "s" that ends a word (end of s, or
// followed by anything but a lower-case letter), as in "URLs" or "IDs_".
func isPluralS(s string, j, sz int) bool {
	if s[j] != 's' {
		return false
	}
	if k := j + sz; k < len(s) {
		c, _ := classAt(s, k)
		return c != clLower
	}
	return true
}

// appendLower appends s lower-cased to dst.
func appendLower(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r != utf8.RuneError || n > 1 {
			dst = utf8.AppendRune(dst, unicode.ToLower(r))
		}
		i += n
	}
	return dst
}

// lower lower-cases s, without allocating when s is already lower-case ASCII.
func lower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || ('A' <= c && c <= 'Z') {
			return string(appendLower(make([]byte, 0, len(s)+4), s))
		}
	}
	return s
}

// SplitIdentifier splits an identifier into lower-case sub-words:
//
//	"compressIfNeeded"       → [compress if needed]
//	"user_id"                → [user id]
//	"HTTPServer2Go"          → [http server 2 go]
//	"MemoryManager.compress" → [memory manager compress]
//	"spring.datasource.url"  → [spring datasource url]
//	"$el"                    → [el]
//
// Any character that is not a letter or digit separates words; single
// characters are kept (filtering is the caller's business). It returns nil
// when s has no letters or digits.
func SplitIdentifier(s string) []string {
	var out []string
	for i := 0; ; {
		st, en := nextSubword(s, i)
		if st >= len(s) {
			return out
		}
		out = append(out, lower(s[st:en]))
		i = en
	}
}

// IndexText returns the FTS-ready text for a chunk field: tokens separated
// by single spaces, in input order (repetitions are kept, so term frequency
// survives). For every token (see below):
//
//   - the whole token, lower-cased ("memorymanager.compress", "user_id");
//   - for a dotted token, each dot-separated component that itself has
//     sub-words ("self.user_id" → "user_id");
//   - its sub-words as SplitIdentifier returns them, unless the token is a
//     single sub-word already ("compress").
//
// A token is a run of letters, digits, '_' and '$' of any script but Han,
// with inner '.' and '-' (a trailing one is not part of it). Runs of Han
// characters are segmented into words with Segment (IndexTextWith with
// WholeCJK leaves each run one token instead). Everything else
// (punctuation, spaces, invalid UTF-8) only separates tokens; the result is
// always valid UTF-8.
//
// It is a single pass without regular expressions, and the Chinese
// dictionary is touched only when s contains Han characters.
func IndexText(s string) string { return IndexTextWith(s, IndexOptions{}) }

// IndexOptions tune IndexTextWith.
type IndexOptions struct {
	// WholeCJK leaves each run of Han characters whole (one token per run,
	// as FTS5's unicode61 tokenizer would) instead of segmenting it. It is
	// an evaluation switch for measuring what segmentation buys; it changes
	// the index content, so an index built with one setting must be
	// updated with the same one. The query side (Parse) always segments.
	WholeCJK bool
}

// IndexTextWith is IndexText with options.
func IndexTextWith(s string, opt IndexOptions) string {
	if s == "" {
		return ""
	}
	buf := make([]byte, 0, len(s)+len(s)/2+16)
	for i := 0; ; {
		st, en, han := nextPiece(s, i)
		if st >= len(s) {
			break
		}
		buf = appendPiece(buf, s[st:en], han, opt)
		i = en
	}
	return string(buf)
}

// appendPiece appends the index form of one piece (see nextPiece) to buf:
// its tokens, each preceded by a space unless buf is empty.
func appendPiece(buf []byte, piece string, han bool, opt IndexOptions) []byte {
	switch {
	case han && opt.WholeCJK:
		if len(buf) > 0 {
			buf = append(buf, ' ')
		}
		return appendLower(buf, piece)
	case han:
		for _, w := range Segment(piece) {
			if len(buf) > 0 {
				buf = append(buf, ' ')
			}
			buf = appendLower(buf, w)
		}
		return buf
	}
	return appendToken(buf, piece)
}

// appendToken appends the index form of one token (see IndexText) to buf.
func appendToken(buf []byte, tok string) []byte {
	st, en := nextSubword(tok, 0)
	if st >= len(tok) {
		return buf // only '_' / '$'
	}
	if len(buf) > 0 {
		buf = append(buf, ' ')
	}
	buf = appendLower(buf, tok)
	if st == 0 && en == len(tok) {
		return buf
	}
	if strings.IndexByte(tok, '.') >= 0 {
		for rest := tok; rest != ""; {
			part := rest
			if k := strings.IndexByte(rest, '.'); k >= 0 {
				part, rest = rest[:k], rest[k+1:]
			} else {
				rest = ""
			}
			if hasStructure(part) {
				buf = append(buf, ' ')
				buf = appendLower(buf, part)
			}
		}
	}
	for st < len(tok) {
		buf = append(buf, ' ')
		buf = appendLower(buf, tok[st:en])
		st, en = nextSubword(tok, en)
	}
	return buf
}

// hasStructure reports whether s splits into more than one sub-word, or has
// separators around its only one ("_id", "user_id", "fooBar").
func hasStructure(s string) bool {
	st, en := nextSubword(s, 0)
	return st < len(s) && (st != 0 || en != len(s))
}
