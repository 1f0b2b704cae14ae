package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// A file: page may frame a file the bridge may not read (here a key under
// .ssh): no page action reads that frame — wait, click and type find
// nothing there and their errors carry none of its text — while the page's
// own frame still works.
func TestRefusedFramesStayOutOfPageActions(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	key := "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAAC0FAKEKEYFORTESTS\n-----END OPENSSH PRIVATE KEY-----\n"
	os.WriteFile(filepath.Join(dir, ".ssh", "id_rsa"), []byte(key), 0o600)
	page := `<!doctype html><title>Framer</title><button>Visible button</button><input placeholder="name">
<iframe src=".ssh/id_rsa" style="width:600px;height:200px"></iframe>`
	os.WriteFile(filepath.Join(dir, "framer.html"), []byte(page), 0o600)

	ws := "frames-" + t.Name()
	t.Cleanup(func() {
		bridge.Call(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws})
	})
	o := call(t, map[string]any{"action": "open", "url": "file://" + filepath.Join(dir, "framer.html"), "browserWorkspaceId": ws})
	tab := num(t, o, "tabId")
	// The page's own frame works.
	call(t, map[string]any{"action": "wait", "tabId": tab, "text": "Visible button", "timeoutMs": 5000})
	for _, in := range []map[string]any{
		{"action": "wait", "text": "PRIVATE KEY", "timeoutMs": 1500},
		{"action": "wait", "selector": "pre", "timeoutMs": 1500},
		{"action": "click", "text": "PRIVATE KEY", "timeoutMs": 3000},
		{"action": "type", "text": "OPENSSH", "value": "x", "timeoutMs": 3000},
	} {
		in["tabId"] = tab
		r := bridge.Call(t, in)
		if r.Err == nil {
			t.Errorf("%v reached the refused frame: %s", in, r.Stdout)
			continue
		}
		if r.Err.Code != protocol.CodeTimeout && r.Err.Code != protocol.CodeElementNotFound {
			t.Errorf("%v: %s, want timeout or element_not_found", in, r.Stdout)
		}
		// The locator's own words come back in the message; the key's
		// body must not.
		if strings.Contains(string(r.Stdout), "FAKEKEYFORTESTS") || strings.Contains(string(r.Stdout), "b3BlbnNz") {
			t.Errorf("%v: the key's text leaked: %s", in, r.Stdout)
		}
	}
	// extract and inspect say the frame was left out, without its text.
	ex := bridge.Call(t, map[string]any{"action": "extract", "tabId": tab})
	if ex.Err != nil || strings.Contains(string(ex.Stdout), "FAKEKEYFORTESTS") || !strings.Contains(string(ex.Stdout), "may not read") {
		t.Errorf("extract: %s", ex.Stdout)
	}
}
