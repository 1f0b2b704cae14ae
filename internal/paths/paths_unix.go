//go:build unix

package paths

import (
	"fmt"
	"os"
	"syscall"
)

// runtimeDir is $XDG_RUNTIME_DIR: per-user, tmpfs, cleaned at logout, which
// suits a socket.
func runtimeDir() string { return os.Getenv("XDG_RUNTIME_DIR") }

// VerifyPrivate checks, without changing anything, that dir is a folder
// (not a symlink) owned by this user with mode 0700. Clients call it
// before dialing a socket in dir: a folder another user made (in /tmp, on
// the fallback path) could hold an impostor daemon that would collect the
// secret.
func VerifyPrivate(dir string) error {
	fi, err := ownFolder(dir)
	if err != nil {
		return err
	}
	if fi.Mode().Perm() != 0o700 {
		return fmt.Errorf("the socket folder %s has mode %v, not 0700; remove it (the daemon makes it again) or fix its mode", dir, fi.Mode().Perm())
	}
	return nil
}

// ownFolder checks that dir is a folder (not a symlink) of this user.
func ownFolder(dir string) (os.FileInfo, error) {
	fi, err := os.Lstat(dir)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a folder", dir)
	}
	if uid, ok := Owner(fi); ok && uid != os.Getuid() {
		return nil, fmt.Errorf("%s belongs to another user (uid %d) — possibly an attempt to impersonate the daemon; set %s to a short path of your own", dir, uid, EnvHome)
	}
	return fi, nil
}

// Owner returns the uid that owns the file fi describes; ok is false where
// the OS does not say.
func Owner(fi os.FileInfo) (uid int, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}
