package assemble

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Packing spends the budget on distinct places: the best-ranked chunks are
// shown whole until fullShare of the budget is spent, lower-ranked ones are
// elided to their signature and first doc line with a pointer to the rest,
// and the answer ends with a manifest of what was elided or dropped.

// fullShare is the share of the budget whole chunks may take before the
// lower-ranked ones are elided (the first chunk is always whole if it fits).
const fullShare = 0.45

// manifestListed bounds the dropped places the manifest names one by one.
const manifestListed = 12

const minUseful = 24 // tokens below which nothing more is tried

// Place is a chunk the context elided or dropped, and where to read it.
type Place struct {
	Name      string `json:"name"`
	File      string `json:"file"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
	// State is "elided" (signature shown) or "dropped" (not shown).
	State string `json:"state"`
}

// Place states.
const (
	PlaceElided  = "elided"
	PlaceDropped = "dropped"
)

// fenceLang maps stored language names to Markdown fence tags.
func fenceLang(l string) string {
	if l == "text" {
		return ""
	}
	return l
}

func fenceFor(content string) string {
	longest, run := 0, 0
	for _, r := range content {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

func renderHeader(r *ContextResult, chunks, files int) string {
	return fmt.Sprintf("# Context for: %s\n\n%d chunks from %d files · intent %s · depth %d · budget %d tokens\n",
		oneLine(r.Query), chunks, files, r.Intent.Kind, r.Depth, r.Budget)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func renderFileHeading(p string) string { return "\n## " + p + "\n" }

func renderChunk(c *ContextChunk) string {
	var b strings.Builder
	kind := c.Kind
	if kind == "type" {
		kind = "type header"
	}
	if c.SentIn > 0 {
		fmt.Fprintf(&b, "\n### %s — %s, lines %d-%d — already sent (call %d)\n", c.Name, kind, c.StartLine, c.EndLine, c.SentIn)
		return b.String()
	}
	fmt.Fprintf(&b, "\n### %s — %s, lines %d-%d\n%s\n", c.Name, kind, c.StartLine, c.EndLine, c.Reason)
	f := fenceFor(c.Content)
	b.WriteString(f)
	b.WriteString(fenceLang(c.Lang))
	b.WriteByte('\n')
	b.WriteString(c.Content)
	if c.Content != "" && !strings.HasSuffix(c.Content, "\n") {
		b.WriteByte('\n')
	}
	b.WriteString(f)
	b.WriteByte('\n')
	if c.Omitted != "" {
		b.WriteString(c.Omitted)
		b.WriteByte('\n')
	}
	return b.String()
}

// renderManifest lists the elided and dropped places and where to read
// them, naming at most listed dropped ones (the rest are counted).
func renderManifest(places []Place, listed int) string {
	if len(places) == 0 {
		return ""
	}
	var dropped []string
	nDropped, nElided := 0, 0
	for _, p := range places {
		if p.State == PlaceElided {
			nElided++
			continue
		}
		item := fmt.Sprintf("%s %s:%d-%d", p.Name, p.File, p.StartLine, p.EndLine)
		nDropped++
		if len(dropped) < listed {
			dropped = append(dropped, item)
		}
	}
	var b strings.Builder
	b.WriteString("\n## Not shown in full (read_file path lines a-b)\n")
	if nElided > 0 {
		// Each elided chunk says in place where to read it.
		fmt.Fprintf(&b, "elided above: %d chunks (signature shown; each marked with the lines to read)\n", nElided)
	}
	if nDropped > 0 {
		more := ""
		switch {
		case len(dropped) == 0:
			more = fmt.Sprintf("%d places", nDropped)
		case nDropped > len(dropped):
			more = fmt.Sprintf(" · and %d more", nDropped-len(dropped))
		}
		fmt.Fprintf(&b, "dropped: %s%s\n", strings.Join(dropped, " · "), more)
	}
	return b.String()
}

// render writes the selected chunks grouped per file (files by their best
// score, chunks in source order), then the manifest, and fills res.Files.
func render(res *ContextResult, sel []*ContextChunk, places []Place, listed int) string {
	byFile := map[string][]*ContextChunk{}
	bestOf := map[string]float64{}
	firstSeen := map[string]int{}
	var files []string
	for i, c := range sel {
		if _, ok := byFile[c.File]; !ok {
			files = append(files, c.File)
			firstSeen[c.File] = i
		}
		byFile[c.File] = append(byFile[c.File], c)
		bestOf[c.File] = max(bestOf[c.File], c.Score)
	}
	sortFiles(files, bestOf, firstSeen)
	var b strings.Builder
	b.WriteString(renderHeader(res, len(sel), len(files)))
	res.Files = res.Files[:0]
	for _, f := range files {
		list := byFile[f]
		sortChunks(list)
		b.WriteString(renderFileHeading(f))
		cf := ContextFile{Path: f}
		for _, c := range list {
			b.WriteString(renderChunk(c))
			cf.Chunks = append(cf.Chunks, *c)
		}
		res.Files = append(res.Files, cf)
	}
	b.WriteString(renderManifest(places, listed))
	return b.String()
}

// signatureLine is the index of the first line of a chunk that is not a
// comment, decorator or blank line: where the declaration starts.
func signatureLine(lines []string, short string) int {
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if short != "" && strings.Contains(l, short) && !isCommentLine(t) {
			return i
		}
	}
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if t != "" && !isCommentLine(t) && !strings.HasPrefix(t, "@") && !strings.HasPrefix(t, "#[") {
			return i
		}
	}
	return 0
}

// docLine is the index of the first doc-comment line of a chunk: a
// non-empty comment line before the signature, or a docstring line right
// after it (Python); -1 when there is none.
func docLine(lines []string, sig int) int {
	for i := 0; i < sig; i++ {
		if t := strings.TrimSpace(lines[i]); t != "" && isCommentLine(t) && strings.Trim(t, "/*#-\"' ") != "" {
			return i
		}
	}
	if sig+1 < len(lines) {
		if t := strings.TrimSpace(lines[sig+1]); strings.HasPrefix(t, `"""`) || strings.HasPrefix(t, `'''`) {
			return sig + 1
		}
	}
	return -1
}

func isCommentLine(t string) bool {
	for _, p := range []string{"//", "/*", "*", "#", "--", `"""`, "'''"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// toContextChunk turns a candidate into an output chunk with its whole content.
func toContextChunk(x *cand) ContextChunk {
	c := x.c
	return ContextChunk{
		ID: c.ID, File: c.Path, Lang: c.Lang, Kind: c.Kind, Name: c.Name, Symbol: c.Symbol,
		StartLine: c.StartLine, EndLine: c.EndLine, Score: round3(x.score), Relevance: round3(x.rel), Hops: x.hops, Reason: x.reason,
		Content: strings.TrimRight(c.Content, "\n"), short: c.Short, full: strings.TrimRight(c.Content, "\n"),
	}
}

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }

// elisionMarker says how many lines of a chunk are not shown and where to
// read the whole chunk.
func elisionMarker(c ContextChunk, shown int) string {
	n := max(c.EndLine-c.StartLine+1-shown, 1)
	return fmt.Sprintf("…%d lines elided — read_file %s lines %d-%d", n, c.File, c.StartLine, c.EndLine)
}

// shorten returns c cut to the given line indexes (in source order) with
// the marker that says how to read the rest.
func shorten(c ContextChunk, lines []string, keep []int) ContextChunk {
	var out []string
	for _, i := range keep {
		out = append(out, lines[i])
	}
	c.Content = strings.Join(out, "\n")
	c.Shortened = true
	c.Omitted = elisionMarker(c, len(keep))
	return c
}

// elide cuts c to its first doc line and its signature line.
func elide(c ContextChunk) ContextChunk {
	lines := strings.Split(c.full, "\n")
	sig := signatureLine(lines, c.short)
	keep := []int{sig}
	if d := docLine(lines, sig); d >= 0 {
		if d < sig {
			keep = []int{d, sig}
		} else {
			keep = []int{sig, d}
		}
	}
	return shorten(c, lines, keep)
}

// packer is the state of one packing: what is selected, what is left.
type packer struct {
	res       *ContextResult
	remaining int
	fullLeft  int // tokens whole chunks may still take
	sel       []*ContextChunk
	files     map[string]bool
	places    []Place // elided and dropped, in the order placed
	list      []*cand
}

// pack fills the budget by score: whole chunks while fullShare of the
// budget lasts, then elided ones (signature, doc line, pointer), a first
// chunk too big for the budget shortened to its signature and first lines.
// It then renders and counts the real output with the manifest, dropping
// the lowest-scored chunk until it fits, so the budget is never exceeded.
func pack(res *ContextResult, list []*cand, sent map[int64]int) error {
	ht, err := CountTokens(renderHeader(res, 9999, 9999))
	if err != nil {
		return err
	}
	// The manifest's heading and dropped count are reserved up front; each
	// elided chunk pays for its own manifest entry.
	mt, err := CountTokens(renderManifest([]Place{{Name: "x", File: "x", State: PlaceElided}, {State: PlaceDropped}}, 0))
	if err != nil {
		return err
	}
	p := &packer{res: res, remaining: res.Budget - ht - mt, files: map[string]bool{}, list: list}
	p.fullLeft = int(fullShare * float64(p.remaining))
	// A change request spends what whole chunks leave on more files: a
	// chunk that is not taken whole and whose file is already inside waits
	// until every other file's best chunk has had its place (the change
	// may need any of them; the manifest points to the rest).
	spread := res.Intent.Kind == IntentChange
	var later []ContextChunk
	for _, x := range list {
		c := toContextChunk(x)
		if n := sent[c.ID]; n > 0 {
			c.SentIn, c.Content = n, ""
		}
		deferred, err := p.add(c, spread)
		if err != nil {
			return err
		}
		if deferred {
			later = append(later, c)
		}
	}
	for _, c := range later {
		if _, err := p.add(c, false); err != nil {
			return err
		}
	}
	if len(p.sel) == 0 && len(list) > 0 {
		return tooSmall(res, list)
	}
	return p.fit()
}

// add places one chunk whole, elided, shortened (the first one only) or
// in the manifest as dropped. With spread, a chunk that cannot be taken
// whole and whose file is already inside is left for later instead
// (deferred).
func (p *packer) add(c ContextChunk, spread bool) (deferred bool, err error) {
	if p.remaining < minUseful {
		p.drop(c)
		return false, nil
	}
	fileCost := 0
	if !p.files[c.File] {
		if fileCost, err = CountTokens(renderFileHeading(c.File)); err != nil {
			return false, err
		}
	}
	// Counted only up to what could still be taken whole (what is left,
	// and for a chunk not sent before the whole-chunk share): a bigger
	// chunk is not taken whole whatever its exact count, and counting
	// stops past the limit (countTokensMax).
	limit := p.remaining
	if c.SentIn == 0 {
		limit = max(min(limit, p.fullLeft), 0)
	}
	full, err := countTokensMax(renderChunk(&c), limit)
	if err != nil {
		return false, err
	}
	if c.SentIn > 0 {
		// Already sent in this session: one line, never the body again.
		if fileCost+full+1 <= p.remaining {
			p.take(&c, fileCost+full+1)
		} else {
			p.drop(c)
		}
		return false, nil
	}
	if fileCost+full+1 <= p.remaining && full <= p.fullLeft {
		p.take(&c, fileCost+full+1)
		p.fullLeft -= full
		return false, nil
	}
	if spread && p.files[c.File] {
		return true, nil
	}
	var short ContextChunk
	if len(p.sel) == 0 {
		if short, err = p.shortenToFit(c, fileCost); err != nil {
			return false, err
		}
	} else {
		short = elide(c)
	}
	if !short.Shortened {
		p.drop(c)
		return false, nil
	}
	cost, err := countTokensMax(renderChunk(&short), p.remaining)
	if err != nil {
		return false, err
	}
	if fileCost+cost+1 > p.remaining {
		p.drop(c)
		return false, nil
	}
	p.take(&short, fileCost+cost+1)
	if len(p.sel) == 1 {
		p.fullLeft -= cost
	}
	p.places = append(p.places, Place{Name: c.Symbol, File: c.File, StartLine: c.StartLine, EndLine: c.EndLine, State: PlaceElided})
	return false, nil
}

func (p *packer) take(c *ContextChunk, cost int) {
	p.sel = append(p.sel, c)
	p.files[c.File] = true
	p.remaining -= cost
}

func (p *packer) drop(c ContextChunk) {
	p.places = append(p.places, Place{Name: c.Symbol, File: c.File, StartLine: c.StartLine, EndLine: c.EndLine, State: PlaceDropped})
}

// shortenToFit cuts the best chunk, too big for the budget, to its
// signature and as many following lines as fit; Shortened is false when
// not even the signature fits.
func (p *packer) shortenToFit(c ContextChunk, fileCost int) (ContextChunk, error) {
	lines := strings.Split(c.full, "\n")
	sig := signatureLine(lines, c.short)
	probe := shorten(c, lines, nil)
	probe.Content = ""
	overhead, err := CountTokens(renderChunk(&probe))
	if err != nil {
		return c, err
	}
	// Whole-chunk share only: the rest of the budget goes to other places.
	left := min(p.remaining, p.fullLeft) - fileCost - overhead - 2
	var keep []int
	for i := sig; i < len(lines) && len(keep) < len(lines)-sig-1; i++ {
		t, err := countTokensMax(lines[i]+"\n", max(left, 0))
		if err != nil {
			return c, err
		}
		if t > left {
			break
		}
		left -= t
		keep = append(keep, i)
	}
	if len(keep) == 0 {
		return c, nil
	}
	return shorten(c, lines, keep), nil
}

// fit renders the selection with its manifest until the output fits the
// budget: first the manifest names fewer dropped places, then the
// lowest-scored chunk is dropped (into the manifest), and so on.
func (p *packer) fit() error {
	res := p.res
	listed := manifestListed
	for {
		res.Dropped = 0
		res.Places = append(res.Places[:0], p.places...)
		for _, pl := range p.places {
			if pl.State == PlaceDropped {
				res.Dropped++
			}
		}
		out := render(res, p.sel, p.places, listed)
		n, err := countTokensMax(out, res.Budget)
		if err != nil {
			return err
		}
		switch {
		case n <= res.Budget:
			res.Markdown, res.Tokens = out, n
			return nil
		case listed > 0 && res.Dropped > 0:
			listed /= 3
			continue
		case len(p.sel) <= 1:
			return tooSmall(res, p.list)
		}
		// Drop the last chunk placed (sel is in score order, a change
		// request's deferred chunks last).
		last := p.sel[len(p.sel)-1]
		p.sel = p.sel[:len(p.sel)-1]
		for i := range p.places {
			if p.places[i].File == last.File && p.places[i].StartLine == last.StartLine && p.places[i].Name == last.Symbol {
				p.places = append(p.places[:i], p.places[i+1:]...)
				break
			}
		}
		p.drop(*last)
	}
}

// tooSmall answers a budget that cannot hold any chunk: never an empty
// context, but the best candidate's signature line, where to read it, and
// that the budget is too small.
func tooSmall(res *ContextResult, list []*cand) error {
	best := list[0]
	c := toContextChunk(best)
	lines := strings.Split(c.full, "\n")
	sig := strings.TrimSpace(lines[signatureLine(lines, c.short)])
	msg := fmt.Sprintf("budget %d tokens is too small for any chunk; the best match's signature only", res.Budget)
	res.TooSmall = true
	res.Dropped = len(list)
	res.Files = []ContextFile{}
	res.Markdown = fmt.Sprintf("%s: %s:%d-%d %s\n", msg, c.File, c.StartLine, c.EndLine, sig)
	n, err := CountTokens(res.Markdown)
	if err != nil {
		return err
	}
	res.Tokens = n
	return nil
}

// sortFiles orders files by their best chunk's score, then first appearance.
func sortFiles(files []string, bestOf map[string]float64, firstSeen map[string]int) {
	sort.SliceStable(files, func(i, j int) bool {
		if bestOf[files[i]] != bestOf[files[j]] {
			return bestOf[files[i]] > bestOf[files[j]]
		}
		return firstSeen[files[i]] < firstSeen[files[j]]
	})
}

// sortChunks orders one file's chunks in source order, an enclosing type
// before its members.
func sortChunks(list []*ContextChunk) {
	sort.SliceStable(list, func(i, j int) bool {
		a, c := list[i], list[j]
		if a.StartLine != c.StartLine {
			return a.StartLine < c.StartLine
		}
		if a.EndLine != c.EndLine {
			return a.EndLine > c.EndLine
		}
		return a.ID < c.ID
	})
}
