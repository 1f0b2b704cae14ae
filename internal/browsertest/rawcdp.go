package browsertest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/launcher"
)

// RawCDP is a Chromium driven directly over --remote-debugging-pipe (no
// extension, no TCP port): the baseline that benchmarks put the bridge's
// figures next to.
type RawCDP struct {
	cmd     *exec.Cmd
	cdp     *CDP
	profile string
	// Session is the flattened session of the page target.
	Session string
	once    sync.Once
	page    *RawPage
}

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
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	cmdR.Close()
	repW.Close()
	c := &RawCDP{cmd: cmd, cdp: newCDP(cmdW, repR), profile: profile}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		targets, err := c.cdp.Targets(ctx)
		if err != nil {
			c.Close()
			return nil, err
		}
		for _, t := range targets {
			if t.Type == "page" {
				if c.Session, err = c.cdp.Attach(ctx, t.TargetID); err != nil {
					c.Close()
					return nil, err
				}
				return c, nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Call sends a command to the page session.
func (c *RawCDP) Call(ctx context.Context, method string, params, out any) error {
	return c.cdp.Call(ctx, c.Session, method, params, out)
}

// Eval evaluates expr in the page and decodes its value.
func (c *RawCDP) Eval(ctx context.Context, expr string, out any) error {
	return c.cdp.Eval(ctx, c.Session, expr, out)
}

// Navigate loads url in the page and waits for its load event.
func (c *RawCDP) Navigate(ctx context.Context, url string) error {
	return c.Page().Navigate(ctx, url)
}

// Page is the browser's first page, the one Call, Eval and Navigate use.
func (c *RawCDP) Page() *RawPage {
	c.once.Do(func() { c.page = &RawPage{c: c, Session: c.Session} })
	return c.page
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
	if err := c.cdp.Call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank", "newWindow": newWindow}, &tgt); err != nil {
		return nil, err
	}
	session, err := c.cdp.Attach(ctx, tgt.TargetID)
	if err != nil {
		return nil, err
	}
	p := &RawPage{c: c, Session: session, TargetID: tgt.TargetID}
	if err := p.Call(ctx, "Page.enable", nil, nil); err != nil {
		return nil, err
	}
	p.enabled = true
	return p, nil
}

// Detach ends the page's debugging session (the tab stays).
func (p *RawPage) Detach(ctx context.Context) error {
	return p.c.cdp.Detach(ctx, p.Session)
}

// Attach attaches a new debugging session to the page and enables its
// Page domain: what a client that did not load the page itself (as the
// bridge, acting on a tab it finds) does before its first input.
func (p *RawPage) Attach(ctx context.Context) error {
	session, err := p.c.cdp.Attach(ctx, p.TargetID)
	if err != nil {
		return err
	}
	p.Session = session
	return p.Call(ctx, "Page.enable", nil, nil)
}

// Close closes the page's tab.
func (p *RawPage) Close(ctx context.Context) error {
	return p.c.cdp.Call(ctx, "", "Target.closeTarget", map[string]any{"targetId": p.TargetID}, nil)
}

// Call sends a command to the page's session.
func (p *RawPage) Call(ctx context.Context, method string, params, out any) error {
	return p.c.cdp.Call(ctx, p.Session, method, params, out)
}

// Eval evaluates expr in the page and decodes its value.
func (p *RawPage) Eval(ctx context.Context, expr string, out any) error {
	return p.c.cdp.Eval(ctx, p.Session, expr, out)
}

// Navigate loads url and waits for the page's load event
// (Page.loadEventFired): the soonest a CDP client can know that a page
// has loaded.
func (p *RawPage) Navigate(ctx context.Context, url string) error {
	if !p.enabled {
		if err := p.Call(ctx, "Page.enable", nil, nil); err != nil {
			return err
		}
		p.enabled = true
	}
	loaded := p.c.cdp.WaitEvent(p.Session, "Page.loadEventFired")
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

// Close stops the browser.
func (c *RawCDP) Close() {
	c.cdp.Close()
	termGroup(c.cmd)
	done := make(chan struct{})
	go func() { c.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		killGroup(c.cmd)
		<-done
	}
	os.RemoveAll(c.profile)
}
