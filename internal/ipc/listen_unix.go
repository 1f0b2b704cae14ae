//go:build unix

package ipc

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/paths"
)

// listen opens the daemon's socket at path. The caller must hold the daemon
// lock: a socket file left there is a stale one from a crashed daemon and is
// removed. A socket that still answers is refused rather than taken over,
// in case the lock file was removed under a running daemon (its clients
// would otherwise lose it without a word); anything there that is not a
// socket is left alone and refused too.
func listen(path string) (net.Listener, error) {
	if err := paths.EnsurePrivateDir(filepath.Dir(path)); err != nil {
		return nil, err
	}
	if err := removeStale(path); err != nil {
		return nil, err
	}
	l, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %w", path, err)
	}
	// The folder is already 0700; this is belt and braces.
	if err := os.Chmod(path, 0o600); err != nil {
		l.Close()
		return nil, err
	}
	return l, nil
}

// removeStale removes a socket at path that nobody listens on.
func removeStale(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("checking for a stale socket: %w", err)
	}
	if fi.Mode().Type() != os.ModeSocket {
		return fmt.Errorf("%s exists and is not a socket; move it away so the daemon can listen there", path)
	}
	if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
		c.Close()
		return fmt.Errorf("another process is listening on %s; stop that daemon first (browser-bridge uninstall stops it)", path)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("removing stale socket: %w", err)
	}
	return nil
}

// dial connects to the socket at path, once its folder has been checked
// to be this user's alone.
func dial(ctx context.Context, path string) (net.Conn, error) {
	if err := paths.VerifyPrivate(filepath.Dir(path)); err != nil {
		return nil, err
	}
	var d net.Dialer
	return d.DialContext(ctx, "unix", path)
}
