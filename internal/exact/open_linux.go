//go:build linux

package exact

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// noOpenat2 is set once openat2(2) turned out to be missing (kernels before
// 5.6, or a seccomp filter that refuses it).
var noOpenat2 atomic.Bool

// openNoSymlinks opens rel below realRoot with openat2(2) and
// RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS (the kernel refuses any symbolic link
// and any escape while it resolves), or with openVerified without openat2.
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
	return openVerified(realRoot, rel, func(name string) (*os.File, error) {
		fd, err := unix.Open(name, flags, 0)
		if err == unix.ELOOP {
			return nil, &fs.PathError{Op: "open", Path: name, Err: errNotConfined}
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return fileFromFD(fd, name)
	})
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
