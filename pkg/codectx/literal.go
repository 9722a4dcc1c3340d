package codectx

import (
	"context"
	"errors"
	"fmt"

	"codectx/internal/assemble"
	"codectx/internal/search"
	"codectx/internal/store"
)

// Quoted literals as context seeds: a question that quotes a literal (an
// error message, a string the code writes) names the places that hold it
// verbatim, and the ranked search often misses them (its words are
// punctuation, stop words or split tokens). They are found with the
// project's grep (its trigram index when built) and handed to the
// assembler beside the search hits.

// Bounds of the literal look-up: literals per question, matching lines
// read per literal and per file, and the most files a literal may match
// (more means it is too common to point at the place that was meant).
const (
	maxLiterals       = 2
	maxLiteralLines   = 12
	maxLiteralPerFile = 3
	maxLiteralFiles   = 4
)

// literalSeeds returns the chunks (outside test files and vendored
// dependencies, which the search demotes too) holding a literal
// the question quotes, scored like the best search hit, best literal
// first; none when the question quotes nothing.
func (p *Project) literalSeeds(ctx context.Context, pr *store.Project, q string, seeds []assemble.Seed) ([]assemble.Seed, error) {
	lits := assemble.QuotedLiterals(q)
	if len(lits) == 0 {
		return nil, nil
	}
	best := 1.0
	for _, s := range seeds {
		best = max(best, s.Score)
	}
	var out []assemble.Seed
	seen := map[int64]bool{}
	for _, lit := range lits[:min(len(lits), maxLiterals)] {
		g, err := p.Grep(ctx, GrepOptions{Pattern: lit, Fixed: true, HeadLimit: maxLiteralPerFile, MaxResults: maxLiteralLines})
		if err != nil {
			return nil, fmt.Errorf("look up quoted literal %q: %w", lit, err)
		}
		files := map[string]bool{}
		for _, l := range g.Lines {
			if l.Kind == "match" && !search.IsTestPath(l.Path) && !search.IsDependencyPath(l.Path) {
				files[l.Path] = true
			}
		}
		if len(files) == 0 || len(files) > maxLiteralFiles || g.Partial {
			continue
		}
		for _, l := range g.Lines {
			if l.Kind != "match" || !files[l.Path] {
				continue
			}
			sym, err := p.db.ChunkAtLine(ctx, pr.ID, l.Path, l.Line)
			if errors.Is(err, store.ErrNoChunk) {
				continue
			}
			if err != nil {
				return nil, err
			}
			c, ok, err := p.db.ChunkBySymbol(ctx, pr.ID, l.Path, sym)
			if err != nil {
				return nil, err
			}
			if !ok || c.Kind == "text" || seen[c.ID] {
				continue
			}
			seen[c.ID] = true
			out = append(out, assemble.Seed{ChunkID: c.ID, Score: best})
		}
	}
	return out, nil
}
