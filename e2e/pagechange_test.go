package e2e

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// pageChangeHTML is a page whose buttons change two paragraphs, nothing,
// or lead to another page, and whose field updates a live preview.
const pageChangeHTML = `<!doctype html><title>Changes</title>
<h1>Changes</h1>
<p id="a">First paragraph.</p>
<p id="b">Second paragraph.</p>
<p id="c">Third paragraph stays.</p>
<button id="two" onclick="document.getElementById('a').textContent='First paragraph, now longer.'; document.getElementById('b').textContent='Second, shorter.'">Update two</button>
<button id="none" onclick="window.clicked = (window.clicked || 0) + 1">Do nothing</button>
<button id="hidden" onclick="document.getElementById('h').textContent = 'hidden text changed'">Change hidden</button>
<div id="h" style="display:none">hidden text</div>
<button id="spin" onclick="const s = document.getElementById('s'); s.append(document.createElement('i')); const t = setInterval(() => s.append(document.createElement('i')), 20); setTimeout(() => { clearInterval(t); s.textContent = 'Loaded.' }, 1500)">Load</button>
<div id="s"></div>
<a href="/other">Go elsewhere</a>
<label>Name <input id="name" oninput="document.getElementById('preview').textContent = 'Hello ' + this.value"></label>
<p id="preview">Hello</p>
<iframe id="inner" srcdoc="<p id=f>In the frame.</p><button id=fb onclick=&quot;document.getElementById('f').textContent='The frame changed.'&quot;>Frame button</button>"></iframe>`

func pageChangeTab(t *testing.T) int {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path == "/other" {
			w.Write([]byte(`<!doctype html><title>Other</title><p>Another page.</p>`))
			return
		}
		w.Write([]byte(pageChangeHTML))
	}))
	t.Cleanup(srv.Close)
	ws := "pagechange-" + t.Name()
	o := call(t, map[string]any{"action": "open", "url": srv.URL + "/", "browserWorkspaceId": ws})
	t.Cleanup(func() {
		bridge.Call(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws})
	})
	return num(t, o, "tabId")
}

// pageChange is a result's page field: how much the act changed the page.
func pageChange(t *testing.T, res map[string]any) map[string]any {
	t.Helper()
	pc, ok := res["page"].(map[string]any)
	if !ok {
		t.Fatalf("the result says nothing of the page: %v", res)
	}
	return pc
}

// A click that rewrites two paragraphs says two blocks changed and by how
// many characters; one that changes nothing says so; a change to what is
// not shown is no change; a page still changing is not unchanged.
func TestClickSaysHowMuchThePageChanged(t *testing.T) {
	tab := pageChangeTab(t)
	res := call(t, map[string]any{"action": "click", "tabId": tab, "selector": "#two"})
	pc := pageChange(t, res)
	// "First paragraph." (16) → "First paragraph, now longer." (28),
	// "Second paragraph." (17) → "Second, shorter." (16): +11.
	if pc["changedBlocks"] != 2.0 || pc["deltaChars"] != 11.0 || pc["stillChanging"] != nil {
		t.Errorf("click that changes two paragraphs: page %v", pc)
	}
	for _, sel := range []string{"#none", "#hidden"} {
		res = call(t, map[string]any{"action": "click", "tabId": tab, "selector": sel})
		if pc := pageChange(t, res); pc["changedBlocks"] != 0.0 || len(pc) != 1 {
			t.Errorf("click on %s, which changes nothing shown: page %v", sel, pc)
		}
	}
	// A page still changing (a spinner ticking) is not said unchanged.
	res = call(t, map[string]any{"action": "click", "tabId": tab, "selector": "#spin"})
	if pc := pageChange(t, res); pc["changedBlocks"] != 0.0 || pc["stillChanging"] != true {
		t.Errorf("click that starts a load: page %v, want still changing", pc)
	}
	waitText(t, tab, "#s", "Loaded.")
	// A navigation has its own line: no page field.
	res = call(t, map[string]any{"action": "click", "tabId": tab, "text": "Go elsewhere"})
	if res["navigated"] != true || res["page"] != nil {
		t.Errorf("click that navigates: %v", res)
	}
}

// Typing into a field that updates a live preview says the preview
// changed.
func TestTypeSaysTheLivePreviewChanged(t *testing.T) {
	tab := pageChangeTab(t)
	for i, value := range []string{"Ada", "Grace"} {
		res := call(t, map[string]any{"action": "type", "tabId": tab, "selector": "#name", "value": value, "clear": true})
		pc := pageChange(t, res)
		want := float64(len(" " + value)) // "Hello" → "Hello Ada"
		if i > 0 {
			want = float64(len(value) - len("Ada"))
		}
		if pc["changedBlocks"] != 1.0 || pc["deltaChars"] != want {
			t.Errorf("type %q: page %v, want 1 block changed, %+v chars", value, pc, want)
		}
	}
}

// A click on an element in a child frame says nothing of the page: the
// note is of the top document, which that click leaves as it was, so
// "unchanged" would be false.
func TestAClickInAFrameSaysNothingOfThePage(t *testing.T) {
	tab := pageChangeTab(t)
	res := call(t, map[string]any{"action": "click", "tabId": tab, "text": "Frame button"})
	if pc, ok := res["page"]; ok {
		t.Errorf("a click in a child frame says %v of the top page, want nothing", pc)
	}
}
