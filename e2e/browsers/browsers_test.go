// Package browsers tests one daemon serving two real Chromium processes at
// once, each with its own profile and so its own extension instance.
package browsers

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	bb "github.com/browser-bridge/browser-bridge/bridge"
	"github.com/browser-bridge/browser-bridge/internal/browsertest"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

var bridge *browsertest.Bridge

func TestMain(m *testing.M) {
	os.Exit(browsertest.MainWith(m, &bridge, browsertest.Options{DebugPipe: true}))
}

// browsers is status's list of connected browsers.
func browsers(t *testing.T, status map[string]any) []map[string]any {
	t.Helper()
	list, _ := status["browsers"].([]any)
	var out []map[string]any
	for _, b := range list {
		out = append(out, b.(map[string]any))
	}
	return out
}

// defaultSlot is the slot status marks as the default browser (-1: none).
func defaultSlot(t *testing.T) int {
	t.Helper()
	for _, b := range browsers(t, bridge.MustCall(t, map[string]any{"action": "status"})) {
		if b["default"] == true {
			return int(b["slot"].(float64))
		}
	}
	return -1
}

// secondSlot is the slot of the one connected browser besides the
// test's own: 1, or more when an earlier test's second browser took slot
// 1 (slots are kept for every profile ever seen).
func secondSlot(t *testing.T) int {
	t.Helper()
	list := browsers(t, bridge.MustCall(t, map[string]any{"action": "status"}))
	if len(list) != 2 || int(list[0]["slot"].(float64)) != 0 {
		t.Fatalf("status lists %v, want browser 0 and one more", list)
	}
	return int(list[1]["slot"].(float64))
}

// focus focuses a window of browser b, as a user clicking it would (its
// extension hears chrome.windows.onFocusChanged).
func focus(t *testing.T, b *browsertest.Bridge) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var ok bool
	// A new focused window: headless Chromium may consider its windows
	// focused already, and then focusing one of them changes nothing.
	err := b.InServiceWorker(ctx, `(async () => {
		const w = await chrome.windows.create({ focused: true, url: "about:blank" });
		await new Promise((r) => setTimeout(r, 200));
		await chrome.windows.remove(w.id);
		return true;
	})()`, &ok)
	if err != nil || !ok {
		t.Fatalf("focusing a window: %v", err)
	}
}

// Two Chromium processes on one daemon: status lists both with labels,
// each opens a tab with the same Chrome tab ID and the callers' IDs still
// differ, the browser parameter picks one, a qualified tabId goes to its
// own browser, the default follows the user's focus, and a browser that
// has gone fails its tabs with extension_not_connected.
func TestTwoBrowsersOnOneDaemon(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		title := strings.TrimPrefix(r.URL.Path, "/page/")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!doctype html><title>%s</title><h1>%s</h1>", html.EscapeString(title), html.EscapeString(title))
	}))
	defer srv.Close()

	second, err := bridge.Another("second")
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()

	st := bridge.MustCall(t, map[string]any{"action": "status"})
	list := browsers(t, st)
	if len(list) != 2 {
		t.Fatalf("status lists %d browsers, want 2: %v", len(list), st["browsers"])
	}
	labels := map[string]bool{}
	for i, b := range list {
		if int(b["slot"].(float64)) != i || b["label"] == "" || b["instance"] == "" || b["connectedAt"] == nil {
			t.Errorf("browser %d in status: %v", i, b)
		}
		labels[b["label"].(string)] = true
	}
	t.Logf("browsers: %v", list)
	if len(labels) != 2 {
		t.Errorf("the two browsers' labels are not distinct: %v", list)
	}

	// Each browser opens a tab in the same-named workspace; Chrome gives
	// both the same ID (fresh profiles number their tabs alike).
	open := func(sel string) int {
		t.Helper()
		r := bridge.MustCall(t, map[string]any{"action": "open", "url": srv.URL + "/page/in-" + sel, "browser": sel, "browserWorkspaceId": "two"})
		return int(r["tabId"].(float64))
	}
	t0, t1 := open("0"), open("1")
	if t0 >= 10_000_000_000 || t1/10_000_000_000 != 1 {
		t.Fatalf("tab IDs %d (browser 0) and %d (browser 1): want browser 1's to carry its slot", t0, t1)
	}
	if t1%10_000_000_000 != t0 {
		t.Logf("Chrome's own tab IDs differ (%d, %d); the test still checks they are kept apart", t0, t1%10_000_000_000)
	}

	// Each tab ID reads its own browser's page, with or without browser.
	for tab, want := range map[int]string{t0: "in-0", t1: "in-1"} {
		r := bridge.MustCall(t, map[string]any{"action": "extract", "tabId": tab, "include": []string{"text"}})
		if r["title"] != want || int(r["tabId"].(float64)) != tab {
			t.Errorf("extract of tab %d: title %v tabId %v, want %q", tab, r["title"], r["tabId"], want)
		}
	}
	if r := bridge.MustCall(t, map[string]any{"action": "extract", "tabId": t1, "browser": "1", "include": []string{"text"}}); r["title"] != "in-1" {
		t.Errorf("extract of tab %d in browser 1: %v", t1, r["title"])
	}
	// An error the extension writes names the tab as the caller knows it
	// (a fresh tab has no page to go back to).
	if r := bridge.Call(t, map[string]any{"action": "back", "tabId": t1}); r.Err == nil || !strings.Contains(r.Err.Message, fmt.Sprintf("tab %d ", t1)) {
		t.Errorf("back in browser 1's fresh tab %d: %s", t1, r.Stdout)
	}
	r := bridge.Call(t, map[string]any{"action": "extract", "tabId": t1, "browser": "0"})
	if r.Err == nil || r.Err.Code != protocol.CodeInvalidArgument {
		t.Errorf("a browser that disagrees with the tabId: %s", r.Stdout)
	}

	// Each browser's status lists its own tab and workspace only.
	for sel, tab := range map[string]int{"0": t0, "1": t1} {
		st := bridge.MustCall(t, map[string]any{"action": "status", "browser": sel})
		ws, _ := st["workspaces"].([]any)
		if len(ws) != 1 {
			t.Fatalf("browser %s's workspaces: %v", sel, st["workspaces"])
		}
		w := ws[0].(map[string]any)
		tabs, _ := w["tabs"].([]any)
		if w["id"] != "two" || len(tabs) != 1 || int(tabs[0].(float64)) != tab {
			t.Errorf("browser %s's workspace %v, want two with tab %d", sel, w, tab)
		}
	}

	// The default follows the user's focus.
	for _, c := range []struct {
		b    *browsertest.Bridge
		slot int
	}{{bridge, 0}, {second, 1}, {bridge, 0}} {
		focus(t, c.b)
		deadline := time.Now().Add(10 * time.Second)
		for defaultSlot(t) != c.slot {
			if time.Now().After(deadline) {
				t.Fatalf("after focusing browser %d the default is %d", c.slot, defaultSlot(t))
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	// A call naming no browser goes to the default one (browser 0 now):
	// its active tab is browser 0's.
	if r := bridge.MustCall(t, map[string]any{"action": "open", "url": srv.URL + "/page/default"}); int(r["tabId"].(float64)) >= 10_000_000_000 {
		t.Errorf("open with no browser went to browser 1: %v", r)
	}

	// Closing across browsers: each close reaches its own tab.
	bridge.MustCall(t, map[string]any{"action": "close", "tabId": t1, "browserWorkspaceId": "two"})
	if r := bridge.Call(t, map[string]any{"action": "extract", "tabId": t0, "include": []string{"text"}}); r.Err != nil || r.JSON["title"] != "in-0" {
		t.Errorf("browser 0's tab %d after closing browser 1's tab %d: %s", t0, t1, r.Stdout)
	}

	// Browser 1 quits: its tabs fail naming it; browser 0 works on.
	t1b := bridge.MustCall(t, map[string]any{"action": "open", "url": srv.URL + "/page/again", "browser": "1"})
	second.StopBrowser()
	r = bridge.Call(t, map[string]any{"action": "extract", "tabId": int(t1b["tabId"].(float64)), "timeoutMs": 3000})
	if r.Err == nil || r.Err.Code != protocol.CodeExtensionNotConnected || !strings.Contains(r.Err.Message, "browser 1") {
		t.Errorf("a tab of the browser that quit: %s", r.Stdout)
	}
	if r := bridge.Call(t, map[string]any{"action": "extract", "tabId": t0, "include": []string{"text"}}); r.Err != nil {
		t.Errorf("browser 0 after browser 1 quit: %s", r.Stdout)
	}
}

// The Go client's Hive verbs work in one browser's own IDs: the browser
// bb.WithVerbsIn names, else the default one at the client's first verb,
// and they stay there when the user then focuses the other browser.
func TestProgramVerbsStayInOneBrowser(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	second, err := bridge.Another("verbs")
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	waitDefault := func(slot int) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); defaultSlot(t) != slot; {
			if time.Now().After(deadline) {
				t.Fatalf("browser %d never became the default", slot)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	// shows says whether browser sel's status lists the tab (as callers
	// name it).
	shows := func(sel string, tab int) bool {
		for _, tm := range browsertest.StatusTabs(bridge.MustCall(t, map[string]any{"action": "status", "browser": sel})) {
			if int(tm["tabId"].(float64)) == tab {
				return true
			}
		}
		return false
	}
	dial := func(opts ...bb.Option) *bb.Client {
		t.Helper()
		c, err := bb.Dial(ctx, append([]bb.Option{bb.WithHome(bridge.Home)}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	slot := secondSlot(t)
	sel := fmt.Sprint(slot)
	focus(t, bridge)
	waitDefault(0)

	// Named: the second browser, though browser 0 is the default.
	named := dial(bb.WithVerbsIn(sel))
	one, err := named.ContextCreate(ctx, "verbs-named", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer named.ContextDestroy(context.Background(), one.GroupID)
	if !shows(sel, slot*10_000_000_000+one.TabID) {
		t.Errorf("the context's tab %d is not in browser %s's status", one.TabID, sel)
	}

	// Unnamed: the default at its first verb (browser 0), and still there
	// once the user focused browser 1.
	plain := dial()
	zero, err := plain.ContextCreate(ctx, "verbs-default", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer plain.ContextDestroy(context.Background(), zero.GroupID)
	if !shows("0", zero.TabID) {
		t.Errorf("the context's tab %d is not in browser 0's status", zero.TabID)
	}
	focus(t, second)
	waitDefault(slot)
	tabs, err := plain.TabList(ctx, zero.GroupID)
	if err != nil {
		t.Fatalf("listing the context's group after browser %s got the focus: %v", sel, err)
	}
	if len(tabs) != 1 || tabs[0].TabID != zero.TabID {
		t.Errorf("the context's group lists %+v, want its tab %d", tabs, zero.TabID)
	}
}

// Each browser's extension keeps its own WebSocket setting, and
// `websocket --browser B` configures and reads browser B's.
func TestWebSocketSettingPerBrowser(t *testing.T) {
	second, err := bridge.Another("websocket")
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	sel := fmt.Sprint(secondSlot(t))
	ws := func(args ...string) browsertest.Result {
		t.Helper()
		return bridge.Run(t, append([]string{"websocket"}, args...)...)
	}
	enabled := func(sel string) bool {
		t.Helper()
		r := ws("status", "--browser", sel)
		if r.Exit != 0 || r.JSON == nil {
			t.Fatalf("websocket status --browser %s: exit %d %s %s", sel, r.Exit, r.Stdout, r.Stderr)
		}
		return r.JSON["enabled"] == true
	}
	// Nothing listens there: the setting is what is checked, not a link.
	if r := ws("enable", "--url", "ws://127.0.0.1:9/nobody", "--browser", sel); r.Exit != 0 {
		t.Fatalf("websocket enable --browser %s: exit %d %s %s", sel, r.Exit, r.Stdout, r.Stderr)
	}
	defer ws("disable", "--browser", sel)
	if !enabled(sel) || enabled("0") {
		t.Errorf("after enabling browser %s's WebSocket: browser %s enabled %v, browser 0 enabled %v; want only %s", sel, sel, enabled(sel), enabled("0"), sel)
	}
	if r := ws("disable", "--browser", sel); r.Exit != 0 || enabled(sel) {
		t.Errorf("websocket disable --browser %s: exit %d %s, enabled after: %v", sel, r.Exit, r.Stdout, enabled(sel))
	}
	if r := ws("status", "--browser", "Firefox"); r.Exit == 0 || r.Err == nil || r.Err.Code != protocol.CodeInvalidArgument {
		t.Errorf("websocket status of a browser nobody has: exit %d %s", r.Exit, r.Stdout)
	}
}
