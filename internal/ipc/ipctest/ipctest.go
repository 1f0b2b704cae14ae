// Package ipctest provides a fake daemon for tests of the packages that
// talk to it (ipc, nmhost, client). It stands in for internal/daemon on the
// socket side only: it listens with ipc.Listen in a short private folder,
// authenticates every connection exactly as daemon.serve does (the secret
// in the first frame, MaxHandshake until then, AuthOK with a PID and
// version) and hands the authenticated connection to the test. What the
// daemon would do with the connection afterwards is the test's to script.
package ipctest

import (
	"net"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/ipc"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/secret"
	"github.com/browser-bridge/browser-bridge/internal/version"
)

// Wait bounds every wait in a test that uses the fake: long enough for a
// loaded CI machine, short enough that a hang fails fast.
const Wait = 5 * time.Second

// Dir returns a fresh private (0700) folder under /tmp, removed when the
// test ends: a place for sockets. It is short on purpose: t.TempDir()
// (named after the test) can push a socket path past the ~104 bytes a
// unix socket allows.
func Dir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "bb")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// Layout returns a layout in a fresh Dir, with a secret.
func Layout(t testing.TB) paths.Layout {
	t.Helper()
	l := paths.ForHome(Dir(t))
	if _, err := secret.Ensure(l.Secret()); err != nil {
		t.Fatal(err)
	}
	return l
}

// Conn is one authenticated connection to the fake daemon.
type Conn struct {
	*ipc.Conn
	Auth   protocol.Auth // the handshake the peer sent
	Daemon *Daemon       // the fake it came to, e.g. for Close on shutdown
}

// Daemon is the fake daemon.
type Daemon struct {
	// Version and PID are what AuthOK announces.
	Version string
	PID     int
	// Serve, if set, runs each authenticated connection (in its own
	// goroutine; the connection is closed when it returns). Without it the
	// connection goes to Accept.
	Serve func(c *Conn)

	t      testing.TB
	l      net.Listener
	secret string
	conns  chan *Conn
	mu     sync.Mutex
	open   []*Conn
	closed bool
}

// Option changes a Daemon before it starts listening.
type Option func(*Daemon)

// WithVersion makes the fake announce another version.
func WithVersion(v string) Option { return func(d *Daemon) { d.Version = v } }

// WithPID makes the fake announce pid as its process ID.
func WithPID(pid int) Option { return func(d *Daemon) { d.PID = pid } }

// WithServe scripts each connection with f instead of handing it to Accept.
func WithServe(f func(c *Conn)) Option { return func(d *Daemon) { d.Serve = f } }

// Start listens on layout's socket; it stops at the end of the test.
func Start(t testing.TB, layout paths.Layout, opts ...Option) *Daemon {
	t.Helper()
	d, err := New(t, layout, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// New is Start for a goroutine other than the test's (one that stands in
// for a process starting the daemon): it reports an error instead of
// failing the test.
func New(t testing.TB, layout paths.Layout, opts ...Option) (*Daemon, error) {
	s, err := secret.Load(layout.Secret())
	if err != nil {
		return nil, err
	}
	d := &Daemon{Version: version.Version, PID: 4242, t: t, secret: s, conns: make(chan *Conn, 16)}
	for _, o := range opts {
		o(d)
	}
	l, err := ipc.Listen(layout.Socket)
	if err != nil {
		return nil, err
	}
	d.l = l
	t.Cleanup(d.Close)
	go d.acceptLoop()
	return d, nil
}

func (d *Daemon) acceptLoop() {
	for {
		nc, err := d.l.Accept()
		if err != nil {
			return
		}
		go d.serve(nc)
	}
}

// serve is daemon.serve's handshake, step for step.
func (d *Daemon) serve(nc net.Conn) {
	c := ipc.NewConn(nc, ipc.RequestRead)
	c.SetLimit(ipc.MaxHandshake)
	if err := ipc.CheckPeer(nc); err != nil {
		c.Close()
		return
	}
	c.SetDeadline(time.Now().Add(ipc.ConnectTimeout))
	var auth protocol.Auth
	if err := c.RecvJSON(&auth); err != nil || auth.Type != protocol.TypeAuth || !secret.Equal(auth.Secret, d.secret) {
		c.Close()
		return
	}
	c.SetDeadline(time.Time{})
	c.SetLimit(ipc.MaxFrame)
	if err := c.SendJSON(protocol.AuthOK{Type: protocol.TypeAuthOK, DaemonPID: d.PID, Version: d.Version}); err != nil {
		c.Close()
		return
	}
	conn := &Conn{Conn: c, Auth: auth, Daemon: d}
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		c.Close()
		return
	}
	d.open = append(d.open, conn)
	d.mu.Unlock()
	if d.Serve != nil {
		defer c.Close()
		d.Serve(conn)
		return
	}
	d.conns <- conn
}

// Accept returns the next authenticated connection, failing the test if
// none comes within Wait.
func (d *Daemon) Accept() *Conn {
	d.t.Helper()
	select {
	case c := <-d.conns:
		return c
	case <-time.After(Wait):
		d.t.Fatalf("fake daemon: no connection within %s", Wait)
		return nil
	}
}

// Conns is where authenticated connections arrive when there is no Serve
// function; Accept is the same with a time limit.
func (d *Daemon) Conns() <-chan *Conn { return d.conns }

// Close stops listening (the socket file goes with it, so a dialer finds
// no daemon) and closes every connection, as a daemon that exits does.
// It is safe to call more than once and from a Serve function.
func (d *Daemon) Close() {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return
	}
	d.closed = true
	open := d.open
	d.mu.Unlock()
	d.l.Close()
	for _, c := range open {
		c.Close()
	}
}

// Recv reads the next frame from c, failing the test if none arrives
// within Wait. Call it from the test's goroutine, not from a Serve
// function (t.Fatal must not run elsewhere).
func Recv(t testing.TB, c *ipc.Conn) []byte {
	t.Helper()
	c.SetDeadline(time.Now().Add(Wait))
	defer c.SetDeadline(time.Time{})
	b, err := c.Recv()
	if err != nil {
		t.Fatalf("fake daemon: reading a frame: %v", err)
	}
	return b
}
