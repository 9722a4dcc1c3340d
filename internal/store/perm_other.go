//go:build !(linux || darwin || freebsd || openbsd || netbsd || dragonfly)

package store

// dirWritable is not checked ahead of time here; SQLite's own error says it.
func dirWritable(string) bool { return true }

func isEROFS(error) bool { return false }
