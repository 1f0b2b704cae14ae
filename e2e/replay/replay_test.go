// Package replay tests each workspace's timeline (docs/cli.md, "replay")
// against a real Chromium with the real extension, host and daemon: the
// steps and their pictures, the HTML and GIF written from them, the masks,
// and what is never pictured.
package replay

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
	"github.com/browser-bridge/browser-bridge/internal/paths"
	"github.com/browser-bridge/browser-bridge/internal/replay"
)

var bridge *browsertest.Bridge

func TestMain(m *testing.M) {
	os.Exit(browsertest.MainWithDevTools(m, &bridge))
}

// store is the daemon's folder of timelines, read as replay does.
func store() *replay.Store { return replay.New(paths.ForHome(bridge.Home)) }

// steps waits until workspace ws's timeline has n steps (the daemon
// records them after the replies) and returns them.
func steps(t *testing.T, ws string, n int) []replay.Entry {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		tl, err := store().Read(ws)
		if err == nil && len(tl.Entries) >= n {
			return tl.Entries
		}
		if time.Now().After(deadline) {
			t.Fatalf("workspace %s has %d steps (%v), want %d", ws, len(tl.Entries), err, n)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// serve serves page at / for the test's life.
func serve(t *testing.T, page string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

const form = `<!doctype html><title>Sign up</title><body style="margin:20px">
<p><label>Name <input id="name"></label></p>
<p><button id="go" onclick="document.getElementById('out').textContent='Sent'">Send</button></p>
<p id="out"></p><div style="height:3000px"></div></body>`

// A five-step task leaves five steps, each pictured; the HTML replay
// holds the five pictures and loads nothing; the GIF has a frame a step;
// closing the workspace deletes its timeline.
func TestFiveStepsMakeAReplay(t *testing.T) {
	url := serve(t, form)
	ws := "replay-five"
	store().Delete(ws)
	tab := bridge.OpenIn(t, ws, url)
	// Pictures are taken while the agent pauses (an agent thinks between
	// its steps): each step waits for the last one's.
	waitPictured(t, ws, 1)
	for i, in := range []map[string]any{
		{"action": "type", "tabId": tab, "label": "Name", "value": "Ada"},
		{"action": "click", "tabId": tab, "role": "button", "name": "Send"},
		{"action": "press", "tabId": tab, "keys": "Tab"},
		{"action": "scroll", "tabId": tab, "to": "bottom"},
	} {
		bridge.MustCall(t, in)
		waitPictured(t, ws, i+2)
	}
	es := steps(t, ws, 5)
	var actions []string
	for _, e := range es {
		actions = append(actions, e.Action)
		if e.Code != "" || e.Session != "session:cli" || e.TabID != tab {
			t.Errorf("step %+v", e)
		}
	}
	if got := strings.Join(actions, " "); got != "open type click press scroll" {
		t.Fatalf("steps %q", got)
	}
	if es[1].Target != `label "Name"` || strings.Contains(fmt.Sprint(es), "Ada") {
		t.Errorf("type's target %q (the typed value must not be kept)", es[1].Target)
	}
	// The pictures are taken after the replies: wait for the last one.
	deadline := time.Now().Add(10 * time.Second)
	for pictured(es) < 5 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		es = steps(t, ws, 5)
	}
	if n := pictured(es); n != 5 {
		t.Fatalf("%d of 5 steps pictured", n)
	}
	img, err := jpeg.Decode(bytes.NewReader(store().Image(es[0])))
	if err != nil || img.Bounds().Dx() != 480 {
		t.Fatalf("picture: %v %v", err, img)
	}
	// Kept privately.
	filepath.Walk(store().Dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s is %v", p, info.Mode().Perm())
		}
		return nil
	})

	dir := t.TempDir()
	out := filepath.Join(dir, "run.html")
	r := bridge.Run(t, "replay", "--workspace", ws, "--out", out)
	if r.Exit != 0 {
		t.Fatalf("replay: %s %s", r.Stdout, r.Stderr)
	}
	page, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(page, []byte(`<img alt="" src="data:image/jpeg;base64,`)); n != 5 {
		t.Errorf("the HTML holds %d pictures, want 5", n)
	}
	if !bytes.Contains(page, []byte(`http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; img-src data:;`)) {
		t.Errorf("the HTML has no policy that forbids loads")
	}
	for _, m := range regexp.MustCompile(`(?i)\b(src|href|action|srcset|poster)\s*=\s*"([^"]*)"`).FindAllSubmatch(page, -1) {
		if !bytes.HasPrefix(m[2], []byte("data:image/jpeg;base64,")) {
			t.Errorf("the HTML loads %s", m[0])
		}
	}
	// Opened in the browser from a file: URL, it asks for nothing.
	viewer := bridge.Workspace(t, "replay-viewer")
	vtab := bridge.OpenIn(t, viewer, "file://"+out)
	net := bridge.MustCall(t, map[string]any{"action": "network", "tabId": vtab})
	reqs, _ := net["requests"].([]any)
	for _, q := range reqs {
		u := fmt.Sprint(q.(map[string]any)["url"])
		if !strings.HasPrefix(u, "file:") && !strings.HasPrefix(u, "data:") {
			t.Errorf("the replay page asked for %s", u)
		}
	}

	gifOut := filepath.Join(dir, "run.gif")
	if r := bridge.Run(t, "replay", "--workspace", ws, "--out", gifOut); r.Exit != 0 {
		t.Fatalf("replay gif: %s %s", r.Stdout, r.Stderr)
	}
	f, err := os.Open(gifOut)
	if err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(f)
	f.Close()
	if err != nil || len(g.Image) < 5 {
		t.Fatalf("GIF: %v, %d frames", err, len(g.Image))
	}

	// --list names it; closing the workspace deletes it.
	if r := bridge.Run(t, "replay", "--list"); !strings.Contains(string(r.Stdout), `"workspace": "`+ws+`"`) {
		t.Errorf("--list: %s", r.Stdout)
	}
	bridge.MustCall(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws})
	deadline = time.Now().Add(10 * time.Second)
	for {
		if _, err := store().Read(ws); err == replay.ErrNoTimeline {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("closeWorkspace left the timeline")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// keepReplays keeps the timeline of a closed workspace; replay --clear
// deletes every timeline.
func TestKeepReplaysAndClear(t *testing.T) {
	url := serve(t, form)
	ws := "replay-keep"
	bridge.OpenIn(t, ws, url)
	steps(t, ws, 1)
	bridge.MustCall(t, map[string]any{"action": "close", "closeWorkspace": true, "keepReplays": true, "browserWorkspaceId": ws})
	steps(t, ws, 1)
	time.Sleep(300 * time.Millisecond) // the close's own step, recorded or not, deletes nothing
	if _, err := store().Read(ws); err != nil {
		t.Fatalf("keepReplays: %v", err)
	}
	if r := bridge.Run(t, "replay", "--clear"); r.Exit != 0 {
		t.Fatalf("clear: %s", r.Stdout)
	}
	if sums, _ := store().List(); len(sums) != 0 {
		t.Fatalf("left after --clear: %+v", sums)
	}
}

// waitPictured waits until workspace ws has n steps, the last pictured.
func waitPictured(t *testing.T, ws string, n int) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		es := steps(t, ws, n)
		if es[n-1].Image != "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("step %d of %s was not pictured: %+v", n, ws, es[n-1])
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func pictured(es []replay.Entry) int {
	n := 0
	for _, e := range es {
		if e.Image != "" {
			n++
		}
	}
	return n
}

// A typed password is masked in the picture: a text field the page
// marks as a password (as a "show password" toggle does) looks, once
// pictured, like a real password field holding the same text, and not
// like a plain field holding it.
func TestPasswordIsMaskedInPictures(t *testing.T) {
	const secret = "WWWWWWWWWW"
	style := "position:absolute;left:0;width:50vw;height:10vh;font:8vh monospace;border:0;padding:0;margin:0;outline:0;background:#fff;color:#000"
	page := fmt.Sprintf(`<!doctype html><title>Login</title><body style="margin:0;background:#fff">
<label for="pw" style="position:absolute;left:60vw;top:0">Password</label>
<input id="pw" type="text" autocomplete="current-password" style="%[1]s;top:0">
<input id="ref" type="password" value="%[2]s" style="%[1]s;top:30vh">
<input id="plain" value="%[2]s" style="%[1]s;top:60vh">`, style, secret)
	url := serve(t, page)
	ws := bridge.Workspace(t, "replay-mask")
	tab := bridge.OpenIn(t, ws, url)
	bridge.MustCall(t, map[string]any{"action": "type", "tabId": tab, "selector": "#pw", "value": secret})
	deadline := time.Now().Add(15 * time.Second)
	var es []replay.Entry
	for {
		es = steps(t, ws, 2)
		if es[1].Image != "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the type step was not pictured: %+v", es[1])
		}
		time.Sleep(50 * time.Millisecond)
	}
	img, err := jpeg.Decode(bytes.NewReader(store().Image(es[1])))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	band := func(top float64) image.Rectangle {
		return image.Rect(0, b.Min.Y+int(top*float64(b.Dy())), b.Dx()/2, b.Min.Y+int((top+0.1)*float64(b.Dy())))
	}
	pw, ref, plain := crop(img, band(0)), crop(img, band(0.3)), crop(img, band(0.6))
	dRef, dPlain := diff(pw, ref), diff(pw, plain)
	t.Logf("password field vs password reference %.1f, vs plain text %.1f", dRef, dPlain)
	if dRef > dPlain/2 || dPlain < 8 {
		t.Errorf("the typed password looks like clear text in the picture (difference to a password field %.1f, to clear text %.1f)", dRef, dPlain)
	}
	// Every other picture of the workspace: none shows it in clear either
	// (the open's picture was taken before anything was typed).
}

// A step on a tab the user opened, and one on a page the site rules deny,
// leave no picture.
func TestNoPictureOfUserTabsOrDeniedPages(t *testing.T) {
	// The session's older steps may drop out under the bounds meanwhile:
	// this test's steps are told by their time, not their place.
	start := time.Now()
	user := usersTab(t, serve(t, form))
	bridge.MustCall(t, map[string]any{"action": "scroll", "tabId": user, "to": "bottom"})

	// A denied page: the bridge's own tab, denied after it opened.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>Bank</title><h1>Balance</h1><div style="height:3000px"></div>`)
	}))
	t.Cleanup(srv.Close)
	ws := bridge.Workspace(t, "replay-denied")
	tab := bridge.OpenIn(t, ws, srv.URL+"/")
	host := strings.TrimPrefix(srv.URL, "http://")
	if r := bridge.Run(t, "policy", "deny", host); r.Exit != 0 {
		t.Fatalf("policy deny: %s", r.Stdout)
	}
	t.Cleanup(func() { bridge.Run(t, "policy", "remove", host) })
	r := bridge.Call(t, map[string]any{"action": "scroll", "tabId": tab, "to": "bottom"})
	if r.Err == nil {
		t.Logf("scroll of a denied page was let through: %s", r.Stdout)
	}
	es := steps(t, ws, 2)
	// Give the recorder time to take a picture it should not take.
	time.Sleep(time.Second)
	es = steps(t, ws, 2)
	if es[1].Image != "" {
		t.Errorf("the denied page was pictured: %+v", es[1])
	}
	after, _ := store().Session("session:cli")
	var mine []replay.Entry
	for _, e := range after.Entries {
		if !e.Time.Before(start) {
			mine = append(mine, e)
		}
	}
	for _, e := range mine {
		if e.TabID == user && e.Image != "" {
			t.Errorf("the user's tab was pictured: %+v", e)
		}
	}
	found := false
	for _, e := range mine {
		found = found || e.TabID == user && e.Action == "scroll"
	}
	if !found {
		t.Errorf("the step on the user's tab is not in the timeline: %+v", mine)
	}
}

// usersTab opens url in a tab of the user's own (through the test's
// DevTools, not the bridge), in a window of its own, and returns its
// tabId once status lists it.
func usersTab(t *testing.T, url string) int {
	t.Helper()
	ctx := browsertest.Ctx(t, 30*time.Second)
	d := bridge.SharedDevTools(t)
	_, target, err := d.OpenWindow(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		d.Call(browsertest.Ctx(t, 5*time.Second), "", "Target.closeTarget", map[string]any{"targetId": target}, nil)
	})
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		for _, tm := range browsertest.StatusTabs(bridge.MustCall(t, map[string]any{"action": "status"})) {
			if tm["url"] == url && tm["owned"] == false {
				return int(tm["tabId"].(float64))
			}
		}
	}
	t.Fatalf("the user's tab at %s is not in status", url)
	return 0
}

func crop(img image.Image, r image.Rectangle) image.Image {
	return img.(interface {
		SubImage(image.Rectangle) image.Image
	}).SubImage(r.Add(img.Bounds().Min))
}

// diff is the mean absolute difference of two same-sized images' grey
// levels (0–255), compared from their top left corners.
func diff(a, b image.Image) float64 {
	ab, bb := a.Bounds(), b.Bounds()
	w, h := min(ab.Dx(), bb.Dx()), min(ab.Dy(), bb.Dy())
	var sum, n float64
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			ar, ag, abl, _ := a.At(ab.Min.X+x, ab.Min.Y+y).RGBA()
			br, bg, bbl, _ := b.At(bb.Min.X+x, bb.Min.Y+y).RGBA()
			ga, gb := float64(ar+ag+abl)/3/257, float64(br+bg+bbl)/3/257
			if ga > gb {
				sum += ga - gb
			} else {
				sum += gb - ga
			}
			n++
		}
	}
	return sum / n
}

// The workspace's own page (ui/workspace.html) shows its timeline as a
// strip of thumbnails, newest last, small enough for the native link;
// clicking one shows that step with its picture, the arrow keys step on,
// and a new step joins the strip without a reload.
func TestWorkspacePageShowsTheStrip(t *testing.T) {
	url := serve(t, form)
	ws := bridge.Workspace(t, "replay-strip")
	store().Delete(ws)
	tab := bridge.OpenIn(t, ws, url)
	waitPictured(t, ws, 1)
	bridge.MustCall(t, map[string]any{"action": "click", "tabId": tab, "role": "button", "name": "Send"})
	waitPictured(t, ws, 2)
	bridge.MustCall(t, map[string]any{"action": "scroll", "tabId": tab, "to": "bottom"})
	waitPictured(t, ws, 3)

	d := bridge.SharedDevTools(t)
	ctx := browsertest.Ctx(t, 60*time.Second)
	// The workspace's page is titled after its tab group, the workspace.
	s := workspacePage(t, d, ctx, ws)
	// The user looks at the page: it shows what the daemon keeps.
	if err := d.Call(ctx, s, "Page.bringToFront", nil, nil); err != nil {
		t.Fatal(err)
	}
	d.WaitPage(t, s, `document.querySelectorAll("#strip li").length === 3`)
	var strip struct {
		Labels []string `json:"labels"`
		Thumbs []int    `json:"thumbs"`
	}
	if err := d.Eval(ctx, s, `({labels: [...document.querySelectorAll("#strip li span")].map((e) => e.textContent),
		thumbs: [...document.querySelectorAll("#strip li img")].map((e) => e.src.startsWith("data:image/jpeg;base64,") ? e.src.length : -1)})`, &strip); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(strip.Labels) != "[open click scroll]" {
		t.Errorf("the strip shows %v, want open click scroll, newest last", strip.Labels)
	}
	if len(strip.Thumbs) != 3 {
		t.Errorf("the strip has %d thumbnails, want 3", len(strip.Thumbs))
	}
	for _, n := range strip.Thumbs {
		if n < 0 || n > 20_000 {
			t.Errorf("a thumbnail is %d characters of data: URL, want a small JPEG", n)
		}
	}

	// Clicking the second shows that step, with its picture.
	d.Eval(ctx, s, `document.querySelectorAll("#strip button")[1].click()`, nil)
	d.WaitPage(t, s, `!document.getElementById("step").hidden && document.getElementById("step-action").textContent === "click" &&
		document.getElementById("step-target").textContent === 'role button name "Send"' &&
		document.getElementById("step-outcome").textContent === "ok" &&
		document.getElementById("step-img").src.startsWith("data:image/jpeg;base64,")`)
	var width int
	d.Eval(ctx, s, `new Promise((ok) => { const i = document.getElementById("step-img"); i.decode().then(() => ok(i.naturalWidth), () => ok(0)); })`, &width)
	if width != 480 {
		t.Errorf("the step's picture is %d px wide, want the 480 px capture", width)
	}
	for _, key := range []struct {
		name string
		code int
		want string
	}{{"ArrowRight", 39, "scroll"}, {"ArrowLeft", 37, "click"}} {
		for _, typ := range []string{"keyDown", "keyUp"} {
			d.Call(ctx, s, "Input.dispatchKeyEvent", map[string]any{"type": typ, "key": key.name, "code": key.name, "windowsVirtualKeyCode": key.code}, nil)
		}
		d.WaitPage(t, s, `document.getElementById("step-action").textContent === `+browsertest.JSString(key.want)+
			` && document.querySelector('#strip button[aria-current="true"] span').textContent === `+browsertest.JSString(key.want))
	}
	d.Shot(t, s, "workspace-strip.png", 1000)

	// A new step joins the strip, last.
	bridge.MustCall(t, map[string]any{"action": "press", "tabId": tab, "keys": "Tab"})
	steps(t, ws, 4)
	// The agent's action, or its picture, may bring its tab forward: a
	// page the user does not see asks for nothing, and asks once seen
	// again, so the test keeps looking at it.
	var got string
	for deadline := time.Now().Add(20 * time.Second); got != "open click scroll press"; {
		if time.Now().After(deadline) {
			var hidden bool
			d.Eval(ctx, s, "document.hidden", &hidden)
			t.Fatalf("after a fourth step the strip shows %q (page hidden: %v), want open click scroll press", got, hidden)
		}
		d.Call(ctx, s, "Page.bringToFront", nil, nil)
		time.Sleep(500 * time.Millisecond)
		d.Eval(ctx, s, `[...document.querySelectorAll("#strip li span")].map((e) => e.textContent).join(" ")`, &got)
	}
}

// The strip holds the newest 100 steps of a workspace that runs long:
// the page does not grow without end (an hour's soak found it at 8,100
// elements), and "Older" reaches the rest.
func TestTheStripHoldsTheNewestHundred(t *testing.T) {
	url := serve(t, form)
	ws := bridge.Workspace(t, "replay-strip-cap")
	store().Delete(ws)
	tab := bridge.OpenIn(t, ws, url)
	d := bridge.SharedDevTools(t)
	ctx := browsertest.Ctx(t, 180*time.Second)
	s := workspacePage(t, d, ctx, ws)
	// Steps come slower than a refresh's page of 20 every 3 s, and the
	// page is kept in view: the strip adds them one refresh after another.
	for i := range 110 {
		d.Call(ctx, s, "Page.bringToFront", nil, nil)
		bridge.MustCall(t, map[string]any{"action": "scroll", "tabId": tab, "to": []string{"bottom", "top"}[i%2]})
		time.Sleep(150 * time.Millisecond)
	}
	steps(t, ws, 111)
	var n int
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(500 * time.Millisecond) {
		d.Call(ctx, s, "Page.bringToFront", nil, nil)
		var last string
		d.Eval(ctx, s, `document.querySelectorAll("#strip li").length`, &n)
		d.Eval(ctx, s, `document.querySelector("#strip li:last-child button")?.dataset.seq || ""`, &last)
		if last == "110" || time.Now().After(deadline) {
			break
		}
	}
	if n != 100 {
		t.Errorf("after 111 steps the strip holds %d, want the newest 100", n)
	}
	var olderShown bool
	d.Eval(ctx, s, `!document.getElementById("older").hidden`, &olderShown)
	if !olderShown {
		t.Errorf("the strip holds the newest 100 of 111 steps but offers no Older")
	}
}

// workspacePage attaches to workspace ws's own page, found by its title
// (its tab group's label), and returns the session.
func workspacePage(t *testing.T, d *browsertest.DevTools, ctx context.Context, ws string) string {
	t.Helper()
	var page browsertest.Target
	for page.TargetID == "" {
		targets, err := d.Targets(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, tgt := range targets {
			if tgt.Type == "page" && tgt.URL == bridge.ExtensionURL("ui/workspace.html") && tgt.Title == ws+" · Browser Bridge workspace" {
				page = tgt
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	s, err := d.Attach(ctx, page.TargetID)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A dialog the page opens after a step, before the step's picture, is
// left for the agent: the picture answers nothing (it gives up instead),
// and the agent's next action answers the dialog and says so. A picture
// that answered it would hide it from the agent and from the user.
func TestAPictureLeavesADialogToTheAgent(t *testing.T) {
	url := serve(t, `<!doctype html><title>Later</title><body style="height:3000px"><p>A page with a timer</p>`)
	ws := bridge.Workspace(t, "replay-dialog")
	tab := bridge.OpenIn(t, ws, url)
	waitPictured(t, ws, 1)
	d := bridge.SharedDevTools(t)
	ctx := browsertest.Ctx(t, 60*time.Second)
	s := d.PageSession(t, ctx, url)
	bridge.MustCall(t, map[string]any{"action": "scroll", "tabId": tab, "to": "bottom"})
	// Right after the reply, within the quiet the picture waits for, the
	// page's timer shows an alert.
	if err := d.Eval(ctx, s, `setTimeout(() => alert("for the agent")); true`, nil); err != nil {
		t.Fatal(err)
	}
	if es := steps(t, ws, 2); es[1].Image != "" {
		t.Errorf("the scroll was pictured through the alert: the picture answered it")
	}
	r := bridge.MustCall(t, map[string]any{"action": "scroll", "tabId": tab, "to": "top", "timeoutMs": 15000})
	if !strings.Contains(fmt.Sprint(r["warnings"]), `alert dialog ("for the agent")`) {
		t.Fatalf("the agent's next action did not report the alert: %v", r)
	}
}
