package paths

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unsafe"

	"golang.org/x/sys/windows"
)

// userFolders is %LOCALAPPDATA%\BrowserBridge, with the cache inside it:
// local, not roaming, because nothing in it is worth copying to another
// machine (the secret must not be).
func userFolders() (state, cache string, err error) {
	local := os.Getenv("LOCALAPPDATA")
	if local == "" || !filepath.IsAbs(local) {
		return "", "", errors.New("finding the local application data folder: %LOCALAPPDATA% is not set")
	}
	state = filepath.Join(local, "BrowserBridge")
	return state, filepath.Join(state, "cache"), nil
}

// runtimeDir: Windows has no per-user runtime folder; the pipe namespace
// takes its place.
func runtimeDir() string { return "" }

// socketPath is, on Windows, the name of the daemon's named pipe. The pipe
// namespace is one for the whole machine, so the name carries a hash of the
// user's SID and of the state folder (case-folded, as NTFS compares
// names): two users, or two installs of one user, never meet on one pipe.
// A pipe another user made first under this name is refused by the peer
// check (internal/ipc), not by the name.
func socketPath(state, _ string) string {
	user := "unknown"
	if sid, err := UserSID(); err == nil {
		user = sid.String()
	}
	return `\\.\pipe\browser-bridge-` + stateID(user) + "-" + stateID(strings.ToLower(filepath.Clean(state)))
}

// UserSID is the SID of the user this process runs as.
func UserSID() (*windows.SID, error) { return userSID() }

var userSID = sync.OnceValues(func() (*windows.SID, error) {
	tu, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return nil, fmt.Errorf("reading this process's user: %w", err)
	}
	return tu.User.Sid.Copy()
})

// privateSDDL is the security descriptor of what only this user (and
// SYSTEM, which runs the OS and can read everything anyway) may open:
// owned by the user, with a protected DACL (nothing inherited from the
// parent folder) that folders pass on to what is created inside them.
func privateSDDL(inherit bool) (string, error) {
	sid, err := UserSID()
	if err != nil {
		return "", err
	}
	flags := ""
	if inherit {
		flags = "OICI"
	}
	return fmt.Sprintf("O:%sD:P(A;%s;GA;;;%s)(A;%s;GA;;;SY)", sid, flags, sid, flags), nil
}

// PrivateSecurityAttributes are the security attributes of an object only
// this user (and SYSTEM) may open: the daemon's named pipe.
func PrivateSecurityAttributes() (*windows.SecurityAttributes, error) {
	sddl, err := privateSDDL(false)
	if err != nil {
		return nil, err
	}
	sd, err := windows.SecurityDescriptorFromString(sddl)
	if err != nil {
		return nil, fmt.Errorf("building the pipe's security descriptor: %w", err)
	}
	sa := &windows.SecurityAttributes{SecurityDescriptor: sd}
	sa.Length = uint32(unsafe.Sizeof(*sa))
	return sa, nil
}

// KeepsACLs says whether this system stores the access lists it is given.
// Windows does; Wine 8 does not: it reports a DACL made up from the Unix
// mode of the file and drops what is set (measured: SetNamedSecurityInfo
// succeeds and changes nothing). Under Wine the bridge's folders are as
// private as the Unix mode Wine created them with, and the tests say so
// rather than pass on a check that cannot be made.
func KeepsACLs() bool { return !underWine() }

var underWine = sync.OnceValue(func() bool {
	return windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil
})

// restrict gives the folder dir the private DACL when others may reach
// it, and returns the openness it had in the bits of a Unix mode (0 when
// it was private), so messages read as on Unix.
func restrict(dir string, _ os.FileInfo) (os.FileMode, error) {
	was, err := othersMode(dir)
	if err != nil {
		return 0, err
	}
	if was == 0 {
		return 0, nil
	}
	if err := setPrivate(dir, true); err != nil {
		return was, fmt.Errorf("making %s private (%s): %w", dir, FolderOpenness(was), err)
	}
	return was, nil
}

// setPrivate gives the file or folder at path the private DACL.
func setPrivate(path string, folder bool) error {
	sddl, err := privateSDDL(folder)
	if err != nil {
		return err
	}
	sd, err := windows.SecurityDescriptorFromString(sddl)
	if err != nil {
		return err
	}
	dacl, _, err := sd.DACL()
	if err != nil {
		return err
	}
	return windows.SetNamedSecurityInfo(path, windows.SE_FILE_OBJECT,
		windows.DACL_SECURITY_INFORMATION|windows.PROTECTED_DACL_SECURITY_INFORMATION, nil, nil, dacl, nil)
}

// Access rights that let others change what is in a folder or file, and
// those that let them read it.
const (
	writeRights = windows.FILE_WRITE_DATA | windows.FILE_APPEND_DATA | windows.FILE_WRITE_EA | 0x40 | // FILE_DELETE_CHILD
		windows.DELETE | windows.WRITE_DAC | windows.WRITE_OWNER |
		windows.GENERIC_WRITE | windows.GENERIC_ALL
	readRights = windows.FILE_READ_DATA | windows.FILE_READ_EA | windows.GENERIC_READ | windows.GENERIC_ALL
)

// othersMode reads the DACL of path and says what it lets others than
// this user and SYSTEM do, in the group and other bits of a Unix mode:
// 0o022 when they may change it, 0o044 when they may read it, 0o011 when
// they may only reach it. A missing DACL (everyone may do anything) is
// 0o077.
//
// Under Wine it is 0: Wine makes the DACL up from the Unix mode it created
// the file with and keeps none it is given (KeepsACLs), so there is
// nothing to judge, and a report of "open" would only have the daemon
// replace its secret at every start.
func othersMode(path string) (os.FileMode, error) {
	if !KeepsACLs() {
		return 0, nil
	}
	return accessOf(path, false)
}

// WritableByOthers says whether the DACL of the file or folder at path
// lets others than this user change it, where the Administrators and the
// OS's TrustedInstaller are not others (they may change anything anyway):
// the upload rules' test of a folder.
func WritableByOthers(path string) (bool, error) {
	mode, err := accessOf(path, true)
	return mode&0o022 != 0, err
}

// trustedInstaller is the service SID that owns the OS's files.
const trustedInstaller = "S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464"

// accessOf is othersMode, counting the Administrators and TrustedInstaller
// among the trusted when admins is set.
func accessOf(path string, admins bool) (os.FileMode, error) {
	sd, err := windows.GetNamedSecurityInfo(path, windows.SE_FILE_OBJECT, windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		return 0, fmt.Errorf("reading the access list of %s: %w", path, err)
	}
	dacl, _, err := sd.DACL()
	if err != nil || dacl == nil {
		return 0o077, nil
	}
	me, err := UserSID()
	if err != nil {
		return 0, err
	}
	var mode os.FileMode
	for i := uint32(0); i < uint32(dacl.AceCount); i++ {
		var ace *windows.ACCESS_ALLOWED_ACE
		if err := windows.GetAce(dacl, i, &ace); err != nil {
			return 0, fmt.Errorf("reading the access list of %s: %w", path, err)
		}
		if ace.Header.AceType != windows.ACCESS_ALLOWED_ACE_TYPE {
			continue // deny entries only take away
		}
		sid := (*windows.SID)(unsafe.Pointer(&ace.SidStart))
		if sid.Equals(me) || sid.IsWellKnown(windows.WinLocalSystemSid) || sid.IsWellKnown(windows.WinCreatorOwnerSid) {
			continue
		}
		if admins && (sid.IsWellKnown(windows.WinBuiltinAdministratorsSid) || sid.String() == trustedInstaller) {
			continue
		}
		switch {
		case ace.Mask&writeRights != 0:
			mode |= 0o022
		case ace.Mask&readRights != 0:
			mode |= 0o044
		default:
			mode |= 0o011
		}
	}
	return mode, nil
}

// OthersMode says what others than this user may do with the file at
// path (fi its Lstat), in the group and other bits of a Unix mode; on
// Windows they come from the file's DACL.
func OthersMode(path string, _ os.FileInfo) (os.FileMode, error) { return othersMode(path) }

// VerifyPrivate checks, without changing anything, that dir is a folder
// (not a symlink or junction) owned by this user that nobody else may
// reach.
func VerifyPrivate(dir string) error {
	if _, err := ownFolder(dir); err != nil {
		return err
	}
	mode, err := othersMode(dir)
	if err != nil {
		return err
	}
	if mode != 0 {
		return fmt.Errorf("the folder %s is not private (%s); remove it (the daemon makes it again) or fix its access list", dir, FolderOpenness(mode))
	}
	return nil
}

// ownFolder checks that dir is a folder (not a symlink, junction or other
// reparse point) owned by this user.
func ownFolder(dir string) (os.FileInfo, error) {
	fi, err := os.Lstat(dir)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&(fs.ModeSymlink|fs.ModeIrregular) != 0 {
		return nil, fmt.Errorf("%s is a symlink or junction, not a folder", dir)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a folder", dir)
	}
	if err := ownedByUser(dir); err != nil {
		return nil, err
	}
	return fi, nil
}

// ownedByUser checks that this user owns the file or folder at path, or
// the Administrators group while this user is in it (Windows gives an
// elevated administrator's new files to the group).
func ownedByUser(path string) error {
	sd, err := windows.GetNamedSecurityInfo(path, windows.SE_FILE_OBJECT, windows.OWNER_SECURITY_INFORMATION)
	if err != nil {
		return fmt.Errorf("reading the owner of %s: %w", path, err)
	}
	owner, _, err := sd.Owner()
	if err != nil {
		return fmt.Errorf("reading the owner of %s: %w", path, err)
	}
	me, err := UserSID()
	if err != nil {
		return err
	}
	if owner.Equals(me) {
		return nil
	}
	if owner.IsWellKnown(windows.WinBuiltinAdministratorsSid) {
		if in, err := windows.GetCurrentProcessToken().IsMember(owner); err == nil && in {
			return nil
		}
	}
	return fmt.Errorf("%s belongs to another user (%s) — possibly an attempt to impersonate the daemon; set %s to a folder of your own", path, owner, EnvHome)
}

// Owner returns the uid that owns the file fi describes; ok is false where
// the OS does not say, as on Windows (owners are SIDs: see ownedByUser).
func Owner(fs.FileInfo) (uid int, ok bool) { return 0, false }

// Perm is the permission bits of the file at path, whose Lstat is fi, as
// the bridge's trust checks read them. Go's mode of a Windows file says
// only whether it is read-only (0444 or 0666, for everyone), so they are
// made from what the file is and who its DACL lets in: the owner's bits
// are 0600 (0700 for a folder, and for a program: .exe, .com, .bat,
// .cmd), and the group and other bits are what others than this user,
// SYSTEM, the Administrators and TrustedInstaller may do (the
// Administrators stand where root does on Unix). A DACL that cannot be
// read counts as open to all.
func Perm(path string, fi os.FileInfo) os.FileMode {
	m := os.FileMode(0o600)
	if fi.IsDir() || isProgramExt(strings.ToLower(filepath.Ext(path))) {
		m = 0o700
	}
	others, err := accessOf(path, true)
	if err != nil {
		return m | 0o077
	}
	return m | others
}

func isProgramExt(ext string) bool {
	switch ext {
	case ".exe", ".com", ".bat", ".cmd":
		return true
	}
	return false
}
