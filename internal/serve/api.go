package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"codectx/pkg/codectx"
)

// call is an API operation with its parameters already read.
type call func(ctx context.Context) (any, error)

// operation reads its parameters (recording type errors in p) and returns
// the call to make once they are all known to be good.
type operation func(pr *project, p *params) call

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	s.pageRoutes(mux)
	mux.HandleFunc("GET /api/projects", s.listProjects)
	reads := map[string]operation{
		"search": searchOp, "context": contextOp, "graph": graphOp,
		"grep": grepOp, "glob": globOp, "read": readOp, "status": statusOp,
	}
	for name, op := range reads {
		mux.Handle("GET /api/"+name, s.api(op, false))
		mux.Handle("POST /api/"+name, s.api(op, false))
	}
	for name, op := range map[string]operation{"reindex": reindexOp, "feedback": feedbackOp} {
		mux.Handle("POST /api/"+name, s.api(op, true))
		mux.HandleFunc("/api/"+name, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", http.MethodPost)
			writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("%s writes: use POST", name), nil)
		})
	}
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no API endpoint %s", r.URL.Path), nil)
	})
	m := sdk.NewStreamableHTTPHandler(s.mcpServer, &sdk.StreamableHTTPOptions{Stateless: true, Logger: s.log})
	mux.Handle("/mcp", m)
	mux.Handle("/mcp/{project}", m)
	return s.guard(mux)
}

// mcpServer picks the MCP server of /mcp/{project}, or of the first project
// for /mcp; nil (a 400) for an unknown project.
func (s *Server) mcpServer(r *http.Request) *sdk.Server {
	pr, err := s.lookup(r.PathValue("project"))
	if err != nil {
		return nil
	}
	return pr.mcp.SDK()
}

// projectInfo is one entry of /api/projects.
type projectInfo struct {
	ID   string `json:"id"`
	Root string `json:"root"`
	DB   string `json:"db"`
	MCP  string `json:"mcp"`
}

// projectList is /api/projects' answer.
type projectList struct {
	Version     string        `json:"version,omitempty"`
	AllowWrites bool          `json:"allow_writes"`
	Projects    []projectInfo `json:"projects"`
}

func (s *Server) listProjects(w http.ResponseWriter, r *http.Request) {
	out := projectList{Version: s.opt.Version, AllowWrites: s.opt.AllowWrites, Projects: []projectInfo{}}
	for _, pr := range s.projects {
		out.Projects = append(out.Projects, projectInfo{ID: pr.id, Root: pr.p.Root(), DB: pr.p.DB(), MCP: "/mcp/" + pr.id})
	}
	writeJSON(w, http.StatusOK, out)
}

// lookup finds a project by id or root; "" means the only (or first, for
// MCP) project.
func (s *Server) lookup(key string) (*project, error) {
	if key == "" {
		return s.projects[0], nil
	}
	for _, pr := range s.projects {
		if pr.id == key {
			return pr, nil
		}
	}
	if filepath.IsAbs(key) {
		c := filepath.Clean(key)
		real, _ := filepath.EvalSymlinks(c)
		for _, pr := range s.projects {
			if pr.p.Root() == c || pr.p.Root() == real {
				return pr, nil
			}
		}
	}
	return nil, &unknownProject{key: key, s: s}
}

type unknownProject struct {
	key string
	s   *Server
}

func (e *unknownProject) Error() string {
	var ids []string
	for _, pr := range e.s.projects {
		ids = append(ids, pr.id)
	}
	return fmt.Sprintf("unknown project %q (served: %s)", e.key, strings.Join(ids, ", "))
}

// api serves one operation: parameters, project, writes check, the call,
// and its JSON answer or error.
func (s *Server) api(op operation, write bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if write && !s.opt.AllowWrites {
			writeError(w, http.StatusForbidden, "write operations (reindex, feedback) are disabled on this server", nil)
			return
		}
		p, err := readParams(r)
		if err != nil {
			s.fail(w, err)
			return
		}
		key := p.str("project")
		if key == "" && len(s.projects) > 1 {
			s.fail(w, paramErrorf("parameter project is required: %d projects are served (see /api/projects)", len(s.projects)))
			return
		}
		pr, err := s.lookup(key)
		if err != nil {
			s.fail(w, err)
			return
		}
		c := op(pr, p)
		if err := p.check(); err != nil {
			s.fail(w, err)
			return
		}
		res, err := c(r.Context())
		if err != nil {
			s.fail(w, err)
			return
		}
		writeJSON(w, http.StatusOK, res)
	})
}

// ---- operations: parameters named as the MCP tools' arguments ----

func searchOp(pr *project, p *params) call {
	opt := codectx.SearchOptions{Query: p.str("query"), K: p.int("top_k"), Mode: p.str("mode"), Ranker: p.str("ranker"), Keywords: p.list("keywords"),
		Explain: p.bool("explain")}
	return func(ctx context.Context) (any, error) {
		return fresh(ctx, pr, func() (any, error) { return pr.p.Search(ctx, opt) })
	}
}

func contextOp(pr *project, p *params) call {
	opt := codectx.ContextOptions{Query: p.str("query"), Budget: p.int("budget"), Depth: p.str("depth"), Keywords: p.list("keywords"), K: p.int("seeds")}
	return func(ctx context.Context) (any, error) {
		return fresh(ctx, pr, func() (any, error) { return pr.p.Context(ctx, opt) })
	}
}

func graphOp(pr *project, p *params) call {
	opt := codectx.GraphOptions{Name: p.str("name"), Direction: p.str("direction"), Depth: p.int("depth"), MinConfidence: p.str("min_confidence")}
	return func(ctx context.Context) (any, error) {
		return fresh(ctx, pr, func() (any, error) { return pr.p.Graph(ctx, opt) })
	}
}

func grepOp(pr *project, p *params) call {
	opt := codectx.GrepOptions{
		Pattern: p.str("pattern"), Path: p.str("path"), Glob: p.str("glob"),
		IgnoreCase: p.bool("ignore_case"), Fixed: p.bool("fixed"), Context: p.int("context"),
		HeadLimit: p.int("head_limit"), MaxResults: p.int("max_results"), MaxChars: p.int("max_chars"),
	}
	return func(ctx context.Context) (any, error) { return pr.p.Grep(ctx, opt) }
}

func globOp(pr *project, p *params) call {
	opt := codectx.GlobOptions{Pattern: p.str("pattern"), Path: p.str("path"), Limit: p.int("limit"), Sort: p.str("sort")}
	return func(ctx context.Context) (any, error) { return pr.p.Glob(ctx, opt) }
}

func readOp(pr *project, p *params) call {
	opt := codectx.ReadOptions{File: p.str("file"), Offset: p.int("offset"), Limit: p.int("limit")}
	return func(ctx context.Context) (any, error) { return pr.p.Read(ctx, opt) }
}

func statusOp(pr *project, _ *params) call {
	return func(ctx context.Context) (any, error) { return pr.mcp.IndexStatus(ctx) }
}

func reindexOp(pr *project, p *params) call {
	bg := p.bool("background")
	return func(ctx context.Context) (any, error) { return pr.mcp.Reindex(ctx, bg) }
}

func feedbackOp(pr *project, p *params) call {
	q, id, v := p.str("query"), p.str("result_id"), p.str("vote")
	return func(ctx context.Context) (any, error) {
		vote, err := codectx.ParseVote(v)
		if err != nil {
			return nil, err
		}
		return pr.p.Feedback(ctx, q, id, vote)
	}
}

// fresh brings the index up to date (as the MCP tools do) before an index
// read, and explains a missing index.
func fresh(ctx context.Context, pr *project, read func() (any, error)) (any, error) {
	f := pr.mcp.Fresh(ctx)
	res, err := read()
	if errors.Is(err, codectx.ErrNotIndexed) {
		return nil, &notIndexed{id: pr.id, note: f.Note}
	}
	return res, err
}

type notIndexed struct{ id, note string }

func (e *notIndexed) Error() string {
	msg := fmt.Sprintf("project %s is not indexed yet", e.id)
	if e.note != "" {
		msg += ": " + e.note
	}
	return msg
}

// ---- answers ----

// apiError is the body of every error answer.
type apiError struct {
	Error       string   `json:"error"`
	Status      int      `json:"status"`
	Suggestions []string `json:"suggestions,omitempty"`
}

// fail answers err with the status its kind calls for.
func (s *Server) fail(w http.ResponseWriter, err error) {
	status := http.StatusInternalServerError
	var (
		tl  *tooLarge
		up  *unknownProject
		ni  *notIndexed
		snf *codectx.SymbolNotFoundError
	)
	var sugg []string
	msg := err.Error()
	switch {
	case errors.As(err, &tl):
		status = http.StatusRequestEntityTooLarge
	case errors.Is(err, errBadParams):
		status = http.StatusBadRequest
	case errors.As(err, &up):
		status = http.StatusNotFound
	case errors.Is(err, context.DeadlineExceeded):
		status, msg = http.StatusGatewayTimeout, fmt.Sprintf("the request took longer than %s", s.opt.Timeout)
	case errors.Is(err, context.Canceled):
		status = 499 // the client went away; nobody reads this
	case errors.As(err, &ni), errors.Is(err, codectx.ErrModelMismatch):
		status = http.StatusConflict
	case errors.Is(err, codectx.ErrOutsideRoot):
		status = http.StatusForbidden
	case errors.Is(err, codectx.ErrFileNotFound):
		status = http.StatusNotFound
	case errors.As(err, &snf):
		status, sugg = http.StatusNotFound, snf.Suggestions
	case codectx.IsBadInput(err):
		status = http.StatusBadRequest
	}
	if status == http.StatusInternalServerError {
		s.log.Error("request failed", "err", err)
	}
	writeError(w, status, msg, sugg)
}

func writeError(w http.ResponseWriter, status int, msg string, sugg []string) {
	writeJSON(w, status, apiError{Error: msg, Status: status, Suggestions: sugg})
}

// writeJSON writes v indented as the CLI's --json does.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}
