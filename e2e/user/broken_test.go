package user

import (
	"testing"
	"time"
)

// When a link of the chain is broken the page names it and says the fix.
// The broken states are made by standing in for the service worker's
// answer (the real ones need a browser without the host, a daemon that
// is gone, another binary): the page's reading of them is what is tested.
func TestExtensionPageNamesTheBrokenLink(t *testing.T) {
	const ext = `extension: {id: "x", version: "0.1.0", protocol: 2}, incognitoAllowed: false, fileAccess: false, handoffs: [], policy: {tabs: 0}`
	const daemon = `daemon: {daemon: {version: "9.9.9", protocol: 99, pid: 1}, paused: false, policy: {allow: [], deny: [], builtInDeny: []}, workspaces: [], actions: []}`
	tests := []struct {
		name, state, pill, says string
	}{
		{"no-host", `{` + ext + `, transports: [{name: "native", connected: false, lastError: "Specified native messaging host not found."}]}`, "Not installed", "browser-bridge install"},
		{"no-daemon", `{` + ext + `, transports: [{name: "native", connected: true}], daemonError: {code: "timeout", message: "no answer"}}`, "Daemon not running", "browser-bridge status"},
		{"skew", `{` + ext + `, transports: [{name: "native", connected: true}], ` + daemon + `}`, "Version skew", "speaks protocol 99"},
	}
	d := devtools(t)
	ctx := ctxFor(t, 60*time.Second)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page, target, err := d.Open(ctx, "about:blank")
			if err != nil {
				t.Fatal(err)
			}
			defer d.Call(ctx, "", "Target.closeTarget", map[string]any{"targetId": target}, nil)
			stand := `if (location.protocol === "chrome-extension:") { const st = ` + tt.state + `; chrome.runtime.sendMessage = async (r) => r.type === "ui.state" ? st : {}; }`
			d.Call(ctx, page, "Page.enable", nil, nil)
			if err := d.Call(ctx, page, "Page.addScriptToEvaluateOnNewDocument", map[string]any{"source": stand}, nil); err != nil {
				t.Fatal(err)
			}
			if err := d.Call(ctx, page, "Page.navigate", map[string]any{"url": extURL("ui/popup.html?view=popup")}, nil); err != nil {
				t.Fatal(err)
			}
			waitPage(t, page, `document.getElementById("status").textContent === `+jsString(tt.pill)+` && document.getElementById("problem").innerText.includes(`+jsString(tt.says)+`)`)
			waitPage(t, page, `[...document.querySelectorAll("section.daemon")].every((s) => s.hidden)`)
			shot(t, page, "extension-page-"+tt.name+".png", 380)
		})
	}
}
