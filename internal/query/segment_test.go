package query

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// TestSegmentMatchesGSE checks Segment against gse's own segmentation of the
// same text (testdata/segment_gse.tsv, written by gendict -golden from gse
// v0.80.3): sentences with ambiguous cuts, traditional characters,
// extension-B characters and pseudo-random runs that exercise the HMM.
func TestSegmentMatchesGSE(t *testing.T) {
	data, err := os.ReadFile("testdata/segment_gse.tsv")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for line := range strings.Lines(string(data)) {
		line = strings.TrimRight(line, "\n")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		run, want, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("bad fixture line %q", line)
		}
		n++
		if got := strings.Join(Segment(run), " "); got != want {
			t.Errorf("Segment(%q)\n got %s\nwant %s", run, got, want)
		}
	}
	if n < 400 {
		t.Fatalf("fixture has %d runs, want at least 400", n)
	}
}

// TestSegmentFirstUseCost checks, in a fresh process, that the first
// Chinese text a process segments allocates almost nothing: the dictionary
// is read in place. (gse allocated about 130 MB here.) It logs the time of
// that first call but does not assert on it.
func TestSegmentFirstUseCost(t *testing.T) {
	if os.Getenv("QUERY_ZH_COST_CHILD") == "1" {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := time.Now()
		words := Segment("服务器在请求超时之后会关闭连接并重试")
		took := time.Since(start)
		runtime.ReadMemStats(&after)
		fmt.Printf("first Segment: %v, %d bytes allocated, %d words\n", took, after.TotalAlloc-before.TotalAlloc, len(words))
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
			fmt.Printf("FAIL: first Segment allocated %d bytes, want < 1 MiB\n", alloc)
			os.Exit(1)
		}
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSegmentFirstUseCost$")
	cmd.Env = append(os.Environ(), "QUERY_ZH_COST_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}

func TestParseZHDictRejectsDamage(t *testing.T) {
	good := dictZH
	if _, err := parseZHDict(good); err != nil {
		t.Fatalf("embedded dictionary: %v", err)
	}
	tests := map[string]string{
		"empty":          "",
		"bad magic":      "xxxxxxxx" + good[8:],
		"truncated":      good[:len(good)-1],
		"header only":    good[:28],
		"trailing bytes": good + "x",
	}
	for name, blob := range tests {
		if _, err := parseZHDict(blob); err == nil {
			t.Errorf("%s: parseZHDict accepted it", name)
		}
	}
}

func TestZHDictLookup(t *testing.T) {
	zhOnce.Do(loadZH)
	if zhErr != nil {
		t.Fatal(zhErr)
	}
	tests := []struct {
		s        string
		wantOK   bool
		wantWord bool // freq > 0
	}{
		{"数据库", true, true},
		{"数", true, true},  // single characters are words (frequency 2 in gse)
		{"数据", true, true}, // a word and a prefix of 数据库
		{"据库数", false, false},
		{"", true, false},
	}
	for _, tt := range tests {
		f, ok := zh.lookup(tt.s)
		if ok != tt.wantOK || (f > 0) != tt.wantWord {
			t.Errorf("lookup(%q) = %v, %v; want ok %v, word %v", tt.s, f, ok, tt.wantOK, tt.wantWord)
		}
	}
}

// FuzzSegmentCut checks that Segment never panics and gives valid words on
// any text, and that the raw cut of any Han run covers it exactly (the words
// concatenate back to the run).
func FuzzSegmentCut(f *testing.F) {
	for _, s := range []string{"南京市长江大桥", "𠀀𠀁中文", "〇々", "的的的", "數據庫連線", "登录abc 超时\xff"} {
		f.Add(s)
	}
	zhOnce.Do(loadZH)
	if zhErr != nil {
		f.Fatal(zhErr)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, w := range Segment(s) { // any text: never panics, words are valid
			if w == "" || !utf8.ValidString(w) {
				t.Fatalf("Segment(%q) has a bad word %q", s, w)
			}
		}
		var b strings.Builder
		for _, r := range s {
			if isHan(r) {
				b.WriteRune(r)
			}
		}
		run := b.String()
		if run == "" {
			return
		}
		words := zh.cut(run, nil, nil)
		if got := strings.Join(words, ""); got != run {
			t.Fatalf("cut(%q) = %q: does not cover the run", run, words)
		}
		for _, w := range words {
			if w == "" || !utf8.ValidString(w) {
				t.Fatalf("cut(%q) has a bad word %q", run, w)
			}
		}
		Segment(run)
	})
}

func BenchmarkSegment(b *testing.B) {
	text := "我们在服务器启动时读取配置文件并初始化数据库连接池如果请求超时就关闭连接然后重新建立一个新的连接"
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Segment(text)
	}
}

// TestLexiconSegmentationOnCorpus compares the query's segmentation (the
// lexicon's keys as extra words) with the plain one on every distinct run
// of Han characters of the files matched by $QUERY_ZH_CORPUS (a glob, e.g.
// Debian's /usr/share/locale/zh_CN/LC_MESSAGES/*.mo). It logs how many runs
// differ, every 40th difference, and the single-character lexicon keys that
// only the query's segmentation leaves standing; it fails if a run is not
// covered exactly.
func TestLexiconSegmentationOnCorpus(t *testing.T) {
	glob := os.Getenv("QUERY_ZH_CORPUS")
	if glob == "" {
		t.Skip("set QUERY_ZH_CORPUS to a glob of files with Chinese text to run this measurement")
	}
	files, err := filepath.Glob(glob)
	if err != nil || len(files) == 0 {
		t.Fatalf("QUERY_ZH_CORPUS=%q matches no file (%v)", glob, err)
	}
	loadTables()
	seen := map[string]bool{}
	runs, differ, stray := 0, 0, 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, run := range strings.FieldsFunc(string(data), func(r rune) bool { return !isHan(r) }) {
			if seen[run] {
				continue
			}
			seen[run] = true
			runs++
			plain, lex := Segment(run), segmentWith(run, lexiconUserWords())
			if strings.Join(lex, "") != strings.Join(plain, "") {
				t.Errorf("%q: the two segmentations cover different text: %q, %q", run, plain, lex)
			}
			if strings.Join(plain, "|") == strings.Join(lex, "|") {
				continue
			}
			if differ++; differ%40 == 0 {
				t.Logf("plain %s   query %s", strings.Join(plain, "|"), strings.Join(lex, "|"))
			}
			ps, off := map[[2]int]bool{}, 0
			for _, w := range plain {
				ps[[2]int{off, off + len(w)}], off = true, off+len(w)
			}
			off = 0
			for _, w := range lex {
				sp := [2]int{off, off + len(w)}
				off += len(w)
				if _, key := lexicon.m[w]; key && utf8.RuneCountInString(w) == 1 && !ps[sp] && !stopZH[w] {
					stray++
				}
			}
		}
	}
	t.Logf("%d distinct runs, %d segmented differently (%.1f%%), %d single-character keys left standing only by the query's segmentation",
		runs, differ, 100*float64(differ)/float64(max(runs, 1)), stray)
}
