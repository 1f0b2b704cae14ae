package user

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
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
	ws, _ := st["windows"].([]any)
	for _, w := range ws {
		tabs, _ := w.(map[string]any)["tabs"].([]any)
		for _, x := range tabs {
			if m := x.(map[string]any); num(t, m, "tabId") == tab {
				return m["active"] == true
			}
		}
	}
	t.Fatalf("tab %d is not in status", tab)
	return false
}

func itoa(n int) string { return strconv.Itoa(n) }

// waitPage waits up to 15 s for expr to be true on the page, and fails
// the test with the page's text when it is not.
func waitPage(t *testing.T, page, expr string) {
	t.Helper()
	d := devtools(t)
	ctx := ctxFor(t, 15*time.Second)
	if err := d.WaitEval(ctx, page, expr); err != nil {
		var text string
		d.Eval(ctxFor(t, 5*time.Second), page, "document.body.innerText", &text)
		t.Fatalf("%v\nthe page says:\n%s", err, text)
	}
}

// shot saves a PNG of the page under the test's temp dir, or under
// $BROWSER_BRIDGE_TEST_SHOTS when set (to look at it afterwards). width,
// when not 0, renders the page that wide and as tall as its content (the
// extension's page as a popup or side panel shows it); the page's own
// size comes back afterwards.
func shot(t *testing.T, page, name string, width int) {
	t.Helper()
	d := devtools(t)
	ctx := ctxFor(t, 20*time.Second)
	if width > 0 {
		metrics := func(h int) {
			d.Call(ctx, page, "Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": h, "deviceScaleFactor": 1, "mobile": false}, nil)
		}
		metrics(600)
		var h int
		d.Eval(ctx, page, "document.documentElement.scrollHeight", &h)
		metrics(min(max(h, 200), 1600))
		defer d.Call(ctx, page, "Emulation.clearDeviceMetricsOverride", nil, nil)
	}
	png, err := d.Screenshot(ctx, page)
	if err != nil {
		t.Fatal(err)
	}
	dir := os.Getenv("BROWSER_BRIDGE_TEST_SHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", path, len(png))
}

func jsString(s string) string {
	return "\"" + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + "\""
}
