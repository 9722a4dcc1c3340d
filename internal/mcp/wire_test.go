package mcp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"codectx/internal/assemble"
	"codectx/internal/mcp"
	"codectx/pkg/codectx"
)

// inProcess serves project root (indexed into db, or a fresh database when
// db is "") through the SDK's in-memory transports and returns the client
// session.
func inProcess(t *testing.T, root, db string) *sdk.ClientSession {
	t.Helper()
	ctx := context.Background()
	if db == "" {
		db = filepath.Join(t.TempDir(), "index.db")
	}
	p, err := codectx.Open(root, codectx.Options{DBPath: db, Config: &codectx.Config{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	if _, err := p.Index(ctx, codectx.IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	s, err := mcp.New(ctx, p, mcp.Options{NoWatch: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	st, ct := sdk.NewInMemoryTransports()
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- s.Run(sctx, st) }()
	client := sdk.NewClient(&sdk.Implementation{Name: "wire-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		cancel()
		<-done
	})
	return cs
}

// wireSize is the serialized tool result as a client receives it: bytes
// and cl100k_base tokens.
func wireSize(t *testing.T, res *sdk.CallToolResult) (int, int) {
	t.Helper()
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	n, err := assemble.CountTokens(string(b))
	if err != nil {
		t.Fatal(err)
	}
	return len(b), n
}

// grepLine is a match line of grep_code's text: "path:line: text".
var grepLine = regexp.MustCompile(`^[^\s:]+:\d+: (.*)$`)

// TestWireSize calls every tool in process and measures its answer on the
// wire; get_context must stay within 1.15 × its budget, and no tool may
// send a code body twice (in the text and again in structured content).
// CODECTX_WIRE_ROOT and CODECTX_WIRE_DB point it at a bigger indexed
// project for measurements (docs/EVAL.md).
func TestWireSize(t *testing.T) {
	root, db := os.Getenv("CODECTX_WIRE_ROOT"), os.Getenv("CODECTX_WIRE_DB")
	fixture := root == ""
	if fixture {
		root, db = copyFixture(t), ""
	}
	cs := inProcess(t, root, db)
	ctx := context.Background()
	readFile := "billing/invoice.py"
	if !fixture {
		readFile = os.Getenv("CODECTX_WIRE_READ")
	}
	calls := []struct {
		tool   string
		args   map[string]any
		budget int
	}{
		{"get_context", map[string]any{"query": "how is the invoice total computed", "budget": 1000}, 1000},
		{"get_context", map[string]any{"query": "how is the invoice total computed", "budget": 2000}, 2000},
		{"get_context", map[string]any{"query": "who calls compute_total", "budget": 4000}, 4000},
		{"get_context", map[string]any{"query": "how does the server start and load its configuration", "budget": 8000}, 8000},
		{"search_code", map[string]any{"query": "invoice total", "top_k": 10}, 0},
		{"grep_code", map[string]any{"pattern": "def |func "}, 0},
		{"glob_files", map[string]any{"pattern": "**/*"}, 0},
		{"read_file", map[string]any{"file": readFile}, 0},
		{"code_graph", map[string]any{"name": "compute_total"}, 0},
		{"repo_map", map[string]any{"budget": 1000}, 0},
		{"project_overview", map[string]any{}, 0},
		{"index_status", map[string]any{}, 0},
	}
	if !fixture {
		calls[2].args["query"] = "who calls Header.Get"
		calls[8].args["name"] = "Header.Get"
	}
	for _, c := range calls {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil {
			t.Fatalf("%s: %v", c.tool, err)
		}
		if res.IsError {
			t.Errorf("%s(%v) failed: %s", c.tool, c.args, textOf(res))
			continue
		}
		bytes, tokens := wireSize(t, res)
		tt, _ := assemble.CountTokens(textOf(res))
		sb, _ := json.Marshal(res.StructuredContent)
		st, _ := assemble.CountTokens(string(sb))
		t.Logf("%-16s %-6v %7d bytes %6d tokens (text %d, structured %d)", c.tool, c.args["budget"], bytes, tokens, tt, st)
		if c.budget > 0 && float64(tokens) > 1.15*float64(c.budget) {
			t.Errorf("%s budget %d: %d tokens on the wire (> 1.15 × budget)", c.tool, c.budget, tokens)
		}
		// No code twice: no line of code of the text is repeated in the
		// structured content.
		if sc, err := json.Marshal(res.StructuredContent); err == nil {
			fence := false
			for _, l := range strings.Split(textOf(res), "\n") {
				if strings.HasPrefix(l, "```") {
					fence = !fence
					continue
				}
				// Code: inside a fence, an indented snippet line, a
				// numbered line of read_file ("  12→…") or a grep line
				// ("path:12: …").
				code := fence || strings.HasPrefix(l, "    ")
				if i := strings.Index(l, "→"); i > 0 && strings.TrimSpace(strings.TrimLeft(l[:i], " 0123456789")) == "" {
					code, l = true, l[i+len("→"):]
				} else if m := grepLine.FindStringSubmatch(l); m != nil {
					code, l = true, m[1]
				}
				l = strings.TrimSpace(l)
				if !code || len(l) < 30 {
					continue
				}
				q, _ := json.Marshal(l)
				if strings.Contains(string(sc), strings.Trim(string(q), `"`)) {
					t.Errorf("%s: structured content repeats the text line %q", c.tool, l)
					break
				}
			}
		}
	}
}

// TestSessionMemory: within one MCP session, a chunk sent in full is not
// sent again but listed as already sent; reset_session sends it again.
func TestSessionMemory(t *testing.T) {
	cs := inProcess(t, copyFixture(t), "")
	ctx := context.Background()
	ask := func(reset bool) string {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_context", Arguments: map[string]any{
			"query": "how is the invoice total computed", "budget": 4000, "reset_session": reset}})
		if err != nil || res.IsError {
			t.Fatalf("get_context: %v %s", err, textOf(res))
		}
		return textOf(res)
	}
	const body = "def compute_total(self, items):"
	first := ask(false)
	if !strings.Contains(first, body) || strings.Contains(first, "already sent") {
		t.Fatalf("first answer:\n%s", first)
	}
	second := ask(false)
	if strings.Contains(second, body) || !strings.Contains(second, "already sent (call 1)") {
		t.Errorf("second answer repeats or does not list the sent chunk:\n%s", second)
	}
	third := ask(true)
	if !strings.Contains(third, body) {
		t.Errorf("after reset_session the chunk is not sent again:\n%s", third)
	}
}
