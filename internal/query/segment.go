package query

import (
	"math"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
)

// segLoaded records that the dictionary was opened (for tests).
var segLoaded atomic.Bool

// Segment splits a run of Chinese text into words, the way gse's precise
// mode with its HMM (gse.Segmenter.Cut(s, true), dictionary "zh_s") does,
// over the embedded dictionary dictZH:
//
//   - every dictionary word that occurs in s is an edge of a DAG; the
//     segmentation is the path of maximum probability, each word weighing
//     log(freq) − log(total frequency) (jieba's model, which gse follows,
//     ties included);
//   - runs of two or more single characters on that path that are not
//     themselves a dictionary word are re-cut by the HMM (Viterbi over the
//     states B, M, E, S), which finds words the dictionary lacks.
//
// Text other than Han characters is cut into runs of letters and digits
// (lower-cased); punctuation and spaces only separate words.
//
// The dictionary is read in place, so the first call costs almost nothing
// (no load, no per-word allocation). If the embedded dictionary is damaged,
// each Han character becomes a word. It is safe for concurrent use.
func Segment(s string) []string { return segmentWith(s, nil) }

// keepWords drops whitespace and punctuation-only pieces.
func keepWords(words []string) []string {
	out := words[:0]
	for _, w := range words {
		if w = strings.TrimSpace(w); w != "" && strings.IndexFunc(w, isWordChar) >= 0 {
			out = append(out, w)
		}
	}
	return out
}

// userWords adds words to the dictionary for one segmentation, as jieba's
// user dictionary does: freq returns the frequency to give w, 0 for none.
// Only words of 2..maxRunes characters are asked about.
type userWords struct {
	freq     func(w string) float64
	maxRunes int
}

// segmentWith is Segment with extra words (nil: none, which is Segment).
// Runs of Han characters are cut; the rest of s is cut into runs of letters
// and digits, lower-cased, everything else separating them.
func segmentWith(s string, extra *userWords) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	zhOnce.Do(loadZH)
	if zhErr != nil {
		return fallbackSegment(s)
	}
	var out []string
	start, han := -1, false // current run and whether it is Han
	flush := func(end int) {
		if start < 0 {
			return
		}
		if run := strings.ToLower(s[start:end]); han {
			out = zh.cut(run, extra, out)
		} else {
			out = append(out, run)
		}
		start = -1
	}
	for i, r := range s {
		h := isHan(r)
		if !h && (r == utf8.RuneError || !isWordChar(r)) {
			flush(i)
			continue
		}
		if start >= 0 && h != han {
			flush(i)
		}
		if start < 0 {
			start, han = i, h
		}
	}
	flush(len(s))
	return keepWords(out)
}

// cut appends the words of s to out (gse's cutDAG), with extra words if
// extra is not nil.
func (d *zhDict) cut(s string, extra *userWords, out []string) []string {
	// pos[i] is the byte offset of character i; pos[n] == len(s).
	pos := make([]int, 0, len(s)/3+1)
	for i := 0; i < len(s); i += runeLen(s, i) {
		pos = append(pos, i)
	}
	n := len(pos)
	pos = append(pos, len(s))
	best := d.routes(s, pos, extra)
	bufStart := -1 // first character of the pending run of single characters
	flush := func(end int) {
		if bufStart < 0 {
			return
		}
		if end-bufStart == 1 {
			out = append(out, s[pos[bufStart]:pos[end]])
		} else {
			out = d.cutUnknown(s[pos[bufStart]:pos[end]], out)
		}
		bufStart = -1
	}
	for x := 0; x < n; {
		y := best[x] + 1
		if y-x == 1 {
			if bufStart < 0 {
				bufStart = x
			}
		} else {
			flush(x)
			out = append(out, s[pos[x]:pos[y]])
		}
		x = y
	}
	flush(n)
	return out
}

// routes returns, for each character i, the last character of the word
// that starts at i on the most probable segmentation of s (gse's calc:
// scores from the right; on equal scores the longer word wins). A
// character that starts no word is a word of its own, scored as frequency
// 1 if the dictionary does not know it at all, and as log 0 if it only
// starts longer words (both as in gse). Extra words are further edges,
// with their own frequency or the dictionary's, whichever is higher.
func (d *zhDict) routes(s string, pos []int, extra *userWords) []int {
	n := len(pos) - 1
	score := make([]float64, n+1)
	best := make([]int, n+1)
	for i := n - 1; i >= 0; i-- {
		set := false
		consider := func(end int, f float64) {
			r := f + score[end+1]
			if !set || score[i] < r || (score[i] == r && best[i] < end) {
				score[i], best[i], set = r, end, true
			}
		}
		lo, hi, p := 0, d.n, pos[i]
		for j := i; j < n; j++ {
			c := s[pos[j]:pos[j+1]]
			lo, hi = d.narrow(lo, hi, p-pos[i], c)
			if lo == hi {
				break
			}
			p = pos[j+1]
			if len(d.word(lo)) == p-pos[i] {
				consider(j, math.Log(d.freq(lo))-d.logTotal)
			}
		}
		if !set {
			f := 1.0 // unknown character
			if lo, hi := d.narrow(0, d.n, 0, s[pos[i]:pos[i+1]]); lo < hi {
				f = 0 // starts words but is none (gse: found, frequency 0)
			}
			consider(i, math.Log(f)-d.logTotal)
		}
		if extra == nil {
			continue
		}
		for j := i + 1; j < n && j-i < extra.maxRunes; j++ {
			if f := extra.freq(s[pos[i]:pos[j+1]]); f > 0 {
				consider(j, math.Log(f)-d.logTotal)
			}
		}
	}
	return best
}

// cutUnknown cuts a run of two or more characters that the best path left
// as single characters: a dictionary word stays single characters (gse),
// anything else goes to the HMM.
func (d *zhDict) cutUnknown(s string, out []string) []string {
	if f, ok := d.lookup(s); ok && f != 0 {
		for i := 0; i < len(s); {
			n := runeLen(s, i)
			out = append(out, s[i:i+n])
			i += n
		}
		return out
	}
	return d.hmmCut(s, out)
}

// HMM states, in the order of the emission table.
const (
	stB = iota // begins a word
	stE        // ends a word
	stM        // inside a word
	stS        // a single-character word
)

// hmmMin is the HMM's log probability of the impossible.
const hmmMin = -3.14e100

// jieba's HMM start and transition log probabilities (MIT licence; see
// dict_zh.NOTICE), as gse's hmm package uses them.
var (
	hmmStart = [4]float64{stB: -0.26268660809250016, stE: hmmMin, stM: hmmMin, stS: -1.4652633398537678}
	// hmmPrev lists, for each state, the states that may precede it.
	hmmPrev  = [4][2]int{stB: {stE, stS}, stE: {stB, stM}, stM: {stM, stB}, stS: {stS, stE}}
	hmmTrans = [4][4]float64{
		stB: {stE: -0.510825623765990, stM: -0.916290731874155, stB: hmmMin, stS: hmmMin},
		stE: {stB: -0.5897149736854513, stS: -0.8085250474669937, stE: hmmMin, stM: hmmMin},
		stM: {stE: -0.33344856811948514, stM: -1.2603623820268226, stB: hmmMin, stS: hmmMin},
		stS: {stB: -0.7211965654669841, stS: -0.6658631448798212, stE: hmmMin, stM: hmmMin},
	}
	// hmmOrder breaks ties between states as gse does: by the state's
	// letter, the later letter winning (B < E < M < S).
	hmmOrder = [4]int{stB: 'B', stE: 'E', stM: 'M', stS: 'S'}
)

// hmmCut segments s with the Viterbi path of the B/M/E/S HMM (gse hmm.Cut
// for a run of Han characters).
func (d *zhDict) hmmCut(s string, out []string) []string {
	var pos []int
	for i := 0; i < len(s); i += runeLen(s, i) {
		pos = append(pos, i)
	}
	n := len(pos)
	pos = append(pos, len(s))
	back := make([][4]int8, n)
	var v [4]float64
	e := d.emit(runeAt(s, pos[0]))
	for st := range v {
		v[st] = e[st] + hmmStart[st]
	}
	for t := 1; t < n; t++ {
		e := d.emit(runeAt(s, pos[t]))
		var nv [4]float64
		for st := range nv {
			p0, p1 := hmmPrev[st][0], hmmPrev[st][1]
			a := v[p0] + hmmTrans[p0][st] + e[st]
			b := v[p1] + hmmTrans[p1][st] + e[st]
			if a > b || (a == b && hmmOrder[p0] > hmmOrder[p1]) {
				nv[st], back[t][st] = a, int8(p0)
			} else {
				nv[st], back[t][st] = b, int8(p1)
			}
		}
		v = nv
	}
	last := stS
	if v[stE] > v[stS] {
		last = stE
	}
	states := make([]int8, n)
	states[n-1] = int8(last)
	for t := n - 1; t > 0; t-- {
		states[t-1] = back[t][states[t]]
	}
	begin, next := 0, 0
	for i := 0; i < n; i++ {
		switch states[i] {
		case stB:
			begin = i
		case stE:
			out = append(out, s[pos[begin]:pos[i+1]])
			next = i + 1
		case stS:
			out = append(out, s[pos[i]:pos[i+1]])
			next = i + 1
		}
	}
	if next < n {
		out = append(out, s[pos[next]:])
	}
	return out
}

func runeAt(s string, i int) rune {
	for _, r := range s[i:] {
		return r
	}
	return 0
}

func isWordChar(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// fallbackSegment cuts s into single Han characters and runs of other
// letters/digits; used only if the embedded dictionary is damaged.
func fallbackSegment(s string) []string {
	var out []string
	start := -1
	for i, r := range s {
		switch {
		case isHan(r):
			if start >= 0 {
				out, start = append(out, s[start:i]), -1
			}
			out = append(out, string(r))
		case isWordChar(r):
			if start < 0 {
				start = i
			}
		default:
			if start >= 0 {
				out, start = append(out, s[start:i]), -1
			}
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}
