// Package history reads which files of a project change together, from its
// git history: the files committed with given files in the commits that
// touched them (temporal coupling). A change request's context uses it to
// add the files a change to its best files has usually needed too.
//
// It only reads the history (git log, no lock taken: GIT_OPTIONAL_LOCKS=0):
// it must not write to the repository, and it names only paths inside the
// project root (git log --relative), relative to it.
package history

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"codectx/internal/scan"
)

// Options bound the reading of the history.
type Options struct {
	// Rev is the revision whose history is read ("" means HEAD): an
	// evaluation that replays a past commit reads the history before it.
	Rev string
	// Commits is the most commits touching the given files that are read
	// (0: DefaultCommits).
	Commits int
	// Window bounds the walk: only the last Window commits of Rev's history
	// are looked at, however few of them touch the files, so that a file
	// rarely changed in a long history costs no more than a common one
	// (0: DefaultWindow).
	Window int
	// MaxFiles skips commits that changed more files than this (sweeping
	// renames, formatting, vendoring say nothing about coupling; 0:
	// DefaultMaxFiles).
	MaxFiles int
	// MinTogether and MinShare: a file is coupled to a given file when they
	// changed together in at least MinTogether commits and in at least
	// MinShare of the given file's commits (0: the defaults).
	MinTogether int
	MinShare    float64
	// HalfLife is the number of a given file's commits after which a
	// commit counts half as much in Coupling.Recent (0: DefaultHalfLife).
	HalfLife int
}

// Defaults of Options, set before any measurement (docs/EVAL.md): the
// usual thresholds of temporal-coupling analyses (a few shared revisions,
// a large share of the file's changes).
const (
	DefaultCommits     = 200
	DefaultWindow      = 5000
	DefaultMaxFiles    = 20
	DefaultMinTogether = 3
	DefaultMinShare    = 0.4
	DefaultHalfLife    = 10
)

// Coupling says that Path changed together with With in Together of the
// Commits commits (read) that changed With. Recent is that share with
// each of With's commits weighted by its recency (the newest 1, halving
// every Options.HalfLife commits of With back): a project's habits
// change, and what a change to With needs now is what its last changes
// needed.
type Coupling struct {
	Path     string  `json:"path"`
	With     string  `json:"with"`
	Together int     `json:"together"`
	Commits  int     `json:"commits"`
	Recent   float64 `json:"recent"`
}

// Share is the part of With's commits that also changed Path.
func (c Coupling) Share() float64 {
	if c.Commits == 0 {
		return 0
	}
	return float64(c.Together) / float64(c.Commits)
}

// Strength is what the thresholds and the order use: the larger of Share
// and Recent, so that a coupling holds when it held over the history read
// or holds over With's last changes.
func (c Coupling) Strength() float64 { return max(c.Share(), c.Recent) }

// CoChanged returns the files coupled to each of paths (relative to root,
// slash-separated), strongest first (Strength, then count, then path). A root
// outside a git work tree, or git missing, gives nil and no error; a
// revision git does not know is an error.
func CoChanged(ctx context.Context, root string, paths []string, opt Options) ([]Coupling, error) {
	if len(paths) == 0 || scan.GitDir(root) == "" {
		return nil, nil
	}
	opt = withDefaults(opt)
	rev := opt.Rev
	if rev == "" {
		rev = "HEAD"
	}
	if strings.HasPrefix(rev, "-") {
		return nil, fmt.Errorf("read co-changes: bad revision %q", rev) // never an option to git
	}
	// The window: the commit Window commits back, when the history is
	// that long (the walk stops there).
	out, err := scan.GitOutput(ctx, root, "rev-list", "-n1", fmt.Sprintf("--skip=%d", opt.Window), rev, "--")
	if err != nil {
		msg := err.Error()
		if strings.Contains(msg, "not a git repository") || (opt.Rev == "" && strings.Contains(msg, "bad revision 'HEAD'")) {
			return nil, nil // no repository, or no commit yet
		}
		return nil, fmt.Errorf("read co-changes: %w", err)
	}
	if edge := strings.TrimSpace(string(out)); edge != "" {
		rev = edge + ".." + rev
	}
	// Commits that touched any of paths, each with every file it changed
	// (--full-diff) below the root (--relative), newest first.
	args := []string{"--literal-pathspecs", "log", "-z", "--no-merges", "--no-renames", "--relative", "--full-diff", "--name-only",
		"--format=%x1e", fmt.Sprintf("-n%d", opt.Commits), rev, "--"}
	args = append(args, paths...)
	if out, err = scan.GitOutput(ctx, root, args...); err != nil {
		return nil, fmt.Errorf("read co-changes: %w", err)
	}
	return couplings(out, paths, opt), nil
}

func withDefaults(opt Options) Options {
	if opt.Commits <= 0 {
		opt.Commits = DefaultCommits
	}
	if opt.Window <= 0 {
		opt.Window = DefaultWindow
	}
	if opt.MaxFiles <= 0 {
		opt.MaxFiles = DefaultMaxFiles
	}
	if opt.MinTogether <= 0 {
		opt.MinTogether = DefaultMinTogether
	}
	if opt.MinShare <= 0 {
		opt.MinShare = DefaultMinShare
	}
	if opt.HalfLife <= 0 {
		opt.HalfLife = DefaultHalfLife
	}
	return opt
}

// couplings counts, from git log -z output (records opened by \x1e and a
// NUL, then a newline and the paths, each ended by a NUL: names are not
// quoted), how often each file changed with each of paths.
func couplings(out []byte, paths []string, opt Options) []Coupling {
	wanted := map[string]bool{}
	for _, p := range paths {
		wanted[p] = true
	}
	commits := map[string]int{}             // given path → its commits
	together := map[string]map[string]int{} // given path → other path → count
	weight := map[string]float64{}          // given path → its commits' weights
	recent := map[string]map[string]float64{}
	decay := math.Pow(0.5, 1/float64(opt.HalfLife))
	for rec := range strings.SplitSeq(string(out), "\x1e") {
		rec = strings.TrimPrefix(strings.TrimPrefix(rec, "\x00"), "\n")
		var files []string
		for name := range strings.SplitSeq(rec, "\x00") {
			if name != "" {
				files = append(files, name)
			}
		}
		if len(files) == 0 || len(files) > opt.MaxFiles {
			continue
		}
		for _, w := range files {
			if !wanted[w] {
				continue
			}
			wt := math.Pow(decay, float64(commits[w])) // newest first
			commits[w]++
			weight[w] += wt
			for _, f := range files {
				if f == w {
					continue
				}
				if together[w] == nil {
					together[w] = map[string]int{}
					recent[w] = map[string]float64{}
				}
				together[w][f]++
				recent[w][f] += wt
			}
		}
	}
	var res []Coupling
	for w, m := range together {
		for f, n := range m {
			c := Coupling{Path: f, With: w, Together: n, Commits: commits[w], Recent: round3(recent[w][f] / weight[w])}
			if n >= opt.MinTogether && c.Strength() >= opt.MinShare {
				res = append(res, c)
			}
		}
	}
	slices.SortFunc(res, func(a, b Coupling) int {
		if sa, sb := a.Strength(), b.Strength(); sa != sb {
			if sa > sb {
				return -1
			}
			return 1
		}
		if a.Together != b.Together {
			return b.Together - a.Together
		}
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return strings.Compare(a.With, b.With)
	})
	return res
}

// round3 rounds a share to three decimals: stable in output and tests
// whatever the order of the sums.
func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
