package query

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"
)

// lexiconTSV maps Chinese software vocabulary to English words
// ("中文<TAB>english words"). General programming vocabulary only.
//
//go:embed lexicon_zh_en.tsv
var lexiconTSV string

// synonymsTSV maps English words to English synonyms, same format.
//
//go:embed synonyms_en.tsv
var synonymsTSV string

// table is a parsed TSV: key → English words.
type table struct {
	m        map[string][]string
	maxRunes int // longest key, in runes
}

var (
	tablesOnce sync.Once
	lexicon    table
	synonyms   table
)

func loadTables() {
	tablesOnce.Do(func() {
		lexicon, _ = parseTSV(lexiconTSV, validHanKey)
		synonyms, _ = parseTSV(synonymsTSV, validEnglishWord)
	})
}

// parseTSV parses "key<TAB>word word ..." lines. Blank lines and lines
// starting with '#' are ignored. Malformed lines (no tab, bad key, bad or no
// English word, duplicate key) are skipped and reported in problems; the
// embedded files are checked by the tests to have none.
func parseTSV(data string, validKey func(string) bool) (t table, problems []string) {
	t.m = make(map[string][]string)
	for n, line := range strings.Split(data, "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, rest, ok := strings.Cut(line, "\t")
		key = strings.TrimSpace(key)
		words := strings.Fields(rest)
		bad := ""
		switch {
		case !ok:
			bad = "no tab"
		case !validKey(key):
			bad = fmt.Sprintf("bad key %q", key)
		case len(words) == 0:
			bad = "no English words"
		case t.m[key] != nil:
			bad = fmt.Sprintf("duplicate key %q", key)
		}
		for _, w := range words {
			if !validEnglishWord(w) {
				bad = fmt.Sprintf("bad English word %q", w)
			}
		}
		if bad != "" {
			problems = append(problems, fmt.Sprintf("line %d: %s", n+1, bad))
			continue
		}
		t.m[key] = dedupStrings(words)
		if r := utf8.RuneCountInString(key); r > t.maxRunes {
			t.maxRunes = r
		}
	}
	return t, problems
}

// validEnglishWord reports whether w is a plain lower-case word [a-z][a-z0-9]*.
func validEnglishWord(w string) bool {
	if w == "" || w[0] < 'a' || w[0] > 'z' {
		return false
	}
	for i := 1; i < len(w); i++ {
		if c := w[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// validHanKey reports whether k is a non-empty run of Han characters.
func validHanKey(k string) bool {
	if k == "" {
		return false
	}
	for _, r := range k {
		if !isHan(r) {
			return false
		}
	}
	return true
}

func dedupStrings(ws []string) []string {
	out := ws[:0]
	for i, w := range ws {
		dup := false
		for _, p := range ws[:i] {
			if p == w {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, w)
		}
	}
	return out
}

// keysIn scans word left to right and returns the lexicon keys it contains,
// taking the longest key at each position and skipping past it; positions
// where no key starts are skipped one character at a time. Single-character
// keys count only when the whole word is made of keys and single-character
// stop words (读锁 → 读, 锁; 值时 → 值): inside a word the lexicon does not
// know (龙头), a lone character is as
// likely part of an unrelated word as the software term it stands for
// (头 → header), and one stray English word can decide a ranking.
func (t table) keysIn(word string) []string {
	rs := []rune(word)
	var out []string
	covered := true
	for i := 0; i < len(rs); {
		l := min(t.maxRunes, len(rs)-i)
		for ; l > 0; l-- {
			if _, ok := t.m[string(rs[i:i+l])]; ok {
				break
			}
		}
		if l == 0 {
			// A particle the segmenter glued on (值时: 值 + 时) does not make the
			// word unknown.
			covered = covered && stopZH[string(rs[i])]
			i++
			continue
		}
		out = append(out, string(rs[i:i+l]))
		i += l
	}
	if covered || len(rs) == 1 {
		return out
	}
	kept := out[:0]
	for _, k := range out {
		if utf8.RuneCountInString(k) > 1 {
			kept = append(kept, k)
		}
	}
	return kept
}
