package e2e

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// fixtures serves testdata/ on 127.0.0.1, with CROSS_ORIGIN in a page
// replaced by the same server's address on localhost: another site for
// Chrome, so a frame from there is out of process.
func fixtures(t *testing.T) (base string) {
	t.Helper()
	var cross string
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := os.ReadFile(filepath.Join("testdata", filepath.Base(r.URL.Path)))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(strings.ReplaceAll(string(b), "CROSS_ORIGIN", cross)))
	}))
	// cross is set before the server starts, so no request can race it.
	cross = strings.Replace("http://"+srv.Listener.Addr().String(), "127.0.0.1", "localhost", 1)
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL
}

// openFixture opens testdata/<page> (with its query) in a workspace of
// the test's own and returns the tab.
func openFixture(t *testing.T, page string) int {
	t.Helper()
	ws := "actionable-" + t.Name()
	o := call(t, map[string]any{"action": "open", "url": fixtures(t) + "/" + page, "browserWorkspaceId": ws})
	t.Cleanup(func() {
		bridge.Call(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws})
	})
	return num(t, o, "tabId")
}

// mustFail runs in and wants it to fail with code, its message naming
// each of words.
func mustFail(t *testing.T, in map[string]any, code string, words ...string) *protocol.Error {
	t.Helper()
	r := bridge.Call(t, in)
	if r.Err == nil || r.Err.Code != code {
		t.Fatalf("%v: %s, want %s", in, r.Stdout, code)
	}
	for _, w := range words {
		if !strings.Contains(r.Err.Message, w) {
			t.Errorf("%v: the message %q does not name %q", in, r.Err.Message, w)
		}
	}
	return r.Err
}

// A button under an overlay that goes away after 2.5 s is clicked once it
// is gone, and the result says how long the click waited; the overlay
// gets nothing.
func TestClickWaitsForACoverToGo(t *testing.T) {
	tab := openFixture(t, "actionable.html?overlay=2500")
	start := time.Now()
	r := call(t, map[string]any{"action": "click", "tabId": tab, "text": "Pay now"})
	if took := time.Since(start); took < time.Second {
		t.Errorf("the click returned after %s, while the overlay was still there", took)
	}
	if w, _ := r["waitedMs"].(float64); w < 1000 {
		t.Errorf("the result does not say the click waited: %v", r)
	}
	if f, _ := r["waitedFor"].(string); !strings.HasPrefix(f, "covered") {
		t.Errorf("the result does not say the click waited for the cover: %v", r)
	}
	if log := probeText(t, tab, 0, "#log"); !strings.Contains(log, "pay:true") || strings.Contains(log, "overlay") {
		t.Fatalf("log %q: want the button clicked and the overlay not", log)
	}
}

// Still covered at the deadline: nothing is pressed, and element_obscured
// names what covers the button.
func TestClickStillCoveredFailsAndPressesNothing(t *testing.T) {
	tab := openFixture(t, "actionable.html?overlay=1")
	mustFail(t, map[string]any{"action": "click", "tabId": tab, "text": "Stuck button", "timeoutMs": 1500},
		protocol.CodeElementObscured, "We use cookies", "nothing was pressed")
	if log := probeText(t, tab, 0, "#log"); log != "" {
		t.Fatalf("log %q: something was pressed", log)
	}
}

// A disabled button is clicked, and a disabled checkbox checked, once
// enabled; a button that keeps moving (it and a decoy swap places every
// frame for 1.5 s) is clicked once it stays put, never the decoy.
func TestClickWaitsUntilEnabledAndStable(t *testing.T) {
	tab := openFixture(t, "actionable.html?overlay=1")
	if r := call(t, map[string]any{"action": "check", "tabId": tab, "label": "Accept later"}); r["checked"] != true {
		t.Errorf("check: %v", r)
	}
	call(t, map[string]any{"action": "click", "tabId": tab, "text": "Enabled later"})
	r := call(t, map[string]any{"action": "click", "tabId": tab, "text": "Moving button"})
	log := probeText(t, tab, 0, "#log")
	if !strings.Contains(log, "later:true") || !strings.Contains(log, "slider:true") || strings.Contains(log, "decoy") {
		t.Fatalf("log %q (click result %v)", log, r)
	}
}

// A link whose text wraps into two pieces inside a rotated box is hit on
// its text: the middle of its bounding box is other text.
func TestClickHitsTheTextOfAWrappedLinkInARotatedBox(t *testing.T) {
	tab := openFixture(t, "actionable.html?overlay=1")
	call(t, map[string]any{"action": "click", "tabId": tab, "role": "link", "name": "the wrapped link text"})
	if log := probeText(t, tab, 0, "#log"); !strings.Contains(log, "wrapped:true") || strings.Contains(log, "rotated") {
		t.Fatalf("log %q: want the link clicked", log)
	}
}

// Several text matches: the one that can be clicked is taken (the button,
// not the heading; the element with a click handler, not the paragraph),
// and the result says which and how many matched.
func TestTextLocatorPrefersWhatCanBeClicked(t *testing.T) {
	tab := openFixture(t, "actionable.html?overlay=1")
	r := call(t, map[string]any{"action": "click", "tabId": tab, "text": "Sign in"})
	el := r["element"].(map[string]any)
	if el["tag"] != "button" || num(t, el, "matches") != 2 {
		t.Errorf("took %v", el)
	}
	if !strings.Contains(strings.Join(strs(r["warnings"]), " "), "button") {
		t.Errorf("the warnings do not say which was taken: %v", r["warnings"])
	}
	call(t, map[string]any{"action": "click", "tabId": tab, "text": "Open details"})
	if log := probeText(t, tab, 0, "#log"); !strings.Contains(log, "signin:true") || strings.Contains(log, "heading") || !strings.Contains(log, "details") {
		t.Fatalf("log %q", log)
	}
}

// An element that appears 300 ms after the previous click is found within
// the deadline, not element_not_found.
func TestLocatorWaitsForItsElement(t *testing.T) {
	tab := openFixture(t, "actionable.html?overlay=1")
	call(t, map[string]any{"action": "click", "tabId": tab, "text": "Show panel"})
	call(t, map[string]any{"action": "click", "tabId": tab, "text": "Panel action"})
	if log := probeText(t, tab, 0, "#log"); !strings.Contains(log, "panel:true") {
		t.Fatalf("log %q", log)
	}
	// One that never comes still fails, with candidates.
	mustFail(t, map[string]any{"action": "click", "tabId": tab, "text": "Panel actoin", "timeoutMs": 1000},
		protocol.CodeElementNotFound, "Panel action")
}

// Clicks inside frames follow the CSS transforms of the frame and of its
// ancestors (translate, scale, 3D rotation, perspective), for a
// same-origin frame, a cross-origin one, and a frame in a frame; a frame
// behind a dialog is not clicked through it.
func TestClickInTransformedFrames(t *testing.T) {
	tab := openFixture(t, "transformed.html")
	for _, name := range []string{"Same", "Cross", "Inner"} {
		r := call(t, map[string]any{"action": "click", "tabId": tab, "text": name + " button"})
		el := r["element"].(map[string]any)
		if got := probeText(t, tab, num(t, el, "frameId"), "#out"); got != name+" clicked true" {
			t.Errorf("%s frame says %q", name, got)
		}
	}
	mustFail(t, map[string]any{"action": "click", "tabId": tab, "text": "Behind button", "timeoutMs": 1500},
		protocol.CodeElementObscured, "Please wait dialog")
	if r := bridge.Call(t, map[string]any{"action": "wait", "tabId": tab, "text": "Behind missed", "timeoutMs": 300}); r.Err == nil {
		t.Fatalf("the covered frame got a click")
	}
}

// The page slides a cross-origin frame under the
// pointer on mousemove, after the point was measured. The point is checked
// again just before the press, so nothing is pressed.
func TestClickRechecksThePointBeforePressing(t *testing.T) {
	tab := openFixture(t, "mover.html")
	mustFail(t, map[string]any{"action": "click", "tabId": tab, "text": "Buy it", "timeoutMs": 2000},
		protocol.CodeElementObscured, "iframe")
	for _, text := range []string{"Evil clicked", "Evil missed"} {
		if r := bridge.Call(t, map[string]any{"action": "wait", "tabId": tab, "text": text, "timeoutMs": 300}); r.Err == nil {
			t.Fatalf("the frame slid under the pointer was clicked: %s", r.Stdout)
		}
	}
	if log := probeText(t, tab, 0, "#log"); log != "" {
		t.Fatalf("log %q", log)
	}
}

// A selector that tests the value of a password,
// one-time-code or card field never matches it, so a typed secret cannot
// be read one character at a time; other fields' values still can be.
func TestSensitiveFieldsNeverMatchValueSelectors(t *testing.T) {
	tab := openFixture(t, "secret.html")
	for _, label := range []string{"Password", "Code", "Card"} {
		call(t, map[string]any{"action": "type", "tabId": tab, "label": label, "value": "a1b2"})
	}
	for _, sel := range []string{
		`input[type=password][value^="a"]`,
		`input[type=password][value]`,
		`#otp[value*="1b"]`,
		`#cc[VALUE$="2"]`,
		`input[v\61lue^="a"]`,
		`form:has(input[value^="a"])`,
		`input:not([value^="z"]) ~ input[value^="a1"]`,
	} {
		err := mustFail(t, map[string]any{"action": "wait", "tabId": tab, "selector": sel, "timeoutMs": 1500}, protocol.CodeTimeout)
		// The wait's own timeout says why (a machine too busy to answer
		// the last look in time ends the wait with the deadline's).
		if !strings.Contains(err.Message, "never match") && !strings.Contains(err.Message, "did not answer") {
			t.Errorf("%s: the message %q does not say that sensitive fields never match", sel, err.Message)
		}
	}
	// A value test that excludes the secret cannot tell one value from
	// another: the field matches whatever is asked.
	for _, c := range []string{"a", "z"} {
		call(t, map[string]any{"action": "wait", "tabId": tab, "selector": `#pw:not([value^="` + c + `"])`, "timeoutMs": 2000})
	}
	r := call(t, map[string]any{"action": "wait", "tabId": tab, "selector": `input[type=submit][value="Log in"]`, "timeoutMs": 2000})
	if el := r["element"].(map[string]any); el["tag"] != "input" {
		t.Fatalf("a submit button by its value: %v", r)
	}
}

// drag: native HTML5 drag and drop (draggable items, drop targets), and a
// sortable list and a slider on pointer events, to a locator or a point.
func TestDragHTML5AndPointerLists(t *testing.T) {
	tab := openFixture(t, "dnd.html")
	call(t, map[string]any{"action": "drag", "tabId": tab, "from": map[string]any{"text": "Item A"}, "to": map[string]any{"text": "Item D"}})
	if order := probeText(t, tab, 0, "#order"); strings.HasPrefix(order, "A") || !strings.Contains(probeText(t, tab, 0, "#log"), "drop:Item A:true") {
		t.Fatalf("after dragging A onto D: order %q, log %q", order, probeText(t, tab, 0, "#log"))
	}
	r := call(t, map[string]any{"action": "drag", "tabId": tab, "from": map[string]any{"text": "Item B"}, "to": map[string]any{"text": "Trash"}})
	if order := probeText(t, tab, 0, "#order"); strings.Contains(order, "B") || !strings.Contains(probeText(t, tab, 0, "#log"), "trashed:Item B:true") {
		t.Fatalf("after dragging B to the trash: order %q, result %v", order, r)
	}

	tab = openFixture(t, "sortable.html")
	call(t, map[string]any{"action": "drag", "tabId": tab, "from": map[string]any{"text": "One"}, "to": map[string]any{"text": "Four"}})
	if order, log := probeText(t, tab, 0, "#order"), probeText(t, tab, 0, "#log"); strings.HasPrefix(order, "One") || !strings.Contains(log, "sorted:One:moves>true:true") {
		t.Fatalf("after dragging One onto Four: order %q, log %q", order, log)
	}
	// The slider's knob, dragged to the middle of its track, then to a
	// point three quarters along it.
	r = call(t, map[string]any{"action": "drag", "tabId": tab, "from": map[string]any{"role": "slider", "name": "Volume"}, "to": map[string]any{"selector": "#track"}})
	if v, _ := strconv.Atoi(probeText(t, tab, 0, "#value")); v < 45 || v > 55 {
		t.Fatalf("slider value %d after a drag to the middle of its track (result %v)", v, r)
	}
	track, _ := r["to"].(map[string]any)
	rect, _ := track["rect"].(map[string]any)
	if rect == nil {
		t.Fatalf("the result does not describe where it dropped: %v", r)
	}
	f := func(k string) float64 { v, _ := rect[k].(float64); return v }
	call(t, map[string]any{"action": "drag", "tabId": tab, "from": map[string]any{"role": "slider", "name": "Volume"},
		"to": map[string]any{"x": f("x") + 0.75*f("width"), "y": f("y") + f("height")/2}})
	if v, _ := strconv.Atoi(probeText(t, tab, 0, "#value")); v < 72 || v > 78 {
		t.Fatalf("slider value %d after a drag to three quarters of its track", v)
	}
}

// strs turns a JSON list into strings.
func strs(v any) []string {
	var out []string
	l, _ := v.([]any)
	for _, s := range l {
		if s, ok := s.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// An option of a list box is hit through its <select>, which draws it.
func TestClickAListBoxOption(t *testing.T) {
	tab := openApp(t)
	call(t, map[string]any{"action": "click", "tabId": tab, "selector": "#multi option:nth-child(2)"})
	r := call(t, map[string]any{"action": "wait", "tabId": tab, "selector": "#multi option:checked", "timeoutMs": 2000})
	if el := r["element"].(map[string]any); el["text"] != "Green" {
		t.Fatalf("selected %v", el)
	}
}

// A deadline the agent asks for is the time the condition gets (issue
// 25): wait with timeoutMs 1000 gave up after 700 ms, the rest kept for
// answering. The answer now comes after the condition's time.
func TestWaitGetsItsWholeTimeout(t *testing.T) {
	tab := openFixture(t, "secret.html")
	err := mustFail(t, map[string]any{"action": "wait", "tabId": tab, "selector": "#never-there", "timeoutMs": 1000}, protocol.CodeTimeout)
	m := regexp.MustCompile(`within ([0-9.]+m?s)`).FindStringSubmatch(err.Message)
	if m == nil {
		t.Fatalf("the timeout does not say how long it waited: %s", err.Message)
	}
	if d, perr := time.ParseDuration(m[1]); perr != nil || d < 900*time.Millisecond {
		t.Errorf("the condition got %s of its 1000 ms: %s", m[1], err.Message)
	}
}
