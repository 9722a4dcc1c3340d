package codectx

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"codectx/internal/query"
	"codectx/internal/search"
	"codectx/internal/store"
)

// Judgement is a recorded vote on a result for a query.
type Judgement struct {
	ID       int64  `json:"id"`
	Query    string `json:"query"`
	QueryKey string `json:"query_key"` // QueryKey(Query): queries with the same key share votes
	Path     string `json:"path"`
	Symbol   string `json:"symbol"`
	Vote     int    `json:"vote"` // +1 up, -1 down
	// CreatedAt is when the vote was recorded, in Unix seconds.
	CreatedAt int64 `json:"created_at"`
}

// FeedbackResult is what Feedback did and its effect on the query.
type FeedbackResult struct {
	Judgement
	// Status is "added", "changed" (the opposite vote was replaced) or
	// "unchanged" (the same vote was already recorded).
	Status string `json:"status"`
	// Rank is the result's 1-based place in a default search for the query
	// after the vote, 0 when it is not in the first DefaultSearchK.
	Rank int `json:"rank"`
}

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
// (vote > 0) or bad (vote < 0) for the query: one vote per query and result,
// the latest wins. Any chunk of the project can be voted on: one voted up
// joins the query's results even when the search did not find it. The
// result says where the chunk now ranks for the query.
func (p *Project) Feedback(ctx context.Context, q, resultID string, vote int) (*FeedbackResult, error) {
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
	status, err := p.db.RecordJudgement(ctx, pr.ID, store.Judgement(j))
	if err != nil {
		return nil, err
	}
	out := &FeedbackResult{Judgement: j, Status: status}
	res, err := p.search(ctx, SearchOptions{Query: q, K: DefaultSearchK}, true)
	if err != nil {
		return nil, fmt.Errorf("vote recorded; re-run the search: %w", err)
	}
	for i, h := range res.Results {
		if h.File == path && h.Symbol == symbol {
			out.Rank = i + 1
			break
		}
	}
	return out, nil
}

// ListFeedback returns every judgement of the project, newest first.
func (p *Project) ListFeedback(ctx context.Context) ([]Judgement, error) {
	pr, err := p.db.EnsureProject(ctx, p.root)
	if err != nil {
		return nil, err
	}
	js, err := p.db.Judgements(ctx, pr.ID, "")
	return convertSlice(js, func(j store.Judgement) Judgement { return Judgement(j) }), err
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
			if errors.Is(err, store.ErrNoChunk) {
				return "", "", badInput(err)
			}
			if err != nil {
				return "", "", err
			}
			return path, sym, nil
		}
	}
	return "", "", badInput(fmt.Errorf("result id %q: use FILE:LINE (as printed by search) or FILE#SYMBOL", id))
}

// Text says what the vote did and where the result now ranks.
func (f *FeedbackResult) Text() string {
	word := "up"
	if f.Vote < 0 {
		word = "down"
	}
	what := map[string]string{store.JudgementAdded: "recorded", store.JudgementChanged: "changed to", store.JudgementUnchanged: "already recorded:"}[f.Status]
	msg := fmt.Sprintf("%s %s vote for %s#%s on queries like %q (keywords: %s)", what, word, f.Path, f.Symbol, f.Query, f.QueryKey)
	if f.Rank > 0 {
		return msg + fmt.Sprintf("; it now ranks %d for this query", f.Rank)
	}
	return msg + fmt.Sprintf("; it is not in the first %d results for this query", DefaultSearchK)
}

func roundScore(s float64) float64 { return float64(int(s*1000+0.5)) / 1000 }

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
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
	floor := res.Results[len(res.Results)-1].Score
	changed := false
	seen := map[string]bool{}
	for i := range res.Results {
		h := &res.Results[i]
		key := store.VoteKey(h.File, h.Symbol)
		seen[key] = true
		if v, ok := votes[key]; ok {
			v = max(-3, min(3, v))
			h.Score = roundScore(h.Score + feedbackWeight*top*float64(v))
			changed = true
		}
	}
	// Results voted up that the search did not find join the list, scored
	// from the bottom of it.
	for _, key := range sortedKeys(votes) {
		v := votes[key]
		if v <= 0 || seen[key] {
			continue
		}
		path, symbol := store.SplitVoteKey(key)
		c, ok, err := p.db.ChunkBySymbol(ctx, pr.ID, path, symbol)
		if err != nil {
			return err
		}
		if !ok {
			continue // the chunk is gone: the vote waits for it
		}
		res.Results = append(res.Results, search.Hit{
			File: c.Path, StartLine: c.StartLine, EndLine: c.EndLine, Kind: c.Kind, Name: c.Name, Symbol: c.Symbol,
			Score: roundScore(floor + feedbackWeight*top*float64(min(v, 3))), Snippet: search.Snippet(c.Content, search.SnippetRunes),
			Signals: []string{"feedback"},
		})
		changed = true
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
