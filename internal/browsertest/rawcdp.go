package browsertest

import (
	"context"
	"os"
	"os/exec"
	"syscall"
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
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
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

// Navigate loads url and waits for the load event's state.
func (c *RawCDP) Navigate(ctx context.Context, url string) error {
	if err := c.Call(ctx, "Page.navigate", map[string]any{"url": url}, nil); err != nil {
		return err
	}
	for ctx.Err() == nil {
		var state string
		if c.Eval(ctx, "document.readyState", &state) == nil && state == "complete" {
			var href string
			if c.Eval(ctx, "location.href", &href) == nil && href == url {
				return nil
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return ctx.Err()
}

// Close stops the browser.
func (c *RawCDP) Close() {
	c.cdp.Close()
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
