package client

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/ipc"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/secret"
)

// startTimeout bounds how long a starter waits for a new daemon to answer.
const startTimeout = 5 * time.Second

// EnsureDaemon starts a daemon for layout unless one answers. Starters take
// the start lock in turn, and each checks again under it, so racing
// starters end up with exactly one daemon. The daemon itself holds its own
// lock for life, which also keeps a second one from running.
//
// With EnvSocket set the daemon is another machine's: EnsureDaemon starts
// nothing and only checks that the forwarded socket answers.
func EnsureDaemon(ctx context.Context, layout paths.Layout) error {
	if socket, secretFile, ok, err := Forwarded(); err != nil || ok {
		if err != nil {
			return err
		}
		return checkForwarded(ctx, socket, secretFile)
	}
	return ensureDaemon(ctx, layout, spawn)
}

// ensureDaemon is EnsureDaemon with a way to start the daemon.
func ensureDaemon(ctx context.Context, layout paths.Layout, spawn func(paths.Layout) (<-chan error, error)) error {
	if answers(ctx, layout) {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err // do not start a daemon for a caller that has given up
	}
	if err := paths.EnsurePrivateDir(layout.State); err != nil {
		return err
	}
	lock, err := ipc.Lock(layout.StartLock(), true)
	if err != nil {
		return err
	}
	defer lock.Close()
	if answers(ctx, layout) {
		return nil // another starter won
	}
	if running(layout) {
		// A daemon that runs but does not answer is busy, or on its way
		// out (it closed its socket before letting go of its lock, as one
		// asked to make way for a new version does): wait for it to answer
		// again or to exit, and start one only in the second case.
		if err := waitBusy(ctx, layout); !errors.Is(err, errExited) {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err // it exited as the caller gave up: start nothing
		}
	}
	exited, err := spawn(layout)
	if err != nil {
		return err
	}
	deadline := time.Now().Add(startTimeout)
	for time.Now().Before(deadline) {
		if answers(ctx, layout) {
			return nil
		}
		select {
		case err := <-exited:
			return fmt.Errorf("%w: it exited (%v); see %s", ErrNoDaemon, err, layout.DaemonLog())
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
	return fmt.Errorf("%w within %s; see %s", ErrNoDaemon, startTimeout, layout.DaemonLog())
}

// busyWait bounds how long a caller without a deadline of its own retries
// a daemon that runs but does not take its handshake.
const busyWait = 10 * time.Second

// Running reports whether a daemon of layout runs (launch stops the one
// it started itself when it fails).
func Running(layout paths.Layout) bool { return running(layout) }

// running reports whether a daemon of layout runs: it holds its lock for
// life. The lock is taken and let go at once when free; the caller holds
// the start lock, so no daemon this client starts can race for it.
func running(layout paths.Layout) bool {
	lock, err := ipc.Lock(layout.DaemonLock(), false)
	if err == nil {
		lock.Close()
		return false
	}
	return errors.Is(err, ipc.ErrLocked)
}

// errExited is waitBusy's word that the daemon it waited on has exited.
var errExited = errors.New("the daemon exited")

// waitBusy retries a daemon that runs but did not take the handshake (a
// flood of connections fills its handshake slots, or it is stuck) until
// it does (nil), it exits (errExited), or the caller's deadline (at most
// busyWait) passes. Starting a second daemon while it runs would only fail
// on its lock: that is what made "the daemon did not start: it exited".
// The caller holds the start lock, so running's brief
// look at the daemon's lock races no starter.
func waitBusy(ctx context.Context, layout paths.Layout) error {
	began := time.Now()
	ctx, cancel := context.WithTimeout(ctx, busyWait)
	defer cancel()
	for pause := 20 * time.Millisecond; ; pause = min(2*pause, 500*time.Millisecond) {
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w: it did not take the connection in %s of tries (another process may be flooding it with connections, or it is stuck); try again, and if it stays so stop it (its pid is in %s); see %s",
				ErrDaemonBusy, time.Since(began).Round(100*time.Millisecond), layout.DaemonLock(), layout.DaemonLog())
		case <-time.After(pause):
		}
		if answers(ctx, layout) {
			return nil
		}
		if !running(layout) {
			return errExited
		}
	}
}

// spawn starts a daemon process for layout; exited receives its exit
// status. A variable so that tests start a fake daemon instead: in a test
// binary, os.Executable is the test binary itself.
var spawn = spawnDaemon

// spawnDaemon runs this binary's `daemon` subcommand, detached, with its
// output going to the daemon log.
func spawnDaemon(layout paths.Layout) (<-chan error, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("%w: finding own binary: %v", ErrNoDaemon, err)
	}
	return spawnBinary(layout, exe, nil)
}

// spawnBinary runs bin's `daemon` subcommand, detached, with env added to
// this process's environment and its output going to the daemon log.
func spawnBinary(layout paths.Layout, exe string, env []string) (<-chan error, error) {
	logf, err := os.OpenFile(layout.DaemonLog(), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("%w: opening log: %v", ErrNoDaemon, err)
	}
	defer logf.Close() // the child has its own copy
	cmd := exec.Command(exe, "daemon")
	if len(env) > 0 {
		cmd.Env = append(os.Environ(), env...)
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	detach(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoDaemon, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	return exited, nil
}

// answers reports whether a daemon accepts our handshake.
func answers(ctx context.Context, layout paths.Layout) bool {
	s, err := secret.Load(layout.Secret())
	if err != nil {
		return false
	}
	c, _, err := ipc.Dial(ctx, layout.Socket, protocol.Auth{Role: protocol.RoleClient, Secret: s, Session: "probe"})
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// checkForwarded reports whether the daemon behind a forwarded socket
// accepts our handshake, and if not, what to check.
func checkForwarded(ctx context.Context, socket, secretFile string) error {
	c, err := ConnectSocket(ctx, socket, secretFile, "probe")
	if err != nil {
		return fmt.Errorf("%w (from %s; is the ssh forwarding up, and the daemon running on the other machine?)", err, EnvSocket)
	}
	// The handshake went through: that is the answer. The daemon may hang
	// up first, so Close's own error says nothing.
	c.Close()
	return nil
}

// StopDaemon asks the daemon of layout to exit and waits (up to 5 s) until
// it no longer answers. It reports whether a daemon was running.
func StopDaemon(ctx context.Context, layout paths.Layout) (bool, error) {
	s, err := secret.Load(layout.Secret())
	if err != nil {
		return false, nil // no secret, no daemon that would let us in
	}
	c, _, err := ipc.Dial(ctx, layout.Socket, protocol.Auth{Role: protocol.RoleClient, Secret: s, Session: "stop"})
	if err != nil {
		return false, nil
	}
	c.SendJSON(protocol.Call{ID: "shutdown", Type: protocol.TypeShutdown})
	c.Close()
	for range 100 {
		if !answers(ctx, layout) {
			return true, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return true, fmt.Errorf("the daemon at %s did not exit when asked; stop it by hand (its pid is in the daemon log)", layout.Socket)
}
