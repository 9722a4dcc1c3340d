package lang

import (
	"bytes"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Limits shared by the AST and the text chunker.
const (
	// TypeHeaderLines bounds the Content of a type chunk: doc comment,
	// declaration and the first body lines, never the whole body.
	TypeHeaderLines = 6
	// MaxChunkChars is the target size of text chunks and top-level runs.
	MaxChunkChars = 2000
	// docHeadLines is how many lines of an over-long doc comment a type header keeps.
	docHeadLines = 4
	// maxDecoratorChars bounds one decorator string.
	maxDecoratorChars = 200
	// maxRunNames bounds the declared names listed in a file chunk name.
	maxRunNames = 3
)

// role is what the walker does with a node kind.
type role uint8

const (
	roleNone   role = iota
	roleType        // spec.typeDecl decides whether it is a type chunk
	roleFunc        // spec.funcDecl decides whether it is a function chunk
	roleCall        // spec.call extracts calls (and may add imports)
	roleImport      // spec.imports extracts import relations (children are still walked)
)

// typeDecl describes a type declaration found by a language hook.
type typeDecl struct {
	name       string
	outer      int32 // node spanning the declaration with its wrappers (export, template, decorators); 0 = the node itself
	extends    []string
	implements []string
	decorators []string
}

// funcDecl describes a function or method found by a language hook.
type funcDecl struct {
	name       string
	params     string // parameter list as written, parentheses included when the language has them
	outer      int32  // as typeDecl.outer
	container  string // explicit container (Go receiver, C++ "Foo::bar"), else the enclosing type
	method     bool   // a method even outside a type body (Go receiver, C++ qualified name)
	function   bool   // a free function even inside a type body (JS object literal member)
	decorators []string
}

// spec holds the language-specific hooks used by the generic extractor.
type spec struct {
	roles    map[string]role
	typeDecl func(x *extractor, i int32) (typeDecl, bool)
	funcDecl func(x *extractor, i int32) (funcDecl, bool)
	// call records the calls (x.addCall) and imports found at call node i;
	// fn is the enclosing function symbol ("" outside functions).
	call    func(x *extractor, i int32, fn string)
	imports func(x *extractor, i int32)
	// docKinds are comment kinds that document the declaration below them;
	// attrKinds are sibling attribute/decorator kinds that belong to it too.
	docKinds  map[string]bool
	attrKinds map[string]bool
	// transparent returns the node whose children are top-level items when i
	// is a namespace-like container (namespace, #ifdef, mod), else -1.
	transparent func(x *extractor, i int32) int32
	// noise reports whether a top-level item alone does not deserve a file
	// chunk (package clause, imports, comments, include guards ...).
	noise func(x *extractor, i int32) bool
	// declNames appends the names declared by a top-level item.
	declNames func(x *extractor, i int32, out []string) []string
	// stdlib reports whether an import target belongs to the standard library.
	stdlib func(target string) bool
	// builtins are names an unqualified call cannot mean in the project
	// (len, make, print, type conversions …): such calls are not recorded.
	builtins map[string]bool
	// prepare runs once before the walk (imports, type facts).
	prepare func(x *extractor)
}

// scope is the walker's view of where a node is.
type scope struct {
	container string   // enclosing type symbol
	member    bool     // directly inside a type body (not inside a function)
	fn        string   // innermost enclosing function/method chunk symbol
	rels      typeRels // what the enclosing type extends/implements
}

// typeRels remembers what a type extends/implements (for its methods).
type typeRels struct{ extends, implements []string }

// extractor turns one flattened tree into chunks and relations.
type extractor struct {
	t         *tree
	sp        *spec
	path      string
	chunks    []Chunk
	rels      []Relation
	facts     []Fact
	gx        *goCtx                       // Go type context (imports, locals of the current function)
	gref      *goRefState                  // Go references scan (goref.go), made at the first function
	pyLocals  map[int32]map[string]string  // Python: function node → local name → type expression
	pyGlobals map[int32]map[string]bool    // Python: function node → names it declares global
	pyIsinst  map[int32]bool               // Python: function node → whether it calls isinstance()
	pyBound   map[int32]map[string]int     // Python: function node → how many places bind a local (or assign a dotted name)
	pyParams  map[int32]map[string]string  // Python: function node → parameter → its type expression
	pyAsg     map[int32]string             // Python: assignment node → the type expression it gives its target
	pyAfter   map[pyAfterKey]pyAfterVal    // Python: if statement and name → the type it leaves the name
	pyModule  map[string]bool              // Python: the names the module level binds (lazy)
	jLocals   map[int32]map[string][]jDecl // Java, JavaScript, TypeScript: function node → local name → declarations
	imports   map[string]struct{}
	claimed   map[int32]bool
	types     map[string]typeRels
	prevs     []int32
	lines     []int // byte offset of the start of every line
}

// run walks the tree and fills x.chunks (in source order) and x.rels.
func (x *extractor) run() {
	x.imports = map[string]struct{}{}
	x.claimed = map[int32]bool{}
	x.types = map[string]typeRels{}
	if x.sp.prepare != nil {
		x.sp.prepare(x)
	}
	x.walk(0, scope{})
	x.fileChunks()
	for k := range x.chunks {
		c := &x.chunks[k]
		if c.Kind == KindMethod && c.Extends == nil && c.Implements == nil {
			if tr, ok := x.types[c.Container]; ok {
				c.Extends, c.Implements = slices.Clone(tr.extends), slices.Clone(tr.implements)
			}
		}
	}
	// source order, outer before inner
	slices.SortStableFunc(x.chunks, func(a, b Chunk) int {
		if a.StartLine != b.StartLine {
			return a.StartLine - b.StartLine
		}
		return b.EndLine - a.EndLine
	})
}

// walk visits node i and its subtree.
func (x *extractor) walk(i int32, sc scope) {
	t := x.t
	switch t.role(i) {
	case roleType:
		if d, ok := x.sp.typeDecl(x, i); ok && d.name != "" {
			x.doType(i, d, sc)
			return
		}
	case roleFunc:
		if d, ok := x.sp.funcDecl(x, i); ok && d.name != "" {
			x.doFunc(i, d, sc)
			return
		}
	case roleCall:
		x.sp.call(x, i, sc.fn)
	case roleImport:
		x.sp.imports(x, i)
	}
	for c := t.first(i); c >= 0; c = t.next(c) {
		x.walk(c, sc)
	}
}

// doType records a type chunk and walks its members.
func (x *extractor) doType(i int32, d typeDecl, sc scope) {
	t := x.t
	sym := d.name
	if sc.container != "" {
		sym = sc.container + "." + d.name
	}
	outer := d.outer
	if outer <= 0 {
		outer = i
	}
	start, decos := x.leading(outer)
	decos = append(decos, d.decorators...)
	startLine, endLine := t.line(start), t.endLine(outer)
	// the declaration line is the one with the name (after annotations)
	declLine := t.line(i)
	if n := t.field(i, "name"); n >= 0 {
		declLine = t.line(n)
	}
	c := Chunk{
		Kind:       KindType,
		Name:       sym,
		Symbol:     sym,
		StartLine:  startLine,
		EndLine:    endLine,
		Container:  sc.container,
		Extends:    dedupe(d.extends),
		Implements: dedupe(d.implements),
		Decorators: decos,
		Content:    x.header(startLine, declLine, endLine),
	}
	x.chunks = append(x.chunks, c)
	line := t.line(i)
	for _, e := range c.Extends {
		x.rels = append(x.rels, Relation{Kind: RelExtends, Source: sym, Target: e, Line: line})
	}
	for _, e := range c.Implements {
		x.rels = append(x.rels, Relation{Kind: RelImplements, Source: sym, Target: e, Line: line})
	}
	if sc.container != "" {
		x.rels = append(x.rels, Relation{Kind: RelContains, Source: sc.container, Target: sym, Line: line})
	}
	if _, seen := x.types[sym]; !seen || len(c.Extends)+len(c.Implements) > 0 {
		x.types[sym] = typeRels{c.Extends, c.Implements}
	}
	inner := scope{container: sym, member: true, fn: sc.fn, rels: typeRels{c.Extends, c.Implements}}
	for ch := t.first(i); ch >= 0; ch = t.next(ch) {
		x.walk(ch, inner)
	}
}

// doFunc records a function/method chunk and walks its body.
func (x *extractor) doFunc(i int32, d funcDecl, sc scope) {
	t := x.t
	container := sc.container
	if d.container != "" {
		container = d.container
	}
	method := container != "" && !d.function && (d.method || sc.member)
	params := d.params
	if params == "" {
		params = "()"
	} else {
		params = collapse(params)
		if !strings.HasPrefix(params, "(") {
			params = "(" + params + ")"
		}
	}
	sig, sym := d.name+params, d.name
	kind := KindFunction
	if method {
		kind = KindMethod
		sig, sym = container+"."+sig, container+"."+sym
	}
	outer := d.outer
	if outer <= 0 {
		outer = i
	}
	start, decos := x.leading(outer)
	decos = append(decos, d.decorators...)
	rels := sc.rels
	if container != sc.container || !method {
		// free functions have none; an explicit container (Go receiver,
		// C++ Foo::bar) is filled in by run from the file's types
		rels = typeRels{}
	}
	c := Chunk{
		Kind:       kind,
		Name:       sig,
		Symbol:     sym,
		StartLine:  t.line(start),
		EndLine:    t.endLine(outer),
		Container:  container,
		Extends:    slices.Clone(rels.extends),
		Implements: slices.Clone(rels.implements),
		Decorators: decos,
		Content:    x.content(start, outer),
	}
	x.chunks = append(x.chunks, c)
	if method {
		x.rels = append(x.rels, Relation{Kind: RelContains, Source: container, Target: sym, Line: t.line(i)})
	}
	inner := scope{container: container, fn: sym, rels: rels}
	for ch := t.first(i); ch >= 0; ch = t.next(ch) {
		x.walk(ch, inner)
	}
}

// addCall records a call from the function fn (ignored at top level). Every
// call site is a relation, with its line.
func (x *extractor) addCall(fn, target, qual string, line int) {
	x.addCallRecv(fn, target, qual, "", line)
}

// addCallRecv is addCall with what is known of the receiver (Relation.Recv).
func (x *extractor) addCallRecv(fn, target, qual, recv string, line int) {
	if fn == "" || target == "" || (qual == "" && recv == "" && x.sp.builtins[target]) {
		return
	}
	x.rels = append(x.rels, Relation{Kind: RelCalls, Source: fn, Target: target, Qualifier: qual, Recv: recv, Line: line})
}

// addImport records an import of the file unless it is standard library.
func (x *extractor) addImport(target string, line int) {
	target = strings.TrimSpace(target)
	if target == "" || (x.sp.stdlib != nil && x.sp.stdlib(target)) {
		return
	}
	if _, dup := x.imports[target]; dup {
		return
	}
	x.imports[target] = struct{}{}
	x.rels = append(x.rels, Relation{Kind: RelImports, Target: target, Line: line})
}

// prev returns the previous sibling of i (computed once for the whole tree).
func (x *extractor) prev(i int32) int32 {
	if len(x.prevs) != len(x.t.nodes) {
		if cap(x.prevs) >= len(x.t.nodes) {
			x.prevs = x.prevs[:len(x.t.nodes)]
		} else {
			x.prevs = make([]int32, len(x.t.nodes))
		}
		for k := range x.prevs {
			x.prevs[k] = -1
		}
		for k := range x.t.nodes {
			if n := x.t.nodes[k].next; n >= 0 {
				x.prevs[n] = int32(k)
			}
		}
	}
	return x.prevs[i]
}

// leading finds the doc comments and sibling attributes directly above the
// declaration node outer (contiguous lines, no blank line in between) and
// returns the first of them (or outer) plus the attributes as decorators.
func (x *extractor) leading(outer int32) (int32, []string) {
	t := x.t
	start, line := outer, t.line(outer)
	var decos []string
	for p := x.prev(outer); p >= 0; p = x.prev(p) {
		k := t.kind(p)
		isDoc, isAttr := x.sp.docKinds[k], x.sp.attrKinds[k]
		if !isDoc && !isAttr {
			break
		}
		if t.endLine(p) < line-1 || x.claimed[p] {
			break
		}
		if isDoc {
			// A comment trailing code on the same line documents that code.
			if pp := x.prev(p); pp >= 0 && t.endLine(pp) == t.line(p) && t.nodes[pp].end <= t.nodes[p].start && !x.sp.docKinds[t.kind(pp)] {
				break
			}
		} else {
			decos = append(decos, decorator(t.text(p)))
		}
		start, line = p, t.line(p)
	}
	for p := start; p != outer && p >= 0; p = t.next(p) {
		x.claimed[p] = true
	}
	x.claimed[outer] = true
	// attributes were collected bottom-up
	for a, b := 0, len(decos)-1; a < b; a, b = a+1, b-1 {
		decos[a], decos[b] = decos[b], decos[a]
	}
	return start, decos
}

// decorator normalises an annotation/decorator/attribute as written.
func decorator(s string) string {
	s = collapse(s)
	if len(s) > maxDecoratorChars {
		s = TruncateRunes(s, maxDecoratorChars)
	}
	return s
}

// lineStart returns the byte offset where 1-based line n starts.
func (x *extractor) lineStart(n int) int {
	if x.lines == nil {
		src := x.t.src
		x.lines = make([]int, 1, bytes.Count(src, []byte{'\n'})+2)
		for off := 0; ; {
			k := bytes.IndexByte(src[off:], '\n')
			if k < 0 {
				break
			}
			off += k + 1
			x.lines = append(x.lines, off)
		}
	}
	if n < 1 {
		return 0
	}
	if n > len(x.lines) {
		return len(x.t.src)
	}
	return x.lines[n-1]
}

// lineText returns lines a..b (1-based, inclusive) without the final newline.
func (x *extractor) lineText(a, b int) string {
	s, e := x.lineStart(a), x.lineStart(b+1)
	if e > len(x.t.src) {
		e = len(x.t.src)
	}
	if s >= e {
		return ""
	}
	return strings.TrimRight(string(x.t.src[s:e]), "\r\n")
}

// header is the Content of a type chunk spanning lines start..end whose
// declaration begins on line decl: at most TypeHeaderLines lines. An
// over-long doc comment is cut to its first lines so that the declaration
// line is always included.
func (x *extractor) header(start, decl, end int) string {
	if decl-start <= TypeHeaderLines-2 {
		return validUTF8(x.lineText(start, min(end, start+TypeHeaderLines-1)))
	}
	doc := x.lineText(start, start+docHeadLines-1)
	rest := x.lineText(decl, min(end, decl+TypeHeaderLines-docHeadLines-1))
	return validUTF8(doc + "\n" + rest)
}

// content returns the source from node a to the end of node b, starting at
// the beginning of a's line when only indentation precedes a.
func (x *extractor) content(a, b int32) string {
	t := x.t
	s, e := int(t.nodes[a].start), int(t.nodes[b].end)
	if e > len(t.src) {
		e = len(t.src)
	}
	ls := x.lineStart(t.line(a))
	if ls <= s && len(bytes.TrimLeft(t.src[ls:s], " \t")) == 0 {
		s = ls
	}
	if s >= e {
		return ""
	}
	return validUTF8(strings.TrimRight(string(t.src[s:e]), "\r\n"))
}

// topItems lists the top-level items below i, looking through namespace-like
// containers.
func (x *extractor) topItems(i int32, nested bool, out []int32) []int32 {
	t := x.t
	for c := t.first(i); c >= 0; c = t.next(c) {
		if !t.named(c) {
			continue
		}
		if x.sp.transparent != nil {
			if body := x.sp.transparent(x, c); body >= 0 {
				out = x.topItems(body, true, out)
				continue
			}
		}
		if nested && t.nodes[c].field != 0 {
			continue // name / condition of the container itself
		}
		out = append(out, c)
	}
	return out
}

// fileChunks groups top-level items that are not types or functions into
// runs of up to MaxChunkChars and records them as file chunks. Noise items
// (package clause, imports ...) end a run without joining it.
func (x *extractor) fileChunks() {
	t := x.t
	items := x.topItems(0, false, nil)
	var run []int32
	flush := func() {
		if len(run) > 0 {
			x.fileChunk(run)
		}
		run = run[:0]
	}
	for _, it := range items {
		if x.claimed[it] || (x.sp.noise != nil && x.sp.noise(x, it)) {
			flush()
			continue
		}
		if len(run) > 0 && int(t.nodes[it].end-t.nodes[run[0]].start) > MaxChunkChars {
			flush()
		}
		// comments that open a run must touch the item below them
		if n := len(run); n > 0 && x.sp.docKinds[t.kind(run[n-1])] && t.endLine(run[n-1]) < t.line(it)-1 && x.onlyComments(run) {
			run = run[:0]
		}
		run = append(run, it)
	}
	flush()
}

// onlyComments reports whether every item of run is a comment or a
// stray attribute.
func (x *extractor) onlyComments(run []int32) bool {
	for _, it := range run {
		if k := x.t.kind(it); !x.sp.docKinds[k] && !x.sp.attrKinds[k] {
			return false
		}
	}
	return true
}

// fileChunk records one run of top-level items unless it is only comments.
func (x *extractor) fileChunk(run []int32) {
	t := x.t
	if x.onlyComments(run) {
		return
	}
	var names []string
	if x.sp.declNames != nil {
		for _, it := range run {
			names = x.sp.declNames(x, it, names)
		}
	}
	names = dedupe(names)
	first, last := run[0], run[len(run)-1]
	var name string
	switch {
	case len(names) == 1:
		name = names[0]
	case len(names) > 1:
		if len(names) > maxRunNames {
			names = names[:maxRunNames]
		}
		name = path.Base(x.path) + ":" + strings.Join(names, ",")
	default:
		name = path.Base(x.path) + ":" + strconv.Itoa(t.line(first))
	}
	x.chunks = append(x.chunks, Chunk{
		Kind:      KindFile,
		Name:      name,
		Symbol:    name,
		StartLine: t.line(first),
		EndLine:   t.endLine(last),
		Content:   x.content(first, last),
	})
}

// dedupe removes empty and repeated strings, keeping order.
func dedupe(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	out := s[:0:0]
	for _, v := range s {
		if v == "" {
			continue
		}
		dup := false
		for _, w := range out {
			if w == v {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// simpleName reduces a type reference as written to its simple name:
// pointers, references, generics and qualifiers are dropped
// ("*pkg.List[T]" -> "List", "std::vector<int>" -> "vector").
func simpleName(s string) string {
	s = strings.TrimSpace(s)
	if k := strings.IndexAny(s, "<[({"); k >= 0 {
		s = s[:k]
	}
	s = strings.TrimLeft(s, "*&~ ")
	s = strings.TrimPrefix(s, "mut ")
	s = strings.TrimSpace(strings.TrimRight(s, "?!* "))
	if k := strings.LastIndexAny(s, ".:\\"); k >= 0 {
		s = s[k+1:]
	}
	if k := strings.LastIndexAny(s, " \t\n"); k >= 0 {
		s = s[k+1:]
	}
	return s
}

// validUTF8 replaces invalid UTF-8 sequences.
func validUTF8(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }

// wordSet builds a set from space-separated words.
func wordSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}
