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
	"time"
)

// EnvHome is the variable that moves all state under one folder.
const EnvHome = "BROWSER_BRIDGE_HOME"

// Layout is the set of locations for one install of the bridge.
type Layout struct {
	State string // secret, settings, registry, daemon log and lock; 0700
	Cache string // screenshots and other throwaway output
	// Socket is where the daemon listens: a unix socket's path, or on
	// Windows a named pipe's name (\\.\pipe\...).
	Socket string
}

// Default returns the layout from the environment: BROWSER_BRIDGE_HOME if
// set, otherwise the usual per-user folders (UserLayout).
func Default() (Layout, error) {
	if h := os.Getenv(EnvHome); h != "" {
		abs, err := filepath.Abs(h)
		if err != nil {
			return Layout{}, fmt.Errorf("resolving %s=%q: %w", EnvHome, h, err)
		}
		return ForHome(abs), nil
	}
	return UserLayout()
}

// UserLayout returns the layout in the usual per-user folders of this OS,
// whatever BROWSER_BRIDGE_HOME says: on Unix the config and cache folders
// (and the runtime folder for the socket), on Windows
// %LOCALAPPDATA%\BrowserBridge (and a named pipe).
func UserLayout() (Layout, error) {
	state, cache, err := userFolders()
	if err != nil {
		return Layout{}, fmt.Errorf("%w (set %s)", err, EnvHome)
	}
	return Layout{State: state, Cache: cache, Socket: socketPath(state, runtimeDir())}, nil
}

// ForHome returns the layout with everything under home.
func ForHome(home string) Layout {
	return Layout{
		State:  home,
		Cache:  filepath.Join(home, "cache"),
		Socket: socketPath(home, ""),
	}
}

// stateID names an install by a hash of its state folder, for the socket
// or pipe that must not be shared between two installs.
func stateID(state string) string {
	sum := sha256.Sum256([]byte(state))
	return hex.EncodeToString(sum[:6])
}

// secretName and exposedName are file names in the state folder that
// MakePrivate needs to know: see there.
const (
	secretName  = "secret"
	exposedName = "secret-exposed"
)

// Secret is the file that holds the per-install secret.
func (l Layout) Secret() string { return filepath.Join(l.State, secretName) }

// SecretExposed is the note MakePrivate leaves when it made the state folder
// private while a secret was in it: the secret may have been read, and the
// daemon replaces it (package secret) and removes the note.
func (l Layout) SecretExposed() string { return filepath.Join(l.State, exposedName) }

// Registry is the file of the owned-tab registry.
func (l Layout) Registry() string { return filepath.Join(l.State, "owned-tabs.json") }

// Browsers is the file of the browsers' slot numbers (package slots).
func (l Layout) Browsers() string { return filepath.Join(l.State, "browsers.json") }

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

// Downloads is the folder of the files the bridge's actions downloaded.
func (l Layout) Downloads() string { return filepath.Join(l.Cache, "downloads") }

// EnsurePrivateDir creates dir (and parents) and makes sure dir itself is
// mode 0700 and owned by this user, so no other local user can reach the
// socket or read the secret inside it. It is MakePrivate without the
// report, for callers with nobody to tell.
func EnsurePrivateDir(dir string) error {
	_, err := MakePrivate(dir)
	return err
}

// MakePrivate creates dir (and parents) with mode 0700, or checks that the
// folder there is a folder of this user (not a symlink), and takes the
// group and other bits off one that has any. It returns the mode such a
// folder had (0 when it was private already or new), so the caller can say
// so.
//
// A folder found open is not just chmod-ed: if a secret is in it (a state
// folder), others could have listed the folder and read the secret, or
// swapped it. MakePrivate then leaves the note Layout.SecretExposed beside
// it, so that the daemon replaces the secret and logs why, whichever
// process (CLI, MCP server, daemon) happened to find the folder open: they
// all come through here, and the note is the only thing that outlives the
// chmod.
func MakePrivate(dir string) (was os.FileMode, err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return 0, fmt.Errorf("creating %s: %w", dir, err)
	}
	fi, err := ownFolder(dir)
	if err != nil {
		return 0, err
	}
	perm, err := restrict(dir, fi)
	if err != nil || perm == 0 {
		return perm, err
	}
	if _, err := os.Lstat(filepath.Join(dir, secretName)); err == nil {
		note := fmt.Sprintf("%s %s had mode %#o (%s), so the secret in it may have been read or replaced\n",
			time.Now().UTC().Format(time.RFC3339), dir, perm, FolderOpenness(perm))
		// O_APPEND: two notes before the daemon reads them are both kept.
		f, err := os.OpenFile(filepath.Join(dir, exposedName), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		if err == nil {
			_, err = f.WriteString(note)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			return perm, fmt.Errorf("recording that the secret in %s was exposed: %w", dir, err)
		}
	}
	return perm, nil
}

// FolderOpenness says in words what the group and other bits of a
// folder's mode let others do, for messages.
func FolderOpenness(perm os.FileMode) string {
	switch {
	case perm&0o022 != 0:
		return "others could add, remove or replace files in it"
	case perm&0o044 != 0:
		return "others could list it"
	default:
		return "others could enter it"
	}
}
