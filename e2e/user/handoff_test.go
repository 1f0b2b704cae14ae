package user

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/audit"
	"github.com/browser-bridge/browser-bridge/internal/browsertest"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

const handoffMessage = "Please sign in to the fixture, then press Done"

// holderJS is, in the page, the element that holds the bridge's box.
const holderJS = browsertest.OverlayHolderJS

// onTopJS says, in the page, whether the bridge's box is what a click at
// its middle, and at each of its corners, would reach.
const onTopJS = `(() => {
	const h = ` + holderJS + `;
	if (!h) return false;
	const b = h.getBoundingClientRect();
	return [[b.x + b.width / 2, b.y + b.height / 2], [b.x + 4, b.y + 4], [b.right - 4, b.y + 4], [b.x + 4, b.bottom - 4], [b.right - 4, b.bottom - 4]]
		.every(([x, y]) => document.elementFromPoint(x, y) === h);
})()`

// startHandoff runs the handoff action in the background; the channel
// gets its result.
func startHandoff(t *testing.T, tab, timeoutMs int) <-chan browsertest.Result {
	t.Helper()
	done := make(chan browsertest.Result, 1)
	go func() {
		done <- bridge.Call(t, map[string]any{"action": "handoff", "tabId": tab, "message": handoffMessage, "timeoutMs": timeoutMs})
	}()
	return done
}

// overlayFrame waits for the hand-off frame over the page and attaches to
// it (it runs in the extension's process: a target of its own).
func overlayFrame(t *testing.T, ctx context.Context) string {
	t.Helper()
	d := devtools(t)
	tgt, err := d.WaitTarget(ctx, "iframe", extURL("ui/handoff.html"))
	if err != nil {
		t.Fatal(err)
	}
	frame, err := d.Attach(ctx, tgt.TargetID)
	if err != nil {
		t.Fatal(err)
	}
	waitPage(t, frame, `document.getElementById("message").textContent === `+jsString(handoffMessage))
	return frame
}

// pageSession attaches to the page's own target (its main world is the
// page's scripts' world).
func pageSession(t *testing.T, ctx context.Context, url string) string {
	t.Helper()
	return devtools(t).PageSession(t, ctx, url)
}

// handOff opens the fixture path in workspace ws, hands its tab to the
// user for up to timeoutMs and waits for the box over the page: it
// returns the tab, the channel of the handoff's result, and DevTools
// sessions of the box's frame and of the page.
func handOff(t *testing.T, ctx context.Context, ws, path string, timeoutMs int) (tab int, result <-chan browsertest.Result, frame, page string) {
	t.Helper()
	tab = openPage(t, workspace(t, ws), path)
	result = startHandoff(t, tab, timeoutMs)
	frame = overlayFrame(t, ctx)
	return tab, result, frame, pageSession(t, ctx, site+path)
}

// A hand-off shows its message over the page where the page's scripts
// cannot read it, puts it back when the page removes it, holds the tab
// against every other action (the agent's own click on Done among them),
// shows on the extension's page too, and returns done when the user
// presses Done in the overlay.
func TestHandoffDone(t *testing.T) {
	ctx := ctxFor(t, 90*time.Second)
	tab, result, frame, page := handOff(t, ctx, "user-handoff", "/page?handoff=done", 60000)
	d := devtools(t)

	// The page's own scripts see a holder element and nothing of the frame.
	var seen struct {
		HTML    bool `json:"html"`
		Iframes int  `json:"iframes"`
		Frames  int  `json:"frames"`
		Read    string
	}
	if err := d.Eval(ctx, page, `(() => {
		let read = "";
		try { read = window.frames[0].document.body.innerText; } catch (e) { read = "refused: " + e.name; }
		return {html: document.documentElement.outerHTML.includes("Please sign in"), iframes: document.querySelectorAll("iframe").length, frames: window.frames.length, Read: read};
	})()`, &seen); err != nil {
		t.Fatal(err)
	}
	if seen.HTML || seen.Iframes != 0 || !strings.HasPrefix(seen.Read, "refused") {
		t.Errorf("the page sees the hand-off: %+v", seen)
	}

	// A page that removes the overlay gets it back.
	if err := d.Eval(ctx, page, holderJS+`.remove()`, nil); err != nil {
		t.Fatal(err)
	}
	waitPage(t, page, onTopJS)
	frame = overlayFrame(t, ctx) // a removed frame reloads

	// While the user has the tab, the bridge does not drive it: not a
	// read, not a click — not even one on the Done button's point.
	done := donePoint(t, ctx, page, frame)
	for _, in := range []map[string]any{
		{"action": "inspect", "tabId": tab},
		{"action": "click", "tabId": tab, "selector": "#name"},
		{"action": "click", "tabId": tab, "x": done.X, "y": done.Y},
		{"action": "type", "tabId": tab, "selector": "#name", "value": "agent"},
		{"action": "handoff", "tabId": tab, "message": "again"},
	} {
		msg := failCode(t, in, protocol.CodeHandoffInProgress)
		if !strings.Contains(msg, handoffMessage) {
			t.Errorf("%v: %s", in["action"], msg)
		}
	}

	// The extension's page shows the hand-off, with its own Done.
	ext, target, err := d.Open(ctx, extURL("ui/popup.html"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Call(ctx, "", "Target.closeTarget", map[string]any{"targetId": target}, nil) })
	waitPage(t, ext, `!document.getElementById("handoffs").hidden && document.getElementById("handoffs").innerText.includes(`+jsString(handoffMessage)+`)`)
	shot(t, ext, "extension-page-handoff.png", 380)

	// The user types into the page meanwhile (a password, say).
	if err := d.Call(ctx, page, "Runtime.evaluate", map[string]any{"expression": `document.getElementById("name").focus()`}, nil); err != nil {
		t.Fatal(err)
	}
	if err := d.Call(ctx, page, "Input.insertText", map[string]any{"text": userSecret}, nil); err != nil {
		t.Fatal(err)
	}

	// The user presses Done in the overlay.
	shot(t, page, "handoff-overlay.png", 0)
	done = donePoint(t, ctx, page, frame)
	if err := d.Click(ctx, page, done.X, done.Y); err != nil {
		t.Fatal(err)
	}
	var r browsertest.Result
	select {
	case r = <-result:
	case <-ctx.Done():
		t.Fatal("the handoff did not return after Done")
	}
	if r.Err != nil || str(r.JSON, "outcome") != "done" || str(r.JSON, "title") != "User fixture" || !strings.HasSuffix(str(r.JSON, "url"), "/page?handoff=done") {
		t.Fatalf("handoff: %s %s", r.Stdout, r.Stderr)
	}
	waitPage(t, page, `!`+holderJS)
	bridge.MustCall(t, map[string]any{"action": "click", "tabId": tab, "selector": "#name"})

	// What the user typed is neither returned nor in the audit trail.
	trail, err := os.ReadFile(audit.File(paths.ForHome(bridge.Home)))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(r.Stdout), userSecret) || strings.Contains(string(trail), userSecret) {
		t.Errorf("what the user typed during the hand-off leaked: result %s", r.Stdout)
	}
	if !strings.Contains(string(trail), `"action":"handoff"`) {
		t.Errorf("the hand-off is not in the audit trail")
	}
}

// userSecret is what the user types during a hand-off.
const userSecret = "hunter2-typed-by-the-user"

type point struct{ X, Y float64 }

// donePoint is the middle of the overlay's Done button in the page's
// viewport: the frame's place on the page plus the button's in the frame.
func donePoint(t *testing.T, ctx context.Context, page, frame string) point {
	t.Helper()
	d := devtools(t)
	var host, button struct{ X, Y, W, H float64 }
	if err := d.Eval(ctx, page, `(() => { const b = `+holderJS+`.getBoundingClientRect(); return {X: b.x, Y: b.y, W: b.width, H: b.height}; })()`, &host); err != nil {
		t.Fatal(err)
	}
	if err := d.Eval(ctx, frame, `(() => { const b = document.getElementById("done").getBoundingClientRect(); return {X: b.x, Y: b.y, W: b.width, H: b.height}; })()`, &button); err != nil {
		t.Fatal(err)
	}
	return point{host.X + button.X + button.W/2, host.Y + button.Y + button.H/2}
}

// A hand-off nobody answers returns timeout once timeoutMs is over, and
// takes its overlay down.
func TestHandoffTimeout(t *testing.T) {
	ws := workspace(t, "user-timeout")
	tab := openPage(t, ws, "/page?handoff=timeout")
	ctx := ctxFor(t, 60*time.Second)
	start := time.Now()
	result := startHandoff(t, tab, 5000)
	overlayFrame(t, ctx)
	page := pageSession(t, ctx, site+"/page?handoff=timeout")
	var r browsertest.Result
	select {
	case r = <-result:
	case <-ctx.Done():
		t.Fatal("the handoff did not time out")
	}
	took := time.Since(start)
	if r.Err != nil || str(r.JSON, "outcome") != "timeout" {
		t.Fatalf("handoff: %s %s", r.Stdout, r.Stderr)
	}
	if took < 3*time.Second || took > 15*time.Second {
		t.Errorf("a 5 s hand-off took %s", took)
	}
	waitPage(t, page, `!`+holderJS)
	bridge.MustCall(t, map[string]any{"action": "extract", "tabId": tab})
}

// A page that shows its own look-alike box over the bridge's, and fights
// to keep it on top — from its document, or from a closed
// shadow root whose events the bridge does not see — does not get it
// there: the bridge's box stays what a click on it reaches, the
// look-alike's Done ends nothing, and the user's press on the bridge's
// Done ends the hand-off.
func TestHandoffBoxStaysOverAPageThatFightsForTheTop(t *testing.T) {
	for name, fixture := range map[string]string{"document": "/fighter", "shadow": "/fighter?shadow"} {
		t.Run(name, func(t *testing.T) {
			ctx := ctxFor(t, 60*time.Second)
			_, result, frame, page := handOff(t, ctx, "user-fighter-"+name, fixture, 30000)
			d := devtools(t)
			// The page has had its turns: each look, over a second, finds
			// the bridge's box on top.
			for i := 0; i < 10; i++ {
				time.Sleep(100 * time.Millisecond)
				var top bool
				if err := d.Eval(ctx, page, onTopJS, &top); err != nil {
					t.Fatal(err)
				}
				if !top {
					shot(t, page, "handoff-fighter.png", 0)
					t.Fatalf("look %d: the page's look-alike is over the bridge's box", i+1)
				}
			}
			// A press on the look-alike's Done (the page's own) ends
			// nothing.
			if err := d.Eval(ctx, page, `pressLookAlike()`, nil); err != nil {
				t.Fatal(err)
			}
			select {
			case r := <-result:
				t.Fatalf("the look-alike's Done ended the hand-off: %s", r.Stdout)
			case <-time.After(500 * time.Millisecond):
			}
			pressDone(t, ctx, page, frame, result)
			var presses string
			d.Eval(ctx, page, `document.title`, &presses)
			if presses != "Fighter: pressed 1" {
				t.Errorf("the look-alike got the user's press on the bridge's Done: %q", presses)
			}
		})
	}
}

// A modal dialog of the page's makes everything outside it inert, however
// high the bridge's box is drawn: while one is open the box lives inside
// it, still on top, and the user can press the dialog's own buttons and
// the bridge's Done.
func TestHandoffBoxOverAModalDialog(t *testing.T) {
	ctx := ctxFor(t, 60*time.Second)
	_, result, _, page := handOff(t, ctx, "user-modal", "/modal", 30000)
	d := devtools(t)
	press := func(what, expr string) {
		t.Helper()
		var p point
		if err := d.Eval(ctx, page, `(() => { const b = `+expr+`.getBoundingClientRect(); return {X: b.x + b.width / 2, Y: b.y + b.height / 2}; })()`, &p); err != nil {
			t.Fatal(err)
		}
		if err := d.Click(ctx, page, p.X, p.Y); err != nil {
			t.Fatalf("pressing %s: %v", what, err)
		}
	}
	// The page opens its dialog where the box is; the user closes it.
	if err := d.Eval(ctx, page, `document.getElementById("dialog").showModal()`, nil); err != nil {
		t.Fatal(err)
	}
	waitPage(t, page, onTopJS)
	press("the dialog's Close", `document.getElementById("close")`)
	waitPage(t, page, `!document.getElementById("dialog").open`)
	waitPage(t, page, onTopJS)
	// It opens it again, and the user presses the bridge's Done (in it).
	if err := d.Eval(ctx, page, `document.getElementById("dialog").showModal()`, nil); err != nil {
		t.Fatal(err)
	}
	waitPage(t, page, onTopJS)
	frame := overlayFrame(t, ctx) // the box moved into the dialog: its frame reloaded
	pressDone(t, ctx, page, frame, result)
}

// pressDone is the user's press on the bridge's Done, which must end the
// hand-off with done.
func pressDone(t *testing.T, ctx context.Context, page, frame string, result <-chan browsertest.Result) {
	t.Helper()
	done := donePoint(t, ctx, page, frame)
	if err := devtools(t).Click(ctx, page, done.X, done.Y); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-result:
		if r.Err != nil || str(r.JSON, "outcome") != "done" {
			t.Fatalf("handoff: %s %s", r.Stdout, r.Stderr)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the user's press on the bridge's Done did not end the hand-off")
	}
}
