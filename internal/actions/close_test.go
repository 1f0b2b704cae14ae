package actions

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/browser/fakebrowser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/registry"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// TestCloseExpiredKeepsAWorkspaceOpenedInto is the daemon's sweep racing
// an open: the sweep listed the workspace as expired, but an open into it
// held the workspace's lock and saved it, used, before the close got its
// turn. The close must then leave it (the fake browser fails the test on
// any verb: nothing may be closed).
func TestCloseExpiredKeepsAWorkspaceOpenedInto(t *testing.T) {
	fake := fakebrowser.New()
	env := engine(t, fake)
	now := time.Now()
	env.Registries.SetClock(func() time.Time { return now })
	reg := env.Registries.For(env.Browser.Info().Instance)
	reg.SetWorkspace(registry.Workspace{ID: "named", WindowID: 7, GroupID: 3, Named: true})
	now = now.Add(registry.TTL + time.Minute)
	if ex := reg.Expired(); len(ex) != 1 || ex[0].ID != "named" {
		t.Fatalf("expired %v, want [named]", ex)
	}

	unlock, _ := env.workspaces.lock(context.Background(), "named") // an open in progress
	done := make(chan bool)
	go func() {
		closed, err := CloseExpired(context.Background(), env, nil, "named")
		if err != nil {
			t.Error(err)
		}
		done <- closed
	}()
	select {
	case <-done:
		t.Fatal("the close did not wait for the open's lock")
	case <-time.After(100 * time.Millisecond):
	}
	ws, _ := reg.Workspace("named")
	reg.SetWorkspace(ws) // the open saves the workspace, used now
	unlock()
	if <-done {
		t.Error("an expired workspace that an open used since was closed")
	}
	if calls := fake.Calls(""); len(calls) != 0 {
		t.Errorf("the browser was asked %d things", len(calls))
	}
}

// closeWorkspace closes a window that holds only the workspace's tabs and
// a workspace page, even when the registry knows another window as the
// workspace's home (an open whose daemon died before saving its window
// left one, and the next open made a new one); a window another
// workspace calls home only loses the workspace's tabs.
func TestCloseWorkspaceClosesItsStrayWindow(t *testing.T) {
	fake := fakebrowser.New()
	env := engine(t, fake)
	reg := env.Registries.For(env.Browser.Info().Instance)
	reg.SetWorkspace(registry.Workspace{ID: "ws", WindowID: 5, GroupID: 3, Named: true})
	reg.SetWorkspace(registry.Workspace{ID: "other", WindowID: 6, GroupID: 4, Named: true})
	for _, tab := range []struct{ id, window int }{{11, 4}, {21, 5}, {31, 6}} {
		reg.AddTab(tab.id, tab.window, "ws")
	}
	page := func(id int) browser.TabInfo { return browser.TabInfo{TabID: id, WorkspacePage: true} }
	tab := func(id int) browser.TabInfo { return browser.TabInfo{TabID: id, URL: "https://example.com/"} }
	fake.Handle("browser.state", fakebrowser.Reply(protocol.BrowserState{Windows: []protocol.WindowInfo{
		{WindowID: 4, Tabs: []browser.TabInfo{tab(11), page(12)}}, // the stray
		{WindowID: 5, Tabs: []browser.TabInfo{tab(21), page(22)}}, // home
		{WindowID: 6, Tabs: []browser.TabInfo{tab(31), page(32)}}, // the other workspace's home
	}}))
	fake.Handle("window.close", fakebrowser.Reply(struct{}{}))
	fake.Handle("tab.close", fakebrowser.Reply(struct{}{}))
	res, err := Run(context.Background(), env, "session:a", input(t, `{"action":"close","closeWorkspace":true,"browserWorkspaceId":"ws"}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.(*tool.CloseResult).ClosedWindows; !slices.Equal(got, []int{4, 5}) {
		t.Errorf("closed windows %v, want the stray 4 and home 5", got)
	}
	var closed protocol.TabCloseParams
	if calls := fake.Calls("tab.close"); len(calls) != 1 || calls[0].Decode(&closed) != nil || !slices.Equal(closed.TabIDs, []int{31}) {
		t.Errorf("tab.close calls %v, want tab 31 alone, out of the other workspace's window", calls)
	}
}
