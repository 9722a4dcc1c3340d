//go:build !unix

package grepindex

import (
	"fmt"
	"io/fs"
	"os"
)

// openNoFollow opens a file for reading, refusing a symbolic link as its
// last component (checked before opening where O_NOFOLLOW is missing).
func openNoFollow(path string) (*os.File, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("open %s: symbolic link", path)
	}
	return os.Open(path)
}
