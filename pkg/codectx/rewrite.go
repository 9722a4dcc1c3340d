package codectx

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"codectx/internal/rewrite"
	"codectx/internal/store"
)

// Query rewriting (SearchOptions.Rewrite, ContextOptions.Rewrite) asks an
// OpenAI-compatible chat model (Config.Rewrite, from the environment) to turn the
// question into likely identifiers, English keywords and an intent before
// the search runs:
//
//	LLM_BASE_URL    the endpoint's base URL (…/v1); /chat/completions is appended
//	LLM_MODEL       the model name
//	LLM_API_KEY     sent as a bearer token (optional)
//	LLM_TIMEOUT_MS  how long one rewrite may take, in milliseconds (default 5000)
//
// The identifiers and keywords are searched like extra Keywords. Recorded
// judgements for the same query key are sent as examples. Rewriting never
// fails a search: when it is not configured, times out or the answer is not
// the strict JSON shape, the search runs offline as without Rewrite, the
// reason is logged at debug level and a warning is added to the result
// (also in its RewriteFallback field).
const (
	// maxRewriteExamples is how many recorded judgements are sent to the model.
	maxRewriteExamples = 5
	// rewriteWarningPrefix starts every warning about a rewrite fallback.
	rewriteWarningPrefix = "query rewriting "
)

// isRewriteWarning reports whether a result warning says that query
// rewriting was asked for but the search ran offline.
func isRewriteWarning(w string) bool { return strings.HasPrefix(w, rewriteWarningPrefix) }

// rewriteFallback is the warning of ws that says query rewriting fell
// back to the offline search ("" when none does).
func rewriteFallback(ws []string) string {
	if i := slices.IndexFunc(ws, isRewriteWarning); i >= 0 {
		return ws[i]
	}
	return ""
}

// rewriteQuery asks the configured model to rewrite q. On any failure it
// returns nil and the warning to add to the result; it never returns an
// error, except when ctx itself is done.
func (p *Project) rewriteQuery(ctx context.Context, pr *store.Project, q string) (*rewrite.Result, string, error) {
	fail := func(why string) (*rewrite.Result, string, error) {
		if err := ctx.Err(); err != nil {
			return nil, "", fmt.Errorf("rewrite query: %w", err)
		}
		p.log.Debug("query rewriting failed; searching offline", "reason", why)
		return nil, fmt.Sprintf("%sfailed (%s); searched offline", rewriteWarningPrefix, why), nil
	}
	if !p.cfg.Rewrite.Configured() {
		return fail("no model configured: set LLM_BASE_URL and LLM_MODEL")
	}
	cfg := p.cfg.rewriteConfig()
	examples, err := p.rewriteExamples(ctx, pr, q)
	if err != nil {
		// Examples are hints: do without them.
		p.log.Debug("query rewriting without examples", "err", err)
		examples = nil
	}
	start := time.Now()
	res, err := rewrite.Rewrite(ctx, cfg, q, examples)
	if err != nil {
		return fail(strings.TrimPrefix(err.Error(), "rewrite: "))
	}
	p.log.Debug("query rewritten", "intent", res.Intent, "identifiers", res.Identifiers,
		"keywords", res.Keywords, "examples", len(examples), "took", time.Since(start).Round(time.Millisecond))
	return res, "", nil
}

// rewriteExamples turns the newest judgements recorded for q's query key
// (at most maxRewriteExamples) into examples: up votes are good results,
// down votes bad ones, each as "path#symbol" (or the path alone).
func (p *Project) rewriteExamples(ctx context.Context, pr *store.Project, q string) ([]rewrite.Example, error) {
	key := QueryKey(q)
	if key == "" {
		return nil, nil
	}
	js, err := p.db.Judgements(ctx, pr.ID, key)
	if err != nil {
		return nil, fmt.Errorf("read judgements: %w", err)
	}
	var out []rewrite.Example
	at := map[string]int{} // query text → index in out
	for i, j := range js {
		if i == maxRewriteExamples {
			break
		}
		k, ok := at[j.Query]
		if !ok {
			k = len(out)
			at[j.Query] = k
			out = append(out, rewrite.Example{Query: j.Query})
		}
		name := j.Path
		if j.Symbol != "" {
			name += "#" + j.Symbol
		}
		if j.Vote > 0 {
			out[k].Good = append(out[k].Good, name)
		} else {
			out[k].Bad = append(out[k].Bad, name)
		}
	}
	return out, nil
}

// rewriteTerms are the identifiers and keywords of a rewrite, to search as
// extra keywords.
func rewriteTerms(r *rewrite.Result) []string {
	return append(append([]string(nil), r.Identifiers...), r.Keywords...)
}

// rewriteDepth is the context depth for a rewrite's intent.
func rewriteDepth(intent string) string {
	switch intent {
	case rewrite.IntentImplementation:
		return "2"
	case rewrite.IntentUsage:
		return "1"
	case rewrite.IntentLocation:
		return "0"
	}
	return ""
}
