package query

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// checkInvariants asserts what every parsed query must satisfy.
func checkInvariants(t *testing.T, q Query) {
	t.Helper()
	seen := map[string]bool{}
	sources := []string{SourceIdentifier, SourceWord, SourceSubword, SourceCJK, SourceLexicon, SourceSynonym, SourceDictionary}
	for _, tm := range q.Terms {
		if seen[tm.Text] {
			t.Errorf("%q: duplicate term %q", q.Raw, tm.Text)
		}
		seen[tm.Text] = true
		if tm.Text == "" || tm.Text != strings.ToLower(tm.Text) {
			t.Errorf("%q: term %q is empty or not lower-case", q.Raw, tm.Text)
		}
		if strings.ContainsAny(tm.Text, "\"'*()^:{}+ \t\n") {
			t.Errorf("%q: term %q carries FTS syntax", q.Raw, tm.Text)
		}
		if tm.Weight <= 0 || tm.Weight > 1 {
			t.Errorf("%q: term %q weight %v out of (0, 1]", q.Raw, tm.Text, tm.Weight)
		}
		if !slices.Contains(sources, tm.Source) {
			t.Errorf("%q: term %q has unknown source %q", q.Raw, tm.Text, tm.Source)
		}
	}
	kw := map[string]bool{}
	for _, k := range q.Keywords {
		if kw[strings.ToLower(k)] {
			t.Errorf("%q: duplicate keyword %q", q.Raw, k)
		}
		kw[strings.ToLower(k)] = true
	}
	if len(q.Expanded) != len(dedup(q.Expanded)) {
		t.Errorf("%q: duplicate expansions %q", q.Raw, q.Expanded)
	}
}

func dedup(s []string) []string {
	out := []string{}
	for _, x := range s {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

func termMap(q Query) map[string]Term {
	m := map[string]Term{}
	for _, tm := range q.Terms {
		m[tm.Text] = tm
	}
	return m
}

func texts(q Query) []string {
	var out []string
	for _, tm := range q.Terms {
		out = append(out, tm.Text)
	}
	return out
}

func TestParse(t *testing.T) {
	tests := []struct {
		name        string
		in          string
		keywords    []string // exact, when non-nil
		identifiers []string // exact, when non-nil
		terms       []string // exact term texts, in order, when non-nil
		has         map[string]Term
		hasNot      []string
		expanded    []string // must all be in Expanded
	}{
		{
			name:        "mixed chinese and identifiers",
			in:          "Agent 的 ReAct 循环是怎么实现的",
			keywords:    []string{"Agent", "ReAct", "循环"},
			identifiers: []string{"ReAct"},
			has: map[string]Term{
				"agent": {"agent", 1, SourceWord},
				"react": {"react", 1, SourceIdentifier},
				"act":   {"act", WeightSubword, SourceSubword},
				"循环":    {"循环", 1, SourceCJK},
				"loop":  {"loop", WeightLexicon, SourceLexicon},
			},
			hasNot:   []string{"的", "是", "怎么", "实现"},
			expanded: []string{"loop"},
		},
		{
			name:        "identifiers with dots underscores dollar",
			in:          "where is spring.datasource.url read by MemoryManager.compress, $el and user_id.",
			identifiers: []string{"spring.datasource.url", "MemoryManager.compress", "$el", "user_id"},
			keywords:    []string{"spring.datasource.url", "read", "MemoryManager.compress", "$el", "user_id"},
			has: map[string]Term{
				"spring.datasource.url":  {"spring.datasource.url", 1, SourceIdentifier},
				"datasource":             {"datasource", WeightSubword, SourceSubword},
				"memorymanager.compress": {"memorymanager.compress", 1, SourceIdentifier},
				"memorymanager":          {"memorymanager", WeightSubword, SourceSubword},
				"compress":               {"compress", WeightSubword, SourceSubword},
				"$el":                    {"$el", 1, SourceIdentifier},
				"el":                     {"el", WeightSubword, SourceSubword},
				"user_id":                {"user_id", 1, SourceIdentifier},
				"id":                     {"id", WeightSubword, SourceSubword},
			},
			hasNot: []string{"where", "is", "by", "and", "user_id."},
		},
		{
			name:     "fts special characters",
			in:       `"foo" bar* -baz (x) a:b NEAR(q, r) col:term^2 {a b}`,
			keywords: []string{"foo", "bar", "baz", "NEAR", "col", "term"},
			terms:    []string{"foo", "bar", "baz", "near", "col", "term"},
		},
		{
			name:     "english filler dropped",
			in:       "How does the code find where this function is implemented?",
			keywords: []string{},
			terms:    []string{},
		},
		{
			name:     "keeps get and set",
			in:       "which method does get and set the value",
			keywords: []string{"get", "set", "value"},
		},
		{
			name:     "order preserving, no duplicates",
			in:       "retry Retry RETRY backoff retry 重试 重试",
			keywords: []string{"retry", "backoff", "重试"},
		},
		{
			name:     "lexicon expansion",
			in:       "处理登录超时的地方",
			keywords: []string{"处理", "登录", "超时"},
			has: map[string]Term{
				"login":   {"login", WeightLexicon, SourceLexicon},
				"timeout": {"timeout", WeightLexicon, SourceLexicon},
				"handle":  {"handle", WeightLexicon, SourceLexicon},
			},
			hasNot:   []string{"地方", "的"},
			expanded: []string{"login", "timeout", "handle"},
		},
		{
			name:     "compound of stop words dropped, keys inside a word",
			in:       "哪些地方调用了压缩文件",
			keywords: []string{"调用", "压缩文件"},
			has: map[string]Term{
				"压缩文件":     {"压缩文件", 1, SourceCJK},
				"压缩":       {"压缩", WeightCJKPart, SourceCJK},
				"compress": {"compress", WeightLexicon, SourceLexicon},
				"file":     {"file", WeightLexicon, SourceLexicon},
			},
		},
		{
			name:     "segmenter fragments joined back",
			in:       "时间戳转换",
			keywords: []string{"时间戳", "转换"},
			has: map[string]Term{
				"时间戳":       {"时间戳", 1, SourceCJK},
				"时间":        {"时间", WeightCJKPart, SourceCJK},
				"timestamp": {"timestamp", WeightLexicon, SourceLexicon},
			},
		},
		{
			// The plain segmentation cuts 类型断言 into 类型 断言 (two
			// words) and 引用计数 into 引用 计数; with the lexicon's keys as
			// words of the query's segmentation they come out whole, and the
			// plain words stay terms for Chinese text in the index.
			name:     "lexicon keys cut out whole",
			in:       "类型断言失败时引用计数不变",
			keywords: []string{"类型断言", "失败", "引用计数", "不变"},
			has: map[string]Term{
				"类型断言":      {"类型断言", 1, SourceCJK},
				"类型":        {"类型", WeightCJKPart, SourceCJK},
				"断言":        {"断言", WeightCJKPart, SourceCJK},
				"assertion": {"assertion", WeightLexicon, SourceLexicon},
				"引用计数":      {"引用计数", 1, SourceCJK},
				"refcount":  {"refcount", WeightLexicon, SourceLexicon},
			},
		},
		{
			// 数据包 (packet) is a key, but 数据 包含 are the better cut.
			name:     "lexicon key does not outweigh ordinary words",
			in:       "数据包含",
			keywords: []string{"数据", "包含"},
			hasNot:   []string{"数据包", "packet"},
		},
		{
			name:     "single han character kept only if a lexicon key",
			in:       "他说锁",
			keywords: []string{"锁"},
			has:      map[string]Term{"lock": {"lock", WeightLexicon, SourceLexicon}},
		},
		{
			name:     "plural and inflection variants",
			in:       "closed redirects queries mapping",
			keywords: []string{"closed", "redirects", "queries", "mapping"},
			has: map[string]Term{
				"closed":   {"closed", 1, SourceWord},
				"close":    {"close", WeightInflect, SourceWord},
				"redirect": {"redirect", WeightPlural, SourceWord},
				"query":    {"query", WeightPlural, SourceWord},
				"map":      {"map", WeightInflect, SourceWord},
			},
		},
		{
			name: "highest weight kept",
			in:   "redirects redirect",
			has: map[string]Term{
				"redirects": {"redirects", 1, SourceWord},
				"redirect":  {"redirect", 1, SourceWord},
			},
		},
		{
			name:     "synonyms",
			in:       "signin settings",
			keywords: []string{"signin", "settings"},
			has: map[string]Term{
				"login":  {"login", WeightSynonym, SourceSynonym},
				"config": {"config", WeightSynonym, SourceSynonym},
			},
			expanded: []string{"login", "config"},
		},
		{
			name:     "numbers, acronyms, single characters",
			in:       "HTTP 404 error x 1 e.g. v2",
			keywords: []string{"HTTP", "404", "error", "v2"},
			has: map[string]Term{
				"http": {"http", 1, SourceWord},
				"404":  {"404", 1, SourceWord},
				"v2":   {"v2", 1, SourceIdentifier},
			},
			hasNot: []string{"x", "1", "e.g", "v", "2"},
		},
		{
			name:        "trailing dot and dash trimmed",
			in:          "see compressIfNeeded. and max-age-",
			identifiers: []string{"compressIfNeeded", "max-age"},
		},
		{
			name:     "invalid utf8 and other scripts",
			in:       "caf\xe9 café naïve \xff日志",
			keywords: []string{"caf", "café", "naïve", "日志"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := Parse(tt.in)
			checkInvariants(t, q)
			if q.Raw != tt.in {
				t.Errorf("Raw = %q", q.Raw)
			}
			if tt.keywords != nil && !reflect.DeepEqual(append([]string{}, q.Keywords...), tt.keywords) {
				t.Errorf("Keywords = %q, want %q", q.Keywords, tt.keywords)
			}
			if tt.identifiers != nil && !reflect.DeepEqual(q.Identifiers, tt.identifiers) {
				t.Errorf("Identifiers = %q, want %q", q.Identifiers, tt.identifiers)
			}
			if tt.terms != nil && !reflect.DeepEqual(append([]string{}, texts(q)...), tt.terms) {
				t.Errorf("Terms = %q, want %q", texts(q), tt.terms)
			}
			m := termMap(q)
			for text, want := range tt.has {
				if got, ok := m[text]; !ok || got != want {
					t.Errorf("term %q = %+v (present %v), want %+v", text, got, ok, want)
				}
			}
			for _, text := range tt.hasNot {
				if _, ok := m[text]; ok {
					t.Errorf("unexpected term %q in %q", text, texts(q))
				}
			}
			for _, e := range tt.expanded {
				if !slices.Contains(q.Expanded, e) {
					t.Errorf("Expanded = %q, missing %q", q.Expanded, e)
				}
			}
		})
	}
}

func TestParseEmpty(t *testing.T) {
	if got := Parse(""); !reflect.DeepEqual(got, Query{}) {
		t.Errorf("Parse(\"\") = %+v, want zero Query", got)
	}
	if got := Parse(" \t?!"); !reflect.DeepEqual(got, Query{Raw: " \t?!"}) {
		t.Errorf("Parse(blank) = %+v", got)
	}
}

func TestParseWithOptions(t *testing.T) {
	const q = "settings 登录超时"
	lex := []string{"login", "signin", "authenticate", "timeout", "deadline", "expire"}
	syn := []string{"config", "configuration"}
	tests := []struct {
		opt       Options
		lexicon   bool
		synonyms  bool
		expansion []string
	}{
		{Options{}, false, false, nil},
		{Options{Lexicon: true}, true, false, lex},
		{Options{Synonyms: true}, false, true, syn},
		{DefaultOptions, true, true, append(syn, lex...)},
	}
	for _, tt := range tests {
		p := ParseWith(q, tt.opt)
		checkInvariants(t, p)
		var lex, syn bool
		for _, tm := range p.Terms {
			lex = lex || tm.Source == SourceLexicon
			syn = syn || tm.Source == SourceSynonym
		}
		if lex != tt.lexicon || syn != tt.synonyms {
			t.Errorf("%+v: lexicon terms %v synonym terms %v", tt.opt, lex, syn)
		}
		if !reflect.DeepEqual(p.Expanded, tt.expansion) {
			t.Errorf("%+v: Expanded = %q, want %q", tt.opt, p.Expanded, tt.expansion)
		}
		if want := []string{"settings", "登录", "超时"}; !reflect.DeepEqual(p.Keywords, want) {
			t.Errorf("%+v: Keywords = %q, want %q", tt.opt, p.Keywords, want)
		}
	}
}

// Irregular past forms lead to the base form code names actions by.
func TestIrregularVariants(t *testing.T) {
	for form, base := range map[string]string{"written": "write", "wrote": "write", "sent": "send", "thrown": "throw", "kept": "keep", "overridden": "override"} {
		vs := variants(form)
		if len(vs) != 1 || vs[0].text != base || vs[0].weight != WeightInflect {
			t.Errorf("variants(%q) = %v, want %q at %v", form, vs, base, WeightInflect)
		}
	}
	m := termMap(Parse("where is the header written"))
	if got := m["write"]; got.Source != SourceWord || got.Weight != WeightInflect {
		t.Errorf("written: write = %+v", got)
	}
	for _, w := range []string{"left", "saw", "ground"} {
		if vs := variants(w); len(vs) != 0 {
			t.Errorf("variants(%q) = %v, want none (another meaning)", w, vs)
		}
	}
}

func TestVariants(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"redirects", []string{"redirect"}},
		{"queries", []string{"query", "querie"}},
		{"classes", []string{"classe", "class"}},
		{"types", []string{"type"}},
		{"status", nil},
		{"access", nil},
		{"analysis", nil},
		{"closed", []string{"clos", "close"}},
		{"loading", []string{"load", "loade"}},
		{"parsing", []string{"pars", "parse"}},
		{"mapping", []string{"mapp", "mappe", "map"}},
		{"copied", []string{"copy"}},
		{"need", nil},
		{"bus", nil},
		{"ring", nil},
		{"user_ids", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, v := range variants(tt.in) {
			got = append(got, v.text)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("variants(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestIsStopZH(t *testing.T) {
	for w, want := range map[string]bool{
		"的": true, "怎么": true, "哪些地方": true, "怎么实现": true, "在哪里": true,
		"处理": false, "登录": false, "循环": false, "地址": false, "对等": false,
	} {
		if got := isStopZH(w); got != want {
			t.Errorf("isStopZH(%q) = %v, want %v", w, got, want)
		}
	}
}

func TestFTSQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"foo", `"foo"`},
		{"", `""`},
		{`a"b`, `"a""b"`},
		{`""`, `""""""`},
		{"bar*", `"bar*"`},
		{"-baz", `"-baz"`},
		{"a:b (x) NEAR AND", `"a:b (x) NEAR AND"`},
		{"memorymanager.compress", `"memorymanager.compress"`},
		{"登录", `"登录"`},
		{"a\x00b\xffc", `"abc"`},
	}
	for _, tt := range tests {
		if got := FTSQuote(tt.in); got != tt.want {
			t.Errorf("FTSQuote(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	loadTables()
	b.ReportAllocs()
	for b.Loop() {
		Parse("How does MemoryManager.compress handle redirects and user_id?")
	}
}

func BenchmarkParseChinese(b *testing.B) {
	loadTables()
	Segment("预热") // open the dictionary outside the timing
	b.ReportAllocs()
	for b.Loop() {
		Parse("服务器在请求超时之后会关闭空闲连接并按指数退避重试，日志里记录重试次数")
	}
}

// FuzzParse: any text parses without panicking, and the parsed query keeps
// the invariants every query does (lower-case terms without FTS syntax,
// weights in (0, 1], known sources, no duplicates), the dictionary path
// included.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "HTTP 404 error", "两个线程互相交换对象的同步工具", "陷阱 written 之后 retry_count", "连接池的陷阱：CopyFrom 写进 schema.table", "\xff日志\x00", "互相交换互相交换互相交换"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		checkInvariants(t, Parse(q))
		checkInvariants(t, ParseWith(q, Options{Lexicon: true, Dictionary: true}))
	})
}
