package exact

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// errNotConfined: a path component was a symbolic link, or the opened file
// is not the one below the root, at the moment of opening.
var errNotConfined = errors.New("symbolic link or moved file at open")

// errNotRegular: the path names something other than a regular file or a
// directory (a FIFO, a device, a socket), which is never opened for reading.
var errNotRegular = errors.New("not a regular file")

// openInRoot opens rel (a slash path relative to realRoot, the root with its
// own symbolic links resolved) for reading, and fails with errNotConfined
// unless the descriptor is the file at realRoot/rel reached without any
// symbolic link. The check holds for the descriptor itself, not for a
// earlier look at the path, so a file swapped for a link while it is opened
// is refused, never read. Directories open too (callers check the mode);
// FIFOs and devices fail with errNotRegular without blocking.
//
// On Linux, openat2(2) with RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS does it in
// one step; elsewhere, or when the kernel lacks openat2, openVerified opens
// the path and compares the descriptor with an lstat of each component.
func openInRoot(realRoot, rel string) (*os.File, error) {
	rel = filepath.FromSlash(rel)
	if rel == "" {
		rel = "."
	}
	if filepath.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, errNotConfined
	}
	return openNoSymlinks(realRoot, rel)
}

// openConfined opens abs, a path ResolveInRoot accepted, with openInRoot:
// symbolic links inside the root are resolved first (they may be asked
// for), then the resolved path is opened without following any link. A
// path that changes between the two steps is resolved once more; an error
// wrapping errNotConfined means it kept changing or now leaves the root.
func openConfined(root, abs string) (*os.File, error) {
	_, realRoot, err := rootPaths(root)
	if err != nil {
		return nil, err
	}
	var f *os.File
	for attempt := 0; attempt < 2; attempt++ {
		real, err := resolveExisting(abs)
		if err != nil {
			return nil, err
		}
		rel, ok := within(realRoot, real)
		if !ok {
			return nil, fmt.Errorf("open %s: %w", abs, errNotConfined)
		}
		f, err = openInRoot(realRoot, rel)
		if !errors.Is(err, errNotConfined) {
			return f, err
		}
	}
	return nil, fmt.Errorf("open %s: %w", abs, errNotConfined)
}
