package browsertest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// CDP is a raw Chrome DevTools Protocol connection over a pipe
// (--remote-debugging-pipe: Chromium reads NUL-terminated JSON on its fd 3
// and writes on fd 4). It is the test's own debugging connection, beside
// the extension's chrome.debugger: what the shipped extension must never
// offer (stopping its own service worker, attaching another client to a
// tab) a test does through it.
type CDP struct {
	w       io.WriteCloser
	mu      sync.Mutex
	nextID  int
	pending map[int]chan cdpReply
	// waiters are the event waits in progress (WaitEvent).
	waiters map[eventKey][]chan json.RawMessage
	gone    bool
}

type cdpReply struct {
	ID        int             `json:"id"`
	Method    string          `json:"method"`
	SessionID string          `json:"sessionId"`
	Params    json.RawMessage `json:"params"`
	Result    json.RawMessage `json:"result"`
	Error     *struct {
		Message string `json:"message"`
	} `json:"error"`
}

type eventKey struct{ session, method string }

// ErrCDPClosed is what calls get once the browser closed the pipe.
var ErrCDPClosed = errors.New("chromium closed the debugging pipe")

// newCDP talks CDP over w (to Chromium) and r (from it) until r ends.
func newCDP(w io.WriteCloser, r io.Reader) *CDP {
	c := &CDP{w: w, pending: map[int]chan cdpReply{}, waiters: map[eventKey][]chan json.RawMessage{}}
	go c.read(r)
	return c
}

func (c *CDP) read(r io.Reader) {
	br := bufio.NewReader(r)
	for {
		msg, err := br.ReadBytes(0)
		if err != nil {
			c.mu.Lock()
			c.gone = true
			for id, ch := range c.pending {
				close(ch)
				delete(c.pending, id)
			}
			c.mu.Unlock()
			return
		}
		var rep cdpReply
		if json.Unmarshal(msg[:len(msg)-1], &rep) != nil {
			continue
		}
		if rep.ID == 0 { // an event: to whoever waits for it
			c.mu.Lock()
			k := eventKey{rep.SessionID, rep.Method}
			for _, ch := range c.waiters[k] {
				ch <- rep.Params
			}
			delete(c.waiters, k)
			c.mu.Unlock()
			continue
		}
		c.mu.Lock()
		ch := c.pending[rep.ID]
		delete(c.pending, rep.ID)
		c.mu.Unlock()
		if ch != nil {
			ch <- rep
		}
	}
}

// Call sends method to the browser ("" session) or to a flattened
// target session and decodes its result into out (which may be nil).
func (c *CDP) Call(ctx context.Context, session, method string, params, out any) error {
	c.mu.Lock()
	if c.gone {
		c.mu.Unlock()
		return ErrCDPClosed
	}
	c.nextID++
	id := c.nextID
	ch := make(chan cdpReply, 1)
	c.pending[id] = ch
	msg := map[string]any{"id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if session != "" {
		msg["sessionId"] = session
	}
	b, _ := json.Marshal(msg)
	_, err := c.w.Write(append(b, 0))
	c.mu.Unlock()
	if err != nil {
		return err
	}
	select {
	case rep, ok := <-ch:
		if !ok {
			return ErrCDPClosed
		}
		if rep.Error != nil {
			return fmt.Errorf("%s: %s", method, rep.Error.Message)
		}
		if out != nil {
			return json.Unmarshal(rep.Result, out)
		}
		return nil
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
		return ctx.Err()
	}
}

// WaitEvent returns a channel that receives the params of the session's
// next event method ("" session: the browser's). Call it before the
// command that causes the event.
func (c *CDP) WaitEvent(session, method string) <-chan json.RawMessage {
	ch := make(chan json.RawMessage, 1)
	c.mu.Lock()
	k := eventKey{session, method}
	c.waiters[k] = append(c.waiters[k], ch)
	c.mu.Unlock()
	return ch
}

// Target is one entry of Target.getTargets.
type Target struct {
	TargetID string `json:"targetId"`
	Type     string `json:"type"` // page, service_worker, …
	Title    string `json:"title"`
	URL      string `json:"url"`
	// Attached: some debugging client (the extension's chrome.debugger,
	// DevTools, this connection) is attached to the target.
	Attached bool `json:"attached"`
}

// Targets lists the browser's targets.
func (c *CDP) Targets(ctx context.Context) ([]Target, error) {
	var r struct {
		TargetInfos []Target `json:"targetInfos"`
	}
	if err := c.Call(ctx, "", "Target.getTargets", nil, &r); err != nil {
		return nil, err
	}
	return r.TargetInfos, nil
}

// Attach attaches this connection to a target and returns the flattened
// session to Call it on.
func (c *CDP) Attach(ctx context.Context, targetID string) (string, error) {
	var r struct {
		SessionID string `json:"sessionId"`
	}
	err := c.Call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": targetID, "flatten": true}, &r)
	return r.SessionID, err
}

// Detach ends a session of Attach.
func (c *CDP) Detach(ctx context.Context, session string) error {
	return c.Call(ctx, "", "Target.detachFromTarget", map[string]any{"sessionId": session}, nil)
}

// Eval evaluates expr in a session's target (awaiting a promise) and
// decodes its value into out (which may be nil).
func (c *CDP) Eval(ctx context.Context, session, expr string, out any) error {
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails any `json:"exceptionDetails"`
	}
	if err := c.Call(ctx, session, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &r); err != nil {
		return err
	}
	if r.ExceptionDetails != nil {
		return fmt.Errorf("evaluating %q: %v", expr, r.ExceptionDetails)
	}
	if out != nil && len(r.Result.Value) > 0 {
		return json.Unmarshal(r.Result.Value, out)
	}
	return nil
}

// Close closes the pipe to the browser.
func (c *CDP) Close() error { return c.w.Close() }
