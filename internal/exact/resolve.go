package exact

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Error kinds; match them with errors.Is. The messages of the errors returned
// are single lines meant to be shown as they are.
var (
	ErrOutsideRoot    = errors.New("outside the project root")
	ErrNoRoot         = errors.New("no such project root")
	ErrNotFound       = errors.New("no such file or directory")
	ErrIsDir          = errors.New("is a directory")
	ErrNotDir         = errors.New("not a directory")
	ErrBinary         = errors.New("binary file")
	ErrOffsetPastEnd  = errors.New("offset past the end of the file")
	ErrEmptyPattern   = errors.New("empty pattern")
	ErrInvalidPattern = errors.New("invalid pattern")
	ErrBadOption      = errors.New("bad option")
	ErrNoRipgrep      = errors.New("ripgrep (rg) is not available")
)

// Error is an error of one of the kinds above with a readable message.
type Error struct {
	Msg  string // the whole message
	Kind error  // one of the Err* values
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Kind }

func newError(kind error, format string, args ...any) error {
	return &Error{Msg: fmt.Sprintf(format, args...), Kind: kind}
}

// ResolveInRoot confines p to the project root. p may be relative to the
// root or absolute; "" means the root. It returns the absolute path (below
// the root as given, symbolic links not resolved) and the root-relative
// slash path ("." for the root). It refuses, with a message like
// `path "../x" is outside the project root`, a path whose ".." leaves the
// root, an absolute path elsewhere, and a path whose existing part resolves
// through symbolic links (file or directory) to outside the root. A path
// that does not exist is not an error here.
func ResolveInRoot(root, p string) (abs, rel string, err error) {
	rootAbs, realRoot, err := rootPaths(root)
	if err != nil {
		return "", "", err
	}
	outside := newError(ErrOutsideRoot, "path %q is outside the project root %s", p, rootAbs)
	var r string
	if filepath.IsAbs(p) {
		c := filepath.Clean(p)
		if x, ok := within(rootAbs, c); ok {
			r = x
		} else if x, ok := within(realRoot, c); ok {
			r = x
		} else {
			return "", "", outside
		}
	} else {
		x, ok := within(rootAbs, filepath.Join(rootAbs, p))
		if !ok {
			return "", "", outside
		}
		r = x
	}
	abs = filepath.Join(rootAbs, r)
	real, err := resolveExisting(abs)
	if err != nil {
		return "", "", fmt.Errorf("resolve %q: %w", p, err)
	}
	if _, ok := within(realRoot, real); !ok {
		return "", "", outside
	}
	return abs, filepath.ToSlash(r), nil
}

// rootPaths returns the absolute root and the root with symbolic links
// resolved, or an error when it is not an existing directory.
func rootPaths(root string) (abs, real string, err error) {
	if root == "" {
		root = "."
	}
	abs, err = filepath.Abs(root)
	if err != nil {
		return "", "", fmt.Errorf("root %q: %w", root, err)
	}
	real, err = filepath.EvalSymlinks(abs)
	if err != nil {
		return "", "", newError(ErrNoRoot, "project root %q: no such directory", root)
	}
	fi, err := os.Stat(real)
	if err != nil || !fi.IsDir() {
		return "", "", newError(ErrNoRoot, "project root %q is not a directory", root)
	}
	return abs, real, nil
}

// within returns p relative to base when the clean path p is base or below.
func within(base, p string) (string, bool) {
	r, err := filepath.Rel(base, p)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
		return "", false
	}
	return r, true
}

// resolveExisting resolves symbolic links in the longest existing prefix of
// p and appends the rest unchanged.
func resolveExisting(p string) (string, error) {
	rest := ""
	for cur := p; ; {
		real, err := filepath.EvalSymlinks(cur)
		if err == nil {
			return filepath.Join(real, rest), nil
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission) && !isNotDir(err) {
			return "", err
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p, nil
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }

// displayPath is the path shown in messages: the root-relative one.
func displayPath(rel string) string {
	if rel == "" {
		return "."
	}
	return rel
}
