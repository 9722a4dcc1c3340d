package scan

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

var (
	gitOnce sync.Once
	gitPath string
)

// gitBinary returns the path of git, "" when it is not on PATH. Looked up
// once per process.
func gitBinary() string {
	gitOnce.Do(func() {
		if p, err := exec.LookPath("git"); err == nil {
			gitPath = p
		}
	})
	return gitPath
}

// UsesGit reports whether Scan takes its candidate list from git for this
// root: git is on PATH and the root or an ancestor holds a ".git" entry.
// (Scan still walks when git then fails or lists nothing.) Cheap: a few
// stats, no process.
func UsesGit(root string) bool {
	return gitBinary() != "" && GitDir(root) != ""
}

// GitDir returns the nearest directory at or above root holding a ".git"
// entry (the top of its work tree), "" when there is none.
func GitDir(root string) string {
	abs, err := filepath.Abs(root)
	if err != nil {
		return ""
	}
	for dir := abs; ; {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// gitEnv is the environment for git children: variables that would point
// git at another repository are dropped.
func gitEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		switch {
		case strings.HasPrefix(kv, "GIT_DIR="), strings.HasPrefix(kv, "GIT_WORK_TREE="),
			strings.HasPrefix(kv, "GIT_INDEX_FILE="), strings.HasPrefix(kv, "GIT_PREFIX="):
			continue
		}
		env = append(env, kv)
	}
	return append(env, "GIT_OPTIONAL_LOCKS=0")
}

// fromGit fills the scanner from `git ls-files`. ok is false when git failed
// or listed nothing (the caller then walks); err is only the context's.
func (s *scanner) fromGit() (ok bool, err error) {
	spec := "."
	if s.sub != "" {
		spec = ":(literal)" + s.sub
	}
	cmd := exec.CommandContext(s.ctx, gitBinary(), "-C", s.root, "ls-files", "-z",
		"--cached", "--others", "--exclude-standard", "--", spec)
	cmd.Env = gitEnv()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if runErr := cmd.Run(); runErr != nil {
		if err := s.ctx.Err(); err != nil {
			return false, fmt.Errorf("scan %s: %w", s.root, err)
		}
		return false, nil
	}
	paths := strings.Split(stdout.String(), "\x00")
	sort.Strings(paths)
	if len(paths) == 0 || (len(paths) == 1 && paths[0] == "") {
		return false, nil
	}

	unreadable := map[string]bool{}
	for _, d := range parseGitWarnings(stderr.Bytes()) {
		unreadable[d] = true
	}
	if len(unreadable) > 0 {
		// git names directories relative to the top of the work tree.
		prefix := gitPrefix(s.ctx, s.root)
		fixed := map[string]bool{}
		for d := range unreadable {
			if rel, ok := strings.CutPrefix(d, prefix); ok && rel != "" {
				fixed[rel] = true
			}
		}
		unreadable = fixed
	}

	dirOK := map[string]bool{} // directory → no skipped component
	badDirs := map[string]bool{}
	prev := ""
	for i, rel := range paths {
		if rel == "" || rel == prev || strings.HasSuffix(rel, "/") {
			continue // empty, duplicate (unmerged stages) or a nested repository
		}
		prev = rel
		if i%512 == 0 {
			if err := s.ctx.Err(); err != nil {
				return false, fmt.Errorf("scan %s: %w", s.root, err)
			}
		}
		if !s.dirAllowed(parentDir(rel), dirOK) || s.cx.excluded(rel, false) || !s.keepName(rel) {
			continue
		}
		if !utf8.ValidString(rel) {
			// Reported once per topmost directory with a bad name, like the walk.
			bad := badNamePrefix(rel)
			if bad != rel {
				if !badDirs[bad] {
					badDirs[bad] = true
					s.skipBadName(bad, true)
				}
				continue
			}
			s.skipBadName(rel, false)
			continue
		}
		fi, err := os.Lstat(filepath.Join(s.root, filepath.FromSlash(rel)))
		switch {
		case err == nil:
			s.add(rel, fi)
		case errors.Is(err, fs.ErrPermission):
			unreadable[s.unreadableAncestor(rel)] = true
		default:
			// deleted but still tracked, or a parent replaced by a file.
		}
	}
	for d := range unreadable {
		if d == "" {
			continue
		}
		s.skipped = append(s.skipped, Skip{Path: d + "/", Reason: ReasonUnreadable})
	}
	return true, nil
}

// badNamePrefix returns rel up to its first component that is not valid
// UTF-8 (rel itself when only the file name is).
func badNamePrefix(rel string) string {
	end := 0
	for end < len(rel) {
		next := strings.IndexByte(rel[end:], '/')
		if next < 0 {
			return rel
		}
		if !utf8.ValidString(rel[end : end+next]) {
			return rel[:end+next]
		}
		end += next + 1
	}
	return rel
}

// dirAllowed reports whether no component of directory dir is a skipped or
// hidden directory name.
func (s *scanner) dirAllowed(dir string, cache map[string]bool) bool {
	if dir == "" {
		return true
	}
	if ok, hit := cache[dir]; hit {
		return ok
	}
	ok := s.dirAllowed(parentDir(dir), cache)
	if ok && skipDir(s.root, dir, s.cx) {
		s.noteSkippedDir(dir) // the topmost skipped directory of a listed file
		ok = false
	}
	cache[dir] = ok
	return ok
}

// unreadableAncestor returns the topmost directory on rel's path that
// cannot be searched (the one a walk would report).
func (s *scanner) unreadableAncestor(rel string) string {
	parts := strings.Split(rel, "/")
	for i := 1; i < len(parts); i++ {
		dir := strings.Join(parts[:i], "/")
		_, err := os.Lstat(filepath.Join(s.root, filepath.FromSlash(dir), "."))
		if errors.Is(err, fs.ErrPermission) {
			return dir
		}
	}
	return parentDir(rel)
}

// parseGitWarnings extracts the directories git could not open from its
// stderr ("warning: could not open directory 'a/b/': Permission denied"),
// without the trailing slash.
func parseGitWarnings(stderr []byte) []string {
	var dirs []string
	sc := bufio.NewScanner(bytes.NewReader(stderr))
	for sc.Scan() {
		line := sc.Text()
		rest, ok := strings.CutPrefix(line, "warning: could not open directory '")
		if !ok {
			continue
		}
		end := strings.LastIndex(rest, "': ")
		if end < 0 {
			continue
		}
		if d := strings.TrimSuffix(rest[:end], "/"); d != "" {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// gitPrefix returns the root's path below the top of its work tree, with a
// trailing slash ("" at the top).
func gitPrefix(ctx context.Context, root string) string {
	cmd := exec.CommandContext(ctx, gitBinary(), "-C", root, "rev-parse", "--show-prefix")
	cmd.Env = gitEnv()
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// GitOutput runs a read-only git command in dir (core.quotepath off, the
// environment of gitEnv) and returns its stdout; an error names the
// command and the first line git printed on stderr.
func GitOutput(ctx context.Context, dir string, args ...string) ([]byte, error) {
	bin := gitBinary()
	if bin == "" {
		return nil, errors.New("git is not installed")
	}
	cmd := exec.CommandContext(ctx, bin, append([]string{"-c", "core.quotepath=false"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(gitEnv(), "LC_ALL=C") // messages in English, for callers that read them
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		return nil, fmt.Errorf("git %s: %w (%s)", strings.Join(args, " "), err, msg)
	}
	return out, nil
}
