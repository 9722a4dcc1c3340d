package mcp

import (
	"context"
	"errors"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"codectx/internal/watch"
	"codectx/pkg/codectx"
)

// registerOrientation adds the orientation tools: repo_map,
// change_impact and project_overview.
func (s *Server) registerOrientation(ro *sdk.ToolAnnotations) {
	addTool(s, &sdk.Tool{
		Name:  ToolMap,
		Title: "Repository map",
		Description: "The project's most important files, types and functions as signatures, ranked by PageRank over the call/type/import graph " +
			"and cut to a token budget; pass focus (files or symbols you work on) to rank toward them. Use it first in an unfamiliar repository.",
		Annotations:  ro,
		OutputSchema: outputSchema[mapOut](),
	}, withEnum[mapIn](nil), s.repoMap)
	addTool(s, &sdk.Tool{
		Name:  ToolImpact,
		Title: "Impact of the current change",
		Description: "What the work tree's changes (against base, default HEAD; staged, unstaged, untracked) touch: the changed symbols, " +
			"their direct callers and implementers, dependants up to depth hops, the tests that exercise them, a risk summary, " +
			"and the files left alone that usually changed with them in the git history. " +
			"Use it after editing, before running tests. Re-indexes stale files first.",
		Annotations: &sdk.ToolAnnotations{IdempotentHint: true, OpenWorldHint: new(false)},
	}, withEnum[impactIn](nil), s.impact)
	addTool(s, &sdk.Tool{
		Name:  ToolOverview,
		Title: "Project overview",
		Description: "About 1,500 tokens on the project: languages and sizes, top-level packages with one line each, entry points, " +
			"hub symbols, test layout and how fresh the index is.",
		Annotations:  ro,
		OutputSchema: outputSchema[overviewOut](),
	}, emptyObject, s.overview)
}

func notIndexed(f watch.Freshness, err error) error {
	if errors.Is(err, codectx.ErrNotIndexed) && f.Indexing {
		return fmt.Errorf("the index is being built (%s); try again shortly, or use glob_files and grep_code", f.Note)
	}
	return err
}

func (s *Server) repoMap(ctx context.Context, in mapIn) (answer, error) {
	if in.Budget != 0 && in.Budget < codectx.MinMapBudget {
		return answer{}, fmt.Errorf("budget must be at least %d tokens, got %d", codectx.MinMapBudget, in.Budget)
	}
	f := s.svc.Fresh(ctx, s.opt.FreshWait)
	m, err := s.p.Map(ctx, codectx.MapOptions{Budget: in.Budget, Focus: in.Focus})
	if err != nil {
		return answer{}, notIndexed(f, err)
	}
	return answer{text: notesText(m.Warnings) + m.Text(), data: leanMap(m)}, nil
}

func (s *Server) impact(ctx context.Context, in impactIn) (answer, error) {
	if in.Depth < 0 || in.Depth > codectx.MaxImpactDepth {
		return answer{}, fmt.Errorf("depth must be between 1 and %d, got %d", codectx.MaxImpactDepth, in.Depth)
	}
	// A stale index is brought up to date by this server's own keeper, so
	// the pass never races the watcher's.
	r, err := s.p.Impact(ctx, codectx.ImpactOptions{Base: in.Base, Depth: in.Depth, Reindex: s.svc.Keeper().Sync})
	if err != nil {
		return answer{}, notIndexed(s.svc.Fresh(ctx, 0), err)
	}
	return answer{text: r.Text(), data: r}, nil
}

func (s *Server) overview(ctx context.Context, _ overviewIn) (answer, error) {
	f := s.svc.Fresh(ctx, s.opt.FreshWait)
	o, err := s.p.Overview(ctx)
	if err != nil {
		return answer{}, notIndexed(f, err)
	}
	return answer{text: o.Text(), data: leanOverview(o)}, nil
}
