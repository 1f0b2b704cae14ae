package user

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// A tab of the user's own, at a page the rules allow, that frames the
// denied site: the session rules cover only the bridge's
// tabs, so the frame loads, and the bridge must still neither read nor
// drive it. extract leaves it out and names it in frames[]; a locator
// that matches only in it finds nothing; a click aimed into it, by
// frameId or by a point on it, is blocked_by_policy; a screenshot, which
// would show it, is refused. The page's own parts still work, its
// other frames included (one of them a Chrome error page). Before
// the fix extract returned the frame's text and the click pressed its
// button.
func TestDeniedFrameInAUsersTab(t *testing.T) {
	denySite(t)
	before := deniedHits.Load()
	tab := usersTab(t, site+"/framesdenied")
	// The frame has loaded once the denied server has answered it and its
	// button has been laid out.
	for deadline := time.Now().Add(10 * time.Second); deniedHits.Load() == before; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the user's tab never loaded the denied frame")
		}
	}
	time.Sleep(500 * time.Millisecond)
	clicks := deniedClicks.Load()

	// extract: the page, not the frame; the frame named as left out.
	var ex tool.ExtractResult
	res := bridge.MustCall(t, map[string]any{"action": "extract", "tabId": tab, "include": []string{"text", "frames"}})
	decode(t, res, &ex)
	if ex.Text == nil || strings.Contains(*ex.Text, "DENIED-SITE-CONTENT") || !strings.Contains(*ex.Text, "ALLOWED-PAGE-TEXT") || !strings.Contains(*ex.Text, "SRCDOC-TEXT") {
		t.Errorf("extract's text: %v", res)
	}
	frameID := -1
	for _, f := range ex.Frames {
		if strings.HasPrefix(f.URL, denied) {
			frameID = f.FrameID
			if f.Included || !strings.Contains(f.Reason, deniedRule) {
				t.Errorf("the denied frame in extract's frames[]: %+v", f)
			}
		}
	}
	if frameID < 0 {
		t.Errorf("extract's frames[] does not name the denied frame: %+v", ex.Frames)
	}

	// A locator that matches only in the denied frame finds nothing there
	// and says why; aimed into the frame it is refused.
	r := bridge.Call(t, map[string]any{"action": "click", "tabId": tab, "text": "Denied button", "timeoutMs": 2000})
	if r.Err == nil || r.Err.Code != protocol.CodeElementNotFound || !strings.Contains(r.Err.Message, "not searched") || !strings.Contains(r.Err.Message, deniedRule) {
		t.Errorf("a click on the denied frame's button: %s, want element_not_found naming the left-out frame", r.Stdout)
	}
	for _, in := range []map[string]any{
		{"action": "click", "tabId": tab, "selector": "button", "frameId": frameID, "timeoutMs": 2000},
		{"action": "click", "tabId": tab, "x": 300, "y": 350, "timeoutMs": 2000},
		{"action": "screenshot", "tabId": tab, "mode": "viewport"},
		{"action": "wait", "tabId": tab, "selector": "button", "frameId": frameID, "timeoutMs": 2000},
	} {
		r := bridge.Call(t, in)
		if r.Err == nil || r.Err.Code != protocol.CodeBlockedByPolicy || !strings.Contains(r.Err.Message, deniedRule) {
			t.Errorf("%v: %s, want blocked_by_policy naming the rule", in, r.Stdout)
		}
	}
	// Keys with no locator while the user's focus is in the denied frame
	// would go there.
	d := devtools(t)
	ctx := ctxFor(t, 10*time.Second)
	page := d.PageSession(t, ctx, site+"/framesdenied")
	if err := d.Eval(ctx, page, `document.getElementById("denied").focus(), document.activeElement.id`, nil); err != nil {
		t.Fatal(err)
	}
	r = bridge.Call(t, map[string]any{"action": "press", "tabId": tab, "keys": "Enter"})
	if r.Err == nil || r.Err.Code != protocol.CodeBlockedByPolicy || !strings.Contains(r.Err.Message, deniedRule) {
		t.Errorf("press with the focus in the denied frame: %s, want blocked_by_policy naming the rule", r.Stdout)
	}
	if n := deniedClicks.Load() - clicks; n != 0 {
		t.Errorf("the denied frame's button was pressed %d times", n)
	}

	// The page's own button still works.
	bridge.MustCall(t, map[string]any{"action": "click", "tabId": tab, "selector": "#own"})
	bridge.MustCall(t, map[string]any{"action": "wait", "tabId": tab, "text": "Own button pressed", "timeoutMs": 3000})
}

// decode turns an action's result into its result type.
func decode(t *testing.T, res map[string]any, out any) {
	t.Helper()
	b, _ := json.Marshal(res)
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatal(err)
	}
}
