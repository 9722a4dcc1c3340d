package exact

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"codectx/internal/scan"
)

// rgArgs builds ripgrep's command line so that the files it searches are
// the scanner's: hidden directories and the names skipped everywhere
// excluded (build output directories, which depend on their parent's
// files, are dropped from the answer afterwards; hidden files searched), .gitignore honoured inside and outside git,
// .ignore files not, the .codectxignore rules and a positive user glob as an
// ignore file (see ignoreLines), 2 MiB size limit, raw bytes (no BOM
// transcoding). What rg cannot express exactly (a .gitignore negation
// beating an ignore-file rule, nested .codectxignore files without a root
// one) is filtered afterwards by rgFinish.
func (j *grepJob) rgArgs(ignoreFile string) []string {
	args := []string{"--json", "--no-config", "--no-messages",
		"--hidden", "--no-ignore-dot", "--no-require-git",
		"--encoding", "none", "--max-filesize", strconv.Itoa(MaxGrepFileSize),
		"--max-count", strconv.Itoa(j.opts.HeadLimit + 1)}
	switch {
	case !scan.UsesGit(j.rootAbs):
		// The scanner walks: no parent, global or repository excludes.
		args = append(args, "--no-ignore-parent", "--no-ignore-global", "--no-ignore-exclude")
	case scan.GitDir(j.rootAbs) == j.rootAbs:
		// The root is the top of the work tree: git reads no .gitignore above it.
		args = append(args, "--no-ignore-parent")
	}
	if j.opts.IgnoreCase {
		args = append(args, "--ignore-case")
	} else {
		args = append(args, "--case-sensitive")
	}
	if j.opts.Fixed {
		args = append(args, "--fixed-strings")
	}
	if j.cx.Negations() {
		// The root's .codectxignore may re-include a skipped directory:
		// rg searches them all (.git aside) and rgFinish drops the rest.
		args = append(args, "--glob", "!.git/")
	} else {
		args = append(args, "--glob", "!.*/")
		for _, d := range scan.SkippedDirNames() {
			args = append(args, "--glob", "!"+d+"/")
		}
	}
	if j.glob != nil && j.glob.negate {
		for _, l := range j.glob.lines {
			args = append(args, "--glob", "!"+l)
		}
	}
	if ignoreFile != "" {
		args = append(args, "--ignore-file", ignoreFile)
	}
	// rg always searches the root, so that --no-ignore-parent means "above
	// the root"; ignoreLines narrows the walk to Path.
	return append(args, "--regexp", j.opts.Pattern)
}

// ignoreLines are the rules rg gets as an ignore file (later lines win). A
// positive user glob becomes "ignore everything, re-include directories,
// re-include the glob" (unlike rg -g, this does not override .gitignore). A
// Path other than the root becomes "at each level, ignore everything but the
// next directory". When the root has a .codectxignore, the rules of all
// .codectxignore files follow, so rg prunes what the scanner prunes; without
// one, nested files are only applied afterwards by rgFinish (no directory
// walk is paid for projects that do not use the file).
func (j *grepJob) ignoreLines(ctx context.Context) ([]string, error) {
	var lines []string
	if j.glob != nil && !j.glob.negate {
		lines = append(lines, "*", "!*/")
		for _, l := range j.glob.lines {
			lines = append(lines, "!"+l)
		}
	}
	if j.pathRel != "." {
		// Only Path's subtree: at each level ignore all but the next directory.
		prefix := ""
		for _, part := range strings.Split(j.pathRel, "/") {
			lines = append(lines, prefix+"/*", "!"+prefix+"/"+scan.EscapeGlob(part)+"/")
			prefix += "/" + scan.EscapeGlob(part)
		}
	}
	cx := filepath.Join(j.rootAbs, scan.CodectxIgnoreFile)
	if fi, err := os.Stat(cx); err == nil && fi.Mode().IsRegular() {
		more, err := scan.CodectxIgnoreLines(ctx, j.rootAbs)
		if err != nil {
			return nil, fmt.Errorf("grep: %w", err)
		}
		lines = append(lines, more...)
	}
	return lines, nil
}

// writeIgnoreFile writes lines to a temporary file; "" when there are none.
func writeIgnoreFile(lines []string) (string, error) {
	if len(lines) == 0 {
		return "", nil
	}
	f, err := os.CreateTemp("", "codectx-rg-*.ignore")
	if err != nil {
		return "", fmt.Errorf("grep: ignore file: %w", err)
	}
	_, werr := f.WriteString(strings.Join(lines, "\n") + "\n")
	cerr := f.Close()
	if werr != nil || cerr != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("grep: ignore file: %w", errors.Join(werr, cerr))
	}
	return f.Name(), nil
}

type rgData struct {
	Text  *string `json:"text"`
	Bytes string  `json:"bytes"`
}

func (d rgData) raw() []byte {
	if d.Text != nil {
		return []byte(*d.Text)
	}
	b, _ := base64.StdEncoding.DecodeString(d.Bytes)
	return b
}

type rgEvent struct {
	Type string `json:"type"`
	Data struct {
		Path         rgData `json:"path"`
		Lines        rgData `json:"lines"`
		LineNumber   int    `json:"line_number"`
		BinaryOffset *int64 `json:"binary_offset"`
	} `json:"data"`
}

var (
	rgMatchPrefix = []byte(`{"type":"match"`)
	rgEndPrefix   = []byte(`{"type":"end"`)
)

// runRG runs ripgrep and returns the files with matches, filtered and
// sorted like the native engine's. started is false when rg could not do
// the search at all (not found, failed to start, rejected the pattern): the
// caller may fall back to the native engine. On timeout the files found so
// far come back with context.DeadlineExceeded.
func (j *grepJob) runRG(ctx context.Context) (files []fileHits, started bool, err error) {
	bin := rgPath()
	if bin == "" {
		return nil, false, ErrNoRipgrep
	}
	lines, err := j.ignoreLines(ctx)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, true, ctxErr
		}
		return nil, false, err
	}
	ignoreFile, err := writeIgnoreFile(lines)
	if err != nil {
		return nil, false, err
	}
	if ignoreFile != "" {
		defer os.Remove(ignoreFile)
	}
	cmd := exec.CommandContext(ctx, bin, j.rgArgs(ignoreFile)...)
	cmd.Dir = j.rootAbs
	cmd.WaitDelay = time.Second
	var stderr limitedBuffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, false, fmt.Errorf("rg: %w", err)
	}
	if err := cmd.Start(); err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, true, ctxErr
		}
		return nil, false, fmt.Errorf("rg: %w", err)
	}

	byPath := map[string]*fileHits{}
	binary := map[string]bool{}
	events := 0
	r := bufio.NewReaderSize(out, 256<<10)
	var readErr error
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			events++
			isMatch := bytes.HasPrefix(line, rgMatchPrefix)
			if isMatch || bytes.HasPrefix(line, rgEndPrefix) {
				var ev rgEvent
				if jerr := json.Unmarshal(line, &ev); jerr == nil {
					p := strings.TrimPrefix(filepath.ToSlash(string(ev.Data.Path.raw())), "./")
					switch {
					case isMatch:
						fh := byPath[p]
						if fh == nil {
							fh = &fileHits{path: p}
							byPath[p] = fh
						}
						fh.hits = append(fh.hits, hit{line: ev.Data.LineNumber, text: cleanLine(ev.Data.Lines.raw(), MaxGrepLineChars)})
					case ev.Data.BinaryOffset != nil:
						binary[p] = true
					}
				}
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				readErr = err
			}
			break
		}
	}
	waitErr := cmd.Wait()
	if ctxErr := ctx.Err(); ctxErr != nil {
		return j.rgFinish(byPath, binary), true, ctxErr
	}
	if readErr != nil {
		return nil, true, fmt.Errorf("rg: read output: %w", readErr)
	}
	if waitErr != nil {
		var ee *exec.ExitError
		// Exit status 1 is "no match"; 2 with output means some files could
		// not be read. Without any output rg did not search at all.
		if !errors.As(waitErr, &ee) || (ee.ExitCode() != 1 && events == 0) {
			msg := strings.TrimSpace(stderr.String())
			if msg == "" {
				msg = waitErr.Error()
			}
			return nil, false, fmt.Errorf("rg: %s", oneLine(msg))
		}
	}
	return j.rgFinish(byPath, binary), true, nil
}

// rgFinish drops binary files and files the scanner would not list, sorts
// by path, and keeps the files that can be shown (like the native engine,
// one file past max_results at most), with their context lines.
func (j *grepJob) rgFinish(byPath map[string]*fileHits, binary map[string]bool) []fileHits {
	cx := j.cx
	files := make([]fileHits, 0, len(byPath))
	prefix := j.pathRel + "/"
	for p, fh := range byPath {
		if (j.pathRel != "." && !strings.HasPrefix(p, prefix)) || binary[p] || !j.glob.keep(p) || skippedDir(j.rootAbs, p, cx) || cx.Excluded(p, false) ||
			!utf8.ValidString(p) { // the scanner skips names that are not UTF-8
			continue
		}
		sort.Slice(fh.hits, func(a, b int) bool { return fh.hits[a].line < fh.hits[b].line })
		files = append(files, *fh)
	}
	sort.Slice(files, func(a, b int) bool { return files[a].path < files[b].path })

	// rg opens files by path and follows a file swapped for a symbolic link
	// between its directory walk and its open, so nothing it reports is
	// trusted: each file that can be shown is read again with openInRoot
	// (no symbolic link anywhere, checked on the descriptor) and only the
	// reported lines that are the lines of that file are kept. The same
	// bytes give the context lines, and the NUL check the native engine
	// makes (rg may stop at the match limit before a late NUL byte).
	out := files[:0]
	shown := 0
	var buf []byte
	for _, fh := range files {
		content, err := j.readRel(fh.path, &buf)
		if err != nil || content == nil || bytes.IndexByte(content, 0) >= 0 {
			continue
		}
		fh.hits = confirmHits(content, fh.hits)
		if len(fh.hits) == 0 {
			continue
		}
		if j.opts.Context > 0 {
			fh.ctx = contextFor(content, hitLines(fh.hits[:min(len(fh.hits), j.opts.HeadLimit)]), j.opts.Context)
		}
		out = append(out, fh)
		if shown += min(len(fh.hits), j.opts.HeadLimit); shown > j.opts.MaxResults {
			break // enough to know the result is partial
		}
	}
	return out
}

// confirmHits keeps the hits (ascending lines) whose text is the text of
// their line in content.
func confirmHits(content []byte, hits []hit) []hit {
	if len(hits) == 0 {
		return hits
	}
	out := hits[:0]
	k := 0
	lineSpans(content, func(num, _ int, line []byte) bool {
		for k < len(hits) && hits[k].line < num {
			k++ // a line the file does not have (past its end is handled below)
		}
		for k < len(hits) && hits[k].line == num {
			if cleanLine(line, MaxGrepLineChars) == hits[k].text {
				out = append(out, hits[k])
			}
			k++
		}
		return k < len(hits)
	})
	return out
}

func hitLines(hits []hit) []int {
	out := make([]int, len(hits))
	for i, h := range hits {
		out[i] = h.line
	}
	return out
}

// skippedDir reports whether a directory of file rel is skipped by the
// scanner (rg is told only the names skipped everywhere; build output
// directories depend on their parent's files, re-includes on the root's
// .codectxignore).
func skippedDir(root, rel string, cx *scan.IgnoreChecker) bool {
	_, ok := scan.SkippedAncestor(root, rel, false, cx)
	return ok
}

// limitedBuffer keeps the first 4 KiB written to it.
type limitedBuffer struct{ bytes.Buffer }

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := 4096 - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}
