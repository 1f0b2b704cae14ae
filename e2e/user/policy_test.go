package user

import (
	"encoding/json"
	neturl "net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// denySite denies the denied server for the test (browser-bridge policy
// deny) and waits until the extension has the rule, which the daemon
// gives it within a second or so.
func denySite(t *testing.T) { t.Helper(); denyRule(t, deniedRule) }

// denyRule denies rule for the test and waits until the extension has it.
func denyRule(t *testing.T, rule string) {
	t.Helper()
	if r := bridge.Run(t, "policy", "deny", rule); r.Exit != 0 {
		t.Fatalf("policy deny: %s %s", r.Stdout, r.Stderr)
	}
	t.Cleanup(func() { bridge.Run(t, "policy", "remove", rule) })
	page, done := extensionPage(t)
	defer done()
	waitPage(t, page, `chrome.storage.session.get("policyRules").then((s) => !!s.policyRules && s.policyRules.deny.includes(`+jsString(rule)+`))`)
}

// extensionPage opens the extension's page in a tab of its own, for a
// look at the extension's state; done closes it.
func extensionPage(t *testing.T) (page string, done func()) {
	t.Helper()
	d := devtools(t)
	ctx := ctxFor(t, 30*time.Second)
	page, target, err := d.Open(ctx, extURL("ui/popup.html"))
	if err != nil {
		t.Fatal(err)
	}
	return page, func() { d.Call(ctx, "", "Target.closeTarget", map[string]any{"targetId": target}, nil) }
}

// blockedTab waits for tab to show the extension's blocked page with the
// extension's record of what it stopped, and returns that record.
func blockedTab(t *testing.T, tab int) protocol.Stop {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		st := bridge.MustCall(t, map[string]any{"action": "status"})
		b, _ := json.Marshal(st)
		var s protocol.BrowserState
		json.Unmarshal(b, &s)
		for _, w := range s.Windows {
			for _, tb := range w.Tabs {
				if tb.TabID == tab && strings.HasPrefix(tb.URL, extURL("ui/blocked.html")) && tb.Stopped != nil {
					return *tb.Stopped
				}
			}
		}
		if time.Now().After(deadline) {
			var stops any
			bridge.InServiceWorker(ctxFor(t, 5*time.Second), `chrome.storage.session.get("policyStops")`, &stops)
			t.Fatalf("tab %d does not show the blocked page with its stop (the extension's record: %v): %s", tab, stops, b)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// A denied site is refused for open (the daemon), for a click on a link
// to it and for a redirect into it (the extension stops the navigation
// before it reaches the site); the tab then shows the blocked page, and
// the next action on it fails with blocked_by_policy naming the rule.
func TestSiteRulesBlock(t *testing.T) {
	denySite(t)
	ws := workspace(t, "user-rules")
	before := deniedHits.Load()

	msg := failCode(t, map[string]any{"action": "open", "url": denied + "/direct", "browserWorkspaceId": ws}, protocol.CodeBlockedByPolicy)
	if !strings.Contains(msg, deniedRule) {
		t.Errorf("open: %s", msg)
	}

	// A click on a link to it.
	tab := openPage(t, ws, "/page")
	res := bridge.MustCall(t, map[string]any{"action": "click", "tabId": tab, "selector": "#to-denied"})
	if !strings.HasPrefix(str(res, "url"), extURL("ui/blocked.html")) {
		t.Logf("the click's result is from before the redirect: %s", str(res, "url"))
	}
	if stop := blockedTab(t, tab); stop.Rule != deniedRule || stop.URL != denied+"/secret" {
		t.Errorf("the stop %+v does not name the rule and the URL", stop)
	}
	// (A screenshot: extract would retry the refusal for its whole
	// readiness window until the engine takes blocked_by_policy for final.)
	msg = failCode(t, map[string]any{"action": "screenshot", "tabId": tab}, protocol.CodeBlockedByPolicy)
	if !strings.Contains(msg, deniedRule) {
		t.Errorf("screenshot of the blocked page: %s", msg)
	}

	// A redirect into it, from a page loaded in that tab and from a link.
	bridge.MustCall(t, map[string]any{"action": "open", "tabId": tab, "url": site + "/redirect?to=" + denied + "/after-redirect"})
	blockedTab(t, tab)
	bridge.MustCall(t, map[string]any{"action": "open", "tabId": tab, "url": site + "/page"})
	bridge.MustCall(t, map[string]any{"action": "click", "tabId": tab, "selector": "#to-redirect"})
	if stop := blockedTab(t, tab); stop.URL != denied+"/after-redirect" {
		t.Errorf("the stop after the redirect: %+v", stop)
	}
	if n := deniedHits.Load() - before; n != 0 {
		t.Errorf("the denied site got %d requests", n)
	}

	// A new tab whose first load redirects there (the tab is under the
	// rules before its page loads).
	res = bridge.MustCall(t, map[string]any{"action": "open", "url": site + "/redirect?to=" + denied + "/new-tab", "browserWorkspaceId": ws})
	blockedTab(t, num(t, res, "tabId"))
	if n := deniedHits.Load() - before; n != 0 {
		t.Errorf("the denied site got %d requests", n)
	}

	// The blocked page says what happened.
	// (The visible one: a tab in the background draws no frame to capture.)
	page := visibleTarget(t, extURL("ui/blocked.html"))
	waitPage(t, page, `document.body.innerText.includes(`+jsString(deniedRule)+`) && document.body.innerText.includes(`+jsString(denied+"/new-tab")+`)`)
	shot(t, page, "blocked-page.png", 0)

	// Once the user lifts the rule, the next action on the stopped tab
	// finds the page it was stopped from.
	bridge.Run(t, "policy", "remove", deniedRule)
	res = bridge.MustCall(t, map[string]any{"action": "extract", "tabId": tab, "include": []string{"text"}})
	if !strings.Contains(str(res, "text"), "DENIED-SITE-CONTENT") {
		t.Errorf("after the rule is lifted: %v", res)
	}
}

// visibleTarget attaches to the visible page whose URL starts with prefix.
func visibleTarget(t *testing.T, prefix string) string {
	t.Helper()
	d := devtools(t)
	ctx := ctxFor(t, 20*time.Second)
	for ctx.Err() == nil {
		ts, err := d.Targets(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, tg := range ts {
			if tg.Type != "page" || !strings.HasPrefix(tg.URL, prefix) {
				continue
			}
			s, err := d.Attach(ctx, tg.TargetID)
			if err != nil {
				continue
			}
			var visible bool
			if d.Eval(ctx, s, `document.visibilityState === "visible"`, &visible) == nil && visible {
				return s
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("no visible page at %s", prefix)
	return ""
}

// A site rule holds whatever the spelling of the URL. The daemon refuses to open the denied server as "localhost." or
// [::ffff:127.0.0.1] or by a path spelled another way, and a redirect
// from an allowed page into any of those spellings is stopped by the
// extension before a request reaches the server. A URL the rules allow on
// the same server gets through, so the server was there to be reached.
func TestSiteRulesSpellings(t *testing.T) {
	_, port, _ := strings.Cut(strings.TrimPrefix(denied, "http://"), ":")
	ws := workspace(t, "user-spellings")
	tab := openPage(t, ws, "/page")
	before := deniedHits.Load()
	stopped := func(spellings ...string) {
		t.Helper()
		for _, u := range spellings {
			msg := failCode(t, map[string]any{"action": "open", "url": u, "browserWorkspaceId": ws}, protocol.CodeBlockedByPolicy)
			if !strings.Contains(msg, "site rule") {
				t.Errorf("open %s: %s", u, msg)
			}
			bridge.MustCall(t, map[string]any{"action": "open", "tabId": tab, "url": site + "/redirect?to=" + neturl.QueryEscape(u)})
			blockedTab(t, tab)
			bridge.MustCall(t, map[string]any{"action": "open", "tabId": tab, "url": site + "/page"})
		}
		if n := deniedHits.Load() - before; n != 0 {
			t.Errorf("the denied server got %d requests", n)
		}
	}

	// F2: hosts.
	denySite(t) // localhost:PORT
	denyRule(t, "127.0.0.1:"+port)
	stopped(
		"http://localhost.:"+port+"/dot",
		"http://LocalHost..:"+port+"/dots",
		"http://[::ffff:127.0.0.1]:"+port+"/mapped",
		"http://2130706433:"+port+"/decimal",
		"http://0x7f.1:"+port+"/hex",
		"http://0:"+port+"/unspecified",
		"http://0x0:"+port+"/unspecified-hex",
		"http://[::ffff:0.0.0.0]:"+port+"/unspecified-mapped",
	)
	bridge.Run(t, "policy", "remove", deniedRule)
	bridge.Run(t, "policy", "remove", "127.0.0.1:"+port)

	// F3: paths and full URLs.
	denyRule(t, "127.0.0.1:"+port+"/admin/*")
	denyRule(t, "http://127.0.0.1:"+port+"/private/*")
	stopped(
		"http://127.0.0.1:"+port+"/%61dmin/x.html",
		"http://127.0.0.1:"+port+"//admin/x.html",
		"http://127.0.0.1:"+port+"/admin%2fx.html",
		"http://x@127.0.0.1:"+port+"/private/x.html",
		"http://x@127.0.0.1:"+port+"/%70rivate//x.html",
	)
	bridge.MustCall(t, map[string]any{"action": "open", "tabId": tab, "url": "http://127.0.0.1:" + port + "/public"})
	if deniedHits.Load() == before {
		t.Errorf("an allowed page of the denied server was not reached")
	}
}

// The extension's twin of the site rules gives internal/policy's answers
// in Chromium too (extension/policy_test.go checks it under node).
func TestSiteRulesTwinInChromium(t *testing.T) {
	cases, err := os.ReadFile("../../internal/policy/testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	d := devtools(t)
	ctx := ctxFor(t, 30*time.Second)
	page, target, err := d.Open(ctx, extURL("ui/popup.html"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Call(ctx, "", "Target.closeTarget", map[string]any{"targetId": target}, nil) })
	waitPage(t, page, `!!document.getElementById("status")`)
	var fails []string
	err = d.Eval(ctx, page, `import(chrome.runtime.getURL("handlers/siterules.js")).then(async (m) => {
		const cases = `+string(cases)+`;
		const builtIn = ["chrome://*", "chrome-untrusted://*", "edge://*", "brave://*", "opera://*", "vivaldi://*", "chrome-extension://*", "devtools://*", "view-source:*", "chromewebstore.google.com", "chrome.google.com/webstore*", "microsoftedge.microsoft.com/addons*", "addons.opera.com"];
		const out = [];
		const supported = {};
		for (const c of cases.match) {
			let got;
			try { got = m.match(c.pattern, c.url); } catch (e) { got = "threw " + e.message; }
			if (got !== c.want) out.push("match(" + JSON.stringify(c.pattern) + ", " + c.url + ") = " + got);
			// The regexFilters: declarativeNetRequest takes them (RE2, within
			// its memory limit), and they match the request URL Chrome writes.
			if (!/^https?:\/\//.test(c.url) || c.url.includes("#")) continue;
			const res = m.toRegexes(c.pattern), allowRes = m.toRegexes(c.pattern, "allow");
			for (const re of [...res, ...allowRes]) {
				if (!(re in supported)) supported[re] = await chrome.declarativeNetRequest.isRegexSupported({ regex: re, isCaseSensitive: true });
				if (!supported[re].isSupported) out.push("regexFilter " + re + " is refused: " + supported[re].reason);
			}
			if (res.length === 0) continue;
			const hit = res.some((re) => new RegExp(re).test(new URL(c.url).href));
			if (hit !== c.want && !(c.dnr === false && !hit)) out.push("regexFilters " + JSON.stringify(res) + " on " + c.url + ": want " + c.want);
		}
		for (const n of [8, 16, 24, 32, 48, 64, 96]) {
			for (const p of ["example.com/" + "a/".repeat(n / 2) + "*", "127.0.0.1:8080/" + "ab".repeat(n / 2) + "?q=*", "https://" + "x".repeat(n) + ".example/pay/*"]) {
				for (const re of [...m.toRegexes(p), ...m.toRegexes(p, "allow")]) {
					const r = await chrome.declarativeNetRequest.isRegexSupported({ regex: re, isCaseSensitive: true });
					if (!r.isSupported) out.push("regexFilter of " + p + " (cost " + m.cost(re) + ") is refused: " + r.reason);
				}
			}
		}
		for (const c of cases.check) {
			const d = m.check({allow: c.allow || [], deny: c.deny || [], builtInDeny: builtIn}, c.url);
			if (d.allowed !== c.allowed || d.rule !== c.rule) out.push("check " + JSON.stringify(c) + " = " + JSON.stringify(d));
		}
		return out;
	})`, &fails)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fails {
		t.Error(f)
	}
}

// A page in a bridge tab reaches no denied site through a subresource:
// a stylesheet, an image, a script, a fetch, a socket or a beacon it adds
// is blocked before it leaves (it would go with the user's cookies). The
// same page in a tab of the user's own loads them: the rules hold the
// agent, not the user's own browsing.
func TestSiteRulesBlockSubresources(t *testing.T) {
	denySite(t)
	ws := workspace(t, "user-subresources")
	before := deniedHits.Load()
	tab := openPage(t, ws, "/subresources")
	settled(t, tab)
	if n := deniedHits.Load() - before; n != 0 {
		t.Errorf("the denied site got %d requests from a bridge tab's subresources", n)
	}

	before = deniedHits.Load()
	settled(t, usersTab(t, site+"/subresources"))
	if deniedHits.Load() == before {
		t.Errorf("the user's own tab's subresources did not reach the denied site: the rules reach past the bridge's tabs")
	}
}

// settled waits until the subresources page in tab has seen each of its
// requests end.
func settled(t *testing.T, tab int) {
	t.Helper()
	var text string
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		res := bridge.MustCall(t, map[string]any{"action": "extract", "tabId": tab, "include": []string{"text"}})
		if text = str(res, "text"); strings.Contains(text, "SETTLED") {
			return
		}
	}
	t.Fatalf("the page's requests did not end: %q", text)
}
