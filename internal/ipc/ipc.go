// Package ipc is the bridge's local transport: a unix socket in a private
// folder (on Windows a named pipe only the user may open), length-prefixed JSON frames (package nmframe), and the secret
// handshake every connection opens with. It never touches the network.
package ipc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/nmframe"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// Deadlines: docs/design.md#wire-protocol.
const (
	ConnectTimeout = 5 * time.Second  // dial + handshake
	RequestRead    = 10 * time.Second // one frame, once it has started arriving
	// WriteTimeout bounds one frame's write: a peer that stops reading must
	// not hold the writer (and every call queued behind it) forever.
	WriteTimeout = 30 * time.Second
	// MaxHandshake bounds the first frame, read before the secret is known.
	MaxHandshake = 4 << 10
)

// MaxFrame bounds one frame on the socket: a result of up to 64 MiB from
// Chrome plus room for the envelope.
const MaxFrame = nmframe.MaxFromChrome + 1<<20

// connectTimeout is ConnectTimeout; tests shorten it.
var connectTimeout = ConnectTimeout

// Listen opens the daemon's socket (on Windows its named pipe) at path.
// The caller must hold the daemon lock. Only this user can connect: on
// Unix the socket sits in a private folder, on Windows the pipe has a
// DACL of this user's alone.
func Listen(path string) (net.Listener, error) { return listen(path) }

// Conn is a framed JSON connection. Send may be called from several
// goroutines; Recv from one.
type Conn struct {
	c   net.Conn
	r   nmframe.Reader
	wmu sync.Mutex
	// deadline is the one set with SetDeadline (UnixNano, 0 for none).
	// The per-frame read deadline and the write timeout never extend it,
	// and it is put back after each frame.
	deadline atomic.Int64
}

// NewConn wraps c. When readDeadline is positive, a frame that has started
// arriving must be complete within it.
func NewConn(c net.Conn, readDeadline time.Duration) *Conn {
	conn := &Conn{c: c, r: nmframe.Reader{R: c, Limit: MaxFrame, Dir: "on the socket"}}
	if readDeadline > 0 {
		conn.r.Started = func() { c.SetReadDeadline(conn.sooner(time.Now().Add(readDeadline))) }
	}
	return conn
}

// sooner returns t or the deadline set with SetDeadline, whichever comes
// first.
func (c *Conn) sooner(t time.Time) time.Time {
	if d := c.deadline.Load(); d != 0 && time.Unix(0, d).Before(t) {
		return time.Unix(0, d)
	}
	return t
}

// set returns the deadline set with SetDeadline, or the zero time.
func (c *Conn) set() time.Time {
	if d := c.deadline.Load(); d != 0 {
		return time.Unix(0, d)
	}
	return time.Time{}
}

// Recv reads the next frame.
func (c *Conn) Recv() ([]byte, error) {
	b, err := c.r.Read()
	if c.r.Started != nil {
		c.c.SetReadDeadline(c.set())
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

// SetLimit changes the largest frame Recv accepts.
func (c *Conn) SetLimit(n int) { c.r.Limit = n }

// Send writes one frame.
func (c *Conn) Send(frame []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.c.SetWriteDeadline(c.sooner(time.Now().Add(WriteTimeout)))
	defer c.c.SetWriteDeadline(c.set())
	return nmframe.Write(c.c, frame, MaxFrame, "on the socket")
}

// SendJSON marshals v and writes it as one frame. HTML characters stay as
// they are: escaping them would grow page text by up to six times.
func (c *Conn) SendJSON(v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	return c.Send(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// SetDeadline sets the connection's deadline for reads and writes; the zero
// time removes it.
func (c *Conn) SetDeadline(t time.Time) error {
	var n int64
	if !t.IsZero() {
		n = t.UnixNano()
	}
	c.deadline.Store(n)
	return c.c.SetDeadline(t)
}

// Close closes the connection.
func (c *Conn) Close() error { return c.c.Close() }

// Dial connects to the daemon at path and authenticates. The whole of it is
// bounded by ConnectTimeout (or ctx, if sooner).
func Dial(ctx context.Context, path string, auth protocol.Auth) (*Conn, protocol.AuthOK, error) {
	var ok protocol.AuthOK
	began := time.Now()
	ctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	// The secret goes only to a daemon of this user: a socket in a folder
	// someone else controls, or a peer of another user, is refused.
	nc, err := dial(ctx, path)
	if err != nil {
		return nil, ok, err
	}
	if err := CheckPeer(nc); err != nil {
		nc.Close()
		return nil, ok, err
	}
	dl, _ := ctx.Deadline()
	c := NewConn(nc, 0)
	c.SetDeadline(dl)
	auth.Type = protocol.TypeAuth
	auth.Protocol = protocol.Version
	// The daemon hangs up on a wrong secret at once; one that holds the
	// connection without a word (or without reading: the deadline can
	// pass while the handshake is still being sent) is busy or stuck.
	silent := func(err error) error {
		return fmt.Errorf("the daemon at %s took the connection but did not answer the handshake within %s (%w): it is busy or stuck; try again, and if it stays so, stop it", path, time.Since(began).Round(100*time.Millisecond), err)
	}
	if err := c.SendJSON(auth); err != nil {
		c.Close()
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return nil, ok, silent(err)
		}
		return nil, ok, fmt.Errorf("sending handshake: %w", err)
	}
	if err := c.RecvJSON(&ok); err != nil || ok.Type != protocol.TypeAuthOK {
		c.Close()
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return nil, ok, silent(err)
		}
		if err == nil {
			err = fmt.Errorf("unexpected %q", ok.Type)
		}
		return nil, ok, fmt.Errorf("daemon refused the handshake (wrong secret? restart the daemon or rerun browser-bridge install): %w", err)
	}
	c.SetDeadline(time.Time{})
	return c, ok, nil
}
