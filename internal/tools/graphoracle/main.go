//go:build oracle

// Command graphoracle measures codectx's relation graph against a language
// server used as an oracle (gopls for Go, pyright for Python,
// typescript-language-server over tsserver for TypeScript): for a
// fixed-seed sample of functions it compares direct callers and callees
// (matched on file and enclosing function), for Go interfaces it compares
// implementations, and it reports the share of in-project call edges left
// unresolved or at name level. With -residue it instead asks the server
// where each call left unresolved or at name level goes (into the
// project, outside it, nowhere), to read which rules are missing. It is
// run on demand by scripts/graph-oracle.sh (build tag "oracle"), never by
// go test.
//
// It must not write to the index: it opens it read-only.
package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"go/build"
	"io"
	"maps"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"codectx/internal/store"
)

func main() {
	root := flag.String("root", "", "project root (absolute), indexed into -db")
	dbPath := flag.String("db", "", "codectx index database")
	gopls := flag.String("gopls", "gopls", "gopls binary (-lang go)")
	pyright := flag.String("pyright", "pyright-langserver", "pyright language server (-lang python), run with --stdio")
	tsls := flag.String("tsls", "typescript-language-server", "typescript-language-server (-lang typescript), run with --stdio")
	tsdk := flag.String("tsdk", "", "the typescript package's lib directory tsserver is started from (-lang typescript; default: the server's own lookup)")
	language := flag.String("lang", "go", "language measured: go (gopls), python (pyright) or typescript (typescript-language-server)")
	n := flag.Int("n", 40, "functions to sample")
	seed := flag.Int64("seed", 1, "sampling seed")
	ifaces := flag.Int("ifaces", 40, "interfaces to sample for implements")
	verbose := flag.Bool("v", false, "print every mismatch")
	residueMode := flag.Bool("residue", false, "instead of sampling: ask the server where each call left unresolved or name (whose name the project defines) goes, and count project / outside / unknown")
	flag.Parse()
	srv := server{lang: *language, bin: *gopls}
	switch *language {
	case "go":
	case "python":
		srv.bin, srv.args = *pyright, []string{"--stdio"}
	case "typescript":
		srv.bin, srv.args = *tsls, []string{"--stdio"}
		if *tsdk != "" {
			srv.init = map[string]any{"tsserver": map[string]any{"path": *tsdk}}
		}
		if *residueMode {
			fmt.Fprintln(os.Stderr, "graphoracle: -residue is for -lang python")
			os.Exit(2)
		}
	default:
		fmt.Fprintln(os.Stderr, "graphoracle: -lang must be go, python or typescript")
		os.Exit(2)
	}
	if *residueMode {
		if err := residue(*root, *dbPath, srv, *verbose); err != nil {
			fmt.Fprintln(os.Stderr, "graphoracle:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*root, *dbPath, srv, *n, *ifaces, *seed, *verbose); err != nil {
		fmt.Fprintln(os.Stderr, "graphoracle:", err)
		os.Exit(1)
	}
}

// server is the language server used as the oracle.
type server struct {
	lang string // "go", "python" or "typescript"
	bin  string
	args []string
	init any // initializationOptions, when set
}

type chunk struct {
	id              int64
	path, kind, sym string
	short           string
	start, end      int
	lang            string
}

type index struct {
	db     *store.DB
	projID int64
	chunks []chunk
	byFile map[string][]int
	byID   map[int64]int
	ifaces map[[2]string]bool // (path, symbol) of the interfaces, from the type facts; see interfaces
}

// interfaces returns (path, symbol) of every type with interface facts
// (methods or embedded interfaces), loaded once.
func (ix *index) interfaces(ctx context.Context) (map[[2]string]bool, error) {
	if ix.ifaces != nil {
		return ix.ifaces, nil
	}
	facts, err := ix.db.TypeFacts(ctx, ix.projID)
	if err != nil {
		return nil, err
	}
	paths, err := ix.db.FilePathsOf(ctx, ix.projID)
	if err != nil {
		return nil, err
	}
	ix.ifaces = map[[2]string]bool{}
	for _, f := range facts {
		if f.Kind == "imethod" || f.Kind == "iembed" {
			ix.ifaces[[2]string{paths[f.FileID], f.Owner}] = true
		}
	}
	return ix.ifaces, nil
}

func loadIndex(ctx context.Context, dbPath, root, language string) (*index, error) {
	db, err := store.Open(ctx, dbPath, store.Options{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	p, err := db.Project(ctx, root)
	if err != nil {
		return nil, err
	}
	if p == nil {
		return nil, fmt.Errorf("no project %s in %s", root, dbPath)
	}
	rows, err := db.SQL().QueryContext(ctx, "SELECT id, path, kind, symbol, short, start_line, end_line, lang FROM chunks WHERE project_id = ? AND kind IN ('function','method','type') ORDER BY path, start_line, id", p.ID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	ix := &index{db: db, projID: p.ID, byFile: map[string][]int{}, byID: map[int64]int{}}
	for rows.Next() {
		var c chunk
		if err := rows.Scan(&c.id, &c.path, &c.kind, &c.sym, &c.short, &c.start, &c.end, &c.lang); err != nil {
			return nil, err
		}
		if c.lang != language && !(language == "typescript" && c.lang == "tsx") || language == "go" && !inBuild(root, c.path) {
			continue // gopls does not load files the default build excludes
		}
		ix.byID[c.id] = len(ix.chunks)
		ix.byFile[c.path] = append(ix.byFile[c.path], len(ix.chunks))
		ix.chunks = append(ix.chunks, c)
	}
	return ix, rows.Err()
}

var buildCache = map[string]bool{}

// inBuild reports whether the default build context (this GOOS/GOARCH, no
// extra tags or experiments: what gopls loads) includes the file.
func inBuild(root, rel string) bool {
	if v, ok := buildCache[rel]; ok {
		return v
	}
	abs := filepath.Join(root, filepath.FromSlash(rel))
	ok, err := build.Default.MatchFile(filepath.Dir(abs), filepath.Base(abs))
	v := err == nil && ok && !inNestedModule(root, filepath.Dir(abs))
	buildCache[rel] = v
	return v
}

// inNestedModule reports whether dir is in a module of its own below root
// (a go.mod between root and dir, as test fixtures have): gopls, started on
// root without a go.work, does not load it.
func inNestedModule(root, dir string) bool {
	root = filepath.Clean(root)
	for d := filepath.Clean(dir); d != root && strings.HasPrefix(d, root+string(filepath.Separator)); d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return true
		}
	}
	return false
}

// enclosing returns the innermost function/method chunk of path holding
// line (1-based); types only when types is set.
func (ix *index) enclosing(path string, line int, types bool) (int64, bool) {
	best := -1
	for _, i := range ix.byFile[path] {
		c := &ix.chunks[i]
		if line < c.start || line > c.end {
			continue
		}
		if c.kind == "type" && !types {
			continue
		}
		if best < 0 || c.start >= ix.chunks[best].start {
			best = i
		}
	}
	if best < 0 {
		return 0, false
	}
	return ix.chunks[best].id, true
}

// enclosingSite is enclosing for a TypeScript call site: a chunk starting
// on the site's line holds it only from its name on (a one-line chunk
// "ok: () => pick(…)" after "schema: z.number()" on the same line).
func (ix *index) enclosingSite(root, path string, at position, lines map[string][]string) (int64, bool) {
	line := at.Line + 1
	best := -1
	for _, i := range ix.byFile[path] {
		c := &ix.chunks[i]
		if line < c.start || line > c.end || c.kind == "type" {
			continue
		}
		if line == c.start {
			if p, ok := namePos(root, c, lines); ok && p.Line == at.Line && utf16ToByte(lines[path][at.Line], at.Character) < p.Character {
				continue
			}
		}
		if best < 0 || c.start >= ix.chunks[best].start {
			best = i
		}
	}
	if best < 0 {
		return 0, false
	}
	return ix.chunks[best].id, true
}

// ---- a minimal LSP client over stdio ----

type lsp struct {
	cmd     *exec.Cmd
	in      io.WriteCloser
	out     *bufio.Reader
	mu      sync.Mutex
	nextID  int
	pending map[int]chan json.RawMessage
	errs    map[int]string
	dead    chan struct{}
}

func startLSP(srv server, root string) (*lsp, error) {
	cmd := exec.Command(srv.bin, srv.args...)
	cmd.Dir = root
	cmd.Stderr = io.Discard
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	l := &lsp{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20), pending: map[int]chan json.RawMessage{}, errs: map[int]string{}, dead: make(chan struct{})}
	go l.readLoop()
	uri := "file://" + root
	params := map[string]any{
		"processId": os.Getpid(), "rootUri": uri,
		"workspaceFolders": []map[string]string{{"uri": uri, "name": filepath.Base(root)}},
		"capabilities":     map[string]any{"textDocument": map[string]any{"callHierarchy": map[string]any{}, "implementation": map[string]any{}}},
	}
	if srv.init != nil {
		params["initializationOptions"] = srv.init
	}
	_, err = l.call("initialize", params, 10*time.Minute)
	if err != nil {
		return nil, err
	}
	l.notify("initialized", map[string]any{})
	return l, nil
}

func (l *lsp) write(msg map[string]any) error {
	msg["jsonrpc"] = "2.0"
	b, _ := json.Marshal(msg)
	l.mu.Lock()
	defer l.mu.Unlock()
	_, err := fmt.Fprintf(l.in, "Content-Length: %d\r\n\r\n%s", len(b), b)
	return err
}

func (l *lsp) notify(method string, params any) {
	l.write(map[string]any{"method": method, "params": params})
}

func (l *lsp) call(method string, params any, timeout time.Duration) (json.RawMessage, error) {
	l.mu.Lock()
	l.nextID++
	id := l.nextID
	ch := make(chan json.RawMessage, 1)
	l.pending[id] = ch
	l.mu.Unlock()
	if err := l.write(map[string]any{"id": id, "method": method, "params": params}); err != nil {
		return nil, err
	}
	select {
	case r := <-ch:
		l.mu.Lock()
		e := l.errs[id]
		l.mu.Unlock()
		if e != "" {
			return nil, fmt.Errorf("%s: %s", method, e)
		}
		return r, nil
	case <-l.dead:
		return nil, fmt.Errorf("%s: language server exited", method)
	case <-time.After(timeout):
		return nil, fmt.Errorf("%s: timeout", method)
	}
}

func (l *lsp) readLoop() {
	defer close(l.dead)
	for {
		n := 0
		for {
			line, err := l.out.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				n, _ = strconv.Atoi(v)
			}
		}
		buf := make([]byte, n)
		if _, err := io.ReadFull(l.out, buf); err != nil {
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(buf, &m) != nil {
			continue
		}
		if m.Method != "" {
			if len(m.ID) > 0 { // a request from the server: answer null
				var result any
				if m.Method == "workspace/configuration" {
					// one (empty) settings object per item asked for
					var p struct {
						Items []json.RawMessage `json:"items"`
					}
					json.Unmarshal(m.Params, &p)
					list := make([]any, len(p.Items))
					for k := range list {
						list[k] = map[string]any{}
					}
					result = list
				}
				b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
				l.mu.Lock()
				fmt.Fprintf(l.in, "Content-Length: %d\r\n\r\n%s", len(b), b)
				l.mu.Unlock()
			}
			continue
		}
		id, err := strconv.Atoi(string(m.ID))
		if err != nil {
			continue
		}
		l.mu.Lock()
		ch := l.pending[id]
		delete(l.pending, id)
		if m.Error != nil {
			l.errs[id] = m.Error.Message
		}
		l.mu.Unlock()
		if ch != nil {
			ch <- m.Result
		}
	}
}

func (l *lsp) close() {
	l.call("shutdown", nil, 10*time.Second)
	l.notify("exit", nil)
	l.in.Close()
	l.cmd.Wait()
}

type position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}
type lspRange struct {
	Start position `json:"start"`
	End   position `json:"end"`
}
type item struct {
	Name           string          `json:"name"`
	Kind           int             `json:"kind"`
	URI            string          `json:"uri"`
	Range          lspRange        `json:"range"`
	SelectionRange lspRange        `json:"selectionRange"`
	Data           json.RawMessage `json:"data,omitempty"`
}

// namePos finds the position of a declaration's name at or below its
// chunk's first line (the chunk starts with its doc comment).
func namePos(root string, c *chunk, lines map[string][]string) (position, bool) {
	ls, ok := lines[c.path]
	if !ok {
		b, err := os.ReadFile(filepath.Join(root, c.path))
		if err != nil {
			return position{}, false
		}
		ls = strings.Split(string(b), "\n")
		lines[c.path] = ls
	}
	name := c.short
	for ln := c.start; ln <= c.end && ln <= len(ls); ln++ {
		s := ls[ln-1]
		var k int
		switch {
		case isTS(c.lang):
			// the first line outside the doc comment and decorators
			// that names it: "function f(", "  async m(", "export const f ="
			t := strings.TrimSpace(s)
			if t == "" || strings.HasPrefix(t, "//") || strings.HasPrefix(t, "/*") || strings.HasPrefix(t, "*") || strings.HasPrefix(t, "@") {
				continue
			}
			k = indexWordIn(s, name, isIdentTS)
		case c.lang == "python":
			t := strings.TrimSpace(s)
			if !strings.HasPrefix(t, "def ") && !strings.HasPrefix(t, "async def ") && !strings.HasPrefix(t, "class ") {
				continue
			}
			k = indexWord(s, name)
		case c.kind == "type":
			if !strings.Contains(s, "type ") && !strings.HasPrefix(strings.TrimSpace(s), name) {
				continue
			}
			k = indexWord(s, name)
		default:
			if !strings.HasPrefix(s, "func") {
				continue
			}
			k = indexWord(s, name)
		}
		if k >= 0 {
			return position{Line: ln - 1, Character: k}, true
		}
	}
	return position{}, false
}

func indexWord(s, w string) int { return indexWordIn(s, w, isIdent) }

// indexWordIn finds w in s as a whole word of the identifier characters
// ident accepts.
func indexWordIn(s, w string, ident func(byte) bool) int {
	for off := 0; ; {
		k := strings.Index(s[off:], w)
		if k < 0 {
			return -1
		}
		k += off
		before := k == 0 || !ident(s[k-1])
		after := k+len(w) >= len(s) || !ident(s[k+len(w)])
		if before && after {
			return k
		}
		off = k + 1
	}
}

func isIdent(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// isIdentTS: TypeScript identifiers also hold "$" ($ZodType).
func isIdentTS(b byte) bool { return b == '$' || isIdent(b) }

func isTS(lang string) bool { return lang == "typescript" || lang == "tsx" }

// isAccessor reports whether a TypeScript method chunk is a get or set
// accessor (read or assigned, never called).
func isAccessor(root string, c *chunk, lines map[string][]string) bool {
	if !isTS(c.lang) || c.kind != "method" {
		return false
	}
	pos, ok := namePos(root, c, lines)
	if !ok {
		return false
	}
	f := strings.Fields(lines[c.path][pos.Line][:pos.Character])
	return len(f) > 0 && (f[len(f)-1] == "get" || f[len(f)-1] == "set")
}

type pr struct{ tp, fp, fn int }

func (p *pr) add(got, want map[int64]bool) (extra, missing []int64) {
	for id := range got {
		if want[id] {
			p.tp++
		} else {
			p.fp++
			extra = append(extra, id)
		}
	}
	for id := range want {
		if !got[id] {
			p.fn++
			missing = append(missing, id)
		}
	}
	return
}

func (p pr) String() string {
	prec, rec := 1.0, 1.0
	if p.tp+p.fp > 0 {
		prec = float64(p.tp) / float64(p.tp+p.fp)
	}
	if p.tp+p.fn > 0 {
		rec = float64(p.tp) / float64(p.tp+p.fn)
	}
	return fmt.Sprintf("precision %.3f recall %.3f (tp %d, fp %d, fn %d)", prec, rec, p.tp, p.fp, p.fn)
}

func run(root, dbPath string, srv server, n, nIfaces int, seed int64, verbose bool) error {
	ctx := context.Background()
	root, _ = filepath.Abs(root)
	ix, err := loadIndex(ctx, dbPath, root, srv.lang)
	if err != nil {
		return err
	}
	py := srv.lang == "python"
	ts := srv.lang == "typescript"
	lines := map[string][]string{}
	// sample: half functions with a common short name (3+ chunks), half rare
	count := map[string]int{}
	for _, c := range ix.chunks {
		count[c.short]++
	}
	var common, rare []int
	for i, c := range ix.chunks {
		if c.kind == "type" || py && isProperty(root, &c, lines) {
			continue // a property is read, not called: pyright lists reads as calls
		}
		if ts && (c.short == "constructor" || isAccessor(root, &c, lines)) {
			// tsserver has no call hierarchy item for a constructor (its
			// calls are the class's); an accessor is read, not called
			continue
		}
		if count[c.short] >= 3 {
			common = append(common, i)
		} else {
			rare = append(rare, i)
		}
	}
	rng := rand.New(rand.NewSource(seed))
	rng.Shuffle(len(common), func(a, b int) { common[a], common[b] = common[b], common[a] })
	rng.Shuffle(len(rare), func(a, b int) { rare[a], rare[b] = rare[b], rare[a] })
	sample := append(common[:min(n/2, len(common))], rare[:min(n-n/2, len(rare))]...)

	l, err := startLSP(srv, root)
	if err != nil {
		return fmt.Errorf("start %s: %w", srv.bin, err)
	}
	defer func() { l.close() }()
	if py {
		// pyright finds the workspace's files after initialisation: wait
		// until a request that needs the whole program has been answered
		l.call("workspace/symbol", map[string]any{"query": "__init__"}, 10*time.Minute)
	}
	opened := map[string]bool{}
	openTS := func(uri string) {
		// tsserver answers for the files of a project once one of them is
		// open: open each file asked about (the configured project,
		// tsconfig.json at the root, holds them all)
		if !ts || opened[uri] {
			return
		}
		opened[uri] = true
		b, err := os.ReadFile(strings.TrimPrefix(uri, "file://"))
		if err != nil {
			return
		}
		l.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "typescript", "version": 1, "text": string(b)}})
	}
	siteChunk := func(uri string, at position) (int64, bool) {
		rel, err := filepath.Rel(root, strings.TrimPrefix(uri, "file://"))
		if err != nil || strings.HasPrefix(rel, "..") {
			return 0, false
		}
		return ix.enclosingSite(root, filepath.ToSlash(rel), at, lines)
	}
	toChunk := func(uri string, line int, types bool) (int64, bool) {
		p := strings.TrimPrefix(uri, "file://")
		rel, err := filepath.Rel(root, p)
		if err != nil || strings.HasPrefix(rel, "..") {
			return 0, false
		}
		return ix.enclosing(filepath.ToSlash(rel), line+1, types)
	}
	// toTarget maps an outgoing call's target. tsserver names an
	// overloaded function or method by its first signature, which has no
	// chunk: the chunk is the implementation's, the next function of that
	// name after the signatures.
	toTarget := func(it item) (int64, bool) {
		line := it.SelectionRange.Start.Line
		id, ok := toChunk(it.URI, line, true)
		if !ts || ok && ix.chunks[ix.byID[id]].kind != "type" || it.Kind == symbolKindClass {
			return id, ok
		}
		rel, err := filepath.Rel(root, strings.TrimPrefix(it.URI, "file://"))
		if err != nil {
			return id, ok
		}
		for _, k := range ix.byFile[filepath.ToSlash(rel)] {
			if n := &ix.chunks[k]; n.kind != "type" && n.start > line+1 {
				// in the class the signature is in (an interface's
				// method signature stays the interface's)
				if n.short == it.Name && (!ok || n.end <= ix.chunks[ix.byID[id]].end) {
					return n.id, true
				}
				break
			}
		}
		return id, ok
	}
	name := func(id int64) string {
		c := ix.chunks[ix.byID[id]]
		return c.path + ":" + strconv.Itoa(c.start) + " " + c.sym
	}
	var callersP, callersR, refsR, refsP, callersAll, callees pr
	skipped := 0
	for _, si := range sample {
		c := &ix.chunks[si]
		pos, ok := namePos(root, c, lines)
		if !ok {
			skipped++
			continue
		}
		uri := "file://" + filepath.Join(root, c.path)
		openTS(uri)
		res, err := l.call("textDocument/prepareCallHierarchy", map[string]any{"textDocument": map[string]string{"uri": uri}, "position": pos}, 5*time.Minute)
		var items []item
		if err == nil {
			err = json.Unmarshal(res, &items)
		}
		if err != nil || len(items) == 0 {
			if err != nil && strings.Contains(err.Error(), "exited") {
				if l, err = startLSP(srv, root); err != nil {
					return err
				}
				clear(opened)
			}
			skipped++
			continue
		}
		it := items[0]
		if id, ok := toChunk(it.URI, it.SelectionRange.Start.Line, false); !ok || id != c.id {
			// the server answered for another declaration of the name
			// (a function defined twice, in the branches of an if)
			skipped++
			continue
		}
		// gopls: callers
		in, err := l.call("callHierarchy/incomingCalls", map[string]any{"item": it}, 5*time.Minute)
		var incoming []struct {
			From       item       `json:"from"`
			FromRanges []lspRange `json:"fromRanges"`
		}
		if err == nil {
			err = json.Unmarshal(in, &incoming)
		}
		out, err2 := l.call("callHierarchy/outgoingCalls", map[string]any{"item": it}, 5*time.Minute)
		var outgoing []struct {
			To         item       `json:"to"`
			FromRanges []lspRange `json:"fromRanges"`
		}
		if err2 == nil {
			err2 = json.Unmarshal(out, &outgoing)
		}
		if err != nil || err2 != nil {
			// gopls v0.20.0 dies on outgoing calls through universe methods
			// (err.Error()): restart and skip the function
			if l, err = startLSP(srv, root); err != nil {
				return err
			}
			clear(opened)
			skipped++
			continue
		}
		// gopls counts calls through an interface method as callers of its
		// implementations (in call hierarchy and references alike). Direct
		// callers are checked with textDocument/definition at the first
		// call site of up to maxChecked callers (in gopls' order): recall
		// is measured on those; precision against every gopls caller.
		//
		// tsserver (TypeScript) finds references through the base classes
		// and interfaces a method overrides or implements as gopls does
		// (a call on an interface is a caller of every implementation):
		// its callers are checked the same way.
		wantIn, wantRef, wantAll, wantOut := map[int64]bool{}, map[int64]bool{}, map[int64]bool{}, map[int64]bool{}
		checked := 0
		type caller struct {
			From       item
			FromRanges []lspRange
			id         int64
		}
		var callers []caller
		for _, x := range incoming {
			if verbose && os.Getenv("ORACLE_DEBUG") != "" {
				fmt.Printf("debug %s <- %s (kind %d) %s:%d %v\n", c.sym, x.From.Name, x.From.Kind, x.From.URI, x.From.Range.Start.Line+1, x.FromRanges)
			}
			if py && x.From.Kind == symbolKindModule {
				continue // module-level code (a class body too): no function chunk
			}
			if ts {
				// tsserver's caller is the nearest function declaration,
				// method, accessor, class (for a constructor or a field
				// initialiser), const-assigned function, namespace or
				// file around the call: a callback passed as an argument
				// or a function assigned to a property (zod's
				// inst._zod.parse = (…) => …, a chunk of its own) is not
				// one. The caller is the function chunk around each call
				// site; a site at top level (none) is left out.
				var ids []int64
				byID := map[int64][]lspRange{}
				for _, rg := range x.FromRanges {
					if id, ok := siteChunk(x.From.URI, rg.Start); ok {
						if byID[id] == nil {
							ids = append(ids, id)
						}
						byID[id] = append(byID[id], rg)
					}
				}
				for _, id := range ids {
					callers = append(callers, caller{x.From, byID[id], id})
				}
				continue
			}
			if id, ok := toChunk(x.From.URI, x.From.Range.Start.Line, false); ok {
				callers = append(callers, caller{x.From, x.FromRanges, id})
			}
		}
		for _, x := range callers {
			id := x.id
			wantAll[id] = true
			// Both servers list references that are not calls among the
			// incoming calls (gopls: any reference, a function passed as a
			// value; pyright: any attribute read of a method, an
			// assignment to it too). A caller counts as a direct one when
			// one of its ranges is followed by "(": recall is measured on
			// those, and separately on every reference.
			site, isCall := -1, false
			for k, rg := range x.FromRanges {
				if callAt(root, x.From.URI, rg, lines) {
					site, isCall = k, true
					break
				}
			}
			if site < 0 && len(x.FromRanges) > 0 {
				site = 0
			}
			if py {
				// pyright resolves by type and lists no interface callers:
				// every caller is a direct one
				wantRef[id] = true
				if isCall {
					wantIn[id] = true
				}
				continue
			}
			if checked >= maxChecked || site < 0 {
				continue
			}
			checked++
			openTS(x.From.URI)
			res, err := l.call("textDocument/definition", map[string]any{"textDocument": map[string]string{"uri": x.From.URI}, "position": x.FromRanges[site].Start}, time.Minute)
			var locs []struct {
				URI   string   `json:"uri"`
				Range lspRange `json:"range"`
			}
			if verbose && os.Getenv("ORACLE_DEBUG") != "" {
				fmt.Printf("debug definition %s <- %s: %s %v\n", c.sym, name(id), res, err)
			}
			if err == nil && json.Unmarshal(res, &locs) == nil && len(locs) > 0 && (locs[0].URI == uri && locs[0].Range.Start.Line == pos.Line || ts && isDef(locs, uri, pos.Line)) {
				wantRef[id] = true
				if isCall {
					wantIn[id] = true
				}
			}
		}
		for _, x := range outgoing {
			if verbose && os.Getenv("ORACLE_DEBUG") != "" {
				fmt.Printf("debug %s -> %s %s:%d\n", c.sym, x.To.Name, x.To.URI, x.To.SelectionRange.Start.Line+1)
			}
			if id, ok := toTarget(x.To); ok {
				if py && isProperty(root, &ix.chunks[ix.byID[id]], lines) {
					continue // a property read, not a call
				}
				if ts && !calledFrom(root, it.URI, x.FromRanges, lines, func(rg lspRange) bool {
					k, ok := siteChunk(it.URI, rg.Start)
					return ok && k == c.id
				}) {
					// tsserver lists every property access that reaches a
					// method or an accessor (a method passed as a value,
					// a getter read): a callee when a range is called.
					// As for callers, the site must be in this function's
					// chunk, not in a nested one (tsserver takes in
					// callbacks and functions assigned to properties)
					continue
				}
				wantOut[id] = true
			}
		}
		gotIn, gotOut := map[int64]bool{}, map[int64]bool{}
		rels, err := ix.db.RelationsTo(ctx, []int64{c.id}, "calls")
		if err != nil {
			return err
		}
		for _, r := range rels {
			if r.SrcChunk != 0 && (r.Resolution == store.ResExact || r.Resolution == store.ResInferred) {
				if k, ok := ix.byID[r.SrcChunk]; ok && !((py || ts) && ix.chunks[k].kind == "type") {
					gotIn[r.SrcChunk] = true
				}
			}
		}
		// Go references edges (a function or method used as a value): with
		// the callers, they are the callers counting references
		gotRef := maps.Clone(gotIn)
		refRels, err := ix.db.RelationsTo(ctx, []int64{c.id}, "references")
		if err != nil {
			return err
		}
		var refExtra []int64
		for _, r := range refRels {
			if _, ok := ix.byID[r.SrcChunk]; !ok || (r.Resolution != store.ResExact && r.Resolution != store.ResInferred) || gotRef[r.SrcChunk] {
				continue
			}
			gotRef[r.SrcChunk] = true
			// precision of the functions only a references edge links
			if wantAll[r.SrcChunk] {
				refsP.tp++
			} else {
				refsP.fp++
				refExtra = append(refExtra, r.SrcChunk)
			}
		}
		from := []int64{c.id}
		if py {
			// pyright's outgoing calls of a function include those of
			// the functions defined inside it (tsserver's do not: they
			// stop at a nested function declaration or an arrow function
			// assigned to a const, and take in the callbacks)
			for _, k := range ix.byFile[c.path] {
				if n := &ix.chunks[k]; n.id != c.id && n.kind != "type" && n.start >= c.start && n.end <= c.end {
					from = append(from, n.id)
				}
			}
		}
		rels, err = ix.db.RelationsFrom(ctx, from, "calls")
		if err != nil {
			return err
		}
		for _, r := range rels {
			if r.DstChunk == 0 || (r.Resolution != store.ResExact && r.Resolution != store.ResInferred) {
				continue
			}
			k, ok := ix.byID[r.DstChunk]
			if !ok || (!py && !ts && ix.chunks[k].kind == "type" && r.Detail != "interface method") {
				continue // Go conversions are not calls (a Python class call constructs, TypeScript's new)
			}
			gotOut[r.DstChunk] = true
		}
		gotAll := maps.Clone(gotIn)
		drels, err := ix.db.RelationsTo(ctx, []int64{c.id}, "dispatch")
		if err != nil {
			return err
		}
		for _, r := range drels {
			if _, ok := ix.byID[r.SrcChunk]; ok {
				gotAll[r.SrcChunk] = true
			}
		}
		if extra, _ := callersAll.add(gotAll, wantAll); verbose {
			for _, id := range extra {
				fmt.Printf("dispatch extra %s <- %s\n", c.sym, name(id))
			}
		}
		var ex, mi []int64
		for id := range gotIn {
			if wantAll[id] {
				callersP.tp++
			} else {
				callersP.fp++
				ex = append(ex, id)
			}
		}
		for id := range wantIn {
			if gotIn[id] {
				callersR.tp++
			} else {
				callersR.fn++
				mi = append(mi, id)
			}
		}
		var refOnly []int64
		for id := range wantRef {
			if gotRef[id] {
				refsR.tp++
			} else {
				refsR.fn++
				if !wantIn[id] {
					refOnly = append(refOnly, id)
				}
			}
		}
		ex2, mi2 := callees.add(gotOut, wantOut)
		if verbose {
			for _, id := range ex {
				fmt.Printf("caller extra   %s <- %s\n", c.sym, name(id))
			}
			for _, id := range mi {
				fmt.Printf("caller missing %s <- %s\n", c.sym, name(id))
			}
			for _, id := range refOnly {
				fmt.Printf("reference only %s <- %s\n", c.sym, name(id))
			}
			for _, id := range refExtra {
				fmt.Printf("reference extra %s <- %s\n", c.sym, name(id))
			}
			for _, id := range ex2 {
				fmt.Printf("callee extra   %s -> %s\n", c.sym, name(id))
			}
			for _, id := range mi2 {
				fmt.Printf("callee missing %s -> %s\n", c.sym, name(id))
			}
		}
	}

	// implements: sampled interfaces (Go only; Python bases are extends)
	var ifaceIdx []int
	ifaces, err := ix.interfaces(ctx)
	if err != nil {
		return err
	}
	for k, c := range ix.chunks {
		if c.kind == "type" && c.lang == "go" && ifaces[[2]string{c.path, c.sym}] {
			ifaceIdx = append(ifaceIdx, k)
		}
	}
	slices.SortFunc(ifaceIdx, func(a, b int) int { return cmp.Compare(ix.chunks[a].id, ix.chunks[b].id) })
	rng.Shuffle(len(ifaceIdx), func(a, b int) { ifaceIdx[a], ifaceIdx[b] = ifaceIdx[b], ifaceIdx[a] })
	ifaceIdx = ifaceIdx[:min(nIfaces, len(ifaceIdx))]
	var impl pr
	for _, k := range ifaceIdx {
		c := &ix.chunks[k]
		pos, ok := namePos(root, c, lines)
		if !ok {
			continue
		}
		uri := "file://" + filepath.Join(root, c.path)
		res, err := l.call("textDocument/implementation", map[string]any{"textDocument": map[string]string{"uri": uri}, "position": pos}, 5*time.Minute)
		if err != nil {
			if strings.Contains(err.Error(), "exited") {
				if l, err = startLSP(srv, root); err != nil {
					return err
				}
			}
			continue
		}
		var locs []struct {
			URI   string   `json:"uri"`
			Range lspRange `json:"range"`
		}
		json.Unmarshal(res, &locs)
		want := map[int64]bool{}
		for _, loc := range locs {
			if id, ok := toChunk(loc.URI, loc.Range.Start.Line, true); ok && ix.chunks[ix.byID[id]].kind == "type" {
				if isIface(ix, id) {
					continue // concrete implementations only
				}
				want[id] = true
			}
		}
		got := map[int64]bool{}
		rels, err := ix.db.RelationsTo(ctx, []int64{c.id}, "implements")
		if err != nil {
			return err
		}
		for _, r := range rels {
			if _, ok := ix.byID[r.SrcChunk]; ok && r.Resolution == store.ResExact {
				got[r.SrcChunk] = true
			}
		}
		ex, mi := impl.add(got, want)
		if verbose {
			for _, id := range ex {
				fmt.Printf("implements extra   %s <- %s\n", c.sym, name(id))
			}
			for _, id := range mi {
				fmt.Printf("implements missing %s <- %s\n", c.sym, name(id))
			}
		}
	}

	// in-project call edges left unresolved or at name level (call sites:
	// not the derived edges to the other definitions a call reaches)
	var total, open, ext, local, openDefined int
	q := `SELECT resolution, detail, EXISTS (SELECT 1 FROM chunks c WHERE c.project_id = r.project_id AND c.short = r.target AND c.kind IN ('function','method','type')), count(*)
		FROM relations r JOIN files f ON f.id = r.file_id
		WHERE r.project_id = ? AND r.kind = 'calls' AND r.derived = 0 AND f.lang = ? GROUP BY 1, 2, 3`
	rows, err := ix.db.SQL().QueryContext(ctx, q, ix.projID, srv.lang)
	if err != nil {
		return err
	}
	for rows.Next() {
		var res, detail string
		var defined bool
		var cnt int
		rows.Scan(&res, &detail, &defined, &cnt)
		switch {
		case res == store.ResExternal:
			ext += cnt
		case detail == "local function value" || detail == "function-typed field":
			local += cnt
		case res == store.ResUnresolved || res == store.ResName:
			open += cnt
			total += cnt
			if defined {
				openDefined += cnt
			}
		default:
			total += cnt
		}
	}
	rows.Close()
	fmt.Printf("root %s, seed %d, %d functions sampled (%d skipped), %d interfaces\n", root, seed, len(sample), skipped, len(ifaceIdx))
	if py {
		fmt.Printf("callers: precision %.3f (tp %d, fp %d: ours not among pyright's callers), recall %.3f (%d of %d pyright callers with a call site)\n",
			ratio(callersP.tp, callersP.tp+callersP.fp), callersP.tp, callersP.fp, ratio(callersR.tp, callersR.tp+callersR.fn), callersR.tp, callersR.tp+callersR.fn)
	} else {
		who := "gopls"
		if ts {
			who = "tsserver"
		}
		fmt.Printf("direct callers: precision %.3f (tp %d, fp %d: ours not among %s' callers), recall %.3f (%d of %d callers %s resolves to it statically, first %d per function)\n",
			ratio(callersP.tp, callersP.tp+callersP.fp), callersP.tp, callersP.fp, who, ratio(callersR.tp, callersR.tp+callersR.fn), callersR.tp, callersR.tp+callersR.fn, who, maxChecked)
		fmt.Printf("callers with dispatch: %s\n", callersAll)
	}
	fmt.Printf("callers counting references that are not calls: recall %.3f (%d of %d; our calls and references edges)\n", ratio(refsR.tp, refsR.tp+refsR.fn), refsR.tp, refsR.tp+refsR.fn)
	if !py && !ts {
		fmt.Printf("callers by references edges alone: precision %.3f (tp %d, fp %d: not among gopls' callers)\n", ratio(refsP.tp, refsP.tp+refsP.fp), refsP.tp, refsP.fp)
	}
	fmt.Printf("direct callees: %s\n", callees)
	if !py && !ts {
		fmt.Printf("implements:     %s\n", impl)
	}
	share := 0.0
	if total > 0 {
		share = float64(open) / float64(total)
	}
	fmt.Printf("call edges: %d in project or unknown, %.1f%% unresolved or name; %d external; %d calls of local function values or function-typed fields\n", total, 100*share, ext, local)
	fmt.Printf("call edges unresolved or name whose name the project defines: %d, %.1f%% of the %d in project or unknown\n", openDefined, 100*ratio(openDefined, total), total)
	if py {
		return inProject(ctx, root, ix, l, verbose)
	}
	return nil
}

// callCol is the column of the first call of name on text (the name as a
// word followed by "("), or -1.
func callCol(text, name string) int {
	for i := 0; i+len(name) <= len(text); i++ {
		j := indexWord(text[i:], name)
		if j < 0 {
			break
		}
		k := i + j + len(name)
		for k < len(text) && text[k] == ' ' {
			k++
		}
		if k < len(text) && text[k] == '(' {
			return i + j
		}
		i += j
	}
	return -1
}

// inProject measures what issue 12 literally asks of Python: among the
// call sites the server resolves into the project — textDocument/definition
// at the called name answers a def or class of the project (not a module
// variable, a parameter or an attribute holding a function: the server's
// call hierarchy lists no callee for those) — the share codectx leaves
// unresolved or at name level. Every call site codectx records is asked
// (external ones too: a site codectx calls external and the server
// resolves into the project counts as resolved, a precision question the
// sampled figures answer); sites whose call is not found on its line (a
// call spanning lines) are not counted.
func inProject(ctx context.Context, root string, ix *index, l *lsp, verbose bool) error {
	q := `SELECT f.path, r.line, r.target, r.resolution, r.detail FROM relations r JOIN files f ON f.id = r.file_id
		WHERE r.project_id = ? AND r.kind = 'calls' AND r.derived = 0 AND f.lang = 'python' ORDER BY f.path, r.line`
	rows, err := ix.db.SQL().QueryContext(ctx, q, ix.projID)
	if err != nil {
		return err
	}
	type key struct {
		path      string
		line, col int
	}
	type site struct {
		path, target, detail string
		line                 int
		open, ext            bool
	}
	var sites []site
	for rows.Next() {
		var s site
		var res string
		if err := rows.Scan(&s.path, &s.line, &s.target, &res, &s.detail); err != nil {
			rows.Close()
			return err
		}
		s.open = res == store.ResUnresolved || res == store.ResName
		s.ext = res == store.ResExternal
		sites = append(sites, s)
	}
	rows.Close()
	lines := map[string][]string{}
	read := func(rel string, open bool) []string {
		ls, ok := lines[rel]
		if !ok {
			b, _ := os.ReadFile(filepath.Join(root, rel))
			ls = strings.Split(string(b), "\n")
			lines[rel] = ls
			if open {
				l.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": "file://" + filepath.Join(root, rel), "languageId": "python", "version": 1, "text": string(b)}})
			}
		}
		return ls
	}
	opened := map[string]bool{}
	seen := map[key]int{} // the site's index in verdict
	// per site the server resolves into the project: resolved, left open
	// or called external by codectx
	const resolved, open, external = 0, 1, 2
	var verdict []int
	mark := func(s site) int {
		switch {
		case s.open:
			return open
		case s.ext:
			return external
		}
		return resolved
	}
	notFound := 0
	for _, s := range sites {
		if !opened[s.path] {
			opened[s.path] = true
			delete(lines, s.path)
			read(s.path, true)
		}
		ls := read(s.path, false)
		if s.line < 1 || s.line > len(ls) {
			continue
		}
		name := s.target[strings.LastIndexByte(s.target, '.')+1:]
		col := callCol(ls[s.line-1], name)
		if col < 0 {
			notFound++
			continue
		}
		k := key{s.path, s.line, col}
		if i, ok := seen[k]; ok {
			if i >= 0 && s.open {
				verdict[i] = open
			}
			continue
		}
		seen[k] = -1
		uri := "file://" + filepath.Join(root, s.path)
		res, err := l.call("textDocument/definition", map[string]any{"textDocument": map[string]string{"uri": uri}, "position": position{Line: s.line - 1, Character: col}}, time.Minute)
		if err != nil {
			continue
		}
		var locs []struct {
			URI   string   `json:"uri"`
			Range lspRange `json:"range"`
		}
		if json.Unmarshal(res, &locs) != nil {
			continue
		}
		for _, loc := range locs {
			rel, err := filepath.Rel(root, strings.TrimPrefix(loc.URI, "file://"))
			if err != nil || strings.HasPrefix(rel, "..") {
				continue
			}
			dl := read(filepath.ToSlash(rel), false)
			if ln, col := loc.Range.Start.Line, loc.Range.Start.Character; ln < len(dl) && col <= len(dl[ln]) {
				// the name a def or class statement declares (not a
				// parameter on the def's line)
				before := strings.Fields(dl[ln][:col])
				if len(before) > 0 && (before[len(before)-1] == "def" || before[len(before)-1] == "class") {
					seen[k] = len(verdict)
					verdict = append(verdict, mark(s))
					if verbose && mark(s) != resolved {
						fmt.Printf("in-project %s %s:%d %s [%s] -> %s:%d\n", [3]string{"", "open", "external"}[mark(s)], s.path, s.line, s.target, s.detail, filepath.ToSlash(rel), ln+1)
					}
					break
				}
			}
		}
	}
	counts := [3]int{}
	for _, v := range verdict {
		counts[v]++
	}
	fmt.Printf("in-project call sites (pyright resolves the called name to a def or class of the project): %d, %.1f%% unresolved or name (%d), %.1f%% external (%d); %d calls not found on their line\n",
		len(verdict), 100*ratio(counts[open], len(verdict)), counts[open], 100*ratio(counts[external], len(verdict)), counts[external], notFound)
	return nil
}

// callAt reports whether the reference at rg (the name's range) is called:
// the next non-blank character after it is "(".
func callAt(root, uri string, rg lspRange, lines map[string][]string) bool {
	rel, err := filepath.Rel(root, strings.TrimPrefix(uri, "file://"))
	if err != nil || strings.HasPrefix(rel, "..") {
		return false
	}
	rel = filepath.ToSlash(rel)
	ls, ok := lines[rel]
	if !ok {
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			return false
		}
		ls = strings.Split(string(b), "\n")
		lines[rel] = ls
	}
	ts := strings.HasSuffix(rel, ".ts")
	for ln, col := rg.End.Line, rg.End.Character; ln < len(ls); ln, col = ln+1, 0 {
		s := ls[ln]
		if ts {
			col = utf16ToByte(s, col) // zod's locales are not ASCII
		}
		if col > len(s) {
			col = len(s) // UTF-16 columns: close enough on ASCII source
		}
		if t := strings.TrimLeft(s[col:], " \t"); t != "" {
			// a TypeScript tagged template (tag`…`) is a call too
			return t[0] == '(' || t[0] == '`' && strings.HasSuffix(rel, ".ts")
		}
	}
	return false
}

// utf16ToByte converts an LSP column (UTF-16 code units) on s to a byte
// offset.
func utf16ToByte(s string, col int) int {
	n := 0
	for i, r := range s {
		if n >= col {
			return i
		}
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return len(s)
}

// symbolKindModule is the LSP SymbolKind pyright gives module-level callers.
const symbolKindModule = 2

// symbolKindClass is the LSP SymbolKind of a class item (a callee
// constructed with new: never an overload signature).
const symbolKindClass = 5

// isDef reports whether one of the locations textDocument/definition
// answers is the declaration at line of uri (tsserver lists an overloaded
// function's signatures and its implementation).
func isDef(locs []struct {
	URI   string   `json:"uri"`
	Range lspRange `json:"range"`
}, uri string, line int) bool {
	for _, l := range locs {
		if l.URI == uri && l.Range.Start.Line == line {
			return true
		}
	}
	return false
}

// calledFrom reports whether one of the ranges (in uri) that in accepts
// is called.
func calledFrom(root, uri string, rgs []lspRange, lines map[string][]string, in func(lspRange) bool) bool {
	for _, rg := range rgs {
		if in(rg) && callAt(root, uri, rg, lines) {
			return true
		}
	}
	return false
}

// isProperty reports whether a Python function chunk is decorated as a
// property (read, set or deleted, never called).
func isProperty(root string, c *chunk, lines map[string][]string) bool {
	if c.lang != "python" || c.kind == "type" {
		return false
	}
	ls, ok := lines[c.path]
	if !ok {
		b, err := os.ReadFile(filepath.Join(root, c.path))
		if err != nil {
			return false
		}
		ls = strings.Split(string(b), "\n")
		lines[c.path] = ls
	}
	for ln := c.start; ln <= c.end && ln <= len(ls); ln++ {
		t := strings.TrimSpace(ls[ln-1])
		if strings.HasPrefix(t, "def ") || strings.HasPrefix(t, "async def ") {
			return false
		}
		if strings.HasPrefix(t, "@") && (strings.Contains(t, "property") || strings.HasSuffix(t, ".setter") || strings.HasSuffix(t, ".getter") || strings.HasSuffix(t, ".deleter")) {
			return true
		}
	}
	return false
}

// maxChecked bounds the gopls callers per function checked for being direct.
const maxChecked = 10

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

func isIface(ix *index, id int64) bool {
	c := ix.chunks[ix.byID[id]]
	return ix.ifaces[[2]string{c.path, c.sym}]
}

// residue asks the server, for every call site codectx leaves unresolved
// or at name level whose name the project defines, where the called name
// goes (textDocument/definition at the name): into the project (a call the
// server resolves and codectx does not), outside it (stubs, the standard
// library: an external call), or nowhere (the server does not know either).
// With verbose it prints each call with its answer. It is meant for
// development packages: their residue tells which rules are missing.
func residue(root, dbPath string, srv server, verbose bool) error {
	ctx := context.Background()
	root, _ = filepath.Abs(root)
	ix, err := loadIndex(ctx, dbPath, root, srv.lang)
	if err != nil {
		return err
	}
	q := `SELECT f.path, r.line, r.target, r.src_symbol, r.detail, r.recv FROM relations r JOIN files f ON f.id = r.file_id
		WHERE r.project_id = ? AND r.kind = 'calls' AND r.derived = 0 AND f.lang = ? AND r.resolution IN ('unresolved', 'name')
		AND (? OR r.detail NOT IN ('local function value', 'function-typed field'))
		AND (? OR EXISTS (SELECT 1 FROM chunks c WHERE c.project_id = r.project_id AND c.short = r.target AND c.kind IN ('function','method','type')))
		ORDER BY f.path, r.line`
	// ORACLE_RESIDUE_ALL: every call left open, whether or not the project
	// defines its name
	all := os.Getenv("ORACLE_RESIDUE_ALL") != ""
	// ORACLE_RESIDUE_FIELDS: the calls of local function values and of
	// function-typed fields too
	fields := os.Getenv("ORACLE_RESIDUE_FIELDS") != ""
	rows, err := ix.db.SQL().QueryContext(ctx, q, ix.projID, srv.lang, fields, all)
	if err != nil {
		return err
	}
	type site struct {
		path, target, src, detail, recv string
		line                            int
	}
	var sites []site
	for rows.Next() {
		var s site
		if err := rows.Scan(&s.path, &s.line, &s.target, &s.src, &s.detail, &s.recv); err != nil {
			rows.Close()
			return err
		}
		sites = append(sites, s)
	}
	rows.Close()
	l, err := startLSP(srv, root)
	if err != nil {
		return err
	}
	defer func() { l.close() }()
	l.call("workspace/symbol", map[string]any{"query": "__init__"}, 10*time.Minute)
	lines := map[string][]string{}
	counts := map[string]int{}
	for _, s := range sites {
		ls, ok := lines[s.path]
		if !ok {
			b, _ := os.ReadFile(filepath.Join(root, s.path))
			ls = strings.Split(string(b), "\n")
			lines[s.path] = ls
			// an open file is analysed before it is answered for
			l.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": "file://" + filepath.Join(root, s.path), "languageId": "python", "version": 1, "text": string(b)}})
		}
		if s.line < 1 || s.line > len(ls) {
			continue
		}
		text := ls[s.line-1]
		col := callCol(text, s.target)
		if col < 0 {
			counts["call not found on its line"]++
			continue
		}
		uri := "file://" + filepath.Join(root, s.path)
		res, err := l.call("textDocument/definition", map[string]any{"textDocument": map[string]string{"uri": uri}, "position": position{Line: s.line - 1, Character: col}}, time.Minute)
		var locs []struct {
			URI   string   `json:"uri"`
			Range lspRange `json:"range"`
		}
		answer := "nowhere"
		where := ""
		if err == nil && json.Unmarshal(res, &locs) == nil && len(locs) > 0 {
			p := strings.TrimPrefix(locs[0].URI, "file://")
			if rel, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(rel, "..") {
				answer = "project"
				where = fmt.Sprintf("%s:%d", rel, locs[0].Range.Start.Line+1)
			} else {
				answer = "outside"
				where = p
			}
		}
		if os.Getenv("ORACLE_DEBUG") != "" {
			fmt.Printf("debug %s:%d col %d: %s %v\n", s.path, s.line, col, res, err)
		}
		if err != nil {
			answer = "error"
			where = err.Error()
		}
		counts[answer]++
		if verbose {
			fmt.Printf("residue %s %s:%d %s %s [%s] recv %q -> %s | %s\n", answer, s.path, s.line, s.src, s.target, s.detail, s.recv, where, strings.TrimSpace(text))
		}
	}
	fmt.Printf("root %s: %d calls unresolved or name whose name the project defines; the server resolves %d into the project, %d outside it, %d nowhere (%d not found on their line)\n",
		root, len(sites), counts["project"], counts["outside"], counts["nowhere"], counts["call not found on its line"])
	return nil
}
