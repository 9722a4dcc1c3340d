package query

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEmbeddedTables(t *testing.T) {
	lex, problems := parseTSV(lexiconTSV, validHanKey)
	for _, p := range problems {
		t.Errorf("lexicon_zh_en.tsv %s", p)
	}
	if n := len(lex.m); n < 600 {
		t.Errorf("lexicon has %d entries, want >= 600", n)
	}
	syn, problems := parseTSV(synonymsTSV, validEnglishWord)
	for _, p := range problems {
		t.Errorf("synonyms_en.tsv %s", p)
	}
	if n := len(syn.m); n < 50 {
		t.Errorf("synonyms has %d entries, want >= 50", n)
	}
	for k := range lex.m {
		if stopZH[k] {
			t.Errorf("lexicon key %q is a Chinese stop word and can never match", k)
		}
	}
	for k := range syn.m {
		if stopEN[k] {
			t.Errorf("synonym key %q is an English stop word and can never match", k)
		}
	}
	t.Logf("lexicon: %d entries (%d English words); synonyms: %d entries",
		len(lex.m), countWords(lex), len(syn.m))
}

func countWords(t table) (n int) {
	for _, ws := range t.m {
		n += len(ws)
	}
	return n
}

func TestParseTSVRejects(t *testing.T) {
	data := strings.Join([]string{
		"# comment",
		"",
		"登录\tlogin signin",
		"登录\tlogon",          // duplicate key
		"超时 timeout",         // no tab
		"redirect\tredirect", // key not Han
		"重试\tRetry",          // upper case
		"代理\tproxy-server",   // punctuation
		"压缩\t",               // no words
		"解析\tparse parse\r",  // duplicate word dropped, CR tolerated
	}, "\n")
	tb, problems := parseTSV(data, validHanKey)
	if len(problems) != 6 {
		t.Errorf("problems = %q, want 6", problems)
	}
	if len(tb.m) != 2 || len(tb.m["登录"]) != 2 || len(tb.m["解析"]) != 1 {
		t.Errorf("table = %v", tb.m)
	}
	if tb.maxRunes != 2 {
		t.Errorf("maxRunes = %d", tb.maxRunes)
	}
}

func TestKeysIn(t *testing.T) {
	loadTables()
	got := lexicon.keysIn("压缩文件上传")
	want := []string{"压缩", "文件", "上传"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("keysIn = %q, want %q", got, want)
	}
	// Single-character keys only when the whole word is made of keys.
	for word, want := range map[string]string{
		"读锁":   "读,锁", // read + lock: every character is a key
		"龙头":   "",    // 龙 is no key: 头 (header) would be a stray word
		"压缩龙头": "压缩",  // the longer key stays
		"头":    "头",   // a word of one character is itself
	} {
		if got := strings.Join(lexicon.keysIn(word), ","); got != want {
			t.Errorf("keysIn(%q) = %q, want %q", word, got, want)
		}
	}
	for k := range lexicon.m {
		if utf8.RuneCountInString(k) > lexicon.maxRunes {
			t.Fatalf("maxRunes %d < len(%q)", lexicon.maxRunes, k)
		}
	}
}

// TestEveryLexiconKeyIsFound checks that each key of two or more characters,
// asked about on its own, is a keyword of the query with its English words:
// the query's segmentation must not cut a software term into ordinary words
// (before keys became words of that segmentation, 224 keys such as 类型断言
// were cut into whole words and never looked up).
func TestEveryLexiconKeyIsFound(t *testing.T) {
	loadTables()
	missed := 0
	for k, en := range lexicon.m {
		if utf8.RuneCountInString(k) < 2 {
			continue
		}
		q := Parse(k)
		if !slices.Contains(q.Keywords, k) || !slices.Contains(q.Expanded, en[0]) {
			missed++
			if missed <= 20 {
				t.Errorf("Parse(%q): keywords %q, expanded %q; want the key and %q", k, q.Keywords, q.Expanded, en[0])
			}
		}
	}
	if missed > 0 {
		t.Errorf("%d keys not found", missed)
	}
}
