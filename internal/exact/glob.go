package exact

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"codectx/internal/scan"
)

// DefaultGlobLimit is GlobOptions.Limit's default.
const DefaultGlobLimit = 100

// Glob sort orders.
const (
	SortPath  = "path"
	SortMtime = "mtime"
)

// GlobOptions describe a file listing.
type GlobOptions struct {
	Root    string // project root
	Path    string // directory to list under, relative to Root (default: the root)
	Pattern string // doublestar pattern relative to Path: "**/*.java", "src/**/Memory*.go"
	Limit   int    // default 100
	Sort    string // "path" (default) or "mtime" (newest first)
}

// GlobFile is one listed file.
type GlobFile struct {
	Path    string    `json:"path"` // relative to the root, forward slashes
	Size    int64     `json:"size"`
	ModTime time.Time `json:"mod_time"`
}

// GlobResult lists the matching files.
type GlobResult struct {
	Pattern   string     `json:"pattern"`
	Path      string     `json:"path"`
	Sort      string     `json:"sort"`
	Files     []GlobFile `json:"files"`
	Total     int        `json:"total"`     // matching files before the limit
	Truncated bool       `json:"truncated"` // Limit cut the list
	Notes     []string   `json:"notes,omitempty"`
}

// Glob lists the project's files (the indexer's ignore rules, any
// extension, any size) under Path whose path relative to Path matches the
// doublestar pattern, sorted by path or by modification time (newest first).
func Glob(ctx context.Context, opts GlobOptions) (*GlobResult, error) {
	pattern := strings.TrimPrefix(filepath.ToSlash(strings.TrimSpace(opts.Pattern)), "./")
	switch {
	case pattern == "":
		return nil, newError(ErrEmptyPattern, "empty pattern")
	case strings.HasPrefix(pattern, "/"):
		return nil, newError(ErrInvalidPattern, "invalid pattern %q: must be relative to path", opts.Pattern)
	case pattern == ".." || strings.HasPrefix(pattern, "../") || strings.Contains(pattern, "/../") || strings.HasSuffix(pattern, "/.."):
		return nil, newError(ErrOutsideRoot, "pattern %q is outside the project root", opts.Pattern)
	case !doublestar.ValidatePattern(pattern):
		return nil, newError(ErrInvalidPattern, "invalid pattern %q: bad glob syntax", opts.Pattern)
	}
	if opts.Limit < 0 {
		return nil, newError(ErrBadOption, "limit %d: must be 1 or more", opts.Limit)
	}
	if opts.Limit == 0 {
		opts.Limit = DefaultGlobLimit
	}
	switch opts.Sort {
	case "":
		opts.Sort = SortPath
	case SortPath, SortMtime:
	default:
		return nil, newError(ErrBadOption, "sort %q: want path or mtime", opts.Sort)
	}
	t, err := resolveTarget("glob", opts.Root, opts.Path)
	if err != nil {
		return nil, err
	}
	rel, rootAbs := t.rel, t.rootAbs
	if !t.info.IsDir() {
		return nil, newError(ErrNotDir, "path %q is not a directory", rel)
	}

	res := &GlobResult{Pattern: opts.Pattern, Path: rel, Sort: opts.Sort, Files: []GlobFile{}}
	if reason := excludedReason(rootAbs, rel, false, scan.NewIgnoreChecker(rootAbs, scan.CodectxIgnoreFile)); reason != "" {
		res.Notes = append(res.Notes, fmt.Sprintf("path %q is %s, so it is not listed", rel, reason))
		return res, nil
	}
	sub := ""
	if rel != "." {
		sub = rel
	}
	sc, err := scan.Scan(ctx, rootAbs, scan.Options{AllFiles: true, MaxFileSize: math.MaxInt64, Sub: sub})
	if err != nil {
		return nil, fmt.Errorf("glob: %w", err)
	}
	for _, f := range sc.Files {
		name := f.Path
		if sub != "" {
			name = strings.TrimPrefix(name, sub+"/")
		}
		if doublestar.MatchUnvalidated(pattern, name) {
			res.Files = append(res.Files, GlobFile{Path: f.Path, Size: f.Size, ModTime: time.Unix(0, f.ModTime)})
		}
	}
	if opts.Sort == SortMtime {
		sort.SliceStable(res.Files, func(a, b int) bool {
			return res.Files[a].ModTime.After(res.Files[b].ModTime)
		})
	}
	res.Total = len(res.Files)
	if len(res.Files) > opts.Limit {
		res.Files = res.Files[:opts.Limit]
		res.Truncated = true
	}
	return res, nil
}

// Text renders one path per line and, when cut, how many there were.
func (r *GlobResult) Text() string {
	var b strings.Builder
	if r.Total == 0 {
		fmt.Fprintf(&b, "no files match %q under %s\n", r.Pattern, displayPath(r.Path))
	}
	for _, f := range r.Files {
		b.WriteString(renderPath(f.Path) + "\n")
	}
	if r.Truncated {
		fmt.Fprintf(&b, "[showing %d of %d files; narrow the pattern or path]\n", len(r.Files), r.Total)
	}
	for _, n := range r.Notes {
		b.WriteString(n + "\n")
	}
	return b.String()
}
