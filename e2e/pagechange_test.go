package e2e

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// pageChangeHTML is a page whose buttons change two paragraphs, nothing,
// or lead to another page, whose two fields update a live preview, and
// whose other fields change nothing shown.
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
<label>Name <input id="name" oninput="showPreview()"></label>
<label>Surname <input id="last" oninput="showPreview()"></label>
<p id="preview">Hello</p>
<script>function showPreview() { document.getElementById('preview').textContent = ['Hello', document.getElementById('name').value, document.getElementById('last').value].filter(Boolean).join(' ') }</script>
<label>Notes <input id="notes"></label>
<select id="size"><option>Small</option><option>Large</option></select>
<label><input type="checkbox" id="agree"> Agree</label>
<iframe id="inner" srcdoc="<p id=f>In the frame.</p><button id=fb onclick=&quot;document.getElementById('f').textContent='The frame changed.'&quot;>Frame button</button><input id=fi oninput=&quot;document.getElementById('f').textContent=this.value&quot;>"></iframe>`

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

// A fill says how its fields together changed the page, since before
// the first was set: two fields that update one live preview changed one
// block (not one a field); fields that change nothing shown leave the
// page unchanged; a fill with a field in a child frame says nothing.
func TestFillSaysHowItsFieldsChangedThePage(t *testing.T) {
	tab := pageChangeTab(t)
	res := call(t, map[string]any{"action": "fill", "tabId": tab, "fields": []any{
		map[string]any{"selector": "#name", "value": "Ada"},
		map[string]any{"selector": "#last", "value": "Lovelace"},
	}})
	// "Hello" → "Hello Ada Lovelace": one block, +13 chars.
	if pc := pageChange(t, res); pc["changedBlocks"] != 1.0 || pc["deltaChars"] != 13.0 || pc["stillChanging"] != nil {
		t.Errorf("fill of two fields that update one preview: page %v, want 1 block changed, +13 chars", pc)
	}
	res = call(t, map[string]any{"action": "fill", "tabId": tab, "fields": []any{
		map[string]any{"selector": "#notes", "value": "nothing shown"},
		map[string]any{"selector": "#size", "option": "Large"},
		map[string]any{"selector": "#agree", "checked": true},
	}})
	if pc := pageChange(t, res); pc["changedBlocks"] != 0.0 || len(pc) != 1 {
		t.Errorf("fill of fields that change nothing shown: page %v, want unchanged", pc)
	}
	// The frame's text changes, which the note of the top document does
	// not see: "unchanged" would be false.
	res = call(t, map[string]any{"action": "fill", "tabId": tab, "fields": []any{
		map[string]any{"selector": "#fi", "value": "The frame's new text"},
		map[string]any{"selector": "#notes", "value": "again"},
	}})
	if pc, ok := res["page"]; ok {
		t.Errorf("fill with a field in a child frame says %v of the page, want nothing", pc)
	}
}
