package ipc_test

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/browser-bridge/browser-bridge/internal/ipc"
	"github.com/browser-bridge/browser-bridge/internal/ipc/ipctest"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/secret"
	"golang.org/x/sys/windows"
)

// These run on Windows, and under Wine in CI (scripts/wine-test): the
// daemon's named pipe, its deadlines, its peer check and the lock. They
// make their folders with ipctest.Layout, not t.TempDir: Go 1.26's
// os.RemoveAll deletes with POSIX semantics, which Wine 8 lacks ("Invalid
// function"), and t.TempDir fails a test whose folder it cannot remove.

func TestPipeNameIsPerUserAndPerInstall(t *testing.T) {
	a, b := paths.ForHome(`C:\one`), paths.ForHome(`C:\two`)
	if !strings.HasPrefix(a.Socket, `\\.\pipe\browser-bridge-`) {
		t.Fatalf("socket %q is not a pipe name", a.Socket)
	}
	if a.Socket == b.Socket {
		t.Error("two installs share one pipe")
	}
	if c := paths.ForHome(`c:\ONE`); c.Socket != a.Socket {
		t.Errorf("one folder spelt in two cases has two pipes: %q, %q", a.Socket, c.Socket)
	}
}

func TestPipeHandshakeAndFrames(t *testing.T) {
	layout := ipctest.Layout(t)
	d := ipctest.Start(t, layout, ipctest.WithPID(777), ipctest.WithVersion("9.9.9"))
	good, err := secret.Load(layout.Secret())
	if err != nil {
		t.Fatal(err)
	}
	c, ok, err := ipc.Dial(context.Background(), layout.Socket, protocol.Auth{Role: protocol.RoleClient, Secret: good, Session: "s"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if ok.DaemonPID != 777 || ok.Version != "9.9.9" {
		t.Errorf("AuthOK %+v", ok)
	}
	srv := d.Accept()
	// A frame larger than the pipe's buffer crosses in several writes.
	big := strings.Repeat("x", 300<<10)
	go c.SendJSON(map[string]string{"big": big})
	if got := ipctest.Recv(t, srv.Conn); len(got) < len(big) {
		t.Errorf("frame of %d bytes arrived as %d", len(big), len(got))
	}
	if err := srv.SendJSON(map[string]int{"n": 1}); err != nil {
		t.Fatal(err)
	}
	if got := ipctest.Recv(t, c); string(got) != `{"n":1}` {
		t.Errorf("client got %s", got)
	}
	// Closing one end is the end of the other's reads.
	srv.Close()
	if _, err := c.Recv(); !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("read after the daemon hung up: %v, want EOF", err)
	}
}

func TestPipeWrongSecretIsRefused(t *testing.T) {
	layout := ipctest.Layout(t)
	ipctest.Start(t, layout)
	_, _, err := ipc.Dial(context.Background(), layout.Socket, protocol.Auth{Role: protocol.RoleClient, Secret: strings.Repeat("0", 64)})
	if err == nil || !strings.Contains(err.Error(), "wrong secret") {
		t.Fatalf("Dial with a wrong secret: %v", err)
	}
}

func TestPipeDialWithoutDaemonFails(t *testing.T) {
	layout := ipctest.Layout(t)
	start := time.Now()
	_, _, err := ipc.Dial(context.Background(), layout.Socket, protocol.Auth{Role: protocol.RoleClient})
	if err == nil {
		t.Fatal("Dial found a daemon that is not there")
	}
	if time.Since(start) > time.Second {
		t.Errorf("Dial took %v to find no daemon", time.Since(start))
	}
}

func TestPipeSecondListenerIsRefused(t *testing.T) {
	layout := ipctest.Layout(t)
	l, err := ipc.Listen(layout.Socket)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if l2, err := ipc.Listen(layout.Socket); err == nil {
		l2.Close()
		t.Fatal("a second daemon listens on the same pipe")
	} else if !strings.Contains(err.Error(), "another process is listening") {
		t.Errorf("error %q", err)
	}
	// Close wakes an Accept that waits.
	done := make(chan error, 1)
	l3, err := ipc.Listen(ipctest.Layout(t).Socket)
	if err != nil {
		t.Fatal(err)
	}
	go func() { _, err := l3.Accept(); done <- err }()
	time.Sleep(50 * time.Millisecond)
	l3.Close()
	select {
	case err := <-done:
		if err == nil {
			t.Error("Accept returned a connection after Close")
		}
	case <-time.After(ipctest.Wait):
		t.Fatal("Close did not wake Accept")
	}
}

func TestPipeReadDeadline(t *testing.T) {
	layout := ipctest.Layout(t)
	l, err := ipc.Listen(layout.Socket)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		if nc, err := l.Accept(); err == nil {
			defer nc.Close()
			time.Sleep(2 * time.Second) // silent
		}
	}()
	s, _ := secret.Load(layout.Secret())
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, _, err = ipc.Dial(ctx, layout.Socket, protocol.Auth{Role: protocol.RoleClient, Secret: s})
	if err == nil {
		t.Fatal("Dial of a silent daemon succeeded")
	}
	if el := time.Since(start); el > time.Second {
		t.Errorf("Dial of a silent daemon gave up after %v, want about 300ms", el)
	}
}

func TestPipeCheckPeerAcceptsThisUser(t *testing.T) {
	layout := ipctest.Layout(t)
	l, err := ipc.Listen(layout.Socket)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	got := make(chan error, 1)
	go func() {
		nc, err := l.Accept()
		if err == nil {
			err = ipc.CheckPeer(nc)
			nc.Close()
		}
		got <- err
	}()
	// ipc.Dial checks the server's end; the goroutine the client's.
	s, _ := secret.Load(layout.Secret())
	ipc.Dial(context.Background(), layout.Socket, protocol.Auth{Role: protocol.RoleClient, Secret: s})
	if err := <-got; err != nil {
		t.Fatalf("CheckPeer of a client of this user: %v", err)
	}
}

func TestStateFolderIsPrivate(t *testing.T) {
	layout := ipctest.Layout(t)
	// os.MkdirTemp's folder inherits the temp folder's access list, which
	// lets others in (as C:\Users\x\AppData\Local's lets Administrators).
	if was, err := paths.MakePrivate(layout.State); err != nil {
		t.Fatal(err)
	} else if was == 0 {
		t.Log("the temp folder was private already")
	}
	if was, err := paths.MakePrivate(layout.State); was != 0 || err != nil {
		t.Errorf("MakePrivate of a private folder: %#o, %v", was, err)
	}
	// What the bridge gives its folder, secret and pipe: a protected DACL
	// of this user and SYSTEM alone. Checked on the descriptor itself,
	// since Wine keeps no access lists on disk (it shows the Unix mode as
	// one); on Windows the files' own DACLs are checked below too.
	checkPrivateDescriptor(t)
	if !paths.KeepsACLs() {
		return
	}
	os.Remove(layout.Secret())
	if _, err := secret.Ensure(layout.Secret()); err != nil {
		t.Fatal(err)
	}
	if err := paths.VerifyPrivate(layout.State); err != nil {
		t.Fatalf("a state folder made by the bridge: %v", err)
	}
	fi, err := os.Lstat(layout.Secret())
	if err != nil {
		t.Fatal(err)
	}
	if m, err := paths.OthersMode(layout.Secret(), fi); err != nil || m != 0 {
		t.Errorf("the secret is open to others: %#o, %v", m, err)
	}
}

// checkPrivateDescriptor checks paths.PrivateSecurityAttributes: owned by
// this user, a protected DACL (nothing inherited), and access for this
// user and SYSTEM only.
func checkPrivateDescriptor(t *testing.T) {
	t.Helper()
	sa, err := paths.PrivateSecurityAttributes()
	if err != nil {
		t.Fatal(err)
	}
	sd := sa.SecurityDescriptor
	user, err := paths.UserSID()
	if err != nil {
		t.Fatal(err)
	}
	if owner, _, err := sd.Owner(); err != nil || !owner.Equals(user) {
		t.Errorf("owner %v (%v), want %v", owner, err, user)
	}
	control, _, err := sd.Control()
	if err != nil || control&windows.SE_DACL_PROTECTED == 0 {
		t.Errorf("the DACL is not protected (control %#x, %v): it would inherit the parent's", control, err)
	}
	system, err := windows.CreateWellKnownSid(windows.WinLocalSystemSid)
	if err != nil {
		t.Fatal(err)
	}
	dacl, _, err := sd.DACL()
	if err != nil || dacl == nil {
		t.Fatalf("no DACL: %v", err)
	}
	if dacl.AceCount != 2 {
		t.Fatalf("%d entries in the DACL, want this user's and SYSTEM's", dacl.AceCount)
	}
	for i := range uint32(dacl.AceCount) {
		var ace *windows.ACCESS_ALLOWED_ACE
		if err := windows.GetAce(dacl, i, &ace); err != nil {
			t.Fatal(err)
		}
		sid := (*windows.SID)(unsafe.Pointer(&ace.SidStart))
		if ace.Header.AceType != windows.ACCESS_ALLOWED_ACE_TYPE || !(sid.Equals(user) || sid.Equals(system)) {
			t.Errorf("DACL entry %d: type %d for %v; only this user and SYSTEM may be let in", i, ace.Header.AceType, sid)
		}
	}
}
