package exact

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"regexp"
	"regexp/syntax"
	"strings"
	"time"
	"unicode/utf8"

	"codectx/internal/scan"
)

// Grep defaults and limits.
const (
	DefaultHeadLimit  = 20
	DefaultMaxResults = 50
	DefaultMaxChars   = 24000
	MaxGrepLineChars  = 300     // match and context text is cut here, with "…"
	MaxGrepFileSize   = 2 << 20 // larger files are not searched
	SuggestContext    = 20      // a suggested read starts this many lines above the match
	SuggestLimit      = 80
	MaxSuggestedReads = 3
)

// Engines.
const (
	EngineAuto   = "auto"
	EngineRG     = "rg"
	EngineNative = "native"
	// EngineIndex is reported (never requested) when GrepOptions.Index
	// selected the files and the native engine searched them.
	EngineIndex = "index"
)

// grepTimeout bounds one search; tests shorten it.
var grepTimeout = 8 * time.Second

// GrepOptions describe a search.
type GrepOptions struct {
	Root string // project root
	// Path is the file or directory to search, relative to Root (default:
	// the root). A Path the project excludes (inside a skipped or hidden
	// directory, or ignored) is not searched and the result notes why.
	Path string
	// Glob filters files with gitignore-style syntax, like rg -g: without a
	// slash it matches the file name at any depth ("*.go"); with one it is
	// anchored to Path ("internal/**/*.go"); "{a,b}" alternatives; a leading
	// "!" excludes. It does not apply when Path is a file.
	Glob       string
	Pattern    string // Go/RE2 regular expression, or a string with Fixed
	IgnoreCase bool
	Fixed      bool
	Context    int    // lines of context around each match
	HeadLimit  int    // matching lines per file; default 20
	MaxResults int    // matching lines in all; default 50
	MaxChars   int    // budget of Text(); default 24000
	Engine     string // "auto" (default), "rg" or "native"
	// Index, when set, selects the files that can hold a match (a trigram
	// index built earlier, see FileIndex); they are then searched by the
	// native engine. It is not used with Engine "rg", when Path is a file,
	// or when it cannot narrow the pattern.
	Index FileIndex
}

// FileIndex selects the files a search must read. Candidates returns,
// sorted by path, every file under sub ("" for the root) that the scanner
// lists with maxFileSize and that may hold a line matching expr (Go regexp
// syntax), including every file changed since the index was built; ok is
// false when it cannot narrow the search. internal/grepindex implements it.
type FileIndex interface {
	Candidates(ctx context.Context, expr, sub string, maxFileSize int64) (files []scan.File, ok bool, err error)
}

// GrepLine is a matching line or a context line.
type GrepLine struct {
	Path string `json:"path"` // relative to the root, forward slashes
	Line int    `json:"line"`
	Text string `json:"text"` // cut to 300 characters with "…"
	Kind string `json:"kind"` // "match" or "context"
}

// Line kinds.
const (
	KindMatch   = "match"
	KindContext = "context"
)

// SuggestedRead is a Read worth doing next.
type SuggestedRead struct {
	Path   string `json:"path"`
	Offset int    `json:"offset"`
	Limit  int    `json:"limit"`
}

// GrepResult is what a search found, in path then line order.
type GrepResult struct {
	Pattern        string          `json:"pattern"`
	Engine         string          `json:"engine"` // engine that ran: "rg", "native", or "index" (GrepOptions.Index)
	Lines          []GrepLine      `json:"lines"`
	Matches        int             `json:"matches"`                // matching lines in Lines
	Files          int             `json:"files"`                  // files with a match in Lines
	CappedFiles    []string        `json:"capped_files,omitempty"` // files with more than head_limit matching lines
	Partial        bool            `json:"partial"`                // more matches exist (max_results) or the search timed out
	Notes          []string        `json:"notes,omitempty"`
	SuggestedReads []SuggestedRead `json:"suggested_reads"`

	maxChars, headLimit, maxResults int
}

// fileHits are one file's matching lines (at most head limit + 1, so a cap
// is visible) and the context lines around the first head limit of them.
type fileHits struct {
	path string
	hits []hit
	ctx  map[int]string
}

type hit struct {
	line int
	text string
}

// grepJob is a validated search.
type grepJob struct {
	opts     GrepOptions
	rootAbs  string
	rootReal string // rootAbs with its symbolic links resolved; files are opened below it
	pathAbs  string
	pathRel  string // "." for the root
	isFile   bool
	re       *regexp.Regexp // matches one line (no terminator)
	expr     string         // re's source
	glob     *userGlob
	deadline time.Duration
	cx       *scan.IgnoreChecker // the root's .codectxignore files
}

// Grep searches the project. See GrepOptions and the package comment.
func Grep(ctx context.Context, opts GrepOptions) (*GrepResult, error) {
	job, err := newGrepJob(opts)
	if err != nil {
		return nil, err
	}
	res := &GrepResult{Pattern: opts.Pattern, Lines: []GrepLine{}, SuggestedReads: []SuggestedRead{},
		maxChars: job.opts.MaxChars, headLimit: job.opts.HeadLimit, maxResults: job.opts.MaxResults}

	if reason := excludedReason(job.rootAbs, job.pathRel, job.isFile, job.cx); reason != "" {
		res.Engine = EngineNative
		res.Notes = append(res.Notes, fmt.Sprintf("path %q is %s, so it is not searched", job.pathRel, reason))
		return res, nil
	}

	parentCtx := ctx
	ctx, cancel := context.WithTimeout(parentCtx, job.deadline)
	defer cancel()

	engine, err := pickEngine(job.opts.Engine)
	if err != nil {
		return nil, err
	}
	var files []fileHits
	indexed := false
	if job.opts.Index != nil && !job.isFile && pinnedEngine(job.opts.Engine) != EngineRG {
		files, indexed, err = job.runIndexed(ctx)
		if err != nil && parentCtx.Err() == nil && !errors.Is(err, context.DeadlineExceeded) {
			res.Notes = append(res.Notes, fmt.Sprintf("grep index unusable (%s); searched every file", oneLine(err.Error())))
			files, indexed, err = nil, false, nil
		}
		if indexed {
			engine = EngineIndex
		}
	}
	switch {
	case indexed:
	case job.isFile:
		var note string
		engine = EngineNative
		files, note, err = job.searchOne(ctx)
		if note != "" {
			res.Notes = append(res.Notes, note)
		}
	case engine == EngineRG:
		var started bool
		files, started, err = job.runRG(ctx)
		if !started && parentCtx.Err() == nil {
			if pinnedEngine(job.opts.Engine) == EngineRG {
				return nil, err
			}
			res.Notes = append(res.Notes, fmt.Sprintf("ripgrep failed (%s); used the native engine", oneLine(err.Error())))
			engine = EngineNative
			files, err = job.runNative(ctx)
		}
	default:
		files, err = job.runNative(ctx)
	}
	res.Engine = engine
	timedOut := false
	if err != nil {
		if perr := parentCtx.Err(); perr != nil {
			return nil, fmt.Errorf("grep %q: %w", opts.Pattern, perr)
		}
		if !errors.Is(err, context.DeadlineExceeded) {
			return nil, err
		}
		timedOut = true
	}
	job.assemble(res, files)
	if timedOut {
		res.Partial = true
		res.Notes = append(res.Notes, fmt.Sprintf("search stopped after %s; results are partial: narrow path, glob or the pattern", job.deadline))
	}
	return res, nil
}

// newGrepJob validates options and compiles the pattern.
func newGrepJob(opts GrepOptions) (*grepJob, error) {
	if opts.Pattern == "" {
		return nil, newError(ErrEmptyPattern, "empty pattern")
	}
	if strings.ContainsAny(opts.Pattern, "\n\r") {
		return nil, newError(ErrInvalidPattern, "invalid pattern %q: must be one line", opts.Pattern)
	}
	if opts.HeadLimit <= 0 {
		opts.HeadLimit = DefaultHeadLimit
	}
	if opts.MaxResults <= 0 {
		opts.MaxResults = DefaultMaxResults
	}
	if opts.MaxChars <= 0 {
		opts.MaxChars = DefaultMaxChars
	}
	if opts.Context < 0 {
		opts.Context = 0
	}
	switch opts.Engine {
	case "", EngineAuto, EngineRG, EngineNative:
	default:
		return nil, newError(ErrBadOption, "engine %q: want auto, rg or native", opts.Engine)
	}
	re, expr, err := compileLine(opts.Pattern, opts.IgnoreCase, opts.Fixed)
	if err != nil {
		return nil, err
	}
	t, err := resolveTarget("grep", opts.Root, opts.Path)
	if err != nil {
		return nil, err
	}
	abs, rel, rootAbs, rootReal, fi := t.abs, t.rel, t.rootAbs, t.rootReal, t.info
	job := &grepJob{opts: opts, rootAbs: rootAbs, rootReal: rootReal, pathAbs: abs, pathRel: rel, isFile: !fi.IsDir(),
		cx: scan.NewIgnoreChecker(rootAbs, scan.CodectxIgnoreFile),
		re: re, expr: expr, deadline: grepTimeout}
	if opts.Glob != "" && !job.isFile {
		g, err := newUserGlob(opts.Glob, rel)
		if err != nil {
			return nil, err
		}
		job.glob = g
	}
	return job, nil
}

// target is the path an exact tool runs on, resolved inside the root.
type target struct {
	abs, rel          string // the path, absolute and relative to the root
	rootAbs, rootReal string // the root, absolute and with symlinks resolved
	info              fs.FileInfo
}

// resolveTarget resolves path inside root for tool (named in errors) and
// checks that it exists.
func resolveTarget(tool, root, path string) (*target, error) {
	abs, rel, err := ResolveInRoot(root, path)
	if err != nil {
		return nil, err
	}
	rootAbs, rootReal, err := rootPaths(root)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, newError(ErrNotFound, "path %q does not exist", rel)
	case err != nil:
		return nil, fmt.Errorf("%s %s: %w", tool, rel, err)
	}
	return &target{abs: abs, rel: rel, rootAbs: rootAbs, rootReal: rootReal, info: fi}, nil
}

// compileLine builds the line regexp. Errors name the offending part on one
// line: invalid pattern "a(b": missing closing ): "a(b".
func compileLine(pattern string, ignoreCase, fixed bool) (*regexp.Regexp, string, error) {
	expr := pattern
	if fixed {
		expr = regexp.QuoteMeta(pattern)
	} else if _, err := syntax.Parse(pattern, syntax.Perl); err != nil {
		var se *syntax.Error
		if errors.As(err, &se) {
			return nil, "", newError(ErrInvalidPattern, "invalid pattern %q: %s: %q", pattern, se.Code, se.Expr)
		}
		return nil, "", newError(ErrInvalidPattern, "invalid pattern %q: %s", pattern, oneLine(err.Error()))
	}
	if ignoreCase {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, "", newError(ErrInvalidPattern, "invalid pattern %q: %s", pattern, oneLine(err.Error()))
	}
	return re, expr, nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// pinnedEngine is the engine a caller insisted on, "" for auto.
func pinnedEngine(requested string) string {
	if requested == EngineRG || requested == EngineNative {
		return requested
	}
	return ""
}

// pickEngine resolves "auto" ("" is auto).
func pickEngine(requested string) (string, error) {
	switch requested {
	case EngineNative:
		return EngineNative, nil
	case EngineRG:
		if rgPath() == "" {
			return "", newError(ErrNoRipgrep, "engine rg: ripgrep (rg) is not on PATH")
		}
		return EngineRG, nil
	}
	if rgPath() != "" {
		return EngineRG, nil
	}
	return EngineNative, nil
}

// rgPath returns ripgrep's path, "" when it is not on PATH.
func rgPath() string {
	p, err := exec.LookPath("rg")
	if err != nil {
		return ""
	}
	return p
}

// excludedReason says why a Path lies outside the project's file set ("" when
// it does not): a skipped or hidden directory on its way, or an ignore rule.
// cx holds the root's .codectxignore files.
func excludedReason(rootAbs, rel string, isFile bool, cx *scan.IgnoreChecker) string {
	if rel == "." || rel == "" {
		return ""
	}
	if d, ok := scan.SkippedAncestor(rootAbs, rel, !isFile, cx); ok {
		return fmt.Sprintf("inside the skipped directory %q (hidden, dependencies or build output)", d)
	}
	if scan.NewIgnoreChecker(rootAbs, scan.GitIgnoreFile).Excluded(rel, !isFile) {
		return "ignored by .gitignore"
	}
	if cx.Excluded(rel, !isFile) {
		return "ignored by .codectxignore"
	}
	return ""
}

// assemble applies the budgets (head limit per file, max results in all),
// adds context lines and suggested reads.
func (j *grepJob) assemble(res *GrepResult, files []fileHits) {
	total := 0
	for _, f := range files {
		if len(f.hits) == 0 {
			continue
		}
		hits := f.hits
		capped := len(hits) > j.opts.HeadLimit
		if capped {
			hits = hits[:j.opts.HeadLimit]
		}
		if room := j.opts.MaxResults - total; len(hits) > room {
			hits = hits[:room]
			res.Partial = true
			capped = false
		}
		if res.Partial {
			res.Notes = append(res.Notes, fmt.Sprintf("stopped at max_results %d matching lines; more exist: narrow path, glob or the pattern", j.opts.MaxResults))
		}
		if len(hits) == 0 {
			break
		}
		if capped {
			res.CappedFiles = append(res.CappedFiles, f.path)
		}
		total += len(hits)
		res.Files++
		res.Matches += len(hits)
		j.emitFile(res, f, hits)
		if len(res.SuggestedReads) < MaxSuggestedReads {
			res.SuggestedReads = append(res.SuggestedReads, SuggestedRead{
				Path: f.path, Offset: max(1, hits[0].line-SuggestContext), Limit: SuggestLimit})
		}
		if res.Partial {
			break
		}
	}
}

// emitFile appends a file's kept matches and their context lines.
func (j *grepJob) emitFile(res *GrepResult, f fileHits, hits []hit) {
	n := j.opts.Context
	if n == 0 || len(f.ctx) == 0 {
		for _, h := range hits {
			res.Lines = append(res.Lines, GrepLine{Path: f.path, Line: h.line, Text: h.text, Kind: KindMatch})
		}
		return
	}
	isHit := map[int]string{}
	for _, h := range hits {
		isHit[h.line] = h.text
	}
	seen := map[int]bool{}
	for _, h := range hits {
		for l := h.line - n; l <= h.line+n; l++ {
			if l < 1 || seen[l] {
				continue
			}
			if t, ok := isHit[l]; ok {
				seen[l] = true
				res.Lines = append(res.Lines, GrepLine{Path: f.path, Line: l, Text: t, Kind: KindMatch})
			} else if t, ok := f.ctx[l]; ok {
				seen[l] = true
				res.Lines = append(res.Lines, GrepLine{Path: f.path, Line: l, Text: t, Kind: KindContext})
			}
		}
	}
}

// Text renders the result (see Render) with the suggested reads as plain
// locations, "path lines a-b".
func (r *GrepResult) Text() string { return r.Render(nil) }

// ReadHint renders one suggested read as what the reader should run: the
// CLI, the shell and the MCP server each name their own command or tool.
type ReadHint func(SuggestedRead) string

// Location is the ReadHint of Text: "path lines a-b".
func Location(s SuggestedRead) string {
	return fmt.Sprintf("%s lines %d-%d", renderPath(s.Path), s.Offset, s.Offset+s.Limit-1)
}

// Render renders the result within the character budget: "path:line: text"
// for matches, "path-line- text" for context, "--" between separate blocks,
// then a summary, notes and the suggested reads, each rendered by hint
// (nil means Location).
func (r *GrepResult) Render(hint ReadHint) string {
	if hint == nil {
		hint = Location
	}
	budget := r.maxChars
	if budget <= 0 {
		budget = DefaultMaxChars
	}
	headLimit := r.headLimit
	if headLimit <= 0 {
		headLimit = DefaultHeadLimit
	}
	var b strings.Builder
	if len(r.Lines) == 0 {
		fmt.Fprintf(&b, "no matches for %q\n", r.Pattern)
		for _, n := range r.Notes {
			b.WriteString(n + "\n")
		}
		return b.String()
	}
	capped := map[string]bool{}
	for _, p := range r.CappedFiles {
		capped[p] = true
	}
	hasContext := false
	for _, l := range r.Lines {
		if l.Kind == KindContext {
			hasContext = true
			break
		}
	}
	used := 0
	shown := 0
	add := func(s string) bool {
		n := utf8.RuneCountInString(s) + 1
		if used+n > budget {
			return false
		}
		b.WriteString(s)
		b.WriteByte('\n')
		used += n
		return true
	}
	cut := false
	for i, l := range r.Lines {
		if hasContext && i > 0 {
			prev := r.Lines[i-1]
			if prev.Path != l.Path || prev.Line+1 != l.Line {
				if !add("--") {
					cut = true
					break
				}
			}
		}
		sep := ":"
		if l.Kind == KindContext {
			sep = "-"
		}
		if !add(fmt.Sprintf("%s%s%d%s %s", renderPath(l.Path), sep, l.Line, sep, l.Text)) {
			cut = true
			break
		}
		shown++
		lastOfFile := i == len(r.Lines)-1 || r.Lines[i+1].Path != l.Path
		if lastOfFile && capped[l.Path] {
			if !add(fmt.Sprintf("%s: more matching lines not shown (head_limit %d)", renderPath(l.Path), headLimit)) {
				cut = true
				break
			}
		}
	}
	if cut {
		fmt.Fprintf(&b, "[output cut at %d characters: %d more lines not shown; narrow path, glob or the pattern]\n",
			budget, len(r.Lines)-shown)
	}
	fmt.Fprintf(&b, "%d %s in %d %s", r.Matches, plural(r.Matches, "match", "matches"), r.Files, plural(r.Files, "file", "files"))
	if r.Partial {
		b.WriteString(" (partial)")
	}
	b.WriteString("\n")
	for _, n := range r.Notes {
		b.WriteString(n + "\n")
	}
	if len(r.SuggestedReads) > 0 {
		b.WriteString("suggested reads:\n")
		for _, s := range r.SuggestedReads {
			b.WriteString(hint(s) + "\n")
		}
	}
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
