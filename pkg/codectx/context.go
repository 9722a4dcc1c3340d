package codectx

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"codectx/internal/assemble"
	"codectx/internal/eval"
	"codectx/internal/history"
	"codectx/internal/query"
	"codectx/internal/search"
	"codectx/internal/store"
)

// Intent is what a question asks for, as Context reads it.
type Intent struct {
	// Kind is implementation, usage, location or impact.
	Kind string `json:"kind"`
	// Depth is the hops of expansion the kind calls for.
	Depth int `json:"depth"`
	// FavourCallers puts callers before callees (usage questions).
	FavourCallers bool `json:"favour_callers,omitempty"`
	// MatchedPattern is the cue that decided ("" for the default).
	MatchedPattern string `json:"matched,omitempty"`
}

func newIntent(i assemble.Intent) Intent { return Intent(i) }

// ContextChunk is one chunk in a context.
type ContextChunk struct {
	ID        int64   `json:"id"` // the chunk's id in the index
	File      string  `json:"file"`
	Lang      string  `json:"lang"`
	Kind      string  `json:"kind"`
	Name      string  `json:"name"`
	Symbol    string  `json:"symbol"`
	StartLine int     `json:"start_line"`
	EndLine   int     `json:"end_line"`
	Score     float64 `json:"score"`
	// Relevance is the similarity to the query a neighbour was admitted
	// with (0 for seeds).
	Relevance float64 `json:"relevance,omitempty"`
	Hops      int     `json:"hops"`   // relations followed from a seed
	Reason    string  `json:"reason"` // why the chunk is there
	// Content is the text shown: the whole chunk, or its signature and first
	// lines when Shortened.
	Content   string `json:"content"`
	Shortened bool   `json:"shortened,omitempty"`
	// SentIn is the earlier call of the Session that sent this chunk in
	// full (0: not sent before); its Content is then empty.
	SentIn int `json:"sent_in,omitempty"`
	// Omitted is the marker line of a shortened chunk (where to read the rest).
	Omitted string `json:"omitted,omitempty"`
}

// ContextFile groups the chunks of one file in source order.
type ContextFile struct {
	Path   string         `json:"path"`
	Chunks []ContextChunk `json:"chunks"`
}

// Place is a candidate chunk a context elided to its signature or dropped,
// and where to read it.
type Place struct {
	Name      string `json:"name"`
	File      string `json:"file"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
	State     string `json:"state"` // PlaceElided or PlaceDropped
}

// ContextResult is an assembled context: Text() is the Markdown.
type ContextResult struct {
	Query  string        `json:"query"`
	Intent Intent        `json:"intent"`
	Depth  int           `json:"depth"`  // hops of expansion used
	Budget int           `json:"budget"` // tokens the Markdown may use
	Tokens int           `json:"tokens"` // tokens of Markdown, never more than Budget
	Files  []ContextFile `json:"files"`
	// Candidates is how many chunks were considered (seeds and admitted
	// neighbours); Dropped how many of them did not fit the budget.
	Candidates int      `json:"candidates"`
	Dropped    int      `json:"dropped"`
	Warnings   []string `json:"warnings,omitempty"`
	// RewriteFallback is the warning of Warnings saying that Rewrite was
	// asked for but the context was built offline ("" otherwise).
	RewriteFallback string `json:"-"`
	// TooSmall is set when the budget could not hold any chunk: Markdown
	// then holds only the best seed's signature and says so, and may
	// exceed the budget by that one line.
	TooSmall bool `json:"too_small,omitempty"`
	// Places are the candidates elided to their signature or dropped, in
	// score order (for a change request, the chunks of files already
	// inside after the other files' best): the manifest at the end of
	// Markdown.
	Places   []Place `json:"places,omitempty"`
	Markdown string  `json:"markdown"`
}

func newContextResult(r *assemble.ContextResult) *ContextResult {
	return &ContextResult{Query: r.Query, Intent: newIntent(r.Intent), Depth: r.Depth, Budget: r.Budget, Tokens: r.Tokens,
		Candidates: r.Candidates, Dropped: r.Dropped, Warnings: r.Warnings, RewriteFallback: rewriteFallback(r.Warnings),
		TooSmall: r.TooSmall, Markdown: r.Markdown,
		Places: convertSlice(r.Places, func(p assemble.Place) Place { return Place(p) }),
		Files: convertSlice(r.Files, func(f assemble.ContextFile) ContextFile {
			return ContextFile{Path: f.Path, Chunks: convertSlice(f.Chunks, func(c assemble.ContextChunk) ContextChunk {
				return ContextChunk{ID: c.ID, File: c.File, Lang: c.Lang, Kind: c.Kind, Name: c.Name, Symbol: c.Symbol,
					StartLine: c.StartLine, EndLine: c.EndLine, Score: c.Score, Relevance: c.Relevance, Hops: c.Hops,
					Reason: c.Reason, Content: c.Content, Shortened: c.Shortened, SentIn: c.SentIn, Omitted: c.Omitted}
			})}
		})}
}

// Text is the context rendered as Markdown for a model.
func (r *ContextResult) Text() string { return r.Markdown }

// Chunks lists the chunks of every file, in rendering order.
func (r *ContextResult) Chunks() []ContextChunk {
	var out []ContextChunk
	for _, f := range r.Files {
		out = append(out, f.Chunks...)
	}
	return out
}

// Context defaults.
const (
	// DefaultContextBudget is the token budget when none is given.
	DefaultContextBudget = 8000
	// DefaultContextSeeds is how many search results seed a context
	// (chosen from docs/EVAL.md, "Repository-level context").
	DefaultContextSeeds = 16
)

// Place states of ContextResult.Places.
const (
	PlaceElided  = "elided"
	PlaceDropped = "dropped"
)

// CountTokens counts s in the tokenizer budgets are measured in
// (cl100k_base, tables compiled in).
func CountTokens(s string) (int, error) { return assemble.CountTokens(s) }

// ClassifyQuery returns the intent Context would read from a question.
func ClassifyQuery(q string) Intent { return newIntent(assemble.Classify(q)) }

// CheckContextArgs validates a context's budget, depth and seed count as
// given by a caller (the CLI's flags, the shell, the MCP tool's arguments:
// one function, the same words everywhere). A bad value is an ErrBadOption.
func CheckContextArgs(budget int, depth string, seeds int) error {
	if budget < 1 {
		return badInput(fmt.Errorf("budget must be positive, got %d", budget))
	}
	if _, err := assemble.ParseDepth(depth); err != nil {
		return badInput(err)
	}
	if seeds < 1 || seeds > MaxSearchK {
		return badInput(fmt.Errorf("seeds must be between 1 and %d, got %d", MaxSearchK, seeds))
	}
	return nil
}

// Session remembers what the contexts of one conversation (an MCP session,
// a shell) already sent in full, so later answers list those chunks as
// "already sent (call N)" instead of repeating them. The zero value is
// ready to use; it is safe for concurrent use.
type Session struct {
	mu    sync.Mutex
	calls int
	sent  map[int64]int // chunk id → call that sent it in full
}

// Reset forgets everything sent: the next context sends chunks again.
func (s *Session) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls, s.sent = 0, nil
}

// Calls is the number of contexts answered in the session since the last
// Reset.
func (s *Session) Calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls
}

// CopyFrom makes s remember exactly what o remembers.
func (s *Session) CopyFrom(o *Session) {
	snap, calls := o.snapshot(), o.Calls()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sent, s.calls = snap, calls
}

// snapshot copies what was sent before this call.
func (s *Session) snapshot() map[int64]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[int64]int, len(s.sent))
	for k, v := range s.sent {
		out[k] = v
	}
	return out
}

// record notes the chunks a context sent in full (whole, not elided).
func (s *Session) record(r *assemble.ContextResult) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	if s.sent == nil {
		s.sent = map[int64]int{}
	}
	for _, c := range r.Chunks() {
		if !c.Shortened && c.SentIn == 0 {
			if _, ok := s.sent[c.ID]; !ok {
				s.sent[c.ID] = s.calls
			}
		}
	}
}

// ContextOptions configure Context.
type ContextOptions struct {
	Query string
	// Budget is the most cl100k_base tokens the Markdown may use; 0 means 8000.
	Budget int
	// Depth is "auto" (""), "0", "1" or "2": hops of expansion from the seeds.
	Depth string
	// Keywords are extra terms for the search and the relevance filter.
	Keywords []string
	// K is the number of search results used as seeds; 0 means
	// DefaultContextSeeds.
	K int
	// Session, when set, carries what earlier contexts of the same
	// conversation sent in full: those chunks are listed, not repeated,
	// and this context's full chunks are recorded in it.
	Session *Session
	// Rewrite asks the configured chat model for identifiers and keywords
	// first, as SearchOptions.Rewrite does; they are added to Keywords, and
	// with Depth auto the model's intent picks the depth (implementation 2,
	// usage 1, location 0). On failure the context is built offline with a
	// warning (ContextResult.RewriteFallback).
	Rewrite bool
	// HistoryRev is the revision whose git history a change request's
	// context reads the files that usually change together from ("": HEAD).
	HistoryRev string
}

// Context assembles what a model should read to answer a question: the top
// hybrid-search chunks, their callers, callees and containing types when
// relevant to the question, grouped per file in source order and cut to the
// token budget (never exceeded; too-big chunks are shortened to their
// signature with a pointer to the rest).
func (p *Project) Context(ctx context.Context, opt ContextOptions) (*ContextResult, error) {
	budget, seeds := opt.Budget, opt.K
	if budget == 0 {
		budget = DefaultContextBudget
	}
	if seeds == 0 {
		seeds = DefaultContextSeeds
	}
	if err := CheckContextArgs(budget, opt.Depth, seeds); err != nil {
		return nil, err
	}
	pr, err := p.project(ctx)
	if err != nil {
		return nil, err
	}
	depth := opt.Depth
	var rwWarning string
	if opt.Rewrite {
		rw, w, err := p.rewriteQuery(ctx, pr, opt.Query)
		if err != nil {
			return nil, err
		}
		rwWarning = w
		if rw != nil {
			opt.Keywords = append(append([]string(nil), opt.Keywords...), rewriteTerms(rw)...)
			if d, _ := assemble.ParseDepth(depth); d < 0 {
				if rd := rewriteDepth(rw.Intent); rd != "" {
					depth = rd
				}
			}
		}
	}
	co, warnings, err := p.contextSeeds(ctx, pr, opt)
	if err != nil {
		return nil, err
	}
	if rwWarning != "" {
		warnings = append(warnings, rwWarning)
	}
	co.Budget, co.Depth = opt.Budget, depth
	if opt.Session != nil {
		co.Sent = opt.Session.snapshot()
	}
	res, err := assemble.Assemble(ctx, p.db, pr.ID, co)
	if err != nil {
		return nil, err
	}
	if opt.Session != nil {
		opt.Session.record(res)
	}
	res.Warnings = append(warnings, res.Warnings...)
	return newContextResult(res), nil
}

// contextSeeds runs the search and embeds the query: everything of a
// context that does not depend on budget and depth.
func (p *Project) contextSeeds(ctx context.Context, pr *store.Project, opt ContextOptions) (assemble.ContextOptions, []string, error) {
	k := opt.K
	if k <= 0 {
		k = DefaultContextSeeds
	}
	k = min(k, MaxSearchK)
	co := assemble.ContextOptions{Query: opt.Query, Keywords: opt.Keywords, Model: pr.Model, Generation: pr.Generation}
	co.CoChanged = func(ctx context.Context, paths []string) ([]history.Coupling, error) {
		return history.CoChanged(ctx, p.root, paths, history.Options{Rev: opt.HistoryRev})
	}
	ix := search.Index{DB: p.db, Project: pr}
	co.Dots = func(q []float32, ids []int64) map[int64]float64 { return search.HeldDots(ix, q, ids) }
	sr, err := p.search(ctx, SearchOptions{Query: opt.Query, K: k, Keywords: opt.Keywords}, true)
	if err != nil {
		return co, nil, err
	}
	for _, h := range sr.Results {
		c, ok, err := p.db.ChunkAt(ctx, pr.ID, h.Symbol, h.File, h.StartLine)
		if err != nil {
			return co, nil, err
		}
		if ok {
			co.Seeds = append(co.Seeds, assemble.Seed{ChunkID: c.ID, Score: h.Score})
		}
	}
	lit, err := p.literalSeeds(ctx, pr, opt.Query, co.Seeds)
	if err != nil {
		return co, nil, err
	}
	co.Seeds = append(lit, co.Seeds...)
	co.ChangeRequest = sr.Route == search.RouteChange
	warnings := append([]string(nil), sr.Warnings...)
	if p.emb != nil && p.emb.ModelID() == pr.Model {
		vecs, err := p.emb.Embed(ctx, []string{semanticText(opt.Query, opt.Keywords)})
		switch {
		case err != nil && ctx.Err() != nil:
			return co, nil, fmt.Errorf("embed query: %w", ctx.Err())
		case err != nil:
			warnings = append(warnings, "relevance filter without semantic similarity: "+err.Error())
		case len(vecs) == 1:
			co.QueryVector = vecs[0]
		}
	}
	return co, warnings, nil
}

// ContextRun is one (budget, depth) setting of a context evaluation.
type ContextRun struct {
	Budget int    `json:"budget"`
	Depth  string `json:"depth"`
}

// ContextEvalOptions configure EvaluateContext.
type ContextEvalOptions struct {
	Runs []ContextRun
	// K is the number of search results used as seeds; 0 means
	// DefaultContextSeeds.
	K int
	// Progress, when set, is called after each task.
	Progress func(done, total int)
}

// ContextEvalReport is the outcome of one run of EvaluateContext.
type ContextEvalReport struct {
	ContextRun
	Report *ContextEvalScores `json:"report"`
}

// EvaluateContext assembles a context for every task of the set under each
// run's budget and depth and reports the share of tasks whose target (file
// and symbol, as search evaluation matches them) is inside it. The search
// behind the seeds runs once per task.
func (p *Project) EvaluateContext(ctx context.Context, set *GoldenSet, opt ContextEvalOptions) ([]ContextEvalReport, error) {
	for _, r := range opt.Runs {
		if _, err := assemble.ParseDepth(r.Depth); err != nil {
			return nil, err
		}
	}
	pr, err := p.project(ctx)
	if err != nil {
		return nil, err
	}
	outs := make([][]eval.ContextTask, len(opt.Runs))
	tasks := set.evalTasks()
	for i, t := range tasks {
		// A change request whose query names a target counts apart, as in
		// Evaluate.
		if t.Kind, err = p.scoredKind(ctx, pr.ID, t); err != nil {
			return nil, err
		}
		tasks[i] = t
		co, _, err := p.contextSeeds(ctx, pr, ContextOptions{Query: t.Query, K: opt.K, HistoryRev: t.Rev})
		if err != nil {
			return nil, fmt.Errorf("task %s: %w", t.ID, err)
		}
		for ri, r := range opt.Runs {
			co.Budget, co.Depth = r.Budget, r.Depth
			res, err := assemble.Assemble(ctx, p.db, pr.ID, co)
			if err != nil {
				return nil, fmt.Errorf("task %s: %w", t.ID, err)
			}
			a := eval.Assembled{Tokens: res.Tokens}
			if a.WireTokens, err = wireTokens(res.Text()); err != nil {
				return nil, err
			}
			for _, c := range res.Chunks() {
				a.Chunks = append(a.Chunks, eval.ContextChunk{File: c.File, Name: c.Name})
			}
			outs[ri] = append(outs[ri], eval.JudgeContext(t, a))
		}
		if opt.Progress != nil {
			opt.Progress(i+1, len(set.Tasks))
		}
	}
	reps := make([]ContextEvalReport, len(opt.Runs))
	for ri, r := range opt.Runs {
		reps[ri] = ContextEvalReport{ContextRun: r, Report: newContextEvalScores(eval.SummarizeContext(tasks, outs[ri]))}
	}
	return reps, nil
}

// semanticText is the text embedded for the query: the question, the extra
// keywords and their English expansions (as search embeds it).
func semanticText(q string, keywords []string) string {
	parts := append([]string{q}, keywords...)
	var b strings.Builder
	b.WriteString(strings.Join(parts, " "))
	for _, t := range parts {
		for _, e := range query.Parse(t).Expanded {
			b.WriteString(" ")
			b.WriteString(e)
		}
	}
	return strings.TrimSpace(b.String())
}

// wireTokens counts the tokens of text as it travels in a JSON answer
// (quoted and escaped).
func wireTokens(text string) (int, error) {
	b, err := json.Marshal(text)
	if err != nil {
		return 0, err
	}
	return assemble.CountTokens(string(b))
}
