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

	"codectx/internal/scan"
)

// rgArgs builds ripgrep's command line so that the files it searches are
// the scanner's: hidden directories and skipped directory names excluded
// (hidden files searched), .gitignore honoured inside and outside git,
// .ignore/.rgignore files not, the root .codectxignore as an ignore file,
// 2 MiB size limit, raw bytes (no BOM transcoding). What rg cannot express
// exactly (nested .codectxignore files, .gitignore negations beating
// .codectxignore, the user glob against .gitignore) is filtered afterwards
// by keep.
func (j *grepJob) rgArgs(globFile string) []string {
	args := []string{"--json", "--no-config", "--no-messages",
		"--hidden", "--no-ignore-dot", "--no-require-git",
		"--encoding", "none", "--max-filesize", strconv.Itoa(MaxGrepFileSize),
		"--max-count", strconv.Itoa(j.opts.HeadLimit + 1)}
	if !scan.UsesGit(j.rootAbs) {
		// The scanner walks: no parent, global or repository excludes.
		args = append(args, "--no-ignore-parent", "--no-ignore-global", "--no-ignore-exclude")
	}
	if j.opts.IgnoreCase {
		args = append(args, "--ignore-case")
	} else {
		args = append(args, "--case-sensitive")
	}
	if j.opts.Fixed {
		args = append(args, "--fixed-strings")
	}
	args = append(args, "--glob", "!.*/")
	for _, d := range scan.SkippedDirNames() {
		args = append(args, "--glob", "!"+d+"/")
	}
	if j.glob != nil && j.glob.negate {
		for _, l := range j.glob.lines {
			args = append(args, "--glob", "!"+l)
		}
	}
	if globFile != "" {
		args = append(args, "--ignore-file", globFile)
	}
	cx := filepath.Join(j.rootAbs, scan.CodectxIgnoreFile)
	if fi, err := os.Stat(cx); err == nil && fi.Mode().IsRegular() {
		args = append(args, "--ignore-file", cx)
	}
	args = append(args, "--regexp", j.opts.Pattern, "--")
	if j.pathRel != "." {
		args = append(args, filepath.FromSlash(j.pathRel))
	}
	return args
}

// writeGlobFile expresses a positive user glob as an ignore file (ignore
// everything, re-include directories, re-include the glob): unlike rg -g,
// it does not override .gitignore.
func (j *grepJob) writeGlobFile() (string, error) {
	if j.glob == nil || j.glob.negate {
		return "", nil
	}
	f, err := os.CreateTemp("", "codectx-glob-*.ignore")
	if err != nil {
		return "", fmt.Errorf("grep: glob file: %w", err)
	}
	var b strings.Builder
	b.WriteString("*\n!*/\n")
	for _, l := range j.glob.lines {
		b.WriteString("!" + l + "\n")
	}
	if _, err := f.WriteString(b.String()); err != nil {
		f.Close()
		os.Remove(f.Name())
		return "", fmt.Errorf("grep: glob file: %w", err)
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("grep: glob file: %w", err)
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
	globFile, err := j.writeGlobFile()
	if err != nil {
		return nil, false, err
	}
	if globFile != "" {
		defer os.Remove(globFile)
	}
	cmd := exec.CommandContext(ctx, bin, j.rgArgs(globFile)...)
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
// by path and reads context lines for the files that can be shown.
func (j *grepJob) rgFinish(byPath map[string]*fileHits, binary map[string]bool) []fileHits {
	cx := scan.NewIgnoreChecker(j.rootAbs, scan.CodectxIgnoreFile)
	files := make([]fileHits, 0, len(byPath))
	for p, fh := range byPath {
		if binary[p] || !j.glob.keep(p) || hasSkippedDir(p) || cx.Excluded(p, false) {
			continue
		}
		sort.Slice(fh.hits, func(a, b int) bool { return fh.hits[a].line < fh.hits[b].line })
		files = append(files, *fh)
	}
	sort.Slice(files, func(a, b int) bool { return files[a].path < files[b].path })
	if j.opts.Context > 0 {
		shown := 0
		for i := range files {
			if shown > j.opts.MaxResults {
				break
			}
			hits := files[i].hits[:min(len(files[i].hits), j.opts.HeadLimit)]
			shown += len(hits)
			content, err := os.ReadFile(filepath.Join(j.rootAbs, filepath.FromSlash(files[i].path)))
			if err == nil {
				files[i].ctx = contextFor(content, hitLines(hits), j.opts.Context)
			}
		}
	}
	return files
}

func hitLines(hits []hit) []int {
	out := make([]int, len(hits))
	for i, h := range hits {
		out[i] = h.line
	}
	return out
}

// hasSkippedDir reports whether a directory of rel is skipped by the scanner.
func hasSkippedDir(rel string) bool {
	for {
		i := strings.IndexByte(rel, '/')
		if i < 0 {
			return false
		}
		if scan.SkippedDir(rel[:i]) {
			return true
		}
		rel = rel[i+1:]
	}
}

// limitedBuffer keeps the first 4 KiB written to it.
type limitedBuffer struct{ bytes.Buffer }

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := 4096 - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}
