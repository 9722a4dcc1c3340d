package lang

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestTextShortFileIsOneChunk(t *testing.T) {
	src := []byte("title: x\nitems:\n  - a\n  - b\n")
	res := strictParse(t, "conf/app.yaml", "yaml", src)
	if !res.Fallback || len(res.Relations) != 0 {
		t.Fatalf("fallback=%v relations=%d", res.Fallback, len(res.Relations))
	}
	if len(res.Chunks) != 1 {
		t.Fatalf("got %d chunks", len(res.Chunks))
	}
	c := res.Chunks[0]
	want := Chunk{Kind: KindText, Name: "conf/app.yaml", Symbol: "conf/app.yaml", StartLine: 1, EndLine: 4, Content: "title: x\nitems:\n  - a\n  - b"}
	if fmt.Sprint(c) != fmt.Sprint(want) {
		t.Fatalf("got %+v\nwant %+v", c, want)
	}
}

func TestTextAccumulatesLines(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 100; i++ {
		fmt.Fprintf(&b, "line %03d %s\n", i, strings.Repeat("x", 40)) // 50 bytes a line
	}
	src := []byte(b.String())
	res := strictParse(t, "notes.txt", "text", src)
	checkInvariants(t, src, res)
	if len(res.Chunks) != 3 {
		t.Fatalf("got %d chunks, want 3 (40+40+20 lines)", len(res.Chunks))
	}
	next := 1
	for k, c := range res.Chunks {
		if c.Name != fmt.Sprintf("notes.txt#%d", k+1) || c.Symbol != c.Name || c.Kind != KindText {
			t.Errorf("chunk %d: name %q symbol %q kind %q", k, c.Name, c.Symbol, c.Kind)
		}
		if c.StartLine != next {
			t.Errorf("chunk %d starts at %d, want %d", k, c.StartLine, next)
		}
		if len(c.Content) > MaxChunkChars {
			t.Errorf("chunk %d has %d chars", k, len(c.Content))
		}
		if n := strings.Count(c.Content, "\n") + 1; n != c.EndLine-c.StartLine+1 {
			t.Errorf("chunk %d: %d content lines for [%d-%d]", k, n, c.StartLine, c.EndLine)
		}
		if !strings.HasPrefix(c.Content, fmt.Sprintf("line %03d ", c.StartLine)) {
			t.Errorf("chunk %d content starts with %q", k, c.Content[:12])
		}
		next = c.EndLine + 1
	}
	if next != 101 {
		t.Errorf("chunks end at line %d, want 100", next-1)
	}
}

func TestTextLongLineStaysWhole(t *testing.T) {
	long := strings.Repeat("y", 3000)
	src := []byte("first\n" + long + "\nlast\n")
	res := strictParse(t, "data.csv", "", src)
	if len(res.Chunks) != 3 {
		t.Fatalf("got %d chunks: %v", len(res.Chunks), chunkNames(res))
	}
	want := []struct {
		start, end int
		content    string
	}{{1, 1, "first"}, {2, 2, long}, {3, 3, "last"}}
	for k, w := range want {
		c := res.Chunks[k]
		if c.StartLine != w.start || c.EndLine != w.end || c.Content != w.content {
			t.Errorf("chunk %d = [%d-%d] %d chars, want [%d-%d] %d chars", k, c.StartLine, c.EndLine, len(c.Content), w.start, w.end, len(w.content))
		}
	}
}

func TestTextMarkdownBreaksAtHeadings(t *testing.T) {
	var b strings.Builder
	for s := 1; s <= 4; s++ {
		fmt.Fprintf(&b, "## Section %d\n\n", s)
		for i := 0; i < 12; i++ {
			b.WriteString("Some prose that fills the section with words.\n") // 47 bytes
		}
		b.WriteString("\n")
	}
	src := []byte(b.String())
	res := strictParse(t, "docs/guide.md", "markdown", src)
	checkInvariants(t, src, res)
	if len(res.Chunks) < 2 {
		t.Fatalf("got %d chunks", len(res.Chunks))
	}
	for k, c := range res.Chunks {
		if !strings.HasPrefix(c.Content, "## Section") {
			t.Errorf("chunk %d does not start at a heading: %q", k, c.Content[:20])
		}
	}
}

func TestTextEmptyFile(t *testing.T) {
	for _, l := range []string{"", "markdown", "go", "java", "python"} {
		res := strictParse(t, "empty", l, nil)
		if len(res.Chunks) != 0 || len(res.Relations) != 0 {
			t.Errorf("%q: got %d chunks %d relations", l, len(res.Chunks), len(res.Relations))
		}
	}
	if res := strictParse(t, "blank.txt", "text", []byte("\n\n  \n")); len(res.Chunks) != 0 {
		t.Errorf("blank file: %d chunks", len(res.Chunks))
	}
}

func TestInvalidUTF8(t *testing.T) {
	bad := []byte("package p\n\n// caf\xe9 \xff\xfe\nfunc F(s string) string { return \"\xc3\x28\" }\n")
	for _, l := range []string{"go", "text", "javascript", "python"} {
		res := strictParse(t, "bad.src", l, bad)
		checkInvariants(t, bad, res)
		if len(res.Chunks) == 0 {
			t.Errorf("%s: no chunks", l)
		}
		for _, c := range res.Chunks {
			if !utf8.ValidString(c.Content) {
				t.Errorf("%s: invalid UTF-8 in %q", l, c.Name)
			}
		}
	}
	res := strictParse(t, "bad.go", "go", bad)
	if c := findChunk(res, "F(s string)"); c == nil || c.StartLine != 3 || !strings.Contains(c.Content, "caf\uFFFD") {
		t.Errorf("Go function over invalid UTF-8: %+v", res.Chunks)
	}
}

func TestHugeSingleLine(t *testing.T) {
	line := bytes.Repeat([]byte("var a=1;"), (1<<20)/8) // 1 MiB, no newline
	for _, l := range []string{"text", "javascript", "json"} {
		start := time.Now()
		res := strictParse(t, "bundle.min.js", l, line)
		if el := time.Since(start); el > 20*time.Second {
			t.Errorf("%s: took %v", l, el)
		}
		checkInvariants(t, line, res)
		for _, c := range res.Chunks {
			if c.StartLine != 1 || c.EndLine != 1 {
				t.Errorf("%s: chunk %q spans [%d-%d]", l, c.Name, c.StartLine, c.EndLine)
			}
		}
		if !res.Fallback || len(res.Chunks) != 1 || len(res.Chunks[0].Content) != len(line) {
			t.Errorf("%s: want one whole text chunk, got %d (fallback %v)", l, len(res.Chunks), res.Fallback)
		}
	}
	// below the minified threshold a long line still goes through the parser
	short := line[:60<<10]
	res := strictParse(t, "long.js", "javascript", short)
	checkInvariants(t, short, res)
	if res.Fallback || len(res.Chunks) == 0 {
		t.Errorf("60 KiB line: fallback %v, %d chunks", res.Fallback, len(res.Chunks))
	}
}

func TestTooLargeFileIsText(t *testing.T) {
	src := bytes.Repeat([]byte("func f() {}\n"), maxParseBytes/12+10)
	res := strictParse(t, "gen.go", "go", src)
	if !res.Fallback {
		t.Fatal("file over maxParseBytes was parsed")
	}
	checkInvariants(t, src, res)
}
