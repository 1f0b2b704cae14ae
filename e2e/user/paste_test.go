package user

import (
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// press refuses the chords that paste: the clipboard holds what the user
// copied, and the agent's page could read it back. Here the clipboard
// holds a secret copied from the page; Control+V, Meta+V and Shift+Insert
// are invalid_argument saying to type the value, and the field stays
// empty. type with inputMode "paste" still puts the bridge's own value in
// as a paste does. Before the fix, Control+V pasted the secret.
func TestPressDoesNotPaste(t *testing.T) {
	ws := workspace(t, "user-paste")
	tab := openPage(t, ws, "/paste")
	ctx := ctxFor(t, 20*time.Second)
	d := devtools(t)
	page := d.PageSession(t, ctx, site+"/paste")
	// The user copies the secret (a copy is the user's to make).
	bridge.MustCall(t, map[string]any{"action": "click", "tabId": tab, "selector": "#secret"})
	bridge.MustCall(t, map[string]any{"action": "press", "tabId": tab, "keys": "Control+A Control+C"})
	for _, keys := range []string{"Control+V", "Meta+v", "Control+Shift+V", "Shift+Insert"} {
		msg := failCode(t, map[string]any{"action": "press", "tabId": tab, "selector": "#into", "keys": keys}, protocol.CodeInvalidArgument)
		if !strings.Contains(msg, "type action") {
			t.Errorf("press %s: %s, want a sentence that says to type the value", keys, msg)
		}
	}
	var into string
	if err := d.Eval(ctx, page, `document.getElementById("into").value`, &into); err != nil {
		t.Fatal(err)
	}
	if into != "" {
		t.Errorf("the field holds %q after the refused pastes", into)
	}
	bridge.MustCall(t, map[string]any{"action": "type", "tabId": tab, "selector": "#into", "value": "typed value", "inputMode": "paste"})
	if err := d.Eval(ctx, page, `document.getElementById("into").value`, &into); err != nil {
		t.Fatal(err)
	}
	if into != "typed value" {
		t.Errorf("type with inputMode paste left %q", into)
	}
}
