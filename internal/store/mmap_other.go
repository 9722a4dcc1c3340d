//go:build !unix

package store

import (
	"io"
	"os"
)

func mapFile(f *os.File) (*MappedFile, error) {
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, err
	}
	return &MappedFile{Data: b}, nil
}
