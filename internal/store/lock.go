package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Holder describes the process that holds a project's writer lock.
type Holder struct {
	PID     int       `json:"pid"`
	Host    string    `json:"host"`
	Command string    `json:"command"`
	Root    string    `json:"root"`
	Since   time.Time `json:"since"`
}

// String names the holder for people: "pid 4242 (codectx index) since 10:01:02".
func (h Holder) String() string {
	if h.PID == 0 {
		return "another process"
	}
	s := fmt.Sprintf("pid %d", h.PID)
	if h.Command != "" {
		s += " (" + h.Command + ")"
	}
	if !h.Since.IsZero() {
		s += " since " + h.Since.Local().Format("15:04:05")
	}
	return s
}

// WriterLock is a held writer lock; Release lets the next writer in.
type WriterLock struct {
	impl writerLock
}

// writerLock is one backend's per-project writer lock: a file lock beside
// a SQLite database, a session advisory lock on PostgreSQL.
type writerLock interface {
	// try takes the lock without waiting; false means another holds it.
	try(ctx context.Context) (bool, error)
	// holder reads who holds it, false when not (yet) recorded.
	holder(ctx context.Context) (Holder, bool)
	// record names this process as the holder (best effort).
	record(ctx context.Context, h Holder)
	release() error
	// where names the lock in errors.
	where() string
}

// LockPath is the file whose lock guards writes to root's rows in the
// database at dbPath: one file per project in a directory beside the database.
func LockPath(dbPath, root string) string {
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(dbPath+".locks", hex.EncodeToString(sum[:8])+".lock")
}

// ErrBusy is matched by a *BusyError.
var ErrBusy = errors.New("another process is writing the project")

// BusyError says who writes a project, for a caller that chose not to wait.
type BusyError struct {
	Holder Holder
	Root   string
}

func (e *BusyError) Error() string        { return fmt.Sprintf("%s is indexing %s", e.Holder, e.Root) }
func (e *BusyError) Is(target error) bool { return target == ErrBusy }

// LockWriter takes the writer lock of project root, so that one process (or
// one handle) at a time writes a project. When another holds it, onWait (if
// set) is called once with the holder, and LockWriter waits until the lock
// is free or ctx ends — or returns at once the error onWait returns. The
// lock is released by the system when its holder exits in any way, kill -9
// included: there is no stale lock to clean up. On SQLite it is an
// advisory lock on a file (flock) beside the database; on PostgreSQL a
// session advisory lock (pg_try_advisory_lock) held on a connection of its
// own, so writers on other machines exclude each other too. Readers never
// take it.
func (db *DB) LockWriter(ctx context.Context, root string, onWait func(Holder) error) (*WriterLock, error) {
	if db.readOnly {
		return nil, fmt.Errorf("lock %s for writing: %s is %w", root, db.display, ErrReadOnly)
	}
	var l writerLock
	var err error
	if db.pg {
		l, err = db.pgWriterLock(ctx, root)
	} else {
		l, err = fileWriterLock(db.path, root)
	}
	if err != nil {
		return nil, err
	}
	told := false
	tries := 0
	for wait := 20 * time.Millisecond; ; wait = min(2*wait, 500*time.Millisecond) {
		ok, err := l.try(ctx)
		if err != nil {
			l.release()
			return nil, fmt.Errorf("writer lock %s: %w", l.where(), err)
		}
		if ok {
			break
		}
		if !told && onWait != nil {
			// The holder writes its name right after locking: a blank
			// record only means it has not done so yet.
			h, known := l.holder(ctx)
			if tries++; known || tries > 5 {
				told = true
				if err := onWait(h); err != nil {
					l.release()
					return nil, err
				}
			}
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			h, _ := l.holder(context.WithoutCancel(ctx))
			l.release()
			return nil, fmt.Errorf("waiting for %s to finish writing %s: %w", h, root, ctx.Err())
		}
	}
	host, _ := os.Hostname()
	l.record(ctx, Holder{PID: os.Getpid(), Host: host, Command: command(), Root: root, Since: time.Now()})
	return &WriterLock{impl: l}, nil
}

// Release unlocks.
func (l *WriterLock) Release() error {
	if l == nil || l.impl == nil {
		return nil
	}
	err := l.impl.release()
	l.impl = nil
	return err
}

// fileLock is the SQLite backend's lock: flock on a file per project.
type fileLock struct {
	f    *os.File
	path string
}

func fileWriterLock(dbPath, root string) (*fileLock, error) {
	path := LockPath(dbPath, root)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("writer lock %s: %w", path, readOnlyErr(err))
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("writer lock %s: %w", path, readOnlyErr(err))
	}
	return &fileLock{f: f, path: path}, nil
}

func (l *fileLock) try(context.Context) (bool, error) { return tryLock(l.f) }

func (l *fileLock) holder(context.Context) (Holder, bool) { return readHolder(l.path) }

func (l *fileLock) record(_ context.Context, h Holder) {
	b, _ := json.Marshal(h)
	if err := l.f.Truncate(0); err == nil {
		l.f.WriteAt(b, 0) // best effort: only used to name the holder
	}
}

func (l *fileLock) where() string { return l.path }

// release unlocks (closing the file releases the lock); the holder's name
// is cleared first when this handle holds it.
func (l *fileLock) release() error {
	if l.f == nil {
		return nil
	}
	if ok, _ := tryLock(l.f); ok {
		l.f.Truncate(0)
	}
	err := l.f.Close()
	l.f = nil
	return err
}

func readHolder(path string) (Holder, bool) {
	var h Holder
	b, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(b, &h) != nil || h.PID == 0 {
		return Holder{}, false
	}
	return h, true
}

// command is this process's command line, shortened: "codectx index".
func command() string {
	args := append([]string{filepath.Base(os.Args[0])}, os.Args[1:]...)
	if len(args) > 3 {
		args = args[:3]
	}
	return strings.Join(args, " ")
}
