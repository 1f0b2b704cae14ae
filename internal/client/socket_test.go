package client

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/browser-bridge/browser-bridge/internal/ipc/ipctest"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

func TestForwardedNeedsBothAbsolutePaths(t *testing.T) {
	for _, tt := range []struct {
		socket, secret string
		ok, fails      bool
	}{
		{"", "", false, false},
		{"/a/d.sock", "/a/secret", true, false},
		{"/a/d.sock", "", false, true},
		{"", "/a/secret", false, true},
		{"d.sock", "/a/secret", false, true},
	} {
		t.Setenv(EnvSocket, tt.socket)
		t.Setenv(EnvSecretFile, tt.secret)
		socket, secretFile, ok, err := Forwarded()
		if ok != tt.ok || (err != nil) != tt.fails {
			t.Errorf("Forwarded with %q, %q: ok %v, err %v", tt.socket, tt.secret, ok, err)
		}
		if ok && (socket != tt.socket || secretFile != tt.secret) {
			t.Errorf("Forwarded: %q %q, want %q %q", socket, secretFile, tt.socket, tt.secret)
		}
	}
}

// ConnectSocket takes the daemon as it finds it: one of another version
// is not asked to make way (it may be another machine's, or another
// install's binary), and none is started when nothing answers.
func TestConnectSocketNeitherReplacesNorStarts(t *testing.T) {
	layout := ipctest.Layout(t)
	seen := make(chan protocol.Call, 4)
	ipctest.Start(t, layout, ipctest.WithVersion("0.0.1-old"), ipctest.WithPID(3), calls(seen, echo))
	starts := fakeStart(t, func() error { return errors.New("no start expected") })
	ctx, cancel := context.WithTimeout(context.Background(), ipctest.Wait)
	defer cancel()
	cl, err := ConnectSocket(ctx, layout.Socket, layout.Secret(), "program:test")
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if cl.DaemonPID != 3 {
		t.Errorf("DaemonPID %d, want 3", cl.DaemonPID)
	}
	if _, err := call(t, cl, map[string]any{"action": "status"}, time.Second, nil); err != nil {
		t.Fatal(err)
	}
	if m := next(t, seen); m.Type != protocol.TypeCall {
		t.Errorf("the daemon got %q first, want the call (no shutdown)", m.Type)
	}

	empty := ipctest.Layout(t)
	if _, err := ConnectSocket(ctx, empty.Socket, empty.Secret(), "program:test"); err == nil || !strings.Contains(err.Error(), empty.Socket) {
		t.Errorf("ConnectSocket with nobody listening: %v, want an error naming the socket", err)
	}
	if n := starts.Load(); n != 0 {
		t.Errorf("%d daemons started", n)
	}
}

// With EnvSocket set, Connect and EnsureDaemon use the forwarded socket
// and never start a daemon of the local layout.
func TestConnectAndEnsureDaemonUseTheForwardedSocket(t *testing.T) {
	remote := ipctest.Layout(t)
	seen := make(chan protocol.Auth, 1)
	ipctest.Start(t, remote, ipctest.WithVersion("0.0.1-other"), ipctest.WithServe(func(c *ipctest.Conn) {
		if c.Auth.Session != "probe" {
			seen <- c.Auth
		}
	}))
	starts := fakeStart(t, func() error { return errors.New("no start expected") })
	t.Setenv(EnvSocket, remote.Socket)
	t.Setenv(EnvSecretFile, remote.Secret())
	local := ipctest.Layout(t) // no daemon here
	ctx, cancel := context.WithTimeout(context.Background(), ipctest.Wait)
	defer cancel()
	if err := EnsureDaemon(ctx, local); err != nil {
		t.Errorf("EnsureDaemon with a forwarded socket that answers: %v", err)
	}
	cl, err := Connect(ctx, local, "session:remote")
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if got := (<-seen).Session; got != "session:remote" {
		t.Errorf("the forwarded daemon got session %q", got)
	}
	agent, err := ConnectAgent(ctx, local, "session:agent")
	if err != nil {
		t.Fatal(err)
	}
	defer agent.Close()
	if got := <-seen; got.Session != "session:agent" || !got.EndsWithConnection {
		t.Errorf("ConnectAgent over the forwarded socket authenticated as %+v, want session:agent ending with its connection", got)
	}

	t.Setenv(EnvSocket, local.Socket)
	t.Setenv(EnvSecretFile, local.Secret())
	if err := EnsureDaemon(ctx, local); err == nil || !strings.Contains(err.Error(), EnvSocket) {
		t.Errorf("EnsureDaemon with a forwarded socket that does not answer: %v, want an error naming %s", err, EnvSocket)
	}
	if _, err := Connect(ctx, local, "session:remote"); err == nil || !strings.Contains(err.Error(), EnvSocket) {
		t.Errorf("Connect with a forwarded socket that does not answer: %v, want an error naming %s", err, EnvSocket)
	}
	if n := starts.Load(); n != 0 {
		t.Errorf("%d daemons started", n)
	}
}

// EnsureDaemonWith runs the given binary as `daemon` with the extra
// environment; one that exits is reported with the daemon log.
func TestEnsureDaemonWithRunsThatBinary(t *testing.T) {
	layout := ipctest.Layout(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "ran")
	bin := filepath.Join(dir, "browser-bridge")
	script := "#!/bin/sh\necho \"$1 $BB_TEST_VAR\" > " + out + "\nexit 3\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), ipctest.Wait)
	defer cancel()
	err := EnsureDaemonWith(ctx, layout, bin, []string{"BB_TEST_VAR=given"})
	if !errors.Is(err, ErrNoDaemon) || !strings.Contains(err.Error(), layout.DaemonLog()) {
		t.Errorf("EnsureDaemonWith of a binary that exits: %v, want ErrNoDaemon naming the log", err)
	}
	got, _ := os.ReadFile(out)
	if diff := cmp.Diff("daemon given\n", string(got)); diff != "" {
		t.Errorf("what the binary was run with (-want +got):\n%s", diff)
	}
}
