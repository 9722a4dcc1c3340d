//go:build unix

package store

import (
	"os"
	"syscall"
)

func mapFile(f *os.File) (*MappedFile, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() == 0 {
		return &MappedFile{}, nil
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, err
	}
	return &MappedFile{Data: b, unmap: func() error { return syscall.Munmap(b) }}, nil
}
