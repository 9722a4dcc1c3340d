package orient

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"codectx/internal/assemble"
	"codectx/internal/store"
)

// Map defaults and limits.
const (
	DefaultMapBudget = 2000
	// MinMapBudget is the smallest budget a map accepts: the header and one
	// file with one symbol need about this much.
	MinMapBudget = 64
)

// Rankings a map can be ordered by. PageRank is the product; the others are
// the baselines docs/EVAL.md compares it with.
const (
	RankPageRank = "pagerank"
	RankRefs     = "refs" // resolved incoming relations
	RankSize     = "size" // file size, then chunk length
	// RankUniform is PageRank whose random surfer starts at a random
	// definition instead of a random line (a baseline).
	RankUniform = "pagerank-uniform"
)

// ErrNoDefinitions is returned for a project whose index holds no
// definitions (no source file in a parsed language).
var ErrNoDefinitions = errors.New("no definitions in the index (no source files in a parsed language)")

// ErrBudgetTooSmall is returned when not even one symbol fits the budget.
var ErrBudgetTooSmall = errors.New("budget too small for a repository map")

// MapOptions configure BuildMap.
type MapOptions struct {
	// Budget is the most cl100k_base tokens of the rendered map; 0 means
	// DefaultMapBudget.
	Budget int
	// Focus lists files, directories or symbols the map is personalised
	// toward (files the agent has open or mentioned).
	Focus []string
	// Rank is RankPageRank ("") or a baseline.
	Rank string
}

// MapSymbol is one definition in the map: shown as a signature line, or
// (Signature empty) named in a "… more" line.
type MapSymbol struct {
	Symbol string `json:"symbol"`
	Name   string `json:"name"` // chunk name with its parameter list
	Kind   string `json:"kind"`
	Line   int    `json:"line"`
	// Rank is the definition's place in the ranking, 1 for the most
	// central; Score the ranking's value behind it.
	Rank  int     `json:"rank"`
	Score float64 `json:"score"`
	// Signature is the declaration line (a member's without its receiver
	// and declaration keyword); empty for a definition shown by name.
	Signature string      `json:"signature,omitempty"`
	Members   []MapSymbol `json:"members,omitempty"`
	// More counts the members of a type that are not shown as
	// signatures, by kind.
	More map[string]int `json:"more,omitempty"`
	// Named lists, best first, the members counted in More whose names
	// fit the budget.
	Named []MapSymbol `json:"named,omitempty"`
	short string
}

// MapFile is one file of the map with its shown top-level definitions.
type MapFile struct {
	Path string `json:"path"`
	// Rank is the file's place among the map's files (by its best
	// definition), 1 first; Score that definition's score.
	Rank    int         `json:"rank"`
	Score   float64     `json:"score"`
	Symbols []MapSymbol `json:"symbols"`
	// More counts the file's definitions not shown as signatures (top-level
	// ones, and members of types that are not shown), by kind.
	More map[string]int `json:"more,omitempty"`
	// Named lists, best first, the definitions counted in More whose names
	// fit the budget.
	Named []MapSymbol `json:"named,omitempty"`
}

// MapResult is a repository map.
type MapResult struct {
	Budget       int       `json:"budget"`
	Tokens       int       `json:"tokens"`
	Rank         string    `json:"rank"`
	Focus        []string  `json:"focus,omitempty"`
	TotalFiles   int       `json:"total_files"`
	TotalSymbols int       `json:"total_symbols"`
	Edges        int       `json:"edges"`
	Shown        int       `json:"shown"` // definitions shown as signatures
	Named        int       `json:"named"` // definitions shown by name only
	Files        []MapFile `json:"files"`
	Warnings     []string  `json:"warnings,omitempty"`
	text         string
}

// Text is the rendered map (what the budget counts).
func (m *MapResult) Text() string { return m.text }

// BuildMap ranks a project's definitions and renders the largest map whose
// token count fits the budget: the number of top-ranked definitions shown
// is found by binary search, each file lists its shown definitions in
// source order (members under their type), and what is left out is
// counted ("… 12 more methods"). Lines are never cut.
func BuildMap(ctx context.Context, db *store.DB, projectID int64, g *Graph, opt MapOptions) (*MapResult, error) {
	if opt.Budget == 0 {
		opt.Budget = DefaultMapBudget
	}
	if opt.Budget < MinMapBudget {
		return nil, fmt.Errorf("%w: %d tokens (at least %d)", ErrBudgetTooSmall, opt.Budget, MinMapBudget)
	}
	if opt.Rank == "" {
		opt.Rank = RankPageRank
	}
	res := &MapResult{Budget: opt.Budget, Rank: opt.Rank, Focus: opt.Focus, Edges: len(g.Edges)}
	score, warnings, err := rankChunks(ctx, db, projectID, g, opt)
	if err != nil {
		return nil, err
	}
	res.Warnings = warnings
	lay := newLayout(g, score)
	res.TotalFiles, res.TotalSymbols = len(lay.files), len(lay.cands)
	if len(lay.cands) == 0 {
		return nil, ErrNoDefinitions
	}
	// Signatures for every candidate that could fit: a line costs at least
	// about four tokens.
	maxN := min(len(lay.cands), opt.Budget/4+1)
	need := map[int]bool{}
	for _, i := range lay.cands[:maxN] {
		need[i] = true
		if c, ok := lay.container[i]; ok {
			need[c] = true
		}
	}
	if err := lay.loadSignatures(ctx, db, need); err != nil {
		return nil, err
	}
	lines := lineCounter{}
	render := func(n, k int) (*MapResult, int, error) {
		r := *res
		r.Files = lay.files4(n, k)
		r.Shown, r.Named = 0, 0
		for _, f := range r.Files {
			r.Shown += len(f.Symbols)
			r.Named += len(f.Named)
			for _, s := range f.Symbols {
				r.Shown += len(s.Members)
				r.Named += len(s.Named)
			}
		}
		r.text = r.render()
		t, err := lines.count(r.text)
		r.Tokens = t
		return &r, t, err
	}
	// fit returns the largest x in [lo, hi] whose map fits within limit
	// (lo must fit), by binary search.
	fit := func(lo, hi, limit int, mk func(x int) (int, int)) (*MapResult, int, error) {
		best, _, err := render(mk(lo))
		if err != nil {
			return nil, 0, err
		}
		for lo < hi {
			mid := (lo + hi + 1) / 2
			r, t, err := render(mk(mid))
			if err != nil {
				return nil, 0, err
			}
			if t <= limit {
				lo, best = mid, r
			} else {
				hi = mid - 1
			}
		}
		return best, lo, nil
	}
	_, t, err := render(1, 0)
	if err != nil {
		return nil, err
	}
	if t > opt.Budget {
		return nil, fmt.Errorf("%w: %d tokens; one symbol needs %d", ErrBudgetTooSmall, opt.Budget, t)
	}
	// Signatures for the top definitions within a third of the budget (at
	// least one), then the names of the next ones in the "… more" lines
	// until the whole budget is spent: a signature line costs about five
	// names, and a name is what an agent needs to know where to look.
	sigLimit := opt.Budget / 3
	if _, t1, _ := render(1, 0); t1 > sigLimit {
		sigLimit = opt.Budget
	}
	_, n, err := fit(1, maxN, sigLimit, func(x int) (int, int) { return x, 0 })
	if err != nil {
		return nil, err
	}
	// a name costs at least two tokens
	best, k, err := fit(0, min(len(lay.cands)-n, opt.Budget/2), opt.Budget, func(x int) (int, int) { return n, x })
	if err != nil {
		return nil, err
	}
	// The search counted line by line; the whole text decides. Step back
	// while it is over the budget (rare: a token spanning a line break).
	for {
		exact, err := assemble.CountTokens(best.text)
		if err != nil {
			return nil, err
		}
		best.Tokens = exact
		if exact <= opt.Budget || (k == 0 && n == 1) {
			break
		}
		if k > 0 {
			k--
		} else {
			n--
		}
		if best, _, err = render(n, k); err != nil {
			return nil, err
		}
	}
	if best.Tokens > opt.Budget {
		return nil, fmt.Errorf("%w: %d tokens; one symbol needs %d", ErrBudgetTooSmall, opt.Budget, best.Tokens)
	}
	return best, nil
}

// lineCounter counts a text's tokens as the sum of its lines' counts,
// remembering each line: the budget search renders many maps that share
// most lines.
type lineCounter map[string]int

func (lc lineCounter) count(text string) (int, error) {
	total := 0
	for line := range strings.SplitAfterSeq(text, "\n") {
		n, ok := lc[line]
		if !ok {
			var err error
			if n, err = assemble.CountTokens(line); err != nil {
				return 0, err
			}
			lc[line] = n
		}
		total += n
	}
	return total, nil
}

// rankChunks scores every chunk by the chosen ranking.
func rankChunks(ctx context.Context, db *store.DB, projectID int64, g *Graph, opt MapOptions) ([]float64, []string, error) {
	n := len(g.Chunks)
	score := make([]float64, n)
	switch opt.Rank {
	case RankPageRank, RankUniform:
		loc := opt.Rank == RankPageRank
		base := teleportBase(g, loc)
		personal, hit, warnings := focusVector(g, base, opt.Focus)
		if !loc {
			return g.PageRank(personal), warnings, nil
		}
		var r []float64
		if len(hit) == 0 {
			r = g.PageRank(personal)
		} else {
			rs := g.PageRanks(personal, base)
			r = rs[0]
			focusLift(r, rs[1], base, hit)
		}
		for i, c := range g.Chunks {
			r[i] *= sizePrior(c)
		}
		return r, warnings, nil
	case RankRefs:
		for i := range g.Chunks {
			score[i] = float64(len(g.in[i]))
		}
	case RankSize:
		sizes, _, err := db.FileSizes(ctx, projectID)
		if err != nil {
			return nil, nil, err
		}
		for i, c := range g.Chunks {
			// File size dominates; longer chunks first within a file.
			score[i] = float64(sizes[c.Path])*1e6 + float64(c.EndLine-c.StartLine+1)
		}
	default:
		return nil, nil, fmt.Errorf("unknown ranking %q (want %s, %s, %s or %s)", opt.Rank, RankPageRank, RankRefs, RankSize, RankUniform)
	}
	return score, nil, nil
}

// sizePrior weighs a definition's rank by how much code it holds:
// 1 + log2(lines)/2, so a 64-line function counts four times a one-line
// accessor of the same centrality. Centrality says what the rest of the
// project leans on; size says where the work is done, which is what
// questions about how something is done are asked about (the same reason
// search has a code-length prior).
func sizePrior(c store.GraphChunk) float64 {
	return 1 + 0.5*math.Log2(float64(max(c.EndLine-c.StartLine+1, 1)))
}

// teleportBase is the teleport vector without focus: the random surfer
// starts at a random line of code (loc: each chunk weighs its line count,
// so one-line stubs do not rank like whole algorithms) or at a random
// definition (!loc). Declarations outside functions and types (tables,
// data) weigh one line: a surfer reads code, not data.
func teleportBase(g *Graph, loc bool) []float64 {
	base := make([]float64, len(g.Chunks))
	var total float64
	for i, c := range g.Chunks {
		base[i] = 1
		if loc && c.Kind != "file" {
			base[i] = float64(max(c.EndLine-c.StartLine+1, 1))
		}
		total += base[i]
	}
	for i := range base {
		base[i] /= total
	}
	return base
}

// focusShare is the part of the teleport mass the focus receives; the
// rest stays on the base, so the whole project keeps a say.
const focusShare = 0.8

// focusVector is the teleport vector personalised toward focus (files,
// directory prefixes, or symbols by full name or last segment): the base
// keeps 1 − focusShare of the mass and the chunks the focus names share
// the rest in proportion to their base weight (by lines, as the base
// does: a focused package's algorithms outweigh its one-line stubs as
// they do without focus). It returns the chunks the focus names (none:
// the base itself) and a warning per focus entry that names nothing.
func focusVector(g *Graph, base []float64, focus []string) ([]float64, map[int]bool, []string) {
	if len(focus) == 0 {
		return base, nil, nil
	}
	hit := map[int]bool{}
	var warnings []string
	for _, f := range focus {
		f = strings.TrimSpace(strings.TrimPrefix(f, "./"))
		if f == "" {
			continue
		}
		dir := strings.TrimSuffix(f, "/") + "/"
		found := false
		for i, c := range g.Chunks {
			if c.Path == f || strings.HasPrefix(c.Path, dir) || c.Symbol == f || c.Short == f || strings.HasSuffix(c.Symbol, "."+f) {
				hit[i], found = true, true
			}
		}
		if !found {
			warnings = append(warnings, fmt.Sprintf("focus %q matches no indexed file or symbol", f))
		}
	}
	if len(hit) == 0 {
		return base, nil, warnings
	}
	hitMass := mass(base, hit)
	p := make([]float64, len(g.Chunks))
	for i := range p {
		p[i] = (1 - focusShare) * base[i]
		if hit[i] {
			p[i] += focusShare * base[i] / hitMass
		}
	}
	return p, hit, warnings
}

// focusLift scales a focused PageRank r by how much the focus raised each
// definition above its rank in the project at large (global, the
// PageRank of the base teleport): the project's hubs (a test framework, a
// formatting package, a lock) rank high from any starting point, so
// their focused rank says little about the focus. A definition's lift is
// r/global; the focus's own definitions start with the lift the teleport
// gives them, focusShare/(their base mass) + 1 − focusShare. A definition
// whose lift reaches half of that keeps its rank; one below is scaled
// down in proportion, so a hub the focus barely moves falls behind the
// focus's own code and its close neighbours. The bar is relative, so it
// adapts to a focus that is a symbol, a file or half of the project.
func focusLift(r, global, base []float64, hit map[int]bool) {
	hitMass := mass(base, hit)
	if hitMass <= 0 {
		return
	}
	bar := (focusShare/hitMass + 1 - focusShare) / 2
	for i := range r {
		if global[i] <= 0 {
			continue
		}
		if lift := r[i] / global[i]; lift < bar {
			r[i] *= lift / bar
		}
	}
}

// mass is the share of the teleport vector base the chunks of hit hold.
func mass(base []float64, hit map[int]bool) float64 {
	var m float64
	for i := range hit {
		m += base[i]
	}
	return m
}

// layout holds what rendering needs, computed once per map.
type layout struct {
	g         *Graph
	score     []float64
	cands     []int            // candidate chunk indexes, best first
	rank      map[int]int      // candidate → its 1-based place in cands
	container map[int]int      // member → its type chunk in the same file
	members   map[int][]int    // type → its candidate members in the same file
	files     map[string]int   // path → number of top-level candidates
	top       map[string][]int // path → its top-level candidates in source order
	fileTypes map[string][]int // path → its types that have members
	sig       map[int]string
}

func newLayout(g *Graph, score []float64) *layout {
	l := &layout{g: g, score: score, container: map[int]int{}, members: map[int][]int{}, files: map[string]int{}, top: map[string][]int{}, fileTypes: map[string][]int{}, sig: map[int]string{}, rank: map[int]int{}}
	types := map[[2]string]int{}
	for i, c := range g.Chunks {
		if isType(c) {
			types[[2]string{c.Path, c.Symbol}] = i
		}
	}
	own := map[string]bool{}
	ownCode := func(p string) bool {
		v, ok := own[p]
		if !ok {
			v = ownCode(p)
			own[p] = v
		}
		return v
	}
	for _, i := range order(score) {
		c := g.Chunks[i]
		if !ownCode(c.Path) || c.Kind == "text" {
			continue
		}
		l.cands = append(l.cands, i)
		l.rank[i] = len(l.cands)
	}
	// members and top-level counts in source order (Chunks order)
	for i, c := range g.Chunks {
		if !ownCode(c.Path) || c.Kind == "text" {
			continue
		}
		if t, ok := types[[2]string{c.Path, c.Container}]; ok && isMember(c) && t != i {
			l.container[i] = t
			if len(l.members[t]) == 0 {
				l.fileTypes[c.Path] = append(l.fileTypes[c.Path], t)
			}
			l.members[t] = append(l.members[t], i)
			continue
		}
		l.files[c.Path]++
		l.top[c.Path] = append(l.top[c.Path], i)
	}
	return l
}

// loadSignatures reads the content of the needed chunks and keeps their
// declaration lines.
func (l *layout) loadSignatures(ctx context.Context, db *store.DB, need map[int]bool) error {
	ids := make([]int64, 0, len(need))
	for i := range need {
		ids = append(ids, l.g.Chunks[i].ID)
	}
	sort.Slice(ids, func(a, b int) bool { return ids[a] < ids[b] })
	rows, err := db.GraphChunks(ctx, ids, true)
	if err != nil {
		return err
	}
	for i := range need {
		c := l.g.Chunks[i]
		l.sig[i] = Signature(c, rows[c.ID].Content)
	}
	return nil
}

// files4 lays out the top n candidates per file as signatures and the
// next k by name.
func (l *layout) files4(n, k int) []MapFile {
	shown := map[int]bool{}
	for _, i := range l.cands[:n] {
		shown[i] = true
		if t, ok := l.container[i]; ok {
			shown[t] = true
		}
	}
	named := l.cands[n:min(n+k, len(l.cands))]
	fileScore := map[string]float64{}
	for _, i := range l.cands[:min(n+k, len(l.cands))] {
		p := l.g.Chunks[i].Path
		fileScore[p] = max(fileScore[p], l.score[i])
	}
	byFile := map[string][]int{}
	for i := range shown {
		p := l.g.Chunks[i].Path
		byFile[p] = append(byFile[p], i)
	}
	// names go to their shown type, else to their file
	typeNames := map[int][]MapSymbol{}
	fileNames := map[string][]MapSymbol{}
	for _, i := range named {
		c := l.g.Chunks[i]
		if c.Kind == "file" {
			continue // declaration groups have no single name; counted in More
		}
		if t, ok := l.container[i]; ok && shown[t] {
			typeNames[t] = append(typeNames[t], l.named(i))
			continue
		}
		fileNames[c.Path] = append(fileNames[c.Path], l.named(i))
		if _, ok := byFile[c.Path]; !ok {
			byFile[c.Path] = nil
		}
	}
	paths := make([]string, 0, len(byFile))
	for p := range byFile {
		paths = append(paths, p)
	}
	sort.Slice(paths, func(a, b int) bool {
		if fileScore[paths[a]] != fileScore[paths[b]] {
			return fileScore[paths[a]] > fileScore[paths[b]]
		}
		return paths[a] < paths[b]
	})
	out := make([]MapFile, 0, len(paths))
	for _, p := range paths {
		list := byFile[p]
		sort.Ints(list) // Chunks are in path and source order
		f := MapFile{Path: p, Rank: len(out) + 1, Score: fileScore[p], Named: fileNames[p]}
		for _, i := range list {
			if _, isMem := l.container[i]; isMem {
				continue
			}
			s := l.symbol(i)
			for _, m := range l.members[i] {
				if shown[m] {
					mem := l.symbol(m)
					mem.Signature = memberSignature(l.g.Chunks[m], mem.Signature)
					s.Members = append(s.Members, mem)
				} else {
					s.More = addKind(s.More, l.g.Chunks[m].Kind)
				}
			}
			s.Named = typeNames[i]
			f.Symbols = append(f.Symbols, s)
		}
		for _, i := range l.top[p] {
			if !shown[i] {
				f.More = addKind(f.More, l.g.Chunks[i].Kind)
			}
		}
		// members of types that are not shown count with the file
		for _, t := range l.fileTypes[p] {
			if shown[t] {
				continue
			}
			for _, m := range l.members[t] {
				f.More = addKind(f.More, l.g.Chunks[m].Kind)
			}
		}
		out = append(out, f)
	}
	return out
}

func (l *layout) symbol(i int) MapSymbol {
	c := l.g.Chunks[i]
	sig, ok := l.sig[i]
	if !ok {
		sig = Signature(c, "")
	}
	s := l.named(i)
	s.Signature = sig
	return s
}

// named is a definition without its signature.
func (l *layout) named(i int) MapSymbol {
	c := l.g.Chunks[i]
	return MapSymbol{Symbol: c.Symbol, Name: c.Name, Kind: c.Kind, Line: c.StartLine, Rank: l.rank[i], Score: l.score[i], short: c.Short}
}

func addKind(m map[string]int, kind string) map[string]int {
	if m == nil {
		m = map[string]int{}
	}
	m[kind]++
	return m
}

// moreText summarises left-out definitions: "… 12 more methods" when
// they are of one kind, "… 14 more" when of several (the kinds are in the
// structured result), followed by the names that fit (qualified names
// grouped by groupNames) and how many are not named: ": a, b, c (+11)".
func moreText(m map[string]int, names []string) string {
	total, kind := 0, ""
	for k, n := range m {
		total += n
		kind = k
	}
	text := fmt.Sprintf("… %d more", total)
	if len(m) == 1 {
		text += " " + plural(kind, total)
	}
	if len(names) > 0 {
		text += ": " + strings.Join(groupNames(names), ", ")
		if rest := total - len(names); rest > 0 {
			text += fmt.Sprintf(" (+%d)", rest)
		}
	}
	return text
}

func plural(kind string, n int) string {
	word := kind
	if kind == "file" {
		word = "declaration"
	}
	if n == 1 {
		return word
	}
	if strings.HasSuffix(word, "s") {
		return word + "es"
	}
	return word + "s"
}

func (m *MapResult) header() string {
	h := fmt.Sprintf("# repository map: %d of %d definitions in %d files (%d more by name), ranked by %s", m.Shown, m.TotalSymbols, m.TotalFiles, m.Named, rankWords(m.Rank, m.Edges))
	if len(m.Focus) > 0 {
		h += ", focus " + strings.Join(m.Focus, ", ")
	}
	return h + "\n"
}

func rankWords(rank string, edges int) string {
	switch rank {
	case RankRefs:
		return "incoming references"
	case RankSize:
		return "file size"
	}
	if rank == RankUniform {
		return fmt.Sprintf("PageRank (uniform teleport) over %d resolved relations", edges)
	}
	return fmt.Sprintf("PageRank over %d resolved relations", edges)
}

func (m *MapResult) render() string {
	var b strings.Builder
	b.WriteString(m.header())
	for _, f := range m.Files {
		b.WriteString(f.Path)
		if len(f.Symbols) == 0 && len(f.More) > 0 {
			// a file shown by names only: one line
			fmt.Fprintf(&b, " %s\n", moreText(f.More, symbols(f.Named)))
			continue
		}
		b.WriteString("\n")
		for _, s := range f.Symbols {
			fmt.Fprintf(&b, "  %d: %s", s.Line, s.Signature)
			if len(s.Members) == 0 && len(s.More) > 0 {
				// a type without member signatures: its summary on its line
				fmt.Fprintf(&b, " %s\n", moreText(s.More, shortNames(s.Named)))
				continue
			}
			b.WriteString("\n")
			for _, mem := range s.Members {
				fmt.Fprintf(&b, "    %d: %s\n", mem.Line, mem.Signature)
			}
			if len(s.More) > 0 {
				fmt.Fprintf(&b, "    %s\n", moreText(s.More, shortNames(s.Named)))
			}
		}
		if len(f.More) > 0 {
			fmt.Fprintf(&b, "  %s\n", moreText(f.More, symbols(f.Named)))
		}
	}
	if rest := m.TotalFiles - len(m.Files); rest > 0 && len(m.Files) > 0 {
		word := "files"
		if rest == 1 {
			word = "file"
		}
		fmt.Fprintf(&b, "… %d more %s\n", rest, word)
	}
	return b.String()
}

// shortNames are members' names as written under their type.
func shortNames(list []MapSymbol) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = s.short
		if out[i] == "" {
			out[i] = s.Symbol
		}
	}
	return out
}

// symbols are the definitions' full symbols.
func symbols(list []MapSymbol) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = s.Symbol
	}
	return out
}

// groupNames writes qualified names that share a prefix once, in brace
// form at the place of the group's first name: "conn.serve, Get,
// conn.close" becomes "conn.{serve, close}, Get". The expansion gives back
// exactly the names, whatever the language's qualifier means.
func groupNames(names []string) []string {
	prefix := func(n string) string {
		if i := strings.LastIndexByte(n, '.'); i > 0 && i < len(n)-1 {
			return n[:i]
		}
		return ""
	}
	members := map[string][]string{}
	for _, n := range names {
		if p := prefix(n); p != "" {
			members[p] = append(members[p], n[len(p)+1:])
		}
	}
	out := make([]string, 0, len(names))
	done := map[string]bool{}
	for _, n := range names {
		p := prefix(n)
		switch {
		case p == "" || len(members[p]) == 1:
			out = append(out, n)
		case !done[p]:
			done[p] = true
			out = append(out, p+".{"+strings.Join(members[p], ", ")+"}")
		}
	}
	return out
}

// maxSignature bounds a signature line in runes.
const maxSignature = 160

// Signature is a chunk's declaration line: the first line of its content
// that is not a comment, blank or decorator and names the chunk, without a
// trailing "{"; a declaration spread over lines is closed with "…)". With
// no content (or no such line) it is the kind and the chunk name.
func Signature(c store.GraphChunk, content string) string {
	short := c.Short
	if short == "" {
		short = c.Symbol
	}
	for line := range strings.SplitSeq(content, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || comment(t) || !strings.Contains(t, short) {
			continue
		}
		t = strings.TrimSpace(strings.TrimSuffix(withoutBody(t), "{"))
		if strings.HasPrefix(t, "def ") || strings.HasPrefix(t, "async def ") || strings.HasPrefix(t, "class ") {
			t = strings.TrimSuffix(t, ":") // a Python block's colon
		}
		if open, closed := strings.Count(t, "("), strings.Count(t, ")"); open > closed {
			t = strings.TrimRight(t, ", ") + "…)"
		}
		if r := []rune(t); len(r) > maxSignature {
			t = string(r[:maxSignature-1]) + "…"
		}
		return t
	}
	kind := c.Kind
	if kind == "file" {
		kind = "decl"
	}
	return kind + " " + c.Name
}

// memberSignature is a member's signature as shown under its type: the
// declaration keyword and the receiver, which the type line above already
// says, are left out ("func (h Header) Get(key string) string" becomes
// "Get(key string) string", "def get(self, key):" becomes "get(key)").
// Signatures where something else comes before the name (a return type,
// an annotation) are kept whole.
func memberSignature(c store.GraphChunk, sig string) string {
	short := c.Short
	if short == "" {
		return sig
	}
	rest := sig
	for {
		t := strings.TrimLeft(rest, " ")
		word, after, _ := strings.Cut(t, " ")
		if !declKeyword[word] {
			break
		}
		rest = after
	}
	rest = strings.TrimLeft(rest, " ")
	if strings.HasPrefix(rest, "(") { // Go receiver
		if end := strings.Index(rest, ") "); end > 0 {
			rest = strings.TrimLeft(rest[end+2:], " ")
		}
	}
	if !strings.HasPrefix(rest, short) || len(rest) == len(short) {
		return sig
	}
	if next := rest[len(short)]; next != '(' && next != '[' && next != '<' {
		return sig
	}
	rest = strings.TrimSuffix(rest, ":")
	for _, self := range []string{"(self, ", "(cls, "} {
		if strings.HasPrefix(rest[len(short):], self) {
			rest = short + "(" + rest[len(short)+len(self):]
		}
	}
	for _, self := range []string{"(self)", "(cls)"} {
		if strings.HasPrefix(rest[len(short):], self) {
			rest = short + "()" + rest[len(short)+len(self):]
		}
	}
	return rest
}

// declKeyword lists words that only say "a function or method is declared
// here" and add nothing under a type's line.
var declKeyword = map[string]bool{"func": true, "def": true, "async": true, "fn": true, "function": true, "pub": true}

// withoutBody cuts a one-line body ("f() int { return 1 }") from a
// function's declaration line: the first " {" outside brackets and
// parentheses, after a parameter list, on a line that ends with "}".
func withoutBody(t string) string {
	if !strings.HasSuffix(t, "}") {
		return t
	}
	depth := 0
	for i, r := range t {
		switch r {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case '{':
			if depth == 0 && i > 0 && t[i-1] == ' ' && strings.Contains(t[:i], ")") {
				return strings.TrimSpace(t[:i])
			}
			depth++
		case '}':
			depth--
		}
	}
	return t
}

func comment(t string) bool {
	for _, p := range []string{"//", "#", "/*", "*", "--", `"""`, "'''", "@", "<!--", ";"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}
