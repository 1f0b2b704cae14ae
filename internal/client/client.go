// Package client talks to the daemon for the CLI and the MCP server: it
// starts the daemon when none answers (under a lock, so racing starters end
// up with one), authenticates with the per-install secret, and runs calls
// concurrently over one connection.
package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/ipc"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/secret"
	"github.com/browser-bridge/browser-bridge/internal/tool"
	"github.com/browser-bridge/browser-bridge/internal/version"
)

// CallSlack is how much longer than a command's own deadline a client waits
// for the daemon's answer (docs/design.md#wire-protocol), so the daemon's own timeout error
// arrives before the client gives up.
const CallSlack = 5 * time.Second

// Client is one authenticated connection to the daemon.
type Client struct {
	conn      *ipc.Conn
	DaemonPID int
	nextID    atomic.Uint64
	mu        sync.Mutex
	pending   map[string]*pendingCall
	err       error // set once the connection has failed
	// slack is CallSlack; tests shorten it.
	slack time.Duration
}

// pendingCall is a call waiting for its reply; done closes when Call has
// returned, so the reader never blocks on a call that gave up.
type pendingCall struct {
	ch   chan reply
	done chan struct{}
}

type reply struct {
	Result   json.RawMessage `json:"result"`
	Error    *protocol.Error `json:"error"`
	Type     string          `json:"type"`
	ID       string          `json:"id"`
	Message  string          `json:"message"`
	progress bool
}

// Connect connects to the daemon of layout as session, starting the daemon
// first if none answers. With EnvSocket set, it and ConnectAgent connect
// to that socket instead, as ConnectSocket does.
func Connect(ctx context.Context, layout paths.Layout, session string) (*Client, error) {
	return connectAs(ctx, layout, protocol.Auth{Session: session})
}

// ConnectAgent connects as an agent's session (an MCP connection): when
// its last connection ends, the daemon closes the tabs of the session's
// own workspace after a grace period (docs/design.md#workspaces; a restarted client that
// reconnects in time keeps them).
func ConnectAgent(ctx context.Context, layout paths.Layout, session string) (*Client, error) {
	return connectAs(ctx, layout, protocol.Auth{Session: session, EndsWithConnection: true})
}

func connectAs(ctx context.Context, layout paths.Layout, who protocol.Auth) (*Client, error) {
	began := time.Now()
	if c, ok, err := connectForwarded(ctx, who); ok || err != nil {
		return c, gaveUp(ctx, err, time.Since(began), " (on the machine the socket is forwarded from)")
	}
	c, err := connectLocal(ctx, layout, who)
	return c, gaveUp(ctx, err, time.Since(began), fmt.Sprintf(" (its pid is in %s)", layout.DaemonLock()))
}

// gaveUp is err, from a connection that failed after took, with the
// stable code timeout when the caller's ctx ended it or the daemon ran
// but did not take the connection: the daemon gives a call that ran out
// of time or was cancelled the same code. Without it the CLI said
// internal_error, after 25 s of tries whatever the call's deadline (QA on
// main). The result still wraps err (and so ctx's error). what ends the
// sentence of a timeout, which ends "stop it": where the daemon's pid is.
func gaveUp(ctx context.Context, err error, took time.Duration, what string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(ctx.Err(), context.Canceled):
		return fmt.Errorf("%w: %w", protocol.Errorf(protocol.CodeTimeout, "connecting to the daemon was cancelled by the caller"), err)
	case errors.Is(err, ErrDaemonBusy):
		// waitBusy counts only its own tries, which may have begun when
		// the time was all but gone ("in 0s of tries").
		return fmt.Errorf("%w: %w", protocol.Errorf(protocol.CodeTimeout, "the daemon runs but did not take the connection within %s: another process may be flooding it with connections, or it is stuck; try again, and if it stays so, stop it%s", took.Round(100*time.Millisecond), what), err)
	case ended(ctx) && errors.Is(err, os.ErrDeadlineExceeded):
		// The handshake's own error says what happened (ipc.Dial).
		return fmt.Errorf("%w: %w", protocol.Errorf(protocol.CodeTimeout, "%v%s", err, what), err)
	case ended(ctx):
		why := ""
		if err != ctx.Err() {
			why = fmt.Sprintf(" (%v)", err)
		}
		return fmt.Errorf("%w: %w", protocol.Errorf(protocol.CodeTimeout, "the daemon did not answer within %s%s: it is busy or stuck, or slow to start; try again, and if it stays so, stop it%s", took.Round(100*time.Millisecond), why, what), err)
	}
	return err
}

// ended reports whether ctx has ended or its deadline has passed: a
// connection's deadline, set from ctx's, may fire before ctx's own timer.
func ended(ctx context.Context) bool {
	dl, ok := ctx.Deadline()
	return ctx.Err() != nil || ok && !time.Now().Before(dl)
}

// connectLocal is connectAs for the daemon of layout.
func connectLocal(ctx context.Context, layout paths.Layout, who protocol.Auth) (*Client, error) {
	c, ok, err := dial(ctx, layout, who)
	if err != nil {
		if ended(ctx) {
			// The dial's own error says why the time ran out (the
			// daemon took the connection but not the handshake);
			// EnsureDaemon's would only be ctx's.
			return nil, err
		}
		if err2 := EnsureDaemon(ctx, layout); err2 != nil {
			if ended(ctx) && errors.Is(err, os.ErrDeadlineExceeded) && !errors.Is(err2, ErrDaemonBusy) {
				return nil, err // as above: the handshake went unanswered
			}
			return nil, err2
		}
		c, ok, err = dial(ctx, layout, who)
		if err != nil {
			return nil, fmt.Errorf("connecting to the daemon at %s: %w", layout.Socket, err)
		}
	}
	if ok.Version != version.Version {
		// A daemon of another version (the binary was upgraded while it
		// ran) would serve this client wrongly: ask it to exit, then start
		// this version's daemon. Hosts redial the new one.
		if c, ok, err = replaceDaemon(ctx, layout, who, c, ok.DaemonPID); err != nil {
			return nil, err
		}
	}
	cl := &Client{conn: c, DaemonPID: ok.DaemonPID, pending: map[string]*pendingCall{}, slack: CallSlack}
	go cl.readLoop()
	return cl, nil
}

// dial connects and authenticates as who (its session and flags).
func dial(ctx context.Context, layout paths.Layout, who protocol.Auth) (*ipc.Conn, protocol.AuthOK, error) {
	s, err := secret.Load(layout.Secret())
	if err != nil {
		return nil, protocol.AuthOK{}, err
	}
	who.Role, who.Secret, who.PID = protocol.RoleClient, s, os.Getpid()
	return ipc.Dial(ctx, layout.Socket, who)
}

// Close closes the connection; calls in flight fail.
func (c *Client) Close() error { return c.conn.Close() }

func (c *Client) readLoop() {
	var err error
	for {
		var r reply
		if err = c.conn.RecvJSON(&r); err != nil {
			break
		}
		r.progress = r.Type == protocol.TypeProgress
		c.mu.Lock()
		p := c.pending[r.ID]
		c.mu.Unlock()
		if p == nil {
			continue
		}
		if r.progress {
			select {
			case p.ch <- r:
			default: // a slow reader misses a progress message, never a reply
			}
			continue
		}
		select {
		case p.ch <- r:
		case <-p.done:
		}
	}
	// A frame that could not be read leaves nothing to trust on this
	// connection: hang up, so the daemon cancels the calls it was still
	// running for us (they fail here) instead of carrying them out.
	c.conn.Close()
	c.mu.Lock()
	if errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) {
		c.err = fmt.Errorf("the daemon closed the connection: %w", err)
	} else {
		c.err = fmt.Errorf("reading from the daemon: %w", err)
	}
	for id, p := range c.pending {
		close(p.ch)
		delete(c.pending, id)
	}
	c.mu.Unlock()
}

// Call runs one action. input is the tool input object. progress, if not
// nil, receives the daemon's progress messages. The wait is bounded by the
// action's deadline plus CallSlack; ctx may cancel it sooner, which also
// cancels the call in the daemon.
func (c *Client) Call(ctx context.Context, input any, deadline time.Duration, progress func(string)) (json.RawMessage, error) {
	raw, err := json.Marshal(input)
	if err != nil {
		return nil, err
	}
	return c.roundTrip(ctx, deadline, progress, func(id string) any {
		return protocol.Call{ID: id, Type: protocol.TypeCall, Input: raw}
	})
}

// Verb runs one extension verb for a program (protocol.ProgramVerbs):
// the Hive-compatible context, tab and cdp verbs, and the WebSocket
// settings. params must marshal to a JSON object.
func (c *Client) Verb(ctx context.Context, verb string, params any, progress func(string)) (json.RawMessage, error) {
	return c.VerbIn(ctx, "", verb, params, progress)
}

// VerbIn is Verb in the browser named by browser (a label or slot from
// status); "" is the browser of the connection's first verb (the default
// browser then).
func (c *Client) VerbIn(ctx context.Context, browser, verb string, params any, progress func(string)) (json.RawMessage, error) {
	raw, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("encoding the params of %s: %w", verb, err)
	}
	return c.roundTrip(ctx, tool.DefaultDeadline, progress, func(id string) any {
		return protocol.VerbCall{ID: id, Type: protocol.TypeVerb, Verb: verb, Params: raw, Browser: browser}
	})
}

// roundTrip sends the message msg(id) and waits for its reply, passing
// progress on, within deadline plus the slack.
func (c *Client) roundTrip(ctx context.Context, deadline time.Duration, progress func(string), msg func(id string) any) (json.RawMessage, error) {
	// The variable turns the bridge off for whoever has it in their
	// environment, whatever the daemon (started by someone else) has.
	if os.Getenv(protocol.EnvDisable) == "1" {
		return nil, protocol.Errorf(protocol.CodeBridgeDisabled, "the bridge is disabled in this environment (%s=1); unset it to use the browser", protocol.EnvDisable)
	}
	id := strconv.FormatUint(c.nextID.Add(1), 10)
	p := &pendingCall{ch: make(chan reply, 8), done: make(chan struct{})}
	ch := p.ch
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return nil, c.err
	}
	c.pending[id] = p
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
		close(p.done)
	}()
	if err := c.conn.SendJSON(msg(id)); err != nil {
		return nil, fmt.Errorf("sending to the daemon: %w", err)
	}
	wait := deadline + c.slack
	t := time.NewTimer(wait)
	defer t.Stop()
	for {
		select {
		case r, ok := <-ch:
			if !ok {
				return nil, protocol.Errorf(protocol.CodeInternal, "the daemon went away during the call; run it again (the daemon restarts by itself)")
			}
			if r.progress {
				if progress != nil {
					progress(r.Message)
				}
				continue
			}
			if r.Error != nil {
				return nil, r.Error
			}
			return r.Result, nil
		case <-t.C:
			c.conn.SendJSON(protocol.Call{ID: id, Type: protocol.TypeCancel})
			return nil, protocol.Errorf(protocol.CodeTimeout, "the daemon did not answer within %s; check `browser-bridge status` and the daemon log", wait)
		case <-ctx.Done():
			c.conn.SendJSON(protocol.Call{ID: id, Type: protocol.TypeCancel})
			return nil, ctx.Err()
		}
	}
}

// replaceDaemon asks the daemon on c to exit, waits for it to go, starts
// a daemon of this version and connects to it.
func replaceDaemon(ctx context.Context, layout paths.Layout, who protocol.Auth, c *ipc.Conn, pid int) (*ipc.Conn, protocol.AuthOK, error) {
	c.SendJSON(protocol.Call{ID: "shutdown", Type: protocol.TypeShutdown})
	c.Close()
	for i := 0; i < 100 && answers(ctx, layout); i++ {
		time.Sleep(50 * time.Millisecond)
	}
	if err := EnsureDaemon(ctx, layout); err != nil {
		return nil, protocol.AuthOK{}, err
	}
	nc, ok, err := dial(ctx, layout, who)
	if err != nil {
		return nil, ok, err
	}
	if ok.Version != version.Version {
		nc.Close()
		return nil, ok, protocol.Errorf(protocol.CodeVersionMismatch, "the daemon (pid %d) is version %s and did not make way for version %s; stop it and run the command again", ok.DaemonPID, ok.Version, version.Version)
	}
	return nc, ok, nil
}

// ErrNoDaemon is returned when no daemon was running and one could not be
// started.
var ErrNoDaemon = errors.New("the daemon is not running and did not start")

// ErrDaemonBusy is returned when the daemon runs but did not take the
// connection within the caller's deadline.
var ErrDaemonBusy = errors.New("the daemon is running but busy")
