// Package nmhost is the native messaging host: the process Chrome starts for
// the extension. It checks the caller's origin, speaks Chrome's framing on
// stdio, presents the per-install secret to the daemon and relays messages
// both ways. It keeps Chrome's port open while the daemon is away and
// redials until it is back, so a daemon restart is invisible to Chrome.
package nmhost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/ipc"
	"github.com/browser-bridge/browser-bridge/internal/nmframe"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/secret"
)

// Redial backoff while the daemon is away.
const (
	redialMin = 50 * time.Millisecond
	redialMax = time.Second
)

// Host relays between Chrome (stdio) and the daemon (socket).
type Host struct {
	Layout paths.Layout
	In     io.Reader // from Chrome
	Out    io.Writer // to Chrome
	Log    *slog.Logger

	outMu sync.Mutex

	mu     sync.Mutex
	daemon *ipc.Conn
	hello  []byte // the extension's last hello, replayed to a new daemon

	// lost receives the first failed write to Chrome: its end of the pipe
	// is gone, so the host has nothing left to do.
	lost chan error
}

// ErrOriginRefused is returned when Chrome started the host for an origin
// that is not allowed.
var ErrOriginRefused = errors.New("origin refused")

// CheckOrigin returns an error unless caller is allowed.
func CheckOrigin(caller string, allowed []string) error {
	if !OriginAllowed(caller, allowed) {
		return fmt.Errorf("%w: %q is not an allowed extension origin (allowed: %v; add it with %s)", ErrOriginRefused, caller, allowed, EnvOrigins)
	}
	return nil
}

// Run relays until Chrome closes stdin (a clean exit), a write to Chrome
// fails (Chrome closed the pipe: an error) or ctx ends.
func (h *Host) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	h.lost = make(chan error, 1)
	go h.daemonLoop(ctx)
	done := make(chan error, 1)
	go func() { done <- h.chromeLoop() }()
	var err error
	select {
	case err = <-done:
	case err = <-h.lost:
		// Chrome closes the host's pipes when it drops the port (or got a
		// frame over 1 MiB); stdin may not say so yet, and without this
		// the host would keep taking commands it cannot deliver.
		err = fmt.Errorf("writing to Chrome: %w", err)
	case <-ctx.Done(): // SIGTERM: leave without waiting for stdin to end
		err = ctx.Err()
	}
	cancel()
	h.mu.Lock()
	if h.daemon != nil {
		h.daemon.Close()
	}
	h.mu.Unlock()
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// chromeLoop reads Chrome's frames until stdin ends.
func (h *Host) chromeLoop() error {
	r := &nmframe.Reader{R: h.In, Limit: nmframe.MaxFromChrome, Dir: "from Chrome", Skip: true}
	for {
		frame, err := r.Read()
		if errors.Is(err, nmframe.ErrTooLarge) {
			// Chrome itself never sends more than 64 MiB; if something does,
			// drop that frame and carry on.
			h.Log.Error("dropped frame from Chrome", "err", err)
			continue
		}
		if err != nil {
			return err
		}
		env, err := protocol.Decode(frame)
		if err != nil {
			h.Log.Warn("bad frame from Chrome", "err", err)
			continue
		}
		if env.Type == protocol.TypePing {
			if err := h.toChrome([]byte(`{"type":"pong"}`)); err != nil {
				return fmt.Errorf("writing to Chrome: %w", err)
			}
			continue
		}
		// Recording a hello and choosing where it goes is one step, so
		// that dial either replays it or finds it forwarded, never both.
		h.mu.Lock()
		if env.Type == protocol.TypeHello {
			h.hello = frame
		}
		d := h.daemon
		h.mu.Unlock()
		if d == nil {
			// A reply for a daemon that is gone has nobody to go to; the
			// daemon failed that call when the connection dropped.
			continue
		}
		if err := d.Send(frame); err != nil {
			d.Close() // daemonLoop notices and redials
		}
	}
}

// daemonLoop keeps a daemon connection up, redialling with backoff.
func (h *Host) daemonLoop(ctx context.Context) {
	wait := redialMin
	logged := false
	for ctx.Err() == nil {
		c, err := h.dial(ctx)
		if err != nil {
			if !logged {
				h.Log.Info("daemon not reachable; will keep trying", "socket", h.Layout.Socket, "err", err)
				logged = true
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
			wait = min(wait*2, redialMax)
			continue
		}
		wait, logged = redialMin, false
		h.Log.Info("connected to daemon")
		h.serveDaemon(c)
		h.Log.Info("daemon connection lost; redialling")
	}
}

func (h *Host) dial(ctx context.Context) (*ipc.Conn, error) {
	s, err := secret.Load(h.Layout.Secret())
	if err != nil {
		return nil, err
	}
	c, _, err := ipc.Dial(ctx, h.Layout.Socket, protocol.Auth{Role: protocol.RoleHost, Secret: s, PID: os.Getpid()})
	if err != nil {
		return nil, err
	}
	// The hello goes out before the connection is published, under the
	// lock chromeLoop takes to record a new hello: so it is the first
	// frame on the connection (the daemon keeps only the first) and never
	// an older one than the extension's latest.
	h.mu.Lock()
	defer h.mu.Unlock()
	if ctx.Err() != nil { // Run has ended and closed h.daemon already
		c.Close()
		return nil, ctx.Err()
	}
	if h.hello != nil {
		if err := c.Send(h.hello); err != nil {
			c.Close()
			return nil, fmt.Errorf("replaying the hello: %w", err)
		}
	}
	h.daemon = c
	return c, nil
}

// serveDaemon relays the daemon's commands to Chrome until the connection
// ends. A command over Chrome's 1 MiB limit is never written (Chrome would
// close the pipes at once); the daemon gets an error reply instead.
func (h *Host) serveDaemon(c *ipc.Conn) {
	defer func() {
		h.mu.Lock()
		if h.daemon == c {
			h.daemon = nil
		}
		h.mu.Unlock()
		c.Close()
	}()
	for {
		frame, err := c.Recv()
		if err != nil {
			return
		}
		err = h.toChrome(frame)
		var tl *nmframe.TooLargeError
		if errors.As(err, &tl) {
			env, _ := protocol.Decode(frame)
			msg := fmt.Sprintf("the command is %d bytes; commands to the browser are limited to %d bytes (1 MiB) — send less data in one call", tl.Size, tl.Limit)
			h.Log.Warn("refused oversized command", "id", env.ID, "bytes", tl.Size)
			if env.ID != "" {
				b, _ := json.Marshal(protocol.Reply{ID: env.ID, Error: &protocol.Error{Code: protocol.CodeInvalidArgument, Message: msg}})
				c.Send(b)
			}
			continue
		}
		if err != nil {
			// Chrome is gone (EPIPE): Run ends with the error.
			h.Log.Error("writing to Chrome", "err", err)
			select {
			case h.lost <- err:
			default:
			}
			return
		}
	}
}

func (h *Host) toChrome(frame []byte) error {
	h.outMu.Lock()
	defer h.outMu.Unlock()
	return nmframe.Write(h.Out, frame, nmframe.MaxToChrome, "to Chrome")
}
