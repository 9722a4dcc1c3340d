package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"codectx/pkg/codectx"
)

func TestCLIOrientBadInput(t *testing.T) {
	t.Setenv("EMBEDDING_PROVIDER", "local")
	dir := t.TempDir()
	db := filepath.Join(dir, "index.db")
	proj := filepath.Join(dir, "proj")
	empty := filepath.Join(dir, "empty")
	os.MkdirAll(proj, 0o755)
	os.MkdirAll(empty, 0o755)
	os.WriteFile(filepath.Join(proj, "a.go"), []byte("package a\n\nfunc A() { B() }\n\nfunc B() {}\n"), 0o644)
	if _, err := runCLI(t, "map", proj, "--db", db); !errors.Is(err, codectx.ErrNotIndexed) && !errors.Is(err, codectx.ErrNoIndex) {
		t.Fatalf("map before indexing: %v", err)
	}
	for _, p := range []string{proj, empty} {
		if _, err := runCLI(t, "index", p, "--db", db); err != nil {
			t.Fatal(err)
		}
	}
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.email=t@example.com", "-c", "user.name=t"}, args...)...)
		cmd.Dir = proj
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Skipf("git unavailable (%v): %s", err, out)
		}
	}
	cases := []struct {
		name    string
		args    []string
		wantErr string
		usage   bool
	}{
		{name: "budget too small", args: []string{"map", proj, "--db", db, "--budget", "10"}, wantErr: "--budget must be at least", usage: true},
		{name: "budget below one symbol", args: []string{"map", proj, "--db", db, "--budget", "64", "--focus", strings.Repeat("x", 400)}, wantErr: "budget too small", usage: true},
		{name: "bad rank", args: []string{"map", proj, "--db", db, "--rank", "magic"}, usage: true},
		{name: "empty project", args: []string{"map", empty, "--db", db}, wantErr: "no definitions"},
		{name: "base outside git", args: []string{"impact", proj, "--db", db, "--base", "main"}, wantErr: "not inside a git work tree", usage: true},
		{name: "bad depth", args: []string{"impact", proj, "--db", db, "--depth", "9"}, usage: true},
	}
	if out, err := exec.Command("git", "-C", proj, "rev-parse", "--show-toplevel").CombinedOutput(); err == nil {
		t.Skipf("%s is inside a git work tree (%s)", proj, out)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := runCLI(t, tc.args...)
			if err == nil {
				t.Fatal("no error")
			}
			var ue usageError
			if tc.usage != errors.As(err, &ue) {
				t.Fatalf("usage error = %v, want %v (%v)", !tc.usage, tc.usage, err)
			}
			if tc.wantErr != "" && !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("error %q lacks %q", err, tc.wantErr)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error is not one line: %q", err)
			}
		})
	}

	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "a")
	_, err := runCLI(t, "impact", proj, "--db", db, "--base", "no-such-ref")
	var ue usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "base ref does not exist") {
		t.Fatalf("unknown base: %v", err)
	}
	out, err := runCLI(t, "impact", proj, "--db", db)
	if err != nil || !strings.Contains(out, "no changes") {
		t.Fatalf("clean tree: %v\n%s", err, out)
	}
}
