//go:build unix

package grepindex

import (
	"os"
	"syscall"
)

// openNoFollow opens a file for reading, refusing a symbolic link as its
// last component.
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
}
