//go:build unix

package pathcheck

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

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

// osPathRefusal: Unix paths have no forms of their own to refuse (see
// winpath.go for Windows's).
func osPathRefusal(string) string { return "" }

// openFacts are the link count and owner of the open file f of stat fi.
func openFacts(_ *os.File, fi fs.FileInfo) (links uint64, owner uint32, err error) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, errors.New("no file status on this system")
	}
	return uint64(st.Nlink), st.Uid, nil
}

// pathLinks is the link count of the file of stat fi (at path), 0 when
// unknown.
func pathLinks(_ string, fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 0
}

// Mine says whether this user owns the open file f: the daemon takes only
// the user's own downloads.
func (f *File) Mine() bool {
	st, ok := f.Info.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}

// folderRefusal says why a file owned by uid in a folder of stat dir may
// not be uploaded, or returns "". The danger of such a folder is another
// user: whoever may write the folder may put another file under the name
// the agent was told to upload. So:
//   - a folder that only its owner can write is fine (whoever owns it is
//     trusted with what is in it, as root is with /etc);
//   - a folder writable by group or others with the sticky bit (/tmp)
//     is fine for the user's own files, which no one else may replace
//     there, and refused for other users' files, whose owner may;
//   - a folder writable by its group only is fine when that group is the
//     user's private group (a group named after the user, with the user's
//     own gid: Debian's and Fedora's user private groups, where umask 002
//     makes every new folder group-writable);
//   - any other folder writable by group or others is refused.
//
// The opened file itself cannot be swapped any more (what is read is the
// open file); this rule is about which file was put there.
func folderRefusal(dir folderStat, uid uint32) string {
	const groupWrite, otherWrite, sticky = 0o020, 0o002, 0o1000
	switch {
	case dir.mode&(groupWrite|otherWrite) == 0:
		return ""
	case dir.mode&sticky != 0:
		if uid == uint32(os.Geteuid()) {
			return ""
		}
		return fmt.Sprintf("the file belongs to another user (uid %d) and sits in a shared folder, where its owner may change it at any time; copy it to a folder of your own and upload the copy", uid)
	case dir.mode&otherWrite == 0 && int(dir.gid) == privateGroup():
		return ""
	}
	return fmt.Sprintf("its folder is writable by %s (mode %04o), so another user may have put this file there; move it to a folder only you can write (chmod go-w) and upload it from there", writers(dir.mode), dir.mode)
}

func writers(mode uint32) string {
	switch {
	case mode&0o022 == 0o022:
		return "group and others"
	case mode&0o002 != 0:
		return "others"
	}
	return "its group"
}

// privateGroup is the gid of the user's private group (named after the
// user, the user's primary group), or -1.
var privateGroup = sync.OnceValue(func() int {
	u, err := user.Current()
	if err != nil {
		return -1
	}
	g, err := user.LookupGroupId(u.Gid)
	if err != nil || g.Name != u.Username {
		return -1
	}
	gid, err := strconv.Atoi(u.Gid)
	if err != nil || gid != os.Getegid() {
		return -1
	}
	return gid
})
