package watch

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"codectx/pkg/codectx"
)

// fakeRunner counts passes; each pass blocks until release gets a value
// (when gate is set).
type fakeRunner struct {
	passes  atomic.Int32
	gate    bool
	release chan struct{}
	started chan struct{}
	fail    error
}

func newFake(gate bool) *fakeRunner {
	return &fakeRunner{gate: gate, release: make(chan struct{}), started: make(chan struct{}, 100)}
}

func (f *fakeRunner) run(ctx context.Context, progress func(codectx.IndexProgress)) (*codectx.IndexSummary, error) {
	f.started <- struct{}{}
	progress(codectx.IndexProgress{Phase: "index", Done: 1, Total: 4})
	if f.gate {
		select {
		case <-f.release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	n := f.passes.Add(1)
	if f.fail != nil {
		return nil, f.fail
	}
	return &codectx.IndexSummary{Scanned: int(n)}, nil
}

func startKeeper(t *testing.T, f *fakeRunner) *Keeper {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	k := NewKeeper(f.run, nil, nil)
	done := make(chan struct{})
	go func() { k.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return k
}

func recv(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
	}
}

func TestKeeperCoalescesRequests(t *testing.T) {
	f := newFake(true)
	k := startKeeper(t, f)
	first := k.Request()
	recv(t, f.started, "first pass")
	st := k.State()
	if !st.Running || st.Percent != 25 || st.Done != 1 || st.Total != 4 {
		t.Errorf("state while running = %+v", st)
	}
	// Requests during a pass share one following pass.
	var tickets []uint64
	for range 5 {
		tickets = append(tickets, k.Request())
	}
	if !k.State().Queued {
		t.Error("no pass queued")
	}
	var wg sync.WaitGroup
	errs := make(chan error, len(tickets))
	for _, tk := range tickets {
		wg.Go(func() { errs <- k.Wait(context.Background(), tk) })
	}
	f.release <- struct{}{} // finish the first pass
	if err := k.Wait(context.Background(), first); err != nil {
		t.Fatal(err)
	}
	recv(t, f.started, "second pass")
	f.release <- struct{}{}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if n := f.passes.Load(); n != 2 {
		t.Errorf("passes = %d, want 2 (the five requests coalesced)", n)
	}
	select {
	case <-f.started:
		t.Error("a third pass started")
	case <-time.After(100 * time.Millisecond):
	}
	st = k.State()
	if st.Running || !st.Indexed || st.Passes != 2 || st.Last == nil || st.Last.Scanned != 2 || st.Percent != 100 {
		t.Errorf("state after = %+v", st)
	}
}

func TestKeeperWaitHonoursContext(t *testing.T) {
	f := newFake(true)
	k := startKeeper(t, f)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := k.Sync(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Sync = %v, want deadline exceeded", err)
	}
	f.release <- struct{}{}
}

func TestKeeperPendingChanges(t *testing.T) {
	f := newFake(true)
	k := startKeeper(t, f)
	k.MarkChanged("a.go")
	if !k.Pending() || !k.Changed("a.go") || k.Changed("b.go") {
		t.Fatal("a.go not pending")
	}
	tk := k.Request()
	recv(t, f.started, "pass")
	k.MarkChanged("b.go") // during the pass: the pass may have missed it
	f.release <- struct{}{}
	if err := k.Wait(context.Background(), tk); err != nil {
		t.Fatal(err)
	}
	if k.Changed("a.go") || !k.Changed("b.go") {
		t.Errorf("after the pass: a.go %v (want false), b.go %v (want true)", k.Changed("a.go"), k.Changed("b.go"))
	}
}

func TestKeeperFailedPassKeepsChanges(t *testing.T) {
	f := newFake(false)
	f.fail = errors.New("database is locked")
	k := startKeeper(t, f)
	k.MarkChanged("a.go")
	if err := k.Sync(context.Background()); err == nil || !strings.Contains(err.Error(), "locked") {
		t.Errorf("Sync = %v", err)
	}
	if !k.Changed("a.go") {
		t.Error("a failed pass cleared the pending change")
	}
	if st := k.State(); st.LastError == "" || st.Indexed {
		t.Errorf("state = %+v", st)
	}
}

func TestFreshReportsFirstIndexWithoutWaiting(t *testing.T) {
	f := newFake(true)
	s := Start(context.Background(), ServiceOptions{Root: t.TempDir(), Run: f.run, NoWatch: true})
	defer s.Close()
	recv(t, f.started, "first pass")
	start := time.Now()
	fr := s.Fresh(context.Background(), 5*time.Second)
	if time.Since(start) > 2*time.Second {
		t.Errorf("Fresh blocked during the first index")
	}
	if !fr.Indexing || !strings.Contains(fr.Note, "indexing is at 25%") {
		t.Errorf("freshness = %+v", fr)
	}
	f.release <- struct{}{}
}

func TestFreshWaitsForPendingChanges(t *testing.T) {
	f := newFake(true)
	s := Start(context.Background(), ServiceOptions{Root: t.TempDir(), Run: f.run, Indexed: true, NoWatch: true})
	defer s.Close()
	recv(t, f.started, "startup pass")
	f.release <- struct{}{}

	// Without a watcher each read runs a (stat) pass first.
	go func() {
		recv(t, f.started, "read pass")
		f.release <- struct{}{}
	}()
	if fr := s.Fresh(context.Background(), 10*time.Second); fr.Note != "" {
		t.Errorf("note = %q", fr.Note)
	}

	// A pass slower than maxWait: the answer says so and flags changed files.
	s.keeper.MarkChanged("slow.go")
	fr := s.Fresh(context.Background(), 100*time.Millisecond)
	if !strings.Contains(fr.Note, "still running") || !fr.Stale("slow.go") || fr.Stale("other.go") {
		t.Errorf("freshness = %q, stale(slow.go)=%v", fr.Note, fr.Stale("slow.go"))
	}
	f.release <- struct{}{}
}

// events collects watcher callbacks.
type events struct {
	mu      sync.Mutex
	paths   []string
	settled chan struct{}
}

func (e *events) change(rel string) {
	e.mu.Lock()
	e.paths = append(e.paths, rel)
	e.mu.Unlock()
}

func (e *events) saw(rel string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, p := range e.paths {
		if p == rel {
			return true
		}
	}
	return false
}

func (e *events) reset() {
	e.mu.Lock()
	e.paths = nil
	e.mu.Unlock()
}

func TestWatcherRecursiveAndSkips(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	for _, d := range []string{"src/pkg", "node_modules/x", ".git/objects", "vendor/y"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
	}
	ev := &events{settled: make(chan struct{}, 100)}
	w, err := StartWatcher(context.Background(), WatcherOptions{
		Root: root, Debounce: 50 * time.Millisecond,
		SkipDir: func(rel string) bool {
			return strings.HasPrefix(filepath.Base(rel), ".") || rel == "node_modules" || rel == "vendor"
		},
		Ignore:   func(rel string) bool { return rel == "index.db" },
		OnChange: ev.change,
		OnSettle: func() { ev.settled <- struct{}{} },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if n := w.Dirs(); n != 3 { // root, src, src/pkg
		t.Errorf("watched %d directories, want 3", n)
	}

	os.WriteFile(filepath.Join(root, "src", "pkg", "a.go"), []byte("package pkg"), 0o644)
	recv(t, ev.settled, "settle after a write")
	if !ev.saw("src/pkg/a.go") {
		t.Errorf("events = %v", ev.paths)
	}

	// A new directory is watched: a file created in it later is seen.
	ev.reset()
	os.MkdirAll(filepath.Join(root, "new", "deep"), 0o755)
	recv(t, ev.settled, "settle after mkdir")
	os.WriteFile(filepath.Join(root, "new", "deep", "b.go"), []byte("package deep"), 0o644)
	recv(t, ev.settled, "settle after a write in the new directory")
	if !ev.saw("new/deep/b.go") {
		t.Errorf("events = %v", ev.paths)
	}

	// Skipped directories and ignored files stay silent.
	ev.reset()
	os.WriteFile(filepath.Join(root, "node_modules", "x", "c.js"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(root, ".git", "objects", "d"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(root, "index.db"), []byte("x"), 0o644)
	select {
	case <-ev.settled:
		t.Errorf("settled after changes in skipped places: %v", ev.paths)
	case <-time.After(300 * time.Millisecond):
	}
}

func TestWatcherTooManyDirectories(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	for i := range 5 {
		os.MkdirAll(filepath.Join(root, "d", string(rune('a'+i))), 0o755)
	}
	_, err := StartWatcher(context.Background(), WatcherOptions{Root: root, MaxDirs: 3})
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
	// The service falls back to a stat pass before each read.
	f := newFake(false)
	s := Start(context.Background(), ServiceOptions{Root: root, Run: f.run, MaxDirs: 3, Indexed: true})
	defer s.Close()
	if ok, why := s.Watching(); ok || !strings.Contains(why, "more than 3 directories") {
		t.Errorf("Watching = %v, %q", ok, why)
	}
	before := f.passes.Load()
	s.Fresh(context.Background(), 5*time.Second)
	if f.passes.Load() <= before {
		t.Error("no stat pass before the read")
	}
}

func TestIgnoreDatabaseFiles(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	s := &Service{opt: ServiceOptions{Root: root, DBPath: filepath.Join(root, "data", "index.db")}}
	for rel, want := range map[string]bool{
		"data/index.db": true, "data/index.db-wal": true, "data/index.db-shm": true,
		"data/index.dbx": false, "data/other.db": false, "index.db": false,
	} {
		if got := s.ignoreFile(rel); got != want {
			t.Errorf("ignoreFile(%q) = %v, want %v", rel, got, want)
		}
	}
}

func TestKeeperSurvivesPanic(t *testing.T) {
	calls := 0
	k := NewKeeper(func(ctx context.Context, _ func(codectx.IndexProgress)) (*codectx.IndexSummary, error) {
		calls++
		if calls == 1 {
			panic("boom")
		}
		return &codectx.IndexSummary{}, nil
	}, nil, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go k.Run(ctx)
	if err := k.Sync(ctx); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("first pass: %v", err)
	}
	if err := k.Sync(ctx); err != nil {
		t.Errorf("second pass: %v", err)
	}
}
