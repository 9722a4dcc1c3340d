package orient

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"codectx/internal/testfix"
)

// LoadAt keeps the last graph for its generation: the same generation
// shares it, a new one (after an index run that changed the project) reads
// the project again, and generation 0 always reads.
func TestLoadAtFollowsTheGeneration(t *testing.T) {
	p := testfix.Index(t, filepath.Join("testdata", "small"))
	ctx := context.Background()
	gen := func() int64 {
		pr, err := p.DB.Project(ctx, p.Root)
		if err != nil {
			t.Fatal(err)
		}
		return pr.Generation
	}
	g0 := gen()
	a, err := LoadAt(ctx, p.DB, p.ID, g0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := LoadAt(ctx, p.DB, p.ID, g0)
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Error("the same generation read the graph again")
	}
	if c, _ := LoadAt(ctx, p.DB, p.ID, 0); c == a {
		t.Error("generation 0 used the cache")
	}
	if err := os.WriteFile(filepath.Join(p.Root, "b.go"), []byte("package small\n\n// Walk calls Run.\nfunc Walk() { Run() }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p.Reindex(t)
	g1 := gen()
	if g1 == g0 {
		t.Fatalf("generation did not move: %d", g1)
	}
	c, err := LoadAt(ctx, p.DB, p.ID, g1)
	if err != nil {
		t.Fatal(err)
	}
	if c == a || len(c.Chunks) != len(a.Chunks)+1 {
		t.Errorf("after the change: %d chunks (was %d), same graph %v", len(c.Chunks), len(a.Chunks), c == a)
	}
}
