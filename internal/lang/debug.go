package lang

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// Debugging aids for people working on the extractors (cmd/langdump uses
// them); the indexer never calls them.

// DumpTree writes the named nodes of src's syntax tree, parsed as language,
// one per line with their field, kind and lines, indented by depth.
func DumpTree(w io.Writer, language string, src []byte) error {
	g := grammarFor(language)
	if g == nil {
		return fmt.Errorf("unknown language %q", language)
	}
	p := g.getParser()
	tr := p.Parse(src, nil)
	defer g.putParser(p)
	if tr == nil {
		return fmt.Errorf("tree-sitter returned no tree")
	}
	defer tr.Close()
	nodes := flatten(tr.RootNode(), nil)
	tt := &tree{g: g, src: src, nodes: nodes}
	fieldNames := map[uint16]string{}
	for k, v := range g.fields {
		fieldNames[v] = k
	}
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
		if _, err := fmt.Fprintf(w, "%s%s%s [%d-%d]%s\n", strings.Repeat("  ", d), f, tt.kind(int32(i)), n.srow+1, n.erow+1, txt); err != nil {
			return err
		}
	}
	return nil
}

// DumpParse writes what Parse returns for src: chunks (with the content of
// types and file chunks, or of every chunk with content set), relations and
// type facts.
func DumpParse(w io.Writer, path, language string, src []byte, content bool) {
	res := Parse(path, language, src)
	fmt.Fprintf(w, "fallback=%v chunks=%d relations=%d\n", res.Fallback, len(res.Chunks), len(res.Relations))
	for _, c := range res.Chunks {
		fmt.Fprintf(w, "%-8s %-40q sym=%q [%d-%d] cont=%q ext=%v impl=%v deco=%q\n", c.Kind, c.Name, c.Symbol, c.StartLine, c.EndLine, c.Container, c.Extends, c.Implements, c.Decorators)
		if c.Kind == KindType || c.Kind == KindFile || content {
			fmt.Fprintf(w, "    | %s\n", strings.ReplaceAll(c.Content, "\n", "\n    | "))
		}
	}
	for _, r := range res.Relations {
		fmt.Fprintf(w, "%-10s %q -> %q q=%q recv=%q L%d\n", r.Kind, r.Source, r.Target, r.Qualifier, r.Recv, r.Line)
	}
	for _, f := range res.Facts {
		fmt.Fprintf(w, "fact %-8s %q.%q type=%q sig=%q\n", f.Kind, f.Owner, f.Name, f.Type, f.Sig)
	}
}

// CorpusReport is what CheckCorpusFile found in one file.
type CorpusReport struct {
	Fallback bool     // parsed as text
	Chunks   int      // chunks returned
	Problems []string // broken invariants and recovered panics
}

// CheckCorpusFile parses one real file and checks the chunk invariants
// (lines inside the file, names set); recovered panics are reported too.
func CheckCorpusFile(path, language string) (CorpusReport, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return CorpusReport{}, err
	}
	var rep CorpusReport
	h := func(p string, r any) { rep.Problems = append(rep.Problems, fmt.Sprintf("panic: %v", r)) }
	panicHook.Store(&h)
	defer panicHook.Store(nil)
	res := Parse(path, language, src)
	rep.Fallback, rep.Chunks = res.Fallback, len(res.Chunks)
	lines := strings.Count(string(src), "\n") + 1
	for _, c := range res.Chunks {
		if c.StartLine < 1 || c.EndLine < c.StartLine || c.EndLine > lines {
			rep.Problems = append(rep.Problems, fmt.Sprintf("bad lines %s [%d-%d] (file has %d)", c.Name, c.StartLine, c.EndLine, lines))
		}
		if c.Name == "" || c.Symbol == "" {
			rep.Problems = append(rep.Problems, fmt.Sprintf("empty name at line %d", c.StartLine))
		}
	}
	return rep, nil
}
