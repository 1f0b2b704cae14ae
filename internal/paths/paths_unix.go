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

// checkPrivate is VerifyPrivate that fixes the mode of a folder of ours.
func checkPrivate(dir string) error {
	fi, err := ownFolder(dir)
	if err != nil {
		return err
	}
	if fi.Mode().Perm() != 0o700 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("making %s private: %w", dir, err)
		}
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
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return nil, fmt.Errorf("%s belongs to another user (uid %d) — possibly an attempt to impersonate the daemon; set %s to a short path of your own", dir, st.Uid, EnvHome)
	}
	return fi, nil
}
