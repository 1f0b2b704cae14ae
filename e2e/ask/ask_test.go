package ask

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// startCall runs input in the background; the channel gets its result.
func startCall(t *testing.T, input map[string]any) <-chan browsertest.Result {
	t.Helper()
	done := make(chan browsertest.Result, 1)
	go func() { done <- bridge.Call(t, input) }()
	return done
}

func result(t *testing.T, ctx context.Context, c <-chan browsertest.Result) browsertest.Result {
	t.Helper()
	select {
	case r := <-c:
		return r
	case <-ctx.Done():
	}
	// The test's time is up. A call that has returned meanwhile is still
	// its answer (select picks at random when both are ready).
	select {
	case r := <-c:
		return r
	default:
	}
	// Say where it stuck: the question boxes that show, and the bridge's
	// state (the audit trail has the call if the daemon answered it).
	logQuestions(t)
	bridge.LogState(t)
	t.Fatal("the call did not return")
	return browsertest.Result{}
}

// logQuestions logs the question boxes that show, and what each says.
func logQuestions(t *testing.T) {
	t.Helper()
	ctx := ctxFor(t, 10*time.Second)
	d := devtools(t)
	ts, err := d.Targets(ctx)
	if err != nil {
		t.Logf("questions: no targets: %v", err)
		return
	}
	n := 0
	for _, tg := range ts {
		if !strings.HasPrefix(tg.URL, extURL("ui/ask.html")) {
			continue
		}
		n++
		var box struct {
			Message, Note string
			Buttons       bool
		}
		err := errors.New("not attached")
		if s, aerr := d.Attach(ctx, tg.TargetID); aerr == nil {
			err = d.Eval(ctx, s, `({Message: document.getElementById("message").textContent, Note: document.getElementById("note").hidden ? "" : document.getElementById("note").textContent, Buttons: !document.getElementById("actions").hidden})`, &box)
		}
		t.Logf("questions: a %s %s: %+v (%v)", tg.Type, tg.URL, box, err)
	}
	if n == 0 {
		t.Logf("questions: none shows")
	}
}

// questionFrame waits for the question's frame over the page, saying
// want, and attaches to it (it runs in the extension's process: a target
// of its own).
func questionFrame(t *testing.T, ctx context.Context, want string) string {
	t.Helper()
	d := devtools(t)
	for {
		tgt, err := d.WaitTarget(ctx, "iframe", extURL("ui/ask.html"))
		if err != nil {
			t.Fatal(err)
		}
		frame, err := d.Attach(ctx, tgt.TargetID)
		if err != nil {
			continue // the frame of a question that just ended
		}
		var msg string
		wait := ctxFor(t, 5*time.Second)
		for wait.Err() == nil {
			if d.Eval(wait, frame, `document.getElementById("message").textContent`, &msg) == nil && strings.Contains(msg, want) {
				return frame
			}
			time.Sleep(50 * time.Millisecond)
		}
		if ctx.Err() != nil {
			t.Fatalf("no question saying %q; the last said %q", want, msg)
		}
	}
}

// pageSession attaches to the page's own target (its main world is the
// page's scripts' world).
func pageSession(t *testing.T, ctx context.Context, url string) string {
	t.Helper()
	return devtools(t).PageSession(t, ctx, url)
}

type point struct{ X, Y float64 }

// buttonPoint is the middle of the question frame's button id in the
// page's viewport: the frame's place on the page plus the button's in the
// frame.
func buttonPoint(t *testing.T, ctx context.Context, page, frame, id string) point {
	t.Helper()
	d := devtools(t)
	var host, button struct{ X, Y, W, H float64 }
	if err := d.Eval(ctx, page, `(() => { const b = `+browsertest.OverlayHolderJS+`.getBoundingClientRect(); return {X: b.x, Y: b.y, W: b.width, H: b.height}; })()`, &host); err != nil {
		t.Fatal(err)
	}
	if err := d.Eval(ctx, frame, `(() => { const b = document.getElementById(`+jsString(id)+`).getBoundingClientRect(); return {X: b.x, Y: b.y, W: b.width, H: b.height}; })()`, &button); err != nil {
		t.Fatal(err)
	}
	return point{host.X + button.X + button.W/2, host.Y + button.Y + button.H/2}
}

// press is the user's click on the question's button id (allow or
// decline) over the page.
//
// The box takes a click only when the browser reports it fully visible
// (IntersectionObserver v2); on a loaded machine that report can lag a
// box raised a moment before, and the box then asks the user to press
// again (its note), as a person would: so does this.
func press(t *testing.T, ctx context.Context, page, frame, id string) {
	t.Helper()
	d := devtools(t)
	for try := 0; try < 3; try++ {
		p := buttonPoint(t, ctx, page, frame, id)
		if err := d.Click(ctx, page, p.X, p.Y); err != nil {
			t.Fatal(err)
		}
		var state string
		for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
			// "" while the answer is on its way; "taken" once the box
			// ended; "again" when it asks for another press.
			err := d.Eval(ctx, frame, `document.getElementById("actions").hidden ? "taken" : !document.getElementById("note").hidden && document.getElementById("note").textContent.includes("press again") ? "again" : ""`, &state)
			if errors.Is(err, browsertest.ErrTargetGone) {
				// The frame went with the question: the answer was taken.
				t.Logf("the box went after the press (try %d): %v", try+1, err)
				return
			}
			if err != nil {
				t.Fatalf("reading the question box after a press: %v", err)
			}
			if state != "" {
				break
			}
		}
		switch state {
		case "taken":
			return
		case "again":
			t.Logf("the box asked for another press (try %d)", try+1)
		default:
			// Neither taken nor asked again within 5 s: the press did not
			// reach the button (a loaded machine); press once more rather
			// than wait for a call that waits for the user.
			t.Logf("the box showed no answer 5 s after a press (try %d)", try+1)
		}
	}
	t.Fatalf("the box took none of three presses of %q", id)
}

// eventually waits up to 5 s for n to be want (a form's POST reaches the
// server a moment after the click that sent it).
func eventually(t *testing.T, what string, n interface{ Load() int64 }, want int64) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); n.Load() != want && time.Now().Before(end); {
		time.Sleep(50 * time.Millisecond)
	}
	if got := n.Load(); got != want {
		t.Errorf("%s: %d, want %d", what, got, want)
	}
}

// noQuestion fails when a question shows anywhere.
func noQuestion(t *testing.T) {
	t.Helper()
	ts, err := devtools(t).Targets(ctxFor(t, 5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for _, tg := range ts {
		if strings.HasPrefix(tg.URL, extURL("ui/ask.html")) {
			t.Errorf("a question shows: %s %s", tg.Type, tg.URL)
		}
	}
}

// With the mode off (the default) nothing asks: the order is placed and
// the link to another site is followed at once.
func TestAskOffNothingAsks(t *testing.T) {
	ws := workspace(t, "ask-off")
	tab := openPage(t, ws, "/shop?off")
	before := orders.Load()
	bridge.MustCall(t, map[string]any{"action": "click", "tabId": tab, "selector": "#place"})
	eventually(t, "orders placed with the mode off", &orders, before+1)
	tab = openPage(t, ws, "/shop?off-link")
	hits := otherHits.Load()
	bridge.MustCall(t, map[string]any{"action": "click", "tabId": tab, "selector": "#away"})
	eventually(t, "visits of the other site with the mode off", &otherHits, hits+1)
	noQuestion(t)
}

// With the mode on, a click on a form's submit button asks over the page
// first, where the page cannot read the question; the tab is held against
// every other action meanwhile (the agent's own click on Allow among
// them); the extension's page shows the question too; Allow lets the
// click through and the form is submitted once.
func TestAskAllowSubmits(t *testing.T) {
	ws := workspace(t, "ask-allow")
	tab := openPage(t, ws, "/shop?allow")
	setAsk(t, true)
	d := devtools(t)
	ctx := ctxFor(t, 90*time.Second)
	page := pageSession(t, ctx, site+"/shop?allow")
	before := orders.Load()
	call := startCall(t, map[string]any{"action": "click", "tabId": tab, "selector": "#place", "timeoutMs": 60000})
	frame := questionFrame(t, ctx, "“Place order”")
	var q struct{ Message, Heading, Left string }
	d.Eval(ctx, frame, `({Message: document.getElementById("message").textContent, Heading: document.getElementById("heading").textContent, Left: document.getElementById("left").textContent})`, &q)
	host := strings.TrimPrefix(site, "http://")
	if !strings.Contains(q.Message, "on "+host) || !strings.Contains(q.Message, "payment") || !strings.Contains(q.Heading, "payment") || !strings.HasSuffix(q.Left, "left") {
		t.Errorf("the question: %+v", q)
	}

	// The page sees a holder element, and nothing of the question.
	var seen struct {
		HTML bool
		Read string
	}
	if err := d.Eval(ctx, page, `(() => {
		let read = "";
		try { read = window.frames[0].document.body.innerText; } catch (e) { read = "refused: " + e.name; }
		return {HTML: document.documentElement.outerHTML.includes("agent wants"), Read: read};
	})()`, &seen); err != nil {
		t.Fatal(err)
	}
	if seen.HTML || !strings.HasPrefix(seen.Read, "refused") {
		t.Errorf("the page sees the question: %+v", seen)
	}

	// The agent cannot answer: not by a click on Allow, nor anything else
	// on the tab.
	allow := buttonPoint(t, ctx, page, frame, "allow")
	for _, in := range []map[string]any{
		{"action": "click", "tabId": tab, "x": allow.X, "y": allow.Y},
		{"action": "extract", "tabId": tab},
		{"action": "press", "tabId": tab, "keys": "Enter"},
	} {
		if msg := failCode(t, in, protocol.CodeHandoffInProgress); !strings.Contains(msg, "Place order") {
			t.Errorf("%v: %s", in["action"], msg)
		}
	}
	if orders.Load() != before {
		t.Fatal("the form was submitted before the user allowed it")
	}

	// The extension's page shows the question, with its own buttons.
	ext, target, err := d.Open(ctx, extURL("ui/popup.html"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		d.Call(ctxFor(t, 5*time.Second), "", "Target.closeTarget", map[string]any{"targetId": target}, nil)
	})
	waitPage(t, ext, `!document.getElementById("handoffs").hidden && document.getElementById("handoffs").innerText.includes("Place order") && !!document.querySelector('[data-answer="allowed"]') && document.getElementById("pause-note").textContent.includes("asks you before")`)
	shot(t, ext, "extension-page-ask.png", 380)
	shot(t, page, "ask-overlay.png", 0)

	// The progress said what it waits for; the user allows.
	press(t, ctx, page, frame, "allow")
	r := result(t, ctx, call)
	if r.Err != nil {
		t.Fatalf("click after Allow: %s %s", r.Stdout, r.Stderr)
	}
	eventually(t, "orders placed after Allow", &orders, before+1)
}

// Decline fails the click with declined_by_user, and the form was not
// submitted; the overlay goes and the tab is free again. Enter in a
// field of the same form asks too (it presses the form's “Place order”),
// and no answer within the call's deadline is a no.
func TestAskDecline(t *testing.T) {
	ws := workspace(t, "ask-decline")
	tab := openPage(t, ws, "/shop?decline")
	setAsk(t, true)
	ctx := ctxFor(t, 90*time.Second)
	page := pageSession(t, ctx, site+"/shop?decline")
	before := orders.Load()
	call := startCall(t, map[string]any{"action": "click", "tabId": tab, "selector": "#place", "timeoutMs": 60000})
	frame := questionFrame(t, ctx, "“Place order”")
	press(t, ctx, page, frame, "decline")
	r := result(t, ctx, call)
	if msg := wantCode(t, r, protocol.CodeDeclinedByUser); !strings.Contains(msg, "declined") || !strings.Contains(msg, "Place order") {
		t.Errorf("declined: %s", msg)
	}
	time.Sleep(500 * time.Millisecond) // a submit would have posted by now
	if orders.Load() != before {
		t.Fatal("the form was submitted after Decline")
	}
	waitPage(t, page, `!`+browsertest.OverlayHolderJS)
	res := bridge.MustCall(t, map[string]any{"action": "extract", "tabId": tab})
	if !strings.HasSuffix(str(res, "url"), "/shop?decline") {
		t.Errorf("the tab moved: %v", str(res, "url"))
	}

	// Enter in the coupon field would press “Place order”: it asks, and
	// nobody answers.
	start := time.Now()
	call = startCall(t, map[string]any{"action": "press", "tabId": tab, "selector": "#coupon", "keys": "Enter", "timeoutMs": 8000})
	questionFrame(t, ctx, "“Place order”")
	r = result(t, ctx, call)
	if msg := wantCode(t, r, protocol.CodeDeclinedByUser); !strings.Contains(msg, "did not answer") {
		t.Errorf("no answer: %s", msg)
	}
	if took := time.Since(start); took > 12*time.Second {
		t.Errorf("an 8 s press took %s", took)
	}
	time.Sleep(500 * time.Millisecond)
	if orders.Load() != before {
		t.Fatal("Enter submitted the form without an answer")
	}
	waitPage(t, page, `!`+browsertest.OverlayHolderJS)
}

// A link to another site asks (and Decline leaves that site unvisited); a
// link on the same site and a plain button do not; a submit button that
// is no payment asks too, and the extension's page can answer it.
func TestAskLinks(t *testing.T) {
	ws := workspace(t, "ask-links")
	tab := openPage(t, ws, "/shop?links")
	setAsk(t, true)
	d := devtools(t)
	ctx := ctxFor(t, 120*time.Second)

	bridge.MustCall(t, map[string]any{"action": "click", "tabId": tab, "selector": "#more"})
	res := bridge.MustCall(t, map[string]any{"action": "click", "tabId": tab, "selector": "#same"})
	if !strings.HasSuffix(str(res, "url"), "/page2") {
		t.Fatalf("the same-site link: %v", res)
	}
	noQuestion(t)

	bridge.MustCall(t, map[string]any{"action": "open", "tabId": tab, "url": site + "/shop?links-away"})
	page := pageSession(t, ctx, site+"/shop?links-away")
	hits := otherHits.Load()
	call := startCall(t, map[string]any{"action": "click", "tabId": tab, "selector": "#away", "timeoutMs": 60000})
	frame := questionFrame(t, ctx, "localhost")
	var msg string
	d.Eval(ctx, frame, `document.getElementById("message").textContent`, &msg)
	if !strings.Contains(msg, "follow the link “A page on another site”") {
		t.Errorf("the question: %q", msg)
	}
	press(t, ctx, page, frame, "decline")
	wantCode(t, result(t, ctx, call), protocol.CodeDeclinedByUser)
	if otherHits.Load() != hits {
		t.Error("the other site was visited after Decline")
	}

	// A plain submit: answered on the extension's page.
	ext, target, err := d.Open(ctx, extURL("ui/popup.html"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		d.Call(ctxFor(t, 5*time.Second), "", "Target.closeTarget", map[string]any{"targetId": target}, nil)
	})
	sent := sends.Load()
	call = startCall(t, map[string]any{"action": "click", "tabId": tab, "selector": "#send", "timeoutMs": 60000})
	questionFrame(t, ctx, "“Send”")
	waitPage(t, ext, `!!document.querySelector('[data-answer="allowed"]')`)
	var b struct{ X, Y, W, H float64 }
	if err := d.Eval(ctx, ext, `(() => { const r = document.querySelector('[data-answer="allowed"]').getBoundingClientRect(); return {X: r.x, Y: r.y, W: r.width, H: r.height}; })()`, &b); err != nil {
		t.Fatal(err)
	}
	if err := d.Click(ctx, ext, b.X+b.W/2, b.Y+b.H/2); err != nil {
		t.Fatal(err)
	}
	if r := result(t, ctx, call); r.Err != nil {
		t.Errorf("allowed on the extension's page: %s %s", r.Stdout, r.Stderr)
	}
	eventually(t, "forms sent after Allow on the extension's page", &sends, sent+1)
}

// open asks before it loads another site into a tab, not before the
// workspace's own site; a new tab in a workspace that has none asks in the
// extension's own window.
func TestAskOpen(t *testing.T) {
	ws := workspace(t, "ask-open")
	tab := openPage(t, ws, "/shop?open")
	setAsk(t, true)
	d := devtools(t)
	ctx := ctxFor(t, 120*time.Second)
	page := pageSession(t, ctx, site+"/shop?open")
	hits := otherHits.Load()
	call := startCall(t, map[string]any{"action": "open", "tabId": tab, "url": other + "/x", "timeoutMs": 60000})
	frame := questionFrame(t, ctx, "for localhost")
	press(t, ctx, page, frame, "decline")
	wantCode(t, result(t, ctx, call), protocol.CodeDeclinedByUser)
	if otherHits.Load() != hits {
		t.Error("the other site was loaded after Decline")
	}

	// The workspace's own site: no question.
	res := bridge.MustCall(t, map[string]any{"action": "open", "url": site + "/page2?open", "browserWorkspaceId": ws})
	if str(res, "title") != "Page two" {
		t.Errorf("open on the workspace's site: %v", res)
	}
	noQuestion(t)

	// A workspace with no tab yet: the question has its own window.
	fresh := workspace(t, "ask-open-new")
	call = startCall(t, map[string]any{"action": "open", "url": other + "/new", "browserWorkspaceId": fresh, "timeoutMs": 60000})
	tgt, err := d.WaitTarget(ctx, "page", extURL("ui/ask.html?window=1"))
	if err != nil {
		t.Fatal(err)
	}
	win, err := d.Attach(ctx, tgt.TargetID)
	if err != nil {
		t.Fatal(err)
	}
	waitPage(t, win, `document.getElementById("message").textContent === "The agent wants to open localhost:`+strings.TrimPrefix(other, "http://localhost:")+`"`)
	var b struct{ X, Y, W, H float64 }
	if err := d.Eval(ctx, win, `(() => { const r = document.getElementById("allow").getBoundingClientRect(); return {X: r.x, Y: r.y, W: r.width, H: r.height}; })()`, &b); err != nil {
		t.Fatal(err)
	}
	if err := d.Click(ctx, win, b.X+b.W/2, b.Y+b.H/2); err != nil {
		t.Fatal(err)
	}
	r := result(t, ctx, call)
	if r.Err != nil || str(r.JSON, "title") != "Other site" || otherHits.Load() != hits+1 {
		t.Errorf("open after Allow in the window: %s %s", r.Stdout, r.Stderr)
	}
}

// The page script's facts, case by case, on a fixture page
// (testdata/irreversible.html): dom.js and irreversible.js are injected
// into the page's own world here, and each [data-expect] element checked.
func TestPageScriptFixture(t *testing.T) {
	ws := workspace(t, "ask-fixture")
	openPage(t, ws, "/irreversible")
	d := devtools(t)
	ctx := ctxFor(t, 60*time.Second)
	page := pageSession(t, ctx, site+"/irreversible")
	waitPage(t, page, `!!document.getElementById("same-frame").contentDocument?.querySelector("button")`)
	waitPage(t, page, `(() => { try { return document.getElementById("other-frame").contentDocument === null; } catch (e) { return true; } })()`)
	for _, f := range []string{"dom.js", "irreversible.js"} {
		src, err := os.ReadFile(filepath.Join("..", "..", "extension", "page", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Eval(ctx, page, string(src), nil); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	var cases []struct {
		HTML   string                     `json:"html"`
		Expect map[string]json.RawMessage `json:"expect"`
		Got    map[string]json.RawMessage `json:"got"`
	}
	if err := d.Eval(ctx, page, `(() => {
		const bb = globalThis.__bb;
		const out = [];
		for (const el of document.querySelectorAll("[data-expect]")) {
			let got;
			if (el.hasAttribute("data-at")) {
				const target = document.getElementById(el.dataset.target);
				target.scrollIntoView({ block: "center" });
				const r = target.getBoundingClientRect();
				got = bb.irreversibleAt({ x: r.x + Math.min(r.width / 2, 20), y: r.y + r.height / 2, how: "click" });
			} else {
				got = bb.irreversible({ ref: bb.refFor(el), how: el.dataset.how || "click" });
			}
			out.push({ html: el.outerHTML.slice(0, 120), expect: JSON.parse(el.dataset.expect), got });
		}
		out.push({ html: "a link in a closed shadow root", expect: { href: "https://partner.example/shadow", tag: "a" }, got: bb.irreversible({ ref: bb.refFor(window.shadowLink), how: "click" }) });
		document.getElementById("field").focus();
		out.push({ html: "Enter in the focused field", expect: { submits: true, label: "Place order" }, got: bb.irreversible({ how: "enter" }) });
		document.activeElement.blur();
		out.push({ html: "nothing focused", expect: { found: false }, got: bb.irreversible({ how: "enter" }) });
		return out;
	})()`, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 25 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, c := range cases {
		for k, want := range c.Expect {
			var w, g any
			json.Unmarshal(want, &w)
			json.Unmarshal(c.Got[k], &g)
			if g == nil {
				g = map[string]any{"submits": false, "download": false, "opaque": false, "found": false}[k]
			}
			if !reflect.DeepEqual(w, g) {
				all, _ := json.Marshal(c.Got)
				t.Errorf("%s: %s = %s, want %s (all: %s)", c.HTML, k, c.Got[k], want, all)
			}
		}
	}
}

// shot saves a PNG of the page (browsertest.DevTools.Shot).
func shot(t *testing.T, page, name string, width int) {
	t.Helper()
	devtools(t).Shot(t, page, name, width)
}
