// Package ipc is the bridge's local transport: a unix socket in a private
// folder, length-prefixed JSON frames (package nmframe), and the secret
// handshake every connection opens with. It never touches the network.
package ipc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/nmframe"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// Deadlines of SPEC §1.
const (
	ConnectTimeout = 5 * time.Second  // dial + handshake
	RequestRead    = 10 * time.Second // one frame, once it has started arriving
)

// MaxFrame bounds one frame on the socket: a result of up to 64 MiB from
// Chrome plus room for the envelope.
const MaxFrame = nmframe.MaxFromChrome + 1<<20

// Listen opens the daemon's socket at path. The caller must hold the daemon
// lock: a socket file left there is a stale one from a crashed daemon and is
// removed.
func Listen(path string) (net.Listener, error) {
	if err := paths.EnsurePrivateDir(filepath.Dir(path)); err != nil {
		return nil, err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("removing stale socket: %w", err)
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

// Conn is a framed JSON connection. Send may be called from several
// goroutines; Recv from one.
type Conn struct {
	c   net.Conn
	r   nmframe.Reader
	wmu sync.Mutex
}

// NewConn wraps c. When readDeadline is positive, a frame that has started
// arriving must be complete within it.
func NewConn(c net.Conn, readDeadline time.Duration) *Conn {
	conn := &Conn{c: c, r: nmframe.Reader{R: c, Limit: MaxFrame, Dir: "on the socket"}}
	if readDeadline > 0 {
		conn.r.Started = func() { c.SetReadDeadline(time.Now().Add(readDeadline)) }
	}
	return conn
}

// Recv reads the next frame.
func (c *Conn) Recv() ([]byte, error) {
	b, err := c.r.Read()
	if c.r.Started != nil {
		c.c.SetReadDeadline(time.Time{})
	}
	return b, err
}

// RecvJSON reads the next frame into v.
func (c *Conn) RecvJSON(v any) error {
	b, err := c.Recv()
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// Send writes one frame.
func (c *Conn) Send(frame []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return nmframe.Write(c.c, frame, MaxFrame, "on the socket")
}

// SendJSON marshals v and writes it as one frame.
func (c *Conn) SendJSON(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return c.Send(b)
}

// SetDeadline sets the underlying connection's deadline.
func (c *Conn) SetDeadline(t time.Time) error { return c.c.SetDeadline(t) }

// Close closes the connection.
func (c *Conn) Close() error { return c.c.Close() }

// Dial connects to the daemon at path and authenticates. The whole of it is
// bounded by ConnectTimeout (or ctx, if sooner).
func Dial(ctx context.Context, path string, auth protocol.Auth) (*Conn, protocol.AuthOK, error) {
	var ok protocol.AuthOK
	ctx, cancel := context.WithTimeout(ctx, ConnectTimeout)
	defer cancel()
	var d net.Dialer
	nc, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		return nil, ok, err
	}
	dl, _ := ctx.Deadline()
	nc.SetDeadline(dl)
	c := NewConn(nc, 0)
	auth.Type = protocol.TypeAuth
	auth.Protocol = protocol.Version
	if err := c.SendJSON(auth); err != nil {
		c.Close()
		return nil, ok, fmt.Errorf("sending handshake: %w", err)
	}
	if err := c.RecvJSON(&ok); err != nil || ok.Type != protocol.TypeAuthOK {
		c.Close()
		if err == nil {
			err = fmt.Errorf("unexpected %q", ok.Type)
		}
		return nil, ok, fmt.Errorf("daemon refused the handshake (wrong secret? restart the daemon or rerun browser-bridge install): %w", err)
	}
	nc.SetDeadline(time.Time{})
	return c, ok, nil
}
