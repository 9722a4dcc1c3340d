package codectx

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestFindRoot(t *testing.T) {
	t.Setenv("EMBEDDING_PROVIDER", "local")
	ctx := context.Background()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(base, "home", "index.db")
	mk := func(rel string) string {
		p := filepath.Join(base, rel)
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	plain := mk("plain/deep")
	repo := mk("repo/a/b")
	indexed := mk("repo/svc/pkg/inner")
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: the work-tree fallback cannot be tested")
	}
	if out, err := exec.Command("git", "init", "-q", filepath.Join(base, "repo")).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	// Before any index exists (and without a database file) the git top wins.
	if got, err := FindRoot(ctx, indexed, db); err != nil || got != filepath.Join(base, "repo") {
		t.Fatalf("no database: FindRoot = %q, %v", got, err)
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Fatalf("FindRoot created the database: %v", err)
	}
	svc := filepath.Join(base, "repo/svc")
	os.WriteFile(filepath.Join(svc, "a.go"), []byte("package svc\n\nfunc A() {}\n"), 0o644)
	p, err := Open(svc, Options{DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Index(ctx, IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	p.Close()

	cases := []struct{ dir, want string }{
		{indexed, svc},                      // nearest indexed ancestor
		{svc, svc},                          // the root itself
		{repo, filepath.Join(base, "repo")}, // not under an indexed root: git top
		{plain, plain},                      // neither: the directory itself
		{filepath.Join(base, "repo"), filepath.Join(base, "repo")},
	}
	for _, tc := range cases {
		got, err := FindRoot(ctx, tc.dir, db)
		if err != nil || got != tc.want {
			t.Errorf("FindRoot(%s) = %q, %v; want %q", tc.dir, got, err, tc.want)
		}
	}
	if _, err := FindRoot(ctx, filepath.Join(base, "missing"), db); err == nil {
		t.Error("FindRoot of a missing directory: no error")
	}
}

func TestNearestRoot(t *testing.T) {
	roots := []string{"/a", "/a/b", "/ab", "/x/y"}
	for dir, want := range map[string]string{
		"/a/b/c": "/a/b", "/a/bc": "/a", "/ab/c": "/ab", "/x": "", "/a": "/a",
	} {
		if got := nearestRoot(dir, roots); got != want {
			t.Errorf("nearestRoot(%s) = %q, want %q", dir, got, want)
		}
	}
}
