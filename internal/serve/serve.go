// Package serve is codectx's HTTP service (`codectx serve`): a JSON API over
// pkg/codectx (search, context, graph, grep, glob, read, status, reindex,
// feedback) for one or more projects, the MCP tools of internal/mcp over
// the streamable HTTP transport at /mcp, and a web page whose assets are
// embedded in the binary. It guards every request: loopback only unless a
// bearer token is configured, a body size and a time limit, and the
// operations that write to the index only with AllowWrites.
//
// It is a thin layer: it must not rank, search, parse, read project files
// or query the database itself — every answer comes from pkg/codectx (which
// also confines paths to the project root and validates options) or from
// internal/mcp — and it must never write into a project.
package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"codectx/internal/mcp"
	"codectx/pkg/codectx"
)

// Defaults of Options.
const (
	DefaultAddr     = "127.0.0.1:7777"
	DefaultMaxBody  = 1 << 20
	DefaultTimeout  = 60 * time.Second
	DefaultShutdown = 15 * time.Second
)

// Options configure New.
type Options struct {
	// Token, when set, is required on every request (Authorization: Bearer,
	// or the cookie the page gets from ?token=). A listener on a
	// non-loopback address needs one (see CheckAddr).
	Token string
	// AllowWrites enables reindex and feedback (HTTP and MCP).
	AllowWrites bool
	// MaxBody bounds a request body in bytes; 0 means 1 MiB.
	MaxBody int64
	// Timeout bounds one request; 0 means 60 s.
	Timeout time.Duration
	// NoWatch disables the file watchers (a stat pass runs before each
	// search instead), as in `codectx mcp --no-watch`.
	NoWatch bool
	// Version is reported by /api/projects and to MCP clients.
	Version string
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
}

// project is one served project: its id in URLs, the open project and the
// MCP server that keeps its index fresh.
type project struct {
	id  string
	p   *codectx.Project
	mcp *mcp.Server
}

// Server answers HTTP requests for a set of projects.
type Server struct {
	opt      Options
	log      *slog.Logger
	projects []*project
	handler  http.Handler
	// onShutdown, when set (tests), runs when the graceful shutdown begins.
	onShutdown func()
}

// New builds a server over the open projects (at least one). Each project
// gets an MCP server, which indexes it in the background when needed and
// watches its files. Close stops that work; it does not close the projects.
func New(ctx context.Context, projects []*codectx.Project, opt Options) (*Server, error) {
	if len(projects) == 0 {
		return nil, errors.New("serve: no project")
	}
	if opt.MaxBody <= 0 {
		opt.MaxBody = DefaultMaxBody
	}
	if opt.Timeout <= 0 {
		opt.Timeout = DefaultTimeout
	}
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s := &Server{opt: opt, log: log}
	used := map[string]bool{}
	for _, p := range projects {
		m, err := mcp.New(ctx, p, mcp.Options{NoWatch: opt.NoWatch, Version: opt.Version, Logger: log})
		if err != nil {
			s.Close()
			return nil, err
		}
		if !opt.AllowWrites {
			m.RemoveWriteTools()
		}
		s.projects = append(s.projects, &project{id: projectID(p.Root(), used), p: p, mcp: m})
	}
	s.handler = s.routes()
	return s, nil
}

// projectID is the base name of root, made unique with a numeric suffix.
func projectID(root string, used map[string]bool) string {
	base := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == '?' || r == '#' || r == '%' || r == ' ' {
			return '-'
		}
		return r
	}, filepath.Base(root))
	if base == "" || base == "." || base == string(filepath.Separator) {
		base = "project"
	}
	id := base
	for i := 2; used[id]; i++ {
		id = base + "-" + strconv.Itoa(i)
	}
	used[id] = true
	return id
}

// Handler is the server's HTTP handler (every route, behind the guards).
func (s *Server) Handler() http.Handler { return s.handler }

// Close stops the background indexing and watching of every project.
func (s *Server) Close() {
	for _, pr := range s.projects {
		pr.mcp.Close()
	}
}

// Serve answers requests on ln until ctx ends, then shuts down gracefully:
// no new connections, in-flight requests finish (at most DefaultShutdown).
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       s.opt.Timeout,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
		// In-flight requests must outlive ctx (the signal): Shutdown waits
		// for them.
		BaseContext: func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	if s.onShutdown != nil {
		hs.RegisterOnShutdown(s.onShutdown)
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), DefaultShutdown)
	defer cancel()
	err := hs.Shutdown(sctx)
	if e := <-errc; e != nil && !errors.Is(e, http.ErrServerClosed) && err == nil {
		err = e
	}
	if err != nil {
		return fmt.Errorf("serve: shutdown: %w", err)
	}
	return nil
}

// CheckAddr refuses to listen on a non-loopback address without a token.
func CheckAddr(addr, token string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("address %q: %w", addr, err)
	}
	if IsLoopback(host) || token != "" {
		return nil
	}
	return fmt.Errorf("address %q is reachable from other machines: a token is required", addr)
}

// IsLoopback reports whether host (a name or an IP, without port) is the
// loopback interface. The empty host (every interface) is not.
func IsLoopback(host string) bool {
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
