package codectx

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"codectx/internal/eval"
	"codectx/internal/scan"
	"codectx/internal/search"
)

// GitEvalOptions configure EvaluateGit.
type GitEvalOptions struct {
	// Since limits the history read (git log --since, e.g. "2 years ago",
	// "2024-01-01"); "" reads it all.
	Since string
	// Before, when not zero, keeps commits made at or after it (committer
	// time) out of the tasks; they are still read to follow renames. Since
	// on one run and Before on another split the history in two.
	Before time.Time
	// Max is the number of tasks to sample from the qualifying commits
	// (0: all). The sample is fixed for a given history and Seed.
	Max int
	// Seed seeds the sampling (0 uses DefaultGitSeed).
	Seed uint64
	// MaxFiles is the largest number of non-test source files a commit may
	// change to become a task (0: 3); MinFiles the smallest (0: 1), to
	// measure multi-file changes alone.
	MaxFiles, MinFiles int
	Mode               string // as in SearchOptions
	Ranker             string // as in SearchOptions
	// Progress, when set, is called after each task.
	Progress func(done, total int)
}

// DefaultGitSeed is the sampling seed EvaluateGit uses when none is given.
const DefaultGitSeed = 1

// ErrNoGitHistory means the project root is not inside a git work tree
// with commits (or git is not installed).
var ErrNoGitHistory = errors.New("no git history")

// EvaluateGit measures search on the project's own history: each
// non-merge commit that changed one to MaxFiles non-test source files and
// has a descriptive subject becomes a task whose query is the commit
// message (subject and first body paragraph, issue numbers removed) and
// whose targets are those files at their current paths, if still indexed.
// A task is leaky when its query names a target file or a symbol defined
// in one. File ranks count distinct files. The project must be indexed.
func (p *Project) EvaluateGit(ctx context.Context, opt GitEvalOptions) (*GitEvalReport, error) {
	pr, err := p.project(ctx)
	if err != nil {
		return nil, err
	}
	tasks, st, err := p.mineGit(ctx, pr.ID, opt)
	if err != nil {
		return nil, err
	}
	outs := make([]eval.GitOutcome, 0, len(tasks))
	for i, t := range tasks {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("evaluate: %w", err)
		}
		o := eval.GitOutcome{ID: t.ID, Query: t.Query}
		for _, tg := range t.Targets {
			o.Targets = append(o.Targets, tg.File)
		}
		if o.Leaky, err = p.leaky(ctx, pr.ID, t); err != nil {
			return nil, err
		}
		res, err := p.search(ctx, SearchOptions{Query: t.Query, K: MaxSearchK, Mode: opt.Mode, Ranker: opt.Ranker}, false)
		if err != nil {
			return nil, fmt.Errorf("task %s: %w", t.ID, err)
		}
		hits := make([]eval.Hit, len(res.Results))
		for j, h := range res.Results {
			hits[j] = eval.Hit{File: h.File, Name: h.Name}
			if len(o.Got) < 3 && !slices.Contains(o.Got, h.File) {
				o.Got = append(o.Got, h.File)
			}
		}
		o.FileRank = eval.DistinctFileRank(t, hits)
		outs = append(outs, o)
		if opt.Progress != nil {
			opt.Progress(i+1, len(tasks))
		}
	}
	r := eval.EvaluateGit(st, outs)
	return newGitEvalReport(&r), nil
}

// Kinds of the tasks GitGoldenSet mines.
const (
	GitTaskClean = "change"       // the commit message names no target
	GitTaskLeaky = "change-leaky" // it names a target file or one of its symbols
)

// GitGoldenSet mines the project's history as EvaluateGit does (Mode,
// Ranker and Progress are not used) and returns the tasks as a golden set
// (root: the project's) for any evaluation that takes one, such as
// EvaluateContext: file targets, language "en", kind GitTaskClean or
// GitTaskLeaky. The project must be indexed.
func (p *Project) GitGoldenSet(ctx context.Context, opt GitEvalOptions) (*GoldenSet, *GitMineStats, error) {
	pr, err := p.project(ctx)
	if err != nil {
		return nil, nil, err
	}
	tasks, st, err := p.mineGit(ctx, pr.ID, opt)
	if err != nil {
		return nil, nil, err
	}
	set := &GoldenSet{Root: p.root, Note: "mined from the git history", Tasks: []GoldenTask{}}
	for _, t := range tasks {
		t.Kind = GitTaskClean
		kind, err := p.scoredKind(ctx, pr.ID, t)
		if err != nil {
			return nil, nil, err
		}
		set.Tasks = append(set.Tasks, GoldenTask{ID: t.ID, Query: t.Query, Lang: "en", Kind: kind, Rev: t.Rev,
			Targets: convertSlice(t.Targets, func(tg eval.Target) GoldenTarget { return GoldenTarget(tg) })})
	}
	ms := GitMineStats(st)
	return set, &ms, nil
}

// mineGit reads the history (git log) and mines its tasks.
func (p *Project) mineGit(ctx context.Context, projectID int64, opt GitEvalOptions) ([]eval.Task, eval.MineStats, error) {
	args := []string{"log", "--no-merges", "-M", "--name-status", "--relative", "--format=" + eval.GitLogFormat}
	if opt.Since != "" {
		args = append(args, "--since="+opt.Since)
	}
	args = append(args, "HEAD", "--", ".")
	out, err := scan.GitOutput(ctx, p.root, args...)
	if err != nil {
		if ctx.Err() != nil {
			return nil, eval.MineStats{}, ctx.Err()
		}
		return nil, eval.MineStats{}, fmt.Errorf("%w in %s: %v", ErrNoGitHistory, p.root, err)
	}
	commits, err := eval.ParseGitLog(bytes.NewReader(out))
	if err != nil {
		return nil, eval.MineStats{}, err
	}
	fps, err := p.db.Fingerprints(ctx, projectID)
	if err != nil {
		return nil, eval.MineStats{}, err
	}
	var before int64
	if !opt.Before.IsZero() {
		before = opt.Before.Unix()
	}
	seed := opt.Seed
	if seed == 0 {
		seed = DefaultGitSeed
	}
	tasks, st := eval.MineGitTasks(commits, eval.MineOptions{
		Exists:   func(path string) bool { _, ok := fps[path]; return ok },
		IsSource: isSourcePath,
		IsTest:   search.IsTestPath,
		MaxFiles: opt.MaxFiles,
		MinFiles: opt.MinFiles,
		Max:      opt.Max,
		Seed:     seed,
		Before:   before,
	})
	return tasks, st, nil
}

// isChange reports whether a task is a change request (kind GitTaskClean
// or GitTaskLeaky), scored by distinct files.
func isChange(t eval.Task) bool { return t.Kind == GitTaskClean || t.Kind == GitTaskLeaky }

// scoredKind is the kind a task is scored as: a change request is
// GitTaskLeaky when its query names a target file or a symbol defined in
// one and GitTaskClean otherwise, whatever its set says; any other task
// keeps its kind.
func (p *Project) scoredKind(ctx context.Context, projectID int64, t eval.Task) (string, error) {
	if !isChange(t) {
		return t.Kind, nil
	}
	leaky, err := p.leaky(ctx, projectID, t)
	if err != nil || !leaky {
		return GitTaskClean, err
	}
	return GitTaskLeaky, nil
}

// leaky reports whether a mined task's query names one of its target files
// or a symbol defined in one.
func (p *Project) leaky(ctx context.Context, projectID int64, t eval.Task) (bool, error) {
	for _, tg := range t.Targets {
		chunks, err := p.db.FileChunks(ctx, projectID, tg.File, false)
		if err != nil {
			return false, err
		}
		syms := make([]string, 0, len(chunks))
		for _, c := range chunks {
			if c.Kind != "text" && c.Kind != "file" {
				syms = append(syms, c.Symbol)
			}
		}
		if eval.NamesTarget(t.Query, tg.File, syms) {
			return true, nil
		}
	}
	return false, nil
}

// isSourcePath reports whether a path is program source the index keeps:
// a known language that is not documentation, build, data or generated.
func isSourcePath(p string) bool {
	return scan.LanguageOf(p) != "" && search.ClassifyPath(p) == search.ClassSource
}
