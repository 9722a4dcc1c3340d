package mcp_test

import (
	"flag"
	"strings"
	"testing"

	"codectx/internal/testfix"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestStructuredShape pins the structured content of the tools over the
// public types (paths and value kinds, testdata/golden/structured_shape.txt):
// a refactor of pkg/codectx must leave it unchanged (-update rewrites it).
func TestStructuredShape(t *testing.T) {
	cs := inProcess(t, copyFixture(t), "")
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"glob_files", map[string]any{"pattern": "**/*.go"}},
		{"grep_code", map[string]any{"pattern": `LoadConfig\(`, "context": 1}},
		{"read_file", map[string]any{"file": "server/config.go", "offset": 1, "limit": 3}},
		{"search_code", map[string]any{"query": "load configuration", "keywords": []string{"LoadConfig"}}},
		{"get_context", map[string]any{"query": "how is the configuration loaded"}},
		{"code_graph", map[string]any{"name": "StartHTTPServer", "direction": "out"}},
		{"index_status", map[string]any{}},
	}
	var b strings.Builder
	for _, c := range calls {
		_, m := callOK(t, cs, c.tool, c.args)
		b.WriteString("== " + c.tool + "\n")
		b.WriteString(testfix.JSONShape(t, m))
	}
	testfix.Golden(t, "structured_shape.txt", b.String(), *update)
}

// TestToolValidationIsTheLibrarys checks that the tools validate as
// pkg/codectx does (and so as the CLI and the HTTP API do): a search by
// keywords alone is accepted, empty input is refused with the library's
// words.
func TestToolValidationIsTheLibrarys(t *testing.T) {
	cs := inProcess(t, copyFixture(t), "")
	if _, m := callOK(t, cs, "search_code", map[string]any{"query": "", "keywords": []string{"LoadConfig"}}); len(m["results"].([]any)) == 0 {
		t.Errorf("a search by keywords alone found nothing: %v", m)
	}
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"search_code", map[string]any{"query": " "}, "nothing to search for"},
		{"get_context", map[string]any{"query": ""}, "nothing to search for"},
		{"glob_files", map[string]any{"pattern": ""}, "empty pattern"},
		{"grep_code", map[string]any{"pattern": ""}, "empty pattern"},
		{"read_file", map[string]any{"file": ""}, "no file given"},
		{"code_graph", map[string]any{"name": " "}, "name must not be empty"},
		{"rate_result", map[string]any{"query": "", "result_id": "server/config.go:1", "vote": "up"}, "empty query"},
		{"rate_result", map[string]any{"query": "load config", "result_id": "", "vote": "up"}, "use FILE:LINE"},
	} {
		res := call(t, cs, c.tool, c.args)
		if text := textOf(res); !res.IsError || !strings.Contains(text, c.want) {
			t.Errorf("%s(%v): error %v, %q; want an error with %q", c.tool, c.args, res.IsError, text, c.want)
		}
	}
}

// TestReadFileNamesTheNextCall checks that read_file names the next page
// as a read_file call, never as a CLI flag.
func TestReadFileNamesTheNextCall(t *testing.T) {
	cs := inProcess(t, copyFixture(t), "")
	text, m := callOK(t, cs, "read_file", map[string]any{"file": "server/config.go", "offset": 1, "limit": 3})
	if m["more"] != true {
		t.Fatalf("server/config.go has only 3 lines? %v", m)
	}
	want := `more follow: read_file file="server/config.go" offset=4 limit=3)`
	if !strings.Contains(text, want) || strings.Contains(text, "--offset") {
		t.Errorf("read_file text %q: want %q and no CLI flag", text, want)
	}
}
