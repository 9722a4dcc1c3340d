package eval

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
)

// GitLogFormat is the --format argument ParseGitLog reads: each commit
// starts with a record separator (0x1e), then hash, committer time and the
// raw message separated by unit separators (0x1f); git appends the
// --name-status lines after the last separator.
const GitLogFormat = "%x1e%H%x1f%ct%x1f%B%x1f"

// GitChange is one changed file of a commit (git --name-status).
type GitChange struct {
	Status  byte   // 'A', 'M', 'D', 'R', 'C', 'T'
	Path    string // the path after the commit
	OldPath string // renames and copies: the path before
}

// GitCommit is one commit of a `git log` read by ParseGitLog.
type GitCommit struct {
	Hash    string
	Time    int64 // committer time, Unix seconds
	Message string
	Changes []GitChange
}

// ParseGitLog reads the output of
//
//	git -c core.quotePath=false log --no-merges -M --name-status --format=GitLogFormat
//
// newest commit first, as git prints it. Paths git had to quote (control
// characters) are skipped.
func ParseGitLog(r io.Reader) ([]GitCommit, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read git log: %w", err)
	}
	var out []GitCommit
	for _, rec := range strings.Split(string(data), "\x1e") {
		if strings.TrimSpace(rec) == "" {
			continue
		}
		f := strings.SplitN(rec, "\x1f", 4)
		if len(f) != 4 {
			return nil, fmt.Errorf("git log: malformed record %.40q", rec)
		}
		c := GitCommit{Hash: strings.TrimSpace(f[0]), Message: strings.TrimSpace(f[2])}
		if c.Time, err = strconv.ParseInt(strings.TrimSpace(f[1]), 10, 64); err != nil {
			return nil, fmt.Errorf("git log: commit %s: bad time %q", c.Hash, f[1])
		}
		sc := bufio.NewScanner(strings.NewReader(f[3]))
		sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
		for sc.Scan() {
			parts := strings.Split(sc.Text(), "\t")
			if len(parts) < 2 || parts[0] == "" {
				continue
			}
			ch := GitChange{Status: parts[0][0], Path: parts[len(parts)-1]}
			if (ch.Status == 'R' || ch.Status == 'C') && len(parts) == 3 {
				ch.OldPath = parts[1]
			}
			if strings.HasPrefix(ch.Path, `"`) || strings.HasPrefix(ch.OldPath, `"`) {
				continue
			}
			c.Changes = append(c.Changes, ch)
		}
		out = append(out, c)
	}
	return out, nil
}

// MineOptions configure MineGitTasks.
type MineOptions struct {
	// Exists reports whether a path (relative to the project) is a current,
	// indexed file: only those become targets.
	Exists func(path string) bool
	// IsSource reports whether a path is source code (not docs, build or
	// data files); IsTest whether it is a test file.
	IsSource, IsTest func(path string) bool
	// MaxFiles is the largest number of non-test source files a commit may
	// change (0: 3); MinFiles the smallest (0: 1), to keep multi-file
	// changes only.
	MaxFiles, MinFiles int
	// Max is the number of tasks to keep, sampled deterministically (0: all).
	Max int
	// Seed seeds the sampling.
	Seed uint64
	// Before, when not 0, keeps commits made at or after this Unix time
	// (committer time) out of the tasks; they are still read to follow
	// later renames. With git's --since on another run it splits a history
	// into an older part to develop on and a newer part held out.
	Before int64
}

// MineStats count why commits were kept or not.
type MineStats struct {
	Commits    int `json:"commits"`                      // commits read
	NoSource   int `json:"no_source_files"`              // changed no non-test source file
	TooMany    int `json:"too_many_files"`               // changed more than MaxFiles non-test source files
	TooFew     int `json:"too_few_files,omitempty"`      // changed fewer than MinFiles non-test source files
	Vague      int `json:"vague_subject"`                // subject not descriptive
	Gone       int `json:"targets_gone"`                 // no changed file still exists
	Candidates int `json:"candidates"`                   // commits that qualified
	Sampled    int `json:"sampled_out,omitempty"`        // candidates left out by --max
	Later      int `json:"at_or_after_before,omitempty"` // made at or after MineOptions.Before
}

// MineGitTasks turns commits (newest first, as ParseGitLog returns them)
// into file-level tasks: a commit that is not a merge, changes 1..MaxFiles
// non-test source files and has a descriptive subject gives the task "its
// message (subject and first body paragraph, issue and pull-request
// numbers removed) → the files it changed, at their current paths". Paths
// are followed through later renames; files deleted since are dropped, and
// a commit none of whose files is left is skipped. With Max > 0 a fixed
// sample of Max tasks is kept (the same for the same commits and Seed),
// oldest first.
func MineGitTasks(commits []GitCommit, opt MineOptions) ([]Task, MineStats) {
	if opt.MaxFiles <= 0 {
		opt.MaxFiles = 3
	}
	st := MineStats{Commits: len(commits)}
	// later maps a path as of some commit to its path at HEAD ("" once
	// deleted), built walking from the newest commit back.
	later := map[string]string{}
	current := func(p string) string {
		if v, ok := later[p]; ok {
			return v
		}
		return p
	}
	var tasks []Task
	for _, c := range commits {
		var files []string
		for _, ch := range c.Changes {
			if ch.Status == 'D' || !opt.IsSource(ch.Path) || opt.IsTest(ch.Path) {
				continue
			}
			files = append(files, ch.Path)
		}
		nsrc := len(files)
		for _, ch := range c.Changes {
			if ch.Status == 'D' && opt.IsSource(ch.Path) && !opt.IsTest(ch.Path) {
				nsrc++
			}
		}
		var targets []Target
		seen := map[string]bool{}
		for _, f := range files {
			if cur := current(f); cur != "" && !seen[cur] && opt.Exists(cur) {
				seen[cur] = true
				targets = append(targets, Target{File: cur})
			}
		}
		// Older commits see this commit's renames and deletions.
		for _, ch := range c.Changes {
			switch ch.Status {
			case 'R':
				later[ch.OldPath] = current(ch.Path)
			case 'D':
				later[ch.Path] = ""
			}
		}
		q := CommitQuery(c.Message)
		switch {
		case opt.Before != 0 && c.Time >= opt.Before:
			st.Later++
			continue
		case nsrc == 0:
			st.NoSource++
			continue
		case nsrc > opt.MaxFiles:
			st.TooMany++
			continue
		case nsrc < opt.MinFiles:
			st.TooFew++
			continue
		case !DescriptiveSubject(firstLine(c.Message)):
			st.Vague++
			continue
		case len(targets) == 0:
			st.Gone++
			continue
		}
		sort.Slice(targets, func(i, j int) bool { return targets[i].File < targets[j].File })
		id := c.Hash
		if len(id) > 10 {
			id = id[:10]
		}
		tasks = append(tasks, Task{ID: "git-" + id, Query: q, Lang: "en", Kind: "change", Targets: targets, Rev: c.Hash + "^"})
	}
	st.Candidates = len(tasks)
	if opt.Max > 0 && len(tasks) > opt.Max {
		idx := rand.New(rand.NewPCG(opt.Seed, 0x636f646563747800)).Perm(len(tasks))[:opt.Max]
		sort.Ints(idx)
		kept := make([]Task, len(idx))
		for i, j := range idx {
			kept[i] = tasks[j]
		}
		st.Sampled = len(tasks) - len(kept)
		tasks = kept
	}
	// Oldest first reads like the history.
	for i, j := 0, len(tasks)-1; i < j; i, j = i+1, j-1 {
		tasks[i], tasks[j] = tasks[j], tasks[i]
	}
	return tasks, st
}

func firstLine(msg string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(msg), "\n")
	return strings.TrimSpace(l)
}

var (
	// issueRef matches issue and pull-request references: "(#123)",
	// "#123", "GH-12", "gh-12", with a closing keyword before it.
	issueRef = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?|see|refs?)\s*:?\s+)?(\(\s*(?:#|gh-)\d+\s*\)|(?:\b[\w.-]+/[\w.-]+)?#\d+\b|\bgh-\d+\b)`)
	})
	// trailer matches a "Key: value" trailer line (Signed-off-by, Change-Id …).
	trailer = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9-]*:\s`) })
	// vagueSubject matches subjects that say nothing about behaviour.
	vagueSubject = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(revert\b|merge\b|bump\b|release\b|prepare\b|version\b|v?\d+(\.\d+)+\b|wip\b|fixup!|squash!|typo|fix typos?\b|update (readme|changelog|docs?|deps|dependencies|copyright)\b|go ?fmt\b|gofmt\b|run (go ?fmt|prettier|black)\b|reformat|formatting\b)`)
	})
)

// CommitQuery is the query a commit message stands for: its subject and
// first body paragraph (unless that is trailers only), with issue and
// pull-request numbers removed and white space collapsed.
func CommitQuery(msg string) string {
	msg = strings.ReplaceAll(strings.TrimSpace(msg), "\r\n", "\n")
	subject, body, _ := strings.Cut(msg, "\n")
	parts := []string{subject}
	for _, para := range strings.Split(strings.TrimSpace(body), "\n\n") {
		para = strings.TrimSpace(para)
		if para == "" {
			continue
		}
		var kept []string
		for _, l := range strings.Split(para, "\n") {
			if !trailer().MatchString(strings.TrimSpace(l)) {
				kept = append(kept, l)
			}
		}
		if len(kept) > 0 {
			parts = append(parts, strings.Join(kept, " "))
		}
		break
	}
	q := issueRef().ReplaceAllString(strings.Join(parts, " "), "")
	return strings.Join(strings.Fields(q), " ")
}

// DescriptiveSubject reports whether a commit subject describes a change
// in words: at least four words of letters after issue references are
// removed, and not a revert, merge, version bump, release, typo or
// formatting commit.
func DescriptiveSubject(subject string) bool {
	s := strings.TrimSpace(issueRef().ReplaceAllString(subject, ""))
	// A conventional-commit or area prefix ("fix(http):", "net/http:") says
	// where, not what.
	if i := strings.Index(s, ": "); i > 0 && i < 40 && !strings.Contains(s[:i], " ") {
		s = strings.TrimSpace(s[i+2:])
	}
	if vagueSubject().MatchString(s) {
		return false
	}
	words := 0
	for _, w := range strings.Fields(s) {
		letters := 0
		for _, r := range w {
			if unicode.IsLetter(r) {
				letters++
			}
		}
		if letters >= 2 {
			words++
		}
	}
	return words >= 4
}

// NamesTarget reports whether a query gives its answer away: it contains
// the file's name (with its extension) or path, or a symbol defined in the
// file written as code — a qualified name (Type.method), an identifier-like
// name (snake_case, camelCase, digits) or any name followed by "(" or
// inside backquotes.
func NamesTarget(query, file string, symbols []string) bool {
	low := strings.ToLower(query)
	base := file
	if i := strings.LastIndexByte(file, '/'); i >= 0 {
		base = file[i+1:]
	}
	if containsWord(low, strings.ToLower(file)) || containsWord(low, strings.ToLower(base)) {
		return true
	}
	for _, s := range symbols {
		s = StripParams(s)
		if strings.Contains(s, ".") && containsWord(query, s) {
			return true
		}
		if i := strings.LastIndexByte(s, '.'); i >= 0 {
			s = s[i+1:]
		}
		if len(s) < 3 {
			continue
		}
		if codeLike(s) && containsWord(query, s) {
			return true
		}
		if strings.Contains(query, s+"(") || strings.Contains(query, "`"+s) {
			return true
		}
	}
	return false
}

// containsWord reports whether w occurs in s with no identifier character
// on either side.
func containsWord(s, w string) bool {
	if w == "" {
		return false
	}
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(w)
		if (j == 0 || !identRune(rune(s[j-1]))) && (end == len(s) || !identRune(rune(s[end]))) {
			return true
		}
		i = j + 1
	}
}

func identRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// codeLike reports whether a name could not be an ordinary word: it has an
// underscore, a digit, or an upper-case letter after its first character.
func codeLike(s string) bool {
	for i, r := range s {
		if r == '_' || unicode.IsDigit(r) || (i > 0 && unicode.IsUpper(r)) {
			return true
		}
	}
	return false
}

// DistinctFileRank is the 1-based rank of the first target file among the
// distinct files of hits, in order of first appearance; 0 when none is.
func DistinctFileRank(t Task, hits []Hit) int {
	seen := map[string]bool{}
	for _, h := range hits {
		if seen[h.File] {
			continue
		}
		seen[h.File] = true
		for _, tg := range t.Targets {
			if h.File == tg.File {
				return len(seen)
			}
		}
	}
	return 0
}

// GitOutcome is one mined task's result.
type GitOutcome struct {
	ID       string   `json:"id"`
	Query    string   `json:"query"`
	Targets  []string `json:"targets"`
	Leaky    bool     `json:"leaky"`
	FileRank int      `json:"file_rank"` // among distinct files, 0 = not in the first 10
	Got      []string `json:"got"`       // the first three distinct files
}

// FileGroup is the file-level score of a group of tasks.
type FileGroup struct {
	Tasks int     `json:"tasks"`
	File  Metrics `json:"file"`
}

// GitReport is the outcome of an evaluation on mined history.
type GitReport struct {
	Mine     MineStats    `json:"mine"`
	All      FileGroup    `json:"all"`
	Clean    FileGroup    `json:"clean"` // queries that do not name a target
	Leaky    FileGroup    `json:"leaky"` // queries that name a target file or one of its symbols
	Outcomes []GitOutcome `json:"outcomes"`
}

// EvaluateGit aggregates mined-task outcomes.
func EvaluateGit(st MineStats, outs []GitOutcome) GitReport {
	r := GitReport{Mine: st, Outcomes: outs}
	if r.Outcomes == nil {
		r.Outcomes = []GitOutcome{}
	}
	var all, clean, leaky []int
	for _, o := range outs {
		rank := o.FileRank
		if rank > 10 {
			rank = 0
		}
		all = append(all, rank)
		if o.Leaky {
			leaky = append(leaky, rank)
		} else {
			clean = append(clean, rank)
		}
	}
	r.All = FileGroup{Tasks: len(all), File: Score(all)}
	r.Clean = FileGroup{Tasks: len(clean), File: Score(clean)}
	r.Leaky = FileGroup{Tasks: len(leaky), File: Score(leaky)}
	return r
}
