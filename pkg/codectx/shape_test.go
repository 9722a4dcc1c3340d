package codectx

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"codectx/internal/testfix"
)

// TestJSONShape pins the JSON of every result the CLI prints with --json and
// the HTTP API answers (both encode these values as they are): its paths and
// value kinds, in testdata/golden/json_shape.txt. A refactor of the public
// types must leave the file unchanged (-update rewrites it).
func TestJSONShape(t *testing.T) {
	ctx := context.Background()
	root := testfix.CopyTree(t, filepath.Join("testdata", "shop"))
	// A history for EvaluateGit: two commits, the second a task.
	runGit(t, root, "init", "-q")
	runGit(t, root, "add", ".")
	runGit(t, root, "commit", "-q", "-m", "import the shop example")
	appendFile(t, filepath.Join(root, "store", "item.go"), "\n// Discounts are rounded down.\n")
	runGit(t, root, "commit", "-q", "-am", "round the discounted price of an item down")
	p, err := Open(root, Options{DBPath: filepath.Join(t.TempDir(), "index.db"), Config: &Config{Threads: 1}, Embedder: testfix.Embedder{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	sum, err := p.Index(ctx, IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var progress IndexProgress
	if _, err := p.Index(ctx, IndexOptions{Rebuild: true, Progress: func(pr IndexProgress) { progress = pr }}); err != nil {
		t.Fatal(err)
	}
	results := []struct {
		name string
		call func() (any, error)
	}{
		{"index", func() (any, error) { return sum, nil }},
		{"progress", func() (any, error) { return progress, nil }},
		{"stats", func() (any, error) { return p.Stats(ctx) }},
		{"status", func() (any, error) { return p.Status(ctx) }},
		{"search", func() (any, error) {
			return p.Search(ctx, SearchOptions{Query: "discounted price of an item", Keywords: []string{"Discounted"}})
		}},
		{"context", func() (any, error) {
			return p.Context(ctx, ContextOptions{Query: "how is the price of an item discounted"})
		}},
		{"graph", func() (any, error) { return p.Graph(ctx, GraphOptions{Name: "Price", Depth: 2}) }},
		{"grep", func() (any, error) {
			return p.Grep(ctx, GrepOptions{Pattern: "Discounted", Context: 1, HeadLimit: 1, Engine: "native"})
		}},
		{"glob", func() (any, error) { return p.Glob(ctx, GlobOptions{Pattern: "*.go"}) }},
		{"read", func() (any, error) { return p.Read(ctx, ReadOptions{File: "store/item.go", Limit: 3}) }},
		{"eval", func() (any, error) { return p.Evaluate(ctx, evalSet(t), EvalOptions{}) }},
		{"eval-context", func() (any, error) {
			return p.EvaluateContext(ctx, evalSet(t), ContextEvalOptions{Runs: []ContextRun{{Budget: 2000, Depth: "auto"}}})
		}},
		{"eval-git", func() (any, error) { return p.EvaluateGit(ctx, GitEvalOptions{}) }},
		{"feedback", func() (any, error) { return p.Feedback(ctx, "discounted price", "store/item.go#Item.Discounted", 1) }},
	}
	var b strings.Builder
	for _, r := range results {
		v, err := r.call()
		if err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		b.WriteString("== " + r.name + "\n")
		b.WriteString(testfix.JSONShape(t, v))
	}
	goldenFile(t, "json_shape.txt", b.String())

	// graph --format json prints what /api/graph answers.
	g, err := p.Graph(ctx, GraphOptions{Name: "Price", Depth: 2})
	if err != nil {
		t.Fatal(err)
	}
	out, err := g.Format(GraphFormatJSON)
	if err != nil {
		t.Fatal(err)
	}
	if want := testfix.JSONShape(t, g); testfix.JSONShape(t, json.RawMessage(out)) != want {
		t.Errorf("graph --format json differs from the graph's JSON:\n%s", out)
	}
}

// evalSet is a golden set of two tasks over testdata/shop, one found and
// one missed.
func evalSet(t *testing.T) *GoldenSet {
	t.Helper()
	set, err := ParseGoldenSet(strings.NewReader(
		`{"id": "a", "query": "discounted price of an item", "lang": "en", "kind": "implementation", "targets": [{"file": "store/item.go", "symbol": "Item.Discounted"}]}
{"id": "b", "query": "zebra migration", "lang": "en", "kind": "location", "targets": [{"file": "nowhere.go"}]}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}
