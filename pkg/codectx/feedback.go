package codectx

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"codectx/internal/query"
	"codectx/internal/search"
	"codectx/internal/store"
)

// Judgement is a recorded vote on a result.
type Judgement = store.Judgement

// QueryKey normalises a query for feedback: its keywords, lower-cased,
// de-duplicated and sorted, so close paraphrases ("where are retries
// handled", "retries handled where") share their judgements.
func QueryKey(q string) string {
	parsed := query.Parse(q)
	seen := map[string]bool{}
	var words []string
	for _, k := range parsed.Keywords {
		k = strings.ToLower(k)
		if !seen[k] {
			seen[k] = true
			words = append(words, k)
		}
	}
	sort.Strings(words)
	return strings.Join(words, " ")
}

// Feedback records that the result resultID ("FILE:LINE" — the chunk of FILE
// that contains LINE, as printed by search — or "FILE#SYMBOL") was good
// (vote > 0) or bad (vote < 0) for the query. It never deletes anything.
func (p *Project) Feedback(ctx context.Context, q, resultID string, vote int) (*Judgement, error) {
	if strings.TrimSpace(q) == "" {
		return nil, ErrEmptyQuery
	}
	if vote == 0 {
		return nil, badInput(fmt.Errorf("a vote is up or down"))
	}
	key := QueryKey(q)
	if key == "" {
		return nil, badInput(fmt.Errorf("the query %q has no keywords to remember", q))
	}
	pr, err := p.project(ctx)
	if err != nil {
		return nil, err
	}
	path, symbol, err := p.resolveResultID(ctx, pr, resultID)
	if err != nil {
		return nil, err
	}
	j := Judgement{Query: q, QueryKey: key, Path: path, Symbol: symbol, Vote: sign(vote)}
	if err := p.db.AddJudgement(ctx, pr.ID, j); err != nil {
		return nil, err
	}
	return &j, nil
}

// ListFeedback returns every judgement of the project, newest first.
func (p *Project) ListFeedback(ctx context.Context) ([]Judgement, error) {
	pr, err := p.db.EnsureProject(ctx, p.root)
	if err != nil {
		return nil, err
	}
	return p.db.Judgements(ctx, pr.ID, "")
}

// ClearFeedback forgets every judgement of the project.
func (p *Project) ClearFeedback(ctx context.Context) (int64, error) {
	pr, err := p.db.EnsureProject(ctx, p.root)
	if err != nil {
		return 0, err
	}
	return p.db.ClearJudgements(ctx, pr.ID)
}

func (p *Project) resolveResultID(ctx context.Context, pr *store.Project, id string) (string, string, error) {
	id = strings.TrimSpace(id)
	if i := strings.LastIndex(id, "#"); i > 0 {
		path, sym := id[:i], id[i+1:]
		ok, err := p.db.HasChunk(ctx, pr.ID, path, sym)
		if err != nil {
			return "", "", err
		}
		if !ok {
			return "", "", badInput(fmt.Errorf("no chunk %s in %s", sym, path))
		}
		return path, sym, nil
	}
	if i := strings.LastIndex(id, ":"); i > 0 {
		path := id[:i]
		// "FILE:START-END" as printed by search, or "FILE:LINE".
		lineText := id[i+1:]
		if j := strings.IndexByte(lineText, '-'); j > 0 {
			lineText = lineText[:j]
		}
		line, err := strconv.Atoi(lineText)
		if err == nil && line > 0 {
			sym, err := p.db.ChunkAtLine(ctx, pr.ID, path, line)
			if err != nil {
				return "", "", err
			}
			return path, sym, nil
		}
	}
	return "", "", badInput(fmt.Errorf("result id %q: use FILE:LINE (as printed by search) or FILE#SYMBOL", id))
}

func sign(v int) int {
	if v > 0 {
		return 1
	}
	return -1
}

// feedbackWeight is how far one net vote moves a result, as a share of the
// best score of the list.
const feedbackWeight = 0.3

// applyFeedback re-ranks res with the judgements recorded for the query's
// key and cuts it to k. Results voted down sink, results voted up rise; only
// queries with the same key are affected.
func (p *Project) applyFeedback(ctx context.Context, pr *store.Project, q string, res *search.Result, k int) error {
	defer func() {
		if len(res.Results) > k {
			res.Results = res.Results[:k]
		}
	}()
	key := QueryKey(q)
	if key == "" || len(res.Results) == 0 {
		return nil
	}
	votes, err := p.db.FeedbackVotes(ctx, pr.ID, key)
	if err != nil || len(votes) == 0 {
		return err
	}
	top := res.Results[0].Score
	changed := false
	for i := range res.Results {
		h := &res.Results[i]
		if v, ok := votes[store.VoteKey(h.File, h.Symbol)]; ok {
			v = max(-3, min(3, v))
			h.Score = float64(int((h.Score+feedbackWeight*top*float64(v))*1000+0.5)) / 1000
			changed = true
		}
	}
	if !changed {
		return nil
	}
	sort.SliceStable(res.Results, func(i, j int) bool { return res.Results[i].Score > res.Results[j].Score })
	if len(res.Results) > k {
		res.Results = res.Results[:k]
	}
	res.Signals = append(res.Signals, "feedback")
	res.Summary = search.Summarize(res)
	return nil
}
