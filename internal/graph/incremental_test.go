package graph

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"codectx/internal/store"
)

// TestIncrementalRename renames a method in one file and re-indexes: only
// that file is rewritten, yet the call from an untouched file is
// re-resolved to the new name (and unresolved again after renaming back).
func TestIncrementalRename(t *testing.T) {
	root := t.TempDir()
	write := func(rel, body string) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		// A distinct mtime, so the stat comparison sees the change.
		future := time.Now().Add(time.Duration(len(body)) * time.Second)
		if err := os.Chtimes(p, future, future); err != nil {
			t.Fatal(err)
		}
	}
	const server = `package srv

// Server serves.
type Server struct{}

// %s answers one request.
func (s *Server) %s(r string) string {
	return r
}
`
	write("srv/server.go", strings.ReplaceAll(server, "%s", "handleRequest"))
	write("srv/run.go", `package srv

// Run serves one request.
func (s *Server) Run() string {
	return s.handle("x")
}
`)
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "index.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	f := &fixture{db: db, root: root}
	f.reindex(t)

	out := f.graph(t, Options{Name: "Server.Run"}).Text()
	if !hasEdge(out, "calls --> s.handle  (unresolved)") {
		t.Fatalf("before the rename the call is unresolved:\n%s", out)
	}

	write("srv/server.go", strings.ReplaceAll(server, "%s", "handle"))
	sum := f.reindex(t)
	if sum.Changed != 1 || sum.Unchanged != 1 {
		t.Errorf("re-index rewrote %d files (unchanged %d), want only the renamed one", sum.Changed, sum.Unchanged)
	}
	out = f.graph(t, Options{Name: "Server.Run"}).Text()
	if !hasEdge(out, "calls --> Server.handle  (srv/server.go:6)") {
		t.Errorf("after the rename the caller is not re-resolved:\n%s", out)
	}
	out = f.graph(t, Options{Name: "Server.handle", Direction: DirIn}).Text()
	if !hasEdge(out, "called by <-- Server.Run  (srv/run.go:5)") || strings.Contains(out, "unresolved") {
		t.Errorf("callers of the renamed method:\n%s", out)
	}
	if _, err := Build(context.Background(), db, f.pid, Options{Name: "Server.handleRequest"}); err == nil {
		t.Error("the old name is still in the graph")
	}

	// Rename back: the call from the untouched file is unlinked again.
	write("srv/server.go", strings.ReplaceAll(server, "%s", "handleRequest")+"\n")
	if sum := f.reindex(t); sum.Changed != 1 {
		t.Errorf("second re-index rewrote %d files", sum.Changed)
	}
	out = f.graph(t, Options{Name: "Server.Run"}).Text()
	if !hasEdge(out, "calls --> s.handle  (unresolved)") {
		t.Errorf("after renaming back the call should be unresolved:\n%s", out)
	}
}

// hasEdge reports whether a tree output has a line ending in edge, with
// any padding between the relation label and the arrow.
func hasEdge(out, edge string) bool {
	label, rest, _ := strings.Cut(edge, " -")
	if rest == "" {
		label, rest, _ = strings.Cut(edge, " <")
		rest = "<" + rest
	} else {
		rest = "-" + rest
	}
	re := regexp.MustCompile(regexp.QuoteMeta(label) + ` +` + regexp.QuoteMeta(rest) + `$`)
	for _, l := range strings.Split(out, "\n") {
		if re.MatchString(l) {
			return true
		}
	}
	return false
}
