package exact

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"regexp/syntax"
	"runtime"
	"sync"
	"unicode/utf8"

	"codectx/internal/scan"
)

// searcher finds matching lines in a file's bytes. With a required literal
// (the longest literal every match contains) it looks for the literal and
// checks only the lines holding it; otherwise it runs a multi-line version
// of the pattern over the whole buffer and checks the lines it lands on.
// Either way a line matches exactly when re matches the line alone, as rg
// decides.
type searcher struct {
	re      *regexp.Regexp // one line
	multi   *regexp.Regexp // (?m) over a buffer; candidates only
	lit     []byte         // required literal (lower case when fold)
	perLine bool           // \A or \z: multi would differ, so test each line
	fold    bool           // lit is ASCII and case-insensitive
	ks      bool           // fold and lit holds k or s (Unicode folds them to K and ſ)
	limit   int            // stop after this many matching lines
}

func newSearcher(re *regexp.Regexp, expr string, limit int) *searcher {
	s := &searcher{re: re, limit: limit}
	s.multi = regexp.MustCompile("(?m)" + expr)
	if m, err := syntax.Parse("(?m)"+expr, syntax.Perl); err == nil {
		s.perLine = hasOp(m, syntax.OpBeginText, syntax.OpEndText)
	}
	if parsed, err := syntax.Parse(expr, syntax.Perl); err == nil {
		lit, fold := requiredLiteral(parsed.Simplify())
		if len(lit) >= 2 && !bytes.ContainsAny([]byte(lit), "\n") {
			if !fold {
				s.lit = []byte(lit)
			} else if isASCII(lit) {
				s.lit = lowerASCII(nil, []byte(lit))
				s.fold = true
				s.ks = bytes.ContainsAny(s.lit, "ks")
			}
		}
	}
	return s
}

// hasOp reports whether re uses one of the operators.
func hasOp(re *syntax.Regexp, ops ...syntax.Op) bool {
	for _, op := range ops {
		if re.Op == op {
			return true
		}
	}
	for _, sub := range re.Sub {
		if hasOp(sub, ops...) {
			return true
		}
	}
	return false
}

// requiredLiteral returns the longest literal that every match of re
// contains, and whether it is case-folded.
func requiredLiteral(re *syntax.Regexp) (string, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		return string(re.Rune), re.Flags&syntax.FoldCase != 0
	case syntax.OpCapture, syntax.OpPlus:
		return requiredLiteral(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredLiteral(re.Sub[0])
		}
	case syntax.OpConcat:
		best, bestFold := "", false
		for _, sub := range re.Sub {
			if l, f := requiredLiteral(sub); len(l) > len(best) {
				best, bestFold = l, f
			}
		}
		return best, bestFold
	}
	return "", false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func isASCIIBytes(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// lowerASCII lower-cases the ASCII letters of src into dst (reused when
// large enough) and returns it; other bytes are copied as they are. Eight
// bytes at a time: for a byte b < 0x80, b+0x3f sets the high bit when
// b >= 'A' and b+0x25 when b > 'Z', without carries between bytes.
func lowerASCII(dst, src []byte) []byte {
	if cap(dst) < len(src) {
		dst = make([]byte, len(src))
	}
	dst = dst[:len(src)]
	const hi, low7 = 0x8080808080808080, 0x7f7f7f7f7f7f7f7f
	i := 0
	for ; i+8 <= len(src); i += 8 {
		w := binary.LittleEndian.Uint64(src[i:])
		h := w & low7
		upper := (h + 0x3f3f3f3f3f3f3f3f) &^ (h + 0x2525252525252525) &^ w & hi
		binary.LittleEndian.PutUint64(dst[i:], w|upper>>2)
	}
	for ; i < len(src); i++ {
		c := src[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst[i] = c
	}
	return dst
}

// search returns up to s.limit matching lines of content.
func (s *searcher) search(content []byte, scratch *[]byte) []hit {
	var hits []hit
	lineNo, counted := 1, 0 // line number of offset counted
	record := func(start int) (next int) {
		end := bytes.IndexByte(content[start:], '\n')
		next = len(content)
		line := content[start:]
		if end >= 0 {
			line = content[start : start+end]
			next = start + end + 1
		}
		if s.re.Match(line) {
			lineNo += bytes.Count(content[counted:start], []byte{'\n'})
			counted = start
			hits = append(hits, hit{line: lineNo, text: cleanLine(line, MaxGrepLineChars)})
		}
		return next
	}
	lineStart := func(i int) int { return bytes.LastIndexByte(content[:i], '\n') + 1 }

	hay := content
	useLit := s.lit != nil
	if useLit && s.fold {
		if s.ks && !isASCIIBytes(content) {
			useLit = false
		} else {
			*scratch = lowerASCII(*scratch, content)
			hay = *scratch
		}
	}
	pos := 0
	for pos < len(content) && len(hits) < s.limit {
		var at int
		if s.perLine && !useLit {
			pos = record(pos)
			continue
		}
		if useLit {
			i := bytes.Index(hay[pos:], s.lit)
			if i < 0 {
				break
			}
			at = pos + i
		} else {
			loc := s.multi.FindIndex(content[pos:])
			if loc == nil {
				break
			}
			at = pos + loc[0]
			if at == len(content) {
				break // an empty match after the final newline is no line
			}
		}
		pos = record(lineStart(at))
	}
	return hits
}

// runNative scans the project like the indexer (any extension, 2 MiB limit)
// and searches the files in parallel, collecting results in path order and
// stopping once more than MaxResults matching lines are known.
func (j *grepJob) runNative(ctx context.Context) ([]fileHits, error) {
	sub := ""
	if j.pathRel != "." {
		sub = j.pathRel
	}
	res, err := scan.Scan(ctx, j.rootAbs, scan.Options{AllFiles: true, MaxFileSize: MaxGrepFileSize, Sub: sub})
	if err != nil {
		return nil, fmt.Errorf("grep: %w", err)
	}
	return j.searchFiles(ctx, res.Files)
}

// searchFiles searches the files the glob keeps, in parallel, collecting
// results in path order and stopping once more than MaxResults matching
// lines are known.
func (j *grepJob) searchFiles(ctx context.Context, all []scan.File) ([]fileHits, error) {
	var files []scan.File
	for _, f := range all {
		if j.glob.keep(f.Path) {
			files = append(files, f)
		}
	}
	s := newSearcher(j.re, j.expr, j.opts.HeadLimit+1)

	ctx, cancel := context.WithCancel(ctx)
	results := make([]chan *fileHits, len(files))
	for i := range results {
		results[i] = make(chan *fileHits, 1)
	}
	jobs := make(chan int)
	var wg sync.WaitGroup
	workers := min(runtime.GOMAXPROCS(0), 8, max(1, len(files)))
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf, scratch []byte
			for i := range jobs {
				if ctx.Err() != nil {
					results[i] <- nil
					continue
				}
				results[i] <- j.searchFile(files[i], s, &buf, &scratch)
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := range files {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	defer func() {
		cancel()
		wg.Wait()
	}()

	var out []fileHits
	total := 0
	for i := range files {
		var fh *fileHits
		select {
		case fh = <-results[i]:
		case <-ctx.Done():
			return out, ctx.Err()
		}
		if fh == nil || len(fh.hits) == 0 {
			continue
		}
		out = append(out, *fh)
		total += min(len(fh.hits), j.opts.HeadLimit)
		if total > j.opts.MaxResults {
			break // enough to know the result is partial
		}
	}
	return out, nil
}

// searchFile reads and searches one file; nil when it has no match, is
// binary (a NUL byte anywhere, as rg sees it) or cannot be read.
func (j *grepJob) searchFile(f scan.File, s *searcher, buf, scratch *[]byte) *fileHits {
	content, err := j.readRel(f.Path, buf)
	if err != nil || content == nil || bytes.IndexByte(content, 0) >= 0 {
		return nil
	}
	hits := s.search(content, scratch)
	if len(hits) == 0 {
		return nil
	}
	fh := &fileHits{path: f.Path, hits: hits}
	if j.opts.Context > 0 {
		fh.ctx = contextFor(content, hitLines(hits[:min(len(hits), j.opts.HeadLimit)]), j.opts.Context)
	}
	return fh
}

// readRel reads the file at the root-relative slash path rel with
// openInRoot (never through a symbolic link) and readSmall.
func (j *grepJob) readRel(rel string, buf *[]byte) ([]byte, error) {
	f, err := openInRoot(j.rootReal, rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readSmall(f, buf)
}

// readSmall reads a regular file of at most MaxGrepFileSize bytes into buf
// (grown as needed); nil content for a larger file.
func readSmall(f *os.File, buf *[]byte) ([]byte, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: f.Name(), Err: errNotRegular}
	}
	if fi.Size() > MaxGrepFileSize {
		return nil, nil
	}
	need := int(fi.Size()) + 1
	if cap(*buf) < need {
		*buf = make([]byte, need+need/4)
	}
	b := (*buf)[:cap(*buf)]
	n := 0
	for {
		k, err := f.Read(b[n:])
		n += k
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if n == len(b) {
			if n > MaxGrepFileSize {
				return nil, nil // grew while reading
			}
			nb := make([]byte, 2*len(b))
			copy(nb, b)
			*buf, b = nb, nb
		}
	}
	if n > MaxGrepFileSize {
		return nil, nil
	}
	return b[:n], nil
}

// searchOne searches an explicit file (Path names a file): ignore rules and
// the glob do not apply, size and binary rules do, and both engines use this.
func (j *grepJob) searchOne(ctx context.Context) ([]fileHits, string, error) {
	if err := ctx.Err(); err != nil {
		return nil, "", err
	}
	var buf, scratch []byte
	var content []byte
	f, err := openConfined(j.opts.Root, j.pathAbs)
	if err == nil {
		content, err = readSmall(f, &buf)
		f.Close()
	}
	switch {
	case errors.Is(err, errNotConfined):
		return nil, "", newError(ErrOutsideRoot, "path %q is outside the project root (a symbolic link when opened)", j.pathRel)
	case err != nil:
		return nil, "", fmt.Errorf("grep %s: %w", j.pathRel, err)
	case content == nil:
		return nil, fmt.Sprintf("%q is larger than 2 MiB and was not searched", j.pathRel), nil
	case bytes.IndexByte(content, 0) >= 0:
		return nil, fmt.Sprintf("%q is a binary file and was not searched", j.pathRel), nil
	}
	s := newSearcher(j.re, j.expr, j.opts.HeadLimit+1)
	hits := s.search(content, &scratch)
	if len(hits) == 0 {
		return nil, "", nil
	}
	fh := fileHits{path: j.pathRel, hits: hits}
	if j.opts.Context > 0 {
		fh.ctx = contextFor(content, hitLines(hits[:min(len(hits), j.opts.HeadLimit)]), j.opts.Context)
	}
	return []fileHits{fh}, "", nil
}

// runIndexed searches the files the index selects; indexed is false when
// the index could not narrow the search (the caller searches every file).
func (j *grepJob) runIndexed(ctx context.Context) (files []fileHits, indexed bool, err error) {
	sub := ""
	if j.pathRel != "." {
		sub = j.pathRel
	}
	cands, ok, err := j.opts.Index.Candidates(ctx, j.expr, sub, MaxGrepFileSize)
	if ctxErr := ctx.Err(); ctxErr != nil {
		return nil, true, ctxErr
	}
	if err != nil || !ok {
		return nil, false, err
	}
	files, err = j.searchFiles(ctx, cands)
	return files, true, err
}
