package query

import (
	_ "embed"
	"errors"
	"math"
	"sort"
	"sync"
)

// dictZH is the Chinese dictionary and HMM model Segment uses, generated
// from the gse module's simplified-Chinese dictionary and jieba's HMM model
// by the gendict tool (see gendict/main.go for the format; licences in
// dict_zh.NOTICE). It is read in place: looking a word up allocates
// nothing, and nothing is decoded up front, so the first Chinese text a
// process meets costs a header check, not a dictionary load.
//
//go:generate sh -c "cd gendict && go run . -out ../dict_zh.bin"
//go:embed dict_zh.bin
var dictZH string

const dictZHMagic = "cxzhdic2"

// The first-character index of dictZH covers U+3400..U+9FFF (gendict:
// firstLo, firstHi).
const zhFirstLo, zhFirstHi = 0x3400, 0xA000

// zhDict is a view of dictZH. Words are sorted bytewise, so the words that
// start with a given prefix form one contiguous range, which narrow shrinks
// one character at a time, as a trie walk would.
type zhDict struct {
	n        int     // words
	logTotal float64 // log of the dictionary's total frequency
	first    string  // u32[zhFirstHi-zhFirstLo+1]: first word of each first character
	offs     string  // u32[n+1] word offsets into pool
	freqs    string  // u32[n]
	pool     string  // the words, concatenated
	nr       int     // HMM runes
	hmmRunes string  // u32[nr], ascending
	hmmEmit  string  // f64[4*nr]: B, E, M, S
}

var (
	zhOnce sync.Once
	zh     zhDict
	zhErr  error
)

func loadZH() {
	segLoaded.Store(true)
	zh, zhErr = parseZHDict(dictZH)
}

// parseZHDict checks the header and section sizes of a dictionary blob and
// returns a view of it; it copies nothing.
func parseZHDict(b string) (zhDict, error) {
	var d zhDict
	const hdr = len(dictZHMagic) + 4 + 4 + 8 + 4
	if len(b) < hdr || b[:len(dictZHMagic)] != dictZHMagic {
		return d, errors.New("chinese dictionary: bad header")
	}
	p := len(dictZHMagic)
	d.n = int(u32(b, p))
	d.nr = int(u32(b, p+4))
	total := math.Float64frombits(u64(b, p+8))
	pool := int(u32(b, p+16))
	p = hdr
	const nFirst = 4 * (zhFirstHi - zhFirstLo + 1)
	need := nFirst + 4*(d.n+1) + 4*d.n + pool + 4*d.nr + 32*d.nr
	if d.n <= 0 || total <= 0 || len(b)-p != need {
		return d, errors.New("chinese dictionary: bad size")
	}
	d.logTotal = math.Log(total)
	d.first, p = b[p:p+nFirst], p+nFirst
	d.offs, p = b[p:p+4*(d.n+1)], p+4*(d.n+1)
	d.freqs, p = b[p:p+4*d.n], p+4*d.n
	d.pool, p = b[p:p+pool], p+pool
	d.hmmRunes, p = b[p:p+4*d.nr], p+4*d.nr
	d.hmmEmit = b[p:]
	if int(u32(d.offs, 4*d.n)) != pool || int(u32(d.first, nFirst-4)) > d.n {
		return d, errors.New("chinese dictionary: bad word offsets")
	}
	return d, nil
}

// u32 and u64 read little-endian integers from s at byte i.
func u32(s string, i int) uint32 {
	_ = s[i+3]
	return uint32(s[i]) | uint32(s[i+1])<<8 | uint32(s[i+2])<<16 | uint32(s[i+3])<<24
}

func u64(s string, i int) uint64 { return uint64(u32(s, i)) | uint64(u32(s, i+4))<<32 }

// word returns the i-th word (a substring of the pool).
func (d *zhDict) word(i int) string {
	return d.pool[u32(d.offs, 4*i):u32(d.offs, 4*i+4)]
}

func (d *zhDict) freq(i int) float64 { return float64(u32(d.freqs, 4*i)) }

// narrow takes the range [lo, hi) of the words that start with a prefix of
// p bytes and returns the sub-range of those whose next bytes are c (one
// character). The word equal to prefix+c, if any, is the first of the
// sub-range.
func (d *zhDict) narrow(lo, hi, p int, c string) (int, int) {
	if p == 0 && lo == 0 && hi == d.n {
		if r := runeAt(c, 0); r >= zhFirstLo && r < zhFirstHi {
			k := 4 * int(r-zhFirstLo)
			return int(u32(d.first, k)), int(u32(d.first, k+4))
		}
	}
	// l: first word whose bytes after the prefix, cut to len(c), are >= c.
	l, h := lo, hi
	for l < h {
		m := int(uint(l+h) >> 1)
		if d.cmpAt(m, p, c) < 0 {
			l = m + 1
		} else {
			h = m
		}
	}
	// e: first word after l whose cut bytes are > c.
	e, h := l, hi
	for e < h {
		m := int(uint(e+h) >> 1)
		if d.cmpAt(m, p, c) <= 0 {
			e = m + 1
		} else {
			h = m
		}
	}
	return l, e
}

// cmpAt compares the bytes of word i after its first p, cut to len(c),
// with c.
func (d *zhDict) cmpAt(i, p int, c string) int {
	st, en := int(u32(d.offs, 4*i))+p, int(u32(d.offs, 4*i+4))
	w := d.pool[st:min(en, st+len(c))]
	switch {
	case w < c:
		return -1
	case w > c:
		return 1
	}
	return 0
}

// lookup returns the frequency of word s, and whether s is a word or the
// prefix of one (freq 0 for a prefix only), as gse's Dictionary.Find does.
func (d *zhDict) lookup(s string) (freq float64, ok bool) {
	lo, hi, p := 0, d.n, 0
	for p < len(s) {
		n := runeLen(s, p)
		lo, hi = d.narrow(lo, hi, p, s[p:p+n])
		if lo == hi {
			return 0, false
		}
		p += n
	}
	if len(d.word(lo)) == len(s) {
		return d.freq(lo), true
	}
	return 0, true
}

// emit returns the HMM emission log probabilities of r for states B, E, M,
// S; the model's minimum for a rune it does not know.
func (d *zhDict) emit(r rune) [4]float64 {
	i := sort.Search(d.nr, func(k int) bool { return rune(u32(d.hmmRunes, 4*k)) >= r })
	if i == d.nr || rune(u32(d.hmmRunes, 4*i)) != r {
		return [4]float64{hmmMin, hmmMin, hmmMin, hmmMin}
	}
	var e [4]float64
	for s := range e {
		e[s] = math.Float64frombits(u64(d.hmmEmit, 32*i+8*s))
	}
	return e
}

// runeLen returns the byte length of the UTF-8 character at s[i].
func runeLen(s string, i int) int {
	switch c := s[i]; {
	case c < 0x80:
		return 1
	case c < 0xE0:
		return min(2, len(s)-i)
	case c < 0xF0:
		return min(3, len(s)-i)
	}
	return min(4, len(s)-i)
}
