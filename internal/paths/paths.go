// Package paths says where the bridge keeps its files on this machine: the
// state folder (secret, settings, registry, logs), the socket, the cache
// (screenshots) and the extension written out for loading unpacked.
//
// BROWSER_BRIDGE_HOME moves all of it under one folder, for tests, CI and
// several independent installs on one machine.
package paths

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
)

// EnvHome is the variable that moves all state under one folder.
const EnvHome = "BROWSER_BRIDGE_HOME"

// maxSocketPath is the longest unix socket path we use. sockaddr_un holds
// 104 bytes on macOS and 108 on Linux, including the terminating NUL.
const maxSocketPath = 100

// Layout is the set of locations for one install of the bridge.
type Layout struct {
	State  string // secret, settings, registry, daemon log and lock; 0700
	Cache  string // screenshots and other throwaway output
	Socket string // the daemon's unix socket
}

// Default returns the layout from the environment: BROWSER_BRIDGE_HOME if
// set, otherwise the usual per-user folders.
func Default() (Layout, error) {
	if h := os.Getenv(EnvHome); h != "" {
		abs, err := filepath.Abs(h)
		if err != nil {
			return Layout{}, fmt.Errorf("resolving %s=%q: %w", EnvHome, h, err)
		}
		return ForHome(abs), nil
	}
	cfg, err := os.UserConfigDir()
	if err != nil {
		return Layout{}, fmt.Errorf("finding the config folder: %w (set %s)", err, EnvHome)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = cfg
	}
	l := Layout{
		State: filepath.Join(cfg, "browser-bridge"),
		Cache: filepath.Join(cache, "browser-bridge"),
	}
	l.Socket = socketPath(l.State, runtimeDir())
	return l, nil
}

// ForHome returns the layout with everything under home.
func ForHome(home string) Layout {
	return Layout{
		State:  home,
		Cache:  filepath.Join(home, "cache"),
		Socket: socketPath(home, ""),
	}
}

// socketPath prefers a socket in the runtime folder, then in the state
// folder, and falls back to a short path in the temp folder, named after a
// hash of the state folder so that each install keeps its own socket.
func socketPath(state, runtime string) string {
	sum := sha256.Sum256([]byte(state))
	id := hex.EncodeToString(sum[:6])
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

// Secret is the file that holds the per-install secret.
func (l Layout) Secret() string { return filepath.Join(l.State, "secret") }

// Registry is the file of the owned-tab registry.
func (l Layout) Registry() string { return filepath.Join(l.State, "owned-tabs.json") }

// DaemonLock is held by the running daemon for its whole life.
func (l Layout) DaemonLock() string { return filepath.Join(l.State, "daemon.lock") }

// StartLock serialises processes that start a daemon.
func (l Layout) StartLock() string { return filepath.Join(l.State, "start.lock") }

// DaemonLog is where an auto-started daemon writes its log.
func (l Layout) DaemonLog() string { return filepath.Join(l.State, "daemon.log") }

// Extension is where the embedded extension is written for loading unpacked.
func (l Layout) Extension() string { return filepath.Join(l.State, "extension") }

// Screenshots is the folder of screenshot files.
func (l Layout) Screenshots() string { return filepath.Join(l.Cache, "screenshots") }

// EnsurePrivateDir creates dir (and parents) and makes sure dir itself is
// mode 0700 and owned by this user, so no other local user can reach the
// socket or read the secret inside it.
func EnsurePrivateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	return checkPrivate(dir)
}
