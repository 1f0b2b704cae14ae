package e2e

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/browsertest"
)

// Pages for type in one round trip (internal/actions typeInOneTrip):
// plain fields, a field whose page has a frame with a field of the same
// name, and a page that changes its URL by itself after it loaded.
var oneTripPages = map[string]string{
	"/fields": `<!doctype html><title>Fields</title>
<label>Name <input id="name"></label> <label>City <input id="city"></label> <p id="log">-</p>
<script>let n = 0; document.getElementById("name").addEventListener("input", (e) => {
  document.getElementById("log").textContent = e.isTrusted + " " + e.inputType + " " + (++n); });</script>`,
	"/framed": `<!doctype html><title>Framed</title><label>Name <input id="name"></label>
<iframe srcdoc="<label>Name <input id=inner></label>"></iframe>`,
	"/moving": `<!doctype html><title>Moving</title><label>Name <input id="name"></label>
<script>setTimeout(() => history.pushState({}, "", "/moved"), 1000);</script>`,
}

func oneTripSite(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(browsertest.Pages(oneTripPages))
	t.Cleanup(srv.Close)
	return srv.URL
}

// openOneTrip opens path of a oneTripSite in a workspace of the test's
// own and returns open's result.
func openOneTrip(t *testing.T, site, path string) map[string]any {
	t.Helper()
	ws := "onetrip-" + t.Name()
	t.Cleanup(func() {
		bridge.Call(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws})
	})
	return call(t, map[string]any{"action": "open", "url": site + path, "browserWorkspaceId": ws})
}

// Typing into a plain field of a page the bridge just opened takes the
// one-trip way: the text goes in as a keyboard's (trusted, insertText,
// one input event), clear replaces what was there, and a tab that is
// not the active one of its window is made active first.
func TestTypeInOneTripTypesLikeTheUsualWay(t *testing.T) {
	site := oneTripSite(t)
	o := openOneTrip(t, site, "/fields")
	tab := num(t, o, "tabId")
	r := call(t, map[string]any{"action": "type", "tabId": tab, "label": "Name", "value": "Ada"})
	if r["value"] != "Ada" || r["inserted"] != "typed" {
		t.Fatalf("type = %v; want value Ada, typed", r)
	}
	waitText(t, tab, "#log", "true insertText 1")
	r = call(t, map[string]any{"action": "type", "tabId": tab, "label": "Name", "value": "Bob", "clear": true})
	if r["value"] != "Bob" {
		t.Errorf("type with clear = %v; want value Bob", r)
	}

	// A second tab in the workspace leaves the first in the background.
	call(t, map[string]any{"action": "open", "url": site + "/fields?second", "browserWorkspaceId": o["workspace"]})
	if st := statusTab(t, call(t, map[string]any{"action": "status"}), tab); st == nil || st["active"] != false {
		t.Fatalf("status of the first tab %v; want it in the background", st)
	}
	r = call(t, map[string]any{"action": "type", "tabId": tab, "label": "City", "value": "Oslo"})
	if r["value"] != "Oslo" {
		t.Errorf("type into the background tab = %v; want value Oslo", r)
	}
	if st := statusTab(t, call(t, map[string]any{"action": "status"}), tab); st == nil || st["active"] != true {
		t.Errorf("status of the tab typed into %v; want it made active", st)
	}
}

// A locator that also matches a field in a child frame is not typed on
// the one-trip way, which sees only the top frame: the result counts
// both matches, as the usual way does.
func TestTypeInOneTripLeavesFramedPagesToTheUsualWay(t *testing.T) {
	tab := num(t, openOneTrip(t, oneTripSite(t), "/framed"), "tabId")
	r := call(t, map[string]any{"action": "type", "tabId": tab, "label": "Name", "value": "Ada"})
	if r["value"] != "Ada" || !strings.Contains(fmt.Sprint(r["warnings"]), "2 elements") {
		t.Errorf("type = %v; want value Ada and a warning that 2 elements matched", r)
	}
}

// A page that changed its URL since the bridge last saw it is judged
// again as it is, and typed into.
func TestTypeInOneTripJudgesAMovedPageAgain(t *testing.T) {
	o := openOneTrip(t, oneTripSite(t), "/moving")
	if strings.HasSuffix(fmt.Sprint(o["url"]), "/moved") {
		t.Fatalf("open = %v; the page moved before open returned, so the test tests nothing", o)
	}
	time.Sleep(1500 * time.Millisecond) // the page moves itself, a second after its load
	r := call(t, map[string]any{"action": "type", "tabId": num(t, o, "tabId"), "label": "Name", "value": "Ada"})
	if r["value"] != "Ada" || !strings.HasSuffix(fmt.Sprint(r["url"]), "/moved") {
		t.Errorf("type = %v; want value Ada on the moved page", r)
	}
}
