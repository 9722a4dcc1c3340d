package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"codectx/pkg/codectx"
)

// waitIndexed polls search_code until the background index answers with
// file among the results.
func waitIndexed(t *testing.T, cs *sdk.ClientSession, file string) {
	t.Helper()
	d := waitFor(t, 60*time.Second, "background index", func() bool {
		_, m := callOK(t, cs, "search_code", map[string]any{"query": "load configuration", "keywords": []string{"LoadConfig"}})
		return contains(resultFiles(m), file)
	})
	t.Logf("background index ready after %s", d.Round(time.Millisecond))
}

func TestToolsOverStdio(t *testing.T) {
	root := copyFixture(t)
	db := filepath.Join(t.TempDir(), "index.db")
	cs := startServer(t, root, db)

	t.Run("instructions", func(t *testing.T) {
		ins := cs.InitializeResult().Instructions
		for _, want := range []string{"grep_code", "glob_files", "read_file", "search_code", "get_context"} {
			if !strings.Contains(ins, want) {
				t.Errorf("instructions do not mention %s:\n%s", want, ins)
			}
		}
	})

	t.Run("list tools and schemas", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string][]string{
			"glob_files":       {"pattern"},
			"grep_code":        {"pattern"},
			"read_file":        {"file"},
			"search_code":      {"query"},
			"get_context":      {"query"},
			"code_graph":       {"name"},
			"index_status":     nil,
			"reindex":          nil,
			"rate_result":      {"query", "result_id", "vote"},
			"repo_map":         nil,
			"change_impact":    nil,
			"project_overview": nil,
		}
		props := map[string][]string{
			"glob_files":    {"pattern", "path", "limit", "sort"},
			"grep_code":     {"pattern", "path", "glob", "ignore_case", "fixed", "context", "head_limit", "max_results", "max_chars"},
			"read_file":     {"file", "offset", "limit"},
			"search_code":   {"query", "top_k", "mode", "keywords", "explain"},
			"get_context":   {"query", "budget", "depth", "keywords", "reset_session"},
			"code_graph":    {"name", "direction", "depth"},
			"repo_map":      {"budget", "focus"},
			"change_impact": {"base", "depth"},
		}
		seen := map[string]bool{}
		for _, tool := range res.Tools {
			seen[tool.Name] = true
			req, ok := want[tool.Name]
			if !ok {
				t.Errorf("unexpected tool %s", tool.Name)
				continue
			}
			if tool.Description == "" {
				t.Errorf("%s has no description", tool.Name)
			}
			var schema struct {
				Type       string                     `json:"type"`
				Required   []string                   `json:"required"`
				Properties map[string]json.RawMessage `json:"properties"`
			}
			data, _ := json.Marshal(tool.InputSchema)
			if err := json.Unmarshal(data, &schema); err != nil {
				t.Fatalf("%s schema: %v", tool.Name, err)
			}
			if schema.Type != "object" {
				t.Errorf("%s schema type %q", tool.Name, schema.Type)
			}
			got := slices.Clone(schema.Required)
			slices.Sort(got)
			if !slices.Equal(got, req) {
				t.Errorf("%s required = %v, want %v", tool.Name, got, req)
			}
			for _, p := range props[tool.Name] {
				raw, ok := schema.Properties[p]
				if !ok {
					t.Errorf("%s has no property %s", tool.Name, p)
					continue
				}
				if !strings.Contains(string(raw), `"description"`) {
					t.Errorf("%s.%s has no description: %s", tool.Name, p, raw)
				}
			}
			if tool.Annotations == nil || (tool.Name != "reindex" && tool.Name != "rate_result" && tool.Name != "change_impact" && !tool.Annotations.ReadOnlyHint) {
				t.Errorf("%s is not annotated read-only", tool.Name)
			}
		}
		for name := range want {
			if !seen[name] {
				t.Errorf("tool %s is missing", name)
			}
		}
		for _, tool := range res.Tools {
			if tool.Name == "search_code" {
				data, _ := json.Marshal(tool.InputSchema)
				for _, s := range []string{`"enum":["hybrid","keyword","semantic"]`, `"keywords":{`, `"type":"array"`} {
					if !strings.Contains(string(data), s) {
						t.Errorf("search_code schema lacks %s: %s", s, data)
					}
				}
			}
		}
	})

	// The exact tools answer at once, whatever the index's state.
	t.Run("glob_files", func(t *testing.T) {
		text, m := callOK(t, cs, "glob_files", map[string]any{"pattern": "**/*.go"})
		var files []string
		for _, f := range m["paths"].([]any) {
			files = append(files, f.(string))
		}
		if !contains(files, "server/server.go") || !contains(files, "server/config.go") || len(files) != 2 {
			t.Errorf("files = %v", files)
		}
		if sizes, times := m["sizes"].([]any), m["mtimes"].([]any); len(sizes) != 2 || len(times) != 2 || sizes[0].(float64) <= 0 || times[0].(float64) <= 0 {
			t.Errorf("sizes = %v, mtimes = %v", m["sizes"], m["mtimes"])
		}
		if !strings.Contains(text, "server/config.go") {
			t.Errorf("text lacks server/config.go:\n%s", text)
		}
	})

	t.Run("grep_code", func(t *testing.T) {
		text, m := callOK(t, cs, "grep_code", map[string]any{"pattern": `LoadConfig\(`, "glob": "*.go"})
		if n, _ := m["matches"].(float64); n < 2 {
			t.Errorf("matches = %v, want >= 2\n%s", m["matches"], text)
		}
		reads := list(m, "suggested_reads")
		if len(reads) == 0 {
			t.Errorf("no suggested_reads:\n%s", text)
		}
		if !strings.Contains(text, "server/config.go") {
			t.Errorf("text lacks server/config.go:\n%s", text)
		}
		_, m = callOK(t, cs, "grep_code", map[string]any{"pattern": "invoicecalculator", "ignore_case": true})
		if n, _ := m["matches"].(float64); n != 1 {
			t.Errorf("ignore_case: matches = %v, want 1", m["matches"])
		}
	})

	t.Run("read_file", func(t *testing.T) {
		text, m := callOK(t, cs, "read_file", map[string]any{"file": "server/config.go", "offset": 1, "limit": 3})
		if !strings.Contains(text, "package server") {
			t.Errorf("text:\n%s", text)
		}
		// The lines are in the text once; structured content says which.
		if m["path"] != "server/config.go" || m["more"] != true || m["offset"] != 1.0 || m["end"] != 3.0 || m["lines"] != nil {
			t.Errorf("structured = %v", m)
		}
		if n := strings.Count(text, "→"); n != 3 {
			t.Errorf("text has %d numbered lines, want 3:\n%s", n, text)
		}
	})

	waitIndexed(t, cs, "server/config.go")

	t.Run("search_code", func(t *testing.T) {
		text, m := callOK(t, cs, "search_code", map[string]any{
			"query": "invoice total with tax and discount", "top_k": 3, "keywords": []string{"compute_total", "InvoiceCalculator"},
		})
		files := resultFiles(m)
		if len(files) == 0 || len(files) > 3 || !contains(files, "billing/invoice.py") {
			t.Errorf("results = %v\n%s", files, text)
		}
		if s, _ := m["summary"].(string); s == "" {
			t.Errorf("no summary: %v", m)
		}
		if !strings.Contains(text, "billing/invoice.py") {
			t.Errorf("text lacks billing/invoice.py:\n%s", text)
		}
		// explain adds the parts of each score to the structured results
		// and a score line per hit to the text.
		text, m = callOK(t, cs, "search_code", map[string]any{"query": "invoice total with tax and discount", "top_k": 2, "explain": true})
		rs, _ := m["results"].([]any)
		for _, r := range rs {
			if x, _ := r.(map[string]any)["explain"].(map[string]any); x == nil || x["keyword"] == nil || x["file"] == nil {
				t.Errorf("explain: result without its score's parts: %v", r)
			}
		}
		if len(rs) == 0 || strings.Count(text, "score: ") != len(rs) {
			t.Errorf("explain: %d results, text:\n%s", len(rs), text)
		}
		// top_k out of range is refused with the words the CLI uses for -k
		// (one validation, codectx.SearchOptions.Validate), never clamped.
		res := call(t, cs, "search_code", map[string]any{"query": "cart", "top_k": 500, "mode": "keyword"})
		want := codectx.SearchOptions{Query: "cart", K: 500}.Validate().Error()
		if !res.IsError || textOf(res) != want {
			t.Errorf("top_k 500: error %v, text %q, want %q", res.IsError, textOf(res), want)
		}
	})

	t.Run("get_context", func(t *testing.T) {
		text, m := callOK(t, cs, "get_context", map[string]any{
			"query": "how is the invoice total computed", "budget": 2000, "depth": 1, "keywords": []string{"compute_total", "apply_discount"},
		})
		if !strings.Contains(text, "compute_total") {
			t.Errorf("context lacks compute_total:\n%s", text)
		}
		if len(list(m, "files")) == 0 {
			t.Errorf("no files: %v", m)
		}
		_, _ = callOK(t, cs, "get_context", map[string]any{"query": "shopping cart", "depth": "auto"})
		// budget is validated like the CLI's --budget: the same check, the same words.
		for _, b := range []int{0, -5} {
			res := call(t, cs, "get_context", map[string]any{"query": "shopping cart", "budget": b})
			want := fmt.Sprintf("budget must be positive, got %d", b)
			if !res.IsError || !strings.Contains(textOf(res), want) {
				t.Errorf("budget %d: error %v, text %q, want %q", b, res.IsError, textOf(res), want)
			}
		}
	})

	t.Run("code_graph", func(t *testing.T) {
		text, m := callOK(t, cs, "code_graph", map[string]any{"name": "StartHTTPServer", "direction": "out"})
		if !strings.Contains(text, "LoadConfig") {
			t.Errorf("graph lacks LoadConfig:\n%s", text)
		}
		if len(list(m, "nodes")) < 2 {
			t.Errorf("nodes = %v", m["nodes"])
		}
	})

	t.Run("orientation", func(t *testing.T) {
		text, m := callOK(t, cs, "repo_map", map[string]any{"budget": 300})
		if !strings.HasPrefix(text, "# repository map") || m["tokens"].(float64) > 300 || len(list(m, "files")) == 0 {
			t.Errorf("repo_map: %v\n%s", m["tokens"], text)
		}
		if res := call(t, cs, "repo_map", map[string]any{"budget": 10}); !res.IsError {
			t.Error("repo_map with budget 10 must be an error")
		}
		text, _ = callOK(t, cs, "project_overview", map[string]any{})
		if !strings.Contains(text, "# project overview") || !strings.Contains(text, "freshness:") {
			t.Errorf("project_overview:\n%s", text)
		}
		text, m = callOK(t, cs, "change_impact", map[string]any{})
		if !strings.Contains(text, "# change impact") || m["git"] != false {
			t.Errorf("change_impact outside git:\n%s", text)
		}
		if res := call(t, cs, "change_impact", map[string]any{"base": "HEAD"}); !res.IsError {
			t.Error("change_impact with a base outside git must be an error")
		}
	})

	t.Run("index_status", func(t *testing.T) {
		text, m := callOK(t, cs, "index_status", map[string]any{})
		if m["indexed"] != true {
			t.Errorf("indexed = %v\n%s", m["indexed"], text)
		}
		if n, _ := m["files"].(float64); n < 5 {
			t.Errorf("files = %v", m["files"])
		}
		if n, _ := m["chunks"].(float64); n < 5 {
			t.Errorf("chunks = %v", m["chunks"])
		}
		if m["embedding_model"] == "" || m["embedding_model"] == nil {
			t.Errorf("no embedding model: %v", m)
		}
		stale, _ := m["stale"].(map[string]any)
		if stale["changed"] != 0.0 || stale["added"] != 0.0 || stale["removed"] != 0.0 {
			t.Errorf("stale = %v", stale)
		}
		ix, _ := m["indexing"].(map[string]any)
		if ix["indexed"] != true {
			t.Errorf("indexing = %v", ix)
		}
		for _, s := range []string{"files:", "chunks", "embedding model", "watching"} {
			if !strings.Contains(text, s) {
				t.Errorf("status text lacks %q:\n%s", s, text)
			}
		}
	})

	t.Run("rate_result", func(t *testing.T) {
		const q = "parse configuration file"
		order := func(query string) []string {
			_, m := callOK(t, cs, "search_code", map[string]any{"query": query, "top_k": 5})
			rs, _ := m["results"].([]any)
			var ids []string
			for _, r := range rs {
				h := r.(map[string]any)
				ids = append(ids, fmt.Sprintf("%s:%v", h["file"], h["start_line"]))
			}
			return ids
		}
		before := order(q)
		if len(before) < 2 {
			t.Skipf("need two results to reorder, got %v", before)
		}
		otherBefore := order("read file lines")
		callOK(t, cs, "rate_result", map[string]any{"query": q, "result_id": before[0], "vote": "down"})
		callOK(t, cs, "rate_result", map[string]any{"query": q, "result_id": before[1], "vote": "up"})
		after := order("configuration file parse") // same keywords, other order
		if len(after) == 0 || after[0] != before[1] {
			t.Errorf("feedback did not promote %s: before %v, after %v", before[1], before, after)
		}
		if otherAfter := order("read file lines"); !slices.Equal(otherBefore, otherAfter) {
			t.Errorf("feedback changed an unrelated query: %v → %v", otherBefore, otherAfter)
		}
		res := call(t, cs, "rate_result", map[string]any{"query": q, "result_id": before[0], "vote": "sideways"})
		if !res.IsError {
			t.Error("bad vote accepted")
		}
	})

	t.Run("reindex", func(t *testing.T) {
		text, m := callOK(t, cs, "reindex", map[string]any{})
		sum, _ := m["summary"].(map[string]any)
		if sum == nil || sum["changed"] != 0.0 {
			t.Errorf("summary = %v\n%s", sum, text)
		}
		_, m = callOK(t, cs, "reindex", map[string]any{"background": true})
		if m["started"] != true {
			t.Errorf("background reindex: %v", m)
		}
	})

	t.Run("concurrent calls", func(t *testing.T) {
		type job struct {
			tool  string
			args  map[string]any
			check func(text string, m map[string]any) error
		}
		grepFile := func(pattern, file string) job {
			return job{"grep_code", map[string]any{"pattern": pattern, "fixed": true}, func(text string, m map[string]any) error {
				lines := list(m, "lines")
				if len(lines) == 0 {
					return fmt.Errorf("no lines")
				}
				for _, l := range lines {
					if l["path"] != file {
						return fmt.Errorf("line from %v, want %s", l["path"], file)
					}
				}
				return nil
			}}
		}
		searchFile := func(id, file string) job {
			return job{"search_code", map[string]any{"query": id, "mode": "keyword", "keywords": []string{id}}, func(text string, m map[string]any) error {
				files := resultFiles(m)
				if len(files) == 0 || files[0] != file {
					return fmt.Errorf("results %v, want %s first", files, file)
				}
				return nil
			}}
		}
		readFile := func(file, want string) job {
			return job{"read_file", map[string]any{"file": file}, func(text string, m map[string]any) error {
				if m["path"] != file || !strings.Contains(text, want) {
					return fmt.Errorf("read %v", m["path"])
				}
				return nil
			}}
		}
		jobs := []job{
			grepFile("def apply_discount", "billing/invoice.py"),
			grepFile("removeFromCart", "web/cart.ts"),
			grepFile("findUserByEmail", "java/UserRepository.java"),
			searchFile("healthHandler", "server/server.go"),
			searchFile("ShoppingCart", "web/cart.ts"),
			searchFile("findUserByEmail", "java/UserRepository.java"),
			readFile("README.md", "Fixture shop"),
			readFile("billing/invoice.py", "TAX_RATE"),
		}
		var wg sync.WaitGroup
		errs := make([]error, len(jobs))
		start := make(chan struct{})
		for i, j := range jobs {
			wg.Go(func() {
				<-start
				ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
				defer cancel()
				res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: j.tool, Arguments: j.args})
				if err != nil {
					errs[i] = err
					return
				}
				if res.IsError {
					errs[i] = fmt.Errorf("tool error: %s", textOf(res))
					return
				}
				data, _ := json.Marshal(res.StructuredContent)
				var m map[string]any
				if err := json.Unmarshal(data, &m); err != nil {
					errs[i] = err
					return
				}
				errs[i] = j.check(textOf(res), m)
			})
		}
		close(start)
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("call %d %s(%v): %v", i, jobs[i].tool, jobs[i].args, err)
			}
		}
	})

	t.Run("bad arguments are tool errors", func(t *testing.T) {
		cases := []struct {
			tool string
			args any
			want string // in the error text
		}{
			{"grep_code", map[string]any{"pattern": 42}, "pattern"},
			{"search_code", map[string]any{}, "query"},
			{"search_code", map[string]any{"query": "   "}, "query"},
			{"search_code", map[string]any{"query": "cart", "top_k": "five"}, "top_k"},
			{"search_code", map[string]any{"query": "cart", "mode": "fuzzy"}, "mode"},
			{"get_context", map[string]any{"keywords": []string{"x"}}, "query"},
			{"get_context", map[string]any{"query": "cart", "depth": 7}, "depth"},
			{"read_file", map[string]any{"file": "../../../../etc/passwd"}, "outside"},
			{"read_file", map[string]any{"file": "/etc/passwd"}, "outside"},
			{"read_file", map[string]any{"file": "no/such/file.go"}, "no/such/file.go"},
			{"glob_files", map[string]any{"pattern": "*", "path": "../"}, "outside"},
			{"grep_code", map[string]any{"pattern": "x", "path": "/etc"}, "outside"},
			{"grep_code", map[string]any{"pattern": "(unclosed"}, "pattern"},
			{"code_graph", map[string]any{"name": "NoSuchSymbolAnywhere"}, "NoSuchSymbolAnywhere"},
			{"code_graph", map[string]any{"name": "LoadConfig", "direction": "sideways"}, "direction"},
			{"glob_files", map[string]any{"pattern": "*.go", "unknown_field": true}, "unknown_field"},
		}
		for _, c := range cases {
			res := call(t, cs, c.tool, c.args)
			text := textOf(res)
			if !res.IsError {
				t.Errorf("%s(%v): not an error: %s", c.tool, c.args, text)
				continue
			}
			if !strings.Contains(strings.ToLower(text), strings.ToLower(c.want)) {
				t.Errorf("%s(%v): error %q does not mention %q", c.tool, c.args, text, c.want)
			}
			// The server keeps serving.
			callOK(t, cs, "glob_files", map[string]any{"pattern": "*.md"})
		}
		// An unknown tool is a protocol error, and the server survives it too.
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "no_such_tool", Arguments: map[string]any{}}); err == nil {
			t.Errorf("unknown tool: no error")
		}
		callOK(t, cs, "index_status", map[string]any{})
	})
}
