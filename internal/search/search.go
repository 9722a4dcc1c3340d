// Package search answers a question about one indexed project with a ranked
// list of chunks. It runs two channels over the index — keyword (FTS5 BM25
// with name > path > body column weights, one query per weighted term) and
// semantic (the query embedded with the project's embedder, scored by
// cosine against the project's vectors, which are cached in memory per
// database, project, model and generation; on a huge project a file-level
// layer picks the files whose vectors are scanned, layer.go) — and fuses
// them with a ranker:
// "seed", the reference design, or "default", the tuned design documented in
// docs/EVAL.md. A question for the callers of a function it names also reads
// the relation graph's resolved edges to that function (route.go, rank.go).
//
// It must not write to the database, index, print, parse flags or exit: it
// reads through internal/store and returns values (its only writes are the
// derived side files of snapshot.go and layer.go, through internal/store). It must not contain
// anything specific to an evaluation set (no word lists, paths or constants
// derived from their queries).
package search

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"codectx/internal/embed"
	"codectx/internal/query"
	"codectx/internal/store"
)

// Modes.
const (
	ModeHybrid   = "hybrid"
	ModeKeyword  = "keyword"
	ModeSemantic = "semantic"
)

// Rankers.
const (
	RankerDefault = "default"
	RankerSeed    = "seed"
)

// Result limits.
const (
	DefaultK = 5
	MaxK     = 30
	// SnippetRunes is the length of Hit.Snippet.
	SnippetRunes = 180
)

// ErrEmptyQuery means the query (and the extra keywords) had nothing to search for.
var ErrEmptyQuery = errors.New("empty query")

// ErrModelMismatch means the configured embedder is not the one the index
// was built with, so the stored vectors cannot be compared with the query's.
var ErrModelMismatch = errors.New("embedding model differs from the index's")

// Options describe one search.
type Options struct {
	Query string
	// K is the number of results, 1..MaxK; 0 means DefaultK.
	K int
	// Mode is hybrid (""), keyword or semantic.
	Mode string
	// Ranker is default ("") or seed.
	Ranker string
	// Keywords are extra terms (e.g. from an agent) searched like words of the query.
	Keywords []string
	// Extra asks for up to this many results past K, in the same order, for
	// callers that re-rank (feedback); the ranking itself depends only on K.
	Extra int
	// ParseOptions, when set, replace query.DefaultOptions for parsing the
	// query and the keywords (e.g. lexicon and synonyms off, for evaluation).
	ParseOptions *query.Options
	// Explain asks for every hit's Explain (default ranker only: Validate
	// rejects it with the seed ranker).
	Explain bool
}

// Hit is one ranked chunk.
type Hit struct {
	File      string  `json:"file"`
	StartLine int     `json:"start_line"`
	EndLine   int     `json:"end_line"`
	Kind      string  `json:"kind"`
	Name      string  `json:"name"`
	Score     float64 `json:"score"`
	Snippet   string  `json:"snippet"`

	// Also lists the files of duplicates of this hit that were collapsed
	// into it: the same chunk (name and content) in another file, or the
	// same file under another versioned directory (v3/ against v4/).
	Also []string `json:"also,omitempty"`

	// Explain holds the parts of Score when Options.Explain asked for them
	// (default ranker; each part rounded like Score).
	Explain *Explain `json:"explain,omitempty"`

	// Symbol is the chunk's symbol (Name without parameters).
	Symbol string `json:"-"`
	// Signals says which channels found the chunk: "keyword", "semantic".
	Signals []string `json:"-"`
}

// Result is a ranked answer.
type Result struct {
	Query    string   `json:"query"`
	Summary  string   `json:"summary"`
	Keywords []string `json:"keywords"`
	Results  []Hit    `json:"results"`
	// Confidence is the largest idf-weighted share of the query's keywords
	// that one of the first results matches (keywords the project lacks
	// count as rare ones); 0 when the keyword channel was off.
	Confidence float64 `json:"confidence"`
	// Unread lists the query's keywords that could not be searched for:
	// Chinese words for which no English is known and which the project's
	// text does not contain (only the semantic channel saw them).
	Unread []string `json:"unread,omitempty"`
	// NoConfidentMatch says that Confidence is below MinConfidence: the
	// project probably has no code for the question. Only the closest few
	// results are kept, and GrepPattern is a case-insensitive regular
	// expression of the query's rarest keywords for a text search.
	NoConfidentMatch bool   `json:"no_confident_match,omitempty"`
	GrepPattern      string `json:"grep_pattern,omitempty"`
	// Warnings explain a degraded search (e.g. semantic channel off).
	Warnings []string `json:"warnings,omitempty"`

	// Route is how the query was read: "lookup" (a question: chunks, up to
	// three per file) or "change" (a change request or bug report: one
	// entry per file, its best chunk as the evidence).
	Route string `json:"route"`

	Mode   string `json:"-"`
	Ranker string `json:"-"`
	// Signals names what the ranking used, for the summary.
	Signals []string `json:"-"`
	// Expanded are the English words added to the query (translations of
	// Chinese words, synonyms), for the summary.
	Expanded []string `json:"-"`
}

// Index is what a search reads: the database, the project row (with its
// model and generation) and the embedder for the query.
type Index struct {
	DB       *store.DB
	Project  *store.Project
	Embedder embed.Embedder
	// SideFileOnly makes every search score the quantised side file, as a
	// one-shot process's first search does (to measure that path over a
	// whole evaluation set in one process).
	SideFileOnly bool
}

// Validate normalises opt: trims the query, fills defaults and rejects bad
// values with an error meant for the user.
func (o *Options) Validate() error {
	o.Query = strings.TrimSpace(o.Query)
	var kws []string
	for _, k := range o.Keywords {
		if k = strings.TrimSpace(k); k != "" {
			kws = append(kws, k)
		}
	}
	o.Keywords = kws
	if o.Query == "" && len(o.Keywords) == 0 {
		return ErrEmptyQuery
	}
	if o.K == 0 {
		o.K = DefaultK
	}
	if o.K < 1 || o.K > MaxK {
		return fmt.Errorf("k must be between 1 and %d, got %d", MaxK, o.K)
	}
	o.Extra = max(0, min(o.Extra, MaxK-o.K))
	switch o.Mode {
	case "":
		o.Mode = ModeHybrid
	case ModeHybrid, ModeKeyword, ModeSemantic:
	default:
		return fmt.Errorf("unknown mode %q (valid: hybrid, keyword, semantic)", o.Mode)
	}
	switch o.Ranker {
	case "":
		o.Ranker = RankerDefault
	case RankerDefault, RankerSeed:
	default:
		return fmt.Errorf("unknown ranker %q (valid: default, seed)", o.Ranker)
	}
	if o.Explain && o.Ranker != RankerDefault {
		return fmt.Errorf("explain needs the default ranker, got %q", o.Ranker)
	}
	return nil
}

// Search runs one query against ix.
func Search(ctx context.Context, ix Index, opt Options) (*Result, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	if ix.DB == nil || ix.Project == nil {
		return nil, errors.New("search: no index")
	}
	res := &Result{Query: opt.Query, Mode: opt.Mode, Ranker: opt.Ranker, Keywords: []string{}, Results: []Hit{}}
	popt := query.DefaultOptions
	if opt.ParseOptions != nil {
		popt = *opt.ParseOptions
	}
	q := buildQuery(opt.Query, opt.Keywords, popt)
	rt := routeQuery(q.raw, q.groups)
	if rt.callee != "" && rt.kind != RouteChange {
		q.dropCallerWords()
	}
	res.Keywords = append(res.Keywords, q.keywords...)
	res.Expanded = q.expanded

	snap, err := loadSnapshot(ctx, ix.DB, ix.Project)
	if err != nil {
		return nil, err
	}

	useSem := opt.Mode != ModeKeyword
	if useSem {
		if ix.Embedder == nil {
			return nil, errors.New("search: no embedder configured")
		}
		if mid := ix.Embedder.ModelID(); mid != ix.Project.Model {
			msg := fmt.Sprintf("the index was embedded with %q but the configured embedder is %q (configure %q again, or index again to re-embed)",
				ix.Project.Model, mid, ix.Project.Model)
			if opt.Mode == ModeSemantic {
				return nil, fmt.Errorf("%w: %s", ErrModelMismatch, msg)
			}
			res.Warnings = append(res.Warnings, "semantic search is off: "+msg)
			useSem = false
		}
	}
	// The channels run side by side (on a second core when there is one).
	var sem []semHit
	var pruned *prunedScan
	var semErr error
	semDone := make(chan struct{})
	if useSem {
		go func() {
			defer close(semDone)
			sem, pruned, semErr = semanticChannel(ctx, ix, snap, q)
		}()
	} else {
		close(semDone)
	}
	var kw *keywordResult
	var kwErr error
	if opt.Mode != ModeSemantic {
		// Only the seed ranker looks at the column a term matched in.
		kw, kwErr = keywordChannel(ctx, ix.DB, ix.Project.ID, snap, q, opt.Ranker == RankerSeed)
	}
	<-semDone
	if useSem && semErr != nil {
		if opt.Mode == ModeSemantic || ctx.Err() != nil {
			return nil, semErr
		}
		res.Warnings = append(res.Warnings, "semantic search is off: "+semErr.Error())
		useSem, sem = false, nil
	}
	if kwErr != nil {
		return nil, kwErr
	}
	if useSem && pruned != nil {
		// The file layer pruned the semantic scan: the keyword channel's
		// best files are scanned too, so pruning cannot lose them.
		if sem, err = addKeywordFiles(ctx, ix, snap, pruned, kw, sem); err != nil {
			return nil, err
		}
	}

	res.Route = rt.kind
	k := opt.K + opt.Extra
	// Twice as many, so that duplicates collapsed below still leave k.
	in := rankInput{snap: snap, k: 2 * k, sem: sem, kw: kw, semPool: semPool(opt.K), asksTests: q.asksTests(), asksConstruction: q.asksConstruction(), route: rt, groups: q.groups}
	if rt.callee != "" && rt.kind != RouteChange && opt.Ranker != RankerSeed {
		in.callers = callerHits(ctx, ix.DB, snap, rt.callee, defaultParams)
	}
	if opt.Explain {
		in.explain = explainer{}
	}
	var ranked []scored
	if opt.Ranker == RankerSeed {
		ranked = rankSeed(in)
	} else {
		ranked = rankDefault(ctx, ix.DB, in)
	}
	res.Signals = signalsUsed(opt.Ranker, kw != nil, useSem)
	if in.callers.found {
		res.Signals = append(res.Signals, "the callers of "+rt.callee+" from the relation graph")
	}
	if useSem && pruned != nil {
		res.Signals = append(res.Signals, fmt.Sprintf("a file-level layer (semantic scan of the best %d of %d file pieces, %d of %d vectors)",
			min(layerPieces, pruned.pieces), pruned.pieces, pruned.rows, pruned.quant.Len()))
	}

	ids := make([]int64, len(ranked))
	for i, r := range ranked {
		ids[i] = snap.chunks[r.idx].ID
	}
	contents, err := ix.DB.ChunkContents(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, r := range ranked {
		c := &snap.chunks[r.idx]
		h := Hit{
			File: c.Path, StartLine: c.StartLine, EndLine: c.EndLine, Kind: c.Kind, Name: c.Name,
			Score: round3(r.score), Snippet: Snippet(contents[c.ID], SnippetRunes), Symbol: c.Symbol,
		}
		if r.kwHit {
			h.Signals = append(h.Signals, "keyword")
		}
		if r.semHit {
			h.Signals = append(h.Signals, "semantic")
		}
		if x := in.explain[r.idx]; x != nil {
			h.Explain = x.rounded()
		}
		res.Results = append(res.Results, h)
	}
	res.Results = collapseDuplicates(res.Results, contents, ranked, snap, rt.kind == RouteChange)
	if len(res.Results) > k {
		res.Results = res.Results[:k]
	}
	if opt.Ranker == RankerDefault {
		if c, ok := confidence(kw, ranked, len(snap.chunks)); ok {
			res.Confidence = round3(c)
			if c < MinConfidence || len(res.Results) == 0 {
				res.NoConfidentMatch = true
				res.GrepPattern = grepPattern(kw, q)
				if len(res.Results) > weakResults {
					res.Results = res.Results[:weakResults]
				}
			}
		}
	}
	res.Unread = unreadKeywords(kw, q.groups)
	res.Summary = Summarize(res)
	return res, nil
}

// semPool is how many semantic neighbours a search takes: max(2K, 10).
func semPool(k int) int { return max(2*k, 10) }

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }

// Snippet is content with runs of white space collapsed to one space, cut
// to n runes (an ellipsis marks a cut).
func Snippet(content string, n int) string {
	if n <= 0 {
		return ""
	}
	// Only the start is shown: bound the work for huge chunks.
	cut := false
	if lim := 16 * n; len(content) > lim {
		end := lim
		for end > 0 && !utf8.RuneStart(content[end]) {
			end--
		}
		content, cut = content[:end], true
	}
	r := []rune(strings.Join(strings.Fields(content), " "))
	if len(r) > n || cut {
		return string(r[:min(len(r), n-1)]) + "…"
	}
	return string(r)
}

// parsed is the query as the channels use it.
type parsed struct {
	raw      string
	keywords []string // display keywords
	groups   []termGroup
	semText  string   // text embedded for the semantic channel
	expanded []string // English expansions (translations, synonyms), for the summary
}

// termGroup is one keyword of the query with the terms that stand for it
// (the word itself, inflections, translations, synonyms, sub-words).
type termGroup struct {
	keyword string
	terms   []query.Term
}

// buildQuery parses the query and the extra keywords into term groups: one
// group per display keyword, holding the terms that ParseWith(…, popt)
// derives from it.
func buildQuery(raw string, extra []string, popt query.Options) parsed {
	p := parsed{raw: raw}
	seen := map[string]bool{}
	addGroups := func(text string) {
		q := query.ParseWith(text, popt)
		for _, kw := range q.Keywords {
			key := strings.ToLower(kw)
			if seen[key] {
				continue
			}
			seen[key] = true
			p.keywords = append(p.keywords, kw)
			g := termGroup{keyword: kw, terms: query.ParseWith(kw, popt).Terms}
			if len(g.terms) > 0 {
				p.groups = append(p.groups, g)
			}
		}
	}
	addGroups(raw)
	for _, k := range extra {
		addGroups(k)
	}
	var sb strings.Builder
	sb.WriteString(raw)
	for _, k := range extra {
		sb.WriteString(" ")
		sb.WriteString(k)
	}
	for _, t := range append([]string{raw}, extra...) {
		for _, e := range query.ParseWith(t, popt).Expanded {
			sb.WriteString(" ")
			sb.WriteString(e)
			p.expanded = append(p.expanded, e)
		}
	}
	p.semText = strings.TrimSpace(sb.String())
	return p
}

// callerWords ask for callers ("who calls X", "X 在哪里被调用"): in such a
// question they say what is asked, not what to look for.
var callerWords = map[string]bool{"call": true, "calls": true, "called": true, "calling": true, "caller": true, "callers": true,
	"invoke": true, "invokes": true, "invoked": true, "use": true, "uses": true, "used": true, "usage": true, "usages": true,
	"调用": true, "用到": true, "使用": true, "引用": true, "调用方": true, "调用者": true}

// dropCallerWords removes the keyword groups of callerWords.
func (p *parsed) dropCallerWords() {
	groups := p.groups[:0]
	for _, g := range p.groups {
		if !callerWords[strings.ToLower(g.keyword)] {
			groups = append(groups, g)
		}
	}
	p.groups = groups
	keywords := p.keywords[:0]
	for _, k := range p.keywords {
		if !callerWords[strings.ToLower(k)] {
			keywords = append(keywords, k)
		}
	}
	p.keywords = keywords
}

// testWords mark a query about tests (English and Chinese), which turns
// the test-file demotion off.
var testWords = map[string]bool{"test": true, "tests": true, "testing": true, "unittest": true, "spec": true, "specs": true, "测试": true, "单元测试": true, "单测": true}

// constructionWords mark a query about constructors or initialisation
// (English and Chinese), which turns the constructor demotion off.
var constructionWords = map[string]bool{"constructor": true, "constructors": true, "construct": true, "constructed": true, "construction": true, "ctor": true, "init": true, "initialize": true, "initialise": true, "initializer": true, "initialization": true, "initialisation": true, "instantiate": true, "instantiation": true, "构造": true, "构造函数": true, "构造器": true, "初始化": true, "实例化": true}

// asksConstruction reports whether a word of the query is about
// constructors or initialisation.
func (p parsed) asksConstruction() bool { return p.mentions(constructionWords) }

// asksTests reports whether a word of the query is about tests.
func (p parsed) asksTests() bool { return p.mentions(testWords) }

// mentions reports whether a term of the query (a word as typed, an
// inflection or a translation) is one of words.
func (p parsed) mentions(words map[string]bool) bool {
	for _, g := range p.groups {
		for _, t := range g.terms {
			if words[t.Text] {
				return true
			}
		}
	}
	return false
}

// signalsUsed names what a ranker combined, for the summary.
func signalsUsed(ranker string, kw, sem bool) []string {
	var s []string
	if kw {
		s = append(s, "BM25 (name > path > body)")
	}
	if sem {
		s = append(s, "semantic similarity")
	}
	if ranker == RankerSeed {
		return append(s, "the seed fusion's method/function and type boosts")
	}
	if kw {
		s = append(s, "term coverage")
	}
	return append(s, "kind/code-length/file priors", "a test/vendored/stub-file demotion")
}
