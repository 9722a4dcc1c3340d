package lang

import (
	"runtime"
	"strings"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// grammar holds one tree-sitter language plus lookup tables built once, so
// that walking a flattened tree never calls into C.
type grammar struct {
	name   string
	lang   *sitter.Language
	kinds  []string // symbol id -> node kind name
	roles  []role   // symbol id -> what the extractor does with it
	sp     *spec
	fields map[string]uint16 // field name -> field id (0 when absent)
	pool   chan *sitter.Parser
}

// newGrammar builds the lookup tables for a tree-sitter language.
func newGrammar(name string, ptr unsafe.Pointer, sp *spec) *grammar {
	l := sitter.NewLanguage(ptr)
	g := &grammar{name: name, lang: l, fields: map[string]uint16{}, sp: sp}
	n := l.NodeKindCount()
	g.kinds = make([]string, n)
	g.roles = make([]role, n)
	for i := uint32(0); i < n; i++ {
		k := l.NodeKindForId(uint16(i))
		g.kinds[i] = k
		g.roles[i] = sp.roles[k]
	}
	for i := uint32(1); i <= l.FieldCount(); i++ {
		g.fields[l.FieldNameForId(uint16(i))] = uint16(i)
	}
	g.pool = make(chan *sitter.Parser, poolSize())
	return g
}

// field returns the id of a field name (0 = not in this grammar).
func (g *grammar) field(name string) uint16 { return g.fields[name] }

// getParser takes a parser from the pool or makes a new one.
func (g *grammar) getParser() *sitter.Parser {
	select {
	case p := <-g.pool:
		return p
	default:
	}
	p := sitter.NewParser()
	if err := p.SetLanguage(g.lang); err != nil {
		p.Close()
		return nil
	}
	return p
}

// putParser returns a parser to the pool, closing it when the pool is full
// (a bounded channel instead of sync.Pool: parsers hold C memory that the Go
// garbage collector would never free).
func (g *grammar) putParser(p *sitter.Parser) {
	select {
	case g.pool <- p:
	default:
		p.Close()
	}
}

// tree is a flattened syntax tree plus the source it was parsed from.
type tree struct {
	g     *grammar
	src   []byte
	nodes []node
}

// kind returns the node kind name of node i.
func (t *tree) kind(i int32) string {
	if i < 0 {
		return ""
	}
	s := int(t.nodes[i].sym)
	if s >= len(t.g.kinds) {
		if s == 0xFFFF { // ts_builtin_sym_error
			return "ERROR"
		}
		return ""
	}
	return t.g.kinds[s]
}

// role returns the extractor role of node i.
func (t *tree) role(i int32) role {
	if i < 0 {
		return roleNone
	}
	s := int(t.nodes[i].sym)
	if s >= len(t.g.roles) {
		return roleNone
	}
	return t.g.roles[s]
}

// named reports whether node i is a named node.
func (t *tree) named(i int32) bool { return i >= 0 && t.nodes[i].flags&flagNamed != 0 }

// first returns the first child of i, or -1.
func (t *tree) first(i int32) int32 {
	if i < 0 {
		return -1
	}
	j := i + 1
	if int(j) < len(t.nodes) && t.nodes[j].parent == i {
		return j
	}
	return -1
}

// firstNamed returns the first named child of i, or -1.
func (t *tree) firstNamed(i int32) int32 {
	if i < 0 {
		return -1
	}
	for c := t.first(i); c >= 0; c = t.next(c) {
		if t.named(c) {
			return c
		}
	}
	return -1
}

// countKind returns how many children of i have the given kind.
func (t *tree) countKind(i int32, kind string) int {
	n := 0
	for c := t.first(i); c >= 0; c = t.next(c) {
		if t.kind(c) == kind {
			n++
		}
	}
	return n
}

// next returns the next sibling of i, or -1.
func (t *tree) next(i int32) int32 {
	if i < 0 {
		return -1
	}
	return t.nodes[i].next
}

// parent returns the parent of i, or -1.
func (t *tree) parent(i int32) int32 {
	if i < 0 {
		return -1
	}
	return t.nodes[i].parent
}

// childField returns the first child of i with field id f, or -1.
func (t *tree) childField(i int32, f uint16) int32 {
	if f == 0 || i < 0 {
		return -1
	}
	for c := t.first(i); c >= 0; c = t.next(c) {
		if t.nodes[c].field == f {
			return c
		}
	}
	return -1
}

// field returns the first child of i with the named field, or -1.
func (t *tree) field(i int32, name string) int32 { return t.childField(i, t.g.field(name)) }

// childKind returns the first child of i whose kind is one of kinds, or -1.
func (t *tree) childKind(i int32, kinds ...string) int32 {
	if i < 0 {
		return -1
	}
	for c := t.first(i); c >= 0; c = t.next(c) {
		k := t.kind(c)
		for _, want := range kinds {
			if k == want {
				return c
			}
		}
	}
	return -1
}

// subtreeEnd returns the index just past the last descendant of i.
func (t *tree) subtreeEnd(i int32) int32 {
	for n := i; n >= 0; n = t.nodes[n].parent {
		if nx := t.nodes[n].next; nx >= 0 {
			return nx
		}
	}
	return int32(len(t.nodes))
}

// text returns the source text of node i.
func (t *tree) text(i int32) string {
	if i < 0 {
		return ""
	}
	n := &t.nodes[i]
	if int(n.end) > len(t.src) || n.start > n.end {
		return ""
	}
	return string(t.src[n.start:n.end])
}

// line returns the 1-based first line of node i.
func (t *tree) line(i int32) int {
	if i < 0 {
		return 1
	}
	return int(t.nodes[i].srow) + 1
}

// endLine returns the 1-based last line of node i (a node that ends right
// after a newline ends on the previous line).
func (t *tree) endLine(i int32) int {
	if i < 0 {
		return 1
	}
	n := &t.nodes[i]
	e := int(n.erow) + 1
	if n.end > n.start && int(n.end) <= len(t.src) && t.src[n.end-1] == '\n' && e > 1 {
		e--
	}
	if s := int(n.srow) + 1; e < s {
		e = s
	}
	return e
}

// collapse squeezes every run of white space in s into one space and trims it.
func collapse(s string) string {
	if !strings.ContainsAny(s, "\n\r\t\v\f") && !strings.Contains(s, "  ") {
		return strings.TrimSpace(s)
	}
	return strings.Join(strings.Fields(s), " ")
}

// poolSize bounds the idle parsers kept per language.
func poolSize() int { return runtime.GOMAXPROCS(0) + 1 }
