package daemon_test

import (
	"context"
	"encoding/json"
	"maps"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/browser/fakebrowser"
	"github.com/browser-bridge/browser-bridge/internal/client"
	"github.com/browser-bridge/browser-bridge/internal/daemon"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/settings"
)

// fakeWindow makes the fake browser (standing in for the extension and
// Chrome) open tab 5 in window 2, group 9, and list it in browser.state.
func fakeWindow(fake *fakebrowser.Browser) {
	loaded := true
	tab := browser.TabInfo{TabID: 5, WindowID: 2, URL: "https://example.com/", Title: "Example", GroupID: 9, Status: "complete", Loaded: &loaded}
	fake.Handle("window.create", fakebrowser.Reply(tab))
	fake.Handle("tab.group", fakebrowser.Reply(protocol.TabGroupResult{GroupID: 9}))
	fake.Handle("tab.waitLoad", fakebrowser.Reply(tab))
	fake.Handle("browser.state", fakebrowser.Reply(protocol.BrowserState{LastFocusedWindowID: 2,
		Windows: []protocol.WindowInfo{{WindowID: 2, Tabs: []browser.TabInfo{tab}}}}))
	fake.Handle("window.close", fakebrowser.Reply(protocol.OKResult{OK: true}))
	fake.Handle("tab.close", fakebrowser.Reply(protocol.OKResult{OK: true}))
}

// openAsAgent opens a page as an agent session and hangs up.
func openAsAgent(t *testing.T, ctx context.Context, c *client.Client) {
	t.Helper()
	if _, err := c.Call(ctx, map[string]any{"action": "open", "url": "https://example.com/"}, 10*time.Second, nil); err != nil {
		t.Fatal(err)
	}
}

// When an agent's session ends, its session workspace is closed after the
// grace period; a session that reconnects in time keeps it.
func TestAgentSessionIsCleanedUpAfterItEnds(t *testing.T) {
	t.Parallel()
	layout := start(t)
	settings.Save(layout, settings.Settings{SessionGraceSeconds: 1})
	fake := fakebrowser.New()
	fakeWindow(fake)
	host(t, layout, fake)
	ctx := waitCtx(t)

	c, err := client.ConnectAgent(ctx, layout, "session:agent-a")
	if err != nil {
		t.Fatal(err)
	}
	openAsAgent(t, ctx, c)
	c.Close()
	// Back within the grace period: nothing is closed.
	time.Sleep(300 * time.Millisecond)
	again, err := client.ConnectAgent(ctx, layout, "session:agent-a")
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond)
	if n := len(fake.Calls("window.close")); n != 0 {
		t.Fatalf("the workspace was closed while its session was back (%d window.close)", n)
	}
	again.Close()
	closesWindow2(t, fake, "the session ended")
}

// closesWindow2 waits up to 5 s for the fake's window.close, and checks
// that it came once, for the workspace's window 2, after what.
func closesWindow2(t *testing.T, fake *fakebrowser.Browser, what string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for len(fake.Calls("window.close")) == 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	calls := fake.Calls("window.close")
	if len(calls) != 1 {
		t.Fatalf("window.close %d times after %s, want once", len(calls), what)
	}
	var p protocol.WindowCloseParams
	calls[0].Decode(&p)
	if p.WindowID != 2 {
		t.Errorf("closed window %d, want the workspace's window 2", p.WindowID)
	}
}

// A CLI (not an agent session) hanging up cleans up nothing, and
// keepSessionTabs keeps an agent's tabs.
func TestOnlyAgentSessionsAreCleanedUp(t *testing.T) {
	t.Parallel()
	layout := start(t)
	settings.Save(layout, settings.Settings{SessionGraceSeconds: 1})
	fake := fakebrowser.New()
	fakeWindow(fake)
	host(t, layout, fake)
	ctx := waitCtx(t)
	c := connect(t, layout)
	openAsAgent(t, ctx, c)
	c.Close()
	settings.Save(layout, settings.Settings{SessionGraceSeconds: 1, KeepSessionTabs: true})
	a, err := client.ConnectAgent(ctx, layout, "session:agent-b")
	if err != nil {
		t.Fatal(err)
	}
	openAsAgent(t, ctx, a)
	a.Close()
	time.Sleep(1800 * time.Millisecond)
	if n := len(fake.Calls("window.close")) + len(fake.Calls("tab.close")); n != 0 {
		t.Errorf("%d closes: a CLI session and a kept agent session must not be cleaned up", n)
	}
}

// The user closed the workspace page alone: the extension put the
// workspace's tabs back into a new group with a new page (extension/
// handlers/windows.js regroup), so the registry's group is out of date.
// The session's clean-up still closes the workspace, rather than taking
// its pages for ones the user moved out of its group.
func TestSessionCleanupFollowsTheWorkspacePagesGroup(t *testing.T) {
	t.Parallel()
	layout := start(t)
	settings.Save(layout, settings.Settings{SessionGraceSeconds: 1})
	fake := fakebrowser.New()
	fakeWindow(fake)
	host(t, layout, fake)
	ctx := waitCtx(t)
	a, err := client.ConnectAgent(ctx, layout, "session:agent-c")
	if err != nil {
		t.Fatal(err)
	}
	openAsAgent(t, ctx, a)
	// Tab 5 is now in group 12, with the new workspace page (tab 6).
	page := browser.TabInfo{TabID: 6, WindowID: 2, URL: "chrome-extension://x/ui/workspace.html", GroupID: 12, WorkspacePage: true}
	tab := browser.TabInfo{TabID: 5, WindowID: 2, URL: "https://example.com/", GroupID: 12}
	fake.Handle("browser.state", fakebrowser.Reply(protocol.BrowserState{LastFocusedWindowID: 2,
		Windows: []protocol.WindowInfo{{WindowID: 2, Tabs: []browser.TabInfo{page, tab}}}}))
	a.Close()
	deadline := time.Now().Add(5 * time.Second)
	for len(fake.Calls("window.close"))+len(fake.Calls("tab.close")) == 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if w, tabs := len(fake.Calls("window.close")), len(fake.Calls("tab.close")); w != 1 || tabs != 0 {
		t.Errorf("after the session ended: %d window.close and %d tab.close, want the workspace's window closed", w, tabs)
	}
}

// A named workspace nothing used for its expiry (30 minutes, here 1 s)
// is closed, window and group, like closeWorkspace (registry's
// TestWorkspacesExpireWhole: a session's workspace is not).
func TestExpiredWorkspaceIsClosed(t *testing.T) {
	t.Parallel()
	layout := startWith(t, func(d *daemon.Daemon) { d.ShortenExpiry(time.Second, 100*time.Millisecond) })
	fake := fakebrowser.New()
	fakeWindow(fake)
	host(t, layout, fake)
	ctx := waitCtx(t)
	c := connect(t, layout)
	if _, err := c.Call(ctx, map[string]any{"action": "open", "url": "https://example.com/", "browserWorkspaceId": "named"}, 10*time.Second, nil); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	if n := len(fake.Calls("window.close")); n != 0 {
		t.Fatalf("window.close %d times before the workspace expired", n)
	}
	closesWindow2(t, fake, "the named workspace expired")
	st, err := c.Call(ctx, map[string]any{"action": "status"}, 10*time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	var status struct {
		Workspaces []struct {
			ID string `json:"id"`
		} `json:"workspaces"`
	}
	if err := json.Unmarshal(st, &status); err != nil {
		t.Fatal(err)
	}
	if len(status.Workspaces) != 0 {
		t.Errorf("workspaces after the expiry: %+v, want none", status.Workspaces)
	}
}

// An expired workspace whose close keeps failing is tried again less and
// less often, not every sweep: the audit trail gets a line a try.
func TestFailingExpiredCloseBacksOff(t *testing.T) {
	t.Parallel()
	layout := startWith(t, func(d *daemon.Daemon) { d.ShortenExpiry(100*time.Millisecond, 50*time.Millisecond) })
	fake := fakebrowser.New()
	fakeWindow(fake)
	fake.FailNth("window.close", 0, "browser_error", "the window does not close")
	fake.FailNth("tab.close", 0, "browser_error", "the tab does not close")
	host(t, layout, fake)
	c := connect(t, layout)
	if _, err := c.Call(waitCtx(t), map[string]any{"action": "open", "url": "https://example.com/", "browserWorkspaceId": "named"}, 10*time.Second, nil); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second) // 38 sweeps past the expiry
	tries := len(fake.Calls("window.close"))
	if tries < 2 || tries > 8 {
		t.Errorf("%d tries to close a workspace whose close fails in 38 sweeps, want a few, each after a longer wait", tries)
	}
}

// Workspaces that must outlive their expiry: any with keepSessionTabs
// (the user keeps what the agent left, named workspaces too), and a
// program's (or the CLI's) own workspace, which only a named one is not,
// however long the program waits between calls.
func TestWorkspacesThatDoNotExpire(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, session string
		keep          bool
		open          map[string]any
	}{
		{"keepSessionTabs", "session:test", true, map[string]any{"browserWorkspaceId": "named"}},
		{"a program's own", "program:tool", false, map[string]any{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			layout := startWith(t, func(d *daemon.Daemon) { d.ShortenExpiry(100*time.Millisecond, 50*time.Millisecond) })
			settings.Save(layout, settings.Settings{KeepSessionTabs: c.keep})
			fake := fakebrowser.New()
			fakeWindow(fake)
			host(t, layout, fake)
			cl, err := client.Connect(waitCtx(t), layout, c.session)
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Close()
			in := map[string]any{"action": "open", "url": "https://example.com/"}
			maps.Copy(in, c.open)
			if _, err := cl.Call(waitCtx(t), in, 10*time.Second, nil); err != nil {
				t.Fatal(err)
			}
			time.Sleep(time.Second) // ten sweeps past the expiry
			if n := len(fake.Calls("window.close")) + len(fake.Calls("tab.close")); n != 0 {
				t.Errorf("%d closes of %s workspace after its expiry", n, c.name)
			}
		})
	}
}
