package codectx

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"codectx/internal/assemble"
	"codectx/internal/testfix"
)

// copyFixture copies testdata/name into a fresh directory.
func copyFixture(t *testing.T, name string) string {
	t.Helper()
	return testfix.CopyTree(t, filepath.Join("testdata", name))
}

// openIndexed opens root with a fresh database and indexes it.
func openIndexed(t *testing.T, root string) *Project {
	t.Helper()
	p, err := Open(root, Options{DBPath: filepath.Join(t.TempDir(), "index.db"), Config: &Config{Threads: 1}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	if _, err := p.Index(context.Background(), IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	return p
}

// runGit runs git in dir, skipping the test when git is missing.
func runGit(t *testing.T, dir string, args ...string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: the impact tests need a real repository")
	}
	cmd := exec.Command("git", append([]string{"-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// gitFixture is the shop fixture committed to a new git repository.
func gitFixture(t *testing.T) (string, *Project) {
	t.Helper()
	root := copyFixture(t, "shop")
	runGit(t, root, "init", "-q")
	runGit(t, root, "add", "-A")
	runGit(t, root, "commit", "-q", "-m", "shop")
	return root, openIndexed(t, root)
}

func mapped(m *MapResult) []string {
	var out []string
	for _, f := range m.Files {
		for _, s := range f.Symbols {
			out = append(out, s.Symbol)
			for _, mem := range s.Members {
				out = append(out, mem.Symbol)
			}
		}
	}
	return out
}

func TestMapFixture(t *testing.T) {
	ctx := context.Background()
	p := openIndexed(t, copyFixture(t, "shop"))
	m, err := p.Map(ctx, MapOptions{Budget: 1000})
	if err != nil {
		t.Fatal(err)
	}
	// The central type comes first: everything goes through Store.
	if m.Files[0].Path != "store/store.go" || m.Files[0].Symbols[0].Symbol != "Store" {
		t.Fatalf("first file/symbol = %s %v\n%s", m.Files[0].Path, m.Files[0].Symbols, m.Text())
	}
	for _, s := range mapped(m) {
		if strings.HasPrefix(s, "Test") {
			t.Errorf("test function %s in the map", s)
		}
	}
	if !strings.Contains(m.Text(), "  4: type Store struct\n    14: Lookup(id string) (Item, bool)\n") { // a member under its type, without receiver
		t.Errorf("signature line missing:\n%s", m.Text())
	}
	again, err := p.Map(ctx, MapOptions{Budget: 1000})
	if err != nil || again.Text() != m.Text() {
		t.Fatalf("map is not deterministic (%v):\n%s\n---\n%s", err, m.Text(), again.Text())
	}

	// Focus pulls util ahead of the rest.
	f, err := p.Map(ctx, MapOptions{Budget: 1000, Focus: []string{"util/util.go"}})
	if err != nil {
		t.Fatal(err)
	}
	if f.Files[0].Path != "util/util.go" {
		t.Errorf("focus on util: first file %s\n%s", f.Files[0].Path, f.Text())
	}
	w, err := p.Map(ctx, MapOptions{Budget: 1000, Focus: []string{"nosuch.go"}})
	if err != nil || len(w.Warnings) != 1 {
		t.Errorf("unknown focus: %v %v", err, w.Warnings)
	}
}

func TestMapBudget(t *testing.T) {
	ctx := context.Background()
	p := openIndexed(t, copyFixture(t, "shop"))
	full, err := p.Map(ctx, MapOptions{Budget: 4000})
	if err != nil {
		t.Fatal(err)
	}
	for _, budget := range []int{64, 80, 100, 150, 200, 400} {
		m, err := p.Map(ctx, MapOptions{Budget: budget})
		if errors.Is(err, ErrBudgetTooSmall) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		n, _ := assemble.CountTokens(m.Text())
		if n > budget || n != m.Tokens {
			t.Errorf("budget %d: %d tokens (reported %d)", budget, n, m.Tokens)
		}
		// Every line is a whole line of the full map or an elision line.
		for _, line := range strings.Split(strings.TrimSuffix(m.Text(), "\n"), "\n") {
			if !strings.Contains(full.Text(), line) && !strings.Contains(line, "… ") && !strings.HasPrefix(line, "# ") {
				t.Errorf("budget %d: line %q is not a whole line", budget, line)
			}
		}
		if m.Shown < full.Shown && !strings.Contains(m.Text(), "more ") {
			t.Errorf("budget %d: left-out definitions not summarised:\n%s", budget, m.Text())
		}
	}
	if _, err := p.Map(ctx, MapOptions{Budget: 10}); !errors.Is(err, ErrBudgetTooSmall) {
		t.Errorf("budget 10: %v", err)
	}
}

func TestMapEmptyProject(t *testing.T) {
	p := openIndexed(t, t.TempDir())
	if _, err := p.Map(context.Background(), MapOptions{}); !errors.Is(err, ErrNoDefinitions) {
		t.Fatalf("empty project: %v", err)
	}
	o, err := p.Overview(context.Background())
	if err != nil || !strings.Contains(o.Text(), "0 files") {
		t.Fatalf("overview of an empty project: %v\n%v", err, o)
	}
}

func refSymbols(refs []ImpactRef) []string {
	var out []string
	for _, r := range refs {
		out = append(out, r.Symbol)
	}
	return out
}

func changedBy(r *ImpactResult, symbol string) *ChangedSymbol {
	for i := range r.Changed {
		if r.Changed[i].Symbol == symbol {
			return &r.Changed[i]
		}
	}
	return nil
}

func TestImpactEditOneFunction(t *testing.T) {
	ctx := context.Background()
	root, p := gitFixture(t)
	edit(t, filepath.Join(root, "store/store.go"), "it, ok := s.items[id]", "it, ok := s.items[strings.TrimSpace(id)]")
	r, err := p.Impact(ctx, ImpactOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Changed) != 1 || r.Changed[0].Symbol != "Store.Lookup" || r.Changed[0].Change != "modified" {
		t.Fatalf("changed = %+v\n%s", r.Changed, r.Text())
	}
	c := r.Changed[0]
	if got, want := refSymbols(c.Callers), []string{"Show", "Price"}; !slices.Equal(got, want) {
		t.Errorf("callers = %v, want %v", got, want)
	}
	if !c.Exported || c.FanIn != 2 || c.Tests != 1 {
		t.Errorf("risk data = exported %v, fan-in %d, tests %d", c.Exported, c.FanIn, c.Tests)
	}
	// api_test.go calls it through Show; store_test.go shares its package.
	if len(r.Tests) != 2 || r.Tests[0].Path != "api/api_test.go" || !slices.Contains(r.Tests[0].Tests, "TestShow") ||
		r.Tests[1].Path != "store/store_test.go" || !r.Tests[1].Imports || r.Tests[1].Depth != 0 {
		t.Errorf("tests = %+v", r.Tests)
	}
	if len(r.Notes) == 0 || !strings.Contains(r.Notes[0], "re-indexed") {
		t.Errorf("the stale file was not re-indexed first: %v", r.Notes)
	}
	if r.Risk != "medium" {
		t.Errorf("risk = %s %v", r.Risk, r.Reasons)
	}
	// Second run: the index is fresh, same answer, no note.
	r2, err := p.Impact(ctx, ImpactOptions{})
	if err != nil || len(r2.Notes) != 0 || len(r2.Changed) != 1 {
		t.Errorf("second run: %v %v %+v", err, r2.Notes, r2.Changed)
	}
}

// A test that reaches a changed symbol only through another changed
// symbol still counts for both.
func TestImpactTestsThroughChangedCallers(t *testing.T) {
	root, p := gitFixture(t)
	edit(t, filepath.Join(root, "store/store.go"), "it, ok := s.items[id]", "it, ok := s.items[id+\"\"]")
	edit(t, filepath.Join(root, "api/api.go"), `"%s costs %d"`, `"%s costs %d."`)
	r, err := p.Impact(context.Background(), ImpactOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, sym := range []string{"Store.Lookup", "Show"} {
		c := changedBy(r, sym)
		if c == nil || c.Tests != 1 {
			t.Errorf("%s: %+v\n%s", sym, c, r.Text())
		}
	}
}

func TestImpactRenameDeleteAdd(t *testing.T) {
	ctx := context.Background()
	root, p := gitFixture(t)
	runGit(t, root, "mv", "util/util.go", "util/text.go")               // rename, unchanged
	edit(t, filepath.Join(root, "store/store.go"), "// Count is", "/*") // delete Count
	edit(t, filepath.Join(root, "store/store.go"), "return len(s.items)\n}", "return len(s.items)\n}\n*/")
	if err := os.WriteFile(filepath.Join(root, "store/extra.go"), []byte("package store\n\nfunc Extra() int { return 1 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, "cmd/shop/main.go")); err != nil {
		t.Fatal(err)
	}
	r, err := p.Impact(ctx, ImpactOptions{})
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]string{}
	for _, f := range r.Files {
		status[f.Path+"|"+f.OldPath] = f.Status
	}
	want := map[string]string{"util/text.go|util/util.go": "R", "store/store.go|store/store.go": "M", "store/extra.go|": "A", "|cmd/shop/main.go": "D"}
	for k, v := range want {
		if status[k] != v {
			t.Errorf("file %s: status %q, want %q (all %v)", k, status[k], v, status)
		}
	}
	cnt := changedBy(r, "Store.Count")
	if cnt == nil || cnt.Change != "deleted" {
		t.Fatalf("Store.Count not reported deleted:\n%s", r.Text())
	}
	if got := refSymbols(cnt.Dangling); !slices.Equal(got, []string{"Stock", "TestNew"}) {
		t.Errorf("dangling callers of Count = %v, want [Stock TestNew]", got)
	}
	if r.Risk != "high" {
		t.Errorf("deleting a called function must be high risk: %s %v", r.Risk, r.Reasons)
	}
	if ex := changedBy(r, "Extra"); ex == nil || ex.Change != "added" {
		t.Errorf("Extra not reported added:\n%s", r.Text())
	}
	if m := changedBy(r, "main"); m == nil || m.Change != "deleted" {
		t.Errorf("main not reported deleted:\n%s", r.Text())
	}
	if changedBy(r, "Missing") != nil {
		t.Errorf("a pure rename changed no symbol:\n%s", r.Text())
	}
}

func TestImpactBadInput(t *testing.T) {
	ctx := context.Background()
	_, p := gitFixture(t)
	if _, err := p.Impact(ctx, ImpactOptions{Base: "no-such-branch"}); !errors.Is(err, ErrBadBase) {
		t.Errorf("unknown base: %v", err)
	}
	if _, err := p.Impact(ctx, ImpactOptions{Base: "--output=x"}); !errors.Is(err, ErrBadBase) {
		t.Errorf("option as base: %v", err)
	}

	// Outside git: a base is an error; without one, the files changed since
	// the last index are the change.
	root := copyFixture(t, "shop")
	if _, err := exec.LookPath("git"); err == nil {
		cmd := exec.Command("git", "rev-parse", "--show-toplevel")
		cmd.Dir = root
		if out, err := cmd.Output(); err == nil {
			t.Skipf("temporary directory %s is inside a git work tree (%s)", root, strings.TrimSpace(string(out)))
		}
	}
	np := openIndexed(t, root)
	if _, err := np.Impact(ctx, ImpactOptions{Base: "HEAD"}); !errors.Is(err, ErrNotGit) {
		t.Errorf("base outside git: %v", err)
	}
	edit(t, filepath.Join(root, "util/util.go"), `"no item "`, `"unknown item "`)
	r, err := np.Impact(ctx, ImpactOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Git || changedBy(r, "Missing") == nil {
		t.Errorf("fingerprint change not found:\n%s", r.Text())
	}
	if c := changedBy(r, "Missing"); c != nil && !slices.Equal(refSymbols(c.Callers), []string{"Show"}) {
		t.Errorf("callers of Missing = %v", refSymbols(c.Callers))
	}
	if changedBy(r, "quote") != nil {
		t.Errorf("an unchanged function of the edited file reported changed:\n%s", r.Text())
	}

	// The next change: quote deleted, a function added, Missing as it was.
	edit(t, filepath.Join(root, "util/util.go"), "func quote(s string) string {\n\treturn \"\\\"\" + s + \"\\\"\"\n}", "func Shout(s string) string { return s + \"!\" }")
	r, err = np.Impact(ctx, ImpactOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if q := changedBy(r, "quote"); q == nil || q.Change != "deleted" {
		t.Errorf("quote not reported deleted:\n%s", r.Text())
	}
	if s := changedBy(r, "Shout"); s == nil || s.Change != "added" {
		t.Errorf("Shout not reported added:\n%s", r.Text())
	}
	if changedBy(r, "Missing") != nil {
		t.Errorf("Missing did not change in this edit:\n%s", r.Text())
	}
}

func TestOverviewFixture(t *testing.T) {
	p := openIndexed(t, copyFixture(t, "shop"))
	o, err := p.Overview(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	text := o.Text()
	for _, want := range []string{
		"store (2 files, 791 B): Package store keeps the shop's items in memory.",
		"cmd/shop (1 files, 235 B): Command shop prints one item.",
		"main: main (cmd/shop/main.go:11)",
		"tests: 2 files in api 1, store 1",
		"the index matches the work tree",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("overview lacks %q:\n%s", want, text)
		}
	}
	if o.Tokens > 1500 {
		t.Errorf("overview uses %d tokens", o.Tokens)
	}
}

func edit(t *testing.T, file, old, new string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s has no %q", file, old)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Impact names the files that usually changed with the changed ones in
// the history and that this change leaves alone (test files aside).
func TestImpactUsuallyChangedWith(t *testing.T) {
	ctx := context.Background()
	root, p := gitFixture(t)
	// Three commits change store.go with api.go (and its test), after the
	// first commit that added both.
	for i := range 3 {
		edit(t, filepath.Join(root, "store/store.go"), "it, ok := s.items[id]", "it, ok := s.items[id]\n\t_ = "+strconv.Itoa(i))
		edit(t, filepath.Join(root, "api/api.go"), `"%s costs %d"`, `"%s costs %d"+""`)
		edit(t, filepath.Join(root, "api/api_test.go"), "func TestShow", "// "+strconv.Itoa(i)+"\nfunc TestShow")
		runGit(t, root, "commit", "-qam", "change "+strconv.Itoa(i))
	}
	edit(t, filepath.Join(root, "store/store.go"), "it, ok := s.items[id]", "it, ok := s.items[strings.TrimSpace(id)]")
	r, err := p.Impact(ctx, ImpactOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []CoChange{{Path: "api/api.go", With: "store/store.go", Together: 4, Commits: 4, Recent: 1}}
	if !reflect.DeepEqual(r.UsuallyWith, want) {
		t.Fatalf("usually changed with = %+v, want %+v\n%s", r.UsuallyWith, want, r.Text())
	}
	if !strings.Contains(r.Text(), "usually changed together with them, not in this change\n  api/api.go — with store/store.go in 4 of its last 4 commits\n") {
		t.Errorf("text:\n%s", r.Text())
	}
	// Once api.go is part of the change, it is not a reminder any more.
	edit(t, filepath.Join(root, "api/api.go"), `"%s costs %d"`, `"%s costs %d."`)
	if r, err = p.Impact(ctx, ImpactOptions{}); err != nil || len(r.UsuallyWith) != 0 {
		t.Errorf("api.go in the change: %v, usually changed with %+v", err, r.UsuallyWith)
	}
}
