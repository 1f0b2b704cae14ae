package daemon_test

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/browser/fakebrowser"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// A command sent while no extension is connected (it is reconnecting: the
// host died, the daemon just restarted) waits for it, and books what it
// opens under the browser that connected — not under no browser at all,
// where close and closeWorkspace would never find it again.
func TestCommandSentWhileReconnectingWaitsAndOwnsItsTab(t *testing.T) {
	t.Parallel()
	layout := start(t)
	fake := fakebrowser.New()
	tab := browser.TabInfo{TabID: 5, WindowID: 2, URL: "https://example.com/", Title: "Example", GroupID: -1, Status: "complete"}
	// The browser's state after the hello, which the daemon reconciles
	// its registry with, shows the tab once the open has created it: a
	// fake whose state never did would have it forgotten whenever the
	// open is booked before the reconciliation's look.
	var created atomic.Bool
	fake.Handle("window.create", fakebrowser.Typed(func(context.Context, protocol.WindowCreateParams) (any, error) {
		created.Store(true)
		return tab, nil
	}))
	fake.Handle("browser.state", fakebrowser.Typed(func(context.Context, struct{}) (any, error) {
		st := protocol.BrowserState{LastFocusedWindowID: -1, Windows: []protocol.WindowInfo{}, Running: []string{}}
		if created.Load() {
			st.Windows = append(st.Windows, protocol.WindowInfo{WindowID: 2, Tabs: []protocol.TabInfo{tab}})
		}
		return st, nil
	}))
	fake.Handle("tab.group", fakebrowser.Reply(protocol.TabGroupResult{GroupID: 9}))
	fake.Handle("tab.waitLoad", fakebrowser.Reply(tab))
	fake.Handle("tab.get", fakebrowser.Reply(tab))
	fake.Handle("tab.close", fakebrowser.Reply(protocol.OKResult{OK: true}))
	c := connect(t, layout)
	type result struct {
		raw json.RawMessage
		err error
	}
	done := make(chan result, 1)
	go func() {
		raw, err := c.Call(context.Background(), map[string]any{"action": "open", "url": "https://example.com/"}, 10*time.Second, nil)
		done <- result{raw, err}
	}()
	time.Sleep(100 * time.Millisecond) // the open is waiting for an extension
	host(t, layout, fake)
	r := <-done
	if r.err != nil {
		t.Fatalf("the open sent before the extension connected: %v", r.err)
	}
	if _, err := c.Call(context.Background(), map[string]any{"action": "close", "tabId": 5}, 5*time.Second, nil); err != nil {
		t.Fatalf("closing the tab that open opened: %v", err)
	}
}
