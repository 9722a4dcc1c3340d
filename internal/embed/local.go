package embed

import (
	"context"
	"fmt"
	"math"
	"unicode"
	"unicode/utf8"
)

// The local provider: identifier-aware feature hashing, pure Go, no network,
// deterministic across runs and platforms.
//
// Every run of letters, digits and '_' is an identifier (in code, comments
// and strings alike). It is split into sub-words at '_', at lower→upper case
// changes, before the last capital of an acronym ("HTTPServer" → http,
// server) and between letters and digits ("utf8" → utf, 8). Features:
//
//   - the whole identifier, lower-cased without separators, when it has two
//     or more sub-words (weight wWhole), so getUserById ≈ get_user_by_id;
//   - each lower-cased sub-word (wSub; stop words and one-letter sub-words
//     get only wWeak and no 3-grams);
//   - each character 3-gram of "^subword$" (wTri);
//   - each bigram of adjacent Han/kana characters (wHan), or the character
//     itself for a lone one (wHanOne); no segmenter.
//
// Each feature is hashed (FNV-1a over runes, a kind tag first, then a 64-bit
// finaliser); the low bits pick the dimension, the top bit the sign. The
// vector is then L2-normalised. Changing anything here changes the vectors:
// bump localModel so stored vectors are recomputed.
const (
	localModel   = "hash-v1"
	localModelID = ProviderLocal + ":" + localModel
	localDims    = 512 // must be a power of two (masking)
	localMask    = localDims - 1

	wWhole  = 1.5
	wSub    = 1.0
	wTri    = 0.4
	wWeak   = 0.2
	wHan    = 1.0
	wHanOne = 0.7

	maxTok = 64 // longer identifiers are split into pieces of this many runes

	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211

	kindWhole = 1
	kindSub   = 2
	kindTri   = 3
	kindHan   = 4

	markBegin = 0x02 // 3-gram boundary markers, never produced by a word rune
	markEnd   = 0x03
)

// Per-kind hash seeds: the FNV offset basis followed by the kind tag.
var (
	seedWhole = fnvStep(fnvOffset, kindWhole)
	seedSub   = fnvStep(fnvOffset, kindSub)
	seedTri   = fnvStep(fnvOffset, kindTri)
	seedHan   = fnvStep(fnvOffset, kindHan)
)

// fnvStep is one FNV-1a step over a whole rune (or tag) instead of a byte.
func fnvStep(h, x uint64) uint64 { return (h ^ x) * fnvPrime }

// localEmbedder implements the local provider. It is stateless and safe for
// concurrent use.
type localEmbedder struct{ batch int }

func (l *localEmbedder) ModelID() string { return localModelID }
func (l *localEmbedder) Dims() int       { return localDims }
func (l *localEmbedder) BatchSize() int  { return l.batch }

// Embed returns one L2-normalised 512-dim vector per text; a text with no
// features (blank, punctuation only) gets an empty vector.
func (l *localEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("local: %w", err)
	}
	out := make([][]float32, len(texts))
	slab := make([]float32, localDims*len(texts)) // one allocation per call
	var f featurizer
	for i, t := range texts {
		if i&63 == 63 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("local: %w", err)
			}
		}
		v := slab[i*localDims : (i+1)*localDims : (i+1)*localDims]
		f.vec = (*[localDims]float32)(v)
		if f.run(t) {
			out[i] = v
		}
	}
	return out, nil
}

// wordByte marks the ASCII bytes that belong to identifiers.
var wordByte = func() (t [utf8.RuneSelf]bool) {
	for c := 0; c < utf8.RuneSelf; c++ {
		t[c] = c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	return t
}()

// featurizer holds the scratch state for one text; the vector it fills is
// owned by the caller. The zero value is ready after vec is set.
type featurizer struct {
	vec      *[localDims]float32
	tok      [maxTok]rune // current identifier, original case
	low      [maxTok]rune // current sub-word, lower case
	n        int          // runes in tok
	whole    uint64       // hash of the identifier's sub-words so far
	parts    int          // sub-words in the current identifier
	hanPrev  rune         // previous Han/kana rune of the current run, 0 if none
	hanPairs int          // bigrams emitted in the current run
	features int
}

// run adds the features of s to f.vec (which must be zero) and normalises
// it. It reports whether the vector is non-zero.
func (f *featurizer) run(s string) bool {
	f.n, f.features, f.hanPrev, f.hanPairs = 0, 0, 0, 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			if wordByte[c] {
				if f.hanPrev != 0 {
					f.endHan()
				}
				if f.n == maxTok {
					f.flush()
				}
				f.tok[f.n&(maxTok-1)] = rune(c)
				f.n++
				continue
			}
			if f.n != 0 {
				f.flush()
			}
			if f.hanPrev != 0 {
				f.endHan()
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case isHanLike(r):
			if f.n != 0 {
				f.flush()
			}
			f.han(r)
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if f.hanPrev != 0 {
				f.endHan()
			}
			if f.n == maxTok {
				f.flush()
			}
			f.tok[f.n&(maxTok-1)] = r
			f.n++
		default:
			if f.n != 0 {
				f.flush()
			}
			if f.hanPrev != 0 {
				f.endHan()
			}
		}
	}
	if f.n != 0 {
		f.flush()
	}
	if f.hanPrev != 0 {
		f.endHan()
	}
	if f.features == 0 {
		return false
	}
	var sum float64
	for _, x := range f.vec {
		sum += float64(x) * float64(x)
	}
	if sum == 0 {
		return false
	}
	inv := float32(1 / math.Sqrt(sum))
	for i := range f.vec {
		f.vec[i] *= inv
	}
	return true
}

// add puts one hashed feature into the vector.
func (f *featurizer) add(h uint64, w float32) {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	if h>>63 != 0 {
		w = -w
	}
	f.vec[h&localMask] += w
	f.features++
}

// flush splits the buffered identifier into sub-words and emits features.
func (f *featurizer) flush() {
	n := f.n
	f.n = 0
	tok := f.tok[:n]
	f.whole = seedWhole
	f.parts = 0
	start := -1
	for j, r := range tok {
		if r == '_' {
			if start >= 0 {
				f.subword(tok[start:j])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = j
			continue
		}
		if boundary(tok, j) {
			f.subword(tok[start:j])
			start = j
		}
	}
	if start >= 0 {
		f.subword(tok[start:])
	}
	if f.parts >= 2 {
		f.add(f.whole, wWhole)
	}
}

// boundary reports whether a sub-word starts at tok[j]; tok[j-1] and tok[j]
// are word runes other than '_'.
func boundary(tok []rune, j int) bool {
	p, r := tok[j-1], tok[j]
	if p < utf8.RuneSelf && r < utf8.RuneSelf {
		pd, rd := p >= '0' && p <= '9', r >= '0' && r <= '9'
		if pd != rd {
			return true
		}
		if r >= 'A' && r <= 'Z' {
			if p >= 'a' && p <= 'z' {
				return true
			}
			if p >= 'A' && p <= 'Z' && j+1 < len(tok) {
				nx := tok[j+1]
				return nx >= 'a' && nx <= 'z' || nx >= utf8.RuneSelf && unicode.IsLower(nx)
			}
		}
		return false
	}
	if unicode.IsDigit(p) != unicode.IsDigit(r) {
		return true
	}
	if unicode.IsUpper(r) {
		if unicode.IsLower(p) {
			return true
		}
		if unicode.IsUpper(p) && j+1 < len(tok) {
			return unicode.IsLower(tok[j+1])
		}
	}
	return false
}

// subword emits the features of one sub-word and extends the whole-
// identifier hash.
func (f *featurizer) subword(part []rune) {
	f.parts++
	n := len(part)
	low := f.low[:n]
	h := seedSub
	w := f.whole
	for i, r := range part {
		if r < utf8.RuneSelf {
			if r >= 'A' && r <= 'Z' {
				r += 'a' - 'A'
			}
		} else {
			r = unicode.ToLower(r)
		}
		low[i] = r
		h = (h ^ uint64(r)) * fnvPrime
		w = (w ^ uint64(r)) * fnvPrime
	}
	f.whole = w
	if n == 1 || isStopWord(h) {
		f.add(h, wWeak)
		return
	}
	f.add(h, wSub)
	a, b := rune(markBegin), low[0]
	for i := 1; i <= n; i++ {
		c := rune(markEnd)
		if i < n {
			c = low[i]
		}
		t := seedTri
		t = (t ^ uint64(a)) * fnvPrime
		t = (t ^ uint64(b)) * fnvPrime
		t = (t ^ uint64(c)) * fnvPrime
		f.add(t, wTri)
		a, b = b, c
	}
}

// han handles one Han/kana rune: a bigram with the previous one of the run.
func (f *featurizer) han(r rune) {
	if f.hanPrev != 0 {
		h := seedHan
		h = (h ^ uint64(f.hanPrev)) * fnvPrime
		h = (h ^ uint64(r)) * fnvPrime
		f.add(h, wHan)
		f.hanPairs++
	}
	f.hanPrev = r
}

// endHan closes a Han/kana run; a lone character becomes a feature itself.
func (f *featurizer) endHan() {
	if f.hanPairs == 0 {
		h := seedHan
		h = (h ^ uint64(f.hanPrev)) * fnvPrime
		f.add(h, wHanOne)
	}
	f.hanPrev, f.hanPairs = 0, 0
}

// isHanLike reports Han ideographs and Japanese kana: scripts written
// without spaces, handled by character bigrams.
func isHanLike(r rune) bool {
	if r < 0x2E80 {
		return false
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana)
}

// stopTable is an open-addressing set of sub-word hashes of words too common
// in code and prose to say much about a chunk.
var stopTable = func() (t [512]uint64) {
	words := []string{
		"a", "an", "and", "are", "as", "at", "be", "by", "do", "else", "for", "from",
		"if", "in", "is", "it", "of", "on", "or", "the", "this", "that", "to", "with",
		"func", "function", "def", "fn", "return", "var", "let", "const", "int",
		"string", "bool", "nil", "null", "none", "true", "false", "self", "new",
		"import", "package", "public", "private", "static", "void", "class", "end",
		"err", "error", "ctx", "not", "pub", "use", "we", "can", "will",
	}
	for _, w := range words {
		h := seedSub
		for _, r := range w {
			h = (h ^ uint64(r)) * fnvPrime
		}
		i := stopSlot(h)
		for t[i] != 0 {
			i = (i + 1) & 511
		}
		t[i] = h
	}
	return t
}()

func stopSlot(h uint64) uint64 { return (h ^ h>>29) & 511 }

func isStopWord(h uint64) bool {
	for i := stopSlot(h); ; i = (i + 1) & 511 {
		switch stopTable[i] {
		case h:
			return true
		case 0:
			return false
		}
	}
}
