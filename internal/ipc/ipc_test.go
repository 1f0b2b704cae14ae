//go:build unix

package ipc_test

import (
	"context"
	"encoding/binary"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/browser-bridge/browser-bridge/internal/ipc"
	"github.com/browser-bridge/browser-bridge/internal/ipc/ipctest"
	"github.com/browser-bridge/browser-bridge/internal/nmframe"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/secret"
)

// socketPair returns the two ends of a connected unix socket, the kind of
// connection the daemon and its peers have.
func socketPair(t *testing.T) (*net.UnixConn, *net.UnixConn) {
	t.Helper()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	conn := func(fd int) *net.UnixConn {
		f := os.NewFile(uintptr(fd), "socketpair")
		defer f.Close()
		c, err := net.FileConn(f)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c.(*net.UnixConn)
	}
	return conn(fds[0]), conn(fds[1])
}

// rawFrame writes a frame header announcing n bytes followed by body, so a
// test can send a frame that is incomplete or over a limit. It may run in
// a goroutine of the test, so it reports with t.Error, not t.Fatal.
func rawFrame(t *testing.T, w net.Conn, n uint32, body string) {
	t.Helper()
	var hdr [4]byte
	binary.LittleEndian.PutUint32(hdr[:], n)
	if _, err := w.Write(append(hdr[:], body...)); err != nil {
		t.Error(err)
	}
}

func TestListenMakesSocketOnlyTheUserCanUse(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(ipctest.Dir(t), "run")
	// A folder that exists with a loose mode is made private.
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "d.sock")
	l, err := ipc.Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, c := range []struct {
		path string
		want os.FileMode
	}{
		{dir, os.ModeDir | 0o700},
		{path, os.ModeSocket | 0o600},
	} {
		fi, err := os.Lstat(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode() & (os.ModeType | os.ModePerm); got != c.want {
			t.Errorf("%s: mode %v, want %v", c.path, got, c.want)
		}
	}
}

func TestListenReplacesStaleSocket(t *testing.T) {
	t.Parallel()
	path := filepath.Join(ipctest.Dir(t), "run", "d.sock")
	// A crashed daemon leaves its socket file behind with nobody
	// listening: make one by closing a listener that does not unlink.
	first, err := ipc.Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	first.(*net.UnixListener).SetUnlinkOnClose(false)
	first.Close()
	if _, err := os.Lstat(path); err != nil {
		t.Fatalf("the stale socket is not there to replace: %v", err)
	}

	l, err := ipc.Listen(path)
	if err != nil {
		t.Fatalf("Listen over a stale socket: %v", err)
	}
	defer l.Close()
	go func() {
		if c, err := l.Accept(); err == nil {
			c.Close()
		}
	}()
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatalf("the new socket does not answer: %v", err)
	}
	c.Close()
}

func TestListenRefusesLiveSocket(t *testing.T) {
	t.Parallel()
	path := filepath.Join(ipctest.Dir(t), "run", "d.sock")
	live, err := ipc.Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()

	if l, err := ipc.Listen(path); err == nil {
		l.Close()
		t.Fatal("a second Listen took over a socket that still answers")
	} else if !strings.Contains(err.Error(), "another process is listening") {
		t.Errorf("error %q does not say the socket is in use", err)
	}
	// The live daemon keeps its socket.
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatalf("the live socket was removed: %v", err)
	}
	c.Close()
}

func TestListenLeavesAFileThatIsNotASocket(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(ipctest.Dir(t), "run")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "d.sock")
	if err := os.WriteFile(path, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	if l, err := ipc.Listen(path); err == nil {
		l.Close()
		t.Fatal("Listen replaced a regular file")
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "keep me" {
		t.Fatalf("the file was touched: %q, %v", b, err)
	}
}

func TestDialHandshake(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		secret  func(good string) string
		wantErr string // "" for success
	}{
		{"right secret", func(good string) string { return good }, ""},
		{"wrong secret", func(string) string { return strings.Repeat("0", 64) }, "wrong secret"},
		{"no secret", func(string) string { return "" }, "wrong secret"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			layout := ipctest.Layout(t)
			d := ipctest.Start(t, layout, ipctest.WithPID(777), ipctest.WithVersion("9.9.9"))
			good, err := secret.Load(layout.Secret())
			if err != nil {
				t.Fatal(err)
			}
			auth := protocol.Auth{Role: protocol.RoleClient, Secret: tc.secret(good), Session: "session:t", PID: 12}
			c, ok, err := ipc.Dial(context.Background(), layout.Socket, auth)
			if tc.wantErr != "" {
				if err == nil {
					c.Close()
					t.Fatal("Dial succeeded")
				}
				if !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("error %q does not name the cause %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if diff := cmp.Diff(protocol.AuthOK{Type: protocol.TypeAuthOK, DaemonPID: 777, Version: "9.9.9"}, ok); diff != "" {
				t.Errorf("AuthOK (-want +got):\n%s", diff)
			}
			// Dial fills in the type and protocol version itself.
			want := protocol.Auth{Type: protocol.TypeAuth, Role: protocol.RoleClient, Secret: good, Protocol: protocol.Version, Session: "session:t", PID: 12}
			if diff := cmp.Diff(want, d.Accept().Auth); diff != "" {
				t.Errorf("handshake the daemon saw (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDialRefusesAnswerThatIsNotAuthOK(t *testing.T) {
	t.Parallel()
	layout := ipctest.Layout(t)
	// Stands in for something on the daemon's socket that reads the
	// handshake and answers with another message.
	l, err := ipc.Listen(layout.Socket)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		nc, err := l.Accept()
		if err != nil {
			return
		}
		defer nc.Close()
		c := ipc.NewConn(nc, 0)
		c.Recv()
		c.SendJSON(map[string]string{"type": "hello"})
		c.Recv() // until the dialer hangs up
	}()
	s, _ := secret.Load(layout.Secret())
	c, _, err := ipc.Dial(context.Background(), layout.Socket, protocol.Auth{Secret: s})
	if err == nil {
		c.Close()
		t.Fatal("Dial accepted a reply that is not auth.ok")
	}
	if !strings.Contains(err.Error(), `unexpected "hello"`) {
		t.Errorf("error %q does not say what came back", err)
	}
}

func TestDialRefusesSocketInFolderOthersCanEnter(t *testing.T) {
	t.Parallel()
	layout := ipctest.Layout(t)
	d := ipctest.Start(t, layout)
	if err := os.Chmod(filepath.Dir(layout.Socket), 0o755); err != nil {
		t.Fatal(err)
	}
	s, _ := secret.Load(layout.Secret())
	c, _, err := ipc.Dial(context.Background(), layout.Socket, protocol.Auth{Secret: s})
	if err == nil {
		c.Close()
		t.Fatal("Dial presented the secret to a socket in a folder of mode 0755")
	}
	if !strings.Contains(err.Error(), "not 0700") {
		t.Errorf("error %q does not name the folder's mode", err)
	}
	// The refusal comes before the dial: the daemon saw nobody.
	select {
	case c := <-d.Conns():
		t.Errorf("the daemon got a connection (%+v)", c.Auth)
	case <-time.After(50 * time.Millisecond):
	}
}

// silentPeer listens on a socket in a private folder and accepts
// connections without ever answering: a daemon that hangs.
func silentPeer(t *testing.T) string {
	t.Helper()
	path := filepath.Join(ipctest.Dir(t), "run", "d.sock")
	l, err := ipc.Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { c.Close() })
		}
	}()
	return path
}

func TestDialGivesUpOnSilentPeerAtContextDeadline(t *testing.T) {
	t.Parallel()
	path := silentPeer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	c, _, err := ipc.Dial(ctx, path, protocol.Auth{Secret: "x"})
	if err == nil {
		c.Close()
		t.Fatal("Dial to a peer that never answers succeeded")
	}
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("error %v is not a timeout", err)
	}
	// A daemon that took the connection but does not answer is busy or
	// stuck; a wrong secret gets hung up on (QA on main: a stopped
	// forwarded daemon was said to have refused the handshake).
	if msg := err.Error(); !strings.Contains(msg, "did not answer the handshake") || strings.Contains(msg, "wrong secret") {
		t.Errorf("error %q, want it to say the daemon did not answer, and nothing of a wrong secret", msg)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("took %s; the context allowed 100ms", took)
	}
}

// Not parallel: it shortens the package's ConnectTimeout.
func TestDialGivesUpOnSilentPeerAfterConnectTimeout(t *testing.T) {
	ipc.SetConnectTimeout(t, 100*time.Millisecond)
	path := silentPeer(t)
	start := time.Now()
	c, _, err := ipc.Dial(context.Background(), path, protocol.Auth{Secret: "x"})
	if err == nil {
		c.Close()
		t.Fatal("Dial to a peer that never answers succeeded")
	}
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("error %v is not a timeout", err)
	}
	if took := time.Since(start); took < 100*time.Millisecond || took > 2*time.Second {
		t.Errorf("took %s; ConnectTimeout is 100ms", took)
	}
}

func TestFrameLimits(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		limit   int
		size    uint32
		tooBig  bool
		content bool // send the body too (only for small frames)
	}{
		{"handshake at its limit", ipc.MaxHandshake, ipc.MaxHandshake, false, true},
		{"handshake one byte over", ipc.MaxHandshake, ipc.MaxHandshake + 1, true, false},
		{"after auth, a frame MaxHandshake would refuse", ipc.MaxFrame, ipc.MaxHandshake + 1, false, true},
		{"after auth, one byte over MaxFrame", ipc.MaxFrame, ipc.MaxFrame + 1, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a, b := socketPair(t)
			c := ipc.NewConn(a, time.Second)
			c.SetLimit(tc.limit)
			body := ""
			if tc.content {
				body = strings.Repeat("x", int(tc.size))
			}
			go rawFrame(t, b, tc.size, body)
			got, err := c.Recv()
			var tl *nmframe.TooLargeError
			switch {
			case tc.tooBig && !errors.As(err, &tl):
				t.Fatalf("Recv of %d bytes with limit %d: %v, want *nmframe.TooLargeError", tc.size, tc.limit, err)
			case tc.tooBig && (tl.Size != int(tc.size) || tl.Limit != tc.limit):
				t.Errorf("TooLargeError %+v, want size %d limit %d", tl, tc.size, tc.limit)
			case !tc.tooBig && (err != nil || len(got) != int(tc.size)):
				t.Errorf("Recv of %d bytes with limit %d: %d bytes, %v", tc.size, tc.limit, len(got), err)
			}
		})
	}
}

func TestSendRefusesFrameOverMaxFrameAndWritesNothing(t *testing.T) {
	t.Parallel()
	a, b := socketPair(t)
	err := ipc.NewConn(a, 0).Send(make([]byte, ipc.MaxFrame+1))
	if !errors.Is(err, nmframe.ErrTooLarge) {
		t.Fatalf("Send of MaxFrame+1 bytes: %v, want ErrTooLarge", err)
	}
	// Nothing of it went out: the next frame the peer reads is the next one sent.
	if err := ipc.NewConn(a, 0).Send([]byte(`{"n":2}`)); err != nil {
		t.Fatal(err)
	}
	got, err := ipc.NewConn(b, 0).Recv()
	if err != nil || string(got) != `{"n":2}` {
		t.Fatalf("peer read %q, %v; want the second frame", got, err)
	}
}

func TestRecvJSONOfGarbageKeepsConnectionInStep(t *testing.T) {
	t.Parallel()
	a, b := socketPair(t)
	r, w := ipc.NewConn(a, time.Second), ipc.NewConn(b, 0)
	for _, f := range []string{`not json`, `{"type":"auth.ok","daemonPid":3}`} {
		if err := w.Send([]byte(f)); err != nil {
			t.Fatal(err)
		}
	}
	var v protocol.AuthOK
	if err := r.RecvJSON(&v); err == nil {
		t.Fatal("RecvJSON of garbage succeeded")
	}
	// The bad frame was read whole, so the next one decodes.
	if err := r.RecvJSON(&v); err != nil {
		t.Fatalf("the frame after garbage: %v", err)
	}
	if v.DaemonPID != 3 {
		t.Errorf("decoded %+v", v)
	}
}

func TestSendJSONKeepsHTMLAsIs(t *testing.T) {
	t.Parallel()
	a, b := socketPair(t)
	if err := ipc.NewConn(a, 0).SendJSON(map[string]string{"text": "<b>&</b>"}); err != nil {
		t.Fatal(err)
	}
	got, err := ipc.NewConn(b, 0).Recv()
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"text":"<b>&</b>"}`; string(got) != want {
		t.Errorf("frame %s, want %s (no escaping, no trailing newline)", got, want)
	}
}

func TestRecvDeadline(t *testing.T) {
	t.Parallel()
	const perFrame = 100 * time.Millisecond
	for _, tc := range []struct {
		name string
		// send writes to the peer's end; wantTimeout says whether Recv
		// must give up.
		send        func(t *testing.T, w net.Conn)
		wantTimeout bool
	}{
		{"an idle connection does not time out", func(t *testing.T, w net.Conn) {
			time.Sleep(2 * perFrame)
			rawFrame(t, w, 2, "{}")
		}, false},
		{"a frame that started must finish in time", func(t *testing.T, w net.Conn) {
			rawFrame(t, w, 10, "{")
		}, true},
		{"a frame that finishes within the deadline", func(t *testing.T, w net.Conn) {
			rawFrame(t, w, 2, "{")
			time.Sleep(perFrame / 4)
			w.Write([]byte("}"))
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a, b := socketPair(t)
			c := ipc.NewConn(a, perFrame)
			go tc.send(t, b)
			start := time.Now()
			_, err := c.Recv()
			took := time.Since(start)
			if tc.wantTimeout {
				if !errors.Is(err, os.ErrDeadlineExceeded) {
					t.Fatalf("Recv: %v, want a timeout", err)
				}
				if took > 20*perFrame {
					t.Errorf("gave up after %s; the frame deadline is %s", took, perFrame)
				}
				return
			}
			if err != nil {
				t.Fatalf("Recv: %v", err)
			}
		})
	}
}

func TestRecvDeadlineIsClearedAfterEachFrame(t *testing.T) {
	t.Parallel()
	const perFrame = 50 * time.Millisecond
	a, b := socketPair(t)
	c := ipc.NewConn(a, perFrame)
	rawFrame(t, b, 2, "{}")
	if _, err := c.Recv(); err != nil {
		t.Fatal(err)
	}
	// Idle for longer than the frame deadline after a frame: still fine.
	go func() {
		time.Sleep(3 * perFrame)
		rawFrame(t, b, 2, "{}")
	}()
	if _, err := c.Recv(); err != nil {
		t.Fatalf("Recv after idling: %v", err)
	}
}

// The daemon bounds the handshake with SetDeadline(ConnectTimeout) on a
// connection whose frames get RequestRead: a peer that sends a header and
// stalls must be dropped at the sooner of the two, and the deadline must
// still hold after a frame was read.
func TestSetDeadlineIsNeverExtendedByTheFrameDeadline(t *testing.T) {
	t.Parallel()
	const overall = 100 * time.Millisecond
	a, b := socketPair(t)
	c := ipc.NewConn(a, time.Minute)
	c.SetDeadline(time.Now().Add(overall))

	rawFrame(t, b, 2, "{}")
	if _, err := c.Recv(); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	rawFrame(t, b, 10, "{") // a header, then nothing
	_, err := c.Recv()
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("Recv: %v, want a timeout", err)
	}
	if took := time.Since(start); took > 20*overall {
		t.Errorf("gave up after %s; SetDeadline allowed %s", took, overall)
	}
}

func TestSendHonoursSetDeadline(t *testing.T) {
	t.Parallel()
	a, _ := socketPair(t) // the peer never reads
	c := ipc.NewConn(a, 0)
	c.SetDeadline(time.Now().Add(100 * time.Millisecond))
	start := time.Now()
	var err error
	for err == nil && time.Since(start) < 10*time.Second {
		err = c.Send(make([]byte, 1<<20)) // fills the socket buffer
	}
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("Send to a peer that never reads: %v, want a timeout", err)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("Send gave up after %s; SetDeadline allowed 100ms (WriteTimeout is %s)", took, ipc.WriteTimeout)
	}
}

func TestLockFileIsPrivate(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "daemon.lock")
	f, err := ipc.Lock(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("lock file: %v, %v; want mode 0600", fi.Mode(), err)
	}
}

func TestLockReportsAFolderThatIsNotThere(t *testing.T) {
	t.Parallel()
	_, err := ipc.Lock(filepath.Join(t.TempDir(), "missing", "x.lock"), false)
	if err == nil || errors.Is(err, ipc.ErrLocked) {
		t.Fatalf("Lock in a missing folder: %v, want an error other than ErrLocked", err)
	}
}

func TestCheckPeer(t *testing.T) {
	t.Parallel()
	a, _ := socketPair(t)
	p, _ := net.Pipe()
	defer p.Close()
	for name, c := range map[string]net.Conn{
		"unix socket, same user": a,
		"not a unix socket":      p,
	} {
		if err := ipc.CheckPeer(c); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
