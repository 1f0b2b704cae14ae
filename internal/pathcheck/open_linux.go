package pathcheck

import (
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// oSearch opens a folder only to look up names in it (and to fstat it):
// O_PATH needs no read permission on it.
const oSearch = unix.O_PATH

// noOpenat2 is set once openat2 turned out to be missing: a kernel before
// 5.6, or a seccomp filter of a container that does not know it.
var noOpenat2 atomic.Bool

// openFolder opens the folder dir without following symlinks: with one
// openat2 and RESOLVE_NO_SYMLINKS where the kernel has it, else by walking
// the path.
func openFolder(dir string) (int, error) {
	if !noOpenat2.Load() {
		fd, err := unix.Openat2(unix.AT_FDCWD, dir, &unix.OpenHow{
			Flags:   unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC,
			Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
		})
		switch err {
		case nil:
			return fd, nil
		case unix.ENOSYS, unix.EPERM, unix.E2BIG, unix.EINVAL:
			noOpenat2.Store(true)
		default:
			return -1, err
		}
	}
	return walkFolder(dir)
}
