//go:build unix

package paths

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// maxSocketPath is the longest unix socket path we use. sockaddr_un holds
// 104 bytes on macOS and 108 on Linux, including the terminating NUL.
const maxSocketPath = 100

// userFolders are the config and cache folders of this user.
func userFolders() (state, cache string, err error) {
	cfg, err := os.UserConfigDir()
	if err != nil {
		return "", "", fmt.Errorf("finding the config folder: %w", err)
	}
	c, err := os.UserCacheDir()
	if err != nil {
		c = cfg
	}
	return filepath.Join(cfg, "browser-bridge"), filepath.Join(c, "browser-bridge"), nil
}

// runtimeDir is $XDG_RUNTIME_DIR: per-user, tmpfs, cleaned at logout, which
// suits a socket.
func runtimeDir() string { return os.Getenv("XDG_RUNTIME_DIR") }

// socketPath prefers a socket in the runtime folder, then in the state
// folder, and falls back to a short path in the temp folder, named after a
// hash of the state folder so that each install keeps its own socket.
func socketPath(state, runtime string) string {
	id := stateID(state)
	if runtime != "" {
		// Named after the state folder: two installs (different
		// XDG_CONFIG_HOME) must not share one socket.
		if p := filepath.Join(runtime, "browser-bridge", "daemon-"+id+".sock"); len(p) <= maxSocketPath {
			return p
		}
	}
	if p := filepath.Join(state, "run", "daemon.sock"); len(p) <= maxSocketPath {
		return p
	}
	return filepath.Join(shortTemp(), fmt.Sprintf("bb-%d-%s", os.Getuid(), id), "d.sock")
}

// shortTemp is /tmp where it exists: $TMPDIR on macOS is itself too long to
// leave room for a socket name.
func shortTemp() string {
	if fi, err := os.Stat("/tmp"); err == nil && fi.IsDir() {
		return "/tmp"
	}
	return os.TempDir()
}

// restrict takes the group and other bits off the folder dir of stat fi,
// and returns the mode it had when it had any (0 when it was private).
func restrict(dir string, fi os.FileInfo) (os.FileMode, error) {
	perm := fi.Mode().Perm()
	if perm&0o077 == 0 {
		return 0, nil
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return perm, fmt.Errorf("making %s private (it has mode %#o): %w", dir, perm, err)
	}
	return perm, nil
}

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

// OthersMode says what others than this user may do with the file at
// path, whose Lstat is fi: the group and other bits of its mode.
func OthersMode(_ string, fi os.FileInfo) (os.FileMode, error) { return fi.Mode().Perm() & 0o077, nil }

// Perm is the permission bits of the file at path, whose Lstat is fi, as
// the bridge's trust checks read them: its mode.
func Perm(_ string, fi os.FileInfo) os.FileMode { return fi.Mode().Perm() }
