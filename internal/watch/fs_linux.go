//go:build linux

package watch

import "golang.org/x/sys/unix"

// remoteFS reports whether dir is on a file system where inotify misses
// changes made by other machines (network and host-shared file systems).
func remoteFS(dir string) (string, bool) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return "", false
	}
	switch uint32(st.Type) {
	case 0x6969:
		return "nfs", true
	case 0x517b:
		return "smb", true
	case 0xff534d42:
		return "cifs", true
	case 0xfe534d42:
		return "smb2", true
	case 0x5346414f:
		return "afs", true
	case 0x73757245:
		return "coda", true
	case 0x01021997:
		return "9p", true
	case 0x47504653:
		return "gpfs", true
	case 0x0bd00bd0:
		return "lustre", true
	}
	return "", false
}
