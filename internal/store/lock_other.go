//go:build !unix

package store

import "os"

// tryLock always succeeds: the writer lock is only enforced on Unix.
func tryLock(*os.File) (bool, error) { return true, nil }
