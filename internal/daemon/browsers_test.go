package daemon_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browser"
	"github.com/browser-bridge/browser-bridge/internal/browser/fakebrowser"
	"github.com/browser-bridge/browser-bridge/internal/client"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// twoBrowserFake is a fake extension whose browser has one window (1)
// with one active tab 5 titled title, and that opens tab 6 in window 2
// for a workspace: two of them have equal tab IDs.
func twoBrowserFake(title string) *fakebrowser.Browser {
	fake := fakebrowser.New()
	fake.Hello.Brand = "Chromium"
	mine := browser.TabInfo{TabID: 5, WindowID: 1, URL: "https://example.com/" + title, Title: title, Active: true, GroupID: -1, Status: "complete"}
	opened := browser.TabInfo{TabID: 6, WindowID: 2, URL: "https://example.com/", Title: title, GroupID: 9, Status: "complete"}
	var mu sync.Mutex
	open := false
	fake.Handle("browser.state", func(context.Context, fakebrowser.Call) (any, error) {
		mu.Lock()
		defer mu.Unlock()
		s := protocol.BrowserState{LastFocusedWindowID: 1,
			Windows: []browser.WindowInfo{{WindowID: 1, Focused: true, Tabs: []browser.TabInfo{mine}}}}
		if open {
			s.Windows = append(s.Windows, browser.WindowInfo{WindowID: 2, Tabs: []browser.TabInfo{opened}})
		}
		return s, nil
	})
	fake.Handle("window.create", func(context.Context, fakebrowser.Call) (any, error) {
		mu.Lock()
		open = true
		mu.Unlock()
		return opened, nil
	})
	fake.Handle("tab.group", fakebrowser.Reply(protocol.TabGroupResult{GroupID: 9}))
	fake.Handle("tab.waitLoad", fakebrowser.Reply(opened))
	fake.Handle("tab.get", fakebrowser.Reply(opened))
	fake.Handle("tab.close", fakebrowser.Reply(protocol.OKResult{OK: true}))
	return fake
}

type statusOf struct {
	Browsers []struct {
		Slot     int
		Label    string
		Instance string
		Default  bool
		Shown    bool
	}
	ActiveTab struct {
		TabID int
		Title string
	}
	Workspaces []struct {
		ID   string
		Tabs []int
	}
}

func status(t *testing.T, c *client.Client, in map[string]any) statusOf {
	t.Helper()
	in["action"] = "status"
	raw, err := c.Call(context.Background(), in, 5*time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	var s statusOf
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// Two browsers with equal tab IDs on one daemon: status lists both, the
// second one's tab IDs carry its slot, a call picks its browser by tabId
// or browser, the default is the one focused last, and a workspace stays
// in its browser.
func TestTwoBrowsers(t *testing.T) {
	t.Parallel()
	layout := start(t)
	a, b := twoBrowserFake("A"), twoBrowserFake("B")
	host(t, layout, a)
	host(t, layout, b)
	c := connect(t, layout)
	call := func(in map[string]any) (json.RawMessage, error) {
		return c.Call(context.Background(), in, 5*time.Second, nil)
	}

	// The newest connection is the default while nobody focused one.
	s := status(t, c, map[string]any{})
	if len(s.Browsers) != 2 || s.Browsers[0].Slot != 0 || s.Browsers[1].Slot != 1 ||
		s.Browsers[0].Label != "Chromium" || s.Browsers[1].Label != "Chromium #1" ||
		s.Browsers[0].Instance != a.Hello.InstanceID || !s.Browsers[1].Default || !s.Browsers[1].Shown {
		t.Fatalf("status browsers %+v", s.Browsers)
	}
	if s.ActiveTab.TabID != 10_000_000_005 || s.ActiveTab.Title != "B" {
		t.Errorf("default status's active tab %+v, want B's tab 5 as 10000000005", s.ActiveTab)
	}
	if s := status(t, c, map[string]any{"browser": "chromium"}); s.ActiveTab.TabID != 5 || s.ActiveTab.Title != "A" || !s.Browsers[0].Shown {
		t.Errorf("status of browser chromium: %+v", s)
	}

	// open in each browser, both get Chrome's tab 5: the callers' IDs differ.
	openIn := func(sel string) int {
		t.Helper()
		raw, err := call(map[string]any{"action": "open", "url": "https://example.com/", "browser": sel, "browserWorkspaceId": "w"})
		if err != nil {
			t.Fatalf("open in %s: %v", sel, err)
		}
		var got struct{ TabID int }
		json.Unmarshal(raw, &got)
		return got.TabID
	}
	if id := openIn("0"); id != 6 {
		t.Errorf("open in browser 0 gave tab %d, want 6", id)
	}
	if id := openIn("Chromium #1"); id != 10_000_000_006 {
		t.Errorf("open in browser 1 gave tab %d, want 10000000006", id)
	}
	if len(a.Calls("window.create")) != 1 || len(b.Calls("window.create")) != 1 {
		t.Errorf("workspace w made %d windows in A and %d in B, want one each", len(a.Calls("window.create")), len(b.Calls("window.create")))
	}
	for _, sel := range []string{"0", "1"} {
		s := status(t, c, map[string]any{"browser": sel})
		want := 6
		if sel == "1" {
			want = 10_000_000_006
		}
		if len(s.Workspaces) != 1 || s.Workspaces[0].ID != "w" || len(s.Workspaces[0].Tabs) != 1 || s.Workspaces[0].Tabs[0] != want {
			t.Errorf("browser %s's workspaces %+v, want w with tab %d", sel, s.Workspaces, want)
		}
	}

	// A qualified tabId goes to its own browser, as Chrome's ID.
	if _, err := call(map[string]any{"action": "close", "tabId": 10_000_000_006, "browserWorkspaceId": "w"}); err != nil {
		t.Fatal(err)
	}
	// Its errors name the tab as the caller does.
	_, err := call(map[string]any{"action": "close", "tabId": 10_000_000_005})
	if protocol.CodeOf(err) != protocol.CodeNotOwned || !strings.Contains(err.Error(), "10000000005") {
		t.Errorf("closing B's own tab 5: %v", err)
	}
	if len(a.Calls("tab.close")) != 0 || len(b.Calls("tab.close")) != 1 {
		t.Fatalf("close of 10000000006 reached A %d and B %d times", len(a.Calls("tab.close")), len(b.Calls("tab.close")))
	}
	var p protocol.TabCloseParams
	b.Calls("tab.close")[0].Decode(&p)
	if p.TabID != 6 && (len(p.TabIDs) != 1 || p.TabIDs[0] != 6) {
		t.Errorf("B was asked to close %+v, want Chrome's tab 6", p)
	}

	// A browser parameter that disagrees with the tabId, or names nobody.
	_, err = call(map[string]any{"action": "close", "tabId": 10_000_000_005, "browser": "0"})
	wantCode(t, err, protocol.CodeInvalidArgument)
	_, err = call(map[string]any{"action": "status", "browser": "Firefox"})
	wantCode(t, err, protocol.CodeInvalidArgument)
	_, err = call(map[string]any{"action": "close", "tabId": 70_000_000_005})
	wantCode(t, err, protocol.CodeTabNotFound)

	// The user focuses A: it becomes the default.
	if err := a.Send(map[string]any{"type": protocol.TypeFocused}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); ; {
		s := status(t, c, map[string]any{})
		if s.Browsers[0].Default && s.ActiveTab.TabID == 5 && s.ActiveTab.Title == "A" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after A's focus event the default is still %+v", s)
		}
		time.Sleep(10 * time.Millisecond)
	}

	// B goes away: its tabs fail naming it, A's work on.
	b.Drop()
	for deadline := time.Now().Add(5 * time.Second); len(status(t, c, map[string]any{}).Browsers) != 1; {
		if time.Now().After(deadline) {
			t.Fatal("status still lists B after it dropped")
		}
		time.Sleep(10 * time.Millisecond)
	}
	_, err = call(map[string]any{"action": "close", "tabId": 10_000_000_005, "timeoutMs": 300})
	wantCode(t, err, protocol.CodeExtensionNotConnected)
	_, err = call(map[string]any{"action": "status", "browser": "1", "timeoutMs": 300})
	wantCode(t, err, protocol.CodeExtensionNotConnected)
	if _, err := call(map[string]any{"action": "close", "tabId": 6, "browserWorkspaceId": "w"}); err != nil {
		t.Errorf("closing A's tab 6 with B gone: %v", err)
	}
	if len(a.Calls("tab.close")) != 1 {
		t.Errorf("A got %d tab.close", len(a.Calls("tab.close")))
	}
}

// Every connected browser gets the site rules, not only the default one.
func TestEveryBrowserGetsTheSiteRules(t *testing.T) {
	t.Parallel()
	layout := start(t)
	a, b := fakebrowser.New(), fakebrowser.New()
	a.Hello.Focused = true // b never becomes the default
	for _, f := range []*fakebrowser.Browser{a, b} {
		f.Handle("policy.set", fakebrowser.Reply(protocol.OKResult{OK: true}))
		host(t, layout, f)
	}
	for _, f := range []*fakebrowser.Browser{a, b} {
		if _, err := f.WaitCalls(waitCtx(t), "policy.set", 1); err != nil {
			t.Errorf("browser %s got no site rules: %v", f.Hello.InstanceID, err)
		}
	}
}

// A program's verbs stay in one browser: the default one at the
// connection's first verb, even after the user focuses another; a verb
// that names a browser goes there; a new connection starts from the
// default of its own first verb.
func TestVerbsStayInTheirBrowser(t *testing.T) {
	t.Parallel()
	layout := start(t)
	a, b := fakebrowser.New(), fakebrowser.New()
	for _, f := range []*fakebrowser.Browser{a, b} {
		f.Hello.Brand = "Chromium"
		f.Handle("program.call", fakebrowser.Reply(map[string]any{"tabs": []any{}}))
		host(t, layout, f)
	}
	c := connect(t, layout)
	verb := func(c *client.Client, browser string) error {
		_, err := c.VerbIn(context.Background(), browser, "tab.list", map[string]any{}, nil)
		return err
	}
	calls := func() (int, int) { return len(a.Calls("program.call")), len(b.Calls("program.call")) }

	// B connected last: it is the default, and the connection's browser.
	if err := verb(c, ""); err != nil {
		t.Fatal(err)
	}
	if na, nb := calls(); na != 0 || nb != 1 {
		t.Fatalf("the first verb reached A %d and B %d times, want B once", na, nb)
	}

	// The user focuses A; the connection's verbs stay with B.
	if err := a.Send(map[string]any{"type": protocol.TypeFocused}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); !status(t, c, map[string]any{}).Browsers[0].Default; {
		if time.Now().After(deadline) {
			t.Fatal("A never became the default after its focus event")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := verb(c, ""); err != nil {
		t.Fatal(err)
	}
	if na, nb := calls(); na != 0 || nb != 2 {
		t.Fatalf("after A got the focus, the connection's verb reached A %d and B %d times, want B again", na, nb)
	}

	// A verb that names a browser goes there, by slot or by label.
	for _, sel := range []string{"0", "chromium"} {
		if err := verb(c, sel); err != nil {
			t.Fatalf("verb in browser %q: %v", sel, err)
		}
	}
	if na, nb := calls(); na != 2 || nb != 2 {
		t.Fatalf("verbs naming browser 0 reached A %d and B %d times, want A twice", na, nb)
	}
	wantCode(t, verb(c, "Firefox"), protocol.CodeInvalidArgument)

	// A new connection starts at today's default, A.
	if err := verb(connect(t, layout), ""); err != nil {
		t.Fatal(err)
	}
	if na, nb := calls(); na != 3 || nb != 2 {
		t.Fatalf("a new connection's verb reached A %d and B %d times in all, want A", na, nb)
	}
}
