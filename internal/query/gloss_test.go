package query

import (
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"
)

// The embedded dictionary is what lookupSorted needs: well-formed lines,
// keys strictly increasing bytewise, one valid English word per key.
func TestEmbeddedDictionary(t *testing.T) {
	lines := strings.Split(strings.TrimSuffix(cedictTSV, "\n"), "\n")
	if len(lines) < 20000 {
		t.Fatalf("cedict_zh_en.tsv has %d lines, want >= 20000", len(lines))
	}
	prev := ""
	for i, l := range lines {
		k, rest, ok := strings.Cut(l, "\t")
		words := strings.Fields(rest)
		if !ok || !validHanKey(k) || utf8.RuneCountInString(k) < 2 || len(words) != 1 {
			t.Fatalf("line %d %q: want a Han key of 2+ characters, a tab and one word", i+1, l)
		}
		for _, w := range words {
			if !validEnglishWord(w) {
				t.Fatalf("line %d: bad English word %q", i+1, w)
			}
		}
		if k <= prev {
			t.Fatalf("line %d: key %q not after %q", i+1, k, prev)
		}
		prev = k
	}
}

func TestLookupSorted(t *testing.T) {
	keys := []string{"一", "乙丙", "乙丁", "兀"}
	sort.Strings(keys) // bytewise: 乙丁 (U+4E01) before 乙丙 (U+4E19)
	vals := map[string]string{"一": "a", "乙丙": "b c", "乙丁": "d", "兀": "e"}
	var data string
	for _, k := range keys {
		data += k + "\t" + vals[k] + "\n"
	}
	for key, want := range map[string][]string{
		"一": {"a"}, "乙丙": {"b", "c"}, "乙丁": {"d"}, "兀": {"e"},
		"乙": nil, "乙丙丁": nil, "〇": nil, "龥": nil, "": nil,
	} {
		if got := lookupSorted(data, key); !slices.Equal(got, want) {
			t.Errorf("lookupSorted(%q) = %q, want %q", key, got, want)
		}
	}
	if got := lookupSorted("", "一"); got != nil {
		t.Errorf("empty table: %q", got)
	}
	// Every key of the embedded table is found.
	for _, l := range strings.Split(strings.TrimSuffix(cedictTSV, "\n"), "\n")[:2000] {
		k, rest, _ := strings.Cut(l, "\t")
		if got := lookupSorted(cedictTSV, k); !slices.Equal(got, strings.Fields(rest)) {
			t.Fatalf("lookupSorted(%q) = %q, want %q", k, got, rest)
		}
	}
}

// everydayFreq is the frequency of the 1,000th most frequent word of two
// or more characters in the segmentation dictionary.
func TestEverydayFreq(t *testing.T) {
	zhOnce.Do(loadZH)
	if zhErr != nil {
		t.Fatal(zhErr)
	}
	var fs []float64
	for i := range zh.n {
		if utf8.RuneCountInString(zh.word(i)) >= 2 {
			fs = append(fs, zh.freq(i))
		}
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(fs)))
	if got := fs[999]; got != everydayFreq {
		t.Errorf("the 1,000th frequency is %v, everydayFreq is %v", got, float64(everydayFreq))
	}
}

// A Chinese word the lexicon does not know, with no lexicon key inside it,
// is expanded by the general dictionary; a lexicon key, an everyday word and
// a query parsed without the option are not.
func TestGlossFallback(t *testing.T) {
	loadTables()
	const unknown, everyday = "陷阱", "之后"
	if _, ok := lexicon.m[unknown]; ok || len(lexicon.keysIn(unknown)) > 0 {
		t.Fatalf("the test needs a word the lexicon does not know: %q", unknown)
	}
	want := glossOf(unknown)
	if len(want) == 0 {
		t.Fatalf("the dictionary has no English for %q", unknown)
	}
	m := termMap(Parse("连接池的" + unknown))
	for _, w := range want {
		if got := m[w]; got.Source != SourceDictionary || got.Weight != WeightGloss {
			t.Errorf("%q: term %q = %+v, want a dictionary term of weight %v", unknown, w, got, WeightGloss)
		}
	}
	if got := m["pool"]; got.Source != SourceLexicon {
		t.Errorf("lexicon key 连接池: pool = %+v", got)
	}
	for _, tm := range Parse("连接池").Terms {
		if tm.Source == SourceDictionary {
			t.Errorf("a lexicon key got a dictionary term %+v", tm)
		}
	}
	if g := glossOf(everyday); g != nil {
		t.Errorf("everyday word %q glossed %q", everyday, g)
	}
	if _, ok := cedictWord(everyday); !ok {
		t.Errorf("the test needs an everyday word the dictionary has: %q", everyday)
	}
	for _, tm := range ParseWith(unknown, Options{Lexicon: true}).Terms {
		if tm.Source == SourceDictionary {
			t.Errorf("Dictionary off: %+v", tm)
		}
	}
}

func cedictWord(w string) ([]string, bool) {
	g := lookupSorted(cedictTSV, w)
	return g, g != nil
}
