package browsertest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/launcher"
)

// RawCDP is a Chromium driven directly over --remote-debugging-pipe (no
// extension, no TCP port): the baseline that benchmarks put the bridge's
// figures next to.
type RawCDP struct {
	cmd     *exec.Cmd
	toChr   io.WriteCloser
	profile string
	mu      sync.Mutex
	nextID  int
	pending map[int]chan rawReply
	// waiters are the event waits in progress, by session and method.
	waiters map[eventKey][]chan json.RawMessage
	// Session is the flattened session of the page target.
	Session string
	page    *RawPage
}

type rawReply struct {
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

// StartRawCDP starts a headless Chromium with a pipe debugging connection
// and attaches to its page.
func StartRawCDP() (*RawCDP, error) {
	bin, err := launcher.Find()
	if err != nil {
		return nil, err
	}
	profile, err := os.MkdirTemp("", "bbraw")
	if err != nil {
		return nil, err
	}
	// fd 3: Chromium reads commands; fd 4: it writes replies.
	cmdR, cmdW, _ := os.Pipe()
	repR, repW, _ := os.Pipe()
	args := []string{"--remote-debugging-pipe", "--headless=new", "--user-data-dir=" + profile, "--no-first-run",
		"--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--screen-info={0,0 1920x1080}", "about:blank"}
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox")
	}
	cmd := exec.Command(bin, args...)
	cmd.ExtraFiles = []*os.File{cmdR, repW}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	cmdR.Close()
	repW.Close()
	c := &RawCDP{cmd: cmd, toChr: cmdW, profile: profile, pending: map[int]chan rawReply{}, waiters: map[eventKey][]chan json.RawMessage{}}
	go c.read(repR)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var targets struct {
		TargetInfos []struct {
			TargetID string `json:"targetId"`
			Type     string `json:"type"`
		} `json:"targetInfos"`
	}
	for {
		if err := c.call(ctx, "", "Target.getTargets", nil, &targets); err != nil {
			c.Close()
			return nil, err
		}
		for _, t := range targets.TargetInfos {
			if t.Type == "page" {
				var att struct {
					SessionID string `json:"sessionId"`
				}
				if err := c.call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": t.TargetID, "flatten": true}, &att); err != nil {
					c.Close()
					return nil, err
				}
				c.Session = att.SessionID
				c.page = &RawPage{c: c, Session: att.SessionID, TargetID: t.TargetID}
				return c, nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (c *RawCDP) read(r io.Reader) {
	br := bufio.NewReader(r)
	for {
		msg, err := br.ReadBytes(0)
		if err != nil {
			c.mu.Lock()
			for id, ch := range c.pending {
				close(ch)
				delete(c.pending, id)
			}
			c.mu.Unlock()
			return
		}
		var rep rawReply
		if json.Unmarshal(msg[:len(msg)-1], &rep) != nil {
			continue
		}
		if rep.ID == 0 {
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

func (c *RawCDP) call(ctx context.Context, session, method string, params, out any) error {
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	ch := make(chan rawReply, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	msg := map[string]any{"id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if session != "" {
		msg["sessionId"] = session
	}
	b, _ := json.Marshal(msg)
	c.mu.Lock()
	_, err := c.toChr.Write(append(b, 0))
	c.mu.Unlock()
	if err != nil {
		return err
	}
	select {
	case rep, ok := <-ch:
		if !ok {
			return fmt.Errorf("chromium closed the pipe")
		}
		if rep.Error != nil {
			return fmt.Errorf("%s: %s", method, rep.Error.Message)
		}
		if out != nil {
			return json.Unmarshal(rep.Result, out)
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Call sends a command to the page session.
func (c *RawCDP) Call(ctx context.Context, method string, params, out any) error {
	return c.page.Call(ctx, method, params, out)
}

// Eval evaluates expr in the page and decodes its value.
func (c *RawCDP) Eval(ctx context.Context, expr string, out any) error {
	return c.page.Eval(ctx, expr, out)
}

// Navigate loads url in the page and waits for its load event.
func (c *RawCDP) Navigate(ctx context.Context, url string) error {
	return c.page.Navigate(ctx, url)
}

// RawPage is one page target of a RawCDP browser, attached over a
// flattened session.
type RawPage struct {
	c        *RawCDP
	Session  string
	TargetID string
	enabled  bool // Page domain events are on
}

// NewPage opens a new tab (about:blank), in a window of its own with
// newWindow, attaches to it and enables its Page domain: what a CDP
// client does before it loads a page in a tab of its own.
func (c *RawCDP) NewPage(ctx context.Context, newWindow bool) (*RawPage, error) {
	var tgt struct {
		TargetID string `json:"targetId"`
	}
	if err := c.call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank", "newWindow": newWindow}, &tgt); err != nil {
		return nil, err
	}
	var att struct {
		SessionID string `json:"sessionId"`
	}
	if err := c.call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": tgt.TargetID, "flatten": true}, &att); err != nil {
		return nil, err
	}
	p := &RawPage{c: c, Session: att.SessionID, TargetID: tgt.TargetID}
	if err := p.Call(ctx, "Page.enable", nil, nil); err != nil {
		return nil, err
	}
	p.enabled = true
	return p, nil
}

// Close closes the page's tab.
func (p *RawPage) Close(ctx context.Context) error {
	return p.c.call(ctx, "", "Target.closeTarget", map[string]any{"targetId": p.TargetID}, nil)
}

// Call sends a command to the page's session.
func (p *RawPage) Call(ctx context.Context, method string, params, out any) error {
	return p.c.call(ctx, p.Session, method, params, out)
}

// Eval evaluates expr in the page and decodes its value.
func (p *RawPage) Eval(ctx context.Context, expr string, out any) error {
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails any `json:"exceptionDetails"`
	}
	if err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &r); err != nil {
		return err
	}
	if r.ExceptionDetails != nil {
		return fmt.Errorf("evaluating %q: %v", expr, r.ExceptionDetails)
	}
	if out != nil {
		return json.Unmarshal(r.Result.Value, out)
	}
	return nil
}

// Navigate loads url and waits for the page's load event
// (Page.loadEventFired): the shortest a CDP client can know a page has
// loaded.
func (p *RawPage) Navigate(ctx context.Context, url string) error {
	if !p.enabled {
		if err := p.Call(ctx, "Page.enable", nil, nil); err != nil {
			return err
		}
		p.enabled = true
	}
	loaded := p.c.waitEvent(p.Session, "Page.loadEventFired")
	var nav struct {
		ErrorText string `json:"errorText"`
	}
	if err := p.Call(ctx, "Page.navigate", map[string]any{"url": url}, &nav); err != nil {
		return err
	}
	if nav.ErrorText != "" {
		return fmt.Errorf("navigating to %s: %s", url, nav.ErrorText)
	}
	select {
	case <-loaded:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// waitEvent returns a channel that receives the params of the session's
// next event method.
func (c *RawCDP) waitEvent(session, method string) <-chan json.RawMessage {
	ch := make(chan json.RawMessage, 1)
	c.mu.Lock()
	k := eventKey{session, method}
	c.waiters[k] = append(c.waiters[k], ch)
	c.mu.Unlock()
	return ch
}

// Close stops the browser.
func (c *RawCDP) Close() {
	c.toChr.Close()
	syscall.Kill(-c.cmd.Process.Pid, syscall.SIGTERM)
	done := make(chan struct{})
	go func() { c.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
	os.RemoveAll(c.profile)
}

// Page is the browser's first page, the one Call, Eval and Navigate use.
func (c *RawCDP) Page() *RawPage { return c.page }
