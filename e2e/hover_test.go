package e2e

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// text reads a string field ("" when missing).
func text(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}

// hoverPage serves testdata/hover.html: a menu that opens only on CSS
// :hover, and a card with a mouseover handler.
func hoverPage(t *testing.T) int {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, "testdata/hover.html")
	}))
	t.Cleanup(srv.Close)
	ws := "hover-" + t.Name()
	o := call(t, map[string]any{"action": "open", "url": srv.URL + "/hover.html", "browserWorkspaceId": ws})
	t.Cleanup(func() {
		bridge.Call(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws})
	})
	return num(t, o, "tabId")
}

// A hover is a trusted mouse move: a CSS :hover menu opens, and an item in
// it can then be clicked.
func TestHoverOpensACSSMenuThenClickAnItem(t *testing.T) {
	tab := hoverPage(t)
	// Closed, the item is not visible, so a click on it has nothing to hit.
	if r := bridge.Call(t, map[string]any{"action": "click", "tabId": tab, "text": "Laptops", "timeoutMs": 3000}); r.Err == nil {
		t.Fatalf("clicked an item of a closed menu: %s", r.Stdout)
	}
	res := call(t, map[string]any{"action": "hover", "tabId": tab, "role": "button", "name": "Products"})
	if num(t, res, "tabId") != tab || text(res, "title") != "Hover menu" {
		t.Errorf("hover result: %v", res)
	}
	el, _ := res["element"].(map[string]any)
	if el["tag"] != "button" || el["name"] != "Products" {
		t.Errorf("hover element: %v", res["element"])
	}
	under, _ := res["under"].(map[string]any)
	if under["tag"] != "button" || !strings.Contains(text(under, "text"), "Products") {
		t.Errorf("under the pointer: %v", res["under"])
	}
	// The menu is open now: its item is visible and takes a click.
	if !visibleInInspect(t, tab, "Laptops") {
		t.Fatal("the hover did not open the menu: inspect lists no visible Laptops link")
	}
	call(t, map[string]any{"action": "click", "tabId": tab, "text": "Laptops"})
	waitText(t, tab, "#out", "picked laptops trusted=true")
}

// mouseover handlers see a trusted event, and the result reports the
// element as the page left it.
func TestHoverFiresTrustedMouseover(t *testing.T) {
	tab := hoverPage(t)
	res := call(t, map[string]any{"action": "hover", "tabId": tab, "selector": "#card"})
	waitText(t, tab, "#out", "card mouseover trusted=true")
	under, _ := res["under"].(map[string]any)
	if !strings.Contains(text(under, "text"), "Card") {
		t.Errorf("under the pointer: %v", res["under"])
	}
	// A locator that matches nothing fails with its code, and hovering
	// needs a locator.
	if r := bridge.Call(t, map[string]any{"action": "hover", "tabId": tab, "text": "No such thing", "timeoutMs": 2000}); r.Err == nil || r.Err.Code != protocol.CodeElementNotFound {
		t.Errorf("hover of nothing: %s", r.Stdout)
	}
	if r := bridge.Call(t, map[string]any{"action": "hover", "tabId": tab}); r.Err == nil || r.Err.Code != protocol.CodeInvalidArgument || !strings.Contains(r.Err.Message, "hover needs a locator") {
		t.Errorf("hover without a locator: %s", r.Stdout)
	}
}

// visibleInInspect reports whether inspect lists a visible element of that
// name: inspect only reads, so it leaves the pointer where it is.
func visibleInInspect(t *testing.T, tab int, name string) bool {
	t.Helper()
	res := call(t, map[string]any{"action": "inspect", "tabId": tab})
	els, _ := res["elements"].([]any)
	for _, e := range els {
		m, _ := e.(map[string]any)
		if text(m, "name") == name && m["visible"] != false { // inspect says visible only when false
			return true
		}
	}
	return false
}
