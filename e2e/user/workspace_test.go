package user

import (
	"context"
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
// asks "Leave site?". While the prompt is open the tabs stay out of
// their group (a group in a closing window is saved); when the user
// stays, the window stays, and the extension puts them back into their
// group with the same workspace page; when the user then closes the
// window again and leaves, nothing of it is saved.
func TestUserCancellingTheWindowCloseKeepsTheGroup(t *testing.T) {
	p := promptAtClose(t, fmt.Sprintf("user-stays-%d", time.Now().UnixNano()%1_000_000))
	stayed := time.Now()
	p.answer(false)
	group := waitRegrouped(t, p.ws, p.tab, p.second, p.old, "after the user stayed")
	t.Logf("regrouped %v after the user stayed", time.Since(stayed).Round(time.Millisecond))
	if g := workspaceGroup(t, p.ws); g != group {
		t.Errorf("status says the workspace's group is %d, want %d, the group its tabs are in", g, group)
	}
	bridge.WaitSaved(t, "the workspace's group and its pages again", func(s browsertest.SavedTabGroups) bool {
		return s.Titled(p.ws) == 1 && s.TabsAt(p.url) == 1 && s.TabsAt(p.other) == 1
	})

	if g, g2 := p.closeWindow(); g >= 0 || g2 >= 0 {
		t.Fatalf("while the prompt is open the second time the pages are in groups %d and %d, want none", g, g2)
	}
	p.answer(true)
	bridge.WaitSaved(t, "no group of the closed workspace and no entry of its pages", func(s browsertest.SavedTabGroups) bool {
		return s.Titled(p.ws) == 0 && s.TabsAt(p.url) == 0 && s.TabsAt(p.other) == 0
	})
}

// The same, with Chrome stopping the extension's service worker while
// the prompt is open (as it stops an idle worker): the word the
// workspace page left is kept in the extension's session storage, and
// the worker Chrome starts next takes it up again.
func TestUserCancellingTheWindowCloseKeepsTheGroupAcrossAWorkerRestart(t *testing.T) {
	p := promptAtClose(t, fmt.Sprintf("user-restart-%d", time.Now().UnixNano()%1_000_000))
	ctx := ctxFor(t, 30*time.Second)
	stopWorker(t, p.d, ctx)
	stayed := time.Now()
	p.answer(false)
	// A browser event wakes the worker: the user opens a window.
	var opened struct {
		TargetID string `json:"targetId"`
	}
	if err := p.d.Call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank", "newWindow": true}, &opened); err != nil {
		t.Fatal(err)
	}
	defer p.d.Call(ctxFor(t, 5*time.Second), "", "Target.closeTarget", map[string]any{"targetId": opened.TargetID}, nil)
	waitRegrouped(t, p.ws, p.tab, p.second, p.old, "after the worker restarted and the user stayed")
	t.Logf("regrouped %v after the user stayed, by a new worker", time.Since(stayed).Round(time.Millisecond))
}

// prompt is a page of the agent's that asks "Leave site?", open in
// workspace ws beside another page of the agent's (second, at other),
// while the user closes the workspace's window.
type prompt struct {
	t        *testing.T
	d        *browsertest.DevTools
	ws       string
	session  string // the test's session on the page: it answers the prompt
	tab      int
	url      string
	second   int
	other    string
	old      int // the workspace's group before the close
	wd       *browsertest.DevTools
	wsPage   string // the test's session on the workspace page
	prompts  <-chan browsertest.Event
	stopWait func()
}

// promptAtClose opens a workspace with a prompting page and another
// page, closes its window, and returns with the prompt open and the tabs
// out of their group.
func promptAtClose(t *testing.T, id string) *prompt {
	t.Helper()
	ws := workspace(t, id)
	p := &prompt{t: t, d: devtools(t), ws: ws, other: site + "/page?ws=" + ws}
	// Before the workspace closes at the test's end (clean-ups run last
	// first): a prompt would hold its window open.
	t.Cleanup(func() {
		if p.session != "" {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			p.d.Eval(ctx, p.session, `leaveFreely = true`, nil)
		}
	})
	p.second = openPage(t, ws, "/page?ws="+ws)
	p.prompts, p.stopWait = p.d.Watch("Page.javascriptDialogOpening")
	t.Cleanup(p.stopWait)
	p.wd, p.wsPage = workspacePage(t, ws)
	ctx := ctxFor(t, 2*time.Minute)
	p.url = fmt.Sprintf("%s/leave?ws=%s", site, ws)
	p.tab = openPage(t, ws, strings.TrimPrefix(p.url, site))
	// The page may ask only once the user has used it (Chrome ignores a
	// beforeunload prompt of a page nobody touched).
	p.session = p.d.PageSession(t, ctx, p.url)
	if err := p.d.Call(ctx, p.session, "Page.enable", nil, nil); err != nil {
		t.Fatal(err)
	}
	bridge.MustCall(t, map[string]any{"action": "activate", "tabId": p.tab})
	if err := p.d.Click(ctx, p.session, 20, 20); err != nil {
		t.Fatal(err)
	}
	p.old = groupOf(t, p.tab)
	if g, g2 := p.closeWindow(); g >= 0 || g2 >= 0 {
		t.Fatalf("while the prompt is open the pages are in groups %d and %d, want none: a group in a closing window is saved", g, g2)
	}
	return p
}

// closeWindow closes the workspace's window as the user would, waits for
// the prompt, and returns the groups of the two pages while it is open,
// after longer than the extension waits once it saw a prompt answered.
//
// Chrome runs the tabs' beforeunload one by one, in an order of its own
// (Chromium's UnloadController keeps them in a set ordered by memory
// address): when the workspace page's runs first, it takes the tabs out
// of their group before the prompt shows; when the prompting page's runs
// first, the workspace page's runs only after a Leave. On one machine the
// order can be the same for every page the test makes (CI saw the
// prompting page first in 20 rounds out of 20), so in that case the test
// fires the workspace page's beforeunload itself, while the prompt is
// open: it stands in for the order Chrome did not choose, and runs the
// workspace page's own handler, with the service worker's watch of the
// prompt after it, as the other order would.
func (p *prompt) closeWindow() (int, int) {
	p.t.Helper()
	ctx := ctxFor(p.t, 10*time.Second)
	before := groupOf(p.t, p.tab)
	var closedAt float64
	if err := p.wd.Eval(ctx, p.wsPage, `Date.now()`, &closedAt); err != nil {
		p.t.Fatal(err)
	}
	if err := p.wd.Eval(ctx, p.wsPage, `chrome.tabs.getCurrent().then((me) => chrome.windows.remove(me.windowId)); true`, nil); err != nil {
		p.t.Fatal(err)
	}
	select {
	case <-p.prompts:
	case <-time.After(10 * time.Second):
		p.t.Fatal(`closing the window showed no "Leave site?" prompt`)
	}
	time.Sleep(500 * time.Millisecond)
	if g, g2 := groupOf(p.t, p.tab), groupOf(p.t, p.second); g >= 0 && g == before && g2 == before {
		// Still as before the close: the workspace page's beforeunload has
		// not run — unless it ran and failed to take them out, which its
		// word to the service worker would say.
		var wordAt float64
		if err := p.wd.Eval(ctx, p.wsPage, `chrome.tabs.getCurrent().then((me) => chrome.storage.session.get("workspaceLeaving:" + me.id)).then((s) => Object.values(s)[0]?.at ?? 0)`, &wordAt); err != nil {
			p.t.Fatal(err)
		}
		if wordAt >= closedAt {
			p.t.Fatalf("the workspace page's beforeunload ran (its word is there) and the tabs are still in group %d while the prompt is open", g)
		}
		p.t.Logf("the prompting page's beforeunload ran first (the tabs are still in group %d); the test runs the workspace page's", g)
		if err := p.wd.Eval(ctx, p.wsPage, `dispatchEvent(new Event("beforeunload")); true`, nil); err != nil {
			p.t.Fatal(err)
		}
	} else {
		p.t.Log("the workspace page's beforeunload ran first")
	}
	time.Sleep(3 * time.Second)
	return groupOf(p.t, p.tab), groupOf(p.t, p.second)
}

// answer answers the prompt: Leave, or Stay.
func (p *prompt) answer(leave bool) {
	p.t.Helper()
	if err := p.d.Call(ctxFor(p.t, 10*time.Second), p.session, "Page.handleJavaScriptDialog", map[string]any{"accept": leave}, nil); err != nil {
		// The prompt is the user's: nothing but the user may answer it
		// (the replay's picture of the agent's last step once did).
		p.t.Fatalf("the user's prompt was gone before the user answered it: %v", err)
	}
}
