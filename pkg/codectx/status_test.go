package codectx

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestStatusStaleness(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.go", "package a\n\nfunc A() {}\n")
	write("b.go", "package a\n\nfunc B() {}\n")
	write("c.py", "def c():\n    pass\n")
	p, err := Open(root, Options{DBPath: filepath.Join(t.TempDir(), "index.db"), Config: &Config{}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()

	st, err := p.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Indexed || st.Stale.Added != 3 || !strings.Contains(st.Text(), "not indexed yet") {
		t.Fatalf("before indexing: %+v\n%s", st, st.Text())
	}

	if _, err := p.Index(ctx, IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	st, err = p.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Indexed || st.Files != 3 || st.Chunks == 0 || st.Stale.Total() != 0 || st.EmbeddingModel == "" || st.IndexedAt.IsZero() {
		t.Fatalf("after indexing: %+v", st)
	}

	// One changed (new mtime and size), one added, one removed.
	write("a.go", "package a\n\nfunc A() { println(1) }\n")
	future := time.Now().Add(time.Minute)
	os.Chtimes(filepath.Join(root, "a.go"), future, future)
	write("d.go", "package a\n\nfunc D() {}\n")
	os.Remove(filepath.Join(root, "c.py"))
	st, err = p.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Stale.Changed != 1 || st.Stale.Added != 1 || st.Stale.Removed != 1 || !slices.Equal(st.Stale.Paths, []string{"a.go", "c.py", "d.go"}) {
		t.Fatalf("stale = %+v", st.Stale)
	}
	if !strings.Contains(st.Text(), "stale: 3 files (1 changed, 1 added, 1 removed): a.go, c.py, d.go") {
		t.Errorf("text:\n%s", st.Text())
	}
}

// Status and Index agree on what is stale: a file parsed by an older chunker
// is stale for both (one predicate, index.Fresh).
func TestStatusAgreesWithIndexOnChunkerVersion(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\n\nfunc A() {}\n"), 0o644)
	os.WriteFile(filepath.Join(root, "b.go"), []byte("package a\n\nfunc B() {}\n"), 0o644)
	p, err := Open(root, Options{DBPath: filepath.Join(t.TempDir(), "index.db"), Config: &Config{}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.Index(ctx, IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.db.SQL().ExecContext(ctx, "UPDATE files SET parser = 'an-older-chunker' WHERE path = 'a.go'"); err != nil {
		t.Fatal(err)
	}
	st, err := p.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Stale.Changed != 1 || !slices.Equal(st.Stale.Paths, []string{"a.go"}) {
		t.Fatalf("status after a chunker change: %+v", st.Stale)
	}
	sum, err := p.Index(ctx, IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Changed+sum.Unchanged != 2 || sum.Unchanged != 1 {
		t.Fatalf("index after a chunker change: %d changed, %d unchanged", sum.Changed, sum.Unchanged)
	}
	if st, _ = p.Status(ctx); st.Stale.Total() != 0 {
		t.Fatalf("stale after re-index: %+v", st.Stale)
	}
}
