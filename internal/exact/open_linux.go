//go:build linux

package exact

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// noOpenat2 is set once openat2(2) turned out to be missing (kernels before
// 5.6, or a seccomp filter that refuses it).
var noOpenat2 atomic.Bool

// openNoSymlinks opens rel below realRoot with openat2(2) and
// RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS (the kernel refuses any symbolic link
// and any escape while it resolves), or with openWalk without openat2.
func openNoSymlinks(realRoot, rel string) (*os.File, error) {
	name := filepath.Join(realRoot, rel)
	const flags = unix.O_RDONLY | unix.O_CLOEXEC | unix.O_NOFOLLOW | unix.O_NONBLOCK
	if !noOpenat2.Load() {
		dir, err := unix.Open(realRoot, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: realRoot, Err: err}
		}
		how := &unix.OpenHow{Flags: flags,
			Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS}
		fd, err := unix.Openat2(dir, rel, how)
		for err == unix.EINTR || err == unix.EAGAIN { // EAGAIN: a concurrent rename; retry
			fd, err = unix.Openat2(dir, rel, how)
		}
		unix.Close(dir)
		switch {
		case err == nil:
			return fileFromFD(fd, name)
		case err == unix.ENOSYS || err == unix.EPERM:
			noOpenat2.Store(true)
		case err == unix.ELOOP || err == unix.EXDEV:
			return nil, &fs.PathError{Op: "open", Path: name, Err: errNotConfined}
		default:
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
	}
	return openWalk(realRoot, rel, flags)
}

// openWalk opens rel below realRoot one component at a time, each with
// openat(2) and O_NOFOLLOW relative to the descriptor of the directory
// before it: a component that is a symbolic link at the moment it is
// opened fails (ELOOP, or ENOTDIR for a link to a directory), and a
// directory swapped after it was opened no longer matters, because the
// walk holds its descriptor. It is the opener without openat2.
func openWalk(realRoot, rel string, flags int) (*os.File, error) {
	name := filepath.Join(realRoot, rel)
	dir, err := unix.Open(realRoot, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: realRoot, Err: err}
	}
	parts := strings.Split(rel, string(filepath.Separator))
	for i, part := range parts {
		if part == "." || part == "" {
			if i == len(parts)-1 {
				return fileFromFD(dir, name)
			}
			continue
		}
		fl := unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC
		if i == len(parts)-1 {
			fl = flags
		}
		fd, err := unix.Openat(dir, part, fl, 0)
		for err == unix.EINTR {
			fd, err = unix.Openat(dir, part, fl, 0)
		}
		unix.Close(dir)
		if err == unix.ELOOP || (err == unix.ENOTDIR && i < len(parts)-1) {
			return nil, &fs.PathError{Op: "open", Path: name, Err: errNotConfined}
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		if i == len(parts)-1 {
			return fileFromFD(fd, name)
		}
		dir = fd
	}
	return fileFromFD(dir, name)
}

// fileFromFD wraps a descriptor opened with O_NONBLOCK (so that a FIFO
// does not block the open): anything but a regular file or a directory is
// closed with errNotRegular, the others are switched back to blocking.
func fileFromFD(fd int, name string) (*os.File, error) {
	var st unix.Stat_t
	err := unix.Fstat(fd, &st)
	if err == nil {
		if m := st.Mode & unix.S_IFMT; m != unix.S_IFREG && m != unix.S_IFDIR {
			err = errNotRegular
		}
	}
	if err == nil {
		err = unix.SetNonblock(fd, false)
	}
	if err != nil {
		unix.Close(fd)
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return os.NewFile(uintptr(fd), name), nil
}
