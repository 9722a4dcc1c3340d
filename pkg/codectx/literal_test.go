package codectx

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A question quoting a literal the ranked search cannot match (it is all
// punctuation) gets the chunk that writes it; a literal found only in a
// test file or vendored code adds nothing.
func TestContextQuotedLiteral(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("package demo\n\nimport \"io\"\n")
	for i := range 12 {
		fmt.Fprintf(&b, "\n// writePrefix%d writes the prefix of output line %d.\nfunc writePrefix%d(w io.Writer) { io.WriteString(w, \"p%d\") }\n", i, i, i, i)
	}
	b.WriteString("\nfunc emitPrompt(w io.Writer) { io.WriteString(w, \">>>> \") }\n")
	files := map[string]string{
		"demo.go":                b.String(),
		"demo_test.go":           "package demo\n\nfunc helperOnly() string { return \"<<=>> \" }\n",
		"third_party/lib/lib.go": "package lib\n\nfunc vendoredOnly() string { return \"<<~>> \" }\n",
	}
	for name, src := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := openIndexed(t, dir)
	ctx := context.Background()
	has := func(res *ContextResult, name string) bool {
		for _, c := range res.Chunks() {
			if strings.HasPrefix(c.Name, name) {
				return true
			}
		}
		return false
	}
	res, err := p.Context(ctx, ContextOptions{Query: "where is the '>>>> ' prefix written to the output line", K: 2, Depth: "0"})
	if err != nil {
		t.Fatal(err)
	}
	if !has(res, "emitPrompt") {
		t.Fatalf("context lacks emitPrompt, which writes the quoted literal: %+v", res.Chunks())
	}
	res, err = p.Context(ctx, ContextOptions{Query: "where is the '<<=>> ' prefix written to the output line", K: 2, Depth: "0"})
	if err != nil {
		t.Fatal(err)
	}
	if has(res, "helperOnly") {
		t.Fatalf("a literal found only in a test file became a seed: %+v", res.Chunks())
	}
	res, err = p.Context(ctx, ContextOptions{Query: "where is the '<<~>> ' prefix written to the output line", K: 2, Depth: "0"})
	if err != nil {
		t.Fatal(err)
	}
	if has(res, "vendoredOnly") {
		t.Fatalf("a literal found only in vendored code became a seed: %+v", res.Chunks())
	}
}
