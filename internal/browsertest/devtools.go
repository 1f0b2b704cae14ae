package browsertest

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/websocket"
)

// A test's own way into the browser, beside the extension: the bridge
// refuses the extension's own pages (the built-in site rule
// chrome-extension://*) and must never press the hand-off's Done itself,
// so the tests of the user's side drive those as the user would, over
// Chrome's DevTools protocol on a debugging port only the test binary
// opens (--remote-debugging-port=0: Chrome picks the port and writes it
// in the profile's DevToolsActivePort).

// devtoolsArgs are added to the browser's command line.
const devtoolsArgs = "--remote-debugging-port=0 --remote-allow-origins=http://127.0.0.1"

// StartWithDevTools is Start with a DevTools port open for the test.
func StartWithDevTools() (*Bridge, error) {
	env, err := NewEnv()
	if err != nil {
		return nil, err
	}
	for i, kv := range env.Vars {
		if strings.HasPrefix(kv, "BROWSER_BRIDGE_BROWSER_ARGS=") {
			env.Vars[i] = kv + " " + devtoolsArgs
		}
	}
	return startIn(env)
}

// MainWithDevTools is Main with StartWithDevTools.
func MainWithDevTools(m *testing.M, bridge **Bridge) int {
	return mainWith(m, bridge, StartWithDevTools)
}

// DevTools is a browser-wide DevTools connection, with flattened sessions
// for the targets it attaches to.
type DevTools struct {
	ws      *websocket.Conn
	mu      sync.Mutex
	nextID  int
	pending map[int]devCall
	closed  bool
	// watchers get the events of one method (Watch).
	watchers map[string][]chan Event
}

// Event is a DevTools event: its method, params and the session it came
// from ("" for the browser's).
type Event struct {
	Method    string          `json:"method"`
	Params    json.RawMessage `json:"params"`
	SessionID string          `json:"sessionId"`
}

// Watch delivers the events of method from now on, until stop; events
// beyond the channel's room (256) are dropped, never waited for.
func (d *DevTools) Watch(method string) (events <-chan Event, stop func()) {
	ch := make(chan Event, 256)
	d.mu.Lock()
	if d.watchers == nil {
		d.watchers = map[string][]chan Event{}
	}
	d.watchers[method] = append(d.watchers[method], ch)
	d.mu.Unlock()
	return ch, func() {
		d.mu.Lock()
		defer d.mu.Unlock()
		list := d.watchers[method]
		for i, c := range list {
			if c == ch {
				d.watchers[method] = append(list[:i:i], list[i+1:]...)
				break
			}
		}
	}
}

// devCall is a command waiting for its reply, and the session it went to.
type devCall struct {
	ch      chan devReply
	session string
}

// ErrTargetGone is the error of a command to a session whose target went
// away (a frame removed, a tab closed) — before the command was sent, or
// while it was in flight. Chrome never answers a command in flight when
// its target is destroyed; the browser says Target.detachedFromTarget for
// the session instead, and the command fails then rather than wait for
// its context.
var ErrTargetGone = errors.New("the target went away")

type devReply struct {
	ID     int             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
	// gone: no reply will come, the session's target went away.
	gone bool
}

// DevTools connects to the browser of a bridge started with
// StartWithDevTools.
func (b *Bridge) DevTools(ctx context.Context) (*DevTools, error) {
	file := filepath.Join(b.Launch.Profile, "DevToolsActivePort")
	var lines []string
	for {
		if data, err := os.ReadFile(file); err == nil {
			if lines = strings.Split(strings.TrimSpace(string(data)), "\n"); len(lines) == 2 {
				break
			}
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("no %s: was the bridge started with StartWithDevTools? %w", file, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
	ws, err := websocket.Dial("ws://127.0.0.1:"+lines[0]+lines[1], "", "http://127.0.0.1")
	if err != nil {
		return nil, fmt.Errorf("connecting to DevTools: %w", err)
	}
	ws.MaxPayloadBytes = 64 << 20
	d := &DevTools{ws: ws, pending: map[int]devCall{}}
	go d.read()
	return d, nil
}

func (d *DevTools) read() {
	for {
		var msg []byte
		if err := websocket.Message.Receive(d.ws, &msg); err != nil {
			d.mu.Lock()
			d.closed = true
			for id, c := range d.pending {
				close(c.ch)
				delete(d.pending, id)
			}
			d.mu.Unlock()
			return
		}
		var r devReply
		if json.Unmarshal(msg, &r) != nil {
			continue
		}
		if r.ID == 0 {
			d.detached(msg)
			d.deliver(msg)
			continue
		}
		d.mu.Lock()
		c, ok := d.pending[r.ID]
		delete(d.pending, r.ID)
		d.mu.Unlock()
		if ok {
			c.ch <- r
		}
	}
}

// detached fails the commands in flight to a session that the event msg
// says has ended (Target.detachedFromTarget): no reply will come for them.
func (d *DevTools) detached(msg []byte) {
	var e struct {
		Method string `json:"method"`
		Params struct {
			SessionID string `json:"sessionId"`
		} `json:"params"`
	}
	if json.Unmarshal(msg, &e) != nil || e.Method != "Target.detachedFromTarget" || e.Params.SessionID == "" {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for id, c := range d.pending {
		if c.session == e.Params.SessionID {
			c.ch <- devReply{ID: id, gone: true}
			delete(d.pending, id)
		}
	}
}

// deliver hands an event to its method's watchers.
func (d *DevTools) deliver(msg []byte) {
	var e Event
	if json.Unmarshal(msg, &e) != nil || e.Method == "" {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, ch := range d.watchers[e.Method] {
		select {
		case ch <- e:
		default:
		}
	}
}

// Call sends one command, to session ("" for the browser), and decodes
// its result into out (which may be nil).
func (d *DevTools) Call(ctx context.Context, session, method string, params, out any) error {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return fmt.Errorf("%s: the DevTools connection is closed", method)
	}
	d.nextID++
	id := d.nextID
	ch := make(chan devReply, 1)
	d.pending[id] = devCall{ch: ch, session: session}
	d.mu.Unlock()
	msg := map[string]any{"id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if session != "" {
		msg["sessionId"] = session
	}
	if err := websocket.JSON.Send(d.ws, msg); err != nil {
		return err
	}
	select {
	case r, ok := <-ch:
		if !ok {
			return fmt.Errorf("%s: the DevTools connection closed", method)
		}
		if r.gone {
			return fmt.Errorf("%s: %w while the command was in flight (the session detached)", method, ErrTargetGone)
		}
		if r.Error != nil && strings.Contains(r.Error.Message, "Session with given id not found") {
			return fmt.Errorf("%s: %w before the command (%s)", method, ErrTargetGone, r.Error.Message)
		}
		if r.Error != nil {
			return fmt.Errorf("%s: %s", method, r.Error.Message)
		}
		if out != nil {
			return json.Unmarshal(r.Result, out)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// Close ends the connection (the browser stays).
func (d *DevTools) Close() { d.ws.Close() }

// Target (cdp.go) is one of the browser's targets.

// Targets lists the browser's targets (pages, frames in other processes,
// workers).
func (d *DevTools) Targets(ctx context.Context) ([]Target, error) {
	var r struct {
		TargetInfos []Target `json:"targetInfos"`
	}
	err := d.Call(ctx, "", "Target.getTargets", nil, &r)
	return r.TargetInfos, err
}

// WaitTarget waits for a target of typ whose URL starts with prefix.
func (d *DevTools) WaitTarget(ctx context.Context, typ, prefix string) (Target, error) {
	for {
		ts, err := d.Targets(ctx)
		if err != nil {
			return Target{}, err
		}
		for _, t := range ts {
			if t.Type == typ && strings.HasPrefix(t.URL, prefix) {
				return t, nil
			}
		}
		select {
		case <-ctx.Done():
			return Target{}, fmt.Errorf("no %s target at %s: %w", typ, prefix, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// StopServiceWorker stops the service worker at url (an extension's
// origin, "chrome-extension://ID/"), as Chrome stops an idle one, and
// returns once the browser no longer lists it. An event for the
// extension then starts a new worker.
func (d *DevTools) StopServiceWorker(ctx context.Context, url string) error {
	sw, err := d.WaitTarget(ctx, "service_worker", url)
	if err != nil {
		return err
	}
	if err := d.Call(ctx, "", "Target.closeTarget", map[string]any{"targetId": sw.TargetID}, nil); err != nil {
		return fmt.Errorf("stopping the service worker: %w", err)
	}
	for {
		ts, err := d.Targets(ctx)
		if err != nil {
			return err
		}
		if !slices.ContainsFunc(ts, func(t Target) bool { return t.TargetID == sw.TargetID }) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("the service worker still runs after Target.closeTarget: %w", ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Attach attaches to a target and returns its session.
func (d *DevTools) Attach(ctx context.Context, targetID string) (string, error) {
	var r struct {
		SessionID string `json:"sessionId"`
	}
	err := d.Call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": targetID, "flatten": true}, &r)
	return r.SessionID, err
}

// PageSession waits for the page target whose URL starts with url and
// attaches to it, failing t when it cannot.
func (d *DevTools) PageSession(t testing.TB, ctx context.Context, url string) string {
	t.Helper()
	tgt, err := d.WaitTarget(ctx, "page", url)
	if err != nil {
		t.Fatal(err)
	}
	s, err := d.Attach(ctx, tgt.TargetID)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Open opens url in a new tab and attaches to it.
func (d *DevTools) Open(ctx context.Context, url string) (session, targetID string, err error) {
	return d.open(ctx, url, false)
}

// OpenWindow opens url in a new tab of a new window and attaches to it: a
// tab of the user's for certain. A tab Open makes lands beside the active
// tab of the last active window, which Chrome then names as its opener,
// and a tab a bridge tab opened is the bridge's.
func (d *DevTools) OpenWindow(ctx context.Context, url string) (session, targetID string, err error) {
	return d.open(ctx, url, true)
}

func (d *DevTools) open(ctx context.Context, url string, newWindow bool) (session, targetID string, err error) {
	var r struct {
		TargetID string `json:"targetId"`
	}
	if err := d.Call(ctx, "", "Target.createTarget", map[string]any{"url": url, "newWindow": newWindow}, &r); err != nil {
		return "", "", err
	}
	session, err = d.Attach(ctx, r.TargetID)
	return session, r.TargetID, err
}

// Eval evaluates expr in session's page (awaiting a promise) and decodes
// its value into out (which may be nil).
func (d *DevTools) Eval(ctx context.Context, session, expr string, out any) error {
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception *struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	if err := d.Call(ctx, session, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &r); err != nil {
		return err
	}
	if e := r.ExceptionDetails; e != nil {
		msg := e.Text
		if e.Exception != nil {
			msg = e.Exception.Description
		}
		return fmt.Errorf("evaluating %.80q: %s", expr, msg)
	}
	if out != nil && len(r.Result.Value) > 0 {
		return json.Unmarshal(r.Result.Value, out)
	}
	return nil
}

// WaitEval evaluates expr until it is true.
func (d *DevTools) WaitEval(ctx context.Context, session, expr string) error {
	var last error
	for {
		var ok bool
		if last = d.Eval(ctx, session, expr, &ok); last == nil && ok {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s (last error %v): %w", expr, last, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Click is a person's click at x, y (CSS pixels of the viewport): trusted
// mouse events, as only the user — never the bridge — gives them to an
// extension page.
func (d *DevTools) Click(ctx context.Context, session string, x, y float64) error {
	for _, typ := range []string{"mouseMoved", "mousePressed", "mouseReleased"} {
		p := map[string]any{"type": typ, "x": x, "y": y}
		if typ != "mouseMoved" {
			p["button"], p["clickCount"] = "left", 1
		}
		if err := d.Call(ctx, session, "Input.dispatchMouseEvent", p, nil); err != nil {
			return err
		}
	}
	return nil
}

// Screenshot is a PNG of session's viewport.
func (d *DevTools) Screenshot(ctx context.Context, session string) ([]byte, error) {
	var r struct {
		Data string `json:"data"`
	}
	if err := d.Call(ctx, session, "Page.captureScreenshot", map[string]any{"format": "png"}, &r); err != nil {
		return nil, err
	}
	return base64.StdEncoding.DecodeString(r.Data)
}
