package mcp

import (
	"context"

	"codectx/internal/watch"
)

// The HTTP server (internal/serve) keeps a Server per project and answers
// its own routes through these methods, so that the HTTP API and the MCP
// tools share one index keeper and report the same status.

// Fresh brings the index up to date before a read, as the index tools do
// (waiting at most Options.FreshWait for a pending pass).
func (s *Server) Fresh(ctx context.Context) watch.Freshness {
	return s.svc.Fresh(ctx, s.opt.FreshWait)
}

// IndexStatus is index_status's structured result: the project's status,
// the keeper's progress and whether files are watched.
func (s *Server) IndexStatus(ctx context.Context) (any, error) {
	a, err := s.status(ctx, statusIn{})
	return a.data, err
}

// Reindex runs reindex: an index pass now (or, with background, a request
// for one) and its structured result.
func (s *Server) Reindex(ctx context.Context, background bool) (any, error) {
	a, err := s.reindex(ctx, reindexIn{Background: background})
	return a.data, err
}

// RemoveWriteTools withdraws the tools that write to the index (reindex,
// rate_result), for servers whose clients may only read.
func (s *Server) RemoveWriteTools() {
	s.sdk.RemoveTools(ToolReindex, ToolRate)
}
