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
