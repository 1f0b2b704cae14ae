package user

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
)

// A page in the bridge's tab that opens the denied site in a new tab
// without an opener — window.open(url, "_blank", "noopener") and a link
// with target=_blank rel=noopener — never reaches it, ten tries each
// (the extension put the new tab under the rules only once
// Chrome told it of the tab, and the first request had gone by then, 5
// times in 6). A tab of the user's own on the same site still opens it
// in a new tab, both ways: the rules that cover the bridge's new tabs
// from their first request must leave the user's alone.
func TestNewTabsOfBridgeTabsAreUnderTheRules(t *testing.T) {
	denySite(t)
	// The user's tab, in a window of its own (usersTab): Chrome gives a
	// tab that DevTools opens beside a tab the active tab as its opener,
	// and a tab a bridge tab opened is the bridge's.
	d := devtools(t)
	ctx := ctxFor(t, 60*time.Second)
	userTab := usersTab(t, site+"/opener?user")
	if bridgeTabs(t)[userTab] {
		t.Fatalf("the user's tab %d is under the rules from the start", userTab)
	}

	ws := workspace(t, "user-newtabs")
	tab := openPage(t, ws, "/opener")
	before := deniedHits.Load()
	for i := 0; i < 10; i++ {
		for _, sel := range []string{"#open", "#link"} {
			bridge.MustCall(t, map[string]any{"action": "click", "tabId": tab, "selector": sel})
		}
	}
	time.Sleep(time.Second)
	if n := deniedHits.Load() - before; n != 0 {
		t.Errorf("the denied server got %d requests from the bridge tab's new tabs", n)
	}
	closeTargets(t, denied, extURL("ui/blocked.html"))

	// The user's own tab, same page, same site: its new tabs load it.
	// (Here they are caught by the rules for unseen tabs, every time, and
	// loaded again by the extension's heal: a count of heals put in for a
	// try showed both.)
	page := d.PageSession(t, ctx, site+"/opener?user")
	before = deniedHits.Load()
	for _, at := range []struct{ sel, url string }{{"#open", denied + "/popup"}, {"#link", denied + "/link"}} {
		// A click of the user's: a user gesture, as for a person's click.
		err := d.Call(ctx, page, "Runtime.evaluate", map[string]any{"expression": `document.querySelector(` + jsString(at.sel) + `).click()`, "userGesture": true}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.WaitTarget(ctxFor(t, 10*time.Second), "page", at.url); err != nil {
			ts, _ := d.Targets(ctx)
			t.Fatalf("the user's new tab at %s did not load: %v; targets: %+v", at.url, err, ts)
		}
		s := d.PageSession(t, ctx, at.url)
		waitPage(t, s, `document.body && document.body.innerText.includes("DENIED-SITE-CONTENT")`)
	}
	if deniedHits.Load() == before {
		t.Errorf("the user's new tabs did not reach the server")
	}
	closeTargets(t, denied)
}

// The same after Chrome stopped the extension's service worker (as it
// stops an idle one), three times: the click of the agent's page, not a
// command of the bridge's, wakes it when no worker runs again by then
// (the log says when one does). Its first events wait for the restored
// record of the bridge's tabs (policy.js ready). A review found that
// they did not; this test did not see that race go wrong on this
// machine, with or without the wait, and holds the rest.
func TestANewTabOfABridgeTabAfterAWorkerStopIsUnderTheRules(t *testing.T) {
	denySite(t)
	d := devtools(t)
	ctx := ctxFor(t, 60*time.Second)
	ws := workspace(t, "user-newtabs-wake")
	openPage(t, ws, "/opener?wake")
	page := d.PageSession(t, ctx, site+"/opener?wake")
	for round := 1; round <= 3; round++ {
		stopWorker(t, d, ctx)
		time.Sleep(time.Second)
		if ts, _ := d.Targets(ctx); slices.ContainsFunc(ts, func(t browsertest.Target) bool {
			return t.Type == "service_worker" && strings.HasPrefix(t.URL, extURL(""))
		}) {
			t.Logf("round %d: a worker runs again before the click", round)
		}
		before := deniedHits.Load()
		// The agent's page opens the denied site in a new tab by itself
		// (its own click: no command of the bridge's wakes the worker).
		if err := d.Call(ctx, page, "Runtime.evaluate", map[string]any{"expression": `document.querySelector("#open").click()`, "userGesture": true}, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := d.WaitTarget(ctx, "page", extURL("ui/blocked.html")); err != nil {
			t.Fatalf("round %d: the new tab does not show the blocked page: %v", round, err)
		}
		time.Sleep(time.Second) // a heal would come within 300 ms
		if n := deniedHits.Load() - before; n != 0 {
			t.Fatalf("round %d: the denied server got %d requests from the new tab of the bridge's tab", round, n)
		}
		closeTargets(t, denied, extURL("ui/blocked.html"))
	}
}

// bridgeTabs is the set of tabs the extension holds under the site rules.
func bridgeTabs(t *testing.T) map[int]bool {
	t.Helper()
	page, done := extensionPage(t)
	defer done()
	waitPage(t, page, `!!document.getElementById("status")`)
	var ids []int
	if err := devtools(t).Eval(ctxFor(t, 10*time.Second), page, `chrome.storage.session.get("policyTabs").then((s) => s.policyTabs || [])`, &ids); err != nil {
		t.Fatal(err)
	}
	out := map[int]bool{}
	for _, id := range ids {
		out[id] = true
	}
	return out
}

// closeTargets closes every page whose URL starts with one of prefixes.
func closeTargets(t *testing.T, prefixes ...string) {
	d := devtools(t)
	ctx := ctxFor(t, 10*time.Second)
	ts, err := d.Targets(ctx)
	if err != nil {
		return
	}
	for _, tg := range ts {
		for _, p := range prefixes {
			if tg.Type == "page" && strings.HasPrefix(tg.URL, p) {
				d.Call(ctx, "", "Target.closeTarget", map[string]any{"targetId": tg.TargetID}, nil)
			}
		}
	}
}
