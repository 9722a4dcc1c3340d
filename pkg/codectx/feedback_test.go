package codectx

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A result the search never finds can be voted up and then ranks; the same
// vote twice is stored once; the opposite vote replaces it.
func TestFeedbackAnyResultOnce(t *testing.T) {
	t.Setenv("EMBEDDING_PROVIDER", "local")
	dir := t.TempDir()
	files := map[string]string{"retry.go": srcRetry, "cookie.go": srcCookie}
	// Enough unrelated functions that the search's candidate list is full
	// without the one voted up.
	var b strings.Builder
	b.WriteString("package web\n")
	for i := range 40 {
		fmt.Fprintf(&b, "\n// retryConnection%d retries a failed request on a new connection.\nfunc retryConnection%d() {}\n", i, i)
	}
	files["many.go"] = b.String()
	files["zebra.go"] = "package web\n\n// Stripes counts zebra stripes.\nfunc Stripes() int { return 3 }\n"
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	p := openIndexed(t, dir)
	q := "retry a failed request on a new connection"
	before, err := p.Search(ctx, SearchOptions{Query: q, K: DefaultSearchK})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range before.Results {
		if h.File == "zebra.go" {
			t.Fatalf("fixture: zebra.go already found: %+v", before.Results)
		}
	}
	up, err := p.Feedback(ctx, q, "zebra.go#Stripes", 1)
	if err != nil {
		t.Fatal(err)
	}
	if up.Status != "added" || up.Rank == 0 {
		t.Fatalf("vote up on an unfound result: %+v", up)
	}
	if !strings.Contains(up.Text(), fmt.Sprintf("now ranks %d", up.Rank)) {
		t.Fatalf("text %q", up.Text())
	}
	again, err := p.Feedback(ctx, q, "zebra.go:3", 1)
	if err != nil || again.Status != "unchanged" {
		t.Fatalf("same vote again: %+v, %v", again, err)
	}
	list, err := p.ListFeedback(ctx)
	if err != nil || len(list) != 1 {
		t.Fatalf("judgements after two equal votes: %d, %v", len(list), err)
	}
	down, err := p.Feedback(ctx, q, "zebra.go#Stripes", -1)
	if err != nil || down.Status != "changed" || down.Rank != 0 {
		t.Fatalf("opposite vote: %+v, %v", down, err)
	}
	if list, _ = p.ListFeedback(ctx); len(list) != 1 || list[0].Vote != -1 {
		t.Fatalf("judgements after the opposite vote: %+v", list)
	}
	for _, id := range []string{"zebra.go#Nope", "zebra.go:999"} {
		if _, err := p.Feedback(ctx, q, id, 1); err == nil || !IsBadInput(err) {
			t.Fatalf("vote on %s: %v, want a bad-input error", id, err)
		}
	}
}
