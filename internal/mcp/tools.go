package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"codectx/internal/watch"
	"codectx/pkg/codectx"
)

// Tool names.
const (
	ToolGlob     = "glob_files"
	ToolGrep     = "grep_code"
	ToolRead     = "read_file"
	ToolSearch   = "search_code"
	ToolContext  = "get_context"
	ToolGraph    = "code_graph"
	ToolStatus   = "index_status"
	ToolReindex  = "reindex"
	ToolRate     = "rate_result"
	ToolMap      = "repo_map"
	ToolImpact   = "change_impact"
	ToolOverview = "project_overview"
)

// Tool inputs. Fields without omitempty are required in the schema; the
// jsonschema tags are the descriptions a model reads.

type globIn struct {
	Pattern string `json:"pattern" jsonschema:"doublestar glob matched against paths relative to path, e.g. **/*.go, src/**/*_test.ts, **/{Dockerfile,*.yaml}"`
	Path    string `json:"path,omitempty" jsonschema:"directory to list under, relative to the project root (default: the root)"`
	Limit   int    `json:"limit,omitempty" jsonschema:"most files to return (default 100)"`
	Sort    string `json:"sort,omitempty" jsonschema:"order of the files: path (default) or mtime (most recently modified first)"`
}

type grepIn struct {
	Pattern    string `json:"pattern" jsonschema:"Go/RE2 regular expression searched line by line, e.g. func \\w+Handler or (?i)retry; set fixed for a literal string"`
	Path       string `json:"path,omitempty" jsonschema:"file or directory to search, relative to the project root (default: the root)"`
	Glob       string `json:"glob,omitempty" jsonschema:"file filter like rg -g: *.go matches names at any depth, internal/**/*.ts is anchored to path, a leading ! excludes"`
	IgnoreCase bool   `json:"ignore_case,omitempty" jsonschema:"match case-insensitively"`
	Fixed      bool   `json:"fixed,omitempty" jsonschema:"treat pattern as a literal string, not a regular expression"`
	Context    int    `json:"context,omitempty" jsonschema:"lines of context shown around each match (default 0)"`
	HeadLimit  int    `json:"head_limit,omitempty" jsonschema:"most matching lines shown per file (default 20)"`
	MaxResults int    `json:"max_results,omitempty" jsonschema:"most matching lines in all (default 50)"`
	MaxChars   int    `json:"max_chars,omitempty" jsonschema:"budget of the answer in characters (default 24000)"`
}

type readIn struct {
	File   string `json:"file" jsonschema:"file to read, relative to the project root"`
	Offset int    `json:"offset,omitempty" jsonschema:"first line to return, 1-based (default 1)"`
	Limit  int    `json:"limit,omitempty" jsonschema:"number of lines to return (default 200, at most 2000)"`
}

type searchIn struct {
	Query    string   `json:"query" jsonschema:"what the code does, in plain words (English or Chinese), optionally with identifiers, e.g. where are failed payments retried"`
	TopK     int      `json:"top_k,omitempty" jsonschema:"number of results, 1 to 30 (default 5)"`
	Mode     string   `json:"mode,omitempty" jsonschema:"hybrid (default: keywords and meaning), keyword (BM25 only) or semantic (embeddings only)"`
	Keywords []string `json:"keywords,omitempty" jsonschema:"identifiers and English terms you expect in the code (e.g. retryPayment, backoff, PaymentService); pass them: they sharpen the search a lot"`
	Explain  bool     `json:"explain,omitempty" jsonschema:"also give the parts of each result's score (keyword, coverage, semantic, kind, length, file, demotions): why a result ranks where it does"`
}

type contextIn struct {
	Query    string   `json:"query" jsonschema:"the task or question, in plain words, e.g. how does login create a session"`
	Budget   *int     `json:"budget,omitempty" jsonschema:"most tokens of the answer, at least 1 (default 8000)"`
	Depth    any      `json:"depth,omitempty" jsonschema:"hops to follow from the best chunks along calls and containment: auto (default), 0, 1 or 2"`
	Keywords []string `json:"keywords,omitempty" jsonschema:"identifiers and English terms you expect in the code; pass them: they sharpen the search a lot"`
	// ResetSession forgets what earlier get_context answers of this
	// session sent.
	ResetSession bool `json:"reset_session,omitempty" jsonschema:"send every chunk again: forget what earlier get_context answers of this session already sent in full (by default they are listed as already sent, not repeated)"`
}

type graphIn struct {
	Name      string `json:"name" jsonschema:"symbol to start from: a type (UserService), a member (UserService.findById), a function name, or a file path"`
	Direction string `json:"direction,omitempty" jsonschema:"out: what it calls/extends/implements/contains; in: what calls or extends it; both (default)"`
	Depth     int    `json:"depth,omitempty" jsonschema:"hops to expand (default 1)"`
	// MinConfidence filters edges by how their target was resolved.
	MinConfidence string `json:"min_confidence,omitempty" jsonschema:"exact: only edges resolved by type, scope or import; inferred: also one-candidate rules; name: also calls matched only by name; all (default)"`
}

type statusIn struct{}

type mapIn struct {
	Budget int      `json:"budget,omitempty" jsonschema:"most tokens of the map (default 2000, at least 64)"`
	Focus  []string `json:"focus,omitempty" jsonschema:"files, directories or symbols you are working on; the ranking is personalised toward them"`
}

type impactIn struct {
	Base  string `json:"base,omitempty" jsonschema:"git ref the work tree is compared with (default HEAD); leave empty outside git"`
	Depth int    `json:"depth,omitempty" jsonschema:"hops of callers and dependants to follow (default 2, at most 5)"`
}

type overviewIn struct{}

type rateIn struct {
	Query    string `json:"query" jsonschema:"the query the result was returned for"`
	ResultID string `json:"result_id" jsonschema:"the result as FILE:LINE (file and start_line of a search_code result, e.g. net/client.go:120) or FILE#SYMBOL"`
	Vote     string `json:"vote" jsonschema:"up when the result answered the query, down when it did not"`
}

type reindexIn struct {
	Background bool `json:"background,omitempty" jsonschema:"return at once instead of waiting for the pass to finish"`
}

// answer is a tool's text rendering and its structured output.
type answer struct {
	text string
	data any
}

func (s *Server) register() {
	ro := &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false)}
	addTool(s, &sdk.Tool{
		Name:  ToolGlob,
		Title: "Find files by name",
		Description: "List the project's files whose path matches a glob (doublestar: ** crosses directories). " +
			"Honours .gitignore and skips vendored/build directories. Use it for file names; follow with read_file. " +
			"Needs no index: always current.",
		Annotations: ro,
	}, withEnum[globIn](map[string][]any{"sort": {"path", "mtime"}}), s.glob)
	addTool(s, &sdk.Tool{
		Name:  ToolGrep,
		Title: "Search code by regular expression",
		Description: "Search every project file line by line for a regular expression (or a literal string with fixed=true), like ripgrep. " +
			"The first choice for exact names, strings, error messages and call sites. Results are budgeted (head_limit, max_results, max_chars) " +
			"and end with suggested_reads: call read_file on those ranges. Needs no index: always current.",
		Annotations: ro,
	}, withEnum[grepIn](nil), s.grep)
	addTool(s, &sdk.Tool{
		Name:  ToolRead,
		Title: "Read lines of a file",
		Description: "Return numbered lines of one project file (default 200 lines from offset). " +
			"Use the ranges suggested by grep_code, search_code or get_context; when more lines follow, the answer says which offset to ask next.",
		Annotations: ro,
	}, withEnum[readIn](nil), s.read)
	addTool(s, &sdk.Tool{
		Name:  ToolSearch,
		Title: "Search code by meaning",
		Description: "Ranked search over the indexed code chunks (functions, methods, types) by a description in plain words, fusing keyword (BM25) and embedding similarity. " +
			"Use it for vague questions, or after grep_code found nothing in a couple of tries. " +
			"Always pass keywords: the identifiers and English terms you expect in the code (the cheapest way to rewrite the query). " +
			"Returns a summary and results with file:line ranges for read_file.",
		Annotations: ro,
	}, withEnum[searchIn](map[string][]any{"mode": {codectx.ModeHybrid, codectx.ModeKeyword, codectx.ModeSemantic}}), s.search)
	addTool(s, &sdk.Tool{
		Name:  ToolContext,
		Title: "Repository context for a task",
		Description: "Assemble the code relevant to a task in one answer within a token budget: the best-ranked chunks plus what they call and what calls them, " +
			"merged per file, with the reason each chunk is there. Use it to understand a feature before changing it; pass keywords as for search_code.",
		Annotations: ro,
	}, contextSchema(), s.context)
	addTool(s, &sdk.Tool{
		Name:  ToolGraph,
		Title: "Call and type graph",
		Description: "Relations of a symbol from the index: calls, extends, implements, contains and imports, followed depth hops in one or both directions. " +
			"Use it for who calls X, what X calls, and type hierarchies. Every edge has a resolution (exact, inferred, name, external, unresolved); " +
			"dispatch edges are calls through an interface to its implementations; references edges are Go functions and methods used as values (callbacks, handlers), not called. " +
			"An unknown name answers with close matches.",
		Annotations:  ro,
		OutputSchema: outputSchema[graphOut](),
	}, withEnum[graphIn](map[string][]any{"direction": {codectx.DirectionOut, codectx.DirectionIn, codectx.DirectionBoth},
		"min_confidence": {"exact", "inferred", "name", "all"}}), s.graph)
	addTool(s, &sdk.Tool{
		Name:  ToolStatus,
		Title: "Index status",
		Description: "What the index holds (files, chunks, embedding model), how far it lags behind the files on disk (a stat pass), " +
			"indexing progress, and whether file changes are being watched.",
		Annotations: ro,
	}, emptyObject, s.status)
	addTool(s, &sdk.Tool{
		Name:  ToolReindex,
		Title: "Re-index now",
		Description: "Run an incremental index pass now (only changed files are re-read) and return its summary. " +
			"Rarely needed: the server re-indexes changed files by itself. Requests made during a pass share the next one.",
		Annotations: &sdk.ToolAnnotations{IdempotentHint: true, OpenWorldHint: new(false)},
	}, withEnum[reindexIn](nil), s.reindex)
	addTool(s, &sdk.Tool{
		Name:  ToolRate,
		Title: "Rate a search result",
		Description: "Record whether a search_code result answered a query: up promotes it, down demotes it, for that query and queries with the same keywords. " +
			"Use it after you checked a result with read_file; it never deletes anything.",
		Annotations: &sdk.ToolAnnotations{OpenWorldHint: new(false)},
	}, withEnum[rateIn](map[string][]any{"vote": {codectx.VoteUp, codectx.VoteDown}}), s.rate)
	s.registerOrientation(ro)
}

func (s *Server) rate(ctx context.Context, in rateIn) (answer, error) {
	vote, err := codectx.ParseVote(in.Vote)
	if err != nil {
		return answer{}, err
	}
	j, err := s.p.Feedback(ctx, in.Query, in.ResultID, vote)
	if err != nil {
		return answer{}, err
	}
	return answer{text: j.Text() + "\n", data: j}, nil
}

// addTool registers a typed handler that answers with a text rendering and a
// structured result. Errors (and panics) become tool errors, never a crashed
// server.
func addTool[In any](s *Server, t *sdk.Tool, schema any, h func(context.Context, In) (answer, error)) {
	t.InputSchema = schema
	sdk.AddTool(s.sdk, t, func(ctx context.Context, req *sdk.CallToolRequest, in In) (res *sdk.CallToolResult, out any, err error) {
		start := time.Now()
		defer func() {
			if r := recover(); r != nil {
				s.log.Error("tool panicked", "tool", t.Name, "panic", r, "stack", string(debug.Stack()))
				res, out, err = nil, nil, fmt.Errorf("%s failed: internal error: %v", t.Name, r)
			}
			s.log.Debug("tool call", "tool", t.Name, "ms", time.Since(start).Milliseconds(), "err", err)
		}()
		if req != nil && req.Session != nil {
			ctx = context.WithValue(ctx, sessionKey{}, req.Session)
		}
		a, err := h(ctx, in)
		if err != nil {
			if hint := errorHint(err); hint != "" {
				err = fmt.Errorf("%w; %s", err, hint)
			}
			return nil, nil, err
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: a.text}}}, a.data, nil
	})
}

// sessionKey carries the calling MCP session in a tool handler's context.
type sessionKey struct{}

// contextSession is the memory of what get_context already sent to the
// calling MCP session (nil without a session).
func (s *Server) contextSession(ctx context.Context) *codectx.Session {
	ss, _ := ctx.Value(sessionKey{}).(*sdk.ServerSession)
	if ss == nil {
		return nil
	}
	v, loaded := s.sessions.LoadOrStore(ss, &codectx.Session{})
	if !loaded {
		// Forget the session's memory when it ends, so a long-lived
		// server (codectx serve) does not keep one per client forever.
		go func() {
			ss.Wait()
			s.sessions.Delete(ss)
			if s.sessionEnded != nil {
				s.sessionEnded()
			}
		}()
	}
	return v.(*codectx.Session)
}

// sessionCount is how many sessions' memories are held (for tests).
func (s *Server) sessionCount() int {
	n := 0
	s.sessions.Range(func(_, _ any) bool { n++; return true })
	return n
}

// withEnum infers In's input schema and restricts the named string
// properties to the given values.
func withEnum[In any](enums map[string][]any) *jsonschema.Schema {
	sc, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("mcp: schema of %T: %v", *new(In), err))
	}
	for _, p := range sc.Properties {
		// A nil slice is never sent: say "array", not ["null","array"].
		if slices.Equal(p.Types, []string{"null", "array"}) {
			p.Types, p.Type = nil, "array"
		}
	}
	for name, values := range enums {
		p := sc.Properties[name]
		if p == nil {
			panic(fmt.Sprintf("mcp: schema of %T has no property %q", *new(In), name))
		}
		p.Enum = values
	}
	return sc
}

// emptyObject is the schema of a tool without arguments; "properties" is
// spelled out because some clients require it.
var emptyObject = map[string]any{"type": "object", "properties": map[string]any{}, "additionalProperties": false}

// contextSchema lets depth be a string or an integer ("auto", "1" or 1).
func contextSchema() *jsonschema.Schema {
	sc := withEnum[contextIn](nil)
	sc.Properties["depth"].Types = []string{"string", "integer"}
	return sc
}

// ---- exact tools ----

func (s *Server) glob(ctx context.Context, in globIn) (answer, error) {
	res, err := s.p.Glob(ctx, codectx.GlobOptions{Pattern: in.Pattern, Path: in.Path, Limit: in.Limit, Sort: in.Sort})
	if err != nil {
		return answer{}, err
	}
	return answer{text: res.Text(), data: leanGlob(res)}, nil
}

// globOut is glob_files' structured content: the list in parallel arrays
// (one path, size and modification time per file, in the listed order),
// so that each file costs a few tokens beside its line in the text.
type globOut struct {
	Pattern   string   `json:"pattern"`
	Path      string   `json:"path"`
	Sort      string   `json:"sort"`
	Paths     []string `json:"paths"`
	Sizes     []int64  `json:"sizes"`
	MTimes    []int64  `json:"mtimes"` // Unix seconds
	Total     int      `json:"total"`
	Truncated bool     `json:"truncated"`
	Notes     []string `json:"notes,omitempty"`
}

func leanGlob(r *codectx.GlobResult) globOut {
	out := globOut{Pattern: r.Pattern, Path: r.Path, Sort: r.Sort, Total: r.Total, Truncated: r.Truncated, Notes: r.Notes,
		Paths: make([]string, 0, len(r.Files)), Sizes: make([]int64, 0, len(r.Files)), MTimes: make([]int64, 0, len(r.Files))}
	for _, f := range r.Files {
		out.Paths = append(out.Paths, f.Path)
		out.Sizes = append(out.Sizes, f.Size)
		out.MTimes = append(out.MTimes, f.ModTime.Unix())
	}
	return out
}

func (s *Server) grep(ctx context.Context, in grepIn) (answer, error) {
	res, err := s.p.Grep(ctx, codectx.GrepOptions{
		Path: in.Path, Glob: in.Glob, Pattern: in.Pattern, IgnoreCase: in.IgnoreCase, Fixed: in.Fixed,
		Context: in.Context, HeadLimit: in.HeadLimit, MaxResults: in.MaxResults, MaxChars: in.MaxChars,
	})
	if err != nil {
		return answer{}, err
	}
	return answer{text: res.Render(readFileHint), data: leanGrep(res)}, nil
}

// grepOut is grep_code's structured content: where the matches are; the
// matching lines themselves are in the text, once.
type grepOut struct {
	Pattern        string                  `json:"pattern"`
	Engine         string                  `json:"engine"`
	Lines          []grepLoc               `json:"lines"`
	Matches        int                     `json:"matches"`
	Files          int                     `json:"files"`
	CappedFiles    []string                `json:"capped_files,omitempty"`
	Partial        bool                    `json:"partial"`
	Notes          []string                `json:"notes,omitempty"`
	SuggestedReads []codectx.SuggestedRead `json:"suggested_reads"`
}

// grepLoc is one line of a grep result without its text.
type grepLoc struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Kind string `json:"kind"` // "match" or "context"
}

func leanGrep(r *codectx.GrepResult) grepOut {
	out := grepOut{Pattern: r.Pattern, Engine: r.Engine, Matches: r.Matches, Files: r.Files, CappedFiles: r.CappedFiles,
		Partial: r.Partial, Notes: r.Notes, SuggestedReads: r.SuggestedReads, Lines: make([]grepLoc, 0, len(r.Lines))}
	for _, l := range r.Lines {
		out.Lines = append(out.Lines, grepLoc{Path: l.Path, Line: l.Line, Kind: l.Kind})
	}
	return out
}

// readOut is read_file's structured content: which lines were read; the
// lines themselves are in the text, once.
type readOut struct {
	Path       string `json:"path"`
	Offset     int    `json:"offset"`
	End        int    `json:"end"`
	TotalLines int    `json:"total_lines"`
	More       bool   `json:"more"`
}

// readFileHint renders a suggested read as the read_file call to make.
func readFileHint(r codectx.SuggestedRead) string {
	return fmt.Sprintf("read_file file=%q offset=%d limit=%d", r.Path, r.Offset, r.Limit)
}

// errorHint is what an agent can do about an error from the libraries,
// named in tools and arguments; "" when the error says all there is.
func errorHint(err error) string {
	switch {
	case errors.Is(err, codectx.ErrNotIndexed), errors.Is(err, codectx.ErrNoIndex):
		return "call reindex, or use grep_code and glob_files meanwhile"
	case errors.Is(err, codectx.ErrModelMismatch):
		return "call reindex to re-embed with the configured model"
	case errors.Is(err, codectx.ErrCorrupt), errors.Is(err, codectx.ErrNewerSchema):
		return "the database is unusable; the user can start over with `codectx index --rebuild`"
	}
	return ""
}

func (s *Server) read(ctx context.Context, in readIn) (answer, error) {
	res, err := s.p.Read(ctx, codectx.ReadOptions{File: in.File, Offset: in.Offset, Limit: in.Limit})
	if err != nil {
		return answer{}, err
	}
	return answer{text: res.Render(readFileHint), data: readOut{Path: res.Path, Offset: res.Offset, End: res.End, TotalLines: res.TotalLines, More: res.More}}, nil
}

// ---- index tools ----

// searchOut is search_code's structured result: the hits by reference
// (file, lines, name, score); their snippets are in the text only.
type searchOut struct {
	*codectx.SearchResult
	Results    []searchHitOut `json:"results"`
	Notes      []string       `json:"notes,omitempty"`
	StaleFiles []string       `json:"stale_files,omitempty"`
	Indexing   bool           `json:"indexing,omitempty"`
}

func (s *Server) search(ctx context.Context, in searchIn) (answer, error) {
	q := strings.TrimSpace(in.Query)
	opt := codectx.SearchOptions{Query: q, K: in.TopK, Mode: in.Mode, Keywords: in.Keywords, Explain: in.Explain}
	if err := opt.Validate(); err != nil {
		return answer{}, queryError(err, q) // the words every front end uses ("k must be …")
	}
	f := s.svc.Fresh(ctx, s.opt.FreshWait)
	res, err := s.p.Search(ctx, opt)
	switch {
	case err == nil:
	case errors.Is(err, codectx.ErrNotIndexed) && f.Indexing:
		out := searchOut{SearchResult: &codectx.SearchResult{Query: q, Summary: "no results yet: " + f.Note, Keywords: in.Keywords, Results: []codectx.SearchHit{}},
			Notes: []string{f.Note}, Indexing: true}
		return answer{text: notesText(out.Notes) + "No results yet: the index is being built. Use grep_code or glob_files meanwhile.\n", data: out}, nil
	default:
		return answer{}, queryError(err, q)
	}
	out := searchOut{SearchResult: res, Indexing: f.Indexing, Results: []searchHitOut{}}
	for _, h := range res.Results {
		out.Results = append(out.Results, searchHitOut{File: h.File, StartLine: h.StartLine, EndLine: h.EndLine, Kind: h.Kind, Name: h.Name, Score: h.Score, Also: h.Also, Explain: h.Explain})
	}
	var files []string
	for _, h := range res.Results {
		files = append(files, h.File)
	}
	out.Notes, out.StaleFiles = freshNotes(f, files)
	return answer{text: notesText(out.Notes) + searchText(res), data: out}, nil
}

// searchHitOut is a search hit without its snippet.
type searchHitOut struct {
	File      string              `json:"file"`
	StartLine int                 `json:"start_line"`
	EndLine   int                 `json:"end_line"`
	Kind      string              `json:"kind"`
	Name      string              `json:"name"`
	Score     float64             `json:"score"`
	Also      []string            `json:"also,omitempty"`
	Explain   *codectx.ScoreParts `json:"explain,omitempty"`
}

// searchText renders a search as the CLI does, with whole snippets, its
// warnings and a pointer to read_file.
func searchText(r *codectx.SearchResult) string {
	var b strings.Builder
	b.WriteString(r.Render(codectx.SearchStyle{GrepHint: func(pattern string) string {
		return fmt.Sprintf("No confident match: %s with pattern \"(?i)%s\" looks for the rarest words verbatim.", ToolGrep, pattern)
	}, UnreadHint: func(words []string) string {
		return fmt.Sprintf("Not searched for: %s. Pass English words for them in keywords.", strings.Join(words, ", "))
	}}))
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "\nwarning: %s\n", w)
	}
	if len(r.Results) > 0 {
		b.WriteString("\nread_file with file and offset=start_line shows a result in full.\n")
	}
	return b.String()
}

// contextOut is get_context's structured result: what a program needs to
// act on the context (files, chunk ranges, reasons, the manifest), never
// the code itself, which the text carries once.
type contextOut struct {
	Query      string           `json:"query"`
	Intent     string           `json:"intent"`
	Depth      int              `json:"depth"`
	Budget     int              `json:"budget"`
	Tokens     int              `json:"tokens"`
	Candidates int              `json:"candidates"`
	Dropped    int              `json:"dropped"`
	TooSmall   bool             `json:"too_small,omitempty"`
	Files      []contextFileOut `json:"files"`
	NotShown   []string         `json:"dropped_places,omitempty"`
	Warnings   []string         `json:"warnings,omitempty"`
	Notes      []string         `json:"notes,omitempty"`
	StaleFiles []string         `json:"stale_files,omitempty"`
	Indexing   bool             `json:"indexing,omitempty"`
}

type contextFileOut struct {
	Path   string            `json:"path"`
	Chunks []contextChunkOut `json:"chunks"`
}

// contextChunkOut is one chunk of the text, by reference.
type contextChunkOut struct {
	Symbol string `json:"symbol"`
	Lines  [2]int `json:"lines"`
	Elided bool   `json:"elided,omitempty"`
	// SentIn is the earlier call of this session that sent the chunk.
	SentIn int `json:"already_sent_in_call,omitempty"`
}

// textShare is the percentage of get_context's budget given to the
// Markdown; wireSlack the percentage of the budget the whole answer may
// take on the wire.
const (
	maxListedDropped = 12
	textShare        = 78
	wireSlack        = 112
)

// wireTokens estimates the tokens of get_context's answer on the wire: the
// JSON-escaped Markdown and the structured references.
func wireTokens(r *codectx.ContextResult) (int, error) {
	b, err := json.Marshal(struct {
		Text string     `json:"text"`
		Data contextOut `json:"data"`
	}{r.Text(), leanContext(r)})
	if err != nil {
		return 0, err
	}
	return codectx.CountTokens(string(b))
}

// leanContext keeps a context's references and drops its code and Markdown.
func leanContext(r *codectx.ContextResult) contextOut {
	out := contextOut{Query: r.Query, Intent: r.Intent.Kind, Depth: r.Depth, Budget: r.Budget, Tokens: r.Tokens,
		Candidates: r.Candidates, Dropped: r.Dropped, TooSmall: r.TooSmall, Warnings: r.Warnings,
		Files: []contextFileOut{}}
	// The first dropped places, as the text's manifest names them ("symbol
	// path:a-b"); the rest are counted in Dropped, the elided ones marked
	// in Files.
	for _, p := range r.Places {
		if p.State == codectx.PlaceDropped && len(out.NotShown) < maxListedDropped {
			out.NotShown = append(out.NotShown, fmt.Sprintf("%s %s:%d-%d", p.Name, p.File, p.StartLine, p.EndLine))
		}
	}
	for _, f := range r.Files {
		cf := contextFileOut{Path: f.Path}
		for _, c := range f.Chunks {
			cf.Chunks = append(cf.Chunks, contextChunkOut{Symbol: c.Symbol, Lines: [2]int{c.StartLine, c.EndLine}, Elided: c.Shortened, SentIn: c.SentIn})
		}
		out.Files = append(out.Files, cf)
	}
	return out
}

func (s *Server) context(ctx context.Context, in contextIn) (answer, error) {
	q := strings.TrimSpace(in.Query)
	depth, err := depthArg(in.Depth)
	if err != nil {
		return answer{}, err
	}
	budget := codectx.DefaultContextBudget
	if in.Budget != nil {
		budget = *in.Budget
	}
	if err := codectx.CheckContextArgs(budget, depth, codectx.DefaultContextSeeds); err != nil {
		return answer{}, err
	}
	f := s.svc.Fresh(ctx, s.opt.FreshWait)
	// The budget bounds the whole answer on the wire: the Markdown gets
	// textShare of it (JSON escaping and the structured references take
	// the rest), less if a first answer still comes out too big.
	sess := s.contextSession(ctx)
	if sess != nil && in.ResetSession {
		sess.Reset()
	}
	opt := codectx.ContextOptions{Query: q, Budget: max(1, budget*textShare/100), Depth: depth, Keywords: in.Keywords}
	// The session remembers only the answer actually sent: a first
	// attempt that comes out too big is measured on a copy.
	var trial codectx.Session
	if sess != nil {
		trial.CopyFrom(sess)
		opt.Session = &trial
	}
	res, err := s.p.Context(ctx, opt)
	if err == nil {
		if n, werr := wireTokens(res); werr == nil && n > budget*wireSlack/100 && !res.TooSmall {
			opt.Budget = max(1, opt.Budget*budget/n)
			if sess != nil {
				trial.CopyFrom(sess)
			}
			res, err = s.p.Context(ctx, opt)
		}
	}
	if err == nil && sess != nil {
		sess.CopyFrom(&trial)
	}
	switch {
	case err == nil:
	case errors.Is(err, codectx.ErrNotIndexed) && f.Indexing:
		out := contextOut{Query: q, Files: []contextFileOut{}, Notes: []string{f.Note}, Indexing: true}
		return answer{text: notesText(out.Notes) + "No context yet: the index is being built. Use grep_code or glob_files meanwhile.\n", data: out}, nil
	default:
		return answer{}, queryError(err, q)
	}
	out := leanContext(res)
	out.Budget = budget
	out.Indexing = f.Indexing
	var files []string
	for _, cf := range res.Files {
		files = append(files, cf.Path)
	}
	out.Notes, out.StaleFiles = freshNotes(f, files)
	return answer{text: notesText(out.Notes) + res.Text(), data: out}, nil
}

// queryError words the library's empty-query error for an agent: a query
// of only stop words, or none, gives nothing to search for.
func queryError(err error, q string) error {
	if errors.Is(err, codectx.ErrEmptyQuery) {
		return fmt.Errorf("the query has nothing to search for: %q (describe the code in words, or pass keywords)", q)
	}
	return err
}

// depthArg accepts "auto", "", "0".."2" or a JSON number.
func depthArg(v any) (string, error) {
	switch d := v.(type) {
	case nil:
		return "", nil
	case string:
		return strings.TrimSpace(d), nil
	case float64:
		if d != float64(int(d)) {
			return "", fmt.Errorf("depth must be auto, 0, 1 or 2, got %v", d)
		}
		return strconv.Itoa(int(d)), nil
	}
	return "", fmt.Errorf("depth must be auto, 0, 1 or 2, got %v", v)
}

func (s *Server) graph(ctx context.Context, in graphIn) (answer, error) {
	f := s.svc.Fresh(ctx, s.opt.FreshWait)
	res, err := s.p.Graph(ctx, codectx.GraphOptions{Name: in.Name, Direction: in.Direction, Depth: in.Depth, MinConfidence: in.MinConfidence})
	if err != nil {
		if errors.Is(err, codectx.ErrNotIndexed) && f.Indexing {
			return answer{}, fmt.Errorf("the index is being built (%s); try again shortly, or use grep_code", f.Note)
		}
		return answer{}, err
	}
	out := leanGraph(res)
	var files []string
	for _, n := range res.Nodes {
		if n.Path != "" {
			files = append(files, n.Path)
		}
	}
	out.Notes, out.StaleFiles = freshNotes(f, files)
	return answer{text: notesText(out.Notes) + res.Text(), data: out}, nil
}

// freshNotes returns the lines to show with an index answer: the freshness
// note and the answer's files that changed on disk since they were indexed.
func freshNotes(f watch.Freshness, files []string) (notes, stale []string) {
	if f.Note != "" {
		notes = append(notes, f.Note)
	}
	for _, p := range files {
		if f.Stale != nil && f.Stale(p) && !slices.Contains(stale, p) {
			stale = append(stale, p)
		}
	}
	if len(stale) > 0 {
		notes = append(notes, fmt.Sprintf("[stale] changed on disk since indexing (re-index pending; read_file shows the current text): %s", strings.Join(stale, ", ")))
	}
	return notes, stale
}

func notesText(notes []string) string {
	var b strings.Builder
	for _, n := range notes {
		b.WriteString("note: ")
		b.WriteString(n)
		b.WriteString("\n")
	}
	if b.Len() > 0 {
		b.WriteString("\n")
	}
	return b.String()
}

// ---- status ----

// statusOut is index_status's structured result.
type statusOut struct {
	*codectx.Status
	Indexing    watch.State `json:"indexing"`
	Watching    bool        `json:"watching"`
	WatchNote   string      `json:"watch_note,omitempty"`
	WatchedDirs int         `json:"watched_dirs"`
}

func (s *Server) status(ctx context.Context, _ statusIn) (answer, error) {
	st, err := s.p.Status(ctx)
	if err != nil {
		return answer{}, err
	}
	ks := s.svc.Keeper().State()
	watching, why := s.svc.Watching()
	out := statusOut{Status: st, Indexing: ks, Watching: watching, WatchNote: why, WatchedDirs: s.svc.WatchedDirs()}
	var b strings.Builder
	b.WriteString(st.Text())
	switch {
	case ks.Running && ks.Phase == "wait":
		fmt.Fprintf(&b, "indexing: waiting for %s, which is writing this project; this pass runs after it\n", ks.WaitingFor)
	case ks.Running:
		fmt.Fprintf(&b, "indexing: running, %d%% (%s: %d/%d files, %d chunks)\n", ks.Percent, ks.Phase, ks.Done, ks.Total, ks.Chunks)
	case ks.LastError != "":
		fmt.Fprintf(&b, "indexing: idle; the last pass failed: %s\n", ks.LastError)
	default:
		b.WriteString("indexing: idle\n")
	}
	if ks.Last != nil {
		fmt.Fprintf(&b, "last pass: %s\n", ks.Last.Line())
	}
	if watching {
		fmt.Fprintf(&b, "watching: %d directories; changes are re-indexed within about a second\n", out.WatchedDirs)
	} else {
		fmt.Fprintf(&b, "watching: no (%s); a stat pass runs before each search\n", why)
	}
	return answer{text: b.String(), data: out}, nil
}

// reindexOut is reindex's structured result.
type reindexOut struct {
	Started bool                  `json:"started"`
	Summary *codectx.IndexSummary `json:"summary,omitempty"`
	State   watch.State           `json:"indexing"`
}

func (s *Server) reindex(ctx context.Context, in reindexIn) (answer, error) {
	k := s.svc.Keeper()
	if in.Background {
		k.Request()
		return answer{text: "index pass requested; index_status shows its progress\n", data: reindexOut{Started: true, State: k.State()}}, nil
	}
	if err := k.Sync(ctx); err != nil {
		return answer{}, fmt.Errorf("reindex: %w", err)
	}
	st := k.State()
	out := reindexOut{Started: true, Summary: st.Last, State: st}
	text := "index pass finished\n"
	if st.Last != nil {
		text = "index pass finished: " + st.Last.Line() + "\n"
	}
	return answer{text: text, data: out}, nil
}
