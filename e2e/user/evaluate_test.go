package user

import (
	"net"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
	"github.com/browser-bridge/browser-bridge/internal/tool"
)

// The page's switch "Let the agent run JavaScript", clicked as the user
// clicks it, turns the evaluate action on (status says so) and off again.
func TestEvaluateSwitch(t *testing.T) {
	tab, page := pageBesidePopup(t, "user-evaluate")
	t.Cleanup(func() { bridge.Run(t, "policy", "evaluate", "off") })
	waitPage(t, page, `document.getElementById("status").textContent === "Connected" && !document.getElementById("evaluate").disabled && !document.getElementById("evaluate").checked`)
	failCode(t, map[string]any{"action": "evaluate", "tabId": tab, "expression": "1"}, protocol.CodeEvaluateDisabled)

	clickSwitchOf(t, page, "#evaluate")
	waitPage(t, page, `document.getElementById("evaluate").checked && document.getElementById("evaluate-note").textContent.startsWith("On")`)
	if st := bridge.MustCall(t, map[string]any{"action": "status"}); st["evaluate"] != true {
		t.Errorf("status after the switch: evaluate %v", st["evaluate"])
	}
	if r := bridge.MustCall(t, map[string]any{"action": "evaluate", "tabId": tab, "expression": "6 * 7"}); r["value"] != float64(42) {
		t.Errorf("evaluate after the switch: %v", r)
	}
	shot(t, page, "extension-page-evaluate.png", 380)

	clickSwitchOf(t, page, "#evaluate")
	waitPage(t, page, `!document.getElementById("evaluate").checked`)
	failCode(t, map[string]any{"action": "evaluate", "tabId": tab, "expression": "1"}, protocol.CodeEvaluateDisabled)
	waitPage(t, page, `[...document.querySelectorAll("#actions .what b")].map((b) => b.textContent).includes("evaluate off")`)
}

// evaluate keeps to the site rules inside a page, as extract and find do:
// aimed into a frame of a denied site it is blocked_by_policy; in the
// top frame of a page that frames a denied part of its own origin it is
// refused too (its script would open that frame's document), and so it
// is on any page of an origin a path rule denies in part (its script
// would fetch that part). The page's own top frame, on a site without
// such a rule, still answers. Before the fix, the expression read the
// denied frame's text.
func TestEvaluateKeepsOutOfDeniedFrames(t *testing.T) {
	denySite(t)
	if r := bridge.Run(t, "policy", "evaluate", "on"); r.Exit != 0 {
		t.Fatalf("policy evaluate on: %s %s", r.Stdout, r.Stderr)
	}
	t.Cleanup(func() { bridge.Run(t, "policy", "evaluate", "off") })

	tab := usersTab(t, site+"/framesdenied")
	frameID := frameShowing(t, tab, denied)
	msg := failCode(t, map[string]any{"action": "evaluate", "tabId": tab, "frameId": frameID, "expression": "document.body.innerText"}, protocol.CodeBlockedByPolicy)
	if !strings.Contains(msg, deniedRule) || strings.Contains(msg, "DENIED-SITE-CONTENT") {
		t.Errorf("evaluate in the denied frame: %s", msg)
	}
	if r := bridge.MustCall(t, map[string]any{"action": "evaluate", "tabId": tab, "expression": "document.title"}); r["value"] != "Frames a denied site" {
		t.Errorf("evaluate in the allowed top frame: %v", r)
	}

	_, port, _ := net.SplitHostPort(strings.TrimPrefix(site, "http://"))
	rule := "127.0.0.1:" + port + "/admin/*"
	denyRule(t, rule)
	same := usersTab(t, site+"/evalsame")
	frameShowing(t, same, site+"/admin/secret")
	for _, in := range []map[string]any{
		{"action": "evaluate", "tabId": same, "expression": "frames[0].document.body.innerText"},
		{"action": "evaluate", "tabId": tab, "expression": "fetch('/admin/secret').then((r) => r.text())"},
	} {
		msg := failCode(t, in, protocol.CodeBlockedByPolicy)
		if !strings.Contains(msg, rule) || strings.Contains(msg, "ADMIN-SECRET") {
			t.Errorf("%v: %s, want blocked_by_policy naming %s", in, msg, rule)
		}
	}
}

// frameShowing waits until extract lists a frame of tab whose URL starts
// with prefix (a refused one is listed, not read) and returns its ID.
func frameShowing(t *testing.T, tab int, prefix string) int {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		var ex tool.ExtractResult
		decode(t, bridge.MustCall(t, map[string]any{"action": "extract", "tabId": tab, "include": []string{"frames"}}), &ex)
		for _, f := range ex.Frames {
			if strings.HasPrefix(f.URL, prefix) {
				return f.FrameID
			}
		}
	}
	t.Fatalf("tab %d shows no frame at %s", tab, prefix)
	return 0
}
