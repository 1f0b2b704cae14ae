package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/launcher"
	"github.com/browser-bridge/browser-bridge/internal/nmhost"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// Options change how StartWith starts the bridge; the zero value is
// Start's (`browser-bridge launch --headless`).
type Options struct {
	// DebugPipe starts the browser from the test process itself, through
	// package launcher as `launch` does, plus a CDP connection over
	// --remote-debugging-pipe that the test owns (Bridge.CDP). Its
	// profile is kept for the Bridge's life, so that StopBrowser and
	// StartBrowser quit and start the same browser profile again, as a
	// user who restarts Chrome does.
	DebugPipe bool
}

// StartWith is Start with options.
func StartWith(o Options) (*Bridge, error) {
	if !o.DebugPipe {
		return Start()
	}
	env, err := NewEnv()
	if err != nil {
		return nil, err
	}
	b := &Bridge{Env: env, opts: o}
	b.Launch.Profile = filepath.Join(env.Home, "profile")
	b.Launch.ExtensionID = protocol.DevExtensionID
	// The daemon first (any CLI command starts it): the host that the
	// browser starts then finds it at once.
	if out, err := env.Command(context.Background(), "status").CombinedOutput(); err != nil {
		b.Env.Close()
		return nil, fmt.Errorf("starting the daemon: %v\n%s", err, out)
	}
	if err := b.StartBrowser(); err != nil {
		b.Close()
		return nil, err
	}
	return b, nil
}

// MainWith is Main with options.
func MainWith(m *testing.M, bridge **Bridge, o Options) int {
	b, err := StartWith(o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "FAIL: the real-browser harness could not start:", err)
		return 1
	}
	*bridge = b
	code := m.Run()
	b.Close()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	return code
}

// Another starts a second browser, with a profile of its own (so its own
// extension instance), connected to the same daemon as b: the tests of
// several browsers at once. It is a DebugPipe bridge; its Close stops its
// browser only, the daemon and the state folder stay b's.
func (b *Bridge) Another(name string) (*Bridge, error) {
	a := &Bridge{Env: b.Env, opts: Options{DebugPipe: true}, shared: true}
	a.Launch.Profile = filepath.Join(b.Home, "profile-"+name)
	a.Launch.ExtensionID = protocol.DevExtensionID
	if err := a.StartBrowser(); err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

// StartBrowser starts the browser of a DebugPipe bridge (again, after
// StopBrowser or a crash) with the same profile, and waits until its
// extension has connected to the daemon.
func (b *Bridge) StartBrowser() error {
	if !b.opts.DebugPipe {
		return fmt.Errorf("StartBrowser needs Options.DebugPipe")
	}
	if b.browser != nil {
		return fmt.Errorf("the browser is running")
	}
	logf, err := os.OpenFile(filepath.Join(b.Home, "browser.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer logf.Close()
	// fd 3: Chromium reads commands; fd 4: it writes replies.
	cmdR, cmdW, err := os.Pipe()
	if err != nil {
		return err
	}
	repR, repW, err := os.Pipe()
	if err != nil {
		return err
	}
	started := time.Now()
	br, err := launcher.Start(launcher.Options{
		Headless: true, Profile: b.Launch.Profile, StartURL: "chrome://version",
		HostExe: b.Bin, Origins: nmhost.AllowedOrigins(b.Bin),
		Env: b.Vars, Args: []string{"--remote-debugging-pipe", "--silent-debugger-extension-api"},
		ExtraFiles: []*os.File{cmdR, repW}, Stderr: logf,
	})
	cmdR.Close()
	repW.Close()
	if err != nil {
		cmdW.Close()
		repR.Close()
		return err
	}
	b.browser = br
	b.Launch.PID = br.Cmd.Process.Pid
	b.CDP = newCDP(cmdW, repR)
	go func() { <-br.Done(); repR.Close() }()
	if err := b.waitForExtension(started, 30*time.Second); err != nil {
		log, _ := os.ReadFile(filepath.Join(b.Home, "browser.log"))
		return fmt.Errorf("%w; the browser's log:\n%s", err, log)
	}
	return nil
}

// waitForExtension polls status until an extension that connected after
// started is there.
func (b *Bridge) waitForExtension(started time.Time, within time.Duration) error {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		out, _ := b.Command(ctx, "status").Output()
		cancel()
		var st struct {
			Connected bool `json:"connected"`
			Extension struct {
				ConnectedAt time.Time `json:"connectedAt"`
			} `json:"extension"`
			// Another browser may be the daemon's default (Another).
			Browsers []struct {
				ConnectedAt time.Time `json:"connectedAt"`
			} `json:"browsers"`
		}
		if json.Unmarshal(out, &st) == nil && st.Connected && st.Extension.ConnectedAt.After(started) {
			return nil
		}
		for _, br := range st.Browsers {
			if br.ConnectedAt.After(started) {
				return nil
			}
		}
		select {
		case <-b.browser.Done():
			return fmt.Errorf("the browser exited before its extension connected: %v", b.browser.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
	return fmt.Errorf("the extension did not connect within %s", within)
}

// StopBrowser quits the browser of a DebugPipe bridge as a user quitting
// Chrome would (SIGTERM: Chromium saves its profile and closes its native
// host's pipes), keeping its profile for StartBrowser.
func (b *Bridge) StopBrowser() {
	if b.browser == nil {
		return
	}
	b.browser.Stop() // the profile is not a temporary one: it stays
	b.CDP.Close()
	b.browser, b.CDP = nil, nil
}

// ServiceWorker returns the target of the extension's service worker, if
// one runs.
func (b *Bridge) ServiceWorker(ctx context.Context) (Target, bool, error) {
	// Only a DebugPipe bridge has b.CDP; a failing test's diagnostics
	// call this too, and must not panic in place of its message.
	if b.CDP == nil {
		return Target{}, false, fmt.Errorf("this bridge's browser has no debugging pipe (launched without DebugPipe)")
	}
	ts, err := b.CDP.Targets(ctx)
	if err != nil {
		return Target{}, false, err
	}
	for _, t := range ts {
		if t.Type == "service_worker" && strings.HasPrefix(t.URL, "chrome-extension://"+protocol.DevExtensionID+"/") {
			return t, true, nil
		}
	}
	return Target{}, false, nil
}

// InServiceWorker evaluates expr in the extension's service worker (it
// may use chrome.* and await) through the test's own debugging session,
// which it closes again.
func (b *Bridge) InServiceWorker(ctx context.Context, expr string, out any) error {
	sw, ok, err := b.ServiceWorker(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("the extension's service worker is not running")
	}
	s, err := b.CDP.Attach(ctx, sw.TargetID)
	if err != nil {
		return err
	}
	defer b.CDP.Detach(context.Background(), s)
	return b.CDP.Eval(ctx, s, expr, out)
}
