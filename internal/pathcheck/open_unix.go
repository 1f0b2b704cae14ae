//go:build unix

package pathcheck

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// folderStat is what the rules need of the folder a file was opened in.
type folderStat struct {
	mode     uint32 // permission bits with setuid, setgid and sticky
	uid, gid uint32
}

// openNoSymlinks opens the file at canon, a canonical path (which has no
// symlinks), for reading without following a symlink anywhere on the way,
// and returns it with the stat of the folder it was opened in. A component
// swapped for a symlink since canon was resolved fails the open (ELOOP or
// ENOTDIR) instead of leading elsewhere, so the file opened is the one at
// the path that was checked.
//
// The open does not block and does not make a terminal the controlling
// one: a FIFO or device put there since the path was checked is opened
// only to be refused.
func openNoSymlinks(canon string) (*os.File, folderStat, error) {
	dir, base := filepath.Split(canon)
	if base == "" || base == "." || base == ".." {
		return nil, folderStat{}, &fs.PathError{Op: "open", Path: canon, Err: unix.EISDIR}
	}
	dfd, err := openFolder(dir)
	if err != nil {
		return nil, folderStat{}, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	defer unix.Close(dfd)
	var dst unix.Stat_t
	if err := unix.Fstat(dfd, &dst); err != nil {
		return nil, folderStat{}, &fs.PathError{Op: "fstat", Path: dir, Err: err}
	}
	fd, err := unix.Openat(dfd, base, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, folderStat{}, &fs.PathError{Op: "open", Path: canon, Err: err}
	}
	// Blocking again, so that os.File does not hand the descriptor to the
	// poller (a FIFO would be, a regular file cannot be); a non-regular file
	// is refused before anything reads it.
	if err := unix.SetNonblock(fd, false); err != nil {
		unix.Close(fd)
		return nil, folderStat{}, &fs.PathError{Op: "fcntl", Path: canon, Err: err}
	}
	return os.NewFile(uintptr(fd), canon), folderStat{mode: uint32(dst.Mode) & 0o7777, uid: dst.Uid, gid: dst.Gid}, nil
}

// walkFolder opens the folder dir one component at a time from the root,
// each relative to the one before and without following symlinks: the
// portable form of openat2's RESOLVE_NO_SYMLINKS. Each step holds the
// folder it came through, so a component swapped after it was passed
// changes nothing.
func walkFolder(dir string) (int, error) {
	fd, err := unix.Open("/", unix.O_DIRECTORY|oSearch|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	for _, c := range strings.Split(dir, "/") {
		if c == "" {
			continue
		}
		if c == "." || c == ".." {
			unix.Close(fd)
			return -1, unix.EINVAL // a canonical path has none
		}
		next, err := unix.Openat(fd, c, unix.O_DIRECTORY|unix.O_NOFOLLOW|oSearch|unix.O_CLOEXEC, 0)
		unix.Close(fd)
		if err != nil {
			return -1, err
		}
		// With O_PATH, O_NOFOLLOW would open a symlink itself; O_DIRECTORY
		// refuses it (ENOTDIR), and this makes sure.
		var st unix.Stat_t
		if err := unix.Fstat(next, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR {
			unix.Close(next)
			return -1, unix.ENOTDIR
		}
		fd = next
	}
	return fd, nil
}
