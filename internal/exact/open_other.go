//go:build !linux

package exact

import "os"

// openNoSymlinks opens rel below realRoot with openVerified (openat2 is
// Linux only).
func openNoSymlinks(realRoot, rel string) (*os.File, error) {
	return openVerified(realRoot, rel, os.Open)
}
