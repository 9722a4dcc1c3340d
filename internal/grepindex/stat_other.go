//go:build !linux

package grepindex

import (
	"os"
	"path/filepath"
)

// statter lstats files (one path walk each where fstatat is not used).
type statter struct{ root string }

func newStatter(root string) *statter { return &statter{root: root} }

// lstat returns a regular file's size and mtime (ns); ok false when it is
// gone or not a regular file.
func (s *statter) lstat(rel string) (size, mtime int64, ok bool) {
	fi, err := os.Lstat(filepath.Join(s.root, filepath.FromSlash(rel)))
	if err != nil || !fi.Mode().IsRegular() {
		return 0, 0, false
	}
	return fi.Size(), fi.ModTime().UnixNano(), true
}

func (s *statter) close() {}
