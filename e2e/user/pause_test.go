package user

import (
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// The page's Pause switch, clicked as the user clicks it, makes the next
// action fail with paused_by_user (status still answers, and says so),
// and switching it back lets actions run again.
func TestPauseSwitch(t *testing.T) {
	tab, page := pageBesidePopup(t, "user-pause")
	waitPage(t, page, `document.getElementById("status").textContent === "Connected" && !document.getElementById("pause").disabled`)
	t.Cleanup(func() { bridge.Run(t, "resume") }) // whatever happens, later tests run

	clickSwitch(t, page)
	waitPage(t, page, `document.getElementById("status").textContent === "Paused" && document.getElementById("pause").checked`)
	msg := failCode(t, map[string]any{"action": "extract", "tabId": tab}, protocol.CodePausedByUser)
	t.Logf("while paused: %s", msg)
	bridge.MustCall(t, map[string]any{"action": "status"})
	shot(t, page, "extension-page-paused.png", 380)

	clickSwitch(t, page)
	waitPage(t, page, `document.getElementById("status").textContent === "Connected" && !document.getElementById("pause").checked`)
	bridge.MustCall(t, map[string]any{"action": "extract", "tabId": tab})
	// The trail has the user's switch.
	waitPage(t, page, `[...document.querySelectorAll("#actions .what b")].map((b) => b.textContent).join(",").startsWith("extract,resume")`)
}

// clickSwitch clicks the middle of the page's Pause switch with trusted
// mouse input.
func clickSwitch(t *testing.T, page string) { t.Helper(); clickSwitchOf(t, page, "#pause") }

// clickSwitchOf clicks the middle of the switch around the input of
// selector with trusted mouse input.
func clickSwitchOf(t *testing.T, page, selector string) {
	t.Helper()
	d := devtools(t)
	ctx := ctxFor(t, 10*time.Second)
	var r struct{ X, Y float64 }
	if err := d.Eval(ctx, page, `(() => { const b = document.querySelector(`+jsString(selector)+`).closest(".switch").getBoundingClientRect(); return {x: b.x + b.width / 2, y: b.y + b.height / 2}; })()`, &r); err != nil {
		t.Fatal(err)
	}
	if err := d.Click(ctx, page, r.X, r.Y); err != nil {
		t.Fatal(err)
	}
}

// pageBesidePopup opens the fixture page in a workspace of the test's own
// and the extension's page (ui/popup.html, closed at the test's end), for
// the tests that click the page's switches; it returns the fixture's tab,
// and the extension page's session.
func pageBesidePopup(t *testing.T, workspaceID string) (tab int, page string) {
	t.Helper()
	tab = openPage(t, workspace(t, workspaceID), "/page")
	d := devtools(t)
	ctx := ctxFor(t, 60*time.Second)
	page, target, err := d.Open(ctx, extURL("ui/popup.html"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Call(ctx, "", "Target.closeTarget", map[string]any{"targetId": target}, nil) })
	return tab, page
}
