package codectx_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"codectx/pkg/codectx"
)

// exampleProject writes a tiny project and returns its root and a database path.
func exampleProject() (root, db string, cleanup func()) {
	dir, _ := os.MkdirTemp("", "codectx-example")
	root = filepath.Join(dir, "project")
	os.MkdirAll(root, 0o755)
	os.WriteFile(filepath.Join(root, "store.go"), []byte(`package store

// Cache keeps recently used values in memory.
type Cache struct{ items map[string]string }

// Get returns a cached value.
func (c *Cache) Get(key string) string { return c.items[key] }

// Evict removes the least recently used entry when the cache is full.
func (c *Cache) Evict() { c.drop(oldestKey(c)) }

func (c *Cache) drop(key string) { delete(c.items, key) }

func oldestKey(c *Cache) string { return "" }
`), 0o644)
	return root, filepath.Join(dir, "index.db"), func() { os.RemoveAll(dir) }
}

func Example() {
	root, db, cleanup := exampleProject()
	defer cleanup()
	ctx := context.Background()

	p, err := codectx.Open(root, codectx.Options{DBPath: db})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Close()
	sum, err := p.Index(ctx, codectx.IndexOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("files indexed:", sum.Changed)

	res, err := p.Search(ctx, codectx.SearchOptions{Query: "remove least recently used entry", K: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("best:", res.Results[0].Name)
	// Output:
	// files indexed: 1
	// best: Cache.Evict()
}

func ExampleProject_Graph() {
	root, db, cleanup := exampleProject()
	defer cleanup()
	ctx := context.Background()
	p, _ := codectx.Open(root, codectx.Options{DBPath: db})
	defer p.Close()
	p.Index(ctx, codectx.IndexOptions{})

	g, err := p.Graph(ctx, codectx.GraphOptions{Name: "Cache.Evict", Direction: "out"})
	if err != nil {
		fmt.Println(err)
		return
	}
	names := map[string]string{}
	for _, n := range g.Nodes {
		names[n.Key] = n.Name
	}
	for _, e := range g.Edges {
		fmt.Println(names[e.From], e.Kind, names[e.To])
	}
	// Output:
	// Cache.Evict calls Cache.drop
	// Cache.Evict calls oldestKey
}

func ExampleGrep() {
	root, _, cleanup := exampleProject()
	defer cleanup()
	res, err := codectx.Grep(context.Background(), root, codectx.GrepOptions{Pattern: `func \(c \*Cache\) \w+`, Engine: "native"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, l := range res.Lines {
		fmt.Printf("%s:%d\n", l.Path, l.Line)
	}
	// Output:
	// store.go:7
	// store.go:10
	// store.go:12
}

func ExampleProject_Context() {
	root, db, cleanup := exampleProject()
	defer cleanup()
	ctx := context.Background()
	p, _ := codectx.Open(root, codectx.Options{DBPath: db})
	defer p.Close()
	p.Index(ctx, codectx.IndexOptions{})

	c, err := p.Context(ctx, codectx.ContextOptions{Query: "how does the cache evict entries", Budget: 500})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Tokens <= 500)
	// Output:
	// true
}
