package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"codectx/pkg/codectx"
)

// uxProject is an indexed two-package project in a git work tree and its
// database: repo/a.go, repo/sub/b.go.
func uxProject(t *testing.T) (repo, db string) {
	t.Helper()
	t.Setenv("EMBEDDING_PROVIDER", "local")
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	repo = filepath.Join(base, "repo")
	db = filepath.Join(base, "index.db")
	os.MkdirAll(filepath.Join(repo, "sub"), 0o755)
	os.WriteFile(filepath.Join(repo, "a.go"), []byte("package a\n\n// Alpha starts.\nfunc Alpha() { Beta() }\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "sub", "b.go"), []byte("package sub\n\n// Beta answers the betamax question.\nfunc Beta() {}\n\nfunc Betamax() {}\n"), 0o644)
	if _, err := runCLI(t, "index", repo, "--db", db); err != nil {
		t.Fatal(err)
	}
	return repo, db
}

func TestCLIProjectFromSubdirectory(t *testing.T) {
	repo, db := uxProject(t)
	t.Chdir(filepath.Join(repo, "sub"))
	out, err := runCLI(t, "search", "betamax question", "--db", db)
	if err != nil || !strings.Contains(out, "sub/b.go") {
		t.Fatalf("search from a subdirectory: %v\n%s", err, out)
	}
	// stats with neither PATH nor --root finds the same project.
	out, err = runCLI(t, "stats", "--db", db)
	if err != nil || !strings.Contains(out, "files: 2") {
		t.Fatalf("stats from a subdirectory: %v\n%s", err, out)
	}
	// grep and glob look below the current directory, as rg and git do.
	out, err = runCLI(t, "grep", "-l", "func", "--db", db)
	if err != nil || strings.TrimSpace(out) != "sub/b.go" {
		t.Fatalf("grep -l from sub: %v\n%q", err, out)
	}
	// read takes a path relative to the current directory as well as the root.
	for _, f := range []string{"b.go", "sub/b.go"} {
		out, err = runCLI(t, "read", f, "--limit", "1", "--db", db)
		if err != nil || !strings.Contains(out, "package sub") {
			t.Fatalf("read %s from sub: %v\n%s", f, err, out)
		}
		// The next page is a command runnable from anywhere.
		if want := "more follow: codectx read --root " + shellQuote(repo) + " sub/b.go --offset 2 --limit 1)"; !strings.Contains(out, want) {
			t.Fatalf("read %s: %q lacks %q", f, out, want)
		}
	}
	// PATH and --root together must agree.
	if _, err := runCLI(t, "stats", repo, "--root", filepath.Join(repo, "sub"), "--db", db); !isUsageErr(err) {
		t.Fatalf("PATH and a different --root: %v", err)
	}
}

func TestCLIGrepLikeRipgrep(t *testing.T) {
	repo, db := uxProject(t)
	cases := []struct {
		name    string
		args    []string
		want    string // in stdout
		noMatch bool
		usage   bool
	}{
		{name: "word", args: []string{"grep", "-w", "Beta"}, want: "sub/b.go:4"},
		{name: "word excludes longer", args: []string{"grep", "-w", "Betamax", "-l"}, want: "sub/b.go"},
		{name: "word no partial", args: []string{"grep", "-w", "Bet"}, noMatch: true},
		{name: "files only", args: []string{"grep", "-l", "Beta"}, want: "a.go\nsub/b.go\n"},
		{name: "short glob", args: []string{"grep", "-g", "sub/*.go", "-l", "func"}, want: "sub/b.go\n"},
		{name: "path argument", args: []string{"grep", "func", filepath.Join(repo, "sub")}, want: "sub/b.go:4"},
		{name: "path outside", args: []string{"grep", "func", os.TempDir()}, usage: true},
		{name: "no match", args: []string{"grep", "zzzz_nothing"}, noMatch: true},
		{name: "glob any depth", args: []string{"glob", "b.go"}, want: "sub/b.go"},
		{name: "glob none", args: []string{"glob", "*.rs"}, noMatch: true},
		{name: "search none", args: []string{"search", "zzqqxx", "--mode", "keyword"}, noMatch: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := append(append([]string{}, tc.args...), "--root", repo, "--db", db)
			if tc.name == "path argument" || tc.name == "path outside" {
				args = append(append([]string{}, tc.args...), "--db", db)
				t.Chdir(repo)
			}
			out, err := runCLI(t, args...)
			switch {
			case tc.noMatch:
				if !errors.Is(err, errNoMatch) {
					t.Fatalf("want errNoMatch, got %v\n%s", err, out)
				}
				if code := reportError(&bytes.Buffer{}, err); code != exitNoMatch {
					t.Fatalf("exit code %d, want %d", code, exitNoMatch)
				}
			case tc.usage:
				if !isUsageErr(err) {
					t.Fatalf("want a usage error, got %v", err)
				}
			default:
				if err != nil || !strings.Contains(out, tc.want) {
					t.Fatalf("err %v, output lacks %q:\n%s", err, tc.want, out)
				}
			}
		})
	}
}

func TestCLISuggestionsAndVersion(t *testing.T) {
	_, err := runCLI(t, "serch", "x")
	if !isUsageErr(err) || !strings.Contains(err.Error(), "Did you mean this?\n\tsearch") {
		t.Fatalf("mistyped command: %v", err)
	}
	var buf bytes.Buffer
	if code := reportError(&buf, err); code != exitError || !strings.Contains(buf.String(), "\tsearch") {
		t.Fatalf("printed %q with exit %d", buf.String(), code)
	}
	_, err = runCLI(t, "context", "--budegt", "3", "x")
	if !isUsageErr(err) || !strings.Contains(err.Error(), "--budget") {
		t.Fatalf("mistyped flag: %v", err)
	}
	_, err = runCLI(t, "grep", "-Z", "x")
	if !isUsageErr(err) || strings.Contains(err.Error(), "Did you mean") {
		t.Fatalf("unknown shorthand: %v", err)
	}
	out, err := runCLI(t, "--version")
	if err != nil || !strings.HasPrefix(out, "codectx ") {
		t.Fatalf("--version: %v %q", err, out)
	}
}

func TestClosest(t *testing.T) {
	names := []string{"budget", "root", "depth", "seeds", "json"}
	for word, want := range map[string]string{"budegt": "budget", "rot": "root", "dep": "depth", "zzzzzz": ""} {
		got := strings.Join(closest(word, names, 2), ",")
		if got != want {
			t.Errorf("closest(%q) = %q, want %q", word, got, want)
		}
	}
}

func isUsageErr(err error) bool {
	var ue usageError
	return errors.As(err, &ue)
}

func TestProgressWithoutTerminal(t *testing.T) {
	var buf bytes.Buffer
	p := newProgress(&buf, false)
	p.update(codectx.IndexProgress{Phase: "scan"})
	p.update(codectx.IndexProgress{Phase: "index", Done: 1, Total: 7000, Chunks: 1})
	p.update(codectx.IndexProgress{Phase: "index", Done: 2, Total: 7000, Chunks: 9})
	p.update(codectx.IndexProgress{Phase: "resolve", Done: 7000, Total: 7000, Chunks: 90000})
	got := buf.String()
	want := "scanning files…\nindexing: 1/7000 files, 1 chunk\nresolving relations (90000 chunks written)…\n"
	if got != want {
		t.Fatalf("progress printed\n%q\nwant\n%q", got, want)
	}
	buf.Reset()
	newProgress(&buf, true).update(codectx.IndexProgress{Phase: "scan"})
	if buf.Len() != 0 {
		t.Fatalf("quiet progress printed %q", buf.String())
	}
}

func TestStyle(t *testing.T) {
	var buf bytes.Buffer
	if styleFor(&buf).on {
		t.Fatal("colour on for a buffer")
	}
	if got := (style{on: true}).path("a.go:1"); got != "\x1b[35ma.go:1\x1b[0m" {
		t.Fatalf("path = %q", got)
	}
	if got := (style{}).name("X"); got != "X" {
		t.Fatalf("plain name = %q", got)
	}
	// A terminal with NO_COLOR set stays plain (os.Stdout under go test is
	// not a terminal either way, so this checks the variable's precedence).
	t.Setenv("NO_COLOR", "1")
	if styleFor(os.Stdout).on {
		t.Fatal("colour on with NO_COLOR")
	}
}

func TestDoctorJSON(t *testing.T) {
	t.Setenv("EMBEDDING_PROVIDER", "local")
	db := filepath.Join(t.TempDir(), "none", "index.db")
	out, err := runCLI(t, "doctor", "--json", "--db", db)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"ok": true`, `"provider": "local"`, `"exists": false`, `"dims": 512`} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor --json lacks %s:\n%s", want, out)
		}
	}
	if _, err := os.Stat(filepath.Dir(db)); !os.IsNotExist(err) {
		t.Errorf("doctor created %s", filepath.Dir(db))
	}
	t.Setenv("EMBEDDING_PROVIDER", "nonsense")
	out, err = runCLI(t, "doctor", "--json", "--db", db)
	if err == nil || !strings.Contains(out, `"ok": false`) {
		t.Fatalf("bad provider: %v\n%s", err, out)
	}
}

// printed is what the CLI prints for err (the one error printer, with its
// hint).
func printed(err error) string {
	var b bytes.Buffer
	reportError(&b, err)
	return b.String()
}

// Suggested reads and the next step after a search are runnable as printed
// from any directory; library text names no command.
func TestCLIHintsRunnableAnywhere(t *testing.T) {
	repo, db := uxProject(t)
	out, err := runCLI(t, "grep", "Betamax", "--root", repo, "--db", db)
	if err != nil {
		t.Fatal(err)
	}
	want := "codectx read --root " + shellQuote(repo) + " sub/b.go --offset 1 --limit "
	if !strings.Contains(out, want) {
		t.Fatalf("grep output lacks %q:\n%s", want, out)
	}
	out, err = runCLI(t, "search", "betamax", "--root", repo, "--db", db)
	if err != nil || !strings.Contains(out, "next: codectx read --root "+shellQuote(repo)+" sub/b.go --offset ") {
		t.Fatalf("search output: %v\n%s", err, out)
	}
	// Run the printed command from another directory: it reads the file.
	line := out[strings.Index(out, "next: ")+len("next: "):]
	line = strings.TrimSpace(line[:strings.IndexByte(line, '\n')])
	t.Chdir(t.TempDir())
	args := strings.Fields(strings.TrimPrefix(line, "codectx "))
	got, err := runCLI(t, append(args, "--db", db)...)
	if err != nil || !strings.Contains(got, "Betamax") {
		t.Fatalf("%s from elsewhere: %v\n%s", line, err, got)
	}
	if code := reportError(&bytes.Buffer{}, codectx.ErrNotIndexed); code != exitError || !strings.Contains(printed(codectx.ErrNotIndexed), "run codectx index") {
		t.Fatalf("not indexed prints %q", printed(codectx.ErrNotIndexed))
	}
}

// The CLI refuses bad options with the library's words, the same an MCP
// client or the HTTP API gets.
func TestCLIOptionErrorsShareWords(t *testing.T) {
	for _, tc := range []struct {
		args []string
		lib  error
	}{
		{[]string{"search", "cart", "-k", "500"}, codectx.SearchOptions{Query: "cart", K: 500}.Validate()},
		{[]string{"search", "cart", "--mode", "fuzzy"}, codectx.SearchOptions{Query: "cart", Mode: "fuzzy"}.Validate()},
		{[]string{"graph", "X", "--direction", "sideways"}, codectx.GraphOptions{Name: "X", Direction: "sideways"}.Validate()},
		{[]string{"graph", "X", "--min-confidence", "high"}, codectx.GraphOptions{Name: "X", MinConfidence: "high"}.Validate()},
	} {
		_, err := runCLI(t, tc.args...)
		if !isUsageErr(err) || tc.lib == nil || err.Error() != tc.lib.Error() {
			t.Errorf("%v: CLI error %v, library %v", tc.args, err, tc.lib)
		}
	}
}

// TestCLIConfig: the environment is read once through codectx.ConfigFromEnv,
// flags win over it, and a bad value is one line naming the variable.
func TestCLIConfig(t *testing.T) {
	t.Setenv("EMBEDDING_PROVIDER", "local")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("needle\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "index.db")

	t.Setenv("CODECTX_INDEX_THREADS", "many")
	_, err := runCLI(t, "grep", "needle", "--root", dir, "--db", db)
	var b bytes.Buffer
	code := reportError(&b, err)
	if err == nil || code != exitError || strings.Count(b.String(), "\n") != 1 || !strings.Contains(b.String(), `CODECTX_INDEX_THREADS="many"`) {
		t.Fatalf("bad CODECTX_INDEX_THREADS: exit %d, printed %q", code, b.String())
	}
	for _, args := range [][]string{{"help"}, {"grep", "--help"}} {
		if _, err := runCLI(t, args...); err != nil {
			t.Errorf("%v with a bad variable: %v", args, err)
		}
	}
	t.Setenv("CODECTX_INDEX_THREADS", "")

	t.Setenv("CODECTX_GREP_ENGINE", "native")
	out, err := runCLI(t, "grep", "needle", "--root", dir, "--db", db, "--json")
	if err != nil || !strings.Contains(out, `"engine": "native"`) {
		t.Fatalf("CODECTX_GREP_ENGINE=native: %v\n%s", err, out)
	}
	if _, lerr := exec.LookPath("rg"); lerr == nil {
		out, err = runCLI(t, "grep", "needle", "--root", dir, "--db", db, "--json", "--engine", "rg")
		if err != nil || !strings.Contains(out, `"engine": "rg"`) {
			t.Fatalf("--engine rg over CODECTX_GREP_ENGINE=native: %v\n%s", err, out)
		}
	}

	// A provider flag starts from that provider's defaults: the
	// environment's model is not carried over.
	t.Setenv("EMBEDDING_PROVIDER", "ollama")
	t.Setenv("EMBEDDING_MODEL", "mxbai-embed-large")
	out, err = runCLI(t, "doctor", "--json", "--db", db, "--embedding-provider", "local")
	if err != nil || !strings.Contains(out, `"provider": "local"`) || !strings.Contains(out, `"ok": true`) {
		t.Fatalf("--embedding-provider local over EMBEDDING_PROVIDER=ollama: %v\n%s", err, out)
	}
}

// A command that needs an index builds it first for a person on a
// terminal, and never otherwise or with --no-index.
func TestCLIIndexesFirstOnATerminal(t *testing.T) {
	t.Setenv("EMBEDDING_PROVIDER", "local")
	base := t.TempDir()
	proj := filepath.Join(base, "proj")
	db := filepath.Join(base, "home", "index.db")
	os.MkdirAll(proj, 0o755)
	os.WriteFile(filepath.Join(proj, "a.go"), []byte("package a\n\n// Gadget builds gadgets.\nfunc Gadget() {}\n"), 0o644)

	old := interactive
	t.Cleanup(func() { interactive = old })
	interactive = func() bool { return false }
	if _, err := runCLI(t, "search", "gadget", "--root", proj, "--db", db); !errors.Is(err, codectx.ErrNoIndex) {
		t.Fatalf("without a terminal: %v", err)
	}
	interactive = func() bool { return true }
	if _, err := runCLI(t, "search", "gadget", "--root", proj, "--db", db, "--no-index"); !errors.Is(err, codectx.ErrNoIndex) {
		t.Fatalf("--no-index: %v", err)
	}
	if _, err := os.Stat(filepath.Dir(db)); !os.IsNotExist(err) {
		t.Fatal("a refused search created the database directory")
	}
	out, err := runCLI(t, "search", "gadget", "--root", proj, "--db", db)
	if err != nil || !strings.Contains(out, "is not indexed yet: indexing it first") || !strings.Contains(out, "a.go:3-4") {
		t.Fatalf("on a terminal: %v\n%s", err, out)
	}
	// Indexed now: no second pass.
	out, err = runCLI(t, "graph", "Gadget", "--root", proj, "--db", db)
	if err != nil || strings.Contains(out, "indexing it first") {
		t.Fatalf("second command: %v\n%s", err, out)
	}
}
