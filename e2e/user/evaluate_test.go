package user

import (
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
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
