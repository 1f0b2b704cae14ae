package e2e

import (
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// An option inside a disabled <optgroup> cannot be picked by a person, so
// select refuses it as it refuses a disabled option, and the page keeps
// its value.
func TestSelectRefusesAnOptionOfADisabledGroup(t *testing.T) {
	tab := openFixture(t, "select.html")
	for _, option := range []string{"Audi", "bmw", "Saab"} {
		mustFail(t, map[string]any{"action": "select", "tabId": tab, "selector": "#car", "option": option},
			protocol.CodeInvalidArgument, "disabled")
	}
	if v := probeText(t, tab, 0, "#value"); v != "none" {
		t.Fatalf("the page holds %q after refused selects; want none", v)
	}
	r := call(t, map[string]any{"action": "select", "tabId": tab, "selector": "#car", "option": "Volvo"})
	if r["selected"] == nil || r["selected"].([]any)[0] != "volvo" {
		t.Fatalf("an enabled option of an enabled group: %v", r)
	}
	waitText(t, tab, "#value", "volvo")
}
