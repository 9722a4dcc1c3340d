//go:build !linux

package watch

// remoteFS is only detected on Linux; elsewhere fsnotify is trusted.
func remoteFS(string) (string, bool) { return "", false }
