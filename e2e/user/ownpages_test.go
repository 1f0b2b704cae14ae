package user

import (
	"context"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// The extension's own pages are the user's controls (the Pause switch,
// the site rules, the answers to the bridge's questions), and they run
// with all of the extension's rights: Chrome keeps the bridge's scripts
// out of them, but not its debugger (checked in Chromium 156: attached
// to ui/workspace.html, Runtime.evaluate sees chrome.tabs). So no page
// action reads or drives one, whatever tab it is in: here the
// extension's page, opened in a tab as the user may.
func TestActionsRefuseTheExtensionsOwnPages(t *testing.T) {
	d := devtools(t)
	ctx := ctxFor(t, 20*time.Second)
	_, target, err := d.Open(ctx, extURL("ui/popup.html"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		d.Call(ctx, "", "Target.closeTarget", map[string]any{"targetId": target}, nil)
	})
	tab := -1
	for deadline := time.Now().Add(10 * time.Second); tab < 0 && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		for _, tm := range browsertest.StatusTabs(bridge.MustCall(t, map[string]any{"action": "status"})) {
			if tm["url"] == extURL("ui/popup.html") {
				tab = int(tm["tabId"].(float64))
			}
		}
	}
	if tab < 0 {
		t.Fatal("the extension's page is not in status")
	}
	for _, in := range []map[string]any{
		{"action": "screenshot", "tabId": tab, "mode": "viewport"},
		{"action": "click", "tabId": tab, "x": 20, "y": 20},
		{"action": "press", "tabId": tab, "keys": "Tab"},
	} {
		r := bridge.Call(t, in)
		if r.Err == nil || r.Err.Code != protocol.CodeProtectedPage {
			t.Errorf("%v: exit %d, %.300s; want protected_page", in, r.Exit, r.Stdout)
		}
	}
}
