package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"codectx/internal/lang"
	"codectx/internal/store"
)

// fakeEmbedder is deterministic, counts what it embeds and can be told to fail.
type fakeEmbedder struct {
	model  string
	mu     sync.Mutex
	calls  int
	texts  int
	failOn string        // any batch containing this substring fails
	delay  time.Duration // per call
}

func (f *fakeEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	f.mu.Lock()
	f.calls++
	f.mu.Unlock()
	if f.delay > 0 {
		select {
		case <-time.After(f.delay):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if f.failOn != "" && strings.Contains(t, f.failOn) {
			return nil, errors.New("fake embedder refuses " + f.failOn)
		}
		v := make([]float32, 4)
		for j := 0; j < len(t); j++ {
			v[j%4] += float32(t[j])
		}
		out[i] = v
	}
	f.mu.Lock()
	f.texts += len(texts)
	f.mu.Unlock()
	return out, nil
}
func (f *fakeEmbedder) ModelID() string { return f.model }
func (f *fakeEmbedder) Dims() int       { return 4 }
func (f *fakeEmbedder) BatchSize() int  { return 8 }

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, body := range files {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func openDB(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "index.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func run(t *testing.T, db *store.DB, root string, emb *fakeEmbedder) *Summary {
	t.Helper()
	s, err := Run(context.Background(), Options{Root: root, DB: db, Embedder: emb, Threads: 2})
	if err != nil {
		t.Fatalf("index: %v", err)
	}
	return s
}

var repo = map[string]string{
	"svc/service.go": `package svc

// Service answers questions.
type Service struct{ repo *Repo }

// Find looks a user up.
func (s *Service) Find(id int) string {
	return s.repo.Lookup(id)
}
`,
	"svc/repo.go": `package svc

type Repo struct{}

func (r *Repo) Lookup(id int) string { return helper(id) }

func helper(id int) string { return "x" }
`,
	"tool/main.py": `import os

class Tool:
    def run(self, x):
        return self.step(x)

    def step(self, x):
        return x
`,
	"README.md": "# Demo\n\nA tiny project.\n",
}

func TestIncrementalRuns(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, repo)
	db := openDB(t)
	emb := &fakeEmbedder{model: "fake:a"}

	s := run(t, db, root, emb)
	if s.Scanned != 4 || s.Changed != 4 || s.Unchanged != 0 || s.Removed != 0 || s.Failed != 0 {
		t.Fatalf("first run: %+v", s)
	}
	if s.Chunks == 0 || s.Relations == 0 || s.Embedded == 0 {
		t.Fatalf("first run wrote nothing: %+v", s)
	}

	// No change: nothing read, nothing embedded.
	emb.texts = 0
	s = run(t, db, root, emb)
	if s.Changed != 0 || s.Unchanged != 4 || emb.texts != 0 {
		t.Fatalf("no-change run: %+v, embedded %d", s, emb.texts)
	}

	// Touch without changing content: hashed, not re-parsed.
	future := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(root, "README.md"), future, future); err != nil {
		t.Fatal(err)
	}
	s = run(t, db, root, emb)
	if s.Changed != 0 || s.Unchanged != 4 {
		t.Fatalf("touch run: %+v", s)
	}

	// Modify one, add one, delete one.
	writeFiles(t, root, map[string]string{
		"svc/service.go": repo["svc/service.go"] + "\nfunc Extra() {}\n",
		"svc/new.go":     "package svc\n\nfunc New() *Service { return &Service{} }\n",
	})
	if err := os.Remove(filepath.Join(root, "tool/main.py")); err != nil {
		t.Fatal(err)
	}
	emb.texts = 0
	s = run(t, db, root, emb)
	if s.Changed != 2 || s.Removed != 1 || s.Unchanged != 2 {
		t.Fatalf("change run: %+v", s)
	}
	// Only texts never seen before were embedded: Service.Find etc. come from the cache.
	if s.CacheHits == 0 || emb.texts >= s.Chunks {
		t.Fatalf("cache not used: hits %d, embedded %d of %d chunks", s.CacheHits, emb.texts, s.Chunks)
	}
	paths := filePaths(t, db, root)
	want := []string{"README.md", "svc/new.go", "svc/repo.go", "svc/service.go"}
	if strings.Join(paths, ",") != strings.Join(want, ",") {
		t.Fatalf("files = %v, want %v", paths, want)
	}
	assertConsistent(t, db)

	// A changed model re-embeds every file.
	emb2 := &fakeEmbedder{model: "fake:b"}
	s = run(t, db, root, emb2)
	if s.Changed != 4 || emb2.texts == 0 {
		t.Fatalf("model switch: %+v", s)
	}
	var n int
	if err := db.SQL().QueryRow("SELECT count(*) FROM chunks WHERE model != 'fake:b'").Scan(&n); err != nil || n != 0 {
		t.Fatalf("chunks of the old model remain: %d %v", n, err)
	}
}

func filePaths(t *testing.T, db *store.DB, root string) []string {
	t.Helper()
	p, err := db.Project(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	fps, err := db.Fingerprints(context.Background(), p.ID)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for k := range fps {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// assertConsistent checks the invariants every committed state must hold.
func assertConsistent(t *testing.T, db *store.DB) {
	t.Helper()
	checks := map[string]string{
		"integrity":              "SELECT CASE WHEN (SELECT integrity_check FROM pragma_integrity_check) = 'ok' THEN 0 ELSE 1 END",
		"chunks without file":    "SELECT count(*) FROM chunks c LEFT JOIN files f ON f.id = c.file_id WHERE f.id IS NULL",
		"relations without file": "SELECT count(*) FROM relations r LEFT JOIN files f ON f.id = r.file_id WHERE f.id IS NULL",
		"dangling targets":       "SELECT count(*) FROM relations r LEFT JOIN chunks c ON c.id = r.dst_chunk WHERE r.dst_chunk IS NOT NULL AND c.id IS NULL",
		"fts rows != chunks":     "SELECT abs((SELECT count(*) FROM chunks) - (SELECT count(*) FROM chunks_fts))",
		"chunks without vector":  "SELECT count(*) FROM chunks c LEFT JOIN vectors v ON v.model = c.model AND v.text_hash = c.text_hash WHERE v.vec IS NULL",
	}
	for name, q := range checks {
		var n int
		if err := db.SQL().QueryRow(q).Scan(&n); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if n != 0 {
			t.Errorf("%s: %d", name, n)
		}
	}
}

func TestEmbeddingFailureKeepsPreviousRows(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, repo)
	db := openDB(t)
	emb := &fakeEmbedder{model: "fake:a"}
	run(t, db, root, emb)

	// repo.go changes to contain text the embedder refuses: that file fails,
	// keeps its previous chunks and fingerprint; the other changed file lands.
	writeFiles(t, root, map[string]string{
		"svc/repo.go":    repo["svc/repo.go"] + "\n// FAILME\nfunc Broken() {}\n",
		"svc/service.go": repo["svc/service.go"] + "\nfunc Extra() {}\n",
	})
	emb.failOn = "FAILME"
	s := run(t, db, root, emb)
	if s.Failed != 1 || s.Changed != 1 {
		t.Fatalf("summary: %+v", s)
	}
	var n int
	db.SQL().QueryRow("SELECT count(*) FROM chunks WHERE path = 'svc/repo.go' AND content LIKE '%Lookup%'").Scan(&n)
	if n == 0 {
		t.Fatal("failed file lost its previous chunks")
	}
	db.SQL().QueryRow("SELECT count(*) FROM chunks WHERE content LIKE '%FAILME%'").Scan(&n)
	if n != 0 {
		t.Fatal("failed file's new chunks were written")
	}
	assertConsistent(t, db)

	// The next run retries it.
	emb.failOn = ""
	s = run(t, db, root, emb)
	if s.Changed != 1 || s.Failed != 0 {
		t.Fatalf("retry run: %+v", s)
	}
	db.SQL().QueryRow("SELECT count(*) FROM chunks WHERE content LIKE '%FAILME%'").Scan(&n)
	if n == 0 {
		t.Fatal("retried file not written")
	}
}

func resolvedTarget(t *testing.T, db *store.DB, src, target string) string {
	t.Helper()
	var sym string
	err := db.SQL().QueryRow(`SELECT COALESCE(c.symbol, '') FROM relations r LEFT JOIN chunks c ON c.id = r.dst_chunk
		WHERE r.src_symbol = ? AND r.target = ? AND r.kind = 'calls'`, src, target).Scan(&sym)
	if err != nil {
		t.Fatalf("relation %s -> %s: %v", src, target, err)
	}
	return sym
}

func TestResolutionFollowsRenames(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, repo)
	writeFiles(t, root, map[string]string{"svc/caller.go": "package svc\n\nfunc Caller() string { return assist(1) }\n"})
	db := openDB(t)
	emb := &fakeEmbedder{model: "fake:a"}
	run(t, db, root, emb)

	if got := resolvedTarget(t, db, "Service.Find", "Lookup"); got != "Repo.Lookup" {
		t.Errorf("Service.Find -> Lookup resolved to %q", got)
	}
	if got := resolvedTarget(t, db, "Repo.Lookup", "helper"); got != "helper" {
		t.Errorf("Repo.Lookup -> helper resolved to %q", got)
	}
	if got := resolvedTarget(t, db, "Tool.run", "step"); got != "Tool.step" {
		t.Errorf("Tool.run -> step resolved to %q", got)
	}
	if got := resolvedTarget(t, db, "Caller", "assist"); got != "" {
		t.Errorf("Caller -> assist should be unresolved, got %q", got)
	}

	// Rename helper to assist in repo.go only: Caller (unchanged file) now
	// resolves, Lookup's call to the old name is unresolved.
	writeFiles(t, root, map[string]string{"svc/repo.go": strings.ReplaceAll(repo["svc/repo.go"], "func helper(", "func assist(")})
	s := run(t, db, root, emb)
	if s.Changed != 1 {
		t.Fatalf("expected one changed file: %+v", s)
	}
	if got := resolvedTarget(t, db, "Caller", "assist"); got != "assist" {
		t.Errorf("after rename Caller -> assist resolved to %q", got)
	}
	if got := resolvedTarget(t, db, "Repo.Lookup", "helper"); got != "" {
		t.Errorf("after rename Repo.Lookup -> helper should be unresolved, got %q", got)
	}
	assertConsistent(t, db)
}

func TestBadRoot(t *testing.T) {
	db := openDB(t)
	_, err := Run(context.Background(), Options{Root: filepath.Join(t.TempDir(), "missing"), DB: db, Embedder: &fakeEmbedder{model: "fake:a"}})
	if err == nil {
		t.Fatal("no error for a missing root")
	}
}

func TestCancelledRunLeavesConsistentDB(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for i := range 200 {
		files[fmt.Sprintf("pkg%d/f%d.go", i%10, i)] = fmt.Sprintf("package p\n\nfunc F%d() int { return %d }\n", i, i)
	}
	writeFiles(t, root, files)
	db := openDB(t)
	emb := &fakeEmbedder{model: "fake:a", delay: 5 * time.Millisecond}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	_, err := Run(ctx, Options{Root: root, DB: db, Embedder: emb, Threads: 2})
	if err == nil {
		t.Skip("run finished before the deadline; nothing to check")
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want a deadline error, got %v", err)
	}
	assertConsistent(t, db)
	emb.delay = 0
	s := run(t, db, root, emb)
	if s.Changed+s.Unchanged != 200 {
		t.Fatalf("second run: %+v", s)
	}
	assertConsistent(t, db)
	if len(filePaths(t, db, root)) != 200 {
		t.Fatal("not every file indexed after the second run")
	}
}

// TestNewChunkerReparses: files parsed by an older chunker are parsed again
// even though their content did not change; their vectors come from the cache.
func TestNewChunkerReparses(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, repo)
	db := openDB(t)
	emb := &fakeEmbedder{model: "fake:a"}
	run(t, db, root, emb)
	if _, err := db.SQL().Exec("UPDATE files SET parser = 'older' WHERE path LIKE 'svc/%'"); err != nil {
		t.Fatal(err)
	}
	emb.texts = 0
	s := run(t, db, root, emb)
	if s.Changed != 2 || s.Unchanged != len(repo)-2 || emb.texts != 0 || s.CacheHits == 0 {
		t.Fatalf("re-parse after a chunker change: %+v, embedded %d", s, emb.texts)
	}
	var stale int
	db.SQL().QueryRow("SELECT count(*) FROM files WHERE parser != ?", lang.Version).Scan(&stale)
	if stale != 0 {
		t.Errorf("%d files still carry an old chunker version", stale)
	}
	assertConsistent(t, db)
}

// TestCacheHitsWithoutLookups: a first index remembers the vectors it wrote
// instead of asking the cache per chunk; past maxWritten it asks the cache
// again. Both ways embed each distinct text once and count the rest as
// hits, across batches.
func TestCacheHitsWithoutLookups(t *testing.T) {
	tree := map[string]string{}
	for i := range 150 {
		body := fmt.Sprintf("package p\n\n// F%d does thing %d.\nfunc F%d() int { return %d }\n", i, i, i, i)
		tree[fmt.Sprintf("a/f%03d.go", i)] = body
		tree[fmt.Sprintf("b/f%03d.go", i)] = body // same texts, later batches
	}
	defer func(v int) { maxWritten = v }(maxWritten)
	var got []string
	for _, limit := range []int{maxWritten, 0} {
		maxWritten = limit
		root := t.TempDir()
		writeFiles(t, root, tree)
		emb := &fakeEmbedder{model: "fake:a"}
		s := run(t, openDB(t), root, emb)
		if s.CacheHits == 0 || s.Embedded != emb.texts {
			t.Errorf("limit %d: embedded %d (embedder saw %d), hits %d", limit, s.Embedded, emb.texts, s.CacheHits)
		}
		got = append(got, fmt.Sprintf("embedded %d hits %d chunks %d", s.Embedded, s.CacheHits, s.Chunks))
	}
	if got[0] != got[1] {
		t.Errorf("remembered hashes: %s; cache look-ups: %s", got[0], got[1])
	}
}

// TestAfterCommit: the hook runs once per successful run, sees the run's
// committed state (its generation and chunks) and has finished when Run
// returns; a run that fails before committing does not call it.
func TestAfterCommit(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, repo)
	db := openDB(t)
	emb := &fakeEmbedder{model: "fake:a"}
	for _, name := range []string{"first index (bulk load)", "no-change run"} {
		t.Run(name, func(t *testing.T) {
			calls, finished := 0, false
			var gen int64
			var chunks int
			s, err := Run(context.Background(), Options{Root: root, DB: db, Embedder: emb, Threads: 2,
				AfterCommit: func(ctx context.Context) {
					calls++
					p, err := db.Project(ctx, root)
					if err != nil {
						t.Errorf("project in AfterCommit: %v", err)
						return
					}
					gen = p.Generation
					if chunks, err = db.ChunkCount(ctx, p.ID); err != nil {
						t.Errorf("chunks in AfterCommit: %v", err)
					}
					finished = true
				}})
			if err != nil {
				t.Fatal(err)
			}
			if calls != 1 || !finished {
				t.Fatalf("AfterCommit called %d times, finished %v when Run returned", calls, finished)
			}
			p, err := db.Project(context.Background(), root)
			if err != nil {
				t.Fatal(err)
			}
			if gen != p.Generation || chunks != s.TotalChunks || chunks == 0 {
				t.Fatalf("AfterCommit saw generation %d and %d chunks; the run left %d and %d", gen, chunks, p.Generation, s.TotalChunks)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	called := false
	if _, err := Run(ctx, Options{Root: root, DB: db, Embedder: emb, AfterCommit: func(context.Context) { called = true }}); err == nil {
		t.Fatal("a cancelled run succeeded")
	}
	if called {
		t.Fatal("AfterCommit called for a run that did not commit")
	}
}
