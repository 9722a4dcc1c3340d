package assemble

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"codectx/internal/testfix"

	"github.com/dlclark/regexp2"
	tiktoken "github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

// The reference: tiktoken-go's cl100k_base encoder, from the same offline
// tables. The counter in cl100k.go must agree with it on every text.
var (
	refOnce sync.Once
	refEnc  *tiktoken.Tiktoken
	refErr  error
)

func refEncoder(tb testing.TB) *tiktoken.Tiktoken {
	tb.Helper()
	refOnce.Do(func() {
		tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
		refEnc, refErr = tiktoken.GetEncoding(TokenEncoding)
	})
	if refErr != nil {
		tb.Fatal(refErr)
	}
	return refEnc
}

// cl100kPattern is the encoding's pre-token pattern as tiktoken-go states it.
const cl100kPattern = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`

// refPieces cuts s as the reference does: the pattern's matches over runes.
func refPieces(tb testing.TB, s string) []string {
	tb.Helper()
	re := regexp2.MustCompile(cl100kPattern, regexp2.None)
	runes := []rune(s)
	var out []string
	m, err := re.FindStringMatch(s)
	for ; m != nil && err == nil; m, err = re.FindNextMatch(m) {
		out = append(out, string(runes[m.Index:m.Index+m.Length]))
	}
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

func ourPieces(s string) []string {
	var out []string
	cl100kPieces(s, func(p string) { out = append(out, p) })
	return out
}

// trickyTexts cover every branch of the pattern and its edges.
var trickyTexts = []string{
	"", "a", " ", "\n", "hello world", "don't I'LL we'Re they've 'd 'x 'rx 'L", "'", "''s",
	"x  \n\n  y\n", "a\r\n\r\nb", " \t\n \t", "\t\tfoo", "  foo", "\nfoo", "\r\n  bar",
	"1234567", " 12", "a1b2", "x=1.5e10;", "  ++x", " (a)", "((( )))", "-->\n\n", "a.b.c\n",
	"中文 text 注释\n", "日本語のテキスト、句読点。", "emoji 👍🏽 ok", "é́ combining", "Ⅻ roman ²³ ½",
	"\u00a0nbsp\u2003em space\u3000", "\u0085next line", "tab\tend\t", "trailing   ",
	"invalid \xff\xfe bytes \xed\xa0\x80", "\xe4\xb8", "ſ'S 'ſ", "ALLCAPS'VE", "a\u200bb",
	"func (s *Server) Serve(l net.Listener) error {\n\tdefer l.Close()\n\treturn nil\n}\n",
	strings.Repeat("-", 100) + "\n" + strings.Repeat(" ", 90) + "x",
}

func TestCl100kPiecesMatchReference(t *testing.T) {
	for _, s := range trickyTexts {
		valid := s
		if !strings.Contains(s, "\xff") && !strings.Contains(s, "\xed") && !strings.Contains(s, "\xe4\xb8") {
			got, want := ourPieces(valid), refPieces(t, valid)
			if strings.Join(got, "|") != strings.Join(want, "|") || len(got) != len(want) {
				t.Errorf("pieces of %q:\n got %q\nwant %q", s, got, want)
			}
		}
	}
}

func TestCl100kCountMatchesReference(t *testing.T) {
	e := refEncoder(t)
	r, err := mergeRanks()
	if err != nil {
		t.Fatal(err)
	}
	texts := append([]string(nil), trickyTexts...)
	filepath.WalkDir("testdata", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, err := os.ReadFile(p); err == nil {
				texts = append(texts, string(b))
			}
		}
		return nil
	})
	// Real source in several languages when present: Go's own tree.
	for _, pat := range []string{"src/net/http/*.go", "src/strings/*.go", "src/unicode/*.go", "misc/*/*.*", "doc/*.*", "lib/time/*"} {
		files, _ := filepath.Glob(filepath.Join(testfix.GoRoot(), pat))
		for _, f := range files {
			if b, err := os.ReadFile(f); err == nil && len(b) < 1<<20 {
				texts = append(texts, string(b))
			}
		}
	}
	if len(texts) < 100 {
		t.Logf("only %d texts: Go's sources not found (go env GOROOT: %q)", len(texts), testfix.GoRoot())
	}
	bytes := 0
	for _, s := range texts {
		bytes += len(s)
		if got, want := cl100kCount(r, s), len(e.EncodeOrdinary(s)); got != want {
			t.Errorf("cl100kCount(%.60q) = %d, want %d", s, got, want)
		}
	}
	t.Logf("%d texts, %d bytes", len(texts), bytes)
}

func FuzzCl100kCount(f *testing.F) {
	for _, s := range trickyTexts {
		f.Add(s)
	}
	e := refEncoder(f)
	r, err := mergeRanks()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return // the reference's merge is quadratic in a piece
		}
		if got, want := cl100kCount(r, s), len(e.EncodeOrdinary(s)); got != want {
			t.Errorf("cl100kCount(%q) = %d, want %d", s, got, want)
		}
	})
}

// BenchmarkCountTokens compares the counter with the reference on net/http.
func BenchmarkCountTokens(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(testfix.GoRoot(), "src", "net", "http", "*.go"))
	var texts []string
	total := 0
	for _, f := range files {
		if bs, err := os.ReadFile(f); err == nil {
			texts, total = append(texts, string(bs)), total+len(bs)
		}
	}
	if len(texts) == 0 {
		b.Skip("GOROOT sources not found")
	}
	r, err := mergeRanks()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("cl100kCount", func(b *testing.B) {
		b.SetBytes(int64(total))
		for b.Loop() {
			for _, s := range texts {
				cl100kCount(r, s)
			}
		}
	})
	b.Run("tiktoken", func(b *testing.B) {
		e := refEncoder(b)
		b.SetBytes(int64(total))
		for b.Loop() {
			for _, s := range texts {
				e.EncodeOrdinary(s)
			}
		}
	})
}
