package nav

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
)

// reload loads the page again: the page's own count of its loads goes up,
// and the result is the tab once loaded.
func TestReloadRaisesTheLoadCount(t *testing.T) {
	ws := workspace(t)
	tab := bridge.OpenIn(t, ws, site+"/count")
	if got := str(call(t, map[string]any{"action": "extract", "tabId": tab, "include": []string{"text"}}), "text"); !strings.Contains(got, "loads 1") {
		t.Fatalf("the first load shows %q, want loads 1", got)
	}
	res := call(t, map[string]any{"action": "reload", "tabId": tab})
	if num(t, res, "tabId") != tab || str(res, "title") != "loads 2" || str(res, "url") != site+"/count" {
		t.Fatalf("reload answered %v, want tab %d at /count titled loads 2", res, tab)
	}
	res = call(t, map[string]any{"action": "reload", "tabId": tab, "bypassCache": true})
	if str(res, "title") != "loads 3" {
		t.Fatalf("reload with bypassCache answered %v, want title loads 3", res)
	}
}

// A page that asks "leave page?" keeps reload from happening unless the
// call says to accept: the answer comes soon after the dialog is
// dismissed, saying so, not at the deadline.
func TestReloadOfAPageThatAsksToStay(t *testing.T) {
	ws := workspace(t)
	tab := bridge.OpenIn(t, ws, site+"/leave")
	// Chrome asks only on a page someone interacted with.
	call(t, map[string]any{"action": "click", "tabId": tab, "selector": "#b"})
	start := time.Now()
	r := bridge.Call(t, map[string]any{"action": "reload", "tabId": tab})
	if r.Err != nil || !strings.Contains(string(r.Stdout), "asked to stay") || !strings.Contains(string(r.Stdout), `"title": "loads 1"`) {
		t.Fatalf("reload of a page that asks to stay answered %s (err %v); want the page as it was and a warning that it asked to stay", r.Stdout, r.Err)
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("the refused reload took %v", d)
	}
	t.Logf("refused reload: %v", time.Since(start).Round(time.Millisecond))
	res := call(t, map[string]any{"action": "reload", "tabId": tab, "dialog": "accept"})
	if str(res, "title") != "loads 2" {
		t.Fatalf("reload with dialog accept answered %v, want title loads 2", res)
	}
}

// back and forward move between two pages, each answering once the page
// is there; a step within the document (a #fragment) answers too, with no
// load to wait for.
func TestBackAndForward(t *testing.T) {
	ws := workspace(t)
	tab := bridge.OpenIn(t, ws, site+"/a")
	call(t, map[string]any{"action": "open", "tabId": tab, "url": site + "/b"})
	call(t, map[string]any{"action": "open", "tabId": tab, "url": site + "/b#frag"})

	steps := []struct {
		action, url, title string
	}{
		{"back", site + "/b", "Page B"}, // within the document
		{"back", site + "/a", "Page A"}, // another document, perhaps from the back/forward cache
		{"forward", site + "/b", "Page B"},
		{"forward", site + "/b#frag", "Page B"},
		{"back", site + "/b", "Page B"},
	}
	for _, s := range steps {
		start := time.Now()
		res := call(t, map[string]any{"action": s.action, "tabId": tab})
		if str(res, "url") != s.url || str(res, "title") != s.title || num(t, res, "tabId") != tab {
			t.Fatalf("%s answered %v, want %s titled %s", s.action, res, s.url, s.title)
		}
		if w, ok := res["warnings"]; ok {
			t.Errorf("%s to %s warned %v", s.action, s.url, w)
		}
		t.Logf("%s to %s: %v", s.action, s.url, time.Since(start).Round(time.Millisecond))
	}
}

// A page restored from the back/forward cache (its script does not run
// again, so its own count of loads stays at 1) never goes through
// "loading": back answers as soon as it is shown, not at its deadline.
func TestBackToAPageFromTheCache(t *testing.T) {
	ws := workspace(t)
	tab := bridge.OpenIn(t, ws, site+"/count")
	call(t, map[string]any{"action": "open", "tabId": tab, "url": site + "/b"})
	for _, s := range []struct{ action, title string }{{"back", "loads 1"}, {"forward", "Page B"}, {"back", "loads 1"}} {
		start := time.Now()
		res := call(t, map[string]any{"action": s.action, "tabId": tab, "timeoutMs": 10000})
		if str(res, "title") != s.title {
			t.Fatalf("%s answered %v, want title %q (%q after back: the page came from the back/forward cache)", s.action, res, s.title, "loads 1")
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("%s took %v", s.action, d)
		}
	}
}

// With no page to go to, back and forward are invalid_argument, saying so,
// and answer at once.
func TestNoHistoryStepIsAClearError(t *testing.T) {
	ws := workspace(t)
	tab := bridge.OpenIn(t, ws, site+"/a")
	start := time.Now()
	msg := bridge.MustFail(t, map[string]any{"action": "back", "tabId": tab}, "invalid_argument")
	if !strings.Contains(msg, "no page to go back to") {
		t.Errorf("back with no history says %q; want it to say there is no page to go back to", msg)
	}
	msg = bridge.MustFail(t, map[string]any{"action": "forward", "tabId": tab}, "invalid_argument")
	if !strings.Contains(msg, "no page to go forward to") {
		t.Errorf("forward with no history says %q", msg)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the two refusals took %v", d)
	}
}

// A page that never finishes loading does not hold reload past its
// deadline: the answer comes, saying the page is still loading.
func TestReloadOfAPageThatNeverLoads(t *testing.T) {
	ws := workspace(t)
	tab := num(t, call(t, map[string]any{"action": "open", "url": site + "/slow", "browserWorkspaceId": ws, "timeoutMs": 6000}), "tabId")
	start := time.Now()
	r := bridge.Call(t, map[string]any{"action": "reload", "tabId": tab, "timeoutMs": 4000})
	took := time.Since(start)
	if took > 8*time.Second {
		t.Fatalf("reload of a page that never loads took %v with timeoutMs 4000", took)
	}
	if r.Err != nil {
		t.Fatalf("reload failed: %v %s", r.Err, r.Stdout)
	}
	if !strings.Contains(string(r.Stdout), "had not finished loading") {
		t.Errorf("reload of a page that never loads answered %s; want a warning that it is still loading", r.Stdout)
	}
}

// activate makes a background tab the active one of its window; status
// says so.
func TestActivate(t *testing.T) {
	ws := workspace(t)
	first := bridge.OpenIn(t, ws, site+"/a")
	second := bridge.OpenIn(t, ws, site+"/b")
	if !activeInStatus(t, second) || activeInStatus(t, first) {
		t.Fatalf("after two opens, the second tab should be the active one")
	}
	focused := focusedWindows(t)
	res := call(t, map[string]any{"action": "activate", "tabId": first})
	if num(t, res, "tabId") != first || num(t, res, "windowId") == 0 {
		t.Fatalf("activate answered %v", res)
	}
	if !activeInStatus(t, first) || activeInStatus(t, second) {
		t.Fatalf("after activate, status does not show tab %d as the active one", first)
	}
	if after := focusedWindows(t); after != focused {
		t.Errorf("activate moved the focus: focused windows %s before, %s after", focused, after)
	}
}

// focusedWindows lists the windows status says are focused.
func focusedWindows(t *testing.T) string {
	t.Helper()
	var out []string
	ws, _ := call(t, map[string]any{"action": "status"})["windows"].([]any)
	for _, w := range ws {
		if wm, _ := w.(map[string]any); wm["focused"] == true {
			out = append(out, fmt.Sprint(wm["windowId"]))
		}
	}
	return strings.Join(out, ",")
}

// activeInStatus says whether status lists the tab as its window's
// active tab.
func activeInStatus(t *testing.T, tab int) bool {
	t.Helper()
	for _, tm := range statusTabs(t) {
		if num(t, tm, "tabId") == tab {
			return tm["active"] == true
		}
	}
	t.Fatalf("status does not list tab %d", tab)
	return false
}

// viewport lays the page out at the size asked for, as the page itself
// sees it (innerWidth, a media query); the size holds after the
// debugger's idle detach (5 s), and reset gives the window's size back.
func TestViewport(t *testing.T) {
	ws := workspace(t)
	tab := bridge.OpenIn(t, ws, site+"/size")
	before := pageText(t, tab)
	if strings.Contains(before, "narrow screen") || !strings.Contains(before, "innerWidth=") {
		t.Fatalf("before viewport the page shows %q", before)
	}
	res := call(t, map[string]any{"action": "viewport", "tabId": tab, "width": 500, "height": 400})
	if num(t, res, "width") != 500 || num(t, res, "height") != 400 || res["emulated"] != true {
		t.Fatalf("viewport answered %v", res)
	}
	want := "innerWidth=500 innerHeight=400"
	if got := pageText(t, tab); !strings.Contains(got, want) || !strings.Contains(got, "narrow screen") {
		t.Fatalf("after viewport the page shows %q, want %q and the narrow-screen rule", got, want)
	}
	// The extension detaches an idle debugger after 5 s; the override
	// must outlast that.
	time.Sleep(7 * time.Second)
	if got := pageText(t, tab); !strings.Contains(got, want) {
		t.Fatalf("7 s later (past the idle detach) the page shows %q, want %q", got, want)
	}
	shot := call(t, map[string]any{"action": "screenshot", "tabId": tab, "mode": "viewport"})
	if w := num(t, shot, "width"); w != 500 {
		t.Errorf("a viewport screenshot is %d px wide, want 500", w)
	}
	call(t, map[string]any{"action": "viewport", "tabId": tab, "reset": true})
	after := pageText(t, tab)
	if strings.Contains(after, want) || strings.Contains(after, "narrow screen") || firstLine(after) != firstLine(before) {
		t.Fatalf("after reset the page shows %q, want what it showed before: %q", after, before)
	}
}

// A mobile viewport is a phone's: the page sees touch events, a coarse
// pointer and the pixel ratio asked for, and the answer reports that
// ratio; reset takes the touch screen away again.
func TestViewportMobileHasTouch(t *testing.T) {
	ws := workspace(t)
	tab := bridge.OpenIn(t, ws, site+"/touch")
	if got := pageText(t, tab); !strings.Contains(got, "touch=false coarse=false") {
		t.Fatalf("before viewport the page shows %q", got)
	}
	res := call(t, map[string]any{"action": "viewport", "tabId": tab, "width": 390, "height": 844, "mobile": true, "deviceScaleFactor": 3})
	if res["deviceScaleFactor"] != 3.0 || res["touch"] != true {
		t.Errorf("viewport answered %v, want deviceScaleFactor 3 and touch", res)
	}
	// The pointer is coarse at once (the page checks it on resize);
	// touch events are offered to documents made after the change.
	if got, want := pageText(t, tab), "coarse=true dpr=3"; !strings.Contains(got, want) {
		t.Errorf("the page shows %q, want %q before a reload", got, want)
	}
	call(t, map[string]any{"action": "open", "tabId": tab, "url": site + "/touch"})
	if got, want := pageText(t, tab), "touch=true coarse=true dpr=3"; !strings.Contains(got, want) {
		t.Errorf("a mobile viewport's page shows %q, want %q", got, want)
	}
	res = call(t, map[string]any{"action": "viewport", "tabId": tab, "reset": true})
	if res["touch"] == true {
		t.Errorf("after reset viewport answered %v, want no touch", res)
	}
	call(t, map[string]any{"action": "open", "tabId": tab, "url": site + "/touch"})
	if got := pageText(t, tab); !strings.Contains(got, "touch=false coarse=false") {
		t.Errorf("after reset the page shows %q", got)
	}
}

// Sizes outside 200–4,000 px are invalid_argument, and nothing changes.
func TestViewportRefusesBadSizes(t *testing.T) {
	ws := workspace(t)
	tab := bridge.OpenIn(t, ws, site+"/size")
	for _, in := range []map[string]any{
		{"width": 199, "height": 400},
		{"width": 500, "height": 4001},
		{"width": 500},
		{"width": 500, "height": 400, "deviceScaleFactor": 0},
		{"reset": true, "width": 500},
	} {
		in["action"], in["tabId"] = "viewport", tab
		msg := bridge.MustFail(t, in, "invalid_argument")
		if !strings.Contains(msg, "between 200 and 4000") && !strings.Contains(msg, "deviceScaleFactor") && !strings.Contains(msg, "reset") {
			t.Errorf("%v: %q does not say what to give", in, msg)
		}
	}
	bridge.MustFail(t, map[string]any{"action": "viewport", "tabId": tab}, "invalid_argument")
}

// pdf writes a PDF file, mode 0600, and says how big it is and how many
// pages it has.
func TestPDF(t *testing.T) {
	ws := workspace(t)
	tab := bridge.OpenIn(t, ws, site+"/print")
	res := call(t, map[string]any{"action": "pdf", "tabId": tab, "landscape": true, "printBackground": true})
	path := str(res, "path")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte("%PDF-")) {
		t.Errorf("%s starts with %q, want %%PDF-", path, data[:min(len(data), 8)])
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("%s has mode %v, want 0600", path, fi.Mode().Perm())
	}
	if num(t, res, "bytes") != len(data) {
		t.Errorf("bytes %d, the file has %d", num(t, res, "bytes"), len(data))
	}
	if p := num(t, res, "pages"); p < 2 {
		t.Errorf("pages %d, want at least 2 for 120 lines", p)
	}
	if !strings.HasPrefix(path, bridge.Home) {
		t.Errorf("the PDF is at %s, outside the bridge's folder %s", path, bridge.Home)
	}
}

func pageText(t *testing.T, tab int) string {
	t.Helper()
	return str(call(t, map[string]any{"action": "extract", "tabId": tab, "include": []string{"text"}}), "text")
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

func statusTabs(t *testing.T) []map[string]any {
	t.Helper()
	return browsertest.StatusTabs(call(t, map[string]any{"action": "status"}))
}
