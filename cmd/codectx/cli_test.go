package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"codectx/pkg/codectx"
)

// runCLI executes the command tree in-process and returns stdout and the error.
func runCLI(t *testing.T, args ...string) (string, error) {
	t.Helper()
	flagDB, flagVerbose = "", false
	root := newRoot()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), err
}

func TestCLIBadInput(t *testing.T) {
	t.Setenv("EMBEDDING_PROVIDER", "local")
	t.Setenv("CODECTX_TOKEN", "")
	dir := t.TempDir()
	db := filepath.Join(dir, "index.db")
	proj := filepath.Join(dir, "proj")
	os.MkdirAll(proj, 0o755)
	os.WriteFile(filepath.Join(proj, "a.go"), []byte("package a\n\nfunc A() {}\n"), 0o644)
	file := filepath.Join(proj, "a.go")

	cases := []struct {
		name    string
		args    []string
		wantErr string
		usage   bool
	}{
		{name: "missing path", args: []string{"index", filepath.Join(dir, "nope"), "--db", db}, wantErr: "no such directory"},
		{name: "file as root", args: []string{"index", file, "--db", db}, wantErr: "not a directory"},
		{name: "no index", args: []string{"stats", proj, "--db", db}, wantErr: "no index at " + db + "; run codectx index"},
		{name: "search not indexed", args: []string{"search", "x", "--root", proj, "--db", db}, wantErr: "codectx index"},
		{name: "empty search", args: []string{"search", "", "--root", proj, "--db", db}, usage: true},
		{name: "bad flag", args: []string{"index", "--nope"}, usage: true},
		{name: "empty grep", args: []string{"grep", "", "--root", proj}, usage: true},
		{name: "serve everywhere without token", args: []string{"serve", proj, "--addr", "0.0.0.0:7777", "--db", db}, wantErr: "token is required", usage: true},
		{name: "serve bad address", args: []string{"serve", proj, "--addr", "7777", "--db", db}, usage: true},
		{name: "serve missing project", args: []string{"serve", filepath.Join(dir, "nope"), "--db", db}, wantErr: "no such directory"},
		{name: "eval without a set", args: []string{"eval", "--db", db}, usage: true, wantErr: "--from-git"},
		{name: "from-git with -k", args: []string{"eval", "--from-git", "-k", "5", proj, "--db", db}, usage: true},
		{name: "max without from-git", args: []string{"eval", file, "--max", "5", "--db", db}, usage: true},
		{name: "before without from-git", args: []string{"eval", file, "--before", "2026-01-02", "--db", db}, usage: true},
		{name: "from-git with a bad --before", args: []string{"eval", "--from-git", "--before", "yesterday", proj, "--db", db}, usage: true, wantErr: "RFC 3339"},
		{name: "from-git without history", args: []string{"eval", "--from-git", proj, "--db", db}, usage: true, wantErr: "git repository"},
		{name: "eval-context without a set", args: []string{"eval-context", "--db", db}, usage: true, wantErr: "--from-git"},
		{name: "eval-context max without from-git", args: []string{"eval-context", file, "--max", "5", "--db", db}, usage: true},
		{name: "eval-context from-git with --root", args: []string{"eval-context", "--from-git", "--root", proj, "--db", db}, usage: true},
		{name: "eval-context from-git without history", args: []string{"eval-context", "--from-git", proj, "--db", db}, usage: true, wantErr: "git repository"},
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
			if tc.wantErr != "" && !strings.Contains(printed(err), tc.wantErr) {
				t.Fatalf("printed %q lacks %q", printed(err), tc.wantErr)
			}
			if tc.name == "no index" && !errors.Is(err, codectx.ErrNoIndex) {
				t.Fatalf("want ErrNoIndex, got %v", err)
			}
		})
	}

	// A corrupt database names --rebuild; --rebuild recovers.
	if _, err := runCLI(t, "index", proj, "--db", db); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(db, bytes.Repeat([]byte("garbage!"), 1000), 0o644)
	os.Remove(db + "-wal")
	os.Remove(db + "-shm")
	_, err := runCLI(t, "index", proj, "--db", db)
	if err == nil || !strings.Contains(printed(err), "--rebuild") {
		t.Fatalf("corrupt database: %v", err)
	}
	out, err := runCLI(t, "index", proj, "--db", db, "--rebuild")
	if err != nil || !strings.Contains(out, "1 changed") {
		t.Fatalf("--rebuild: %v\n%s", err, out)
	}
	out, err = runCLI(t, "stats", proj, "--db", db, "--json")
	if err != nil || !strings.Contains(out, `"files": 1`) {
		t.Fatalf("stats after rebuild: %v\n%s", err, out)
	}
}

// A --root that holds the set's header root reads the targets in their
// directory of it.
func TestEvalRootHoldingTheSetsRoot(t *testing.T) {
	t.Setenv("EMBEDDING_PROVIDER", "local")
	dir := t.TempDir()
	db := filepath.Join(dir, "index.db")
	proj := filepath.Join(dir, "proj")
	os.MkdirAll(filepath.Join(proj, "pkg", "parse"), 0o755)
	os.WriteFile(filepath.Join(proj, "pkg", "parse", "scan.go"), []byte("package parse\n\n// Tokenize splits a line into words.\nfunc Tokenize(line string) []string { return nil }\n"), 0o644)
	os.WriteFile(filepath.Join(proj, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
	set := filepath.Join(dir, "set.jsonl")
	os.WriteFile(set, []byte(`{"root": "`+filepath.Join(proj, "pkg", "parse")+`"}`+"\n"+
		`{"id": "t1", "query": "Tokenize a line into words", "targets": [{"file": "scan.go", "symbol": "Tokenize"}]}`+"\n"), 0o644)
	for _, tc := range []struct {
		root string
		want string
	}{
		{proj, "overall 1 | 1.000 1.000 1.000 1.000 | 1.000 1.000"},                                // the targets under pkg/parse
		{filepath.Join(proj, "pkg", "parse"), "overall 1 | 1.000 1.000 1.000 1.000 | 1.000 1.000"}, // the header root itself
	} {
		out, err := runCLI(t, "eval", set, "--root", tc.root, "--db", db)
		if err != nil {
			t.Fatalf("eval --root %s: %v\n%s", tc.root, err, out)
		}
		if !strings.Contains(strings.Join(strings.Fields(out), " "), tc.want) {
			t.Errorf("eval --root %s: want %q in\n%s", tc.root, tc.want, out)
		}
	}
}
