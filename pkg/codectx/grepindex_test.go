package codectx

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"codectx/internal/grepindex"
)

// TestIndexWritesGrepIndex: an index run leaves the grep index next to the
// database; Project.Grep (and Grep with DBPath) search through it with
// the result of a search without it, also for a file added since.
func TestIndexWritesGrepIndex(t *testing.T) {
	ctx := context.Background()
	root := copyFixture(t, "shop")
	p := openIndexed(t, root)
	path := grepindex.Path(p.DB(), p.Root())
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("no grep index after Index: %v", err)
	}
	check := func(pattern string, wantFiles int) {
		t.Helper()
		opt := GrepOptions{Pattern: pattern, IgnoreCase: true, MaxResults: 500}
		got, err := p.Grep(ctx, opt)
		if err != nil {
			t.Fatal(err)
		}
		if got.Engine != "index" {
			t.Errorf("%q: engine %q, want index", pattern, got.Engine)
		}
		opt.Engine = "native"
		want, err := Grep(ctx, p.Root(), opt)
		if err != nil {
			t.Fatal(err)
		}
		got.Engine, want.Engine = "", ""
		gotText, wantText := got.Text(), want.Text()
		got.src, want.src = nil, nil // the internal results differ in their engine only
		if !reflect.DeepEqual(got, want) || gotText != wantText {
			t.Errorf("%q: indexed\n%s\nwithout index\n%s", pattern, gotText, wantText)
		}
		if got.Files != wantFiles {
			t.Errorf("%q: %d files, want %d", pattern, got.Files, wantFiles)
		}
	}
	check("package api", 2)
	if err := os.WriteFile(filepath.Join(root, "api", "extra.txt"), []byte("PACKAGE API notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check("package api", 3)

	// The CLI's path: the package-level Grep with the database path.
	res, err := Grep(ctx, p.Root(), GrepOptions{Pattern: "package api", IgnoreCase: true, DBPath: p.DB()})
	if err != nil || res.Engine != "index" || res.Files != 3 {
		t.Errorf("Grep with DBPath: engine %q, %d files, %v", res.Engine, res.Files, err)
	}
}
