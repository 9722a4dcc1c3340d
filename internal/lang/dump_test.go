package lang

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestDumpTree prints the flattened tree of $LANG_DUMP_FILE parsed as
// $LANG_DUMP_LANG; a development aid, skipped unless both are set.
func TestDumpTree(t *testing.T) {
	file, language := os.Getenv("LANG_DUMP_FILE"), os.Getenv("LANG_DUMP_LANG")
	if file == "" || language == "" {
		t.Skip("set LANG_DUMP_FILE and LANG_DUMP_LANG")
	}
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	g := grammarFor(language)
	p := g.getParser()
	tr := p.Parse(src, nil)
	defer tr.Close()
	defer g.putParser(p)
	nodes := flatten(tr.RootNode(), nil)
	tt := &tree{g: g, src: src, nodes: nodes}
	fieldNames := map[uint16]string{}
	for k, v := range g.fields {
		fieldNames[v] = k
	}
	var b strings.Builder
	depth := map[int32]int{-1: -1}
	for i := range nodes {
		n := &nodes[i]
		d := depth[n.parent] + 1
		depth[int32(i)] = d
		if !tt.named(int32(i)) {
			continue
		}
		txt := ""
		if tt.first(int32(i)) < 0 || len(tt.text(int32(i))) < 40 {
			txt = " " + fmt.Sprintf("%q", collapse(tt.text(int32(i))))
		}
		f := ""
		if n.field != 0 {
			f = fieldNames[n.field] + ": "
		}
		fmt.Fprintf(&b, "%s%s%s [%d-%d]%s\n", strings.Repeat("  ", d), f, tt.kind(int32(i)), n.srow+1, n.erow+1, txt)
	}
	fmt.Print(b.String())
}

// TestDumpParse prints what Parse returns for $LANG_DUMP_FILE parsed as
// $LANG_DUMP_LANG; a development aid, skipped unless both are set.
func TestDumpParse(t *testing.T) {
	file, language := os.Getenv("LANG_DUMP_FILE"), os.Getenv("LANG_DUMP_LANG")
	if file == "" || language == "" {
		t.Skip("set LANG_DUMP_FILE and LANG_DUMP_LANG")
	}
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	res := Parse(file, language, src)
	fmt.Printf("fallback=%v chunks=%d relations=%d\n", res.Fallback, len(res.Chunks), len(res.Relations))
	for _, c := range res.Chunks {
		fmt.Printf("%-8s %-40q sym=%q [%d-%d] cont=%q ext=%v impl=%v deco=%q\n", c.Kind, c.Name, c.Symbol, c.StartLine, c.EndLine, c.Container, c.Extends, c.Implements, c.Decorators)
		if c.Kind == KindType || c.Kind == KindFile || os.Getenv("LANG_DUMP_CONTENT") != "" {
			fmt.Printf("    | %s\n", strings.ReplaceAll(c.Content, "\n", "\n    | "))
		}
	}
	for _, r := range res.Relations {
		fmt.Printf("%-10s %q -> %q q=%q recv=%q L%d\n", r.Kind, r.Source, r.Target, r.Qualifier, r.Recv, r.Line)
	}
	for _, f := range res.Facts {
		fmt.Printf("fact %-8s %q.%q type=%q sig=%q\n", f.Kind, f.Owner, f.Name, f.Type, f.Sig)
	}
}
