package browser

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/nmframe"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/version"
)

// DeliveryWait bounds how long a command waits for an extension to connect
// before failing with extension_not_connected (a call's own deadline may
// shorten it). It covers the reconnect of a host after a daemon restart
// (under a second) and a woken service worker's alarm, without making a
// caller with no browser at all wait a full minute.
const DeliveryWait = 10 * time.Second

// ReconnectWait is how long after an extension's connection dropped a
// command still waits for it to come back: the extension reconnects with
// a backoff, and a service worker that was stopped comes back on the next
// browser event or at the latest on its 30 s alarm (extension/background.js).
// A command sent meanwhile waits (within its deadline) instead of failing
// after DeliveryWait.
const ReconnectWait = 35 * time.Second

// Link is the daemon's side of the extension: the connections that said
// hello, and the commands in flight on them. Several browsers may be
// connected at once, each with its own extension instance: a command goes
// to the one it is pinned to (Pin), else to the default one — the browser
// the user focused last, else the newest connection. It is written the
// moment it is issued (no polling).
type Link struct {
	// OnHello, if set before the first Serve, is called (in its own
	// goroutine) when a connection has said hello.
	OnHello func(Info)
	// OnRequest, if set before the first Serve, answers a request the
	// extension sends of its own ({id, type, ...}, e.g. paths.check) with
	// a result or an error; frame is the whole request and from the
	// extension that sent it (several browsers may be connected). Without
	// it such a frame is taken for a reply.
	OnRequest func(from Info, typ string, frame []byte) (any, error)

	// hellos counts the OnHello calls under way (WaitHellos).
	hellos sync.WaitGroup

	mu      sync.Mutex
	conns   []*linkConn // in order of hello
	changed chan struct{}
	nextID  atomic.Uint64
	// dropped is when the last connection with a hello ended (zero: none
	// has, in this daemon's life), for the wait of Ready; droppedOf is the
	// same per browser (by base instance, see Info.Browser).
	dropped   time.Time
	droppedOf map[string]time.Time
	// focused is when the user last focused a window of each browser (by
	// base instance), as its extension reports: the default browser.
	focused map[string]time.Time
	// idPrefix is random per daemon life: the host keeps Chrome's port
	// across a daemon restart, so a late reply to the old daemon's "5"
	// must not be taken for the new daemon's "5".
	idPrefix string
}

// linkConn is one connection and the calls waiting for its replies.
type linkConn struct {
	conn    Conn
	hello   protocol.Hello
	since   time.Time // when it said hello; zero before
	mu      sync.Mutex
	pending map[string]chan protocol.Envelope
	closed  bool
}

// NewLink returns a Link with no connection.
func NewLink() *Link {
	var b [4]byte
	rand.Read(b[:])
	return &Link{changed: make(chan struct{}), idPrefix: hex.EncodeToString(b[:]) + "-",
		droppedOf: map[string]time.Time{}, focused: map[string]time.Time{}}
}

// Verbs is the Link's typed methods, one per extension verb.
func (l *Link) Verbs() Verbs { return Verbs{l} }

// WaitHellos waits until the OnHello calls under way have returned (a
// test, before it removes the folder they write in).
func (l *Link) WaitHellos() { l.hellos.Wait() }

// notifyLocked wakes everything waiting for a change of connections.
func (l *Link) notifyLocked() {
	close(l.changed)
	l.changed = make(chan struct{})
}

// current returns the connection of browser (a base instance; "": the
// default one) and a channel closed at the next change.
func (l *Link) current(browser string) (*linkConn, <-chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.pickLocked(browser), l.changed
}

// pickLocked is the newest connection of browser, or with browser "" the
// newest one of the browser the user focused last (nil: none is
// connected). A host that redials leaves its old connection for a moment:
// the newest one of a browser is the one that counts.
func (l *Link) pickLocked(browser string) *linkConn {
	var best *linkConn
	var bestFocus time.Time
	for _, h := range l.conns { // in order of hello
		base := h.base()
		if browser != "" && base != browser {
			continue
		}
		if f := l.focused[base]; best == nil || !f.Before(bestFocus) {
			best, bestFocus = h, f
		}
	}
	return best
}

// Info describes the default connected extension (zero when none is).
func (l *Link) Info() Info {
	h, _ := l.current("")
	if h == nil {
		return Info{}
	}
	return l.infoOf(h)
}

// Browsers describes every connected browser, one entry each (its newest
// connection), in order of hello; Default marks the one a call goes to
// when it names none.
func (l *Link) Browsers() []Info {
	l.mu.Lock()
	defer l.mu.Unlock()
	def := l.pickLocked("")
	var out []Info
	for _, h := range l.conns {
		if l.pickLocked(h.base()) != h {
			continue
		}
		info := h.info()
		info.FocusedAt = l.focused[h.base()]
		info.Default = h == def
		out = append(out, info)
	}
	return out
}

func (l *Link) infoOf(h *linkConn) Info {
	l.mu.Lock()
	defer l.mu.Unlock()
	info := h.info()
	info.FocusedAt = l.focused[h.base()]
	return info
}

// base is the connection's browser: its extension instance without the
// browser run (see instanceOf).
func (h *linkConn) base() string {
	if h.hello.InstanceID != "" {
		return h.hello.InstanceID
	}
	return h.hello.ExtensionID
}

func (h *linkConn) info() Info {
	info := Info{
		Connected:        true,
		ID:               h.hello.ExtensionID,
		Instance:         instanceOf(h.hello),
		Version:          h.hello.Version,
		Protocol:         h.hello.Protocol,
		IncognitoAllowed: h.hello.IncognitoAllowed,
		ConnectedAt:      h.since,
		Browser:          h.base(),
		Name:             browserName(h.hello),
		UserAgent:        h.hello.UserAgent,
	}
	if err := mismatch(h.hello); err != nil {
		info.Mismatch = err.Message
	}
	return info
}

// mismatch reports a protocol or version skew between binary and extension.
func mismatch(h protocol.Hello) *protocol.Error {
	if h.Protocol != protocol.Version {
		return protocol.Errorf(protocol.CodeVersionMismatch,
			"the extension speaks protocol %d (version %s) but browser-bridge %s speaks protocol %d: reload the extension from the folder `browser-bridge install` writes, or update the binary",
			h.Protocol, h.Version, version.Version, protocol.Version)
	}
	return nil
}

// WaitConnected waits up to d for an extension to be connected.
func (l *Link) WaitConnected(ctx context.Context, d time.Duration) bool {
	return l.waitConnected(ctx, d, "")
}

func (l *Link) waitConnected(ctx context.Context, d time.Duration, browser string) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		h, changed := l.current(browser)
		if h != nil {
			return true
		}
		select {
		case <-changed:
		case <-t.C:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

// progressKey carries a call's progress function in its context, so that
// the wait for an extension can be reported from deep inside a call.
type progressKey struct{}

// WithProgress returns ctx carrying fn, which Call tells when it waits for
// an extension to connect.
func WithProgress(ctx context.Context, fn func(string)) context.Context {
	return context.WithValue(ctx, progressKey{}, fn)
}

// Ready waits until an extension is connected, and says why not when none
// comes in time: up to DeliveryWait, or up to ReconnectWait after one was
// connected a moment ago (it is reconnecting), in both cases within ctx's
// deadline. While it waits it says so through the progress function in
// ctx (WithProgress). A connected extension of another protocol is an
// error as well.
func (l *Link) Ready(ctx context.Context) error {
	_, err := l.ready(ctx, nil)
	return err
}

// ready is Ready for the default browser (pin nil) or a pinned one. A
// pinned browser that is not connected while another is fails at once,
// unless it dropped a moment ago (it is reconnecting).
func (l *Link) ready(ctx context.Context, pin *Pinned) (*linkConn, error) {
	browser := ""
	if pin != nil {
		browser = pin.browser
	}
	if h, _ := l.current(browser); h != nil {
		return h, skew(h)
	}
	l.mu.Lock()
	wait, dropped := DeliveryWait, l.dropped
	if pin != nil {
		dropped = l.droppedOf[browser]
		if len(l.conns) > 0 {
			wait = 0
		}
	}
	l.mu.Unlock()
	if !dropped.IsZero() {
		wait = max(wait, time.Until(dropped.Add(ReconnectWait)))
	}
	if pin != nil && wait <= 0 {
		return nil, pin.notConnected()
	}
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
		wait = time.Until(dl)
	}
	if fn, ok := ctx.Value(progressKey{}).(func(string)); ok {
		fn(fmt.Sprintf("waiting up to %s for the browser extension to connect", wait.Round(time.Second)))
	}
	if !l.waitConnected(ctx, wait, browser) {
		if ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, ctx.Err()
		}
		if pin != nil {
			return nil, pin.notConnected()
		}
		if !dropped.IsZero() {
			return nil, protocol.Errorf(protocol.CodeExtensionNotConnected,
				"the Browser Bridge extension disconnected %s ago and has not come back: check that Chrome is still open (a stopped extension reconnects within 30 s), or start a browser with `browser-bridge launch`", time.Since(dropped).Round(time.Second))
		}
		return nil, notConnected()
	}
	h, _ := l.current(browser)
	if h == nil {
		return nil, notConnected()
	}
	return h, skew(h)
}

// skew is mismatch as an error: nil (not a nil *protocol.Error) when the
// extension and the binary speak the same protocol.
func skew(h *linkConn) error {
	if err := mismatch(h.hello); err != nil {
		return err
	}
	return nil
}

// Call sends one command to the extension and decodes its result into out
// (which may be nil). It waits for an extension to connect first (see
// Ready). When ctx ends first, the extension is told to cancel the
// command.
func (l *Link) Call(ctx context.Context, verb string, params, out any) error {
	return l.call(ctx, nil, verb, params, out)
}

func (l *Link) call(ctx context.Context, pin *Pinned, verb string, params, out any) error {
	id := l.idPrefix + strconv.FormatUint(l.nextID.Add(1), 10)
	frame, err := json.Marshal(protocol.Command{ID: id, Type: verb, Params: params})
	if err != nil {
		return err
	}
	h, ch, err := l.send(ctx, pin, id, verb, frame)
	if err != nil {
		return err
	}
	defer h.unregister(id)
	select {
	case env, ok := <-ch:
		if !ok {
			return protocol.Errorf(protocol.CodeExtensionNotConnected,
				"the extension disconnected while running %s, so it may not have finished; check with status and try again", verb)
		}
		if env.Error != nil {
			return env.Error
		}
		if out != nil && len(env.Result) > 0 {
			if err := json.Unmarshal(env.Result, out); err != nil {
				return fmt.Errorf("decoding the result of %s: %w", verb, err)
			}
		}
		return nil
	case <-ctx.Done():
		// Nobody waits for the reply any more: tell the extension to stop
		// the command too (a load it waits for, a batch of input events),
		// without waiting for its answer — and in the background: a large
		// frame being written must not delay this call's return.
		cancel := protocol.Command{ID: id + "-cancel", Type: "command.cancel", Params: protocol.CommandCancelParams{CommandID: id}}
		if frame, err := json.Marshal(cancel); err == nil {
			go h.conn.Send(frame)
		}
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return l.timedOut(pin, verb, frame)
		}
		return ctx.Err()
	}
}

// send writes a command's frame to the extension (see Ready for the wait
// for one) and returns the connection it went out on, with the command
// registered there for its reply. A frame that could not be written was
// not delivered: the host reads whole frames only, and the usual cause is
// a host that has died, whose end of the socket is closed before its
// reader here has seen it go (a race a user hits when Chrome restarts the
// host). That connection is dropped at once, so the command waits for
// the reconnect as one sent a moment later would, and goes out once more.
func (l *Link) send(ctx context.Context, pin *Pinned, id, verb string, frame []byte) (*linkConn, chan protocol.Envelope, error) {
	for attempt := 0; ; attempt++ {
		h, err := l.ready(ctx, pin)
		if err != nil {
			return nil, nil, err
		}
		ch := make(chan protocol.Envelope, 1)
		if !h.register(id, ch) {
			// Dropped since ready picked it: a reconnect may be under way.
			if attempt == 0 {
				continue
			}
			return nil, nil, notConnected()
		}
		if err := h.conn.Send(frame); err != nil {
			h.unregister(id)
			if errors.Is(err, nmframe.ErrTooLarge) {
				// Nothing was written: the connection is sound.
				return nil, nil, protocol.Errorf(protocol.CodeInvalidArgument, "the command %s is too large to send to the extension (%v); send less at once", verb, err)
			}
			l.drop(h)
			if attempt == 0 {
				continue
			}
			return nil, nil, protocol.Errorf(protocol.CodeExtensionNotConnected, "lost the connection to the extension while sending %s; try again", verb)
		}
		return h, ch, nil
	}
}

// diagnoseWait bounds the look at the browser after a command ran out of
// time, which the caller's answer waits for.
const diagnoseWait = 300 * time.Millisecond

// timedOut is the error of a command that ran out of time. A page that
// answers nobody may be paused by another debugger (DevTools stopped at
// a breakpoint): the extension knows the tabs that one is attached to,
// and a quick look names that cause instead of guessing.
func (l *Link) timedOut(pin *Pinned, verb string, frame []byte) error {
	touchesPage := strings.HasPrefix(verb, "page.") || strings.HasPrefix(verb, "cdp") || strings.HasPrefix(verb, "dom.")
	var target struct {
		TabID *int `json:"tabId"`
	}
	if touchesPage && json.Unmarshal(frame, &target) == nil && target.TabID != nil && l.debuggedByOthers(pin, *target.TabID) {
		return protocol.Errorf(protocol.CodeTimeout, "tab %d did not answer before the deadline: another debugger (DevTools or another extension) is attached to it and has probably paused the page, at a breakpoint for instance; resume the page or close DevTools on that tab, then try again", protocol.Tab(*target.TabID))
	}
	if strings.HasPrefix(verb, "page.") {
		return protocol.Errorf(protocol.CodeTimeout, "the page did not answer before the deadline: it may be frozen (a script that never ends) or very busy; look at the tab, reload or close it, then try again (timeoutMs, up to 60000, gives it longer)")
	}
	hint := "the browser may be busy — try again"
	if touchesPage {
		hint = "the page may be frozen (a script that never ends) or very busy — look at the tab, reload or close it, then try again"
	}
	return protocol.Errorf(protocol.CodeTimeout, "the browser did not finish %s before the deadline; %s (timeoutMs, up to 60000, gives it longer)", doing(verb), hint)
}

// debuggedByOthers asks the extension whether another debugger is
// attached to tab.
func (l *Link) debuggedByOthers(pin *Pinned, tab int) bool {
	ctx, cancel := context.WithTimeout(context.Background(), diagnoseWait)
	defer cancel()
	var s protocol.BrowserState
	return l.call(ctx, pin, "browser.state", protocol.BrowserStateParams{}, &s) == nil && slices.Contains(s.DebuggedTabs, tab)
}

// doing names what an extension primitive does, for messages: the verbs
// themselves mean nothing to the person reading them.
func doing(verb string) string {
	switch {
	case strings.HasPrefix(verb, "cdp.attach"):
		return "attaching its debugger to the tab"
	case strings.HasPrefix(verb, "cdp"):
		return "sending input or a debugger command to the tab"
	case strings.HasPrefix(verb, "tab.") || strings.HasPrefix(verb, "window.") || strings.HasPrefix(verb, "context."):
		return "opening, loading or looking at the tab"
	case strings.HasPrefix(verb, "dom."):
		return "setting the files of a file input"
	case verb == "browser.state":
		return "listing its windows and tabs"
	}
	return "the command"
}

func notConnected() error {
	return protocol.Errorf(protocol.CodeExtensionNotConnected,
		"the Browser Bridge extension is not connected: install it (browser-bridge install, then load it in Chrome) and keep Chrome open, or start a browser with `browser-bridge launch`")
}

func (h *linkConn) register(id string, ch chan protocol.Envelope) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false
	}
	h.pending[id] = ch
	return true
}

func (h *linkConn) unregister(id string) {
	h.mu.Lock()
	delete(h.pending, id)
	h.mu.Unlock()
}

// deliver routes a reply to its waiting call; replies nobody waits for
// (the call gave up, or it was another daemon life's) are dropped.
func (h *linkConn) deliver(env protocol.Envelope) {
	h.mu.Lock()
	ch := h.pending[env.ID]
	delete(h.pending, env.ID)
	h.mu.Unlock()
	if ch != nil {
		ch <- env
	}
}

// Serve reads one connection to an extension until it ends, then fails
// the calls still waiting on it. The connection counts once it has said
// hello; the newest one is used.
func (l *Link) Serve(c Conn) {
	h := &linkConn{conn: c, pending: map[string]chan protocol.Envelope{}}
	defer l.drop(h)
	for {
		frame, err := c.Recv()
		if err != nil {
			return
		}
		env, err := protocol.Decode(frame)
		if err != nil {
			continue
		}
		if env.Type == protocol.TypeHello {
			var hello protocol.Hello
			if json.Unmarshal(frame, &hello) != nil {
				continue
			}
			l.mu.Lock()
			if !h.since.IsZero() {
				// The host replays the hello it cached when it redials;
				// the first one on a connection is the one that counts.
				l.mu.Unlock()
				continue
			}
			h.hello, h.since = hello, time.Now()
			if hello.Focused {
				// A window of this browser has the focus as it connects.
				l.focused[h.base()] = h.since
			}
			l.removeLocked(h)
			l.conns = append(l.conns, h)
			l.notifyLocked()
			info := h.info()
			l.mu.Unlock()
			if l.OnHello != nil {
				l.hellos.Add(1)
				go func() {
					defer l.hellos.Done()
					l.OnHello(info)
				}()
			}
			continue
		}
		if env.Type == protocol.TypeFocused {
			// The user focused a window of this browser: it becomes the
			// default one. Said before its hello, it is dropped.
			l.mu.Lock()
			if !h.since.IsZero() {
				l.focused[h.base()] = time.Now()
			}
			l.mu.Unlock()
			if env.ID != "" {
				if b, err := json.Marshal(protocol.Reply{ID: env.ID, Result: protocol.OKResult{OK: true}}); err == nil {
					c.Send(b)
				}
			}
			continue
		}
		if env.Type != "" && env.ID != "" && l.OnRequest != nil {
			// A request of the extension's own (paths.check for a
			// program's upload): answered beside the reading, which
			// must go on.
			go func() {
				res, err := l.OnRequest(l.infoOf(h), env.Type, frame)
				reply := protocol.Reply{ID: env.ID, Result: res}
				if err != nil {
					reply = protocol.Reply{ID: env.ID, Error: protocol.AsError(err)}
				}
				if b, err := json.Marshal(reply); err == nil {
					c.Send(b)
				}
			}()
			continue
		}
		if env.ID != "" {
			h.deliver(env)
		}
	}
}

func (l *Link) removeLocked(h *linkConn) {
	for i, x := range l.conns {
		if x == h {
			l.conns = append(l.conns[:i], l.conns[i+1:]...)
			return
		}
	}
}

// drop forgets a connection and fails its calls in flight.
func (l *Link) drop(h *linkConn) {
	h.conn.Close()
	l.mu.Lock()
	if !h.since.IsZero() {
		l.dropped = time.Now()
		l.droppedOf[h.base()] = l.dropped
	}
	l.removeLocked(h)
	l.notifyLocked()
	l.mu.Unlock()
	h.mu.Lock()
	h.closed = true
	for id, ch := range h.pending {
		close(ch)
		delete(h.pending, id)
	}
	h.mu.Unlock()
}

// instanceOf names the extension instance of a hello; an extension that
// sends no instance ID (older, or another Hive-style client) is named by
// its extension ID.
//
// The browser session is part of the name: tab IDs repeat after a browser
// restart, so the registry of an earlier run is never consulted for the
// new one (and the daemon drops it, see registry.Set.DropEarlierRuns).
func instanceOf(h protocol.Hello) string {
	base := h.InstanceID
	if base == "" {
		base = h.ExtensionID
	}
	if h.BrowserSession != "" {
		return base + "@" + h.BrowserSession
	}
	return base
}

// browserName is a browser's name for people, from what its hello says:
// the brand the extension read (navigator.userAgentData), else a guess
// from the user agent.
func browserName(h protocol.Hello) string {
	if b := strings.TrimSpace(h.Brand); b != "" {
		b = strings.TrimPrefix(b, "Google ")
		return strings.TrimPrefix(b, "Microsoft ")
	}
	ua := h.UserAgent
	switch {
	case strings.Contains(ua, "Edg/"):
		return "Edge"
	case strings.Contains(ua, "OPR/"):
		return "Opera"
	case strings.Contains(ua, "Chrome/"):
		return "Chrome"
	}
	return "Browser"
}

// Pinned is the Link restricted to one browser: every command goes to that
// browser's newest connection, waits for it only while it reconnects, and
// fails with extension_not_connected naming it otherwise. It serves as the
// engine's Browser (actions.Browser) for a call that picked a browser.
type Pinned struct {
	l       *Link
	browser string // base instance
	label   string // for messages
}

// Pin returns the Link restricted to browser (a base instance, see
// Info.Browser); label names it in messages.
func (l *Link) Pin(browser, label string) *Pinned {
	return &Pinned{l: l, browser: browser, label: label}
}

// Call sends one command to the pinned browser (see Link.Call).
func (p *Pinned) Call(ctx context.Context, verb string, params, out any) error {
	return p.l.call(ctx, p, verb, params, out)
}

// Info describes the pinned browser's extension (zero when it is not
// connected).
func (p *Pinned) Info() Info {
	h, _ := p.l.current(p.browser)
	if h == nil {
		return Info{}
	}
	return p.l.infoOf(h)
}

// Label names the pinned browser, as its messages do.
func (p *Pinned) Label() string { return p.label }

// WaitConnected waits up to d for the pinned browser to be connected.
func (p *Pinned) WaitConnected(ctx context.Context, d time.Duration) bool {
	return p.l.waitConnected(ctx, d, p.browser)
}

// Ready is Link.Ready for the pinned browser.
func (p *Pinned) Ready(ctx context.Context) error {
	_, err := p.l.ready(ctx, p)
	return err
}

func (p *Pinned) notConnected() error {
	return protocol.Errorf(protocol.CodeExtensionNotConnected,
		"browser %s is not connected: open it (its extension connects by itself), or pick a connected browser from status (the browser parameter)", p.label)
}
