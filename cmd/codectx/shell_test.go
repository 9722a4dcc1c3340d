package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"codectx/pkg/codectx"
)

func TestShellSession(t *testing.T) {
	dir := t.TempDir()
	flagDB = filepath.Join(dir, "db", "index.db")
	t.Cleanup(func() { flagDB = "" })
	t.Setenv("EMBEDDING_PROVIDER", "local")
	var err error
	if runConfig, err = loadConfig(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { runConfig = codectx.Config{} })
	a := filepath.Join(dir, "a")
	b := filepath.Join(dir, "b")
	empty := filepath.Join(dir, "empty")
	for p, body := range map[string]string{
		filepath.Join(a, "svc.go"):    "package a\n\n// Compress shrinks the conversation history.\nfunc Compress(h []string) []string { return trim(h) }\n\nfunc trim(h []string) []string { return h[:1] }\n",
		filepath.Join(b, "tool.py"):   "class Runner:\n    def run_tools(self, calls):\n        return [c() for c in calls]\n",
		filepath.Join(empty, "x.bin"): "",
	} {
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	p, err := openProject(a, openWrite, false)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	sh := &shell{ctx: context.Background(), out: &out, proj: p}
	defer func() { sh.proj.Close() }()
	script := strings.Join([]string{
		"/index",
		"/search compress conversation history",
		"/graph Compress",
		"/grep func trim",
		"/read svc.go 3 2",
		"/read svc.go x",
		"/bogus",
		"/index " + filepath.Join(dir, "missing"),
		"/index " + empty,
		"/stats",
		"/index " + b,
		"run tools",
		"/search run tools -k 1",
		"/context run tools --budget 0",
		"/context run tools --budgte 10",
		"/grep -i RUN_TOOLS",
		"help",
		"exit",
		"/stats", // never reached
	}, "\n")
	if err := sh.loop(strings.NewReader(script)); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"svc.go:3-4",                         // search hit
		"Compress",                           // graph
		"calls",                              // graph edge to trim
		"svc.go:6:",                          // grep hit
		"     3→// Compress shrinks",         // read with offset
		"more follow: /read svc.go 5 2)",     // the next page in the shell's words
		"error: usage: /read",                // bad number
		"error: unknown command /bogus",      // unknown
		"no such directory; staying on " + a, // missing path
		"nothing to index; staying on " + a,  // empty project
		"switched to " + b,                   // switch
		"tool.py",                            // search in the new project
		"error: --budget must be positive",   // flags inside /context are flags
		"error: /context: unknown flag: --budgte",
		"tool.py:2:",                           // /grep -i
		"/quit                          leave", // plain "help"
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q\n---\n%s", want, got)
		}
	}
	if strings.Count(got, "project: ") != 1 {
		t.Errorf("/stats after exit ran, or /stats missing:\n%s", got)
	}
	// -k 1 inside /search: the last search printed exactly one result.
	last := got[strings.LastIndex(got, "The best entry point"):]
	if strings.Contains(last, "\n 2. ") || !strings.Contains(last, "\n 1. ") {
		t.Errorf("/search -k 1 printed:\n%s", last)
	}
	if sh.proj.Root() != b {
		t.Errorf("current project %s, want %s", sh.proj.Root(), b)
	}
}
