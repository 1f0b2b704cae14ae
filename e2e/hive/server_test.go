//go:build unix

package hive

import (
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// hiveServer plays Hive's bridge server (tools/src/gcu/browser/bridge.py,
// protocol 6) on a loopback address: the extension connects to it.
type hiveServer struct {
	url string
	l   *wsListener
}

// startHive listens on addr (host:port) and path.
func startHive(t *testing.T, addr, path string) *hiveServer {
	t.Helper()
	var l *wsListener
	var err error
	// A port the test used a moment ago may still be held by the
	// previous listener's connections in TIME_WAIT; net.Listen sets
	// SO_REUSEADDR, so only a live listener blocks it.
	for i := 0; i < 50; i++ {
		if l, err = wsListen(addr, path); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("listening on %s: %v", addr, err)
	}
	s := &hiveServer{url: "ws://" + l.Addr() + path, l: l}
	t.Cleanup(s.Close)
	return s
}

func (s *hiveServer) Close() { s.l.Close() }

// accept waits for the extension's next connection and its hello.
func (s *hiveServer) accept(t *testing.T, within time.Duration) *peer {
	t.Helper()
	select {
	case c := <-s.l.Conns:
		p := newPeer(c)
		t.Cleanup(func() { p.conn.Close(1001) })
		select {
		case <-p.helloed:
		case <-time.After(10 * time.Second):
			t.Fatalf("the extension connected to %s but sent no hello within 10 s", s.url)
		}
		return p
	case <-time.After(within):
		t.Fatalf("the extension did not connect to %s within %s", s.url, within)
	}
	return nil
}

// noConnection fails if the extension connects within d.
func (s *hiveServer) noConnection(t *testing.T, d time.Duration) {
	t.Helper()
	select {
	case c := <-s.l.Conns:
		c.Close(1000)
		t.Fatalf("the extension connected to %s, which it must refuse", s.url)
	case <-time.After(d):
	}
}

// peer is one connection from the extension, as Hive's server handles it.
type peer struct {
	conn    *wsConn
	hello   map[string]any
	helloed chan struct{}
	// events: cdp_event, tab_event, tab_group_event, in order.
	events chan map[string]any
	// pings: the extension's own pings (answered with a pong unless
	// silent); pongs: its answers to ours.
	pings  chan struct{}
	pongs  chan struct{}
	closed chan struct{}
	silent atomic.Bool // do not answer the extension's pings (set by the test while the reader runs)

	mu      sync.Mutex
	next    int
	pending map[string]chan map[string]any
}

func newPeer(c *wsConn) *peer {
	p := &peer{
		conn: c, helloed: make(chan struct{}), events: make(chan map[string]any, 1000),
		pings: make(chan struct{}, 100), pongs: make(chan struct{}, 100), closed: make(chan struct{}),
		pending: map[string]chan map[string]any{},
	}
	go p.read()
	return p
}

func (p *peer) read() {
	defer close(p.closed)
	for {
		text, err := p.conn.ReadText()
		if err != nil {
			return
		}
		var m map[string]any
		if json.Unmarshal([]byte(text), &m) != nil {
			continue
		}
		switch m["type"] {
		case "hello":
			if p.hello == nil {
				p.hello = m
				close(p.helloed)
			}
			continue
		case "ping":
			p.pings <- struct{}{}
			if !p.silent.Load() {
				p.conn.WriteText(`{"type":"pong"}`)
			}
			continue
		case "pong":
			p.pongs <- struct{}{}
			continue
		case "cdp_event", "tab_event", "tab_group_event":
			p.events <- m
			continue
		}
		id, _ := m["id"].(string)
		p.mu.Lock()
		ch := p.pending[id]
		delete(p.pending, id)
		p.mu.Unlock()
		if ch != nil {
			ch <- m
		}
	}
}

// reply is the extension's answer to one request.
type reply struct {
	Result map[string]any
	Err    string // the error string; "" on success
	raw    map[string]any
}

// send sends {id, type, ...params} (as Hive's _send does: string ids) and
// returns the reply; it does not wait.
func (p *peer) send(t *testing.T, typ string, params map[string]any) <-chan map[string]any {
	t.Helper()
	p.mu.Lock()
	p.next++
	id := strconv.Itoa(p.next)
	ch := make(chan map[string]any, 1)
	p.pending[id] = ch
	p.mu.Unlock()
	msg := map[string]any{}
	for k, v := range params {
		msg[k] = v
	}
	msg["id"], msg["type"] = id, typ
	b, _ := json.Marshal(msg)
	if err := p.conn.WriteText(string(b)); err != nil {
		t.Fatalf("sending %s: %v", typ, err)
	}
	return ch
}

// call sends a request and waits for its reply, checking the reply's
// envelope: the id comes back, and exactly one of result (an object) and
// error (a string).
func (p *peer) call(t *testing.T, typ string, params map[string]any) reply {
	t.Helper()
	return p.wait(t, typ, p.send(t, typ, params))
}

func (p *peer) wait(t *testing.T, typ string, ch <-chan map[string]any) reply {
	t.Helper()
	select {
	case m := <-ch:
		r := reply{raw: m}
		_, hasResult := m["result"]
		e, hasErr := m["error"]
		if hasResult == hasErr {
			t.Fatalf("%s: the reply has %s: %v", typ, map[bool]string{true: "both result and error", false: "neither result nor error"}[hasResult], m)
		}
		if hasErr {
			s, ok := e.(string)
			if !ok {
				t.Fatalf("%s: the error is %T, Hive's protocol has a string: %v", typ, e, m)
			}
			r.Err = s
			return r
		}
		res, ok := m["result"].(map[string]any)
		if !ok {
			t.Fatalf("%s: the result is %T, not an object: %v", typ, m["result"], m)
		}
		r.Result = res
		return r
	case <-p.closed:
		t.Fatalf("%s: the extension closed the connection before answering", typ)
	case <-time.After(30 * time.Second):
		t.Fatalf("%s: no reply within 30 s", typ)
	}
	return reply{}
}

// ok calls and fails the test on an error reply.
func (p *peer) ok(t *testing.T, typ string, params map[string]any) map[string]any {
	t.Helper()
	r := p.call(t, typ, params)
	if r.Err != "" {
		t.Fatalf("%s %v: error %q", typ, params, r.Err)
	}
	return r.Result
}

// refused calls and wants an error reply containing each of want.
func (p *peer) refused(t *testing.T, typ string, params map[string]any, want ...string) string {
	t.Helper()
	r := p.call(t, typ, params)
	if r.Err == "" {
		t.Fatalf("%s %v succeeded (%v); want an error with %q", typ, params, r.Result, want)
	}
	for _, w := range want {
		if !strings.Contains(r.Err, w) {
			t.Fatalf("%s %v: error %q does not say %q", typ, params, r.Err, w)
		}
	}
	return r.Err
}

// event waits for the first event for which match is true, dropping the
// others on the way.
func (p *peer) event(t *testing.T, what string, within time.Duration, match func(map[string]any) bool) map[string]any {
	t.Helper()
	deadline := time.After(within)
	for {
		select {
		case e := <-p.events:
			if match(e) {
				return e
			}
		case <-deadline:
			t.Fatalf("no %s event within %s", what, within)
			return nil
		}
	}
}

// allEvents waits until every one of match has matched an event, in any
// order, dropping the others on the way.
func (p *peer) allEvents(t *testing.T, within time.Duration, match map[string]func(map[string]any) bool) {
	t.Helper()
	deadline := time.After(within)
	for len(match) > 0 {
		select {
		case e := <-p.events:
			for what, m := range match {
				if m(e) {
					delete(match, what)
				}
			}
		case <-deadline:
			for what := range match {
				t.Errorf("no %s event within %s", what, within)
			}
			return
		}
	}
}

// cdp sends one CDP command through the `cdp` verb.
func (p *peer) cdp(t *testing.T, tabID int, method string, params map[string]any) map[string]any {
	t.Helper()
	if params == nil {
		params = map[string]any{}
	}
	return p.ok(t, "cdp", map[string]any{"tabId": tabID, "method": method, "params": params})
}

// eval evaluates expr in the tab (Runtime.evaluate, by value).
func (p *peer) eval(t *testing.T, tabID int, expr string) any {
	t.Helper()
	r := p.cdp(t, tabID, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true})
	if ex, ok := r["exceptionDetails"]; ok {
		t.Fatalf("evaluating %q: %v", expr, ex)
	}
	res, _ := r["result"].(map[string]any)
	return res["value"]
}

// waitClosed waits until the extension closes this connection.
func (p *peer) waitClosed(t *testing.T, within time.Duration) {
	t.Helper()
	select {
	case <-p.closed:
	case <-time.After(within):
		t.Fatalf("the extension kept the connection open for %s", within)
	}
}

// intOf reads a JSON number that must be an integer.
func intOf(t *testing.T, m map[string]any, key string) int {
	t.Helper()
	v, ok := m[key].(float64)
	if !ok || v != float64(int(v)) {
		t.Fatalf("%q is %v (%T), want an integer, in %v", key, m[key], m[key], m)
	}
	return int(v)
}

func boolOf(t *testing.T, m map[string]any, key string) bool {
	t.Helper()
	v, ok := m[key].(bool)
	if !ok {
		t.Fatalf("%q is %v (%T), want a boolean, in %v", key, m[key], m[key], m)
	}
	return v
}

func strOf(t *testing.T, m map[string]any, key string) string {
	t.Helper()
	v, ok := m[key].(string)
	if !ok {
		t.Fatalf("%q is %v (%T), want a string, in %v", key, m[key], m[key], m)
	}
	return v
}

func listOf(t *testing.T, m map[string]any, key string) []map[string]any {
	t.Helper()
	raw, ok := m[key].([]any)
	if !ok {
		t.Fatalf("%q is %v (%T), want a list, in %v", key, m[key], m[key], m)
	}
	out := make([]map[string]any, 0, len(raw))
	for _, v := range raw {
		mm, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%q holds %v (%T), want objects", key, v, v)
		}
		out = append(out, mm)
	}
	return out
}

// hasKeys checks that m has every key of want (a shape check).
func hasKeys(t *testing.T, what string, m map[string]any, want ...string) {
	t.Helper()
	for _, k := range want {
		if _, ok := m[k]; !ok {
			t.Errorf("%s lacks %q: %v", what, k, m)
		}
	}
}
