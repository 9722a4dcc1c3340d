package codectx

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"codectx/internal/grepindex"
	"codectx/internal/store"
)

// TestIndexPrepareSearch: with PrepareSearch an index run leaves the search
// side files of its own generation and the grep index behind; without it,
// only the grep index.
func TestIndexPrepareSearch(t *testing.T) {
	for _, prepare := range []bool{false, true} {
		t.Run(map[bool]string{false: "plain", true: "prepare"}[prepare], func(t *testing.T) {
			dir := t.TempDir()
			src := "package demo\n\n// Sum adds two numbers.\nfunc Sum(a, b int) int { return a + b }\n"
			if err := os.WriteFile(filepath.Join(dir, "sum.go"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			dbPath := filepath.Join(t.TempDir(), "index.db")
			p, err := Open(dir, Options{DBPath: dbPath})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			sum, err := p.Index(ctx, IndexOptions{PrepareSearch: prepare})
			if err != nil {
				t.Fatal(err)
			}
			if sum.SearchFilesError != "" {
				t.Fatalf("search files: %s", sum.SearchFilesError)
			}
			pr, err := p.project(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, kind := range []string{store.SideMeta, store.SideVectors} {
				if got := p.db.HasSideFile(ctx, pr, kind); got != prepare {
					t.Errorf("side file %s present %v, want %v", kind, got, prepare)
				}
			}
			if _, err := os.Stat(grepindex.Path(dbPath, p.Root())); err != nil {
				t.Errorf("grep index: %v", err)
			}
		})
	}
}
