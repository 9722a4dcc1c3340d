package codectx

import (
	"context"

	"codectx/internal/eval"
	"codectx/internal/orient"
)

// Orientation types re-exported for callers.
type (
	// MapResult is a repository map; Text() is what the budget counts.
	MapResult = orient.MapResult
	// MapFile is one file of a map.
	MapFile = orient.MapFile
	// MapSymbol is one definition of a map.
	MapSymbol = orient.MapSymbol
)

// Map defaults and rankings.
const (
	DefaultMapBudget = orient.DefaultMapBudget
	MinMapBudget     = orient.MinMapBudget
	MapRankPageRank  = orient.RankPageRank
	MapRankRefs      = orient.RankRefs
	MapRankSize      = orient.RankSize
)

// ErrBudgetTooSmall matches (errors.Is) a map budget that holds nothing.
var ErrBudgetTooSmall = orient.ErrBudgetTooSmall

// MapOptions configure Map.
type MapOptions struct {
	// Budget is the most cl100k_base tokens of the map; 0 means 2000.
	Budget int
	// Focus lists files, directories or symbols to personalise the ranking
	// toward (the files an agent has open or mentioned).
	Focus []string
	// Rank is "pagerank" ("") or a baseline ("refs", "size") for evaluation.
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
	g, err := orient.Load(ctx, p.db, pr.ID)
	if err != nil {
		return nil, err
	}
	return orient.BuildMap(ctx, p.db, pr.ID, g, orient.MapOptions{Budget: opt.Budget, Focus: opt.Focus, Rank: opt.Rank})
}

// MapEvalRow is the coverage of one map (ranking, budget) of a golden set:
// how many of its symbol targets the map shows.
type MapEvalRow struct {
	Rank     string           `json:"rank"`
	Budget   int              `json:"budget"`
	Tokens   int              `json:"tokens"`
	Shown    int              `json:"shown"`
	Coverage eval.MapCoverage `json:"coverage"`
	Missed   []eval.Target    `json:"missed,omitempty"`
}

// EvaluateMap builds one map per ranking and budget (no focus: the map an
// agent sees when it opens the project) and counts the set's symbol
// targets it shows.
func (p *Project) EvaluateMap(ctx context.Context, set *GoldenSet, ranks []string, budgets []int) ([]MapEvalRow, error) {
	pr, err := p.project(ctx)
	if err != nil {
		return nil, err
	}
	g, err := orient.Load(ctx, p.db, pr.ID)
	if err != nil {
		return nil, err
	}
	var out []MapEvalRow
	for _, r := range ranks {
		for _, b := range budgets {
			m, err := orient.BuildMap(ctx, p.db, pr.ID, g, orient.MapOptions{Budget: b, Rank: r})
			if err != nil {
				return nil, err
			}
			var hits []eval.Hit
			for _, f := range m.Files {
				for _, s := range f.Symbols {
					hits = append(hits, eval.Hit{File: f.Path, Name: s.Name})
					for _, mem := range s.Members {
						hits = append(hits, eval.Hit{File: f.Path, Name: mem.Name})
					}
				}
			}
			row := MapEvalRow{Rank: r, Budget: b, Tokens: m.Tokens, Shown: m.Shown, Coverage: eval.CoverMap(set.Tasks, hits)}
			for _, t := range set.Tasks {
				for _, tg := range t.Targets {
					if tg.Symbol != "" && eval.CoverMap([]eval.Task{{Targets: []eval.Target{tg}}}, hits).Found == 0 {
						row.Missed = append(row.Missed, tg)
					}
				}
			}
			out = append(out, row)
		}
	}
	return out, nil
}
