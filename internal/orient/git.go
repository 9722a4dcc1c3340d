package orient

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"codectx/internal/scan"
)

// ErrBadBase is returned when the base ref names no commit.
var ErrBadBase = errors.New("base ref does not exist")

// FileChange is one changed file of the work tree against a base.
type FileChange struct {
	// Status is A (added or untracked), M (modified), D (deleted) or R
	// (renamed, possibly modified).
	Status  string `json:"status"`
	Path    string `json:"path"`               // new path ("" when deleted)
	OldPath string `json:"old_path,omitempty"` // path at the base (A: "")
	Hunks   []Hunk `json:"-"`
	// Whole is true when every line counts as changed (added or deleted
	// files, and files changed outside git).
	Whole bool `json:"-"`
}

// Hunk is one diff hunk's line ranges; a count of 0 is an insertion
// (new side) or a pure deletion (old side) after that line.
type Hunk struct {
	OldStart, OldCount, NewStart, NewCount int
}

// git runs a read-only git command in dir and returns its stdout.
func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	return scan.GitOutput(ctx, dir, args...)
}

// GitHead returns the commit HEAD points at in dir ("" when there is none).
func GitHead(ctx context.Context, dir string) string {
	out, err := git(ctx, dir, "rev-parse", "--verify", "--quiet", "HEAD")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// GitChanges lists the work tree's changes under dir against base: staged,
// unstaged and untracked files, renames detected (-M), paths relative to
// dir, with the hunks of each modified file.
func GitChanges(ctx context.Context, dir, base string) ([]FileChange, error) {
	if strings.HasPrefix(base, "-") {
		return nil, fmt.Errorf("%w: %q", ErrBadBase, base)
	}
	if _, err := git(ctx, dir, "rev-parse", "--verify", "--quiet", base+"^{commit}"); err != nil {
		return nil, fmt.Errorf("%w: %q", ErrBadBase, base)
	}
	ns, err := git(ctx, dir, "diff", "--name-status", "-z", "-M", "--relative", "--no-ext-diff", base, "--")
	if err != nil {
		return nil, err
	}
	var changes []FileChange
	byPath := map[string]int{}
	fields := strings.Split(strings.TrimRight(string(ns), "\x00"), "\x00")
	for i := 0; i < len(fields); i++ {
		st := fields[i]
		if st == "" {
			continue
		}
		c := FileChange{Status: st[:1]}
		switch c.Status {
		case "R", "C":
			if i+2 >= len(fields) {
				return nil, fmt.Errorf("git diff --name-status: truncated rename entry")
			}
			c.OldPath, c.Path = fields[i+1], fields[i+2]
			i += 2
			if c.Status == "C" {
				c.Status, c.OldPath, c.Whole = "A", "", true
			}
		default:
			if i+1 >= len(fields) {
				return nil, fmt.Errorf("git diff --name-status: truncated entry")
			}
			p := fields[i+1]
			i++
			switch c.Status {
			case "A":
				c.Path, c.Whole = p, true
			case "D":
				c.OldPath, c.Whole = p, true
			default: // M, T
				c.Status, c.Path, c.OldPath = "M", p, p
			}
		}
		key := c.Path
		if key == "" {
			key = c.OldPath
		}
		byPath[key] = len(changes)
		changes = append(changes, c)
	}
	diff, err := git(ctx, dir, "diff", "-U0", "-M", "--relative", "--no-color", "--no-ext-diff", base, "--")
	if err != nil {
		return nil, err
	}
	for file, hunks := range parseHunks(diff) {
		if i, ok := byPath[file]; ok {
			changes[i].Hunks = hunks
		}
	}
	untracked, err := git(ctx, dir, "ls-files", "-z", "--others", "--exclude-standard")
	if err != nil {
		return nil, err
	}
	for _, p := range strings.Split(strings.TrimRight(string(untracked), "\x00"), "\x00") {
		if p != "" {
			changes = append(changes, FileChange{Status: "A", Path: p, Whole: true})
		}
	}
	return changes, nil
}

// parseHunks reads `git diff -U0` output: new path (old path for deleted
// files) → hunks.
func parseHunks(diff []byte) map[string][]Hunk {
	out := map[string][]Hunk{}
	var oldPath, cur string
	for line := range strings.SplitSeq(string(diff), "\n") {
		switch {
		case strings.HasPrefix(line, "diff --git "):
			oldPath, cur = "", ""
		case strings.HasPrefix(line, "--- "):
			oldPath = strings.TrimPrefix(strings.TrimPrefix(line, "--- "), "a/")
		case strings.HasPrefix(line, "+++ "):
			p := strings.TrimPrefix(line, "+++ ")
			if p == "/dev/null" {
				cur = oldPath
			} else {
				cur = strings.TrimPrefix(p, "b/")
			}
		case strings.HasPrefix(line, "@@ ") && cur != "":
			if h, ok := parseHunkHeader(line); ok {
				out[cur] = append(out[cur], h)
			}
		}
	}
	return out
}

// parseHunkHeader parses "@@ -a[,b] +c[,d] @@ …".
func parseHunkHeader(line string) (Hunk, bool) {
	parts := strings.Fields(line)
	if len(parts) < 3 || !strings.HasPrefix(parts[1], "-") || !strings.HasPrefix(parts[2], "+") {
		return Hunk{}, false
	}
	os, oc, ok1 := hunkRange(parts[1][1:])
	ns, nc, ok2 := hunkRange(parts[2][1:])
	return Hunk{os, oc, ns, nc}, ok1 && ok2
}

func hunkRange(s string) (start, count int, ok bool) {
	a, b, found := strings.Cut(s, ",")
	start, err := strconv.Atoi(a)
	if err != nil {
		return 0, 0, false
	}
	count = 1
	if found {
		if count, err = strconv.Atoi(b); err != nil {
			return 0, 0, false
		}
	}
	return start, count, true
}

// gitShow returns a file's content at a commit.
func gitShow(ctx context.Context, dir, base, relPath string) ([]byte, error) {
	// "./" makes the path relative to dir rather than the top of the work tree.
	return git(ctx, dir, "show", base+":./"+relPath)
}
