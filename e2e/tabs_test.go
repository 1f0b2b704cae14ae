package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
	"github.com/browser-bridge/browser-bridge/internal/client"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/settings"
)

func TestOpenStatusClose(t *testing.T) {
	srv := site(t)
	r := bridge.Run(t, "open", "--url", srv.URL+"/page/Alpha")
	if r.Exit != 0 {
		t.Fatalf("open: exit %d: %s %s", r.Exit, r.Stdout, r.Stderr)
	}
	if len(r.Stderr) != 0 {
		t.Errorf("open wrote to stderr: %s", r.Stderr)
	}
	tabID := num(t, r.JSON, "tabId")
	if r.JSON["title"] != "Alpha" || r.JSON["url"] != srv.URL+"/page/Alpha" {
		t.Fatalf("open result: %v", r.JSON)
	}

	st := bridge.MustCall(t, map[string]any{"action": "status"})
	if st["connected"] != true {
		t.Fatalf("status: %v", st)
	}
	tab := statusTab(t, st, tabID)
	if tab == nil {
		t.Fatalf("status does not list tab %d: %v", tabID, st)
	}
	if tab["url"] != srv.URL+"/page/Alpha" || tab["title"] != "Alpha" || tab["owned"] != true {
		t.Fatalf("status tab: %v", tab)
	}

	c := bridge.Run(t, "close", "--tabId", itoa(tabID))
	if c.Exit != 0 {
		t.Fatalf("close: %s", c.Stdout)
	}
	if c.JSON["title"] != "Alpha" {
		t.Errorf("close result lacks the tab's title: %v", c.JSON)
	}
	st = bridge.MustCall(t, map[string]any{"action": "status"})
	if statusTab(t, st, tabID) != nil {
		t.Fatalf("tab %d still open after close", tabID)
	}
}

func TestCloseRefusesTabsTheBridgeDidNotOpen(t *testing.T) {
	id := userTab(t)
	r := bridge.Run(t, "close", "--tabId", itoa(id))
	if r.Exit == 0 || r.Err == nil || r.Err.Code != protocol.CodeNotOwned {
		t.Fatalf("closing a user tab: exit %d, %s", r.Exit, r.Stdout)
	}
	if statusTab(t, bridge.MustCall(t, map[string]any{"action": "status"}), id) == nil {
		t.Fatal("the user's tab was closed")
	}
	r = bridge.Run(t, "close", "--tabId", "2147480000")
	if r.Err == nil || r.Err.Code != protocol.CodeTabNotFound {
		t.Fatalf("closing a missing tab: %s", r.Stdout)
	}
}

func TestWorkspacesGetTheirOwnWindowAndGroup(t *testing.T) {
	srv := site(t)
	a1 := bridge.MustCall(t, map[string]any{"action": "open", "url": srv.URL + "/page/A1", "browserWorkspaceId": "ws-a"})
	a2 := bridge.MustCall(t, map[string]any{"action": "open", "url": srv.URL + "/page/A2", "browserWorkspaceId": "ws-a"})
	b1 := bridge.MustCall(t, map[string]any{"action": "open", "url": srv.URL + "/page/B1", "runId": "r-b"})
	t.Cleanup(func() {
		bridge.Call(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": "ws-a"})
		bridge.Call(t, map[string]any{"action": "close", "closeWorkspace": true, "runId": "r-b"})
	})
	if num(t, a1, "windowId") != num(t, a2, "windowId") || num(t, a1, "groupId") != num(t, a2, "groupId") {
		t.Fatalf("one workspace, two windows or groups: %v %v", a1, a2)
	}
	if num(t, a1, "groupId") < 0 {
		t.Fatalf("no tab group: %v", a1)
	}
	if num(t, b1, "windowId") == num(t, a1, "windowId") {
		t.Fatal("two workspaces share a window")
	}
	if b1["workspace"] != "run:r-b" {
		t.Fatalf("runId did not name the workspace: %v", b1)
	}
	user := statusTab(t, bridge.MustCall(t, map[string]any{"action": "status"}), userTab(t))
	if int(user["windowId"].(float64)) == num(t, a1, "windowId") {
		t.Fatal("the workspace tab opened in the user's window")
	}
	st := bridge.MustCall(t, map[string]any{"action": "status"})
	var found map[string]any
	for _, w := range st["workspaces"].([]any) {
		if w.(map[string]any)["id"] == "ws-a" {
			found = w.(map[string]any)
		}
	}
	if found == nil || found["title"] != "ws-a" || found["color"] == "" || len(found["tabs"].([]any)) != 2 {
		t.Fatalf("status workspace: %v", found)
	}
	// The workspace window is unfocused: the user's window keeps focus.
	for _, w := range st["windows"].([]any) {
		wm := w.(map[string]any)
		if int(wm["windowId"].(float64)) == num(t, a1, "windowId") && wm["focused"] == true {
			t.Fatal("the workspace window took focus")
		}
	}

	res := bridge.MustCall(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": "ws-a"})
	if len(res["closedTabs"].([]any)) != 2 || len(res["closedWindows"].([]any)) != 1 {
		t.Fatalf("closeWorkspace: %v", res)
	}
}

func TestOpenInCurrentTabAndByTabID(t *testing.T) {
	srv := site(t)
	first := bridge.MustCall(t, map[string]any{"action": "open", "url": srv.URL + "/page/First", "browserWorkspaceId": "ws-nav"})
	t.Cleanup(func() {
		bridge.Call(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": "ws-nav"})
	})
	id := num(t, first, "tabId")
	second := bridge.MustCall(t, map[string]any{"action": "open", "url": srv.URL + "/page/Second", "tabId": id})
	if num(t, second, "tabId") != id || second["title"] != "Second" {
		t.Fatalf("open by tabId: %v", second)
	}
	third := bridge.MustCall(t, map[string]any{"action": "open", "url": srv.URL + "/page/Third", "target": "current", "browserWorkspaceId": "ws-nav"})
	if num(t, third, "tabId") != id || third["title"] != "Third" {
		t.Fatalf("open in the workspace's current tab: %v", third)
	}
}

func TestBadInputGetsCodedErrors(t *testing.T) {
	cases := []struct {
		args []string
		in   string
	}{
		{[]string{"open", "--url", "javascript:alert(1)"}, "not allowed"},
		{[]string{"open", "--url", "chrome://settings"}, "not allowed"},
		{[]string{"open"}, "open needs url"},
		{[]string{"open", "--url", "http://x", "--bogus", "1"}, "unknown flag"},
		{[]string{"close", "--tabId", "abc"}, "whole number"},
		{[]string{"call", `{"action":"fly"}`}, "unknown action"},
		{[]string{"call", `{"action":"open","url":5}`}, "must be a string"},
		{[]string{"call", `{"action":"open","url":"http://x","target":"sideways"}`}, "target"},
		{[]string{"call", `[1]`}, "JSON object"},
		{[]string{"close"}, "tabId"},
	}
	for _, c := range cases {
		r := bridge.Run(t, c.args...)
		if r.Exit == 0 || r.Err == nil || r.Err.Code != protocol.CodeInvalidArgument || !strings.Contains(r.Err.Message, c.in) {
			t.Errorf("%v: exit %d, %s (want invalid_argument mentioning %q)", c.args, r.Exit, r.Stdout, c.in)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// A page that cannot be loaded: open says so (the tab shows the browser's
// error page), and reading it fails at once with protected_page instead of
// waiting for a page that never comes.
func TestUnreachablePages(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	dead := srv.URL + "/gone"
	srv.Close() // nothing listens there any more
	ws := "unreachable"
	t.Cleanup(func() {
		bridge.Call(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws})
	})
	o := bridge.MustCall(t, map[string]any{"action": "open", "url": dead, "browserWorkspaceId": ws})
	if !strings.Contains(fmt.Sprint(o["warnings"]), "net::ERR_CONNECTION_REFUSED") {
		t.Fatalf("open of a dead address: %v", o)
	}
	start := time.Now()
	r := bridge.Call(t, map[string]any{"action": "extract", "tabId": o["tabId"]})
	if r.Err == nil || r.Err.Code != protocol.CodeProtectedPage || !strings.Contains(r.Err.Message, "could not be loaded") {
		t.Fatalf("extract of the error page: %s", r.Stdout)
	}
	if d := time.Since(start); d > 10*time.Second { // it took 16 s before
		t.Errorf("extract of the error page took %s", d)
	}
	r = bridge.Call(t, map[string]any{"action": "extract", "url": dead, "browserWorkspaceId": ws})
	if r.Err == nil || r.Err.Code != protocol.CodeProtectedPage || !strings.Contains(r.Err.Message, "net::ERR_CONNECTION_REFUSED") {
		t.Fatalf("extract with the url of a dead address: %s", r.Stdout)
	}
}

// Tabs that the bridge's pages open (a link to _blank, a pop-up window)
// are the bridge's too: the click reports them, status marks them owned,
// close takes them, and closing the workspace leaves nothing behind.
func TestTabsOpenedByOwnPagesAreOwned(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			fmt.Fprint(w, `<title>Opener</title><a href="/child" target="_blank">New tab</a>
<button onclick="window.open('/popup', 'pop', 'popup,width=400,height=300')">Pop up</button>`)
		default:
			fmt.Fprintf(w, "<title>%s</title>", r.URL.Path[1:])
		}
	}))
	t.Cleanup(srv.Close)
	ws := "openers"
	o := bridge.MustCall(t, map[string]any{"action": "open", "url": srv.URL + "/", "browserWorkspaceId": ws})
	tab := num(t, o, "tabId")
	bridge.MustCall(t, map[string]any{"action": "click", "tabId": tab, "text": "New tab"})
	bridge.MustCall(t, map[string]any{"action": "click", "tabId": tab, "text": "Pop up"})
	owned := func() map[string]int {
		out := map[string]int{}
		st := bridge.MustCall(t, map[string]any{"action": "status"})
		for _, w := range st["windows"].([]any) {
			for _, tb := range w.(map[string]any)["tabs"].([]any) {
				m := tb.(map[string]any)
				if m["owned"] == true && strings.HasPrefix(fmt.Sprint(m["url"]), srv.URL) {
					out[m["title"].(string)] = num(t, m, "tabId")
				}
			}
		}
		return out
	}
	deadline := time.Now().Add(10 * time.Second)
	var got map[string]int
	for got = owned(); (got["child"] == 0 || got["popup"] == 0) && time.Now().Before(deadline); got = owned() {
		time.Sleep(200 * time.Millisecond)
	}
	if got["child"] == 0 || got["popup"] == 0 {
		t.Fatalf("the opened tabs are not owned: %v", got)
	}
	if r := bridge.Call(t, map[string]any{"action": "close", "tabId": got["child"]}); r.Err != nil {
		t.Fatalf("close of the opened tab: %s", r.Stdout)
	}
	bridge.MustCall(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws})
	if left := owned(); len(left) != 0 {
		t.Fatalf("closing the workspace left %v", left)
	}
	st := bridge.MustCall(t, map[string]any{"action": "status"})
	if strings.Contains(fmt.Sprint(st["windows"]), srv.URL) {
		t.Fatalf("a tab of the workspace is still open: %v", st["windows"])
	}
}

// A workspace's window outlives the agent's pages: closing its last page
// leaves the window open, with the workspace page, and the next open
// goes into the same window and group rather than a new window. The
// window closes with the workspace.
func TestWorkspaceWindowOutlivesItsPages(t *testing.T) {
	srv := site(t)
	ws := fmt.Sprintf("kept-%d", time.Now().UnixNano()%1_000_000)
	first := bridge.MustCall(t, map[string]any{"action": "open", "url": srv.URL + "/page/First", "browserWorkspaceId": ws})
	bridge.MustCall(t, map[string]any{"action": "close", "tabId": num(t, first, "tabId")})
	second := bridge.MustCall(t, map[string]any{"action": "open", "url": srv.URL + "/page/Second", "browserWorkspaceId": ws})
	if num(t, second, "windowId") != num(t, first, "windowId") || num(t, second, "groupId") != num(t, first, "groupId") {
		t.Errorf("after its last page closed, the workspace opened in window %d group %d, want its window %d group %d", num(t, second, "windowId"), num(t, second, "groupId"), num(t, first, "windowId"), num(t, first, "groupId"))
	}
	// The window holds the workspace page, in the workspace's group,
	// named after it.
	deadline := time.Now().Add(5 * time.Second)
	for {
		var pages []map[string]any
		st := bridge.MustCall(t, map[string]any{"action": "status"})
		for _, tm := range browsertest.StatusTabs(st) {
			if num(t, tm, "windowId") == num(t, first, "windowId") && tm["url"] == bridge.ExtensionURL("ui/workspace.html") {
				pages = append(pages, tm)
			}
		}
		if len(pages) == 1 && pages[0]["title"] == ws+" · Browser Bridge workspace" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the workspace's window holds %v, want one workspace page titled after %q: %v", pages, ws, st["windows"])
		}
		time.Sleep(100 * time.Millisecond)
	}
	closed := bridge.MustCall(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws})
	if w, _ := closed["closedWindows"].([]any); len(w) != 1 || w[0] != float64(num(t, first, "windowId")) {
		t.Errorf("closeWorkspace closed windows %v, want the workspace's %d", closed["closedWindows"], num(t, first, "windowId"))
	}
}

// Closing a workspace's tabs, or the workspace, leaves nothing of its
// pages in Chrome's saved tab groups, which Chrome syncs to the user's
// account: no group once the workspace is closed, and no tab entry of a
// page it opened, over a hundred rounds of open and close. Chrome saves
// every group, deletes a tab's entry when the tab leaves a group that
// keeps other tabs, and keeps the entry of a group's last tab when it
// deletes the group (extension/handlers/windows.js): the workspace page
// keeps the group for the workspace's life and is its last tab, so a
// closed workspace leaves at most that one entry, which names no page.
func TestClosingLeavesNoSavedGroup(t *testing.T) {
	srv := site(t)
	page := bridge.ExtensionURL("ui/workspace.html")
	for _, tc := range []struct {
		how    string
		rounds int
	}{{"tab", 100}, {"workspace", 5}} {
		t.Run(tc.how, func(t *testing.T) {
			before := orphans(t)
			ws := fmt.Sprintf("saved-%s-%d", tc.how, time.Now().UnixNano()%1_000_000)
			for i := range tc.rounds {
				tab := num(t, bridge.MustCall(t, map[string]any{"action": "open", "url": fmt.Sprintf("%s/page/Saved-%d", srv.URL, i), "browserWorkspaceId": ws}), "tabId")
				if i == 0 {
					// Chrome saved the group while it is open: the
					// count can be trusted to fall.
					waitSavedGroups(t, ws, 1)
				}
				if tc.how == "tab" {
					bridge.MustCall(t, map[string]any{"action": "close", "tabId": tab})
				} else {
					bridge.MustCall(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws})
				}
			}
			if tc.how == "tab" {
				waitSaved(t, "the pages' entries", func(s browsertest.SavedTabGroups) bool { return s.TabsAt(srv.URL) == 0 })
				bridge.MustCall(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws})
			}
			waitSavedGroups(t, ws, 0)
			s := waitSaved(t, "no entry of a page", func(s browsertest.SavedTabGroups) bool { return s.TabsAt(srv.URL) == 0 })
			closes := tc.rounds
			if tc.how == "tab" {
				closes = 1
			}
			left := orphans(t)
			for id := range before {
				delete(left, id)
			}
			for _, o := range left {
				if o.URL != page {
					t.Errorf("a saved tab entry of a closed group names %q, want none but the workspace page's", o.URL)
				}
			}
			if len(left) > closes {
				t.Errorf("%d rounds of open and close (by %s) left %d saved tab entries of closed groups, want at most %d (the workspace page's)", tc.rounds, tc.how, len(left), closes)
			}
			t.Logf("%d rounds (by %s): %d saved tab entries of the test's pages, %d of closed groups (the workspace page's: %d)", tc.rounds, tc.how, s.TabsAt(srv.URL), len(left), len(left))
		})
	}
	// An agent's session ends: the daemon closes its workspace after the
	// grace period (here 1 s), by the same close as closeWorkspace.
	t.Run("session", func(t *testing.T) {
		layout := paths.ForHome(bridge.Home)
		old, err := settings.Load(layout)
		if err != nil {
			t.Fatal(err)
		}
		grace := old
		grace.SessionGraceSeconds = 1
		if err := settings.Save(layout, grace); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { settings.Save(layout, old) })
		before := orphans(t)
		const rounds = 3
		for i := range rounds {
			ctx := browsertest.Ctx(t, time.Minute)
			c, err := client.ConnectAgent(ctx, layout, fmt.Sprintf("session:saved-%d-%d", i, time.Now().UnixNano()%1_000_000))
			if err != nil {
				t.Fatal(err)
			}
			url := fmt.Sprintf("%s/page/Session-%d", srv.URL, i)
			raw, err := c.Call(ctx, map[string]any{"action": "open", "url": url}, time.Minute, nil)
			if err != nil {
				c.Close()
				t.Fatal(err)
			}
			var o map[string]any
			if err := jsonUnmarshal(raw, &o); err != nil {
				t.Fatal(err)
			}
			waitSaved(t, "the page's entry", func(s browsertest.SavedTabGroups) bool { return s.TabsAt(url) == 1 })
			c.Close()
			window := num(t, o, "windowId")
			deadline := time.Now().Add(15 * time.Second)
			for windowOpen(t, window) {
				if time.Now().After(deadline) {
					t.Fatalf("the ended session's workspace window %d is still open", window)
				}
				time.Sleep(200 * time.Millisecond)
			}
		}
		s := waitSaved(t, "no entry of a page", func(s browsertest.SavedTabGroups) bool { return s.TabsAt(srv.URL+"/page/Session-") == 0 })
		left := orphans(t)
		for id := range before {
			delete(left, id)
		}
		for _, o := range left {
			if o.URL != page {
				t.Errorf("a saved tab entry of a closed group names %q, want none but the workspace page's", o.URL)
			}
		}
		if len(left) > rounds {
			t.Errorf("%d ended sessions left %d saved tab entries of closed groups, want at most %d (the workspace page's)", rounds, len(left), rounds)
		}
		t.Logf("%d ended sessions: %d saved groups, %d saved tab entries of the test's pages, %d of closed groups", rounds, len(s.Groups), s.TabsAt(srv.URL+"/page/Session-"), len(left))
	})
}

// windowOpen says whether status lists the window.
func windowOpen(t *testing.T, id int) bool {
	t.Helper()
	for _, w := range bridge.MustCall(t, map[string]any{"action": "status"})["windows"].([]any) {
		if num(t, w.(map[string]any), "windowId") == id {
			return true
		}
	}
	return false
}

// orphans are the saved tab entries whose group is gone.
func orphans(t *testing.T) map[string]browsertest.SavedTab {
	t.Helper()
	s, err := browsertest.ReadSavedTabGroups(bridge.Launch.Profile)
	if err != nil {
		t.Fatal(err)
	}
	return s.Orphans()
}

// waitSaved waits up to 10 s until the profile's saved tab groups satisfy
// ok, and returns them.
func waitSaved(t *testing.T, what string, ok func(browsertest.SavedTabGroups) bool) browsertest.SavedTabGroups {
	t.Helper()
	return bridge.WaitSaved(t, what, ok)
}

// waitSavedGroups waits up to 10 s until the profile's saved tab groups
// hold want groups titled title.
func waitSavedGroups(t *testing.T, title string, want int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		n, err := browsertest.SavedGroupsTitled(bridge.Launch.Profile, title)
		if err == nil && n == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the saved tab groups hold %d groups titled %q (%v), want %d", n, title, err, want)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
