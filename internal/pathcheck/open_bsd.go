//go:build unix && !linux

package pathcheck

import "golang.org/x/sys/unix"

// oSearch: without O_PATH a folder is opened for reading to look up names
// in it, which needs read permission on every folder of the path.
const oSearch = unix.O_RDONLY

// openFolder opens the folder dir without following symlinks, walking the
// path (no openat2 here; macOS's O_NOFOLLOW_ANY is newer than some of the
// systems the bridge runs on).
func openFolder(dir string) (int, error) { return walkFolder(dir) }
