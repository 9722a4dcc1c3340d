package history

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// repo makes a git repository under a temporary directory with one commit
// per entry of commits (the files it writes, each with new content) and
// returns the directory holding the project root sub (the top when "").
func repo(t *testing.T, sub string, commits [][]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: co-changes cannot be read")
	}
	top := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = top
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q")
	for i, files := range commits {
		for _, f := range files {
			p := filepath.Join(top, filepath.FromSlash(f))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(strings.Repeat("x", i+1)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		run("add", "-A")
		run("commit", "-q", "-m", "c")
	}
	return filepath.Join(top, filepath.FromSlash(sub))
}

func TestCoChanged(t *testing.T) {
	// a.go changes 5 times: with b.go 4 times, with c.go twice, once in a
	// sweep of 25 files (skipped); d.go changes with b.go only.
	sweep := []string{"a.go"}
	for i := range 24 {
		sweep = append(sweep, "gen/f"+string(rune('a'+i))+".go")
	}
	commits := [][]string{
		{"a.go", "b.go"}, {"a.go", "b.go", "c.go"}, {"a.go", "b.go"}, {"a.go", "b.go", "c.go"},
		{"b.go", "d.go"}, {"a.go"}, sweep,
	}
	root := repo(t, "", commits)
	got, err := CoChanged(context.Background(), root, []string{"a.go"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Coupling{{Path: "b.go", With: "a.go", Together: 4, Commits: 5, Recent: 0.771}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("CoChanged(a.go) = %+v, want %+v (c.go: 2 of 5, under MinTogether; the sweep skipped)", got, want)
	}
	// Looser thresholds admit c.go; the order is by share.
	got, _ = CoChanged(context.Background(), root, []string{"a.go"}, Options{MinTogether: 2, MinShare: 0.2})
	want = []Coupling{{Path: "b.go", With: "a.go", Together: 4, Commits: 5, Recent: 0.771}, {Path: "c.go", With: "a.go", Together: 2, Commits: 5, Recent: 0.399}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("loose: %+v, want %+v", got, want)
	}
	// The history before a revision: the first three commits only.
	got, _ = CoChanged(context.Background(), root, []string{"a.go"}, Options{Rev: "HEAD~4", MinTogether: 2})
	want = []Coupling{{Path: "b.go", With: "a.go", Together: 3, Commits: 3, Recent: 1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Rev HEAD~4: %+v, want %+v", got, want)
	}
	// A window of the last 3 commits: a.go's last two changes (the sweep
	// skipped) say nothing yet.
	got, _ = CoChanged(context.Background(), root, []string{"a.go"}, Options{Window: 3, MinTogether: 1})
	if got != nil {
		t.Errorf("Window 3: %+v, want none", got)
	}
	got, _ = CoChanged(context.Background(), root, []string{"a.go"}, Options{Window: 4, MinTogether: 1})
	want = []Coupling{{Path: "b.go", With: "a.go", Together: 1, Commits: 2, Recent: 0.483}, {Path: "c.go", With: "a.go", Together: 1, Commits: 2, Recent: 0.483}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Window 4: %+v, want %+v", got, want)
	}
	// A revision is never an option to git: --output would write a file.
	out := filepath.Join(t.TempDir(), "written")
	for _, rev := range []string{"no-such-rev", "--output=" + out} {
		if _, err := CoChanged(context.Background(), root, []string{"a.go"}, Options{Rev: rev}); err == nil {
			t.Errorf("revision %q: no error", rev)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("git wrote %s: a revision was taken as an option", out)
	}
}

// A habit a project took up recently counts: a file changed with the given
// one in its last 4 of 12 commits (a third, under MinShare) is coupled by
// its recency-weighted share; one changed with it in its first 4 is not;
// one changed with it in its first 5 (5 of 12, over MinShare) still is,
// by its plain share.
func TestCoChangedRecentHabit(t *testing.T) {
	var commits [][]string
	for i := range 12 { // oldest first
		c := []string{"a.go"}
		if i < 4 {
			c = append(c, "old.go")
		}
		if i < 5 {
			c = append(c, "older.go")
		}
		if i >= 8 {
			c = append(c, "new.go")
		}
		commits = append(commits, c)
	}
	root := repo(t, "", commits)
	got, err := CoChanged(context.Background(), root, []string{"a.go"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Coupling{
		{Path: "new.go", With: "a.go", Together: 4, Commits: 12, Recent: 0.429},
		{Path: "older.go", With: "a.go", Together: 5, Commits: 12, Recent: 0.319},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("CoChanged(a.go) = %+v, want %+v", got, want)
	}
	for _, tc := range []struct {
		c    Coupling
		want float64
	}{{want[0], 0.429}, {want[1], 5.0 / 12}, {Coupling{Together: 1, Commits: 4, Recent: 0.2}, 0.25}, {Coupling{}, 0}} {
		if s := tc.c.Strength(); s != tc.want {
			t.Errorf("%+v.Strength() = %v, want %v", tc.c, s, tc.want)
		}
	}
}

// A project root below the top of its work tree sees only its own files,
// relative to itself.
func TestCoChangedSubdirectory(t *testing.T) {
	commits := [][]string{
		{"proj/x.go", "proj/y.go", "other/z.go"}, {"proj/x.go", "proj/y.go", "other/z.go"},
		{"proj/x.go", "proj/y.go", "other/z.go"},
	}
	root := repo(t, "proj", commits)
	got, err := CoChanged(context.Background(), root, []string{"x.go"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Coupling{{Path: "y.go", With: "x.go", Together: 3, Commits: 3, Recent: 1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("CoChanged(x.go) in proj/ = %+v, want %+v", got, want)
	}
}

// Names git would quote (a double quote, a tab, non-ASCII) come back as
// they are.
func TestCoChangedUnusualNames(t *testing.T) {
	odd := []string{"we\"ird name.go", "tab\tname.go", "日本/語.go"}
	commits := [][]string{append([]string{"a.go"}, odd...), append([]string{"a.go"}, odd...), append([]string{"a.go"}, odd...)}
	root := repo(t, "", commits)
	got, err := CoChanged(context.Background(), root, []string{"a.go"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, c := range got {
		paths = append(paths, c.Path)
	}
	want := []string{"tab\tname.go", "we\"ird name.go", "日本/語.go"}
	if !reflect.DeepEqual(paths, want) {
		t.Errorf("paths %q, want %q", paths, want)
	}
}

func TestCoChangedWithoutGitHistory(t *testing.T) {
	got, err := CoChanged(context.Background(), t.TempDir(), []string{"a.go"}, Options{})
	if err != nil || got != nil {
		t.Errorf("no work tree: %+v, %v; want nil, nil", got, err)
	}
	// A repository without a commit yet has no history either.
	got, err = CoChanged(context.Background(), repo(t, "", nil), []string{"a.go"}, Options{})
	if err != nil || got != nil {
		t.Errorf("no commit yet: %+v, %v; want nil, nil", got, err)
	}
}
