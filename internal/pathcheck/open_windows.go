package pathcheck

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/windows"

	"github.com/browser-bridge/browser-bridge/internal/paths"
)

// osPathRefusal applies the Windows forms of a path (winpath.go): device
// and network paths, data streams, short names, device names.
func osPathRefusal(p string) string { return windowsRefusal(p) }

// folderStat is, on Windows, the folder's path: its DACL is read by name
// (folderRefusal).
type folderStat struct{ dir string }

// openNoSymlinks opens the file at canon, a canonical path, for reading,
// without following a reparse point (symlink, junction, mount point) at
// its last component, and checks that the file opened is the one at canon:
// the path Windows reports for the open handle, with every reparse point
// on the way resolved, must be canon itself. A component swapped for a
// junction since canon was resolved fails with ELOOP, as on Unix.
func openNoSymlinks(canon string) (*os.File, folderStat, error) {
	name, err := windows.UTF16PtrFromString(canon)
	if err != nil {
		return nil, folderStat{}, &fs.PathError{Op: "open", Path: canon, Err: err}
	}
	h, err := windows.CreateFile(name, windows.GENERIC_READ, windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE,
		nil, windows.OPEN_EXISTING, windows.FILE_FLAG_OPEN_REPARSE_POINT|windows.FILE_FLAG_BACKUP_SEMANTICS, 0)
	if err != nil {
		return nil, folderStat{}, &fs.PathError{Op: "open", Path: canon, Err: err}
	}
	fail := func(e error) (*os.File, folderStat, error) {
		windows.CloseHandle(h)
		return nil, folderStat{}, &fs.PathError{Op: "open", Path: canon, Err: e}
	}
	var info windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(h, &info); err != nil {
		return fail(err)
	}
	if info.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0 {
		return fail(syscall.ELOOP)
	}
	if info.FileAttributes&windows.FILE_ATTRIBUTE_DIRECTORY != 0 {
		return fail(syscall.EISDIR)
	}
	final, err := finalPath(h)
	if err != nil {
		return fail(err)
	}
	if !strings.EqualFold(final, strings.TrimPrefix(filepath.Clean(canon), `\\?\`)) {
		return fail(syscall.ELOOP)
	}
	return os.NewFile(uintptr(h), canon), folderStat{dir: filepath.Dir(canon)}, nil
}

// finalPath is the path Windows gives the open handle h, without the \\?\
// prefix.
func finalPath(h windows.Handle) (string, error) {
	buf := make([]uint16, windows.MAX_LONG_PATH)
	n, err := windows.GetFinalPathNameByHandle(h, &buf[0], uint32(len(buf)), 0 /* FILE_NAME_NORMALIZED | VOLUME_NAME_DOS */)
	if err != nil {
		return "", err
	}
	p := windows.UTF16ToString(buf[:n])
	if rest, ok := strings.CutPrefix(p, `\\?\UNC\`); ok {
		return `\\` + rest, nil
	}
	return strings.TrimPrefix(p, `\\?\`), nil
}

// handleInfo is the file information of the open file f.
func handleInfo(f *os.File) (windows.ByHandleFileInformation, error) {
	var info windows.ByHandleFileInformation
	err := windows.GetFileInformationByHandle(windows.Handle(f.Fd()), &info)
	return info, err
}

// openFacts are the link count of the open file f; Windows owners are SIDs
// (see Mine), so the owner is 0.
func openFacts(f *os.File, _ fs.FileInfo) (links uint64, owner uint32, err error) {
	info, err := handleInfo(f)
	if err != nil {
		return 0, 0, err
	}
	return uint64(info.NumberOfLinks), 0, nil
}

// pathLinks is the link count of the file at path, 0 when unknown.
func pathLinks(path string, _ fs.FileInfo) uint64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	info, err := handleInfo(f)
	if err != nil {
		return 0
	}
	return uint64(info.NumberOfLinks)
}

// Mine says whether this user owns the open file f (or the Administrators
// group while this user is in it): the daemon takes only the user's own
// downloads.
func (f *File) Mine() bool {
	sd, err := windows.GetSecurityInfo(windows.Handle(f.Fd()), windows.SE_FILE_OBJECT, windows.OWNER_SECURITY_INFORMATION)
	if err != nil {
		return false
	}
	owner, _, err := sd.Owner()
	if err != nil {
		return false
	}
	me, err := paths.UserSID()
	if err != nil {
		return false
	}
	if owner.Equals(me) {
		return true
	}
	in, err := windows.GetCurrentProcessToken().IsMember(owner)
	return owner.IsWellKnown(windows.WinBuiltinAdministratorsSid) && err == nil && in
}

// folderRefusal says why a file in the folder dir may not be uploaded, or
// returns "": as on Unix, a folder others may write to may hold a file
// another user put there under the name the agent was told to upload. The
// folder's DACL says who may (paths.WritableByOthers: users other than
// this one, SYSTEM, the Administrators and the OS's TrustedInstaller).
func folderRefusal(dir folderStat, _ uint32) string {
	others, err := paths.WritableByOthers(dir.dir)
	if err != nil {
		return "its folder cannot be checked: " + reason(err)
	}
	if others {
		return fmt.Sprintf("its folder %s is writable by other users, so another user may have put this file there; move it to a folder of your own and upload it from there", dir.dir)
	}
	return ""
}
