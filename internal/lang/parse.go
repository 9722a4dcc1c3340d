package lang

import (
	"bytes"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

const (
	// maxParseBytes: larger files (generated code, bundles, data) are
	// chunked as text without parsing.
	maxParseBytes = 4 << 20
	// trimAfterBytes: the C heap's free pages go back to the system after
	// the parse of a file this large. Its tree takes tens of MB, which the
	// C library would otherwise keep in the parsing thread's arena (glibc
	// has one per thread that ever parsed): in a first index of
	// $GOROOT/src the large generated files of cmd/compile left ~90 MB
	// resident with 10–30 MB in use. About 40 files there are this large.
	trimAfterBytes = 256 << 10
	// slowParseBytes: files at least this large are parsed with a deadline.
	slowParseBytes = 256 << 10
	// parseStepsPerMiB is the work a parse may do per started MiB of source,
	// counted in tree-sitter's progress callbacks (one per fixed number of
	// parser operations). A count, not a clock, so the same file is parsed
	// or given up on the same way however loaded the machine is (the graph
	// must not depend on load). Real files need 2,000–18,000 per MiB (Go,
	// Python and C tables, generated rewrite rules, bundles in $GOROOT/src
	// and Python's library); ~1–2 s per MiB on the standard machine.
	parseStepsPerMiB = 100_000
	// maxErrorShare / maxErrorBytesShare: the top-level error fallback rule,
	// see tooBroken.
	maxErrorShare      = 0.25
	maxErrorBytesShare = 0.5
	// minifiedMinBytes / minifiedLineBytes: see minified.
	minifiedMinBytes  = 64 << 10
	minifiedLineBytes = 1000
)

// scratch holds per-parse buffers reused across calls.
type scratch struct {
	nodes []node
	prevs []int32
}

// panicHook, when set (by tests), observes panics that Parse recovered from.
var panicHook atomic.Pointer[func(path string, r any)]

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// maxPooledNodes: buffers of larger trees are not kept for reuse.
const maxPooledNodes = 1 << 20

// putScratch returns buffers to the pool unless they grew very large.
func putScratch(sc *scratch) {
	if cap(sc.nodes) > maxPooledNodes || cap(sc.prevs) > maxPooledNodes {
		return
	}
	scratchPool.Put(sc)
}

// Parse chunks one file and extracts its relations. language is one of the
// scanner's names ("" or unknown means text). path is the project-relative
// path (used for text chunk names). It never panics and never fails: any
// problem falls back to text chunks.
func Parse(path, language string, src []byte) (res Result) {
	if len(src) == 0 {
		return Result{Language: language, Fallback: !Supported(language)}
	}
	if !Supported(language) || len(src) > maxParseBytes || minified(src) {
		return textResult(path, language, src)
	}
	defer func() {
		if r := recover(); r != nil {
			if h := panicHook.Load(); h != nil {
				(*h)(path, r)
			}
			res = textResult(path, language, src)
		}
	}()
	g := grammarFor(language)
	tr := g.parse(src)
	if tr == nil {
		return textResult(path, language, src)
	}
	if len(src) >= trimAfterBytes {
		defer ReleaseMemory() // after the tree is freed (defers run last first)
	}
	defer tr.Close()
	sc := scratchPool.Get().(*scratch)
	defer putScratch(sc)
	sc.nodes = flatten(tr.RootNode(), sc.nodes)
	t := &tree{g: g, src: src, nodes: sc.nodes}
	if tooBroken(t) {
		return textResult(path, language, src)
	}
	x := &extractor{t: t, sp: g.sp, path: path}
	if cap(sc.prevs) >= len(t.nodes) {
		x.prevs = sc.prevs[:0]
	}
	x.run()
	if cap(x.prevs) > cap(sc.prevs) {
		sc.prevs = x.prevs
	}
	res = Result{Language: language, Chunks: x.chunks, Relations: x.rels, Facts: x.facts}
	sanitize(&res)
	return res
}

// sanitize replaces invalid UTF-8 in the names taken from the source
// (contents are already cleaned when they are cut).
func sanitize(res *Result) {
	fix := func(s *string) {
		if !utf8.ValidString(*s) {
			*s = validUTF8(*s)
		}
	}
	fixAll := func(l []string) {
		for k := range l {
			fix(&l[k])
		}
	}
	for k := range res.Chunks {
		c := &res.Chunks[k]
		fix(&c.Name)
		fix(&c.Symbol)
		fix(&c.Container)
		fixAll(c.Extends)
		fixAll(c.Implements)
		fixAll(c.Decorators)
	}
	for k := range res.Relations {
		r := &res.Relations[k]
		fix(&r.Source)
		fix(&r.Target)
		fix(&r.Qualifier)
		fix(&r.Recv)
	}
	for k := range res.Facts {
		f := &res.Facts[k]
		fix(&f.Owner)
		fix(&f.Name)
		fix(&f.Type)
		fix(&f.Sig)
	}
}

// minified reports whether src looks like minified or generated one-line
// code (at least 64 KiB with lines of more than 1000 bytes on average),
// which syntax chunks would not make more useful.
func minified(src []byte) bool {
	if len(src) < minifiedMinBytes {
		return false
	}
	return bytes.Count(src, []byte{'\n'})+1 < len(src)/minifiedLineBytes
}

// stopAfterHook, when set (by tests), replaces the time budget of large
// parses: the parse is halted at that progress callback (1 = the first), so
// a test can halt it at a chosen point, including while tree-sitter balances
// the finished tree.
var stopAfterHook atomic.Int64

// parse parses src with a pooled parser; nil when parsing failed or took
// too long.
func (g *grammar) parse(src []byte) *sitter.Tree {
	p := g.getParser()
	if p == nil {
		return nil
	}
	var tr *sitter.Tree
	if len(src) < slowParseBytes {
		tr = p.Parse(src, nil)
	} else {
		n := len(src)
		tr = p.ParseWithOptions(func(i int, _ sitter.Point) []byte {
			if i < n {
				return src[i:]
			}
			return nil
		}, nil, &sitter.ParseOptions{ProgressCallback: budgetStop(n)})
	}
	if tr == nil {
		// A halted parse leaves state in the parser that Reset does not
		// clear (a parse halted while balancing the tree resumes balancing
		// a released tree and aborts the process), so it is never reused.
		p.Close()
		return nil
	}
	g.putParser(p)
	return tr
}

// budgetStop returns the progress callback of a parse of n bytes: it halts
// the parse once the work budget (parseStepsPerMiB per started MiB) is
// spent.
func budgetStop(n int) func(sitter.ParseState) bool {
	if k := stopAfterHook.Load(); k > 0 {
		calls := int64(0)
		return func(sitter.ParseState) bool {
			calls++
			return calls >= k
		}
	}
	limit, calls := int64(n>>20+1)*parseStepsPerMiB, int64(0)
	return func(sitter.ParseState) bool {
		calls++
		return calls > limit
	}
}

// tooBroken is the top-level error rule: a parsed file falls back to text
// when its root node is an ERROR node, or when more than 25% of the root's
// named children (comments excluded) are ERROR nodes, or when ERROR children
// cover more than half of the file's bytes. Errors deeper in the tree (for
// example inside a function body full of macros) are tolerated.
func tooBroken(t *tree) bool {
	if len(t.nodes) == 0 || t.kind(0) == "ERROR" {
		return true
	}
	total, errs, errBytes := 0, 0, 0
	for c := t.first(0); c >= 0; c = t.next(c) {
		isErr := t.kind(c) == "ERROR" // error nodes may be flagged extra
		if !isErr && (!t.named(c) || t.nodes[c].flags&flagExtra != 0) {
			continue
		}
		total++
		if isErr {
			errs++
			errBytes += int(t.nodes[c].end - t.nodes[c].start)
		}
	}
	return float64(errs) > maxErrorShare*float64(total) ||
		float64(errBytes) > maxErrorBytesShare*float64(len(t.src))
}
