package codectx

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// gitRepo makes a real git repository in a temporary directory and returns
// a function that runs git in it.
func gitRepo(t *testing.T) (string, func(args ...string)) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: the history evaluation needs a real repository")
	}
	dir := t.TempDir()
	commits := 0
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		// Commit n is dated 2020-01-0n.
		if args[0] == "commit" {
			commits++
		}
		date := fmt.Sprintf("2020-01-%02dT12:00:00Z", commits)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date, "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
			"GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q", "-b", "main")
	return dir, run
}

func writeFile(t *testing.T, dir, name, src string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestEvaluateGit(t *testing.T) {
	dir, git := gitRepo(t)
	writeFile(t, dir, "retry.go", srcRetry)
	writeFile(t, dir, "retry_test.go", "package web\n")
	git("add", "-A")
	git("commit", "-q", "-m", "Retry idempotent requests on a new connection (#12)\n\nOnly requests whose body can be rewound are sent again.")
	writeFile(t, dir, "cookie.go", srcCookie)
	writeFile(t, dir, "README.md", "# web\n")
	git("add", "-A")
	git("commit", "-q", "-m", "Format cookies for the Cookie header with Cookie.String()")
	writeFile(t, dir, "gone.go", "package web\n\nfunc gone() {}\n")
	git("add", "-A")
	git("commit", "-q", "-m", "Add a helper that is removed again later")
	git("rm", "-q", "gone.go")
	git("commit", "-q", "-m", "Remove the helper that nobody calls anymore")
	git("mv", "retry.go", "transport_retry.go")
	git("commit", "-q", "-m", "fix typo")
	writeFile(t, dir, "NOTES.md", "notes\n")
	git("add", "-A")
	git("commit", "-q", "-m", "Write down notes about the design of the client")

	ctx := context.Background()
	p := openIndexed(t, dir)
	rep, err := p.EvaluateGit(ctx, GitEvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Kept: the retry commit (file followed through the rename) and the
	// cookie commit (leaky: it names Cookie.String as code).
	if rep.Mine.Commits != 6 || rep.Mine.Candidates != 2 || rep.Mine.Gone != 2 || rep.Mine.Vague != 1 || rep.Mine.NoSource != 1 {
		t.Fatalf("mine stats %+v", rep.Mine)
	}
	if len(rep.Outcomes) != 2 {
		t.Fatalf("outcomes %+v", rep.Outcomes)
	}
	retry, cookie := rep.Outcomes[0], rep.Outcomes[1]
	if retry.Query != "Retry idempotent requests on a new connection Only requests whose body can be rewound are sent again." ||
		!slices.Equal(retry.Targets, []string{"transport_retry.go"}) || retry.Leaky || retry.FileRank != 1 {
		t.Fatalf("retry task %+v", retry)
	}
	if !slices.Equal(cookie.Targets, []string{"cookie.go"}) || !cookie.Leaky || cookie.FileRank != 1 {
		t.Fatalf("cookie task %+v", cookie)
	}
	if rep.Clean.Tasks != 1 || rep.Leaky.Tasks != 1 || rep.All.File.MRR10 != 1 {
		t.Fatalf("groups clean %+v leaky %+v all %+v", rep.Clean, rep.Leaky, rep.All)
	}

	// --since keeps the last three commits (no task among them); --max 1
	// keeps one task.
	if rep, err := p.EvaluateGit(ctx, GitEvalOptions{Since: "2020-01-04T00:00:00Z"}); err != nil || rep.Mine.Commits != 3 || len(rep.Outcomes) != 0 {
		t.Fatalf("since: %+v %v", rep, err)
	}
	if rep, err := p.EvaluateGit(ctx, GitEvalOptions{Max: 1}); err != nil || len(rep.Outcomes) != 1 || rep.Mine.Sampled != 1 {
		t.Fatalf("max: %+v %v", rep, err)
	}

	// The same tasks as a golden set, for the context evaluation.
	set, st, err := p.GitGoldenSet(ctx, GitEvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Candidates != 2 || len(set.Tasks) != 2 || set.Root != p.Root() {
		t.Fatalf("golden set %+v, stats %+v", set, st)
	}
	if k := set.Tasks[0].Kind; k != GitTaskClean || set.Tasks[0].Targets[0].File != "transport_retry.go" {
		t.Errorf("retry task %+v", set.Tasks[0])
	}
	if k := set.Tasks[1].Kind; k != GitTaskLeaky {
		t.Errorf("cookie task kind %q, want %q", k, GitTaskLeaky)
	}
	// Written as a golden set of change requests (every task of kind
	// "change", as scripts/mine-releases writes them), Evaluate scores them
	// as EvaluateGit does: the leaky one is found apart from the set's kind.
	changes := &GoldenSet{Root: set.Root, Tasks: slices.Clone(set.Tasks)}
	for i := range changes.Tasks {
		changes.Tasks[i].Kind = GitTaskClean
	}
	er, err := p.Evaluate(ctx, changes, EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if er.ByKind[GitTaskClean].Tasks != 1 || er.ByKind[GitTaskLeaky].Tasks != 1 || er.Overall.File.MRR10 != 1 {
		t.Errorf("change tasks: by kind %+v, overall %+v", er.ByKind, er.Overall)
	}
	if creps, err := p.EvaluateContext(ctx, changes, ContextEvalOptions{Runs: []ContextRun{{Budget: 4000, Depth: "auto"}}}); err != nil {
		t.Fatal(err)
	} else if creps[0].Report.ByKind[GitTaskLeaky].Tasks != 1 {
		t.Errorf("context evaluation of change tasks: leaky not counted apart: %+v", creps[0].Report.ByKind)
	}
	reps, err := p.EvaluateContext(ctx, set, ContextEvalOptions{Runs: []ContextRun{{Budget: 4000, Depth: "auto"}}})
	if err != nil {
		t.Fatal(err)
	}
	if o := reps[0].Report.Overall; o.AllFound != 1 || o.MeanShare != 1 {
		t.Errorf("both one-file change requests fit a 4,000-token context: %+v", o)
	}
	if reps[0].Report.ByKind[GitTaskLeaky].Tasks != 1 {
		t.Errorf("leaky tasks not counted apart: %+v", reps[0].Report.ByKind)
	}
}

func TestEvaluateGitWithoutHistory(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	writeFile(t, dir, "retry.go", srcRetry)
	ctx := context.Background()
	p := openIndexed(t, dir)
	if _, err := p.EvaluateGit(ctx, GitEvalOptions{}); !errors.Is(err, ErrNoGitHistory) {
		t.Fatalf("got %v, want ErrNoGitHistory", err)
	}
}
