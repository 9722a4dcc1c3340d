package watch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"
)

// ErrUnavailable means the tree cannot be watched (too many directories,
// inotify limits, a network file system); callers fall back to a stat pass
// before each read.
var ErrUnavailable = errors.New("file watching unavailable")

// Defaults for WatcherOptions.
const (
	DefaultDebounce = 300 * time.Millisecond
	DefaultMaxDirs  = 8000
	// maxDelay bounds how long a steady stream of events can postpone OnSettle.
	maxDelay = 2 * time.Second
)

// WatcherOptions configure StartWatcher.
type WatcherOptions struct {
	// Root is the absolute, symlink-free project root.
	Root string
	// Debounce is the quiet period before OnSettle; 0 means DefaultDebounce.
	Debounce time.Duration
	// MaxDirs is the most directories to watch; 0 means DefaultMaxDirs.
	MaxDirs int
	// SkipDir reports whether a directory (relative to Root, forward
	// slashes, never "") must not be watched; nil skips hidden directories.
	SkipDir func(rel string) bool
	// Ignore reports whether events on a path (relative, forward slashes)
	// are irrelevant (the database's own files, for instance).
	Ignore func(rel string) bool
	// OnChange receives every relevant event's path at once (undebounced);
	// "" means "something changed, path unknown" (event queue overflow).
	OnChange func(rel string)
	// OnSettle runs once the tree has been quiet for Debounce after changes.
	OnSettle func()
	Logger   *slog.Logger
}

// Watcher follows a directory tree with fsnotify: every directory the
// scanner would enter is watched, directories created later are added.
type Watcher struct {
	opt      WatcherOptions
	fsw      *fsnotify.Watcher
	log      *slog.Logger
	mu       sync.Mutex
	dirs     map[string]bool // watched directories, absolute
	degraded atomic.Pointer[string]
	done     chan struct{}
	closeMu  sync.Once
}

// StartWatcher watches opt.Root until ctx ends or Close is called. An error
// wrapping ErrUnavailable means watching is impossible here.
func StartWatcher(ctx context.Context, opt WatcherOptions) (*Watcher, error) {
	if opt.Debounce <= 0 {
		opt.Debounce = DefaultDebounce
	}
	if opt.MaxDirs <= 0 {
		opt.MaxDirs = DefaultMaxDirs
	}
	if opt.SkipDir == nil {
		opt.SkipDir = func(rel string) bool { return strings.HasPrefix(pathBase(rel), ".") }
	}
	if opt.Ignore == nil {
		opt.Ignore = func(string) bool { return false }
	}
	if opt.OnChange == nil {
		opt.OnChange = func(string) {}
	}
	if opt.OnSettle == nil {
		opt.OnSettle = func() {}
	}
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if fsName, remote := remoteFS(opt.Root); remote {
		return nil, fmt.Errorf("%w: %s is on a network file system (%s)", ErrUnavailable, opt.Root, fsName)
	}
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	w := &Watcher{opt: opt, fsw: fsw, log: log, dirs: map[string]bool{}, done: make(chan struct{})}
	if err := w.addTree(ctx, opt.Root); err != nil {
		fsw.Close()
		if errors.Is(err, ErrUnavailable) {
			return nil, err
		}
		return nil, fmt.Errorf("watch %s: %w", opt.Root, err)
	}
	log.Debug("watching", "root", opt.Root, "dirs", w.Dirs())
	go w.loop(ctx)
	return w, nil
}

// Dirs is the number of watched directories.
func (w *Watcher) Dirs() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.dirs)
}

// Degraded returns why events may be missed ("" when watching is sound):
// a directory could not be added after start, or the watcher failed.
func (w *Watcher) Degraded() string {
	if p := w.degraded.Load(); p != nil {
		return *p
	}
	return ""
}

func (w *Watcher) degrade(reason string) {
	if w.degraded.CompareAndSwap(nil, &reason) {
		w.log.Warn("file watching degraded; falling back to a stat pass before each search", "reason", reason)
	}
}

// Close stops watching.
func (w *Watcher) Close() error {
	var err error
	w.closeMu.Do(func() {
		err = w.fsw.Close()
		<-w.done
	})
	return err
}

// addTree watches dir and every directory below it that is not skipped.
func (w *Watcher) addTree(ctx context.Context, dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			return nil // unreadable or vanished below: the scanner skips it too
		}
		if !d.IsDir() {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if p != w.opt.Root {
			rel := w.rel(p)
			if rel == "" || w.opt.SkipDir(rel) || w.opt.Ignore(rel) {
				return filepath.SkipDir
			}
		}
		w.mu.Lock()
		n, seen := len(w.dirs), w.dirs[p]
		w.mu.Unlock()
		if seen {
			return nil
		}
		if n >= w.opt.MaxDirs {
			return fmt.Errorf("%w: more than %d directories", ErrUnavailable, w.opt.MaxDirs)
		}
		if err := w.fsw.Add(p); err != nil {
			if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) {
				return fmt.Errorf("%w: %s: %v (raise fs.inotify.max_user_watches)", ErrUnavailable, p, err)
			}
			if errors.Is(err, fs.ErrNotExist) && p != dir {
				return filepath.SkipDir
			}
			return fmt.Errorf("watch %s: %w", p, err)
		}
		w.mu.Lock()
		w.dirs[p] = true
		w.mu.Unlock()
		return nil
	})
}

// rel is p relative to the root with forward slashes ("" when outside).
func (w *Watcher) rel(p string) string {
	r, err := filepath.Rel(w.opt.Root, p)
	if err != nil || r == "." || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(r)
}

// skipped reports whether rel lies inside a skipped directory.
func (w *Watcher) skipped(rel string) bool {
	for i := 0; i < len(rel); i++ {
		if rel[i] == '/' && w.opt.SkipDir(rel[:i]) {
			return true
		}
	}
	return false
}

func (w *Watcher) loop(ctx context.Context) {
	defer close(w.done)
	var (
		timer    *time.Timer
		timerC   <-chan time.Time
		first    time.Time // first unsettled event
		unsettle bool
	)
	stopCh := ctx.Done()
	for {
		select {
		case <-stopCh:
			w.fsw.Close()
			stopCh = nil
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			if !w.handle(ctx, ev) {
				continue
			}
			now := time.Now()
			if !unsettle {
				unsettle, first = true, now
			}
			wait := w.opt.Debounce
			if rest := maxDelay - now.Sub(first); rest < wait {
				wait = max(rest, 0)
			}
			if timer == nil {
				timer = time.NewTimer(wait)
			} else {
				timer.Reset(wait)
			}
			timerC = timer.C
		case <-timerC:
			timerC = nil
			unsettle = false
			w.opt.OnSettle()
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				// Events were lost: a full pass finds every change anyway.
				w.log.Debug("watch event queue overflow")
				w.opt.OnChange("")
				w.opt.OnSettle()
				continue
			}
			w.log.Warn("watch error", "err", err)
			if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE) {
				w.degrade(err.Error())
			}
		}
	}
}

// handle processes one event; it reports whether the event matters.
func (w *Watcher) handle(ctx context.Context, ev fsnotify.Event) bool {
	if ev.Op == fsnotify.Chmod {
		return false
	}
	rel := w.rel(ev.Name)
	if rel == "" || w.skipped(rel) || w.opt.Ignore(rel) {
		return false
	}
	w.mu.Lock()
	wasDir := w.dirs[ev.Name]
	w.mu.Unlock()
	switch {
	case ev.Has(fsnotify.Create):
		if st, err := os.Lstat(ev.Name); err == nil && st.IsDir() {
			if w.opt.SkipDir(rel) {
				return false
			}
			if err := w.addTree(ctx, ev.Name); err != nil && ctx.Err() == nil {
				w.degrade(err.Error())
			}
		}
	case ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename):
		if wasDir {
			w.forget(ev.Name)
		}
	}
	w.opt.OnChange(rel)
	return true
}

// forget drops dir and its descendants from the watch list (the directory
// was removed or renamed; its new name arrives as a Create).
func (w *Watcher) forget(dir string) {
	w.mu.Lock()
	var gone []string
	for p := range w.dirs {
		if p == dir || strings.HasPrefix(p, dir+string(filepath.Separator)) {
			gone = append(gone, p)
			delete(w.dirs, p)
		}
	}
	w.mu.Unlock()
	for _, p := range gone {
		_ = w.fsw.Remove(p) // already gone when the kernel dropped it
	}
}

func pathBase(rel string) string {
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		return rel[i+1:]
	}
	return rel
}
