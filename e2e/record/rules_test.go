package record

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// The records obey the site rules: nothing a denied site said or
// fetched, nor a request to a denied URL, reaches the agent through
// console or network, and a command the rules refuse starts no record.

// deniedSite is the test server reached as localhost, which the rules
// tests deny (the other pages are 127.0.0.1's).
func deniedSite() string { return "http://localhost:" + portOf(strings.TrimPrefix(site, "http://")) }

// deny denies rule for the test and waits until the extension has it.
func deny(t *testing.T, rule string) {
	t.Helper()
	if r := bridge.Run(t, "policy", "deny", rule); r.Exit != 0 {
		t.Fatalf("policy deny %s: %s %s", rule, r.Stdout, r.Stderr)
	}
	t.Cleanup(func() { bridge.Run(t, "policy", "remove", rule) })
	// The extension's own page reads what the extension holds.
	dev := bridge.SharedDevTools(t)
	ctx := browsertest.Ctx(t, 20*time.Second)
	page, target, err := dev.Open(ctx, bridge.ExtensionURL("ui/popup.html"))
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Call(ctx, "", "Target.closeTarget", map[string]any{"targetId": target}, nil)
	dev.WaitPage(t, page, `chrome.storage.session.get("policyRules").then((s) => !!s.policyRules && (s.policyRules.deny || []).includes(`+jsonString(rule)+`))`)
}

// touchedUsersTab denies the denied site, opens a user's tab on url and
// has the bridge touch it (recording starts).
func touchedUsersTab(t *testing.T, url string) (dev *browsertest.DevTools, session string, tab int) {
	t.Helper()
	deny(t, strings.TrimPrefix(deniedSite(), "http://"))
	dev = bridge.SharedDevTools(t)
	session, st := usersTab(t, dev, url)
	tab = int(st["tabId"].(float64))
	call(t, map[string]any{"action": "console", "tabId": tab})
	return dev, session, tab
}

// refused calls input and wants it refused with code.
func refused(t *testing.T, input map[string]any, code string) {
	t.Helper()
	r := bridge.Call(t, input)
	if r.Err == nil || r.Err.Code != code {
		t.Fatalf("%v: want %s, got exit %d, stdout %s, stderr %s", input, code, r.Exit, r.Stdout, r.Stderr)
	}
}

// navigate sends the user's tab (its DevTools session) to url, as the
// user would, and waits until ready holds in the new page.
func navigate(t *testing.T, dev *browsertest.DevTools, session, url, ready string) {
	t.Helper()
	if err := dev.Call(browsertest.Ctx(t, 10*time.Second), session, "Page.navigate", map[string]any{"url": url}, nil); err != nil {
		t.Fatal(err)
	}
	dev.WaitPage(t, session, `location.href === `+jsonString(url)+` && (`+ready+`)`)
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// noTrace fails when anything of the denied site or path is in res.
func noTrace(t *testing.T, res map[string]any, what ...string) {
	t.Helper()
	b, _ := json.Marshal(res)
	for _, w := range what {
		if strings.Contains(string(b), w) {
			t.Errorf("%q reached the agent: %s", w, b)
		}
	}
}

// A refused command starts no record (extract on the user's tab showing
// a denied site, close of a tab that is not the bridge's): when the user
// then goes to an allowed page, its load is not recorded, and the first
// read says recording starts then.
func TestARefusedCommandStartsNoRecording(t *testing.T) {
	deny(t, strings.TrimPrefix(deniedSite(), "http://"))
	dev := bridge.SharedDevTools(t)
	for _, c := range []struct {
		name, url, action, code string
	}{
		{"extract on a denied site", deniedSite() + "/bank", "extract", protocol.CodeBlockedByPolicy},
		{"close of the user's tab", site + "/api-page?user=close", "close", protocol.CodeNotOwned},
	} {
		t.Run(c.name, func(t *testing.T) {
			session, st := usersTab(t, dev, c.url)
			tab := int(st["tabId"].(float64))
			refused(t, map[string]any{"action": c.action, "tabId": tab}, c.code)
			time.Sleep(300 * time.Millisecond) // a record the refusal started would be running by now
			navigate(t, dev, session, site+"/console?user="+c.action, `document.readyState === "complete"`)
			time.Sleep(500 * time.Millisecond) // the page's half sends its batch 150 ms after a message
			res := call(t, map[string]any{"action": "console", "tabId": tab})
			if msgs := list(res, "messages"); len(msgs) != 0 {
				t.Errorf("the tab was recorded since the refused command: %v", msgs)
			}
			if note, _ := res["note"].(string); !strings.Contains(note, "starts now") {
				t.Errorf("console does not say recording starts now: %v", res)
			}
		})
	}
	// While the tab shows the denied site, its records are refused too.
	_, st := usersTab(t, dev, deniedSite()+"/bank")
	refused(t, map[string]any{"action": "network", "tabId": st["tabId"]}, protocol.CodeBlockedByPolicy)
}

// A user's tab the bridge touched, then taken by the user to a denied
// site: console and network refuse while it shows the site, and once it
// is back on an allowed page nothing of the denied one is there, only
// counted.
func TestAUsersTabOnADeniedSiteLeavesNoTrace(t *testing.T) {
	dev, session, tab := touchedUsersTab(t, site+"/console?user=wanders")
	navigate(t, dev, session, deniedSite()+"/bank", `document.title === "bank done"`)
	time.Sleep(500 * time.Millisecond)
	refused(t, map[string]any{"action": "console", "tabId": tab}, protocol.CodeBlockedByPolicy)
	refused(t, map[string]any{"action": "network", "tabId": tab}, protocol.CodeBlockedByPolicy)
	navigate(t, dev, session, site+"/console?user=back", `document.readyState === "complete"`)
	res := waitFor(t, map[string]any{"action": "network", "tabId": tab}, func(r map[string]any) bool {
		for _, q := range list(r, "requests") {
			if strings.Contains(q["url"].(string), "user=back") {
				return true
			}
		}
		return false
	})
	noTrace(t, res, "localhost", "bank")
	if n, _ := res["leftOut"].(float64); n < 2 {
		t.Errorf("network does not count the denied site's requests as left out: %v", res)
	}
	for _, q := range list(res, "requests") {
		d := call(t, map[string]any{"action": "network", "tabId": tab, "requestId": q["requestId"]})
		noTrace(t, d, bankSecret)
	}
	res = waitFor(t, map[string]any{"action": "console", "tabId": tab}, func(r map[string]any) bool {
		return has(list(r, "messages"), "log", "console", "log while loading")
	})
	noTrace(t, res, bankSecret, "localhost")
}

// A denied frame inside an allowed page (a user's tab, where the rules
// do not block the frame's load) leaves nothing in the record: its
// document and what it fetched are left out, and counted.
func TestADeniedFrameLeavesNoTrace(t *testing.T) {
	dev, session, tab := touchedUsersTab(t, site+"/console?user=framed")
	navigate(t, dev, session, site+"/framed", `document.readyState === "complete"`)
	res := waitFor(t, map[string]any{"action": "network", "tabId": tab}, func(r map[string]any) bool {
		n, _ := r["leftOut"].(float64)
		return n >= 2 // the frame's document and its fetch
	})
	noTrace(t, res, "localhost", "bank")
	time.Sleep(300 * time.Millisecond)
	noTrace(t, call(t, map[string]any{"action": "console", "tabId": tab}), bankSecret, "localhost")
}

// The agent's own tab, on an allowed page that fetches a denied path of
// its own site: the request is not in network, only counted.
func TestTheAgentsTabFetchingADeniedPathLeavesNoTrace(t *testing.T) {
	deny(t, strings.TrimPrefix(site, "http://")+"/admin/*")
	tab := bridge.OpenIn(t, workspace(t), site+"/admin-reader")
	// The site rules block the fetch in the agent's tab ("refused"); were
	// it let through ("read"), the record must still leave it out.
	var read bool
	waitFor(t, map[string]any{"action": "extract", "tabId": tab}, func(r map[string]any) bool {
		b, _ := json.Marshal(r)
		read = strings.Contains(string(b), "read ")
		return read || strings.Contains(string(b), "refused")
	})
	res := waitFor(t, map[string]any{"action": "network", "tabId": tab}, func(r map[string]any) bool {
		n, _ := r["leftOut"].(float64)
		return !read || n >= 1
	})
	noTrace(t, res, "/admin/")
	for _, q := range list(res, "requests") {
		noTrace(t, call(t, map[string]any{"action": "network", "tabId": tab, "requestId": q["requestId"]}), adminSecret)
	}
}

// network's urlContains matches the URLs as the agent sees them, with
// their secrets redacted: matching the raw ones would tell whether a
// redacted token begins with a guess.
func TestURLContainsCannotProbeARedactedSecret(t *testing.T) {
	tab := bridge.OpenIn(t, workspace(t), site+"/secrets")
	waitFor(t, map[string]any{"action": "network", "tabId": tab, "urlContains": "/api/me"}, func(r map[string]any) bool {
		return len(list(r, "requests")) == 1
	})
	for _, guess := range []string{bearer[:1], bearer[:6], bearer} {
		res := call(t, map[string]any{"action": "network", "tabId": tab, "urlContains": "api_key=" + guess})
		if q := list(res, "requests"); len(q) != 0 {
			t.Errorf("urlContains api_key=%s matched a redacted URL: %v", guess, q)
		}
	}
	if q := list(call(t, map[string]any{"action": "network", "tabId": tab, "urlContains": "/api/login"}), "requests"); len(q) != 1 {
		t.Errorf("urlContains /api/login lists %d requests, want 1", len(q))
	}
}
