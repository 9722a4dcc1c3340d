package codectx

import (
	"context"
	"regexp"
	"strings"
	"time"

	"codectx/internal/exact"
	"codectx/internal/grepindex"
)

// GlobFile is one file of a GlobResult.
type GlobFile struct {
	Path    string    `json:"path"` // relative to the root, forward slashes
	Size    int64     `json:"size"`
	ModTime time.Time `json:"mod_time"`
}

// GlobResult lists the files a glob matched.
type GlobResult struct {
	Pattern   string     `json:"pattern"`
	Path      string     `json:"path"` // the directory listed under ("" is the root)
	Sort      string     `json:"sort"` // "path" or "mtime"
	Files     []GlobFile `json:"files"`
	Total     int        `json:"total"`     // matching files before the limit
	Truncated bool       `json:"truncated"` // the limit cut the list
	Notes     []string   `json:"notes,omitempty"`

	src *exact.GlobResult
}

func newGlobResult(r *exact.GlobResult) *GlobResult {
	return &GlobResult{Pattern: r.Pattern, Path: r.Path, Sort: r.Sort, Total: r.Total, Truncated: r.Truncated, Notes: r.Notes,
		Files: convertSlice(r.Files, func(f exact.GlobFile) GlobFile { return GlobFile(f) }), src: r}
}

// Text renders one path per line and, when the list was cut, how many
// files matched: the result as Glob returned it ("" for a GlobResult made
// otherwise).
func (r *GlobResult) Text() string {
	if r.src == nil {
		return ""
	}
	return r.src.Text()
}

// GrepLine is a matching line or a line of context around one.
type GrepLine struct {
	Path string `json:"path"` // relative to the root, forward slashes
	Line int    `json:"line"`
	Text string `json:"text"` // cut to 300 characters with "…"
	Kind string `json:"kind"` // "match" or "context"
}

// SuggestedRead is a Read worth doing next: Limit lines of Path from Offset.
type SuggestedRead struct {
	Path   string `json:"path"`
	Offset int    `json:"offset"`
	Limit  int    `json:"limit"`
}

// GrepResult is what a line search found, in path then line order.
type GrepResult struct {
	Pattern        string          `json:"pattern"`
	Engine         string          `json:"engine"` // engine that ran: "rg" or "native"
	Lines          []GrepLine      `json:"lines"`
	Matches        int             `json:"matches"`                // matching lines in Lines
	Files          int             `json:"files"`                  // files with a match in Lines
	CappedFiles    []string        `json:"capped_files,omitempty"` // files with more than HeadLimit matching lines
	Partial        bool            `json:"partial"`                // more matches exist (MaxResults) or the search timed out
	Notes          []string        `json:"notes,omitempty"`
	SuggestedReads []SuggestedRead `json:"suggested_reads"`

	src *exact.GrepResult
}

func newGrepResult(r *exact.GrepResult) *GrepResult {
	return &GrepResult{Pattern: r.Pattern, Engine: r.Engine, Matches: r.Matches, Files: r.Files, CappedFiles: r.CappedFiles,
		Partial: r.Partial, Notes: r.Notes,
		Lines:          convertSlice(r.Lines, func(l exact.GrepLine) GrepLine { return GrepLine(l) }),
		SuggestedReads: convertSlice(r.SuggestedReads, func(s exact.SuggestedRead) SuggestedRead { return SuggestedRead(s) }),
		src:            r}
}

// ReadHint renders a suggested read as the reader's own command (see
// GrepResult.Render): each front end has its own.
type ReadHint func(SuggestedRead) string

// Text renders the result as Render(nil) does.
func (r *GrepResult) Text() string { return r.Render(nil) }

// Render renders the result as Grep returned it ("" for a GrepResult made
// otherwise) within GrepOptions.MaxChars:
// "path:line: text" for matches, "path-line- text" for context, "--"
// between separate blocks, then a summary, notes and the suggested reads,
// each rendered by hint (nil: "path lines a-b").
func (r *GrepResult) Render(hint ReadHint) string {
	if r.src == nil {
		return ""
	}
	return r.src.Render(hint.internal())
}

// internal is h for internal/exact's renderers (nil stays nil: their default).
func (h ReadHint) internal() exact.ReadHint {
	if h == nil {
		return nil
	}
	return func(s exact.SuggestedRead) string { return h(SuggestedRead(s)) }
}

// ReadLine is one numbered line of a ReadResult.
type ReadLine struct {
	Number int    `json:"number"`
	Text   string `json:"text"`
}

// ReadResult is a page of a file.
type ReadResult struct {
	Path       string     `json:"path"`        // relative to the root, forward slashes
	Offset     int        `json:"offset"`      // number of the first line returned
	End        int        `json:"end"`         // number of the last line returned (Offset-1 when none)
	TotalLines int        `json:"total_lines"` // lines in the file
	More       bool       `json:"more"`        // lines follow End
	Lines      []ReadLine `json:"lines"`

	src *exact.ReadResult
}

func newReadResult(r *exact.ReadResult) *ReadResult {
	return &ReadResult{Path: r.Path, Offset: r.Offset, End: r.End, TotalLines: r.TotalLines, More: r.More,
		Lines: convertSlice(r.Lines, func(l exact.ReadLine) ReadLine { return ReadLine(l) }), src: r}
}

// Text renders the page as Render(nil) does.
func (r *ReadResult) Text() string { return r.Render(nil) }

// Render renders the page as Read returned it ("" for a ReadResult made
// otherwise): a header, then "%6d→text" lines. When more lines follow, the
// header names the next page as hint renders it (the reader's own command;
// nil: "path lines a-b").
func (r *ReadResult) Render(hint ReadHint) string {
	if r.src == nil {
		return ""
	}
	return r.src.Render(hint.internal())
}

// Exact-search defaults.
const (
	DefaultGlobLimit      = 100
	DefaultGrepHeadLimit  = 20
	DefaultGrepMaxResults = 50
	DefaultGrepMaxChars   = 24000
	DefaultReadLimit      = 200
	MaxReadLimit          = 2000
)

// Exact-search error kinds; match them with errors.Is.
var (
	ErrOutsideRoot  = exact.ErrOutsideRoot
	ErrFileNotFound = exact.ErrNotFound
	ErrBadOption    = exact.ErrBadOption
)

// GlobOptions describe a file listing; paths are relative to the project root.
type GlobOptions struct {
	// Pattern is a doublestar pattern, e.g. "**/*_test.go". A pattern without
	// a slash matches file names at any depth ("*.py" is "**/*.py"), as
	// GrepOptions.Glob and rg -g do.
	Pattern string
	Path    string // directory to list under (default: the root)
	Limit   int    // most files returned; 0 means 100
	Sort    string // "path" (default) or "mtime" (newest first)
}

// GrepOptions describe a line search; paths are relative to the project root.
type GrepOptions struct {
	Path       string // file or directory to search (default: the root)
	Glob       string // file filter, like rg -g ("*.go", "internal/**/*.ts", "!*_test.go")
	Pattern    string // Go/RE2 regular expression, or a literal string with Fixed
	IgnoreCase bool
	Fixed      bool
	Word       bool // match whole words only (like rg -w)
	Context    int  // lines of context around each match
	HeadLimit  int  // matching lines per file; 0 means 20
	MaxResults int  // matching lines in all; 0 means 50
	MaxChars   int  // budget of Text(); 0 means 24000
	// Engine is "auto", "rg" or "native"; "" means auto for the
	// package-level Grep and the project's Config.GrepEngine for
	// Project.Grep.
	Engine string
	// DBPath is a database whose grep index (a trigram side file written by
	// Index) narrows the search to the files that can match when it exists
	// for this root; files changed since are searched directly, so the
	// result is the same. "" searches every file; Project.Grep uses its own.
	DBPath string
}

// ReadOptions select lines of one file.
type ReadOptions struct {
	File   string // relative to the root, or absolute inside it
	Offset int    // first line, 1-based; 0 means 1
	Limit  int    // number of lines; 0 means 200, at most 2000
}

// Glob lists the files under root matching a pattern, with the scanner's
// rules (ignore files, skipped directories; any extension). It needs no index.
func Glob(ctx context.Context, root string, opt GlobOptions) (*GlobResult, error) {
	pattern := opt.Pattern
	if p := strings.TrimSpace(pattern); p != "" && !strings.Contains(p, "/") {
		pattern = "**/" + p
	}
	r, err := exact.Glob(ctx, exact.GlobOptions{Root: root, Pattern: pattern, Path: opt.Path, Limit: opt.Limit, Sort: opt.Sort})
	if err != nil {
		return nil, err
	}
	return newGlobResult(r), nil
}

// Grep searches the lines of the files under root. It needs no index
// (see GrepOptions.DBPath for using one).
func Grep(ctx context.Context, root string, opt GrepOptions) (*GrepResult, error) {
	if opt.Word && opt.Pattern != "" {
		// Word boundaries around the whole alternation, as rg -w does.
		p := opt.Pattern
		if opt.Fixed {
			p = regexp.QuoteMeta(p)
		}
		opt.Pattern, opt.Fixed = `\b(?:`+p+`)\b`, false
	}
	eo := exact.GrepOptions{
		Root: root, Path: opt.Path, Glob: opt.Glob, Pattern: opt.Pattern,
		IgnoreCase: opt.IgnoreCase, Fixed: opt.Fixed, Context: opt.Context,
		HeadLimit: opt.HeadLimit, MaxResults: opt.MaxResults, MaxChars: opt.MaxChars, Engine: opt.Engine,
	}
	if opt.DBPath != "" {
		if abs, err := ResolveRoot(root); err == nil {
			// A missing, damaged or foreign index only means a full search.
			if ix, err := grepindex.Open(grepindex.Path(opt.DBPath, abs), abs); err == nil {
				defer ix.Close()
				eo.Index = ix
			}
		}
	}
	r, err := exact.Grep(ctx, eo)
	if err != nil {
		return nil, err
	}
	return newGrepResult(r), nil
}

// updateGrepIndex brings the project's grep index (a side file next to the
// database) up to date after an index run; a failure only costs speed, so
// it is logged, not returned.
func (p *Project) updateGrepIndex(ctx context.Context) {
	start := time.Now()
	path := grepindex.Path(p.db.Path(), p.root)
	rebuilt, err := grepindex.Update(ctx, p.root, path, grepindex.BuildOptions{MaxFileSize: exact.MaxGrepFileSize})
	if err != nil {
		p.log.Warn("grep index not updated", "path", path, "err", err)
		return
	}
	p.log.Debug("grep index checked", "path", path, "rebuilt", rebuilt, "elapsed", time.Since(start))
}

// Read returns numbered lines of one file inside root. It needs no index.
func Read(ctx context.Context, root string, opt ReadOptions) (*ReadResult, error) {
	r, err := exact.Read(ctx, exact.ReadOptions{Root: root, File: opt.File, Offset: opt.Offset, Limit: opt.Limit})
	if err != nil {
		return nil, err
	}
	return newReadResult(r), nil
}

// Glob lists the project's files matching a pattern (see the package-level Glob).
func (p *Project) Glob(ctx context.Context, opt GlobOptions) (*GlobResult, error) {
	return Glob(ctx, p.root, opt)
}

// Grep searches the project's files (see the package-level Grep); an
// Engine left empty is the project's Config.GrepEngine.
func (p *Project) Grep(ctx context.Context, opt GrepOptions) (*GrepResult, error) {
	if opt.Engine == "" {
		opt.Engine = p.cfg.GrepEngine
	}
	if opt.DBPath == "" {
		opt.DBPath = p.db.Path()
	}
	return Grep(ctx, p.root, opt)
}

// Read returns numbered lines of one of the project's files (see the
// package-level Read).
func (p *Project) Read(ctx context.Context, opt ReadOptions) (*ReadResult, error) {
	return Read(ctx, p.root, opt)
}
