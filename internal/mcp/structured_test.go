package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestStructuredOrientation: repo_map, project_overview and code_graph
// advertise an output schema, their structured content validates against
// it (checked here on the client side) and carries the data by reference —
// symbols, kinds, paths, lines, ranks — while the prose (signatures,
// package summaries) is only in the text.
func TestStructuredOrientation(t *testing.T) {
	cs := inProcess(t, copyFixture(t), "")
	ctx := context.Background()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	schemas := map[string]*jsonschema.Resolved{}
	for _, tool := range tools.Tools {
		if tool.OutputSchema == nil {
			continue
		}
		data, err := json.Marshal(tool.OutputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var sc jsonschema.Schema
		if err := json.Unmarshal(data, &sc); err != nil {
			t.Fatalf("%s output schema: %v", tool.Name, err)
		}
		if sc.Type != "object" {
			t.Errorf("%s output schema type %q", tool.Name, sc.Type)
		}
		r, err := sc.Resolve(nil)
		if err != nil {
			t.Fatalf("%s output schema does not resolve: %v", tool.Name, err)
		}
		schemas[tool.Name] = r
	}
	// call returns the text and the structured content, validated against
	// the tool's schema.
	call := func(t *testing.T, name string, args map[string]any) (string, map[string]any) {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.IsError {
			t.Fatalf("%s failed: %s", name, textOf(res))
		}
		r := schemas[name]
		if r == nil {
			t.Fatalf("%s has no output schema", name)
		}
		data, _ := json.Marshal(res.StructuredContent)
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatal(err)
		}
		if err := r.Validate(v); err != nil {
			t.Errorf("%s structured content does not match its schema: %v\n%s", name, err, data)
		}
		return textOf(res), structured(t, res)
	}

	t.Run("repo_map", func(t *testing.T) {
		text, m := call(t, "repo_map", map[string]any{"budget": 400})
		files := list(m, "files")
		if len(files) == 0 {
			t.Fatalf("no files: %v", m)
		}
		sigs, named := 0, 0
		for _, f := range files {
			path, _ := f["path"].(string)
			if !strings.Contains(text, "\n"+path+"\n") && !strings.Contains(text, "\n"+path+" … ") {
				t.Errorf("file %s is not in the text", path)
			}
			symbols, kinds, lines, ranks := f["symbols"].([]any), f["kinds"].([]any), f["lines"].([]any), f["ranks"].([]any)
			if len(kinds) != len(symbols) || len(lines) != len(symbols) || len(ranks) != len(symbols) {
				t.Fatalf("%s: arrays of different lengths: %v", path, f)
			}
			n := int(f["signatures"].(float64))
			for i := range symbols {
				sym, _ := symbols[i].(string)
				line, _ := lines[i].(float64)
				rank, _ := ranks[i].(float64)
				if sym == "" || kinds[i] == "" || line < 1 || rank < 1 {
					t.Errorf("%s: definition %d without symbol, kind, line or rank: %v", path, i, f)
				}
				short := sym[strings.LastIndexByte(sym, '.')+1:]
				if i < n {
					sigs++
					if !strings.Contains(text, fmt.Sprintf("%d: ", int(line))) {
						t.Errorf("signature %s line %d is not a line of the text", sym, int(line))
					}
				} else {
					named++
				}
				if !strings.Contains(text, short) {
					t.Errorf("definition %s is not in the text", sym)
				}
			}
		}
		if sigs == 0 || float64(sigs) != m["shown"].(float64) || float64(named) != m["named"].(float64) {
			t.Errorf("items: %d signatures, %d names; the map says shown %v, named %v", sigs, named, m["shown"], m["named"])
		}
		// The signature lines are in the text only.
		data, _ := json.Marshal(m)
		for _, l := range strings.Split(text, "\n") {
			if _, sig, ok := strings.Cut(strings.TrimSpace(l), ": "); ok && len(sig) > 12 && !strings.HasPrefix(l, "#") && !strings.Contains(l, "…") {
				if strings.Contains(string(data), sig) {
					t.Errorf("structured content repeats the signature %q", sig)
				}
			}
		}
	})

	t.Run("project_overview", func(t *testing.T) {
		text, m := call(t, "project_overview", map[string]any{})
		pkgs := list(m, "packages")
		if len(pkgs) == 0 {
			t.Fatalf("no packages: %v", m)
		}
		data, _ := json.Marshal(m)
		for _, p := range pkgs {
			path, _ := p["path"].(string)
			if !strings.Contains(text, "  "+path+" (") || p["summary_from"] == "" {
				t.Errorf("package %v is not in the text or has no summary source", p)
			}
		}
		// Package summaries are prose of the text only.
		for _, l := range strings.Split(text, "\n") {
			if _, summary, ok := strings.Cut(l, "): "); ok && strings.HasPrefix(l, "  ") && len(summary) > 12 {
				if strings.Contains(string(data), summary) {
					t.Errorf("structured content repeats the summary %q", summary)
				}
			}
		}
		if _, ok := m["tests"].(map[string]any)["top_dirs"]; !ok {
			t.Errorf("tests without top_dirs: %v", m["tests"])
		}
	})

	t.Run("code_graph", func(t *testing.T) {
		_, m := call(t, "code_graph", map[string]any{"name": "compute_total", "direction": "both"})
		nodes, edges := list(m, "nodes"), list(m, "edges")
		if len(nodes) < 2 || len(edges) == 0 {
			t.Fatalf("nodes %v edges %v", nodes, edges)
		}
		keys := map[string]bool{}
		for _, n := range nodes {
			keys[n["key"].(string)] = true
			if _, ok := n["signature"]; ok {
				t.Errorf("node carries its signature: %v", n)
			}
		}
		for _, e := range edges {
			if !keys[e["from"].(string)] || !keys[e["to"].(string)] || e["kind"] == "" {
				t.Errorf("edge %v does not join two nodes of the answer", e)
			}
		}
	})
}
