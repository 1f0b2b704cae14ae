package client

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/browser-bridge/browser-bridge/internal/ipc"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/secret"
)

// A daemon's socket can be reached from another machine through OpenSSH's
// forwarding of unix sockets (ssh -L local.sock:remote.sock), so the bridge
// never needs a network listener of its own. These variables point the
// client (the CLI, `mcp`, the public bridge package) at such a socket and
// at a copy of that install's secret. With them set nothing starts or
// replaces a daemon: it runs on the other machine.
const (
	EnvSocket     = "BROWSER_BRIDGE_SOCKET"
	EnvSecretFile = "BROWSER_BRIDGE_SECRET_FILE"
)

// Forwarded returns the socket and secret file that EnvSocket and
// EnvSecretFile name; ok is false when neither is set. Setting only one
// of them is an error, as is a relative path.
func Forwarded() (socket, secretFile string, ok bool, err error) {
	socket, secretFile = os.Getenv(EnvSocket), os.Getenv(EnvSecretFile)
	switch {
	case socket == "" && secretFile == "":
		return "", "", false, nil
	case socket == "" || secretFile == "":
		return "", "", false, fmt.Errorf("set both %s (the forwarded daemon socket) and %s (a copy of that install's secret), or neither", EnvSocket, EnvSecretFile)
	case !filepath.IsAbs(socket) || !filepath.IsAbs(secretFile):
		return "", "", false, fmt.Errorf("%s and %s must be absolute paths (got %q and %q)", EnvSocket, EnvSecretFile, socket, secretFile)
	}
	return socket, secretFile, true, nil
}

// ConnectSocket connects as session to the daemon listening on socket,
// presenting the secret in secretFile. Unlike Connect it never starts a
// daemon and never asks one of another version to make way: the daemon
// may be another machine's (through a forwarded socket), or belong to an
// install whose binary this program is not. The socket's folder must be
// private to this user (mode 0700), as the daemon's own is.
func ConnectSocket(ctx context.Context, socket, secretFile, session string) (*Client, error) {
	return connectSocketAs(ctx, socket, secretFile, protocol.Auth{Session: session})
}

// connectSocketAs is ConnectSocket as who (its session and flags).
func connectSocketAs(ctx context.Context, socket, secretFile string, who protocol.Auth) (*Client, error) {
	s, err := secret.Load(secretFile)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("no secret file at %s: copy there the secret of the install whose daemon listens on %s (`browser-bridge doctor --json` on that machine names it), mode 0600: %w", secretFile, socket, err)
	}
	if err != nil {
		return nil, err
	}
	if err := checkForwardedFolder(socket); err != nil {
		return nil, err
	}
	who.Role, who.Secret, who.PID = protocol.RoleClient, s, os.Getpid()
	c, ok, err := ipc.Dial(ctx, socket, who)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return nil, err // it names the socket and says it did not answer
	}
	if err != nil {
		return nil, fmt.Errorf("connecting to the daemon at %s: %w", socket, err)
	}
	cl := &Client{conn: c, DaemonPID: ok.DaemonPID, pending: map[string]*pendingCall{}, slack: CallSlack}
	go cl.readLoop()
	return cl, nil
}

// checkForwardedFolder refuses, before ipc.Dial would, a socket the user
// forwarded into a folder others may enter, saying what to do about a
// folder the user chose: Dial's advice is for the daemon's own folder
// ("remove it, the daemon makes it again"), and for BROWSER_BRIDGE_SOCKET=
// $HOME/d.sock it told the user to remove their home folder (QA on main).
// A missing folder, a symlink or another user's is left to Dial to name.
func checkForwardedFolder(socket string) error {
	if runtime.GOOS == "windows" {
		return nil // a named pipe; its access list is Dial's to check
	}
	dir := filepath.Dir(socket)
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() {
		return nil
	}
	if perm := fi.Mode().Perm(); perm != 0o700 {
		return fmt.Errorf("%w: the forwarded socket %s is in %s, which has mode %#o; the secret goes only to a socket in a folder private to you: forward the socket into a folder of its own with mode 0700 (mkdir -m 700 ~/.bb-remote, then ssh -L ~/.bb-remote/daemon.sock:… as the README shows) and point %s at it", errOpenFolder, socket, dir, perm, EnvSocket)
	}
	return nil
}

// errOpenFolder is checkForwardedFolder's refusal.
var errOpenFolder = errors.New("the socket's folder is open to others")

// connectForwarded is connectAs's way when EnvSocket is set; ok says it
// is.
func connectForwarded(ctx context.Context, who protocol.Auth) (*Client, bool, error) {
	socket, secretFile, ok, err := Forwarded()
	if err != nil || !ok {
		return nil, ok, err
	}
	c, err := connectSocketAs(ctx, socket, secretFile, who)
	if errors.Is(err, errOpenFolder) || errors.Is(err, os.ErrDeadlineExceeded) {
		// The folder's error says what to do, and a daemon that took the
		// connection is reached: the forwarding is up.
		return nil, true, err
	}
	if err != nil {
		return nil, true, fmt.Errorf("%w (from %s; is the ssh forwarding up, and the daemon running on the other machine?)", err, EnvSocket)
	}
	return c, true, nil
}

// EnsureDaemonWith is EnsureDaemon for a program that is not browser-bridge
// itself (the public bridge package): bin is the browser-bridge binary to
// run as `daemon`, with env added to this process's environment. The same
// lock keeps racing starters, whichever binary they are, to one daemon.
func EnsureDaemonWith(ctx context.Context, layout paths.Layout, bin string, env []string) error {
	return ensureDaemon(ctx, layout, func(l paths.Layout) (<-chan error, error) {
		return spawnBinary(l, bin, env)
	})
}
