package codectx

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"codectx/internal/eval"
	"codectx/internal/orient"
	"codectx/internal/scan"
	"codectx/internal/store"
)

// Map defaults and rankings.
const (
	DefaultMapBudget = orient.DefaultMapBudget
	MinMapBudget     = orient.MinMapBudget
	MapRankPageRank  = orient.RankPageRank
	MapRankRefs      = orient.RankRefs
	MapRankSize      = orient.RankSize
	MapRankUniform   = orient.RankUniform
)

// ErrNoDefinitions matches (errors.Is) a map of a project without definitions.
var ErrNoDefinitions = orient.ErrNoDefinitions

// ErrBudgetTooSmall matches (errors.Is) a map budget that holds nothing.
var ErrBudgetTooSmall = orient.ErrBudgetTooSmall

// MapOptions configure Map.
type MapOptions struct {
	// Budget is the most cl100k_base tokens of the map; 0 means 2000.
	Budget int
	// Focus lists files, directories or symbols to personalise the ranking
	// toward (the files an agent has open or mentioned).
	Focus []string
	// Rank is "pagerank" ("") or a baseline ("pagerank-uniform", "refs",
	// "size") for evaluation.
	Rank string
}

// Map returns the project's most important definitions — files with their
// key types and functions as signatures — ranked by personalised PageRank
// over the resolved relations and cut to the token budget.
func (p *Project) Map(ctx context.Context, opt MapOptions) (*MapResult, error) {
	pr, err := p.project(ctx)
	if err != nil {
		return nil, err
	}
	g, err := orient.LoadAt(ctx, p.db, pr.ID, pr.Generation)
	if err != nil {
		return nil, err
	}
	m, err := orient.BuildMap(ctx, p.db, pr.ID, g, orient.MapOptions{Budget: opt.Budget, Focus: opt.Focus, Rank: opt.Rank})
	if err != nil {
		return nil, err
	}
	return newMapResult(m), nil
}

// MapEvalRow is the coverage of one map (ranking, budget) of a golden set:
// how many of its symbol targets the map shows.
type MapEvalRow struct {
	Rank     string         `json:"rank"`
	Budget   int            `json:"budget"`
	Tokens   int            `json:"tokens"`
	Shown    int            `json:"shown"`
	Named    int            `json:"named"`
	Coverage MapCoverage    `json:"coverage"`
	Missed   []GoldenTarget `json:"missed,omitempty"`
}

// MapCoverage counts a golden set's symbol targets a map shows: Found of
// Targets, and the tasks (TasksIn of Tasks) whose targets all show.
type MapCoverage struct {
	Targets int `json:"targets"`
	Found   int `json:"found"`
	Tasks   int `json:"tasks"`
	TasksIn int `json:"tasks_found"`
}

// Share is Found / Targets (0 without targets).
func (c MapCoverage) Share() float64 {
	if c.Targets == 0 {
		return 0
	}
	return float64(c.Found) / float64(c.Targets)
}

// EvaluateMap builds one map per ranking and budget (with the given focus;
// none is the map an agent sees when it opens the project) and counts the
// set's symbol targets it shows.
func (p *Project) EvaluateMap(ctx context.Context, set *GoldenSet, ranks []string, budgets []int, focus []string) ([]MapEvalRow, error) {
	pr, err := p.project(ctx)
	if err != nil {
		return nil, err
	}
	g, err := orient.LoadAt(ctx, p.db, pr.ID, pr.Generation)
	if err != nil {
		return nil, err
	}
	var out []MapEvalRow
	for _, r := range ranks {
		for _, b := range budgets {
			m, err := orient.BuildMap(ctx, p.db, pr.ID, g, orient.MapOptions{Budget: b, Rank: r, Focus: focus})
			if err != nil {
				return nil, err
			}
			var hits []eval.Hit
			for _, f := range m.Files {
				for _, n := range f.Named {
					hits = append(hits, eval.Hit{File: f.Path, Name: n.Symbol})
				}
				for _, s := range f.Symbols {
					hits = append(hits, eval.Hit{File: f.Path, Name: s.Name})
					for _, mem := range s.Members {
						hits = append(hits, eval.Hit{File: f.Path, Name: mem.Name})
					}
					for _, n := range s.Named {
						hits = append(hits, eval.Hit{File: f.Path, Name: n.Symbol})
					}
				}
			}
			row := MapEvalRow{Rank: r, Budget: b, Tokens: m.Tokens, Shown: m.Shown, Named: m.Named, Coverage: MapCoverage(eval.CoverMap(set.evalTasks(), hits))}
			for _, t := range set.evalTasks() {
				for _, tg := range t.Targets {
					if tg.Symbol != "" && eval.CoverMap([]eval.Task{{Targets: []eval.Target{tg}}}, hits).Found == 0 {
						row.Missed = append(row.Missed, GoldenTarget(tg))
					}
				}
			}
			out = append(out, row)
		}
	}
	return out, nil
}

// Impact limits.
const (
	DefaultImpactDepth = orient.DefaultImpactDepth
	MaxImpactDepth     = orient.MaxImpactDepth
)

// ErrBadBase matches (errors.Is) a base ref that names no commit.
var ErrBadBase = orient.ErrBadBase

// ErrNotGit matches (errors.Is) a base ref given for a project outside git.
var ErrNotGit = errors.New("not inside a git work tree")

// ImpactOptions configure Impact.
type ImpactOptions struct {
	// Base is the git ref the work tree is compared with; "" means HEAD.
	// Outside git it must be empty: the files changed since the last index
	// (by the stored fingerprints) are the change.
	Base string
	// Depth is how many hops of callers, implementers and dependants to
	// follow; 0 means 2, at most 5.
	Depth int
	// Reindex brings the index up to date when it is stale for the changed
	// files; nil runs Index. (The MCP server passes its own keeper's pass.)
	Reindex func(ctx context.Context) error
}

// Impact reports what the work tree's changes touch: the changed files
// (staged, unstaged, untracked, renames and deletions) against Base, the
// changed symbols (diff hunks mapped onto chunks, old and new side), their
// direct callers and implementers, what depends on them up to Depth hops,
// the tests that reach them, and a risk summary. When the index is stale it
// is brought up to date first (incrementally) and a note says so.
func (p *Project) Impact(ctx context.Context, opt ImpactOptions) (*ImpactResult, error) {
	if opt.Depth < 0 || opt.Depth > MaxImpactDepth {
		return nil, fmt.Errorf("depth must be between 1 and %d, got %d", MaxImpactDepth, opt.Depth)
	}
	pr, err := p.project(ctx)
	if err != nil {
		return nil, err
	}
	useGit := scan.UsesGit(p.root)
	if !useGit && opt.Base != "" {
		return nil, fmt.Errorf("%s is %w: a base ref needs git (without a base, the files changed since the last index are the change)", p.root, ErrNotGit)
	}
	reindex := opt.Reindex
	if reindex == nil {
		reindex = func(ctx context.Context) error {
			_, err := p.Index(ctx, IndexOptions{})
			return err
		}
	}
	fps, err := p.db.Fingerprints(ctx, pr.ID)
	if err != nil {
		return nil, err
	}
	changedF, addedF, removedF, err := p.staleFiles(ctx, fps, p.emb.ModelID())
	if err != nil {
		return nil, err
	}
	io := orient.ImpactOptions{Root: p.root, Git: useGit, Depth: opt.Depth}
	if useGit {
		io.Base = opt.Base
		if io.Base == "" {
			io.Base = "HEAD"
		}
		if io.Changes, err = orient.GitChanges(ctx, p.root, io.Base); err != nil {
			return nil, err
		}
	} else {
		io.OldChunks = map[string][]store.GraphChunk{}
		for _, list := range [][]string{changedF, removedF} {
			for _, path := range list {
				cs, err := p.db.FileChunks(ctx, pr.ID, path, true)
				if err != nil {
					return nil, err
				}
				io.OldChunks[path] = cs
			}
		}
		for _, path := range changedF {
			io.Changes = append(io.Changes, orient.FileChange{Status: "M", Path: path, OldPath: path, Whole: true})
		}
		for _, path := range addedF {
			io.Changes = append(io.Changes, orient.FileChange{Status: "A", Path: path, Whole: true})
		}
		for _, path := range removedF {
			io.Changes = append(io.Changes, orient.FileChange{Status: "D", OldPath: path, Whole: true})
		}
	}
	if stale := len(changedF) + len(addedF) + len(removedF); stale > 0 {
		if err := reindex(ctx); err != nil {
			return nil, fmt.Errorf("re-index stale files: %w", err)
		}
		names := append(append(append([]string(nil), changedF...), addedF...), removedF...)
		sort.Strings(names)
		if len(names) > 10 {
			names = append(names[:10], fmt.Sprintf("… %d more", stale-10))
		}
		io.Notes = append(io.Notes, fmt.Sprintf("the index was stale for %d files (%s); re-indexed them first", stale, strings.Join(names, ", ")))
		// The re-index moved the generation: read it again.
		if pr, err = p.project(ctx); err != nil {
			return nil, err
		}
	}
	g, err := orient.LoadAt(ctx, p.db, pr.ID, pr.Generation)
	if err != nil {
		return nil, err
	}
	r, err := orient.BuildImpact(ctx, p.db, pr.ID, g, io)
	if err != nil {
		return nil, err
	}
	return newImpactResult(r), nil
}

// Overview summarises the project in about 1,500 tokens: languages and
// sizes, top-level packages with one line each, entry points, hub symbols,
// test layout and the index's freshness.
func (p *Project) Overview(ctx context.Context) (*OverviewResult, error) {
	pr, err := p.project(ctx)
	if err != nil {
		return nil, err
	}
	fps, err := p.db.Fingerprints(ctx, pr.ID)
	if err != nil {
		return nil, err
	}
	changed, added, removed, err := p.staleFiles(ctx, fps, p.emb.ModelID())
	if err != nil {
		return nil, err
	}
	stale := append(append(append([]string(nil), changed...), added...), removed...)
	sort.Strings(stale)
	g, err := orient.LoadAt(ctx, p.db, pr.ID, pr.Generation)
	if err != nil {
		return nil, err
	}
	o, err := orient.BuildOverview(ctx, p.db, pr.ID, g, orient.OverviewOptions{Root: p.root, IndexedAt: pr.IndexedAt, Stale: stale, Git: scan.UsesGit(p.root)})
	if err != nil {
		return nil, err
	}
	return newOverviewResult(o), nil
}
