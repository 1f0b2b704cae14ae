package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// The user's site rules hold for every way an agent reaches a page: a URL
// it opens, and a page it reached by a click on a link (the next action
// there is refused, naming the rule). Pause stops every action but
// status, and resume lets it go on.
//
// The two hosts are 127.0.0.1 (allowed) and localhost (denied) on two
// httptest servers.
func TestSiteRulesAndPause(t *testing.T) {
	denied := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "<!doctype html><title>Denied site</title><p>secret stuff</p>")
	}))
	t.Cleanup(denied.Close)
	deniedURL := strings.Replace(denied.URL, "127.0.0.1", "localhost", 1) + "/inside"
	allowed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<!doctype html><title>Allowed</title><a id="go" href="%s">to the other site</a>`, deniedURL)
	}))
	t.Cleanup(allowed.Close)

	ws := "policy-" + t.Name()
	t.Cleanup(func() {
		bridge.Run(t, "policy", "remove", "localhost")
		bridge.Run(t, "resume")
		bridge.Call(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws})
	})
	if r := bridge.Run(t, "policy", "deny", "localhost"); r.Err != nil {
		t.Fatalf("policy deny: %s", r.Stdout)
	}
	// Open of a denied URL: refused before anything reaches the browser.
	r := bridge.Call(t, map[string]any{"action": "open", "url": deniedURL, "browserWorkspaceId": ws})
	if r.Err == nil || r.Err.Code != protocol.CodeBlockedByPolicy || !strings.Contains(r.Err.Message, `"localhost"`) {
		t.Fatalf("open of a denied site: %s", r.Stdout)
	}
	// A click on a link into it: the page it leads to is not read or
	// driven.
	o := call(t, map[string]any{"action": "open", "url": allowed.URL + "/", "browserWorkspaceId": ws})
	tab := num(t, o, "tabId")
	call(t, map[string]any{"action": "click", "tabId": tab, "selector": "#go"})
	r = bridge.Call(t, map[string]any{"action": "extract", "tabId": tab, "timeoutMs": 5000})
	if r.Err == nil || r.Err.Code != protocol.CodeBlockedByPolicy {
		t.Errorf("extract of the denied page a click led to: %s", r.Stdout)
	}
	if strings.Contains(string(r.Stdout), "secret stuff") {
		t.Errorf("the denied page was read: %s", r.Stdout)
	}

	// Pause: every action but status fails; resume restores them.
	bridge.Run(t, "policy", "remove", "localhost")
	if r := bridge.Run(t, "pause"); r.Err != nil {
		t.Fatalf("pause: %s", r.Stdout)
	}
	r = bridge.Call(t, map[string]any{"action": "extract", "tabId": tab})
	if r.Err == nil || r.Err.Code != protocol.CodePausedByUser {
		t.Errorf("extract while paused: %s", r.Stdout)
	}
	if s := bridge.Call(t, map[string]any{"action": "status"}); s.Err != nil {
		t.Errorf("status while paused: %s", s.Stdout)
	}
	bridge.Run(t, "resume")
	if res := call(t, map[string]any{"action": "extract", "tabId": tab}); !strings.Contains(fmt.Sprint(res["markdown"]), "secret stuff") {
		t.Errorf("after resume and with the rule removed the page reads: %v", res["markdown"])
	}
	// The audit trail has the refused calls with their codes.
	log := bridge.Run(t, "log", "--json", "-n", "0")
	for _, want := range []string{`"code":"blocked_by_policy"`, `"code":"paused_by_user"`, `"action":"click"`} {
		if !strings.Contains(string(log.Stdout), want) {
			t.Errorf("the audit trail lacks %s", want)
		}
	}
}
