package codectx

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"codectx/internal/assemble"
	"codectx/internal/eval"
	"codectx/internal/query"
	"codectx/internal/search"
	"codectx/internal/store"
)

// Context types re-exported for callers.
type (
	// ContextResult is an assembled context: Text() is the Markdown.
	ContextResult = assemble.ContextResult
	// ContextFile is one file's chunks in a context.
	ContextFile = assemble.ContextFile
	// ContextChunk is one chunk in a context.
	ContextChunk = assemble.ContextChunk
	// Intent is what a question asks for (implementation, usage, location).
	Intent = assemble.Intent
	// Place is a chunk a context elided or dropped, and where to read it.
	Place = assemble.Place
)

// Context defaults.
const (
	// DefaultContextBudget is the token budget when none is given.
	DefaultContextBudget = assemble.DefaultBudget
	// DefaultContextSeeds is how many search results seed a context
	// (chosen from docs/EVAL.md, "Repository-level context").
	DefaultContextSeeds = 16
)

// Place states of ContextResult.Places.
const (
	PlaceElided  = assemble.PlaceElided
	PlaceDropped = assemble.PlaceDropped
)

// CountTokens counts s in the tokenizer budgets are measured in
// (cl100k_base, tables compiled in).
func CountTokens(s string) (int, error) { return assemble.CountTokens(s) }

// ClassifyQuery returns the intent Context would read from a question.
func ClassifyQuery(q string) Intent { return assemble.Classify(q) }

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
func (s *Session) record(r *ContextResult) {
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
	// warning for which IsRewriteWarning is true.
	Rewrite bool
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
	return res, nil
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
	ix := search.Index{DB: p.db, Project: pr}
	co.Dots = func(q []float32, ids []int64) map[int64]float64 { return search.HeldDots(ix, q, ids) }
	sr, err := p.Search(ctx, SearchOptions{Query: opt.Query, K: k, Keywords: opt.Keywords})
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
	Report *eval.ContextReport `json:"report"`
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
	for i, t := range set.Tasks {
		co, _, err := p.contextSeeds(ctx, pr, ContextOptions{Query: t.Query, K: opt.K})
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
		reps[ri] = ContextEvalReport{ContextRun: r, Report: eval.SummarizeContext(set.Tasks, outs[ri])}
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
