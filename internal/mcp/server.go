// Package mcp serves one project to Model Context Protocol clients: the exact
// tools (glob_files, grep_code, read_file), the index tools (search_code,
// get_context, code_graph), the orientation tools (repo_map, change_impact,
// project_overview), index_status, reindex and rate_result, over any SDK
// transport (its own FrameTransport on stdin/stdout for `codectx mcp`, the
// streamable HTTP transport for `codectx serve`). It keeps the index fresh
// with internal/watch: a first index is built in the background, file
// changes are re-indexed, and searches say when they may be behind the disk.
//
// It is a thin layer over pkg/codectx: it must not rank, search, parse or
// query the database itself, must never write to stdout (the protocol
// channel) and must never write into the project. Only reindex and
// rate_result write, and only to the index database; calls are served
// concurrently (index writes take the project's writer lock).
package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"codectx/internal/watch"
	"codectx/pkg/codectx"
)

// Options configure New.
type Options struct {
	// NoWatch disables the file watcher: a stat pass (an incremental index
	// run that only stats unchanged files) runs before each search instead.
	NoWatch bool
	// FreshWait bounds how long a search waits for a pending re-index before
	// answering with stale files flagged; 0 means 10 s.
	FreshWait time.Duration
	// Debounce is the watcher's quiet period; 0 means 300 ms.
	Debounce time.Duration
	// Version is reported to clients; "" means the module version.
	Version string
	// Logger receives diagnostics (stderr only); nil discards them.
	Logger *slog.Logger
}

// Server is an MCP server over one open project.
type Server struct {
	p    *codectx.Project
	opt  Options
	log  *slog.Logger
	svc  *watch.Service
	sdk  *sdk.Server
	stop context.CancelFunc
	// sessions maps each MCP session to what get_context sent it.
	sessions sync.Map
	// sessionEnded, when set (by tests), runs after an ended session's
	// memory was dropped.
	sessionEnded func()
}

// New starts keeping p's index fresh (a background pass now, then on every
// change) and registers the tools. Close stops the background work; it does
// not close p.
func New(ctx context.Context, p *codectx.Project, opt Options) (*Server, error) {
	if p == nil {
		return nil, errors.New("mcp: no project")
	}
	if opt.FreshWait <= 0 {
		opt.FreshWait = 10 * time.Second
	}
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opt.Version == "" {
		opt.Version = moduleVersion()
	}
	_, statErr := p.Stats(ctx)
	indexed := statErr == nil
	if statErr != nil && !errors.Is(statErr, codectx.ErrNotIndexed) {
		return nil, fmt.Errorf("mcp: read index of %s: %w", p.Root(), statErr)
	}
	if !indexed {
		log.Info("project has no index yet; building it in the background", "root", p.Root())
	}
	bg, stop := context.WithCancel(context.WithoutCancel(ctx))
	s := &Server{p: p, opt: opt, log: log, stop: stop}
	s.svc = watch.Start(bg, watch.ServiceOptions{
		Root:     p.Root(),
		Indexed:  indexed,
		DBPath:   p.DB(),
		NoWatch:  opt.NoWatch,
		Debounce: opt.Debounce,
		Logger:   log,
		Run: func(ctx context.Context, progress func(codectx.IndexProgress)) (*codectx.IndexSummary, error) {
			return p.Index(ctx, codectx.IndexOptions{Progress: progress})
		},
		OnPass: func(sum *codectx.IndexSummary, err error) {
			if err != nil {
				log.Warn("index pass failed", "err", err)
				return
			}
			log.Info("index pass", "changed", sum.Changed, "removed", sum.Removed, "unchanged", sum.Unchanged,
				"chunks", sum.TotalChunks, "seconds", fmt.Sprintf("%.2f", sum.ElapsedSec))
		},
	})
	s.sdk = sdk.NewServer(&sdk.Implementation{Name: "codectx", Title: "codectx code context", Version: opt.Version},
		&sdk.ServerOptions{Instructions: instructions(p.Root()), Logger: log, Capabilities: &sdk.ServerCapabilities{}})
	s.register()
	return s, nil
}

// Run serves one client over t until it disconnects or ctx ends.
func (s *Server) Run(ctx context.Context, t sdk.Transport) error {
	err := s.sdk.Run(ctx, t)
	if err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		return fmt.Errorf("mcp: serve: %w", err)
	}
	return nil
}

// SDK exposes the underlying server (for in-process transports in tests).
func (s *Server) SDK() *sdk.Server { return s.sdk }

// Close stops the watcher and any running index pass.
func (s *Server) Close() {
	s.stop()
	s.svc.Close()
}

// Serve runs the server for p over newline-delimited JSON on in/out (the
// process's stdin and stdout for `codectx mcp`) until the client disconnects
// or ctx ends. A malformed frame is answered with a JSON-RPC error and the
// session goes on (see FrameTransport).
func Serve(ctx context.Context, p *codectx.Project, opt Options, in io.ReadCloser, out io.WriteCloser) error {
	s, err := New(ctx, p, opt)
	if err != nil {
		return err
	}
	defer s.Close()
	return s.Run(ctx, &FrameTransport{In: in, Out: out, Logger: s.log})
}

func moduleVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

func instructions(root string) string {
	return `codectx answers questions about the code under ` + root + `. Every tool but reindex and rate_result only reads; several calls may run at once.

Pick tools in this order:
1. Exact names, strings, error messages, file names and call chains: grep_code (regular expression or fixed string) or glob_files (file names), then read_file on the suggested_reads ranges they return. They need no index and always see the current files.
2. Vague descriptions ("where are retries handled?", "the code that checks tokens"), or when exact search found nothing after a couple of tries: search_code (ranked code chunks) or get_context (one budgeted bundle: the best chunks plus the code they call and are called by). Pass keywords: the identifiers and English terms you expect in the code.
3. code_graph: who calls a function, what it calls, what a type extends or implements.

Paths are relative to the project root; suggested reads name the read_file call to make. index_status shows whether the index is built and current; the server re-indexes changed files by itself, so reindex is rarely needed.`
}
