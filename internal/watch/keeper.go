// Package watch keeps a project's index fresh without blocking its readers:
// a Keeper runs index passes one at a time (requests made during a pass
// coalesce into one more pass) and remembers which files changed since the
// last pass; a Watcher follows the tree with fsnotify (recursively, debounced)
// and tells the Keeper; a Service glues both and falls back to a stat pass
// before each search where watching is impossible.
//
// It must not rank, render answers, parse code or open the database: it only
// decides when to call the index pass it was given.
package watch

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"codectx/pkg/codectx"
)

// Runner is one incremental index pass (codectx.Project.Index).
type Runner func(ctx context.Context, progress func(codectx.IndexProgress)) (*codectx.IndexSummary, error)

// State is a snapshot of a Keeper.
type State struct {
	// Running is true while a pass is in progress.
	Running bool `json:"running"`
	// Phase, Done, Total and Chunks are the running pass's progress.
	Phase string `json:"phase,omitempty"`
	// WaitingFor, in phase "wait", names the other process writing the
	// project (a CLI index, another server); the pass runs after it.
	WaitingFor string `json:"waiting_for,omitempty"`
	Done       int    `json:"done"`
	Total      int    `json:"total"`
	Chunks     int    `json:"chunks"`
	// Percent is the running pass's progress, 0..100 (100 when idle).
	Percent int `json:"percent"`
	// Queued is true when another pass is requested after the running one.
	Queued bool `json:"queued"`
	// Passes counts completed passes (successful or not).
	Passes int `json:"passes"`
	// Indexed is true once a pass has succeeded in this process.
	Indexed bool `json:"indexed"`
	// Pending counts files changed on disk (as seen by the watcher) since the
	// last pass started.
	Pending int `json:"pending_changes"`
	// Last is the summary of the last successful pass.
	Last *codectx.IndexSummary `json:"last_summary,omitempty"`
	// LastError is the error of the last pass, if it failed.
	LastError string `json:"last_error,omitempty"`
	// LastFinished is when the last pass ended.
	LastFinished time.Time `json:"last_finished,omitzero"`
}

// Keeper runs index passes one at a time. Request asks for a pass that
// starts after the call; every request made while a pass runs is served by
// one following pass.
type Keeper struct {
	run    Runner
	onPass func(*codectx.IndexSummary, error)
	log    *slog.Logger

	wake chan struct{}

	mu       sync.Mutex
	want     uint64 // tickets handed out
	started  uint64 // want when the running/last pass started
	done     uint64 // want when the last finished pass started
	doneErr  error  // error of the last finished pass
	running  bool
	stopped  error         // set when Run returned
	changed  chan struct{} // closed and replaced when a pass finishes
	prog     codectx.IndexProgress
	passes   int
	indexed  bool
	last     *codectx.IndexSummary
	lastErr  error
	lastEnd  time.Time
	dirty    map[string]time.Time // path (relative, slash) → last change seen
	runStart time.Time
}

// NewKeeper makes a Keeper; call Run to serve its requests. onPass, when
// set, is called after every pass (on the Run goroutine).
func NewKeeper(run Runner, onPass func(*codectx.IndexSummary, error), log *slog.Logger) *Keeper {
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Keeper{
		run:     run,
		onPass:  onPass,
		log:     log,
		wake:    make(chan struct{}, 1),
		changed: make(chan struct{}),
		dirty:   map[string]time.Time{},
	}
}

// Run serves requests until ctx ends. A running pass is cancelled with ctx.
func (k *Keeper) Run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			k.finishAll(ctx.Err())
			return
		case <-k.wake:
		}
		k.mu.Lock()
		if k.want == k.done {
			k.mu.Unlock()
			continue
		}
		k.started = k.want
		k.running = true
		k.prog = codectx.IndexProgress{Phase: "scan"}
		start := time.Now()
		k.runStart = start
		k.mu.Unlock()

		sum, err := k.safeRun(ctx)

		k.mu.Lock()
		k.running = false
		k.done = k.started
		k.doneErr = err
		k.passes++
		k.lastEnd = time.Now()
		k.lastErr = err
		if err == nil {
			k.indexed = true
			k.last = sum
			for p, t := range k.dirty {
				if t.Before(start) {
					delete(k.dirty, p)
				}
			}
		}
		again := k.want != k.done
		close(k.changed)
		k.changed = make(chan struct{})
		k.mu.Unlock()
		if err != nil && ctx.Err() == nil {
			k.log.Warn("index pass failed", "err", err)
		}
		if k.onPass != nil && ctx.Err() == nil {
			k.onPass(sum, err)
		}
		if again {
			k.signal()
		}
	}
}

// safeRun runs one pass, turning a panic into an error so that a bug in
// the pipeline cannot take the server down.
func (k *Keeper) safeRun(ctx context.Context) (sum *codectx.IndexSummary, err error) {
	defer func() {
		if r := recover(); r != nil {
			k.log.Error("index pass panicked", "panic", r, "stack", string(debug.Stack()))
			sum, err = nil, fmt.Errorf("index pass failed: internal error: %v", r)
		}
	}()
	return k.run(ctx, k.progress)
}

// finishAll releases every waiter when the keeper stops.
func (k *Keeper) finishAll(err error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.stopped = fmt.Errorf("index keeper stopped: %w", err)
	k.done = k.want
	k.doneErr = k.stopped
	close(k.changed)
	k.changed = make(chan struct{})
}

func (k *Keeper) progress(p codectx.IndexProgress) {
	k.mu.Lock()
	k.prog = p
	k.mu.Unlock()
}

func (k *Keeper) signal() {
	select {
	case k.wake <- struct{}{}:
	default:
	}
}

// Request asks for a pass that starts after this call and returns a ticket
// for Wait. Requests made while a pass runs coalesce into one more pass.
func (k *Keeper) Request() uint64 {
	k.mu.Lock()
	k.want++
	t := k.want
	k.mu.Unlock()
	k.signal()
	return t
}

// Wait blocks until the pass serving ticket has finished (returning its
// error) or ctx ends.
func (k *Keeper) Wait(ctx context.Context, ticket uint64) error {
	for {
		k.mu.Lock()
		if k.done >= ticket || k.stopped != nil {
			err := k.doneErr
			k.mu.Unlock()
			return err
		}
		ch := k.changed
		k.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Sync requests a pass and waits for it.
func (k *Keeper) Sync(ctx context.Context) error {
	return k.Wait(ctx, k.Request())
}

// MarkChanged records that paths (relative to the root, forward slashes)
// changed on disk; they stay pending until a pass that started after the
// change succeeds.
func (k *Keeper) MarkChanged(paths ...string) {
	now := time.Now()
	k.mu.Lock()
	for _, p := range paths {
		k.dirty[p] = now
	}
	k.mu.Unlock()
}

// Pending reports whether changes were seen that no finished pass covers.
func (k *Keeper) Pending() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.dirty) > 0
}

// Changed reports whether path (relative, forward slashes) changed since
// the last successful pass started.
func (k *Keeper) Changed(path string) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	_, ok := k.dirty[path]
	return ok
}

// State is a snapshot for status reports.
func (k *Keeper) State() State {
	k.mu.Lock()
	defer k.mu.Unlock()
	s := State{
		Running: k.running, Passes: k.passes, Indexed: k.indexed,
		Pending: len(k.dirty), Last: k.last, LastFinished: k.lastEnd,
		Queued:  k.want > k.started && k.want != k.done,
		Percent: 100,
	}
	if k.lastErr != nil {
		s.LastError = k.lastErr.Error()
	}
	if k.running {
		s.Phase, s.Done, s.Total, s.Chunks = k.prog.Phase, k.prog.Done, k.prog.Total, k.prog.Chunks
		s.WaitingFor = k.prog.Holder
		s.Percent = Percent(k.prog)
	}
	return s
}

// Percent turns a progress event into 0..99 while a pass runs: the scan is
// 0, files are the bulk, resolving is 99.
func Percent(p codectx.IndexProgress) int {
	switch p.Phase {
	case "scan", "":
		return 0
	case "resolve":
		return 99
	case "done":
		return 100
	}
	if p.Total <= 0 {
		return 0
	}
	return min(98, p.Done*100/p.Total)
}
