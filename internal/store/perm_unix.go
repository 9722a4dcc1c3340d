//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package store

import (
	"errors"
	"syscall"

	"golang.org/x/sys/unix"
)

// dirWritable reports whether this process may create files in dir
// (access(2) also answers EROFS for a read-only file system).
func dirWritable(dir string) bool {
	return unix.Access(dir, unix.W_OK) == nil
}

func isEROFS(err error) bool { return errors.Is(err, syscall.EROFS) }
