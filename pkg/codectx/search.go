package codectx

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"codectx/internal/eval"
	"codectx/internal/query"
	"codectx/internal/search"
)

// SearchHit is one ranked chunk of a SearchResult.
type SearchHit struct {
	File      string  `json:"file"` // relative to the root, forward slashes
	StartLine int     `json:"start_line"`
	EndLine   int     `json:"end_line"`
	Kind      string  `json:"kind"` // function, method, type, …
	Name      string  `json:"name"` // the chunk's name with its parameters
	Score     float64 `json:"score"`
	Snippet   string  `json:"snippet"` // the chunk's first lines, white space collapsed
	// Also lists the files of duplicates of this hit that were collapsed
	// into it: the same chunk in another file, or the same file under
	// another versioned directory (v3/ against v4/).
	Also []string `json:"also,omitempty"`
	// Explain holds the parts of Score when SearchOptions.Explain asked
	// for them (default ranker only).
	Explain *ScoreParts `json:"explain,omitempty"`
	// Symbol is the chunk's symbol (Name without parameters), as
	// Feedback's "FILE#SYMBOL" names it.
	Symbol string `json:"-"`
}

// ScoreParts is how the default ranker arrived at a hit's score: the parts
// add up to SearchHit.Score (each is rounded like it). docs/EVAL.md
// describes each signal and how its weight was chosen.
type ScoreParts struct {
	Keyword  float64 `json:"keyword"`        // normalised BM25 of the query's keywords
	Coverage float64 `json:"coverage"`       // idf-weighted share of the keywords the chunk matches
	Semantic float64 `json:"semantic"`       // normalised cosine with the query's embedding
	Kind     float64 `json:"kind"`           // prior of the chunk's kind (function, type, text, …)
	Name     float64 `json:"name,omitempty"` // a short query's words in the chunk's own name
	Length   float64 `json:"length"`         // prior on the chunk's code lines
	File     float64 `json:"file"`           // the best chunks of the same file
	// Direct is what the query names outright: a symbol, a path or a
	// stack-trace frame (change requests), or the callers of a named
	// function.
	Direct float64 `json:"direct,omitempty"`
	Area   float64 `json:"area,omitempty"` // a change request's area prefix ("store: …")
	// Demotion is the sum of the demotions (≤ 0); Demotions names them:
	// test, dependency, stub, constructor, non-source, example,
	// changelog, below-subject (a test kept below the file it tests).
	Demotion  float64  `json:"demotion,omitempty"`
	Demotions []string `json:"demotions,omitempty"`
}

// String lists the parts that are not zero, largest first, as
// "keyword 0.350 + file 0.210 + … − test 0.300".
func (x *ScoreParts) String() string {
	type part struct {
		name string
		v    float64
	}
	parts := []part{{"keyword", x.Keyword}, {"coverage", x.Coverage}, {"semantic", x.Semantic}, {"kind", x.Kind}, {"name", x.Name},
		{"length", x.Length}, {"file", x.File}, {"direct", x.Direct}, {"area", x.Area}}
	slices.SortStableFunc(parts, func(a, b part) int { return cmp.Compare(b.v, a.v) })
	var b strings.Builder
	for _, p := range parts {
		if p.v == 0 {
			continue
		}
		switch {
		case b.Len() == 0 && p.v < 0:
			fmt.Fprintf(&b, "−%s %.3f", p.name, -p.v)
		case b.Len() == 0:
			fmt.Fprintf(&b, "%s %.3f", p.name, p.v)
		case p.v < 0:
			fmt.Fprintf(&b, " − %s %.3f", p.name, -p.v)
		default:
			fmt.Fprintf(&b, " + %s %.3f", p.name, p.v)
		}
	}
	if x.Demotion != 0 {
		fmt.Fprintf(&b, " − %s %.3f", strings.Join(x.Demotions, ", "), -x.Demotion)
	}
	if b.Len() == 0 {
		return "0"
	}
	return b.String()
}

// SearchResult is a ranked answer with its summary.
type SearchResult struct {
	Query string `json:"query"`
	// Summary says in a few lines where to start reading.
	Summary  string      `json:"summary"`
	Keywords []string    `json:"keywords"` // the keywords searched for
	Results  []SearchHit `json:"results"`
	// Confidence is the largest idf-weighted share of the query's keywords
	// that one of the first results matches; 0 when the keyword channel
	// was off.
	Confidence float64 `json:"confidence"`
	// NoConfidentMatch says the project probably has no code for the
	// question: only the closest few results are kept, and GrepPattern is
	// a case-insensitive regular expression of the query's rarest
	// keywords for a text search.
	NoConfidentMatch bool   `json:"no_confident_match,omitempty"`
	GrepPattern      string `json:"grep_pattern,omitempty"`
	// Unread lists the query's keywords that could not be searched for:
	// Chinese words for which no English is known and which the project's
	// text does not contain. Passing English words for them as Keywords
	// helps.
	Unread []string `json:"unread,omitempty"`
	// Warnings explain a degraded search (e.g. semantic channel off).
	Warnings []string `json:"warnings,omitempty"`
	// RewriteFallback is the warning of Warnings saying that Rewrite was
	// asked for but the search ran offline ("" otherwise): a front end may
	// show it only when verbose.
	RewriteFallback string `json:"-"`
	// Route is how the query was read: "lookup" (a question: chunks, up to
	// three per file) or "change" (a change request or bug report: one
	// entry per file, its best chunk as the evidence).
	Route string `json:"route"`
}

// SearchStyle adapts SearchResult.Render to a front end.
type SearchStyle struct {
	// SnippetRunes cuts each snippet to this many runes, white space
	// collapsed, with an ellipsis when cut; 0 shows it whole.
	SnippetRunes int
	// Paint decorates a part of a hit's line: "score", "kind", "name" or
	// "path" (e.g. colours on a terminal); nil leaves it plain.
	Paint func(part, text string) string
	// GrepHint is the line offering a text search for GrepPattern when
	// nothing matched confidently, named in the front end's own words
	// (its command or tool); nil offers none.
	GrepHint func(pattern string) string
	// UnreadHint is the line saying how to add English words for the
	// Unread keywords, in the front end's own words (its flag or
	// parameter); nil offers none.
	UnreadHint func(words []string) string
}

// Render renders the result as every front end lists it: the summary, then
// per hit "N. score  kind name  path:a-b", its snippet and the files of
// its duplicates, then st.GrepHint's line when nothing matched confidently
// and st.UnreadHint's when some keywords could not be searched for.
func (r *SearchResult) Render(st SearchStyle) string {
	paint := st.Paint
	if paint == nil {
		paint = func(_, text string) string { return text }
	}
	var b strings.Builder
	b.WriteString(r.Summary)
	b.WriteString("\n")
	for i, h := range r.Results {
		fmt.Fprintf(&b, "\n%2d. %s  %s %s  %s\n", i+1, paint("score", fmt.Sprintf("%.3f", h.Score)), paint("kind", fmt.Sprintf("%-8s", h.Kind)),
			paint("name", h.Name), paint("path", fmt.Sprintf("%s:%d-%d", h.File, h.StartLine, h.EndLine)))
		snippet := h.Snippet
		if st.SnippetRunes > 0 {
			snippet = search.Snippet(snippet, st.SnippetRunes)
		}
		fmt.Fprintf(&b, "    %s\n", snippet)
		if len(h.Also) > 0 {
			fmt.Fprintf(&b, "    also in: %s\n", strings.Join(h.Also, ", "))
		}
		if h.Explain != nil {
			fmt.Fprintf(&b, "    score: %s\n", h.Explain)
		}
	}
	if r.NoConfidentMatch && r.GrepPattern != "" && st.GrepHint != nil {
		fmt.Fprintf(&b, "\n%s\n", st.GrepHint(r.GrepPattern))
	}
	if len(r.Unread) > 0 && st.UnreadHint != nil {
		fmt.Fprintf(&b, "\n%s\n", st.UnreadHint(r.Unread))
	}
	return b.String()
}

func newSearchResult(r *search.Result) *SearchResult {
	return &SearchResult{Query: r.Query, Summary: r.Summary, Keywords: r.Keywords, Confidence: r.Confidence,
		NoConfidentMatch: r.NoConfidentMatch, GrepPattern: r.GrepPattern, Unread: r.Unread, Warnings: r.Warnings, Route: r.Route,
		RewriteFallback: rewriteFallback(r.Warnings),
		Results: convertSlice(r.Results, func(h search.Hit) SearchHit {
			return SearchHit{File: h.File, StartLine: h.StartLine, EndLine: h.EndLine, Kind: h.Kind, Name: h.Name,
				Score: h.Score, Snippet: h.Snippet, Also: h.Also, Symbol: h.Symbol, Explain: newScoreParts(h.Explain)}
		})}
}

func newScoreParts(x *search.Explain) *ScoreParts {
	if x == nil {
		return nil
	}
	return &ScoreParts{Keyword: x.Keyword, Coverage: x.Coverage, Semantic: x.Semantic, Kind: x.Kind, Name: x.Name, Length: x.Length,
		File: x.File, Direct: x.Direct, Area: x.Area, Demotion: x.Demotion, Demotions: x.Demotions}
}

// Search modes and rankers.
const (
	ModeHybrid    = "hybrid"
	ModeKeyword   = "keyword"
	ModeSemantic  = "semantic"
	RankerDefault = "default"
	RankerSeed    = "seed"
	// DefaultSearchK is the number of results when K is 0.
	DefaultSearchK = 5
	// MaxSearchK is the largest number of results a search returns.
	MaxSearchK = 30
)

// ErrEmptyQuery means the search had nothing to look for.
var ErrEmptyQuery = search.ErrEmptyQuery

// ErrModelMismatch means the configured embedder differs from the one the
// index was built with (semantic mode only; hybrid falls back to keywords
// with a warning).
var ErrModelMismatch = search.ErrModelMismatch

// SearchOptions configure Search.
type SearchOptions struct {
	// Query is natural language, identifiers or both (English or Chinese).
	Query string
	// K is the number of results, 1..MaxSearchK; 0 means 5.
	K int
	// Mode is "hybrid" (default), "keyword" or "semantic".
	Mode string
	// Ranker is "default" or "seed" (the reference fusion).
	Ranker string
	// Keywords are extra terms (e.g. identifiers an agent already knows).
	Keywords []string
	// Rewrite first asks the chat model configured by LLM_BASE_URL,
	// LLM_MODEL and LLM_API_KEY for likely identifiers and keywords, which
	// are searched like Keywords. When that is not configured or fails, the
	// search runs as without Rewrite and a warning says so
	// (SearchResult.RewriteFallback; see rewrite.go).
	Rewrite bool
	// NoLexicon turns the query's expansions off: no Chinese→English
	// lexicon or dictionary translations and no English synonyms (for
	// evaluation).
	NoLexicon bool
	// Explain fills every hit's Explain with the parts of its score
	// (default ranker only: with the seed ranker it is a bad option).
	Explain bool
}

// Validate checks the options as Search does, without an index: the one
// validation of a search's options, used by every front end (its words name
// the options: "k must be between 1 and 30, got 0"). errors.Is(err,
// ErrBadOption) or ErrEmptyQuery holds for what it returns.
func (opt SearchOptions) Validate() error {
	_, err := opt.options()
	return err
}

// options is opt validated and normalised for internal/search.
func (opt SearchOptions) options() (search.Options, error) {
	o := search.Options{Query: opt.Query, K: opt.K, Mode: opt.Mode, Ranker: opt.Ranker, Keywords: opt.Keywords, Explain: opt.Explain}
	if opt.NoLexicon {
		o.ParseOptions = &query.Options{}
	}
	if err := o.Validate(); err != nil {
		return o, badInput(err)
	}
	return o, nil
}

// Search ranks the project's chunks for a query, then applies the feedback
// recorded for the query (results voted up rise, voted down sink). It
// returns ErrNotIndexed when the project has never been indexed,
// ErrEmptyQuery for a blank query and ErrModelMismatch in semantic mode when
// the embedder changed.
func (p *Project) Search(ctx context.Context, opt SearchOptions) (*SearchResult, error) {
	res, err := p.search(ctx, opt, true)
	if err != nil {
		return nil, err
	}
	return newSearchResult(res), nil
}

// search runs a search, with or without recorded feedback.
func (p *Project) search(ctx context.Context, opt SearchOptions, feedback bool) (*search.Result, error) {
	o, err := opt.options()
	if err != nil {
		return nil, err
	}
	pr, err := p.project(ctx)
	if err != nil {
		return nil, err
	}
	var warning string
	if opt.Rewrite {
		rw, w, err := p.rewriteQuery(ctx, pr, o.Query)
		if err != nil {
			return nil, err
		}
		warning = w
		if rw != nil {
			o.Keywords = append(append([]string(nil), o.Keywords...), rewriteTerms(rw)...)
		}
	}
	ix := search.Index{DB: p.db, Project: pr, Embedder: p.emb, SideFileOnly: p.cfg.SearchVectorsFile}
	if feedback {
		// A few results past K let a result voted up rise into the list.
		o.Extra = feedbackExtra
	}
	res, err := search.Search(ctx, ix, o)
	if err != nil {
		return nil, err
	}
	if warning != "" {
		res.Warnings = append(res.Warnings, warning)
	}
	if !feedback {
		return res, nil
	}
	n := len(res.Results)
	if err := p.applyFeedback(ctx, pr, o.Query, res, o.K); err != nil {
		return nil, err
	}
	if len(res.Results) != n {
		res.Summary = search.Summarize(res)
	}
	return res, nil
}

// feedbackExtra is how many results past K a search ranks for feedback.
const feedbackExtra = 5

// GoldenTarget is what a task's answer must contain: a file, and a symbol
// in it when the task names one.
type GoldenTarget struct {
	File   string `json:"file"`
	Symbol string `json:"symbol,omitempty"`
}

// GoldenTask is one retrieval task of a golden set.
type GoldenTask struct {
	ID      string         `json:"id"`
	Query   string         `json:"query"`
	Lang    string         `json:"lang"` // the query's language: en, zh, …
	Kind    string         `json:"kind"` // implementation, usage, location, …
	Targets []GoldenTarget `json:"targets"`
	// Rev, for a task mined from a commit (GitGoldenSet), is the revision
	// before it: a context for the task reads the history only up to there
	// (ContextOptions.HistoryRev).
	Rev string `json:"rev,omitempty"`
}

// GoldenSet is a golden set: tasks to evaluate retrieval with (the JSON
// Lines format is in docs/EVAL.md). ParseGoldenSet reads one; a caller may
// also build one.
type GoldenSet struct {
	Root  string // the header's root, variables expanded; "" without a header
	Note  string // the header's note
	Tasks []GoldenTask
}

// ParseGoldenSet reads a golden set; lookup expands variables in its header
// root (nil: none).
func ParseGoldenSet(r io.Reader, lookup func(string) string) (*GoldenSet, error) {
	s, err := eval.Parse(r, lookup)
	if err != nil {
		return nil, err
	}
	return &GoldenSet{Root: s.Root, Note: s.Note, Tasks: convertSlice(s.Tasks, func(t eval.Task) GoldenTask {
		return GoldenTask{ID: t.ID, Query: t.Query, Lang: t.Lang, Kind: t.Kind,
			Targets: convertSlice(t.Targets, func(tg eval.Target) GoldenTarget { return GoldenTarget(tg) })}
	})}, nil
}

// Under returns a copy of the set whose target files are read from dir,
// a directory of the project being measured (a slash-separated path
// relative to its root): a set written for $GOROOT/src/net/http measured on
// the whole of $GOROOT/src is the set under "net/http". Root becomes "".
func (s *GoldenSet) Under(dir string) *GoldenSet {
	dir = strings.Trim(path.Clean(filepath.ToSlash(dir)), "/")
	out := &GoldenSet{Note: s.Note, Tasks: make([]GoldenTask, len(s.Tasks))}
	for i, t := range s.Tasks {
		t.Targets = convertSlice(t.Targets, func(tg GoldenTarget) GoldenTarget {
			if dir != "" && dir != "." {
				tg.File = dir + "/" + tg.File
			}
			return tg
		})
		out.Tasks[i] = t
	}
	return out
}

// evalTasks are the set's tasks as internal/eval scores them.
func (s *GoldenSet) evalTasks() []eval.Task {
	return convertSlice(s.Tasks, func(t GoldenTask) eval.Task {
		return eval.Task{ID: t.ID, Query: t.Query, Lang: t.Lang, Kind: t.Kind, Rev: t.Rev,
			Targets: convertSlice(t.Targets, func(tg GoldenTarget) eval.Target { return eval.Target(tg) })}
	})
}

// EvalOptions configure Evaluate.
type EvalOptions struct {
	K      int    // results per task, 1..MaxSearchK; 0 means 10
	Mode   string // as in SearchOptions
	Ranker string // as in SearchOptions
	// NoLexicon turns the lexicon, dictionary and synonym expansions off, as in SearchOptions.
	NoLexicon bool
	// Progress, when set, is called after each task.
	Progress func(done, total int)
}

// Evaluate runs every task of the set as a search over this project
// (without recorded feedback, so it measures the ranker) and scores the
// results (Recall@1/5/10 and MRR@10 at file and symbol level,
// overall, per query language and per task kind). The project must be
// indexed; the set's root is not consulted (the project's root is).
// Tasks of kind GitTaskClean or GitTaskLeaky are change requests and are
// scored as EvaluateGit scores mined commits: by distinct files among the
// first MaxSearchK results, and of kind GitTaskLeaky when the query names
// a target file or a symbol defined in one (the set's own kind is not
// trusted for that).
func (p *Project) Evaluate(ctx context.Context, set *GoldenSet, opt EvalOptions) (*EvalReport, error) {
	if opt.K == 0 {
		opt.K = 10
	}
	tasks := set.evalTasks()
	outs := make([]eval.Outcome, 0, len(tasks))
	var projectID int64
	for i, t := range tasks {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("evaluate: %w", err)
		}
		// A change request is scored as EvaluateGit scores a mined commit:
		// by distinct files, and apart when its query names a target.
		change := isChange(t)
		k := opt.K
		if change {
			if projectID == 0 {
				pr, err := p.project(ctx)
				if err != nil {
					return nil, err
				}
				projectID = pr.ID
			}
			var err error
			if t.Kind, err = p.scoredKind(ctx, projectID, t); err != nil {
				return nil, err
			}
			k = MaxSearchK
		}
		res, err := p.search(ctx, SearchOptions{Query: t.Query, K: k, Mode: opt.Mode, Ranker: opt.Ranker, NoLexicon: opt.NoLexicon}, false)
		if err != nil {
			return nil, fmt.Errorf("task %s: %w", t.ID, err)
		}
		hits := make([]eval.Hit, len(res.Results))
		for j, h := range res.Results {
			hits[j] = eval.Hit{File: h.File, Name: h.Name}
		}
		o := eval.Judge(t, hits)
		if change {
			o.FileRank = eval.DistinctFileRank(t, hits)
		}
		o.Confidence, o.NoConfidentMatch = res.Confidence, res.NoConfidentMatch
		outs = append(outs, o)
		if opt.Progress != nil {
			opt.Progress(i+1, len(set.Tasks))
		}
	}
	r := eval.Evaluate(outs)
	return newEvalReport(&r), nil
}
