package search

import (
	"math"
	"regexp"
	"strings"
	"sync"

	"codectx/internal/query"
)

// confidenceTop is how many of the first results the confidence looks at.
const confidenceTop = 5

// MinConfidence is the confidence below which a search reports no
// confident match (calibrated on the development sets and negative
// questions; docs/EVAL.md).
const MinConfidence = 0.30

// weakResults is how many results a search with no confident match keeps,
// for reference.
const weakResults = 3

// confidence is how much of the query the best results account for: the
// largest idf-weighted share of the query's keyword groups that one of the
// first confidenceTop results matches. A group the project does not match
// at all weighs as much as a word found in a single chunk, so a question
// whose distinctive words are absent from the project scores low however
// well its common words match. A Chinese word the lexicon has no English
// for and the project does not contain counts for nothing: its absence
// says that codectx cannot read it, not that the project lacks what it
// asks for. ok is false when the keyword channel was off (there is then
// no evidence to judge by).
func confidence(kw *keywordResult, ranked []scored, chunks int) (c float64, ok bool) {
	if kw == nil || len(kw.groups) == 0 {
		return 0, false
	}
	rare := math.Log(1 + float64(max(chunks, 1)))
	weights := make([]float64, len(kw.groups))
	var total float64
	for gi, g := range kw.groups {
		w := g.idf
		if w == 0 {
			w = rare
			if g.unread {
				w = 0 // see confidence's doc
			}
		}
		weights[gi] = w
		total += w
	}
	if total == 0 {
		return 0, false
	}
	for _, r := range ranked[:min(len(ranked), confidenceTop)] {
		kc := kw.chunk(r.idx)
		if kc == nil {
			continue
		}
		var s float64
		for gi, v := range kc.score {
			if v > 0 {
				s += weights[gi]
			}
		}
		c = max(c, s/total)
	}
	return c, true
}

// grepWord keeps what a text search can look for: ASCII words and
// identifiers.
var grepWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.$-]*$`) })

// grepPattern is a case-insensitive regular expression for a text search
// (grep) of the query's keywords the project matched least: identifiers and
// words as typed, and the English words of Chinese ones; at most five,
// rarest first.
func grepPattern(kw *keywordResult, q parsed) string {
	type cand struct {
		word string
		df   int
	}
	var cands []cand
	seen := map[string]bool{}
	add := func(w string, df int) {
		w = strings.ToLower(w)
		if len(w) < 3 || seen[w] || !grepWord().MatchString(w) {
			return
		}
		seen[w] = true
		cands = append(cands, cand{w, df})
	}
	for gi, g := range q.groups {
		df := 0
		if kw != nil && gi < len(kw.groups) {
			df = kw.groups[gi].df
		}
		if grepWord().MatchString(g.keyword) {
			add(g.keyword, df)
			continue
		}
		for _, t := range g.terms {
			if t.Source == query.SourceLexicon {
				add(t.Text, df)
				break
			}
		}
	}
	// Rarest first: words absent from the project (df 0) lead.
	for i := 1; i < len(cands); i++ {
		for j := i; j > 0 && cands[j].df < cands[j-1].df; j-- {
			cands[j], cands[j-1] = cands[j-1], cands[j]
		}
	}
	var words []string
	for _, c := range cands[:min(len(cands), 5)] {
		words = append(words, regexp.QuoteMeta(c.word))
	}
	return strings.Join(words, "|")
}
