package grepindex

import (
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// statter lstats files, resolving each file's directory once for a run
// of files in the same directory (fstatat on an open directory), which
// halves the kernel's path walks on a deep tree.
type statter struct {
	root string
	dir  string
	fd   int
}

func newStatter(root string) *statter { return &statter{root: root, fd: -1} }

// lstat returns a regular file's size and mtime (ns); ok false when it is
// gone or not a regular file.
func (s *statter) lstat(rel string) (size, mtime int64, ok bool) {
	dir, base := "", rel
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		dir, base = rel[:i], rel[i+1:]
	}
	if dir != s.dir || s.fd < 0 {
		s.close()
		fd, err := unix.Open(filepath.Join(s.root, filepath.FromSlash(dir)), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC|unix.O_PATH, 0)
		if err != nil {
			return 0, 0, false
		}
		s.dir, s.fd = dir, fd
	}
	var st unix.Stat_t
	if err := unix.Fstatat(s.fd, base, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return 0, 0, false
	}
	return st.Size, st.Mtim.Sec*1e9 + st.Mtim.Nsec, true
}

func (s *statter) close() {
	if s.fd >= 0 {
		unix.Close(s.fd)
		s.fd = -1
	}
}
