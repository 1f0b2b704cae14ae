// Package fakebrowser is a scripted stand-in for the Browser Bridge
// extension (extension/dispatch.js behind its transport, with Chrome behind
// it), for unit tests of the Link, the daemon and the actions without
// Chromium. It speaks the extension's side of the wire over any
// browser.Conn: it says hello, answers each verb from a handler the test
// sets, honours command.cancel, and records every command it gets.
//
// Error paths are scripted as go-rod's test harness does (setup_test.go):
// fail the Nth call of a verb with a code, delay it, or drop the connection
// when it arrives.
package fakebrowser

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// Call is one command the fake received.
type Call struct {
	ID   string
	Verb string
	// Frame is the whole command object: {id, type, ...params}.
	Frame json.RawMessage
}

// Decode decodes the call's params into v (id and type are ignored by a
// params type).
func (c Call) Decode(v any) error { return json.Unmarshal(c.Frame, v) }

// Handler answers one command, as a handler in extension/handlers does: a
// result (marshalled to JSON), or an error (a *protocol.Error keeps its
// code; any other error is sent as internal_error). ctx ends when the
// daemon cancels the command or the connection drops; the answer is sent
// anyway, as the extension does, and goes nowhere.
type Handler func(ctx context.Context, c Call) (any, error)

// Reply is a Handler that always answers v.
func Reply(v any) Handler {
	return func(context.Context, Call) (any, error) { return v, nil }
}

// Typed is a Handler that decodes the params into a P first (a protocol
// params type).
func Typed[P any](fn func(ctx context.Context, p P) (any, error)) Handler {
	return func(ctx context.Context, c Call) (any, error) {
		var p P
		if err := c.Decode(&p); err != nil {
			return nil, protocol.Errorf(protocol.CodeInvalidArgument, "decoding the params of %s: %v", c.Verb, err)
		}
		return fn(ctx, p)
	}
}

// fault is what the Nth call of a verb does instead of (or before) its
// handler.
type fault struct {
	err   *protocol.Error
	delay time.Duration
	drop  bool
}

// instances numbers the fakes, so that each has its own instance ID.
var instances atomic.Int64

// Browser is one fake extension. It serves one connection at a time.
type Browser struct {
	// Hello is what the fake says first on every connection; New fills it
	// in with the current protocol version and a fresh instance ID.
	Hello protocol.Hello

	mu       sync.Mutex
	handlers map[string]Handler
	faults   map[string]map[int]fault // verb → Nth call (1-based; 0: every call)
	counts   map[string]int
	calls    []Call
	running  map[string]context.CancelFunc
	conn     browser.Conn
	changed  chan struct{} // closed when a call is recorded
}

// New returns a fake that answers browser.state with an empty browser (a
// daemon asks for it after every hello) and bridge.ping; any other verb
// fails with unknown_verb until Handle sets it.
func New() *Browser {
	n := instances.Add(1)
	b := &Browser{
		Hello: protocol.Hello{
			Type:        protocol.TypeHello,
			Version:     "0.0.0-fake",
			Protocol:    protocol.Version,
			ExtensionID: protocol.DevExtensionID,
			InstanceID:  fmt.Sprintf("fake-%d", n),
		},
		handlers: map[string]Handler{},
		faults:   map[string]map[int]fault{},
		counts:   map[string]int{},
		running:  map[string]context.CancelFunc{},
		changed:  make(chan struct{}),
	}
	b.Handle("browser.state", Reply(protocol.BrowserState{LastFocusedWindowID: -1, Windows: []protocol.WindowInfo{}, Running: []string{}}))
	b.Handle("bridge.ping", Reply(protocol.BridgePingResult{Pong: true}))
	return b
}

// Handle makes h answer verb.
func (b *Browser) Handle(verb string, h Handler) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.handlers[verb] = h
}

// FailNth makes the nth call of verb (counted from 1 over the fake's life;
// 0: every call) fail with code and message instead of running its
// handler.
func (b *Browser) FailNth(verb string, n int, code, message string) {
	b.setFault(verb, n, func(f *fault) { f.err = protocol.Errorf(code, "%s", message) })
}

// DelayNth makes the nth call of verb (0: every call) wait d before it is
// answered; a cancel or a drop ends the wait.
func (b *Browser) DelayNth(verb string, n int, d time.Duration) {
	b.setFault(verb, n, func(f *fault) { f.delay = d })
}

// DropNth makes the connection drop when the nth call of verb (0: every
// call) arrives, before any answer: the extension's service worker stopped,
// or Chrome closed the native port.
func (b *Browser) DropNth(verb string, n int) {
	b.setFault(verb, n, func(f *fault) { f.drop = true })
}

func (b *Browser) setFault(verb string, n int, set func(*fault)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.faults[verb] == nil {
		b.faults[verb] = map[int]fault{}
	}
	f := b.faults[verb][n]
	set(&f)
	b.faults[verb][n] = f
}

// Connect plugs the fake into l over an in-memory pipe, as a native host
// does, and returns once l has taken its hello (or an error after 5 s).
func (b *Browser) Connect(l *browser.Link) error {
	// A hello of an earlier connection of this fake does not count.
	start := time.Now()
	daemonSide, extSide := browser.Pipe()
	go l.Serve(daemonSide)
	go b.Serve(extSide)
	want := b.Hello.InstanceID
	if want == "" {
		want = b.Hello.ExtensionID
	}
	deadline := start.Add(5 * time.Second)
	for {
		// Another browser may be the link's default: look at them all.
		for _, info := range l.Browsers() {
			if info.Instance == want && !info.ConnectedAt.Before(start) {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the link did not take the fake's hello within 5 s (it has %+v)", l.Browsers())
		}
		time.Sleep(time.Millisecond)
	}
}

// Serve speaks the extension's side on c until c ends: hello first, then
// an answer to every command, each in its own goroutine as the extension's
// async handlers run. Commands still running when c ends see their ctx
// cancelled.
func (b *Browser) Serve(c browser.Conn) error {
	b.mu.Lock()
	b.conn = c
	hello := b.Hello
	b.mu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := b.send(c, hello); err != nil {
		return err
	}
	for {
		frame, err := c.Recv()
		if err != nil {
			return err
		}
		var head struct {
			ID   string `json:"id"`
			Type string `json:"type"`
		}
		if err := json.Unmarshal(frame, &head); err != nil {
			continue
		}
		call := Call{ID: head.ID, Verb: head.Type, Frame: append(json.RawMessage(nil), frame...)}
		f, h := b.record(call)
		if f.drop {
			c.Close()
			return nil
		}
		if call.Verb == "command.cancel" {
			b.send(c, b.cancel(call))
			continue
		}
		cctx, ccancel := context.WithCancel(ctx)
		b.mu.Lock()
		b.running[call.ID] = ccancel
		b.mu.Unlock()
		go func() {
			defer func() {
				b.mu.Lock()
				delete(b.running, call.ID)
				b.mu.Unlock()
				ccancel()
			}()
			b.send(c, answer(cctx, call, f, h))
		}()
	}
}

// record notes the call and returns its fault and handler.
func (b *Browser) record(c Call) (fault, Handler) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.calls = append(b.calls, c)
	close(b.changed)
	b.changed = make(chan struct{})
	b.counts[c.Verb]++
	f, ok := b.faults[c.Verb][b.counts[c.Verb]]
	if !ok {
		f = b.faults[c.Verb][0]
	}
	return f, b.handlers[c.Verb]
}

// cancel answers command.cancel as extension/dispatch.js does: it stops
// the command's handler and says whether it was running.
func (b *Browser) cancel(c Call) protocol.Reply {
	var p protocol.CommandCancelParams
	c.Decode(&p)
	b.mu.Lock()
	stop := b.running[p.CommandID]
	b.mu.Unlock()
	if stop != nil {
		stop()
	}
	return protocol.Reply{ID: c.ID, Result: protocol.CommandCancelResult{Cancelled: stop != nil}}
}

// answer runs one command: its fault, then its handler.
func answer(ctx context.Context, c Call, f fault, h Handler) protocol.Reply {
	if f.delay > 0 {
		select {
		case <-time.After(f.delay):
		case <-ctx.Done():
			return protocol.Reply{ID: c.ID, Error: protocol.Errorf(protocol.CodeTimeout, "the command was cancelled by the caller")}
		}
	}
	if f.err != nil {
		return protocol.Reply{ID: c.ID, Error: f.err}
	}
	if h == nil {
		return protocol.Reply{ID: c.ID, Error: protocol.Errorf(protocol.CodeUnknownVerb, "the fake browser has no handler for %q", c.Verb)}
	}
	res, err := h(ctx, c)
	if err != nil {
		return protocol.Reply{ID: c.ID, Error: protocol.AsError(err)}
	}
	if res == nil {
		res = struct{}{} // the extension answers {} for a handler that returns nothing
	}
	return protocol.Reply{ID: c.ID, Result: res}
}

func (b *Browser) send(c browser.Conn, v any) error {
	frame, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return c.Send(frame)
}

// Send writes v (a hello, a late reply, any frame) to the daemon on the
// current connection.
func (b *Browser) Send(v any) error {
	b.mu.Lock()
	c := b.conn
	b.mu.Unlock()
	if c == nil {
		return fmt.Errorf("the fake browser is not connected")
	}
	return b.send(c, v)
}

// Drop closes the current connection, as a stopped service worker does.
func (b *Browser) Drop() {
	b.mu.Lock()
	c := b.conn
	b.mu.Unlock()
	if c != nil {
		c.Close()
	}
}

// Calls returns the commands received so far, of verb only unless verb is
// "".
func (b *Browser) Calls(verb string) []Call {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []Call
	for _, c := range b.calls {
		if verb == "" || c.Verb == verb {
			out = append(out, c)
		}
	}
	return out
}

// WaitCalls waits until n commands of verb have arrived and returns them,
// or returns an error when ctx ends first.
func (b *Browser) WaitCalls(ctx context.Context, verb string, n int) ([]Call, error) {
	for {
		b.mu.Lock()
		changed := b.changed
		b.mu.Unlock()
		if calls := b.Calls(verb); len(calls) >= n {
			return calls, nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return b.Calls(verb), fmt.Errorf("waiting for %d %s calls: %w (%d arrived)", n, verb, ctx.Err(), len(b.Calls(verb)))
		}
	}
}
