package watch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"codectx/internal/scan"
	"codectx/pkg/codectx"
)

// ServiceOptions configure Start.
type ServiceOptions struct {
	// Root is the absolute, symlink-free project root.
	Root string
	// Run is one incremental index pass.
	Run Runner
	// Indexed tells whether the project already has an index; when it has
	// none, Fresh never waits for the first pass (it reports progress).
	Indexed bool
	// DBPath is the database file; events on it (and its -wal/-shm/-journal
	// files) are ignored when it lies inside Root.
	DBPath string
	// NoWatch disables the watcher (a stat pass runs before each read).
	NoWatch bool
	// Debounce and MaxDirs tune the watcher (0 means the defaults).
	Debounce time.Duration
	MaxDirs  int
	// PollInterval, when > 0 and watching is unavailable, runs a pass on
	// this period (for `codectx watch`, which has no reads to piggyback on).
	PollInterval time.Duration
	// OnPass is called after every index pass.
	OnPass func(*codectx.IndexSummary, error)
	Logger *slog.Logger
}

// Service keeps one project fresh: a Keeper, a Watcher when the tree can be
// watched, and the freshness check readers run before answering.
type Service struct {
	opt      ServiceOptions
	keeper   *Keeper
	watcher  *Watcher
	fallback string // why there is no watcher ("" when watching)
	indexed  atomic.Bool
	log      *slog.Logger
	cancel   context.CancelFunc
	wg       sync.WaitGroup
	ignores  atomic.Pointer[ignoreSet]
}

// ignoreSet holds the ignore-file checkers used to skip directories; it is
// replaced when an ignore file changes.
type ignoreSet struct {
	git, cx *scan.IgnoreChecker
}

// Start begins keeping the project fresh: it requests a first pass (which
// only stats files when nothing changed) and watches the tree. It never fails:
// when watching is impossible it falls back to a stat pass before each read.
// The service stops when ctx ends or Close is called.
func Start(ctx context.Context, opt ServiceOptions) *Service {
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	ctx, cancel := context.WithCancel(ctx)
	if opt.DBPath != "" {
		opt.DBPath = canonical(opt.DBPath)
	}
	s := &Service{opt: opt, log: log, cancel: cancel}
	s.indexed.Store(opt.Indexed)
	s.keeper = NewKeeper(opt.Run, s.passDone, log)
	s.loadIgnores()
	s.wg.Go(func() { s.keeper.Run(ctx) })
	s.keeper.Request()

	if opt.NoWatch {
		s.fallback = "watching disabled"
	} else {
		w, err := StartWatcher(ctx, WatcherOptions{
			Root: opt.Root, Debounce: opt.Debounce, MaxDirs: opt.MaxDirs,
			SkipDir: s.skipDir, Ignore: s.ignoreFile,
			OnChange: s.changed, OnSettle: func() { s.keeper.Request() },
			Logger: log,
		})
		if err != nil {
			s.fallback = err.Error()
			if !errors.Is(err, ErrUnavailable) {
				s.fallback = fmt.Sprintf("%v: %v", ErrUnavailable, err)
			}
			log.Warn("not watching files; a stat pass runs before each search instead", "reason", s.fallback)
		} else {
			s.watcher = w
		}
	}
	if s.watcher == nil && opt.PollInterval > 0 {
		s.wg.Go(func() { s.poll(ctx) })
	}
	return s
}

// Close stops the watcher and the keeper (cancelling a running pass).
func (s *Service) Close() {
	s.cancel()
	if s.watcher != nil {
		s.watcher.Close()
	}
	s.wg.Wait()
}

// Keeper is the service's index runner.
func (s *Service) Keeper() *Keeper { return s.keeper }

// Watching reports whether file events are followed, and why not.
func (s *Service) Watching() (bool, string) {
	if s.watcher == nil {
		return false, s.fallback
	}
	if d := s.watcher.Degraded(); d != "" {
		return false, d
	}
	return true, ""
}

// WatchedDirs is the number of directories watched (0 without a watcher).
func (s *Service) WatchedDirs() int {
	if s.watcher == nil {
		return 0
	}
	return s.watcher.Dirs()
}

func (s *Service) passDone(sum *codectx.IndexSummary, err error) {
	if err == nil {
		s.indexed.Store(true)
	}
	if s.opt.OnPass != nil {
		s.opt.OnPass(sum, err)
	}
}

func (s *Service) poll(ctx context.Context) {
	t := time.NewTicker(s.opt.PollInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.keeper.Request()
		}
	}
}

func (s *Service) loadIgnores() {
	s.ignores.Store(&ignoreSet{
		git: scan.NewIgnoreChecker(s.opt.Root, scan.GitIgnoreFile),
		cx:  scan.NewIgnoreChecker(s.opt.Root, scan.CodectxIgnoreFile),
	})
}

// skipDir applies the scanner's directory rules: skipped names, hidden
// directories, and directories excluded by .gitignore or .codectxignore.
func (s *Service) skipDir(rel string) bool {
	ig := s.ignores.Load()
	if scan.SkippedDir(s.opt.Root, rel, ig.cx) {
		return true
	}
	return ig.git.Excluded(rel, true) || ig.cx.Excluded(rel, true)
}

// ignoreFile drops events on the database's own files.
func (s *Service) ignoreFile(rel string) bool {
	if s.opt.DBPath == "" {
		return false
	}
	abs := filepath.Join(s.opt.Root, filepath.FromSlash(rel))
	return strings.HasPrefix(abs, s.opt.DBPath) && (abs == s.opt.DBPath || strings.HasPrefix(abs[len(s.opt.DBPath):], "-"))
}

func (s *Service) changed(rel string) {
	s.keeper.MarkChanged(rel)
	switch path.Base(rel) {
	case scan.GitIgnoreFile, scan.CodectxIgnoreFile:
		// New rules: re-read them, and watch directories they no longer exclude.
		s.loadIgnores()
		if s.watcher != nil {
			go func() {
				if err := s.watcher.addTree(context.Background(), s.opt.Root); err != nil {
					s.watcher.degrade(err.Error())
				}
			}()
		}
	}
}

// Freshness is what a reader must tell about the index it is about to use.
type Freshness struct {
	// Note, when not empty, is one line to show with the answer (indexing
	// progress, a refresh still running or failed).
	Note string
	// Indexing is true while the first index of the project is being built.
	Indexing bool
	// Stale reports whether a file changed on disk after it was indexed (as
	// far as the watcher knows).
	Stale func(path string) bool
}

// Fresh brings the index up to date before a read: when the watcher saw
// changes that no pass covers yet, or there is no sound watcher, it runs a
// pass (coalesced with concurrent readers) and waits for it up to maxWait.
// While the project's first index is being built it does not wait at all.
func (s *Service) Fresh(ctx context.Context, maxWait time.Duration) Freshness {
	f := Freshness{Stale: s.keeper.Changed}
	st := s.keeper.State()
	watching, _ := s.Watching()
	if !s.indexed.Load() {
		f.Indexing = true
		if st.Running {
			f.Note = fmt.Sprintf("indexing is at %d%% (%d/%d files); results cover only what is indexed so far — exact tools (grep_code, glob_files, read_file) see everything now", st.Percent, st.Done, st.Total)
		} else if st.LastError != "" {
			f.Note = "indexing failed: " + st.LastError
		} else {
			f.Note = "indexing is starting; results cover only what is indexed so far"
		}
		return f
	}
	if watching && st.Pending == 0 && st.Indexed {
		return f // the watcher saw nothing since a pass of this process
	}
	wctx, cancel := context.WithTimeout(ctx, maxWait)
	defer cancel()
	err := s.keeper.Sync(wctx)
	switch {
	case err == nil:
	case ctx.Err() != nil:
		f.Note = "request cancelled while refreshing the index"
	case errors.Is(err, context.DeadlineExceeded):
		st = s.keeper.State()
		if watching {
			f.Note = fmt.Sprintf("index refresh still running (%d%%); results from files changed since are marked [stale]", st.Percent)
		} else {
			f.Note = fmt.Sprintf("index refresh still running (%d%%); results may be stale", st.Percent)
		}
	default:
		f.Note = "index refresh failed, results may be stale: " + err.Error()
	}
	return f
}

// canonical makes p absolute with its directory's symbolic links resolved
// (the file itself may not exist yet).
func canonical(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return filepath.Join(dir, filepath.Base(abs))
	}
	return abs
}
