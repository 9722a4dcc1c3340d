package query

import (
	"strings"
	"unicode/utf8"
)

// Term sources.
const (
	SourceIdentifier = "identifier" // a code identifier of the query, kept whole
	SourceWord       = "word"       // a plain word of the query, or an inflection variant of one
	SourceSubword    = "subword"    // a sub-word (or dotted component) of an identifier
	SourceCJK        = "cjk"        // a Chinese word of the query, or a lexicon key inside one
	SourceLexicon    = "lexicon"    // an English word from the Chinese→English lexicon
	SourceDictionary = "dictionary" // an English word from the general Chinese→English dictionary, for a word the lexicon does not know
	SourceSynonym    = "synonym"    // an English synonym of a query word
)

// Term weights. Words written in the query weigh 1; everything derived from
// them weighs less, the further it is from what was typed.
const (
	WeightQuery   = 1.0 // identifiers, words and Chinese words of the query
	WeightPlural  = 0.8 // singular of a plural word: "redirects" → "redirect"
	WeightInflect = 0.7 // base of an -ing/-ed word: "closed" → "clos", "close"
	WeightLexicon = 0.6 // English words of a Chinese word: 超时 → "timeout"
	WeightSynonym = 0.5 // English synonyms: "signin" → "login"
	WeightGloss   = 0.3 // the general dictionary's English for a word the lexicon lacks (its primary sense): 交换 → "exchange"
	WeightCJKPart = 0.5 // lexicon keys inside a longer Chinese word: 压缩文件 → 压缩, 文件
	WeightSubword = 0.4 // sub-words of an identifier: "user_id" → "user", "id"
)

// Term is one thing to match in the FTS index.
type Term struct {
	Text   string  // lower-case term as it should be matched in the FTS index
	Weight float64 // 1.0 for words of the query; below 1 for expansions (see the Weight constants)
	Source string  // one of the Source constants
}

// Query is a parsed search query.
type Query struct {
	Raw         string
	Identifiers []string // code identifiers pulled from the raw query, kept whole (original case): MemoryManager.compress, user_id, spring.datasource.url
	Keywords    []string // the display list: order-preserving, no duplicates ("Agent 的 ReAct 循环是怎么实现的" → Agent, ReAct, 循环)
	Terms       []Term   // everything to match, deduplicated (highest weight kept), order-preserving
	Expanded    []string // English expansion words only (lexicon/synonyms), for the semantic channel text
}

// Options turn query expansions on and off, e.g. for evaluation. The zero
// value turns both off; Parse uses DefaultOptions.
type Options struct {
	Lexicon  bool // expand Chinese words with lexicon_zh_en.tsv (and add the lexicon keys found inside longer Chinese words)
	Synonyms bool // expand English words with synonyms_en.tsv
	// Dictionary expands a Chinese word that neither is nor holds a
	// lexicon key with the general dictionary (cedict_zh_en.tsv); only
	// with Lexicon.
	Dictionary bool
}

// DefaultOptions are the options Parse uses: every expansion on.
var DefaultOptions = Options{Lexicon: true, Synonyms: true, Dictionary: true}

// Parse parses a search query with DefaultOptions.
func Parse(q string) Query { return ParseWith(q, DefaultOptions) }

// ParseWith parses a search query:
//
//   - Tokens are runs of letters, digits, '_', '$' with inner '.' and '-'
//     (the same tokens IndexText sees; this covers the identifier pattern
//     [A-Za-z][A-Za-z0-9_.$-]+ with trailing '.'/'-' trimmed, plus a leading
//     '$' or '_' as in "$el" or "__init__"). Everything else, including FTS
//     syntax (quotes, '*', parentheses, ':', a leading '-'), only separates
//     tokens, so no Term carries FTS operators.
//   - A token that looks like code (contains '_', '.', '$' or '-', mixes
//     letters and digits, or has inner upper case as in "ReAct") is an
//     identifier: kept whole (WeightQuery), and its sub-words and the
//     structured components of a dotted path added (WeightSubword), minus
//     single characters and English stop words.
//   - Other tokens are plain words, lower-cased, dropped if a single
//     character or an English stop word. Inflection variants are added as
//     extra terms (FTS matches exact tokens, so the word itself is kept as
//     typed): for a plural, the singular (WeightPlural: "redirects" →
//     "redirect", "queries" → "query" and "querie", "classes" → "classe" and
//     "class"); for -ing/-ed, the stem, the stem plus "e", and the stem with
//     a doubled final consonant undone (WeightInflect: "closed" → "clos",
//     "close"; "mapping" → "mapp", "mappe", "map"); for an irregular past,
//     the base form (WeightInflect: "written" → "write"). Variants that are not
//     words simply match nothing. Words with a synonym entry (or, failing
//     that, whose variant has one) add the synonyms (WeightSynonym).
//   - Runs of Han characters are segmented with Segment, the lexicon's keys
//     counting as words of the dictionary (see lexiconWordFreq), so that a
//     software term the general dictionary cuts into words (类型断言 →
//     类型 断言) comes out whole; the plain segmentation's words inside it
//     (the index's tokens) stay terms (WeightCJKPart). Chinese stop words,
//     words made only of stop words ("哪些地方", but not a lexicon key such
//     as 对等) and single characters that are not lexicon keys are dropped;
//     the rest are kept (WeightQuery). A word that is a lexicon key adds its
//     English words (WeightLexicon); a word that is not a key adds the keys
//     found inside it by a longest-match scan (WeightCJKPart) and their
//     English words; a word with no key inside adds what the general
//     dictionary gives for it (Options.Dictionary, WeightGloss: 交换 →
//     exchange). When the segmenter splits a
//     lexicon word into pieces at least one of which is a single character
//     (结构体 → 结构 体, 幂等 → 幂 等), the pieces are joined back: the key
//     becomes the keyword and a WeightQuery term with its English words, and
//     its pieces of two or more characters stay terms (WeightCJKPart).
//
// Keywords lists the identifiers, words and Chinese words as typed (case
// preserved, duplicates compared case-insensitively). An empty or blank
// query gives a Query with only Raw set.
func ParseWith(q string, opt Options) Query {
	p := parser{opt: opt, q: Query{Raw: q}}
	loadTables()
	for i := 0; ; {
		st, en, han := nextPiece(q, i)
		if st >= len(q) {
			break
		}
		if han {
			p.chinese(q[st:en])
		} else {
			p.token(q[st:en])
		}
		i = en
	}
	return p.q
}

type parser struct {
	opt      Options
	q        Query
	terms    map[string]int  // term text → index in q.Terms
	keywords map[string]bool // lower-cased keywords
	idents   map[string]bool
	expanded map[string]bool
}

func (p *parser) addTerm(text string, w float64, src string) {
	if text == "" {
		return
	}
	if p.terms == nil {
		p.terms = make(map[string]int)
	}
	if k, ok := p.terms[text]; ok {
		if w > p.q.Terms[k].Weight {
			p.q.Terms[k].Weight, p.q.Terms[k].Source = w, src
		}
		return
	}
	p.terms[text] = len(p.q.Terms)
	p.q.Terms = append(p.q.Terms, Term{Text: text, Weight: w, Source: src})
}

func (p *parser) addKeyword(kw string) {
	if p.keywords == nil {
		p.keywords = make(map[string]bool)
	}
	if k := lower(kw); !p.keywords[k] {
		p.keywords[k] = true
		p.q.Keywords = append(p.q.Keywords, kw)
	}
}

func (p *parser) addExpansions(words []string, w float64, src string) {
	if p.expanded == nil {
		p.expanded = make(map[string]bool)
	}
	for _, e := range words {
		p.addTerm(e, w, src)
		if !p.expanded[e] {
			p.expanded[e] = true
			p.q.Expanded = append(p.q.Expanded, e)
		}
	}
}

// token handles one Latin (or other non-Han script) token.
func (p *parser) token(tok string) {
	if utf8.RuneCountInString(tok) < 2 || !hasLetterOrDigit(tok) {
		return
	}
	low := lower(tok)
	if stopEN[low] {
		return
	}
	if looksLikeIdentifier(tok) {
		if p.idents == nil {
			p.idents = make(map[string]bool)
		}
		if !p.idents[tok] {
			p.idents[tok] = true
			p.q.Identifiers = append(p.q.Identifiers, tok)
		}
		p.addKeyword(tok)
		p.addTerm(low, WeightQuery, SourceIdentifier)
		if strings.IndexByte(tok, '.') >= 0 {
			for _, part := range strings.Split(tok, ".") {
				if hasStructure(part) {
					p.addTerm(lower(part), WeightSubword, SourceSubword)
				}
			}
		}
		for _, sub := range SplitIdentifier(tok) {
			if utf8.RuneCountInString(sub) >= 2 && !stopEN[sub] {
				p.addTerm(sub, WeightSubword, SourceSubword)
			}
		}
		return
	}
	p.addKeyword(tok)
	p.addTerm(low, WeightQuery, SourceWord)
	vars := variants(low)
	for _, v := range vars {
		p.addTerm(v.text, v.weight, SourceWord)
	}
	if p.opt.Synonyms {
		syn := synonyms.m[low]
		for _, v := range vars {
			if syn != nil {
				break
			}
			syn = synonyms.m[v.text]
		}
		p.addExpansions(syn, WeightSynonym, SourceSynonym)
	}
}

// lexiconWordFreq is the dictionary frequency that a lexicon key of two or
// more characters has while a query is segmented: that of an everyday word
// (the dictionary's words of two characters have a median frequency of 10;
// 编码 has 327, 命名 2,356). It lets a software term be cut out of the
// text whole (命名空间 rather than 命名 空间, 解码 rather than the 和解 of
// 编码和解码) without outweighing the ordinary words around it (数据包含
// stays 数据 包含 although 数据包 is a key).
const lexiconWordFreq = 1000

// lexiconUserWords makes the lexicon's keys words of the query's
// segmentation (see lexiconWordFreq).
func lexiconUserWords() *userWords {
	return &userWords{maxRunes: lexicon.maxRunes, freq: func(w string) float64 {
		if _, ok := lexicon.m[w]; ok {
			return lexiconWordFreq
		}
		return 0
	}}
}

// chinese handles one run of Han characters. With the lexicon on, the run
// is segmented with the lexicon's keys as extra words, so that software
// terms come out whole; the words of the plain segmentation (the one the
// index uses) that lie inside such a term stay terms (WeightCJKPart), so
// Chinese text in the index still matches.
func (p *parser) chinese(run string) {
	segs := Segment(run)
	var inner map[int][]string // index in segs → plain words inside it
	if p.opt.Lexicon {
		plain := segs
		segs = segmentWith(run, lexiconUserWords())
		inner = innerWords(run, segs, plain)
	}
	for i := 0; i < len(segs); {
		if p.opt.Lexicon {
			if j := mergeAt(segs, i); j > 0 {
				p.merged(segs[i:j])
				i = j
				continue
			}
		}
		w := segs[i]
		parts := inner[i]
		i++
		if isStopZH(w) {
			continue
		}
		if utf8.RuneCountInString(w) == 1 {
			if _, ok := lexicon.m[w]; !ok || !p.opt.Lexicon {
				continue
			}
		}
		p.addKeyword(w)
		p.addTerm(w, WeightQuery, SourceCJK)
		if !p.opt.Lexicon {
			continue
		}
		for _, part := range parts {
			if utf8.RuneCountInString(part) > 1 && !isStopZH(part) {
				p.addTerm(part, WeightCJKPart, SourceCJK)
			}
		}
		if en, ok := lexicon.m[w]; ok {
			p.addExpansions(en, WeightLexicon, SourceLexicon)
			continue
		}
		keys := lexicon.keysIn(w)
		for _, k := range keys {
			p.addTerm(k, WeightCJKPart, SourceCJK)
			p.addExpansions(lexicon.m[k], WeightLexicon, SourceLexicon)
		}
		if len(keys) == 0 && p.opt.Dictionary {
			p.addExpansions(glossOf(w), WeightGloss, SourceDictionary)
		}
	}
}

// innerWords maps each word of segs that is not also a word of plain (both
// segmentations of run, in order) to the words of plain that lie inside it.
func innerWords(run string, segs, plain []string) map[int][]string {
	type span struct{ st, en int }
	spans := func(ws []string) []span {
		out, cur := make([]span, 0, len(ws)), 0
		for _, w := range ws {
			st := cur + max(strings.Index(run[cur:], w), 0)
			cur = st + len(w)
			out = append(out, span{st, cur})
		}
		return out
	}
	ss, ps := spans(segs), spans(plain)
	var m map[int][]string
	for i, s := range ss {
		var in []string
		same := false
		for j, q := range ps {
			if q == s {
				same = true
				break
			}
			if q.st >= s.st && q.en <= s.en {
				in = append(in, plain[j])
			}
		}
		if !same && len(in) > 0 {
			if m == nil {
				m = make(map[int][]string)
			}
			m[i] = in
		}
	}
	return m
}

// mergeAt repairs the segmenter fragmenting a lexicon word (结构体 → 结构 体, 幂等 →
// 幂 等): it returns the end j of the longest run segs[i:j] of two or more
// segments, at least one of them a single character, that together spell
// a lexicon key; 0 if there is none. Runs of whole words (日志 轮转) are
// never merged.
func mergeAt(segs []string, i int) int {
	var b strings.Builder
	best, runes, single := 0, 0, false
	for j := i; j < len(segs); j++ {
		n := utf8.RuneCountInString(segs[j])
		if runes += n; runes > lexicon.maxRunes {
			break
		}
		single = single || n == 1
		b.WriteString(segs[j])
		if j > i && single {
			if _, ok := lexicon.m[b.String()]; ok {
				best = j + 1
			}
		}
	}
	return best
}

// merged handles a lexicon key that the segmenter had split into parts: the key is a
// keyword and a term of the query, with its English words; its parts of two
// or more characters stay terms (WeightCJKPart), since that is how the
// index segments the same text.
func (p *parser) merged(parts []string) {
	k := strings.Join(parts, "")
	p.addKeyword(k)
	p.addTerm(k, WeightQuery, SourceCJK)
	p.addExpansions(lexicon.m[k], WeightLexicon, SourceLexicon)
	for _, w := range parts {
		if utf8.RuneCountInString(w) > 1 && !isStopZH(w) {
			p.addTerm(w, WeightCJKPart, SourceCJK)
		}
	}
}

func hasLetterOrDigit(s string) bool {
	st, _ := nextSubword(s, 0)
	return st < len(s)
}

// looksLikeIdentifier reports whether a token is code rather than a word:
// it contains '_', '.', '$' or '-', mixes letters and digits, or has upper
// case inside it after a lower-case letter ("ReAct", "getX") or before one
// after another upper ("HTTPServer"). "Agent", "HTTP" and "404" are words.
func looksLikeIdentifier(tok string) bool {
	if strings.ContainsAny(tok, "_.$-") {
		return true
	}
	st, en := nextSubword(tok, 0)
	return st != 0 || en != len(tok)
}

// FTSQuote returns term as an SQLite FTS5 string literal: wrapped in double
// quotes with inner double quotes doubled, so FTS5 treats every character
// literally (no operators, prefixes or column filters). NUL bytes and
// invalid UTF-8 are dropped.
func FTSQuote(term string) string {
	term = strings.ToValidUTF8(strings.ReplaceAll(term, "\x00", ""), "")
	return `"` + strings.ReplaceAll(term, `"`, `""`) + `"`
}
