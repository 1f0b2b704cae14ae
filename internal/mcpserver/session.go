package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/client"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// Daemon is a connection to the daemon; *client.Client is one.
type Daemon interface {
	Call(ctx context.Context, input any, deadline time.Duration, progress func(string)) (json.RawMessage, error)
	Close() error
}

// DialFunc connects to the daemon as session ("session:<id>").
type DialFunc func(ctx context.Context, session string) (Daemon, error)

// DialDaemon connects to the daemon of layout, starting it when none runs.
func DialDaemon(layout paths.Layout) DialFunc {
	return func(ctx context.Context, session string) (Daemon, error) {
		return client.ConnectAgent(ctx, layout, session)
	}
}

// session is one MCP connection's link to the daemon. The daemon resolves
// the default workspace from its name (docs/design.md#workspaces), so each MCP connection
// gets its own connection to the daemon, made on first use and remade
// after the daemon restarts.
type session struct {
	name string
	dial DialFunc

	mu     sync.Mutex
	d      Daemon
	closed bool // the MCP connection has ended
}

// newSession names a session after the client ("session:claude-code-1a2b"),
// so the user can tell the agents' tab groups apart; the random suffix
// keeps two runs of one client apart.
func newSession(clientName string, dial DialFunc) *session {
	return &session{name: "session:" + sessionID(clientName), dial: dial}
}

func sessionID(clientName string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(clientName) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
		if b.Len() >= 14 {
			break
		}
	}
	prefix := strings.Trim(b.String(), "-")
	if prefix == "" {
		prefix = "mcp"
	}
	return prefix + "-" + strings.ToLower(rand.Text()[:4])
}

// daemon returns the session's connection, connecting first if needed.
func (s *session) daemon(ctx context.Context) (Daemon, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.d != nil {
		return s.d, nil
	}
	if s.closed {
		return nil, protocol.Errorf(protocol.CodeInternal, "the MCP connection has ended")
	}
	d, err := s.dial(ctx, s.name)
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeInternal, "cannot reach the daemon: %v; run `browser-bridge status` to see why", err)
	}
	s.d = d
	return d, nil
}

// drop forgets a connection that failed, so the next call redials.
func (s *session) drop(d Daemon) {
	s.mu.Lock()
	if s.d == d {
		s.d = nil
	}
	s.mu.Unlock()
	d.Close()
}

// call sends one input to the daemon. A connection that had already failed
// (the daemon restarted) is remade and the call sent again: nothing ran.
func (s *session) call(ctx context.Context, raw json.RawMessage, deadline time.Duration, progress func(string)) (json.RawMessage, error) {
	for attempt := 0; ; attempt++ {
		d, err := s.daemon(ctx)
		if err != nil {
			return nil, err
		}
		res, err := d.Call(ctx, raw, deadline, progress)
		switch {
		case err == nil, ctx.Err() != nil:
			return res, err
		case protocol.CodeOf(err) == "":
			// The connection failed before the call reached the daemon.
			s.drop(d)
			if attempt == 0 {
				continue
			}
		case protocol.CodeOf(err) == protocol.CodeInternal:
			// Maybe the daemon went away during the call: it may have
			// run, so do not repeat it, but redial next time.
			s.drop(d)
		}
		return nil, err
	}
}

// close ends the session's connection, cancelling its calls in the daemon.
func (s *session) close() {
	s.mu.Lock()
	d := s.d
	s.d, s.closed = nil, true
	s.mu.Unlock()
	if d != nil {
		d.Close()
	}
}

// isCancel reports whether err is the caller's cancellation or deadline.
func isCancel(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}
