package user

import (
	"strconv"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
)

// The extension's page, opened as a page, says the bridge is connected,
// lists the workspace the agent works in with its tab, and shows the
// agent's last actions as they happen.
func TestExtensionPageShowsConnectionWorkspacesAndActions(t *testing.T) {
	ws := workspace(t, "user-page")
	tab := openPage(t, ws, "/page")
	bridge.MustCall(t, map[string]any{"action": "click", "tabId": tab, "selector": "#name"})

	d := devtools(t)
	ctx := ctxFor(t, 60*time.Second)
	page, target, err := d.Open(ctx, extURL("ui/popup.html"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Call(ctx, "", "Target.closeTarget", map[string]any{"targetId": target}, nil) })
	waitPage(t, page, `document.getElementById("status").textContent === "Connected"`)
	waitPage(t, page, `document.getElementById("workspaces").innerText.includes(`+jsString(ws)+`) && document.getElementById("workspaces").innerText.includes("User fixture")`)
	waitPage(t, page, `document.getElementById("actions").innerText.includes("click")`)
	var text string
	d.Eval(ctx, page, "document.body.innerText", &text)
	t.Logf("the page says:\n%s", text)

	// A new action shows within the page's poll.
	bridge.MustCall(t, map[string]any{"action": "scroll", "tabId": tab, "to": "bottom"})
	waitPage(t, page, `document.querySelector("#actions li .what b")?.textContent === "scroll"`)
	// Each line names the browser that ran it, as the audit trail does.
	waitPage(t, page, `/\b0 \(Chromium\)/.test(document.querySelector("#actions li .sub")?.textContent || "")`)

	shot(t, page, "extension-page.png", 380)

	// A click on a tab in the page brings it forward: here the first tab,
	// behind a second one the agent opened.
	second := openPage(t, ws, "/page?second")
	waitPage(t, page, `document.querySelectorAll("#workspaces .tabs button").length === 2`)
	var at struct{ X, Y float64 }
	if err := d.Eval(ctx, page, `(() => { const b = document.querySelector("#workspaces .tabs button[data-focus='`+itoa(tab)+`']").getBoundingClientRect(); return {X: b.x + 20, Y: b.y + b.height / 2}; })()`, &at); err != nil {
		t.Fatal(err)
	}
	if active(t, tab) || !active(t, second) {
		t.Fatalf("the second tab should be the active one")
	}
	if err := d.Click(ctx, page, at.X, at.Y); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !active(t, tab) {
		if time.Now().After(deadline) {
			t.Fatal("the tab clicked in the page did not come forward")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// active says whether tab is the active tab of its window (status).
func active(t *testing.T, tab int) bool {
	t.Helper()
	st := bridge.MustCall(t, map[string]any{"action": "status"})
	for _, m := range browsertest.StatusTabs(st) {
		if num(t, m, "tabId") == tab {
			return m["active"] == true
		}
	}
	t.Fatalf("tab %d is not in status", tab)
	return false
}

func itoa(n int) string { return strconv.Itoa(n) }

// waitPage waits until expr is true in the page (browsertest.DevTools.WaitPage).
func waitPage(t *testing.T, page, expr string) { t.Helper(); devtools(t).WaitPage(t, page, expr) }

// shot saves a PNG of the page (browsertest.DevTools.Shot).
func shot(t *testing.T, page, name string, width int) {
	t.Helper()
	devtools(t).Shot(t, page, name, width)
}

func jsString(s string) string { return browsertest.JSString(s) }
