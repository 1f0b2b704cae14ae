package user

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
)

// The user closes one of the agent's pages, then ends the workspace by
// closing its window, as its workspace page says. The page's entry goes
// with it (the group keeps other tabs). Chrome keeps the group of a closing window in the user's saved
// tab groups, with an entry for each of its tabs, and syncs them: before
// the workspace page took the group's tabs out of it on its way out
// (ui/workspace.js), the group stayed, naming every page the agent had
// open there. Now the group goes, and at most the workspace page's own
// entry stays (Chrome keeps a group's last tab's entry when it deletes
// the group; README, "When an agent's session ends").
func TestUserClosingTheWorkspaceWindowLeavesNoSavedGroup(t *testing.T) {
	ws := workspace(t, fmt.Sprintf("user-closes-%d", time.Now().UnixNano()%1_000_000))
	pages := fmt.Sprintf("%s/page?ws=%s", site, ws)
	before := savedTabs(t)
	openPage(t, ws, "/page?ws="+ws+"&n=1")
	openPage(t, ws, "/page?ws="+ws+"&n=2")
	openPage(t, ws, "/page?ws="+ws+"&n=3")
	bridge.WaitSaved(t, "the workspace's group and its pages", func(s browsertest.SavedTabGroups) bool {
		return s.Titled(ws) == 1 && s.TabsAt(pages) == 3
	})

	// First the user closes one of the agent's pages: the group keeps
	// the others, and Chrome deletes that page's entry.
	d := devtools(t)
	ctx := ctxFor(t, 20*time.Second)
	third, err := d.WaitTarget(ctx, "page", pages+"&n=3")
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Call(ctx, "", "Target.closeTarget", map[string]any{"targetId": third.TargetID}, nil); err != nil {
		t.Fatal(err)
	}
	bridge.WaitSaved(t, "no entry of the page the user closed", func(s browsertest.SavedTabGroups) bool {
		return s.Titled(ws) == 1 && s.TabsAt(pages) == 2
	})

	d, page := workspacePage(t, ws)
	// The window's close button and chrome.windows.remove both run the
	// pages' beforeunload before any tab closes.
	if err := d.Eval(ctxFor(t, 10*time.Second), page, `chrome.tabs.getCurrent().then((me) => chrome.windows.remove(me.windowId)); true`, nil); err != nil {
		t.Fatal(err)
	}
	s := bridge.WaitSaved(t, "no group of the closed workspace and no entry of its pages", func(s browsertest.SavedTabGroups) bool {
		return s.Titled(ws) == 0 && s.TabsAt(pages) == 0
	})
	var left []string
	for id, tab := range s.Tabs {
		if _, ok := before.Tabs[id]; !ok {
			left = append(left, tab.URL)
		}
	}
	if len(left) > 1 || len(left) == 1 && left[0] != extURL("ui/workspace.html") {
		t.Errorf("the closed workspace left saved tab entries %v, want at most the workspace page's", left)
	}
	t.Logf("the user closed the workspace's window: %d saved groups titled %q, %d entries of its pages, new entries %v", s.Titled(ws), ws, s.TabsAt(pages), left)
}

// The user closes the workspace page but not its window: the page cannot
// tell that from its window closing, and takes the group's tabs out of it
// all the same. The extension puts them back, in a group with the
// workspace's label and a new workspace page, and the agent's next page
// joins that group. Status names the new group as the workspace's
// before that (it named the old one until the next open).
func TestUserClosingTheWorkspacePageKeepsTheGroup(t *testing.T) {
	ws := workspace(t, fmt.Sprintf("user-closes-page-%d", time.Now().UnixNano()%1_000_000))
	first := openPage(t, ws, "/page?n=1")
	second := openPage(t, ws, "/page?n=2")

	d, page := workspacePage(t, ws)
	old := groupOf(t, first)
	if err := d.Eval(ctxFor(t, 10*time.Second), page, `chrome.tabs.getCurrent().then((me) => chrome.tabs.remove(me.id)); true`, nil); err != nil {
		t.Fatal(err)
	}
	group := waitRegrouped(t, ws, first, second, old, "after the user closed the workspace page")
	if g := workspaceGroup(t, ws); g != group {
		t.Errorf("status says the workspace's group is %d, want %d, the group its tabs are in (%d before the user closed its page)", g, group, old)
	}
	third := bridge.MustCall(t, map[string]any{"action": "open", "url": site + "/page?n=3", "browserWorkspaceId": ws})
	if g := int(third["groupId"].(float64)); g != group {
		t.Errorf("the next page went into group %d, want the workspace's group %d", g, group)
	}
}

// The workspace page's beforeunload takes the tabs out of their group
// (it cannot tell a reload from its window closing): a reload puts them
// back, with the reloaded page.
func TestUserReloadingTheWorkspacePageKeepsTheGroup(t *testing.T) {
	ws := workspace(t, fmt.Sprintf("user-reloads-page-%d", time.Now().UnixNano()%1_000_000))
	first := openPage(t, ws, "/page?n=1")
	second := openPage(t, ws, "/page?n=2")

	d, page := workspacePage(t, ws)
	old := groupOf(t, first)
	if err := d.Eval(ctxFor(t, 10*time.Second), page, `setTimeout(() => location.reload(), 0); true`, nil); err != nil {
		t.Fatal(err)
	}
	waitRegrouped(t, ws, first, second, old, "after the user reloaded the workspace page")
}

// groupOf is the group of tab in status.
func groupOf(t *testing.T, tab int) int {
	t.Helper()
	for _, tm := range browsertest.StatusTabs(bridge.MustCall(t, map[string]any{"action": "status"})) {
		if int(tm["tabId"].(float64)) == tab {
			return int(tm["groupId"].(float64))
		}
	}
	t.Fatalf("tab %d is not in status", tab)
	return -1
}

// workspaceGroup is the group of workspace ws in status.
func workspaceGroup(t *testing.T, ws string) int {
	t.Helper()
	st := bridge.MustCall(t, map[string]any{"action": "status"})
	for _, w := range st["workspaces"].([]any) {
		if w := w.(map[string]any); w["id"] == ws {
			return int(w["groupId"].(float64))
		}
	}
	t.Fatalf("workspace %q is not in status", ws)
	return -1
}

// waitRegrouped waits until the workspace's pages first and second and
// a workspace page named after ws share one group other than old (the
// group before the user's move, which Chrome deletes when its tabs leave
// it: seeing it again would be the state before the move), and returns
// it.
func waitRegrouped(t *testing.T, ws string, first, second, old int, after string) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var in []int
		pageIn := -1
		st := bridge.MustCall(t, map[string]any{"action": "status"})
		for _, tm := range browsertest.StatusTabs(st) {
			switch {
			case int(tm["tabId"].(float64)) == first || int(tm["tabId"].(float64)) == second:
				in = append(in, int(tm["groupId"].(float64)))
			case tm["url"] == extURL("ui/workspace.html") && tm["title"] == ws+" · Browser Bridge workspace":
				pageIn = int(tm["groupId"].(float64))
			}
		}
		if len(in) == 2 && in[0] >= 0 && in[0] != old && in[0] == in[1] && pageIn == in[0] {
			return in[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s, its pages are in groups %v and a workspace page named after %q in group %d, want one group with both", after, in, ws, pageIn)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func workspacePage(t *testing.T, ws string) (*browsertest.DevTools, string) {
	t.Helper()
	ctx := ctxFor(t, 20*time.Second)
	d := devtools(t)
	for {
		targets, err := d.Targets(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, tgt := range targets {
			if tgt.Type == "page" && tgt.URL == extURL("ui/workspace.html") && tgt.Title == ws+" · Browser Bridge workspace" {
				s, err := d.Attach(ctx, tgt.TargetID)
				if err != nil {
					t.Fatal(err)
				}
				return d, s
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no workspace page named after %q", ws)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// savedTabs reads the profile's saved tab groups.
func savedTabs(t *testing.T) browsertest.SavedTabGroups {
	t.Helper()
	s, err := browsertest.ReadSavedTabGroups(bridge.Launch.Profile)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A workspace's group the user renamed keeps the user's name when the
// agent's next page joins it, also after the user closed the workspace
// page (its group is then a new one, which the daemon does not know yet).
func TestUserRenamedWorkspaceGroupKeepsItsName(t *testing.T) {
	ws := workspace(t, fmt.Sprintf("user-renames-%d", time.Now().UnixNano()%1_000_000))
	first := openPage(t, ws, "/page?n=1")
	second := openPage(t, ws, "/page?n=2")
	d, page := workspacePage(t, ws)
	ctx := ctxFor(t, 20*time.Second)
	const mine = "renamed by me"
	old := groupOf(t, first)
	if err := d.Eval(ctx, page, `chrome.tabs.getCurrent().then((me) => chrome.tabGroups.update(me.groupId, {title: "`+mine+`"})).then(() => true)`, nil); err != nil {
		t.Fatal(err)
	}
	if err := d.Eval(ctx, page, `chrome.tabs.getCurrent().then((me) => chrome.tabs.remove(me.id)); true`, nil); err != nil {
		t.Fatal(err)
	}
	waitRegrouped(t, mine, first, second, old, "after the user renamed the group and closed the workspace page")
	third := bridge.MustCall(t, map[string]any{"action": "open", "url": site + "/page?n=3", "browserWorkspaceId": ws})
	group := int(third["groupId"].(float64))
	d2, page2 := workspacePage(t, mine)
	var title string
	if err := d2.Eval(ctx, page2, `chrome.tabGroups.get(`+fmt.Sprint(group)+`).then((g) => g.title)`, &title); err != nil {
		t.Fatal(err)
	}
	if title != mine {
		t.Errorf("after the agent's next page, the group is named %q, want the user's %q", title, mine)
	}
}

// The user closes the workspace's window, and one of the agent's pages
// asks "Leave site?". Chrome runs the tabs' beforeunload one by one, in
// no fixed order (by address); when the workspace page's runs first, it
// has taken the tabs out of their group by the time the prompt shows.
// While the prompt is open they stay out (a group in a closing window is
// saved); when the user stays, the window stays, and the extension puts
// them back into their group with the same workspace page; when the
// user then closes the window again and leaves, nothing of it is saved.
// A round where the prompting page's beforeunload ran first (the tabs
// still grouped, as they should) is tried again with a new page beside it.
func TestUserCancellingTheWindowCloseKeepsTheGroup(t *testing.T) {
	ws := workspace(t, fmt.Sprintf("user-stays-%d", time.Now().UnixNano()%1_000_000))
	other := site + "/page?ws=" + ws
	second := openPage(t, ws, "/page?ws="+ws)
	d := devtools(t)
	ctx := ctxFor(t, 3*time.Minute)
	prompts, stop := d.Watch("Page.javascriptDialogOpening")
	defer stop()
	wd, page := workspacePage(t, ws)
	closeWindow := func(first int) (int, int) {
		t.Helper()
		if err := wd.Eval(ctx, page, `chrome.tabs.getCurrent().then((me) => chrome.windows.remove(me.windowId)); true`, nil); err != nil {
			t.Fatal(err)
		}
		select {
		case <-prompts:
		case <-time.After(10 * time.Second):
			t.Fatal(`closing the window showed no "Leave site?" prompt`)
		}
		// Longer than the extension waits after a prompt it saw answered.
		time.Sleep(3 * time.Second)
		return groupOf(t, first), groupOf(t, second)
	}
	answer := func(x string, leave bool) {
		t.Helper()
		if err := d.Call(ctx, x, "Page.handleJavaScriptDialog", map[string]any{"accept": leave}, nil); err != nil {
			t.Fatal(err)
		}
	}

	var leave string
	var first int
	var x string
	for round := 1; ; round++ {
		leave = fmt.Sprintf("%s/leave?ws=%s&round=%d", site, ws, round)
		first = openPage(t, ws, strings.TrimPrefix(leave, site))
		// The page may ask only once the user has used it (Chrome ignores
		// a beforeunload prompt of a page nobody touched).
		x = d.PageSession(t, ctx, leave)
		if err := d.Call(ctx, x, "Page.enable", nil, nil); err != nil {
			t.Fatal(err)
		}
		bridge.MustCall(t, map[string]any{"action": "activate", "tabId": first})
		if err := d.Click(ctx, x, 20, 20); err != nil {
			t.Fatal(err)
		}
		old := groupOf(t, first)
		g, g2 := closeWindow(first)
		if g == old && g2 == old {
			answer(x, false)
			t.Logf("round %d: the prompting page's beforeunload ran first; the tabs stayed in their group", round)
			if round == 20 {
				t.Fatal("in 20 rounds the workspace page's beforeunload never ran before the prompting page's")
			}
			// The page stays, asking no more: closed, its successor would
			// take its place in memory, and the order with it.
			if err := d.Eval(ctx, x, `leaveFreely = true`, nil); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if g >= 0 || g2 >= 0 {
			t.Fatalf("while the prompt is open the pages are in groups %d and %d, want none: a group in a closing window is saved", g, g2)
		}
		answer(x, false)
		waitRegrouped(t, ws, first, second, old, fmt.Sprintf("in round %d, after the user stayed", round))
		break
	}
	bridge.WaitSaved(t, "the workspace's group and its pages again", func(s browsertest.SavedTabGroups) bool {
		return s.Titled(ws) == 1 && s.TabsAt(leave) == 1 && s.TabsAt(other) == 1
	})

	if g, g2 := closeWindow(first); g >= 0 || g2 >= 0 {
		t.Fatalf("while the prompt is open the second time the pages are in groups %d and %d, want none", g, g2)
	}
	answer(x, true)
	bridge.WaitSaved(t, "no group of the closed workspace and no entry of its pages", func(s browsertest.SavedTabGroups) bool {
		return s.Titled(ws) == 0 && s.TabsAt(leave) == 0 && s.TabsAt(other) == 0
	})
}
