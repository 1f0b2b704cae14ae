package ipc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/windows"

	"github.com/browser-bridge/browser-bridge/internal/paths"
)

// On Windows the daemon listens on a named pipe. The I/O is overlapped,
// each operation waited for on its own event, and a deadline cancels it
// with CancelIoEx. Go's own poller (and go-winio, built on it) completes
// pipe I/O through an I/O completion port, which under Wine 8 never
// reports a ConnectNamedPipe as done (measured), and Wine is
// where CI runs the Windows tests. An event per operation works on both.

// pipeBuffer is the size of each direction's buffer in the pipe.
const pipeBuffer = 64 << 10

// securityIdentification lets the daemon learn who a client is but not act
// as it (SECURITY_SQOS_PRESENT | SecurityIdentification): a pipe of
// another user's, squatting on the name, gets nothing from impersonation.
const securityIdentification = windows.SECURITY_SQOS_PRESENT | 1<<16

// pipeAddr is a pipe's name as a net.Addr.
type pipeAddr string

func (a pipeAddr) Network() string { return "pipe" }
func (a pipeAddr) String() string  { return string(a) }

// pipeListener hands out one connected pipe instance per Accept, keeping
// the next instance listening meanwhile so that a client never finds the
// name without an instance.
type pipeListener struct {
	name   string
	sa     *windows.SecurityAttributes
	closed atomic.Bool
	stop   windows.Handle // event set by Close: wakes Accept
	mu     sync.Mutex     // one Accept at a time; guards next
	next   windows.Handle // an instance waiting for a client, or 0
}

// listen creates the first instance of the pipe name. FIRST_PIPE_INSTANCE
// makes that fail when the name exists: another daemon (or anyone) holds
// it, and the daemon must not share it.
func listen(name string) (net.Listener, error) {
	sa, err := paths.PrivateSecurityAttributes()
	if err != nil {
		return nil, err
	}
	// FIRST_PIPE_INSTANCE is the guard on Windows; Wine 8 ignores it, so a
	// client's open first says whether someone listens there already.
	probe, cancel := context.WithTimeout(context.Background(), time.Second)
	c, err := dial(probe, name)
	cancel()
	if err == nil {
		c.Close()
		return nil, fmt.Errorf("another process is listening on %s; stop that daemon first (browser-bridge uninstall stops it)", name)
	}
	h, err := createPipe(name, sa, true)
	if errors.Is(err, windows.ERROR_ACCESS_DENIED) || errors.Is(err, windows.ERROR_PIPE_BUSY) {
		return nil, fmt.Errorf("another process is listening on %s; stop that daemon first (browser-bridge uninstall stops it)", name)
	}
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %w", name, err)
	}
	stop, err := windows.CreateEvent(nil, 1, 0, nil)
	if err != nil {
		windows.CloseHandle(h)
		return nil, err
	}
	return &pipeListener{name: name, sa: sa, stop: stop, next: h}, nil
}

func createPipe(name string, sa *windows.SecurityAttributes, first bool) (windows.Handle, error) {
	n, err := windows.UTF16PtrFromString(name)
	if err != nil {
		return 0, err
	}
	flags := uint32(windows.PIPE_ACCESS_DUPLEX | windows.FILE_FLAG_OVERLAPPED)
	if first {
		flags |= windows.FILE_FLAG_FIRST_PIPE_INSTANCE
	}
	mode := uint32(windows.PIPE_TYPE_BYTE | windows.PIPE_READMODE_BYTE | windows.PIPE_WAIT | windows.PIPE_REJECT_REMOTE_CLIENTS)
	return windows.CreateNamedPipe(n, flags, mode, windows.PIPE_UNLIMITED_INSTANCES, pipeBuffer, pipeBuffer, 0, sa)
}

// Accept waits for a client on the listening instance and returns it,
// once the next instance is listening.
func (l *pipeListener) Accept() (net.Conn, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed.Load() {
		return nil, net.ErrClosed
	}
	h := l.next
	l.next = 0
	if h == 0 {
		var err error
		if h, err = createPipe(l.name, l.sa, false); err != nil {
			return nil, fmt.Errorf("creating a pipe instance: %w", err)
		}
	}
	if err := l.connect(h); err != nil {
		windows.CloseHandle(h)
		return nil, err
	}
	// Best effort: if it fails, the next Accept creates it.
	l.next, _ = createPipe(l.name, l.sa, false)
	return newPipeConn(h, true, l.name)
}

// connect waits for a client to open the instance h, or for Close.
func (l *pipeListener) connect(h windows.Handle) error {
	ev, err := windows.CreateEvent(nil, 1, 0, nil)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(ev)
	ov := &windows.Overlapped{HEvent: ev}
	switch err := windows.ConnectNamedPipe(h, ov); {
	case err == nil, errors.Is(err, windows.ERROR_PIPE_CONNECTED):
		return nil // a client came between CreateNamedPipe and now
	case !errors.Is(err, windows.ERROR_IO_PENDING):
		return fmt.Errorf("waiting for a client: %w", err)
	}
	which, err := windows.WaitForMultipleObjects([]windows.Handle{ev, l.stop}, false, windows.INFINITE)
	var n uint32
	if err != nil || which != windows.WAIT_OBJECT_0 {
		windows.CancelIoEx(h, ov)
		windows.GetOverlappedResult(h, ov, &n, true)
		if l.closed.Load() {
			return net.ErrClosed
		}
		return fmt.Errorf("waiting for a client: %v", err)
	}
	if err := windows.GetOverlappedResult(h, ov, &n, false); err != nil {
		return fmt.Errorf("waiting for a client: %w", err)
	}
	return nil
}

// Close stops Accept and removes the listening instance; connections
// already accepted stay open.
func (l *pipeListener) Close() error {
	if l.closed.Swap(true) {
		return nil
	}
	windows.SetEvent(l.stop)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.next != 0 {
		windows.CloseHandle(l.next)
		l.next = 0
	}
	return windows.CloseHandle(l.stop)
}

func (l *pipeListener) Addr() net.Addr { return pipeAddr(l.name) }

// dial opens the daemon's pipe, waiting while every instance is busy
// (between two Accepts), until ctx ends.
func dial(ctx context.Context, name string) (net.Conn, error) {
	n, err := windows.UTF16PtrFromString(name)
	if err != nil {
		return nil, err
	}
	for {
		h, err := windows.CreateFile(n, windows.GENERIC_READ|windows.GENERIC_WRITE, 0, nil, windows.OPEN_EXISTING,
			windows.FILE_FLAG_OVERLAPPED|securityIdentification, 0)
		if err == nil {
			return newPipeConn(h, false, name)
		}
		if !errors.Is(err, windows.ERROR_PIPE_BUSY) {
			return nil, &net.OpError{Op: "dial", Net: "pipe", Addr: pipeAddr(name), Err: err}
		}
		select {
		case <-ctx.Done():
			return nil, &net.OpError{Op: "dial", Net: "pipe", Addr: pipeAddr(name), Err: ctx.Err()}
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// pipeConn is one end of a connected pipe instance as a net.Conn.
type pipeConn struct {
	h      windows.Handle
	server bool // the daemon's end (else the client's)
	name   string
	closed atomic.Bool
	// ops holds Close back while a read or write uses the handle; Close
	// cancels them first.
	ops        sync.RWMutex
	rmu, wmu   sync.Mutex // one read and one write at a time
	rdl, wdl   pipeDeadline
	rev, wev   windows.Handle // each direction's event
	closeOnce  sync.Once
	closeError error
}

func newPipeConn(h windows.Handle, server bool, name string) (*pipeConn, error) {
	rev, err := windows.CreateEvent(nil, 1, 0, nil)
	if err != nil {
		windows.CloseHandle(h)
		return nil, err
	}
	wev, err := windows.CreateEvent(nil, 1, 0, nil)
	if err != nil {
		windows.CloseHandle(rev)
		windows.CloseHandle(h)
		return nil, err
	}
	return &pipeConn{h: h, server: server, name: name, rev: rev, wev: wev}, nil
}

func (c *pipeConn) Read(b []byte) (int, error) {
	c.rmu.Lock()
	defer c.rmu.Unlock()
	n, err := c.io(true, b)
	if err != nil && (errors.Is(err, windows.ERROR_BROKEN_PIPE) || errors.Is(err, windows.ERROR_PIPE_NOT_CONNECTED) || errors.Is(err, windows.ERROR_NO_DATA)) {
		return n, io.EOF
	}
	return n, err
}

func (c *pipeConn) Write(b []byte) (int, error) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	total := 0
	for total < len(b) {
		n, err := c.io(false, b[total:])
		total += n
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// io runs one overlapped read or write and waits for it, cancelling it
// when its deadline passes or the connection is closed.
func (c *pipeConn) io(read bool, b []byte) (int, error) {
	c.ops.RLock()
	defer c.ops.RUnlock()
	if c.closed.Load() {
		return 0, net.ErrClosed
	}
	dl, ev := &c.wdl, c.wev
	if read {
		dl, ev = &c.rdl, c.rev
	}
	if dl.passed() {
		return 0, os.ErrDeadlineExceeded
	}
	if len(b) == 0 {
		return 0, nil
	}
	windows.ResetEvent(ev)
	ov := &windows.Overlapped{HEvent: ev}
	var n uint32
	var err error
	if read {
		err = windows.ReadFile(c.h, b, &n, ov)
	} else {
		err = windows.WriteFile(c.h, b, &n, ov)
	}
	if errors.Is(err, windows.ERROR_IO_PENDING) {
		cancel := func() { windows.CancelIoEx(c.h, ov) }
		dl.start(cancel)
		if c.closed.Load() {
			cancel() // Close came between the check above and the I/O
		}
		err = windows.GetOverlappedResult(c.h, ov, &n, true)
		fired := dl.stop()
		if errors.Is(err, windows.ERROR_OPERATION_ABORTED) {
			switch {
			case c.closed.Load():
				err = net.ErrClosed
			case fired:
				err = os.ErrDeadlineExceeded
			}
		}
	}
	return int(n), err
}

// Close cancels the reads and writes under way and closes the handle
// once they have returned.
func (c *pipeConn) Close() error {
	c.closeOnce.Do(func() {
		c.closed.Store(true)
		windows.CancelIoEx(c.h, nil)
		c.ops.Lock()
		defer c.ops.Unlock()
		c.closeError = windows.CloseHandle(c.h)
		windows.CloseHandle(c.rev)
		windows.CloseHandle(c.wev)
	})
	return c.closeError
}

func (c *pipeConn) LocalAddr() net.Addr  { return pipeAddr(c.name) }
func (c *pipeConn) RemoteAddr() net.Addr { return pipeAddr(c.name) }

func (c *pipeConn) SetDeadline(t time.Time) error {
	c.rdl.set(t)
	c.wdl.set(t)
	return nil
}

func (c *pipeConn) SetReadDeadline(t time.Time) error  { c.rdl.set(t); return nil }
func (c *pipeConn) SetWriteDeadline(t time.Time) error { c.wdl.set(t); return nil }

// pipeDeadline is one direction's deadline: a timer that cancels the
// operation under way when it passes, moved when the deadline moves.
type pipeDeadline struct {
	mu     sync.Mutex
	t      time.Time
	timer  *time.Timer
	cancel func() // the operation under way, or nil
	op     uint64 // counts operations, so a late timer spares the next one
	fired  bool   // the deadline cancelled the operation under way
}

func (d *pipeDeadline) passed() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return !d.t.IsZero() && !time.Now().Before(d.t)
}

func (d *pipeDeadline) set(t time.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.t = t
	d.arm()
}

// start registers the operation under way by its cancel function.
func (d *pipeDeadline) start(cancel func()) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.op++
	d.cancel, d.fired = cancel, false
	d.arm()
}

// stop ends the operation under way and says whether its deadline
// cancelled it.
func (d *pipeDeadline) stop() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.cancel = nil
	if d.timer != nil {
		d.timer.Stop()
		d.timer = nil
	}
	return d.fired
}

// arm (d.mu held) sets the timer of the operation under way for d.t.
func (d *pipeDeadline) arm() {
	if d.timer != nil {
		d.timer.Stop()
		d.timer = nil
	}
	if d.cancel == nil || d.t.IsZero() {
		return
	}
	wait := time.Until(d.t)
	if wait <= 0 {
		d.fired = true
		d.cancel()
		return
	}
	op := d.op
	d.timer = time.AfterFunc(wait, func() {
		d.mu.Lock()
		defer d.mu.Unlock()
		if d.op == op && d.cancel != nil {
			d.fired = true
			d.cancel()
		}
	})
}
