package codectx

import (
	"context"
	"regexp"
	"strings"
	"time"

	"codectx/internal/exact"
	"codectx/internal/grepindex"
)

// Exact-search result types re-exported for callers. Each has snake_case
// JSON tags and a Text() rendering (budgeted, with hints on what to do next).
type (
	GlobResult    = exact.GlobResult
	GlobFile      = exact.GlobFile
	GrepResult    = exact.GrepResult
	GrepLine      = exact.GrepLine
	ReadResult    = exact.ReadResult
	ReadLine      = exact.ReadLine
	SuggestedRead = exact.SuggestedRead
	// ReadHint renders a suggested read as the reader's own command (see
	// GrepResult.Render); each front end has its own.
	ReadHint = exact.ReadHint
)

// Exact-search defaults.
const (
	DefaultGlobLimit      = exact.DefaultGlobLimit
	DefaultGrepHeadLimit  = exact.DefaultHeadLimit
	DefaultGrepMaxResults = exact.DefaultMaxResults
	DefaultGrepMaxChars   = exact.DefaultMaxChars
	DefaultReadLimit      = exact.DefaultReadLimit
	MaxReadLimit          = exact.MaxReadLimit
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
	return exact.Glob(ctx, exact.GlobOptions{Root: root, Pattern: pattern, Path: opt.Path, Limit: opt.Limit, Sort: opt.Sort})
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
	return exact.Grep(ctx, eo)
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
	return exact.Read(ctx, exact.ReadOptions{Root: root, File: opt.File, Offset: opt.Offset, Limit: opt.Limit})
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
