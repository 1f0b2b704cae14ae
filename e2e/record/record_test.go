package record

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// waitFor calls input until ok accepts the result, for up to 10 s: the
// recorder sends its records in batches.
func waitFor(t *testing.T, input map[string]any, ok func(map[string]any) bool) map[string]any {
	t.Helper()
	return waitWithin(t, 10*time.Second, input, ok)
}

// waitWithin is waitFor for up to d.
func waitWithin(t *testing.T, d time.Duration, input map[string]any, ok func(map[string]any) bool) map[string]any {
	t.Helper()
	var res map[string]any
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(150 * time.Millisecond) {
		res = call(t, input)
		if ok(res) {
			return res
		}
	}
	b, _ := json.Marshal(res)
	t.Fatalf("%v: never as wanted; last %s", input, b)
	return nil
}

func has(msgs []map[string]any, level, source, text string) bool {
	for _, m := range msgs {
		if m["level"] == level && m["source"] == source && strings.Contains(m["text"].(string), text) {
			return true
		}
	}
	return false
}

func TestConsoleLevelsExceptionsAndRejections(t *testing.T) {
	ws := workspace(t)
	tab := bridge.OpenIn(t, ws, site+"/console")
	want := []struct{ level, text string }{
		{"debug", "debug while loading"}, {"log", `log while loading {"n":1}`}, {"info", "info while loading"},
		{"warning", "warning while loading"}, {"error", "error while loading"},
	}
	res := waitFor(t, map[string]any{"action": "console", "tabId": tab}, func(r map[string]any) bool { return len(list(r, "messages")) >= 5 })
	msgs := list(res, "messages")
	for _, w := range want {
		if !has(msgs, w.level, "console", w.text) {
			t.Errorf("no %s message %q among %v", w.level, w.text, msgs)
		}
	}
	if res["note"] != nil {
		t.Errorf("a tab the bridge opened is recorded from its load, but the result notes %v", res["note"])
	}
	since := int(res["nextSince"].(float64))

	call(t, map[string]any{"action": "click", "tabId": tab, "selector": "#boom"})
	// The page's fetch that nobody awaits fails: an unhandled rejection,
	// as without the bridge (its wrapper must not handle the page's
	// promise).
	res = waitFor(t, map[string]any{"action": "console", "tabId": tab, "since": since}, func(r map[string]any) bool {
		return has(list(r, "messages"), "error", "rejection", "Failed to fetch")
	})
	msgs = list(res, "messages")
	if !has(msgs, "error", "exception", "thrown after click") || !has(msgs, "error", "rejection", "rejected after click") || !has(msgs, "error", "rejection", "Failed to fetch") {
		t.Fatalf("the exception, the rejection and the failed fetch after the click are not all there: %v", msgs)
	}
	for _, m := range msgs {
		if m["source"] == "exception" && len(list(m, "stack")) == 0 {
			t.Errorf("the exception has no stack frames: %v", m)
		}
		if strings.Contains(m["text"].(string), "while loading") {
			t.Errorf("since %d returned an older message: %v", since, m)
		}
	}

	res = call(t, map[string]any{"action": "console", "tabId": tab, "level": "error"})
	for _, m := range list(res, "messages") {
		if m["level"] != "error" {
			t.Errorf("level error kept a %s message: %v", m["level"], m)
		}
	}
	if n := len(list(res, "messages")); n != 5 {
		t.Errorf("level error kept %d messages, want 5 (the load's error, the exception, the rejection, the failed fetch and its network line): %v", n, list(res, "messages"))
	}
	res = call(t, map[string]any{"action": "console", "tabId": tab, "level": "warning"})
	if !has(list(res, "messages"), "warning", "console", "warning while loading") || has(list(res, "messages"), "info", "console", "info") {
		t.Errorf("level warning should keep warnings and errors only: %v", list(res, "messages"))
	}
	bridge.MustFail(t, map[string]any{"action": "console", "tabId": tab, "level": "loud"}, "invalid_argument")
}

func TestNetworkListsCallsAndShowsAFailedOnesBody(t *testing.T) {
	ws := workspace(t)
	tab := bridge.OpenIn(t, ws, site+"/api-page")
	// Both calls answered, and the page's own record of them came in:
	// webRequest alone calls a fetch "xhr" (Chrome's xmlhttprequest) until
	// the main-world script's record, which knows it was a fetch, arrives.
	res := waitFor(t, map[string]any{"action": "network", "tabId": tab, "urlContains": "/api/"}, func(r map[string]any) bool {
		n := 0
		for _, q := range list(r, "requests") {
			if q["status"] != nil && q["type"] == "fetch" && (strings.HasSuffix(q["url"].(string), "/api/fail") || strings.HasSuffix(q["url"].(string), "/api/ok")) {
				n++
			}
		}
		return n == 2
	})
	var fail, ok map[string]any
	for _, q := range list(res, "requests") {
		switch {
		case strings.HasSuffix(q["url"].(string), "/api/fail"):
			fail = q
		case strings.HasSuffix(q["url"].(string), "/api/ok"):
			ok = q
		}
		if !strings.Contains(q["url"].(string), "/api/") {
			t.Errorf("urlContains /api/ let %v through", q["url"])
		}
	}
	if ok == nil || ok["method"] != "GET" || ok["status"] != 200.0 || ok["type"] != "fetch" {
		t.Errorf("the /api/ok call is not GET 200 fetch: %v", ok)
	}
	if fail == nil || fail["method"] != "POST" || fail["status"] != 500.0 || fail["type"] != "fetch" {
		t.Fatalf("the /api/fail call is not POST 500 fetch: %v", fail)
	}
	detail := waitFor(t, map[string]any{"action": "network", "tabId": tab, "requestId": fail["requestId"]}, func(r map[string]any) bool {
		req, _ := r["request"].(map[string]any)
		body, _ := req["responseBody"].(map[string]any)
		return body != nil && body["json"] != nil
	})
	// The detail is quiet: its status has its text, a JSON body is JSON
	// (not a string of it), and the browser's standard headers are left
	// out unless allHeaders.
	req := detail["request"].(map[string]any)
	if body, _ := req["responseBody"].(map[string]any)["json"].(map[string]any); body["error"] != "database on fire" {
		t.Errorf("the failed call's body is not its JSON: %v", req["responseBody"])
	}
	if body, _ := req["requestBody"].(map[string]any); body == nil || fmt.Sprint(body["json"]) != "map[q:1]" {
		t.Errorf("the failed call's request body is %v", req["requestBody"])
	}
	if req["statusText"] != "Internal Server Error" {
		t.Errorf("the failed call's status text is %v", req["statusText"])
	}
	if len(list(req, "responseHeaders")) == 0 {
		t.Errorf("no response headers: %v", req)
	}
	standard := func(req map[string]any) (n int) {
		for _, h := range list(req, "requestHeaders") {
			if name := strings.ToLower(h["name"].(string)); name == "user-agent" || strings.HasPrefix(name, "sec-fetch-") || name == "accept-language" {
				n++
			}
		}
		return n
	}
	if n := standard(req); n != 0 {
		t.Errorf("%d of the browser's standard headers are in the detail: %v", n, list(req, "requestHeaders"))
	}
	if n := standard(call(t, map[string]any{"action": "network", "tabId": tab, "requestId": fail["requestId"], "allHeaders": true})["request"].(map[string]any)); n < 3 {
		t.Errorf("allHeaders gives %d of the browser's standard headers, want user-agent, accept-language and sec-fetch-*", n)
	}
	// The page's load is in the list too, with its body.
	all := call(t, map[string]any{"action": "network", "tabId": tab})
	var doc map[string]any
	for _, q := range list(all, "requests") {
		if q["type"] == "document" {
			doc = q
		}
	}
	if doc == nil {
		t.Fatalf("the page's own document is not listed: %v", list(all, "requests"))
	}
	d := call(t, map[string]any{"action": "network", "tabId": tab, "requestId": doc["requestId"]})
	if text, _ := d["request"].(map[string]any)["responseBody"].(map[string]any)["text"].(string); !strings.Contains(text, "<title>api</title>") {
		t.Errorf("the document's body is not the page's HTML: %v", d["request"])
	}
	if b := d["request"].(map[string]any)["responseBody"].(map[string]any); b["refetched"] != nil || b["note"] != nil {
		t.Errorf("a document the browser kept is said to be fetched again: %v", b)
	}
	msg := bridge.MustFail(t, map[string]any{"action": "network", "tabId": tab, "requestId": "999999999"}, "invalid_argument")
	if !strings.Contains(msg, "999999999") {
		t.Errorf("an unknown requestId's error does not name it: %s", msg)
	}
	// The failed call is a console line too, as DevTools shows it.
	con := call(t, map[string]any{"action": "console", "tabId": tab, "level": "error"})
	if !has(list(con, "messages"), "error", "network", "status of 500") {
		t.Errorf("no network error line for the 500: %v", list(con, "messages"))
	}
}

// bodyText is the text of a request's body (key: requestBody or
// responseBody), or what the detail says instead of it.
func bodyText(req map[string]any, key string) string {
	b, _ := req[key].(map[string]any)
	if text, ok := b["text"].(string); ok {
		return text
	}
	if j, ok := b["json"]; ok {
		text, _ := json.Marshal(j)
		return string(text)
	}
	return fmt.Sprintf("(no text: %v)", req[key])
}

// TestFirstMomentsRequestBodies opens pages that post from their first
// inline script, before the extension can know the new tab is the
// bridge's (its per-tab listener of request bodies comes then): each
// body is still in the request's detail, taken from the page's own
// world.
func TestFirstMomentsRequestBodies(t *testing.T) {
	ws := workspace(t)
	for i := range 8 {
		tab := bridge.OpenIn(t, ws, fmt.Sprintf("%s/first?i=%d", site, i))
		res := waitFor(t, map[string]any{"action": "network", "tabId": tab}, func(r map[string]any) bool {
			n := 0
			for _, q := range list(r, "requests") {
				if strings.Contains(q["url"].(string), "/api/echo") && q["status"] != nil && q["status"].(float64) == 200 {
					n++
				}
			}
			return n == 2
		})
		for _, q := range list(res, "requests") {
			url := q["url"].(string)
			if !strings.Contains(url, "/api/echo") {
				continue
			}
			d := waitFor(t, map[string]any{"action": "network", "tabId": tab, "requestId": q["requestId"]}, func(r map[string]any) bool {
				req, _ := r["request"].(map[string]any)
				b, _ := req["requestBody"].(map[string]any)
				return b != nil && (b["text"] != nil || b["json"] != nil)
			})
			if b := bodyText(d["request"].(map[string]any), "requestBody"); !strings.Contains(b, "first moments") {
				t.Errorf("open %d, %s: request body %s", i, url, b)
			}
		}
		bridge.MustCall(t, map[string]any{"action": "close", "tabId": tab})
	}
}

func TestNoSecretReachesTheAgentOrTheStateFolder(t *testing.T) {
	ws := workspace(t)
	tab := bridge.OpenIn(t, ws, site+"/secrets")
	var outputs []string
	keep := func(m map[string]any) map[string]any {
		b, _ := json.Marshal(m)
		outputs = append(outputs, string(b))
		return m
	}
	res := keep(waitFor(t, map[string]any{"action": "network", "tabId": tab}, func(r map[string]any) bool {
		n := 0
		for _, q := range list(r, "requests") {
			if strings.Contains(q["url"].(string), "/api/") && q["status"] != nil {
				n++
			}
		}
		return n >= 3
	}))
	var login map[string]any
	for _, q := range list(res, "requests") {
		keep(call(t, map[string]any{"action": "network", "tabId": tab, "requestId": q["requestId"], "maxChars": 100000}))
		if strings.Contains(q["url"].(string), "/api/login") {
			login = q
		}
	}
	d := waitFor(t, map[string]any{"action": "network", "tabId": tab, "requestId": login["requestId"]}, func(r map[string]any) bool {
		body, _ := r["request"].(map[string]any)["responseBody"].(map[string]any)
		return body != nil && (body["text"] != nil || body["json"] != nil)
	})
	keep(d)
	req := d["request"].(map[string]any)
	redacted := func(headers []map[string]any, name string) {
		t.Helper()
		for _, h := range headers {
			if strings.EqualFold(h["name"].(string), name) {
				if v, _ := h["value"].(string); !strings.Contains(v, "[redacted, ") {
					t.Errorf("header %s is %q", name, h["value"])
				}
				return
			}
		}
		t.Errorf("header %s is not listed (it should be, redacted): %v", name, headers)
	}
	redacted(list(req, "requestHeaders"), "Authorization")
	redacted(list(req, "responseHeaders"), "Set-Cookie")
	if b := bodyText(req, "requestBody"); !strings.Contains(b, `"password":"[redacted, `) || !strings.Contains(b, `"user":"ann"`) {
		t.Errorf("request body: %s", b)
	}
	if b := bodyText(req, "responseBody"); !strings.Contains(b, `"access_token":"[redacted, `) || !strings.Contains(b, `"expires_in":3600`) {
		t.Errorf("response body: %s", b)
	}
	keep(call(t, map[string]any{"action": "console", "tabId": tab}))
	keep(call(t, map[string]any{"action": "extract", "tabId": tab}))
	log := bridge.Run(t, "log", "--json")
	outputs = append(outputs, string(log.Stdout), string(log.Stderr))

	// The tab's own URL is the agent's to see (extract names it); what
	// its requests carried in Referer is not.
	for _, out := range outputs {
		if strings.Contains(strings.ToLower(out), `"referer"`) && strings.Contains(out, refToken) {
			t.Errorf("a Referer carried %q to the agent: %.300s", refToken, out[max(0, strings.Index(out, refToken)-150):])
		}
	}
	for _, secret := range []string{bearer, password, accessToken, cookieValue, phrase, jwt[30:]} {
		for _, out := range outputs {
			if strings.Contains(out, secret) {
				t.Errorf("secret %q reached the agent: %.300s", secret, out[max(0, strings.Index(out, secret)-150):])
			}
		}
		filepath.WalkDir(bridge.Home, func(path string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || (bridge.Launch.Profile != "" && strings.HasPrefix(path, bridge.Launch.Profile)) {
				return nil
			}
			b, err := os.ReadFile(path)
			if err == nil && strings.Contains(string(b), secret) {
				t.Errorf("secret %q is in %s", secret, path)
			}
			return nil
		})
	}
}

// A tab the user opened is recorded from the first time the bridge
// touches it, and console says so.
func TestAUsersTabIsRecordedFromTheFirstTouch(t *testing.T) {
	ctx := browsertest.Ctx(t, 30*time.Second)
	dev := bridge.SharedDevTools(t)
	session, st := usersTab(t, dev, site+"/console?user=1")
	tab := int(st["tabId"].(float64))
	res := call(t, map[string]any{"action": "console", "tabId": tab})
	if note, _ := res["note"].(string); !strings.Contains(note, "starts now") {
		t.Errorf("console on a tab the bridge never touched does not say recording starts now: %v", res)
	}
	if msgs := list(res, "messages"); len(msgs) != 0 {
		t.Errorf("messages from before the bridge touched the tab: %v", msgs)
	}
	if err := dev.Eval(ctx, session, `console.warn("said after the touch"); fetch("/api/ok").then((r) => r.text())`, nil); err != nil {
		t.Fatal(err)
	}
	waitFor(t, map[string]any{"action": "console", "tabId": tab}, func(r map[string]any) bool {
		return has(list(r, "messages"), "warning", "console", "said after the touch")
	})
	waitFor(t, map[string]any{"action": "network", "tabId": tab, "urlContains": "/api/ok"}, func(r map[string]any) bool {
		q := list(r, "requests")
		return len(q) == 1 && q[0]["status"] == 200.0
	})
}

// What the page's half of the recorder queued before the bridge touched
// a user's tab is left out, even when it reaches the worker after the
// touch: under load the worker's "yes" to the page's question came
// before the touch's own injection, and the page's load was sent as if
// recorded. The test sends such a late batch itself, from the recorder's
// isolated world (where page/record.js runs), as that race would.
func TestWhatAPageQueuedBeforeTheTouchIsLeftOut(t *testing.T) {
	ctx := browsertest.Ctx(t, 30*time.Second)
	dev := bridge.SharedDevTools(t)
	url := site + "/console?user=queued"
	session, st := usersTab(t, dev, url)
	tab := int(st["tabId"].(float64))
	call(t, map[string]any{"action": "console", "tabId": tab}) // the touch
	contexts, stop := dev.Watch("Runtime.executionContextCreated")
	defer stop()
	if err := dev.Call(ctx, session, "Runtime.enable", nil, nil); err != nil {
		t.Fatal(err)
	}
	isolated := 0
	for isolated == 0 {
		select {
		case e := <-contexts:
			var p struct {
				Context struct {
					ID      int    `json:"id"`
					Origin  string `json:"origin"`
					AuxData struct {
						Type string `json:"type"`
					} `json:"auxData"`
				} `json:"context"`
			}
			json.Unmarshal(e.Params, &p)
			if e.SessionID == session && p.Context.AuxData.Type == "isolated" && strings.HasPrefix(p.Context.Origin, "chrome-extension://"+protocol.DevExtensionID) {
				isolated = p.Context.ID
			}
		case <-ctx.Done():
			t.Fatal("no isolated world of the extension in the user's tab")
		}
	}
	send := `chrome.runtime.sendMessage({type: "record.batch", records: [
		{level: "log", source: "console", text: "queued before the touch", time: Date.now() - 60000},
		{level: "log", source: "console", text: "logged after the touch", time: Date.now()}]}).then(() => true)`
	if err := dev.Call(ctx, session, "Runtime.evaluate", map[string]any{"expression": send, "contextId": isolated, "awaitPromise": true}, nil); err != nil {
		t.Fatal(err)
	}
	res := waitFor(t, map[string]any{"action": "console", "tabId": tab}, func(r map[string]any) bool {
		return has(list(r, "messages"), "log", "console", "logged after the touch")
	})
	if has(list(res, "messages"), "log", "console", "queued before the touch") {
		t.Errorf("a message from before the touch is in the record: %v", list(res, "messages"))
	}
}

// usersTab opens url in a new tab through DevTools, as the user would
// (closed when the test ends), waits for its load, and returns the test's
// session on it and the tab as status lists it.
func usersTab(t *testing.T, dev *browsertest.DevTools, url string) (string, map[string]any) {
	t.Helper()
	ctx := browsertest.Ctx(t, 20*time.Second)
	session, targetID, err := dev.OpenWindow(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		dev.Call(ctx, "", "Target.closeTarget", map[string]any{"targetId": targetID}, nil)
	})
	dev.WaitPage(t, session, `document.readyState === "complete"`)
	for _, tb := range browsertest.StatusTabs(call(t, map[string]any{"action": "status"})) {
		if tb["url"] == url {
			return session, tb
		}
	}
	t.Fatalf("the user's tab %s is not in status", url)
	return "", nil
}

// Each of a page's calls of the same method and URL has its own body:
// the same POST made again and again, each answered with what it sent,
// shows in every request's detail the same body both ways.
func TestEachCallHasItsOwnBody(t *testing.T) {
	tab := bridge.OpenIn(t, workspace(t), site+"/echoes")
	res := waitFor(t, map[string]any{"action": "network", "tabId": tab, "urlContains": "/api/mirror"}, func(r map[string]any) bool {
		q := list(r, "requests")
		return len(q) == 8 && q[7]["status"] == 200.0
	})
	time.Sleep(500 * time.Millisecond) // the last body's batch
	for i, q := range list(res, "requests") {
		d := call(t, map[string]any{"action": "network", "tabId": tab, "requestId": q["requestId"]})["request"].(map[string]any)
		sent, got := bodyText(d, "requestBody"), bodyText(d, "responseBody")
		want := fmt.Sprintf(`{"n":%d}`, i)
		if sent != want || got != want {
			t.Errorf("call %d: sent %v, answered %v; want %s both", i, sent, got, want)
		}
	}
}

// A console call's message says where the page made it: the script's
// URL, line and column (here the page's first inline script).
func TestConsoleMessagesSayWhereTheyWereLogged(t *testing.T) {
	tab := bridge.OpenIn(t, workspace(t), site+"/console?where=1")
	res := waitFor(t, map[string]any{"action": "console", "tabId": tab}, func(r map[string]any) bool { return len(list(r, "messages")) >= 5 })
	for _, m := range list(res, "messages") {
		if m["source"] != "console" {
			continue
		}
		line := map[string]float64{"debug": 3, "log": 4, "info": 5, "warning": 6, "error": 7}[m["level"].(string)]
		if m["url"] != site+"/console?where=1" || m["line"] != line || m["column"] != 9.0 {
			t.Errorf("%s message %q is at %v:%v:%v, want %s/console?where=1:%v:9", m["level"], m["text"], m["url"], m["line"], m["column"], site, line)
		}
	}
}

// A new tab whose first load answers 404 has the browser's console line
// for it, as a later navigation's 404 has.
func TestAFirstLoadThatFailsHasItsConsoleLine(t *testing.T) {
	tab := bridge.OpenIn(t, workspace(t), site+"/no-such-page")
	waitFor(t, map[string]any{"action": "console", "tabId": tab}, func(r map[string]any) bool {
		return has(list(r, "messages"), "error", "network", "status of 404")
	})
}

// documentDetail opens path in a new tab and gives network's detail of
// the document the tab loaded there, once it has answered.
func documentDetail(t *testing.T, path string) map[string]any {
	t.Helper()
	tab := bridge.OpenIn(t, workspace(t), site+path)
	return loadedDocument(t, tab, path, "GET")
}

// loadedDocument is network's detail of tab's document at path, loaded
// with method.
func loadedDocument(t *testing.T, tab any, path, method string) map[string]any {
	t.Helper()
	res := waitFor(t, map[string]any{"action": "network", "tabId": tab, "urlContains": path}, func(r map[string]any) bool {
		q := list(r, "requests")
		return len(q) == 1 && q[0]["status"] != nil && q[0]["method"] == method
	})
	return call(t, map[string]any{"action": "network", "tabId": tab, "requestId": list(res, "requests")[0]["requestId"]})["request"].(map[string]any)
}

// noStoreHits is how many times the server answered /no-store?id=id.
func noStoreHits(t *testing.T, id string) string {
	t.Helper()
	res, err := http.Get(site + "/no-store/hits?id=" + id)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return string(b)
}

// The tab's current document served Cache-Control: no-store has no copy
// in the browser to read back: network's detail fetches it again from
// the page, with the page's cookies, and says so. The fetch again is the
// bridge's, not the page's: the tab's record leaves it out.
func TestANoStoreDocumentIsFetchedAgainAndSaysSo(t *testing.T) {
	tab := bridge.OpenIn(t, workspace(t), site+"/no-store?id=get")
	d := loadedDocument(t, tab, "/no-store?id=get", "GET")
	b, _ := d["responseBody"].(map[string]any)
	if b == nil || !strings.Contains(fmt.Sprint(b["text"]), "served not to be stored, load 2, cookie true") {
		t.Fatalf("the no-store document's body is not its second load, made with the page's cookie: %v", d["responseBody"])
	}
	if b["refetched"] != true || !strings.Contains(fmt.Sprint(b["note"]), "fetched again") || !strings.Contains(fmt.Sprint(b["note"]), "may differ") {
		t.Errorf("the body fetched again is not marked as such: %v", b)
	}
	if n := noStoreHits(t, "get"); n != "2" {
		t.Errorf("the server answered the document %s times, want 2 (its load and the fetch again)", n)
	}
	time.Sleep(300 * time.Millisecond) // the fetch again's webRequest events
	for _, q := range list(call(t, map[string]any{"action": "network", "tabId": tab}), "requests") {
		if strings.Contains(fmt.Sprint(q["url"]), "/no-store") && q["type"] != "document" {
			t.Errorf("the bridge's fetch again is in the page's record: %v", q)
		}
	}
}

// The user's own tab's document is never fetched again: a GET sends the
// user's cookies and may do what its load did, in a tab the bridge did
// not open. The detail says why there is no body.
func TestTheUsersNoStoreDocumentIsNotFetchedAgain(t *testing.T) {
	dev := bridge.SharedDevTools(t)
	ctx := browsertest.Ctx(t, 30*time.Second)
	session, tb := usersTab(t, dev, site+"/no-store?id=users")
	tab := tb["tabId"]
	call(t, map[string]any{"action": "network", "tabId": tab}) // records from now on
	if err := dev.Call(ctx, session, "Page.reload", nil, nil); err != nil {
		t.Fatal(err)
	}
	d := loadedDocument(t, tab, "/no-store?id=users", "GET")
	if b, _ := d["responseBody"].(map[string]any); b == nil || b["text"] != nil || !strings.Contains(fmt.Sprint(b["notKept"]), "only in a tab it opened") {
		t.Errorf("the user's no-store document gives %v, want notKept saying the bridge fetches again only in its own tabs", d["responseBody"])
	}
	if n := noStoreHits(t, "users"); n != "2" {
		t.Errorf("the server answered the user's document %s times, want 2 (the load and the user's reload)", n)
	}
}

// A no-store document whose server answers another status when fetched
// again has no body: the error page is not the page the tab loaded.
func TestANoStoreDocumentAnsweredDifferentlyHasNoBody(t *testing.T) {
	d := documentDetail(t, "/no-store?id=flaky&then=500")
	if b, _ := d["responseBody"].(map[string]any); b == nil || b["text"] != nil || !strings.Contains(fmt.Sprint(b["notKept"]), "status 500") {
		t.Errorf("the document answered 500 when fetched again gives %v, want notKept naming status 500", d["responseBody"])
	}
}

// A no-store document whose address redirects when fetched again has no
// body (the redirect is not followed: it leads to another page), and one
// whose server does not answer in time says so within the bound.
func TestANoStoreDocumentThatRedirectsOrHangsHasNoBody(t *testing.T) {
	d := documentDetail(t, "/no-store?id=moved&then=302")
	if b, _ := d["responseBody"].(map[string]any); b == nil || b["text"] != nil || !strings.Contains(fmt.Sprint(b["notKept"]), "redirect") {
		t.Errorf("the document redirected when fetched again gives %v, want notKept naming the redirect", d["responseBody"])
	}
	tab := bridge.OpenIn(t, workspace(t), site+"/no-store?id=slow&slow=1")
	res := waitFor(t, map[string]any{"action": "network", "tabId": tab, "urlContains": "id=slow"}, func(r map[string]any) bool {
		q := list(r, "requests")
		return len(q) == 1 && q[0]["status"] == 200.0
	})
	start := time.Now()
	d = call(t, map[string]any{"action": "network", "tabId": tab, "requestId": list(res, "requests")[0]["requestId"]})["request"].(map[string]any)
	if b, _ := d["responseBody"].(map[string]any); b == nil || b["text"] != nil || !strings.Contains(fmt.Sprint(b["notKept"]), "did not finish within 5 s") {
		t.Errorf("the document whose server hangs when fetched again gives %v, want notKept naming the bound", d["responseBody"])
	}
	if took := time.Since(start); took > 7500*time.Millisecond {
		t.Errorf("the detail of a document whose server hangs took %v, want about 5 s", took)
	}
}

// A form's POST result served no-store is not sent again (that would
// post the form a second time): its detail says why it has no body.
func TestANoStorePostResultIsNotSentAgain(t *testing.T) {
	tab := bridge.OpenIn(t, workspace(t), site+"/no-store/form")
	call(t, map[string]any{"action": "click", "tabId": tab, "selector": "#send"})
	d := loadedDocument(t, tab, "/no-store?id=post", "POST")
	if b, _ := d["responseBody"].(map[string]any); b == nil || b["text"] != nil || !strings.Contains(fmt.Sprint(b["notKept"]), "no-store") {
		t.Errorf("the no-store POST result's body does not say why it is missing: %v", d["responseBody"])
	}
	if n := noStoreHits(t, "post"); n != "1" {
		t.Errorf("the server got the form %s times, want once", n)
	}
}

// A frame's fetch is typed fetch, with the body its page read, and what
// the frame logged is in console: the recorder runs in every frame.
func TestAFramesFetchAndConsoleAreRecorded(t *testing.T) {
	tab := bridge.OpenIn(t, workspace(t), site+"/frame-fetch")
	res := waitFor(t, map[string]any{"action": "network", "tabId": tab, "urlContains": "from=frame"}, func(r map[string]any) bool {
		q := list(r, "requests")
		return len(q) == 1 && q[0]["status"] == 200.0 && q[0]["type"] == "fetch"
	})
	d := call(t, map[string]any{"action": "network", "tabId": tab, "requestId": list(res, "requests")[0]["requestId"]})["request"].(map[string]any)
	if b := bodyText(d, "responseBody"); !strings.Contains(b, "items") {
		t.Errorf("the frame's fetch has no body: %v", d["responseBody"])
	}
	waitFor(t, map[string]any{"action": "console", "tabId": tab}, func(r map[string]any) bool {
		return has(list(r, "messages"), "log", "console", "said in the frame")
	})
}

// A detail asked for right after the page showed the response has the
// response's body: the body the page read is waited for (its record
// comes from the page a moment later), 20 times out of 20.
func TestADetailRightAfterThePageShowsTheResponseHasItsBody(t *testing.T) {
	tab := bridge.OpenIn(t, workspace(t), site+"/race")
	missing := 0
	for i := 1; i <= 20; i++ {
		call(t, map[string]any{"action": "click", "tabId": tab, "selector": "#go"})
		call(t, map[string]any{"action": "wait", "tabId": tab, "text": fmt.Sprintf("shown %d 3", i)})
		res := call(t, map[string]any{"action": "network", "tabId": tab, "urlContains": fmt.Sprintf("/api/slow?i=%d", i)})
		reqs := list(res, "requests")
		if len(reqs) != 1 {
			t.Fatalf("run %d: %d requests of /api/slow?i=%d", i, len(reqs), i)
		}
		d := call(t, map[string]any{"action": "network", "tabId": tab, "requestId": reqs[0]["requestId"]})["request"].(map[string]any)
		if b := bodyText(d, "responseBody"); b != `{"items":[1,2,3]}` {
			missing++
			t.Errorf("run %d: the detail's body is %s", i, b)
		}
	}
	if missing > 0 {
		t.Errorf("%d of 20 details lacked the body the page had shown", missing)
	}
}

// After a reload, console gives the new load's messages only; all gives
// both loads, the new one begun by a navigation entry.
func TestConsoleAfterAReloadShowsTheNewLoad(t *testing.T) {
	tab := bridge.OpenIn(t, workspace(t), site+"/console?reload=1")
	count := func(r map[string]any) (n int) {
		for _, m := range list(r, "messages") {
			if m["source"] == "console" && strings.Contains(m["text"].(string), "error while loading") {
				n++
			}
		}
		return n
	}
	waitFor(t, map[string]any{"action": "console", "tabId": tab}, func(r map[string]any) bool { return count(r) == 1 })
	call(t, map[string]any{"action": "reload", "tabId": tab})
	all := waitFor(t, map[string]any{"action": "console", "tabId": tab, "all": true}, func(r map[string]any) bool { return count(r) == 2 })
	navs := 0
	for _, m := range list(all, "messages") {
		if m["source"] == "navigation" {
			navs++
		}
	}
	if navs < 1 {
		t.Errorf("all: true has no navigation entry between the loads: %v", list(all, "messages"))
	}
	if res := call(t, map[string]any{"action": "console", "tabId": tab}); count(res) != 1 {
		t.Errorf("console after a reload has %d copies of the load's error, want the new load's only: %v", count(res), list(res, "messages"))
	}
}

// A frame's console message names its frame: the frame's ID and URL, for
// a same-origin and a cross-origin frame alike; the top document's
// message names none.
func TestAFramesConsoleMessagesNameTheirFrame(t *testing.T) {
	tab := bridge.OpenIn(t, workspace(t), site+"/frames-log")
	said := func(msgs []map[string]any, text string) map[string]any {
		for _, m := range msgs {
			if strings.Contains(fmt.Sprint(m["text"]), text) {
				return m
			}
		}
		return nil
	}
	res := waitFor(t, map[string]any{"action": "console", "tabId": tab}, func(r map[string]any) bool {
		msgs := list(r, "messages")
		return said(msgs, "said by the top") != nil && said(msgs, "said by the same frame") != nil && said(msgs, "said by the cross frame") != nil
	})
	msgs := list(res, "messages")
	if top := said(msgs, "said by the top"); top["frameId"] != nil || top["frameUrl"] != nil {
		t.Errorf("the top document's message names a frame: %v", top)
	}
	same, cross := said(msgs, "said by the same frame"), said(msgs, "said by the cross frame")
	sameID, _ := same["frameId"].(float64)
	crossID, _ := cross["frameId"].(float64)
	if sameID <= 0 || crossID <= 0 || sameID == crossID {
		t.Errorf("frame IDs: same-origin %v, cross-origin %v; want two different frames", same["frameId"], cross["frameId"])
	}
	if same["frameUrl"] != site+"/frame-log?who=same" {
		t.Errorf("the same-origin frame's message has frameUrl %v, want %s/frame-log?who=same", same["frameUrl"], site)
	}
	if want := "http://localhost:" + portOf(strings.TrimPrefix(site, "http://")) + "/frame-log?who=cross"; cross["frameUrl"] != want {
		t.Errorf("the cross-origin frame's message has frameUrl %v, want %s", cross["frameUrl"], want)
	}
}

// A tab opened empty and then sent to a page has that page's document
// body, as a tab opened straight onto it has.
func TestADocumentLoadedIntoAnEmptyTabHasItsBody(t *testing.T) {
	ws := workspace(t)
	tab := bridge.OpenIn(t, ws, "about:blank")
	call(t, map[string]any{"action": "open", "tabId": tab, "url": site + "/console"})
	res := waitFor(t, map[string]any{"action": "network", "tabId": tab, "urlContains": "/console"}, func(r map[string]any) bool {
		q := list(r, "requests")
		return len(q) == 1 && q[0]["status"] == 200.0
	})
	d := call(t, map[string]any{"action": "network", "tabId": tab, "requestId": list(res, "requests")[0]["requestId"]})["request"].(map[string]any)
	if b, _ := d["responseBody"].(map[string]any); b == nil || !strings.Contains(fmt.Sprint(b["text"]), "<title>") {
		t.Errorf("the document loaded into an empty tab has no body: %v", d["responseBody"])
	}
}
