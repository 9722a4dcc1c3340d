//go:build !linux

package exact

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// openNoSymlinks opens rel below realRoot with openVerified (openat2 is
// Linux only).
func openNoSymlinks(realRoot, rel string) (*os.File, error) {
	return openVerified(realRoot, rel, os.Open)
}

// openVerified is the portable opener: open (not following a final
// symbolic link where the platform allows), then accept the descriptor only
// when every component of rel below realRoot is not a symbolic link and the
// last one is the same file as the descriptor. An attacker who swaps a
// component between the open and the check changes the file found by the
// check, so the descriptor is refused.
func openVerified(realRoot, rel string, open func(name string) (*os.File, error)) (*os.File, error) {
	name := filepath.Join(realRoot, rel)
	f, err := open(name)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() && !fi.IsDir() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: errNotRegular}
	}
	cur := realRoot
	var li fs.FileInfo
	if rel == "." {
		li, err = os.Lstat(cur)
	}
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if part == "." || err != nil {
			continue
		}
		cur = filepath.Join(cur, part)
		li, err = os.Lstat(cur)
		if err == nil && li.Mode()&fs.ModeSymlink != 0 {
			err = errNotConfined
		}
	}
	if err == nil && !os.SameFile(li, fi) {
		err = errNotConfined
	}
	if err != nil {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: errNotConfined}
	}
	return f, nil
}
