package eval

import (
	"reflect"
	"strings"
	"testing"
)

func TestCommitQuery(t *testing.T) {
	tests := []struct{ msg, want string }{
		{"Fix redirect loop on 307 (#4512)", "Fix redirect loop on 307"},
		{"http: keep the body on 307 redirects\n\nThe client dropped the request body when\nfollowing a 307. Fixes #88.\n\nSecond paragraph is ignored.",
			"http: keep the body on 307 redirects The client dropped the request body when following a 307. ."},
		{"Retry idempotent requests GH-12 after reset\n\nSigned-off-by: A <a@b.c>\nChange-Id: I0123", "Retry idempotent requests after reset"},
		{"Close idle connections, see golang/go#1234 for details", "Close idle connections, for details"},
	}
	for _, tt := range tests {
		if got := CommitQuery(tt.msg); got != tt.want {
			t.Errorf("CommitQuery(%q)\n got  %q\n want %q", tt.msg, got, tt.want)
		}
	}
}

func TestDescriptiveSubject(t *testing.T) {
	tests := []struct {
		s    string
		want bool
	}{
		{"Fix redirect loop when the server answers 307", true},
		{"net/http: close idle connections on shutdown", true},
		{"fix typo", false},
		{"Fix typos in the server documentation comments", false},
		{"Bump golang.org/x/net from 0.1 to 0.2", false},
		{"Revert \"add retry to the client transport\"", false},
		{"v1.2.3", false},
		{"Update README with install steps", false},
		{"wip", false},
		{"more fixes (#12)", false},
	}
	for _, tt := range tests {
		if got := DescriptiveSubject(tt.s); got != tt.want {
			t.Errorf("DescriptiveSubject(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}

func TestNamesTarget(t *testing.T) {
	syms := []string{"Client.shouldRetry(method string) bool", "Client", "send"}
	tests := []struct {
		q    string
		want bool
	}{
		{"retry idempotent requests after a reset", false},
		{"make shouldRetry accept PUT", true},
		{"fix the transport in client.go", true},
		{"fix the transport in web/client.go", true},
		{"Client: retry on reset", false}, // an ordinary word, not written as code
		{"call send() only once", true},
		{"the clientgo package", false},
	}
	for _, tt := range tests {
		if got := NamesTarget(tt.q, "web/client.go", syms); got != tt.want {
			t.Errorf("NamesTarget(%q) = %v, want %v", tt.q, got, tt.want)
		}
	}
}

func TestParseGitLog(t *testing.T) {
	log := "\x1eaaa111\x1f1700000300\x1fRename the retry helper file\n\nBody.\x1f\n\nR087\tretry.go\tnet/retry.go\nM\tnet/client.go\n" +
		"\x1ebbb222\x1f1700000200\x1fAdd a retry helper for idempotent requests\x1f\n\nA\tretry.go\nM\t\"we\\tird.go\"\n"
	cs, err := ParseGitLog(strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	want := []GitCommit{
		{Hash: "aaa111", Time: 1700000300, Message: "Rename the retry helper file\n\nBody.", Changes: []GitChange{
			{Status: 'R', Path: "net/retry.go", OldPath: "retry.go"}, {Status: 'M', Path: "net/client.go"}}},
		{Hash: "bbb222", Time: 1700000200, Message: "Add a retry helper for idempotent requests", Changes: []GitChange{
			{Status: 'A', Path: "retry.go"}}},
	}
	if !reflect.DeepEqual(cs, want) {
		t.Fatalf("got  %+v\nwant %+v", cs, want)
	}
	if _, err := ParseGitLog(strings.NewReader("\x1eonly-a-hash")); err == nil {
		t.Fatal("malformed record: no error")
	}
}

func TestMineGitTasks(t *testing.T) {
	isSource := func(p string) bool { return strings.HasSuffix(p, ".go") }
	isTest := func(p string) bool { return strings.HasSuffix(p, "_test.go") }
	exists := map[string]bool{"net/retry.go": true, "net/client.go": true, "a.go": true, "b.go": true, "c.go": true, "d.go": true}
	ch := func(st byte, paths ...string) GitChange {
		if len(paths) == 2 {
			return GitChange{Status: st, OldPath: paths[0], Path: paths[1]}
		}
		return GitChange{Status: st, Path: paths[0]}
	}
	commits := []GitCommit{ // newest first
		{Hash: "c6", Message: "Remove the old helper that nobody calls", Changes: []GitChange{ch('D', "old.go")}},
		{Hash: "c5", Message: "Move the retry helper into the net package", Changes: []GitChange{ch('R', "retry.go", "net/retry.go")}},
		{Hash: "c4", Message: "Touch four files at the same time here", Changes: []GitChange{ch('M', "a.go"), ch('M', "b.go"), ch('M', "c.go"), ch('M', "d.go")}},
		{Hash: "c3", Message: "Document the retry behaviour in the guide", Changes: []GitChange{ch('M', "README.md")}},
		{Hash: "c2", Message: "fix typo", Changes: []GitChange{ch('M', "a.go")}},
		{Hash: "c1", Message: "Add a retry helper for idempotent requests (#7)", Changes: []GitChange{ch('A', "retry.go"), ch('A', "retry_test.go"), ch('M', "old.go")}},
	}
	opt := MineOptions{Exists: func(p string) bool { return exists[p] }, IsSource: isSource, IsTest: isTest}
	tasks, st := MineGitTasks(commits, opt)
	want := []Task{
		{ID: "git-c1", Query: "Add a retry helper for idempotent requests", Lang: "en", Kind: "change", Targets: []Target{{File: "net/retry.go"}}, Rev: "c1^"},
		{ID: "git-c5", Query: "Move the retry helper into the net package", Lang: "en", Kind: "change", Targets: []Target{{File: "net/retry.go"}}, Rev: "c5^"},
	}
	if !reflect.DeepEqual(tasks, want) {
		t.Fatalf("tasks\n got  %+v\n want %+v", tasks, want)
	}
	wantSt := MineStats{Commits: 6, NoSource: 1, TooMany: 1, Vague: 1, Gone: 1, Candidates: 2}
	if st != wantSt {
		t.Fatalf("stats %+v, want %+v", st, wantSt)
	}

	// Before: newer commits are no tasks, but their renames are followed.
	for i := range commits {
		commits[i].Time = int64(100 * (len(commits) - i)) // c1 at 100 … c6 at 600
	}
	opt.Before = 500
	tasks, st = MineGitTasks(commits, opt)
	if len(tasks) != 1 || tasks[0].ID != "git-c1" || !reflect.DeepEqual(tasks[0].Targets, []Target{{File: "net/retry.go"}}) || st.Later != 2 {
		t.Fatalf("before 500: tasks %+v, stats %+v", tasks, st)
	}
	opt.Before = 0

	// Sampling is deterministic and keeps history order.
	var many []GitCommit
	for i := range 40 {
		many = append(many, GitCommit{Hash: string(rune('A'+i%26)) + strings.Repeat("x", i), Message: "Change the behaviour of the helper in some way",
			Changes: []GitChange{ch('M', "a.go")}})
	}
	opt.Max = 5
	s1, st1 := MineGitTasks(many, opt)
	s2, _ := MineGitTasks(many, opt)
	if len(s1) != 5 || st1.Sampled != 35 || !reflect.DeepEqual(s1, s2) {
		t.Fatalf("sample: %d tasks (%d left out), repeatable %v", len(s1), st1.Sampled, reflect.DeepEqual(s1, s2))
	}
	opt.Seed = 99
	if s3, _ := MineGitTasks(many, opt); reflect.DeepEqual(s1, s3) {
		t.Fatal("another seed gave the same sample")
	}
}

func TestDistinctFileRankAndEvaluateGit(t *testing.T) {
	task := Task{Targets: []Target{{File: "b.go"}}}
	hits := []Hit{{File: "a.go"}, {File: "a.go"}, {File: "a.go"}, {File: "b.go"}}
	if r := DistinctFileRank(task, hits); r != 2 {
		t.Fatalf("DistinctFileRank = %d, want 2", r)
	}
	rep := EvaluateGit(MineStats{}, []GitOutcome{{FileRank: 1}, {FileRank: 2, Leaky: true}, {FileRank: 0}, {FileRank: 11}})
	if rep.All.Tasks != 4 || rep.Clean.Tasks != 3 || rep.Leaky.Tasks != 1 {
		t.Fatalf("groups %+v", rep)
	}
	if rep.Clean.File.MRR10 != 1.0/3 || rep.Leaky.File.MRR10 != 0.5 || rep.All.File.Recall1 != 0.25 {
		t.Fatalf("metrics clean %+v leaky %+v all %+v", rep.Clean.File, rep.Leaky.File, rep.All.File)
	}
}
