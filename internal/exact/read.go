package exact

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"codectx/internal/scan"
)

// Read limits.
const (
	DefaultReadLimit = 200
	MaxReadLimit     = 2000
	MaxReadLineChars = 2000 // longer lines are cut, with "…"
)

// ReadOptions select the lines to read.
type ReadOptions struct {
	Root   string // project root
	File   string // relative to Root, or absolute inside it
	Offset int    // first line, 1-based; 0 means 1
	Limit  int    // number of lines; 0 means 200; more than 2000 is cut to 2000
}

// ReadLine is one numbered line.
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
}

// Read returns lines Offset..Offset+Limit-1 of a file inside the root, with
// the file's line count. Binary files (NUL in the first 4 KiB),
// directories, missing files and offsets past the end are errors.
func Read(ctx context.Context, opts ReadOptions) (*ReadResult, error) {
	if opts.Offset < 0 {
		return nil, newError(ErrBadOption, "offset %d: must be 1 or more", opts.Offset)
	}
	if opts.Limit < 0 {
		return nil, newError(ErrBadOption, "limit %d: must be 1 or more", opts.Limit)
	}
	if opts.Offset == 0 {
		opts.Offset = 1
	}
	if opts.Limit == 0 {
		opts.Limit = DefaultReadLimit
	}
	if opts.Limit > MaxReadLimit {
		opts.Limit = MaxReadLimit
	}
	if strings.TrimSpace(opts.File) == "" {
		return nil, newError(ErrBadOption, "no file given")
	}
	abs, rel, err := ResolveInRoot(opts.Root, opts.File)
	if err != nil {
		return nil, err
	}
	f, err := openConfined(opts.Root, abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, newError(ErrNotFound, "%q does not exist", rel)
	case errors.Is(err, errNotConfined):
		return nil, newError(ErrOutsideRoot, "path %q is outside the project root (a symbolic link when opened)", rel)
	case errors.Is(err, errNotRegular):
		return nil, newError(ErrBadOption, "%q is not a regular file", rel)
	case err != nil:
		return nil, fmt.Errorf("read %s: %w", rel, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return nil, fmt.Errorf("read %s: %w", rel, err)
	case fi.IsDir():
		return nil, newError(ErrIsDir, "%q is a directory; use glob to list its files", rel)
	}

	r := bufio.NewReaderSize(f, 64<<10)
	head, err := r.Peek(scan.BinarySniffLen)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, fmt.Errorf("read %s: %w", rel, err)
	}
	if scan.IsBinary(head) {
		return nil, newError(ErrBinary, "%q is a binary file", rel)
	}

	res := &ReadResult{Path: rel, Offset: opts.Offset, Lines: []ReadLine{}}
	last := opts.Offset + opts.Limit - 1
	n, err := readLines(ctx, r, func(num int, line []byte) bool {
		if num >= opts.Offset && num <= last {
			res.Lines = append(res.Lines, ReadLine{Number: num, Text: cleanLine(line, MaxReadLineChars)})
		}
		return num < last
	})
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", rel, err)
	}
	res.TotalLines = n
	if opts.Offset > n && !(n == 0 && opts.Offset == 1) {
		return nil, newError(ErrOffsetPastEnd, "offset %d is past the end of %q (%d lines)", opts.Offset, rel, n)
	}
	res.End = opts.Offset + len(res.Lines) - 1
	res.More = res.End < n
	return res, nil
}

// readLines calls fn with each line (without its newline; at most about
// 4×MaxReadLineChars bytes of it) while fn returns true, then only counts
// the remaining lines. It returns the number of lines.
func readLines(ctx context.Context, r *bufio.Reader, fn func(num int, line []byte) bool) (int, error) {
	const keep = 4*MaxReadLineChars + 4
	var cur []byte
	n, want, inLine := 0, true, false
	for want {
		chunk, err := r.ReadSlice('\n')
		if len(chunk) > 0 {
			if !inLine {
				n++
				inLine = true
				cur = cur[:0]
			}
			if room := keep - len(cur); room > 0 {
				cur = append(cur, chunk[:min(room, len(chunk))]...)
			}
			if chunk[len(chunk)-1] == '\n' {
				inLine = false
				want = fn(n, cur)
			}
		}
		switch {
		case err == nil || errors.Is(err, bufio.ErrBufferFull):
		case errors.Is(err, io.EOF):
			if inLine {
				fn(n, cur)
			}
			return n, nil
		default:
			return n, err
		}
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return n, err
			}
		}
	}
	// Count the rest.
	buf := make([]byte, 64<<10)
	lastByte := byte('\n')
	for {
		k, err := r.Read(buf)
		if k > 0 {
			n += bytes.Count(buf[:k], []byte{'\n'})
			lastByte = buf[k-1]
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return n, err
		}
		if err := ctx.Err(); err != nil {
			return n, err
		}
	}
	if lastByte != '\n' {
		n++ // a last line without a newline
	}
	return n, nil
}

// Text renders the page as Render(nil) does.
func (r *ReadResult) Text() string { return r.Render(nil) }

// Render renders the page: a header, then "%6d→text" lines. When more
// lines follow, the header names the next page as hint renders it (the
// reader's own command; nil means Location).
func (r *ReadResult) Render(hint ReadHint) string {
	if hint == nil {
		hint = Location
	}
	var b strings.Builder
	switch {
	case r.TotalLines == 0:
		fmt.Fprintf(&b, "%s (empty file)\n", renderPath(r.Path))
	case r.More:
		next := SuggestedRead{Path: r.Path, Offset: r.End + 1, Limit: max(1, r.End-r.Offset+1)}
		fmt.Fprintf(&b, "%s (lines %d-%d of %d; more follow: %s)\n", renderPath(r.Path), r.Offset, r.End, r.TotalLines, hint(next))
	default:
		fmt.Fprintf(&b, "%s (lines %d-%d of %d)\n", renderPath(r.Path), r.Offset, r.End, r.TotalLines)
	}
	for _, l := range r.Lines {
		fmt.Fprintf(&b, "%6d→%s\n", l.Number, l.Text)
	}
	return b.String()
}
