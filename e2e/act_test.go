package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// app serves testdata/app.html with a cross-origin iframe: the page is on
// 127.0.0.1, the frame on localhost, two sites for Chrome.
func app(t *testing.T) (url string) {
	t.Helper()
	frame := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, "testdata/frame.html")
	}))
	t.Cleanup(frame.Close)
	frameURL := strings.Replace(frame.URL, "127.0.0.1", "localhost", 1) + "/frame"
	page, err := os.ReadFile("testdata/app.html")
	if err != nil {
		t.Fatal(err)
	}
	body := strings.Replace(string(page), "FRAME_URL", frameURL, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if strings.HasPrefix(r.URL.Path, "/page/") {
			fmt.Fprintf(w, "<title>%s</title>", strings.TrimPrefix(r.URL.Path, "/page/"))
			return
		}
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/app"
}

// openApp opens the app in a workspace of the test's own and returns the
// tab ID.
func openApp(t *testing.T) int {
	t.Helper()
	ws := "act-" + t.Name()
	o := bridge.MustCall(t, map[string]any{"action": "open", "url": app(t), "browserWorkspaceId": ws})
	t.Cleanup(func() {
		bridge.Call(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws})
	})
	return num(t, o, "tabId")
}

func call(t *testing.T, in map[string]any) map[string]any {
	t.Helper()
	return bridge.MustCall(t, in)
}

func TestClickIsTrustedAndDOMModeIsNot(t *testing.T) {
	tab := openApp(t)
	call(t, map[string]any{"action": "click", "tabId": tab, "inputMode": "dom", "text": "Trusted only"})
	waitText(t, tab, "#trusted-out", "untrusted click ignored")
	res := call(t, map[string]any{"action": "click", "tabId": tab, "text": "Trusted only"})
	waitText(t, tab, "#trusted-out", "trusted click")
	el := res["element"].(map[string]any)
	if el["tag"] != "button" || el["name"] != "Trusted only" {
		t.Fatalf("click reported %v", el)
	}
}

func TestClickInNestedShadowRootAndCrossOriginFrame(t *testing.T) {
	tab := openApp(t)
	call(t, map[string]any{"action": "click", "tabId": tab, "role": "button", "name": "Deep button"})
	waitText(t, tab, "#log", "deep:true;")
	// The framed button is below the fold of a cross-origin frame that is
	// itself below the fold of the page.
	res := call(t, map[string]any{"action": "click", "tabId": tab, "text": "Framed button"})
	el := res["element"].(map[string]any)
	if num(t, el, "frameId") == 0 || !strings.HasPrefix(el["ref"].(string), "f") {
		t.Fatalf("framed element reported in the top frame: %v", el)
	}
	waitTextIn(t, tab, num(t, el, "frameId"), "#framed-out", "framed trusted")
}

func TestTypeIntoInputsEditorsAndControlledFields(t *testing.T) {
	tab := openApp(t)
	r := call(t, map[string]any{"action": "type", "tabId": tab, "label": "Your name", "value": "Ada Lövelace ✓"})
	if r["value"] != "Ada Lövelace ✓" {
		t.Fatalf("typed value: %v", r)
	}
	r = call(t, map[string]any{"action": "type", "tabId": tab, "placeholder": "type your NAME", "value": "Grace", "clear": true})
	if r["value"] != "Grace" {
		t.Fatalf("clear + type: %v", r)
	}
	r = call(t, map[string]any{"action": "type", "tabId": tab, "label": "Controlled", "value": "react"})
	if r["value"] != "REACT" {
		t.Fatalf("controlled input: %v", r)
	}
	waitText(t, tab, "#controlled-out", "state=REACT")
	r = call(t, map[string]any{"action": "type", "tabId": tab, "role": "textbox", "name": "Editor", "value": "rich text"})
	if r["value"] != "rich text" {
		t.Fatalf("contenteditable: %v", r)
	}
	r = call(t, map[string]any{"action": "type", "tabId": tab, "selector": "#name", "value": "", "clear": true})
	if r["value"] != "" {
		t.Fatalf("clearing: %v", r)
	}
}

// Typing into something that takes no text is refused before anything
// happens (the text would otherwise land in the field focused before),
// in both input modes; typing at a point types where the point is.
func TestTypeRefusesFieldsWithoutText(t *testing.T) {
	tab := openApp(t)
	call(t, map[string]any{"action": "type", "tabId": tab, "selector": "#name", "value": "first"})
	for _, sel := range []string{"#fruit", "#agree", "#file", "#trusted"} {
		for _, mode := range []string{"cdp", "dom"} {
			r := bridge.Call(t, map[string]any{"action": "type", "tabId": tab, "selector": sel, "value": "X", "inputMode": mode})
			if r.Err == nil || r.Err.Code != protocol.CodeInvalidArgument || !strings.Contains(r.Err.Message, "does not take text") {
				t.Errorf("type into %s (%s): %s", sel, mode, r.Stdout)
			}
		}
	}
	if v := call(t, map[string]any{"action": "type", "tabId": tab, "selector": "#name", "value": "!"})["value"]; v != "first!" {
		t.Errorf("the refused typing went somewhere: #name holds %v", v)
	}
	// At a point: the field under it gets the text. The rect scroll
	// reports is measured before it scrolls, from the top: document
	// coordinates.
	call(t, map[string]any{"action": "scroll", "tabId": tab, "to": "top"})
	sc := call(t, map[string]any{"action": "scroll", "tabId": tab, "selector": "#keys"})
	rc := sc["element"].(map[string]any)["rect"].(map[string]any)
	call(t, map[string]any{"action": "type", "tabId": tab, "x": rc["x"].(float64) + 5, "y": rc["y"].(float64) + 5, "coordinates": "document", "value": "at a point"})
	if v := call(t, map[string]any{"action": "type", "tabId": tab, "selector": "#keys", "value": "."})["value"]; v != "at a point." {
		t.Errorf("typing at a point: #keys holds %v", v)
	}
}

func TestPressSendsRealKeys(t *testing.T) {
	tab := openApp(t)
	call(t, map[string]any{"action": "press", "tabId": tab, "label": "Key log", "keys": "a Shift+Tab"})
	waitText(t, tab, "#keys-out", "a Shift+ Tab+")
	call(t, map[string]any{"action": "type", "tabId": tab, "selector": "#keys", "value": "xyz", "clear": true})
	call(t, map[string]any{"action": "press", "tabId": tab, "selector": "#keys", "keys": "Control+A Backspace"})
	r := call(t, map[string]any{"action": "type", "tabId": tab, "selector": "#keys", "value": "!"})
	if r["value"] != "!" {
		t.Fatalf("Control+A Backspace did not empty the field: %v", r)
	}
	bad := bridge.Call(t, map[string]any{"action": "press", "tabId": tab, "keys": "Hyper+Q"})
	if bad.Err == nil || bad.Err.Code != protocol.CodeInvalidArgument {
		t.Fatalf("bad keys: %s", bad.Stdout)
	}
}

func TestSelectCheckAndSwitch(t *testing.T) {
	tab := openApp(t)
	r := call(t, map[string]any{"action": "select", "tabId": tab, "selector": "#fruit", "option": "Banana"})
	if fmt.Sprint(r["selected"]) != "[b]" {
		t.Fatalf("select by label: %v", r)
	}
	r = call(t, map[string]any{"action": "select", "tabId": tab, "selector": "#multi", "options": []string{"Red", "Blue"}})
	if fmt.Sprint(r["selectedLabels"]) != "[Red Blue]" {
		t.Fatalf("multi select: %v", r)
	}
	bad := bridge.Call(t, map[string]any{"action": "select", "tabId": tab, "selector": "#fruit", "option": "Durian"})
	if bad.Err == nil || bad.Err.Code != protocol.CodeElementNotFound || !strings.Contains(bad.Err.Message, "Cherry") {
		t.Fatalf("missing option: %s", bad.Stdout)
	}
	for i := 0; i < 2; i++ { // idempotent
		r = call(t, map[string]any{"action": "check", "tabId": tab, "label": "I agree"})
		if r["checked"] != true || r["changed"] != (i == 0) {
			t.Fatalf("check #%d: %v", i, r)
		}
	}
	r = call(t, map[string]any{"action": "check", "tabId": tab, "label": "I agree", "checked": false})
	if r["checked"] != false {
		t.Fatalf("uncheck: %v", r)
	}
	waitText(t, tab, "#log", "fruit:b;agree:true;agree:false;")
	r = call(t, map[string]any{"action": "check", "tabId": tab, "label": "Large"})
	if r["checked"] != true {
		t.Fatalf("radio: %v", r)
	}
	r = call(t, map[string]any{"action": "check", "tabId": tab, "role": "switch", "name": "Dark mode"})
	if r["checked"] != true {
		t.Fatalf("switch: %v", r)
	}
}

func TestScrollContainersAndPage(t *testing.T) {
	tab := openApp(t)
	r := call(t, map[string]any{"action": "scroll", "tabId": tab, "text": "row 6"})
	if r["container"] == "document" || r["scrollY"].(float64) <= 0 {
		t.Fatalf("scrolling row 6 into view in its container: %v", r)
	}
	r = call(t, map[string]any{"action": "scroll", "tabId": tab, "to": "bottom"})
	if r["container"] != "document" || r["scrollY"] != r["maxScrollY"] || r["scrollY"].(float64) <= 0 {
		t.Fatalf("page to bottom: %v", r)
	}
	r = call(t, map[string]any{"action": "scroll", "tabId": tab, "deltaY": -100})
	if r["scrollY"].(float64) != r["maxScrollY"].(float64)-100 {
		t.Fatalf("delta: %v", r)
	}
	r = call(t, map[string]any{"action": "scroll", "tabId": tab, "to": "top"})
	if r["scrollY"].(float64) != 0 {
		t.Fatalf("top: %v", r)
	}
}

func TestClickFollowsNavigation(t *testing.T) {
	tab := openApp(t)
	r := call(t, map[string]any{"action": "click", "tabId": tab, "role": "link", "name": "Go next"})
	if r["navigated"] != true || r["title"] != "Next" || !strings.HasSuffix(r["url"].(string), "/page/Next") {
		t.Fatalf("click on a link: %v", r)
	}
}

// An element with display: contents has no box of its own but is shown.
func TestDisplayContentsIsVisible(t *testing.T) {
	tab := openApp(t)
	r := call(t, map[string]any{"action": "click", "tabId": tab, "role": "link", "name": "Contents link"})
	if !strings.HasSuffix(r["url"].(string), "#contents") {
		t.Fatalf("click on a display: contents link: %v", r)
	}
}

func TestLocatorErrors(t *testing.T) {
	tab := openApp(t)
	cases := []struct {
		in   map[string]any
		code string
		msg  string
	}{
		{map[string]any{"action": "click", "tabId": tab, "text": "Trusted onyl"}, protocol.CodeElementNotFound, "Trusted only"},
		// role+name lists the closest too: a wrong role, a typo.
		{map[string]any{"action": "click", "tabId": tab, "role": "button", "name": "Go next"}, protocol.CodeElementNotFound, `closest: link "Go next"`},
		{map[string]any{"action": "click", "tabId": tab, "role": "link", "name": "Go nxet"}, protocol.CodeElementNotFound, `closest: link "Go next"`},
		// A name that shares no word: the elements of that role are the closest.
		{map[string]any{"action": "click", "tabId": tab, "role": "switch", "name": "Theme"}, protocol.CodeElementNotFound, `closest: switch "Dark mode"`},
		{map[string]any{"action": "click", "tabId": tab}, protocol.CodeInvalidArgument, "needs a locator"},
		{map[string]any{"action": "click", "tabId": tab, "text": "a", "selector": "b"}, protocol.CodeInvalidArgument, "exactly one"},
		{map[string]any{"action": "click", "tabId": tab, "selector": "#[bad"}, protocol.CodeInvalidArgument, "not valid CSS"},
		{map[string]any{"action": "click", "tabId": tab, "name": "x"}, protocol.CodeInvalidArgument, "role"},
		{map[string]any{"action": "click", "tabId": tab, "ref": "zz"}, protocol.CodeInvalidArgument, "ref"},
		{map[string]any{"action": "click", "tabId": tab, "selector": "button", "nth": 99}, protocol.CodeElementNotFound, "out of range"},
	}
	for _, c := range cases {
		r := bridge.Call(t, c.in)
		if r.Err == nil || r.Err.Code != c.code || !strings.Contains(r.Err.Message, c.msg) {
			t.Errorf("%v: %s (want %s mentioning %q)", c.in, r.Stdout, c.code, c.msg)
		}
	}
}

// waitText polls the page until selector's text contains want.
func waitText(t *testing.T, tab int, selector, want string) {
	t.Helper()
	waitTextIn(t, tab, 0, selector, want)
}

func waitTextIn(t *testing.T, tab, frame int, selector, want string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	var last string
	for time.Now().Before(deadline) {
		last = probeText(t, tab, frame, selector)
		if strings.Contains(last, want) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s in frame %d: text %q, want %q", selector, frame, last, want)
}

// probeText reads an element's visible text through the bridge itself:
// scroll with a locator reports the element it scrolled to, text included.
func probeText(t *testing.T, tab, frame int, selector string) string {
	t.Helper()
	r := bridge.Call(t, map[string]any{"action": "scroll", "tabId": tab, "frameId": frame, "selector": selector})
	if r.Err != nil {
		return "error: " + r.Err.Message
	}
	el, _ := r.JSON["element"].(map[string]any)
	s, _ := el["text"].(string)
	return s
}

// Dialogs stop the page until answered: an action that opens one answers
// it (alert accepted, others dismissed, or as the call says) and says so,
// instead of hanging until its deadline.
func TestDialogsAreAnsweredAndReported(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>Dialogs</title>
<button onclick="document.getElementById('out').textContent = confirm('Delete it?') ? 'yes' : 'no'">Delete</button>
<button onclick="alert('hello')">Alert me</button>
<button onclick="setTimeout(() => alert('later'), 50)">Later</button>
<span id="out">none</span>`)
	}))
	t.Cleanup(srv.Close)
	ws := "dialog"
	o := call(t, map[string]any{"action": "open", "url": srv.URL, "browserWorkspaceId": ws})
	t.Cleanup(func() {
		bridge.Call(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws})
	})
	tab := num(t, o, "tabId")

	r := call(t, map[string]any{"action": "click", "tabId": tab, "text": "Delete", "timeoutMs": 10000})
	d, _ := r["dialog"].(map[string]any)
	if d["type"] != "confirm" || d["message"] != "Delete it?" || d["answer"] != "dismissed" {
		t.Fatalf("confirm: %v", r)
	}
	waitText(t, tab, "#out", "no")
	r = call(t, map[string]any{"action": "click", "tabId": tab, "text": "Delete", "dialog": "accept", "timeoutMs": 10000})
	if d, _ := r["dialog"].(map[string]any); d["answer"] != "accepted" {
		t.Fatalf("confirm accepted: %v", r)
	}
	waitText(t, tab, "#out", "yes")
	r = call(t, map[string]any{"action": "click", "tabId": tab, "text": "Alert me", "timeoutMs": 10000})
	if d, _ := r["dialog"].(map[string]any); d["type"] != "alert" || d["answer"] != "accepted" {
		t.Fatalf("alert: %v", r)
	}

	// A dialog that opens later, outside any action, stops the page: the
	// next action finds it, answers it and says so, and works.
	// (The alert comes 50 ms after the click: on a loaded machine, later
	// still; an action before it simply works, and the next one finds it.)
	// The click itself may be the one: it reads what it set off for up to
	// a few hundred ms after it settled, and a dialog that opens then is
	// answered and reported by it.
	later := call(t, map[string]any{"action": "click", "tabId": tab, "text": "Later", "timeoutMs": 10000})
	if !strings.Contains(fmt.Sprint(later["warnings"]), `alert dialog ("later")`) {
		untilReported(t, func() map[string]any {
			return call(t, map[string]any{"action": "scroll", "tabId": tab, "to": "top", "timeoutMs": 10000})
		}, `alert dialog ("later")`)
	}
	call(t, map[string]any{"action": "click", "tabId": tab, "text": "Later", "timeoutMs": 10000})
	r = untilReported(t, func() map[string]any {
		return call(t, map[string]any{"action": "press", "tabId": tab, "keys": "Shift", "timeoutMs": 10000})
	}, `alert dialog ("later")`)
	if d, _ := r["dialog"].(map[string]any); d["message"] != "later" {
		t.Fatalf("press on a tab held by an alert: %v", r)
	}
}

// untilReported runs act until its result's warnings say want, for up to
// 10 s.
func untilReported(t *testing.T, act func() map[string]any, want string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		r := act()
		if strings.Contains(fmt.Sprint(r["warnings"]), want) {
			return r
		}
		if time.Now().After(deadline) {
			t.Fatalf("no action reported %s; the last result: %v", want, r)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// A page that shows dialogs by itself — while it loads, several in a row,
// or to confirm leaving — never leaves its tab unusable.
func TestDialogsOutsideActions(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/load":
			fmt.Fprint(w, `<title>Load alert</title><script>alert("while loading")</script><p id="p">after the alert</p>`)
		case "/loop":
			fmt.Fprint(w, `<title>Loop</title><button onclick="for (let i = 0; i < 4; i++) alert('n' + i); document.title = 'done'">Many</button>`)
		case "/forever":
			fmt.Fprint(w, `<title>Forever</title><button onclick="while (true) alert('again')">Forever</button>`)
		case "/leave":
			fmt.Fprint(w, `<title>Leave</title><input id="i"><script>addEventListener("beforeunload", (e) => { e.preventDefault(); e.returnValue = ""; })</script>`)
		default:
			fmt.Fprint(w, `<title>Elsewhere</title>`)
		}
	}))
	t.Cleanup(srv.Close)
	ws := "dialogs-outside"
	t.Cleanup(func() {
		bridge.Call(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws})
	})

	// An alert while the page loads: whether Chrome shows it (then the
	// bridge answers it) or drops it (a tab out of sight), the tab stays
	// usable and extract reads the page.
	o := call(t, map[string]any{"action": "open", "url": srv.URL + "/elsewhere", "browserWorkspaceId": ws})
	tab := num(t, o, "tabId")
	call(t, map[string]any{"action": "open", "tabId": tab, "url": srv.URL + "/load", "timeoutMs": 20000})
	r := call(t, map[string]any{"action": "extract", "tabId": tab, "timeoutMs": 20000})
	if !strings.Contains(fmt.Sprint(r["markdown"]), "after the alert") {
		t.Fatalf("extract of a page that alerted while loading: %v", r)
	}

	// Four alerts in a row from one click: all answered, all reported.
	call(t, map[string]any{"action": "open", "tabId": tab, "url": srv.URL + "/loop"})
	r = call(t, map[string]any{"action": "click", "tabId": tab, "text": "Many", "timeoutMs": 20000})
	for i := range 4 {
		if !strings.Contains(fmt.Sprint(r["warnings"]), fmt.Sprintf(`("n%d")`, i)) {
			t.Fatalf("alert n%d not reported: %v", i, r["warnings"])
		}
	}
	if r["title"] != "done" {
		t.Errorf("the handler did not run to its end: %v", r)
	}

	// A page that shows dialogs forever: the click says so, and so does
	// the next action, soon — neither waits out its deadline.
	call(t, map[string]any{"action": "open", "tabId": tab, "url": srv.URL + "/forever"})
	bad := bridge.Call(t, map[string]any{"action": "click", "tabId": tab, "text": "Forever", "timeoutMs": 30000})
	if bad.Err == nil || bad.Err.Code != protocol.CodeTimeout || !strings.Contains(bad.Err.Message, "keeps opening dialogs") {
		t.Fatalf("click into endless dialogs: %s", bad.Stdout)
	}
	start := time.Now()
	bad = bridge.Call(t, map[string]any{"action": "extract", "tabId": tab, "timeoutMs": 30000})
	if bad.Err == nil || !strings.Contains(bad.Err.Message, "keeps opening dialogs") || time.Since(start) > 20*time.Second {
		t.Fatalf("extract after endless dialogs (%s): %s", time.Since(start), bad.Stdout)
	}
	bridge.MustCall(t, map[string]any{"action": "close", "tabId": tab})
	o = call(t, map[string]any{"action": "open", "url": srv.URL + "/elsewhere", "browserWorkspaceId": ws})
	tab = num(t, o, "tabId")

	// Leaving a page that asks to confirm: dismissed by default (stay),
	// accepted when the call says so.
	call(t, map[string]any{"action": "open", "tabId": tab, "url": srv.URL + "/leave"})
	call(t, map[string]any{"action": "type", "tabId": tab, "selector": "#i", "value": "unsaved"}) // a gesture: Chrome asks only then
	r = call(t, map[string]any{"action": "open", "tabId": tab, "url": srv.URL + "/elsewhere", "timeoutMs": 20000})
	if r["title"] != "Leave" || !strings.Contains(fmt.Sprint(r["warnings"]), "beforeunload dialog") {
		t.Fatalf("leaving, dismissed: %v", r)
	}
	r = call(t, map[string]any{"action": "open", "tabId": tab, "url": srv.URL + "/elsewhere", "dialog": "accept", "timeoutMs": 20000})
	if r["title"] != "Elsewhere" {
		t.Fatalf("leaving, accepted: %v", r)
	}
}

// A dialog that opened while the bridge's debugger was away holds the
// page where the bridge cannot see it (Chrome tells a debugger only of
// the dialogs that open while it is attached): the next action does not
// hang, and fails with a timeout that names the dialog as the likely
// cause and the user as the one to answer it.
func TestADialogTheBridgeDidNotSeeFailsClearly(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>Unseen</title><input id="i" aria-label="Name">
<button onclick="setTimeout(() => alert('while nobody looked'), 6500)">Later</button>`)
	}))
	t.Cleanup(srv.Close)
	// type attaches the debugger first; extract runs a page script first,
	// which the dialog holds.
	for i, in := range []map[string]any{
		{"action": "type", "label": "Name", "value": "Ada"},
		{"action": "extract"},
	} {
		ws := fmt.Sprintf("dialog-unseen-%d", i)
		t.Cleanup(func() {
			bridge.Call(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws})
		})
		in["tabId"] = num(t, call(t, map[string]any{"action": "open", "url": srv.URL, "browserWorkspaceId": ws}), "tabId")
		in["timeoutMs"] = 15000
		// The click's debugger leaves after 5 s without use; the alert
		// comes 6.5 s after the click, with room for a slow machine.
		call(t, map[string]any{"action": "click", "tabId": in["tabId"], "text": "Later"})
		time.Sleep(7500 * time.Millisecond)
		start := time.Now()
		r := bridge.Call(t, in)
		took := time.Since(start)
		if r.Err == nil || r.Err.Code != protocol.CodeTimeout || !strings.Contains(r.Err.Message, "dialog") || !strings.Contains(r.Err.Message, "handoff") {
			t.Fatalf("%s on a page an unseen alert holds: %s", in["action"], r.Stdout)
		}
		// The README promises the timeout after 5 s. The bound leaves
		// room for a loaded machine (a CI run with two packages at once
		// took 6.9 s, the CLI's own start included), yet fails when the
		// wait for the debugger comes on top of the wait for a held page
		// script (7.5 s and more).
		if took > 7200*time.Millisecond {
			t.Errorf("%s: the timeout came after %s, want about 5 s", in["action"], took.Round(100*time.Millisecond))
		}
	}
}

// Actions on one tab take turns: parallel typing into one field leaves one
// caller's text, not a mix of all.
func TestActionsOnOneTabTakeTurns(t *testing.T) {
	tab := openApp(t)
	var wg sync.WaitGroup
	values := make(chan string, 5)
	for i := range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := bridge.Call(t, map[string]any{"action": "type", "tabId": tab, "selector": "#name", "value": fmt.Sprintf("v%d", i), "clear": true})
			if r.Err != nil {
				t.Errorf("type v%d: %s", i, r.Stdout)
				return
			}
			values <- fmt.Sprint(r.JSON["value"])
		}()
	}
	wg.Wait()
	close(values)
	for v := range values {
		if len(v) != 2 || v[0] != 'v' {
			t.Errorf("a field typed into by five callers at once holds %q", v)
		}
	}
}
