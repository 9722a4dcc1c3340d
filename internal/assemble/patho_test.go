package assemble

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"

	"codectx/internal/store"
)

// pathologicalFixture indexes generated files whose syntax is huge or deep:
// 400,000 "(" on one line, an expression nested 100,000 levels deep, and
// 100,000 nested blocks on their own lines.
func pathologicalFixture(t *testing.T) *fixture {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"parens.go": strings.Repeat("(", 400000),
		"nested.go": "package p\n\n// Nested returns one.\nfunc Nested() int {\n\treturn " +
			strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000) + "\n}\n",
		"deep.go": "package p\n\n// Deep nests blocks.\nfunc Deep() {\n" +
			strings.Repeat("{\n", 100000) + strings.Repeat("}\n", 100000) + "}\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "index.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f := &fixture{db: db, root: root}
	f.reindex(t)
	return f
}

// TestPathologicalContext assembles contexts from chunks of pathological
// files. The tokenizer's byte-pair merge is quadratic in the length of one
// pre-token, and counting a 400,000-byte run of "(" took minutes: the work
// must be bounded by the budget and the candidates, not by the files. So
// the longest run handed to the tokenizer is at most tokenRun bytes, and the
// bytes it gets are bounded by candidates × budget × maxTokenBytes.
func TestPathologicalContext(t *testing.T) {
	f := pathologicalFixture(t)
	ctx := context.Background()
	var seeds []Seed
	for i, name := range []string{"parens.go", "nested.go", "deep.go"} {
		list, err := f.db.FileChunks(ctx, f.pid, name, false)
		if err != nil || len(list) == 0 {
			t.Fatalf("chunks of %s: %d, %v", name, len(list), err)
		}
		for _, c := range list {
			seeds = append(seeds, Seed{ChunkID: c.ID, Score: 1 - 0.1*float64(i)}) // the parens first
		}
	}
	for _, budget := range []int{500, 8000} {
		for _, depth := range []string{"0", "2"} {
			tokenizedBytes.Store(0)
			longestTokenizedRun.Store(0)
			r, err := Assemble(ctx, f.db, f.pid, ContextOptions{Query: "nested parens deep blocks", Depth: depth, Budget: budget, Seeds: seeds})
			if err != nil {
				t.Fatalf("budget %d depth %s: %v", budget, depth, err)
			}
			work, run := tokenizedBytes.Load(), longestTokenizedRun.Load()
			n, err := CountTokens(r.Text())
			if err != nil {
				t.Fatal(err)
			}
			if r.Text() == "" || n != r.Tokens || n > budget || len(r.Chunks()) == 0 {
				t.Errorf("budget %d depth %s: %d chunks, %d tokens (reported %d)", budget, depth, len(r.Chunks()), n, r.Tokens)
			}
			if run > tokenRun {
				t.Errorf("budget %d depth %s: the tokenizer got a run of %d bytes (limit %d)", budget, depth, run, tokenRun)
			}
			// Per candidate at most the full count, the line-by-line count and
			// the shortened count; then one count per render of the output.
			bound := int64(4*r.Candidates+r.Dropped+2) * int64(budget) * maxTokenBytes
			if work > bound {
				t.Errorf("budget %d depth %s: tokenized %d bytes for %d candidates, want at most %d",
					budget, depth, work, r.Candidates, bound)
			}
			t.Logf("budget %d depth %s: %d candidates, %d chunks, %d tokens; tokenizer got %d bytes, longest run %d",
				budget, depth, r.Candidates, len(r.Chunks()), r.Tokens, work, run)
		}
	}
}

// TestCountTokensExact: cutting texts into independently counted parts
// changes nothing for ordinary text (the fixtures), and the longest run
// is cut for pathological text.
func TestCountTokensExact(t *testing.T) {
	e := refEncoder(t)
	var texts []string
	filepath.WalkDir("testdata", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, err := os.ReadFile(p); err == nil {
				texts = append(texts, string(b))
			}
		}
		return nil
	})
	texts = append(texts, "a\n\nb", "x  \n\n  y\n", "\n's \n\t\tz", "中文 text\n  \n", strings.Repeat("-", 100)+"\n"+strings.Repeat(" ", 90)+"x")
	for _, s := range texts {
		want := len(e.EncodeOrdinary(s))
		if got, err := CountTokens(s); err != nil || got != want {
			t.Errorf("CountTokens(%.40q) = %d, %v; want %d", s, got, err, want)
		}
		if got, _ := countTokensMax(s, want); got != want {
			t.Errorf("countTokensMax(%.40q, %d) = %d", s, want, got)
		}
		if want > 0 {
			if got, _ := countTokensMax(s, want-1); got != want {
				t.Errorf("countTokensMax(%.40q, %d) = %d, want %d (limit+1)", s, want-1, got, want)
			}
		}
	}
	longestTokenizedRun.Store(0)
	if n, err := CountTokens(strings.Repeat("(", 100000)); err != nil || n < 100000/maxTokenBytes {
		t.Errorf("100,000 parens: %d tokens, %v", n, err)
	}
	if run := longestTokenizedRun.Load(); run > tokenRun {
		t.Errorf("longest run handed to the tokenizer %d, want at most %d", run, tokenRun)
	}
}

// TestMaxTokenBytes checks maxTokenBytes against the tokenizer's tables.
func TestMaxTokenBytes(t *testing.T) {
	ranks, err := tiktoken_loader.NewOfflineLoader().LoadTiktokenBpe("https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken")
	if err != nil {
		t.Skipf("tables not loadable: %v", err)
	}
	longest := 0
	for tok := range ranks {
		longest = max(longest, len(tok))
	}
	if longest > maxTokenBytes {
		t.Errorf("longest token has %d bytes, maxTokenBytes is %d", longest, maxTokenBytes)
	}
}

// Counts through the segment memo equal the tokenizer's: the same text
// again (every segment remembered) and texts made of remembered segments
// in other orders and contexts.
func TestCountTokensMemo(t *testing.T) {
	e := refEncoder(t)
	parts := []string{"func a() {\n\treturn 1\n}\n", "// doc line\n", "x := map[string]int{}\n", "  indented\n", "中文 注释\n", "\n\n", "### heading\n"}
	var texts []string
	for i := range parts {
		for j := range parts {
			texts = append(texts, parts[i]+parts[j]+parts[(i+j)%len(parts)])
		}
	}
	for round := range 2 {
		for _, s := range texts {
			want := len(e.EncodeOrdinary(s))
			if got, err := CountTokens(s); err != nil || got != want {
				t.Fatalf("round %d: CountTokens(%q) = %d, %v; want %d", round, s, got, err, want)
			}
		}
	}
	// A remembered segment is not handed to the tokenizer again.
	s := "func memoOnce() {}\n"
	if _, err := CountTokens(s); err != nil {
		t.Fatal(err)
	}
	before := tokenizedBytes.Load()
	if _, err := CountTokens(s); err != nil {
		t.Fatal(err)
	}
	if got := tokenizedBytes.Load() - before; got != 0 {
		t.Errorf("a remembered text handed %d bytes to the tokenizer again", got)
	}
}
