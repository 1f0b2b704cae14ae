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

func checkPrivate(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a folder", dir)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("%s belongs to another user (uid %d); remove it or set %s", dir, st.Uid, EnvHome)
	}
	if fi.Mode().Perm() != 0o700 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("making %s private: %w", dir, err)
		}
	}
	return nil
}
