package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// The widgets of these tests are real ones from npm (Monaco, CodeMirror
// 6), pinned in testdata/package.json and installed by .ci/run with
// `npm ci --prefix e2e/testdata` into testdata/node_modules.
const widgetsDir = "testdata/node_modules"

var (
	widgetsOnce sync.Once
	widgetsURL  string
	widgetsErr  error
)

// widgets serves testdata/ (the pages), testdata/node_modules/ (the
// widgets) and /suggest (an autocomplete's server) for the whole test
// binary. Pages get {{importmap}} (bare module names of node_modules, for
// CodeMirror's ES modules) and FRAME_URL (the same server on another
// origin) filled in.
func widgets(t *testing.T) string {
	t.Helper()
	widgetsOnce.Do(func() {
		if _, err := os.Stat(filepath.Join(widgetsDir, "monaco-editor", "package.json")); err != nil {
			widgetsErr = fmt.Errorf("the editor widgets are not installed (%v): run `npm ci --prefix e2e/testdata` (.ci/run does)", err)
			return
		}
		importMap, err := importMap(widgetsDir)
		if err != nil {
			widgetsErr = err
			return
		}
		var cross string
		srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch {
			case r.URL.Path == "/suggest":
				time.Sleep(60 * time.Millisecond)
				q := strings.ToLower(r.URL.Query().Get("q"))
				out := []string{}
				for _, c := range []string{"Albania", "Algeria", "Andorra", "Angola", "Argentina", "Armenia", "Australia", "Austria", "Norway", "Portugal"} {
					if strings.HasPrefix(strings.ToLower(c), q) {
						out = append(out, c)
					}
				}
				w.Header().Set("Content-Type", "application/json")
				json.NewEncoder(w).Encode(out)
				return
			case strings.HasPrefix(r.URL.Path, "/node_modules/"):
				http.ServeFile(w, r, filepath.Join("testdata", filepath.FromSlash(path.Clean(r.URL.Path))))
				return
			}
			name := path.Clean(strings.TrimPrefix(r.URL.Path, "/"))
			b, err := os.ReadFile(filepath.Join("testdata", filepath.FromSlash(name)))
			if err != nil || !strings.HasSuffix(name, ".html") {
				http.NotFound(w, r)
				return
			}
			page := strings.ReplaceAll(string(b), "{{importmap}}", importMap)
			page = strings.ReplaceAll(page, "FRAME_URL", cross+"/"+strings.TrimSuffix(name, ".html")+"-inner.html")
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, page)
		}))
		// cross is set before the server starts, so no request races it.
		// Never closed: the test binary's life.
		cross = strings.Replace("http://"+srv.Listener.Addr().String(), "127.0.0.1", "localhost", 1)
		srv.Start()
		widgetsURL = srv.URL
	})
	if widgetsErr != nil {
		t.Fatal(widgetsErr)
	}
	return widgetsURL
}

// importMap maps every package of node_modules to its ES module entry,
// as a bundler would resolve bare imports ("@codemirror/view").
func importMap(dir string) (string, error) {
	imports := map[string]string{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	var names []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "@") {
			sub, _ := os.ReadDir(filepath.Join(dir, e.Name()))
			for _, s := range sub {
				names = append(names, e.Name()+"/"+s.Name())
			}
		} else if !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, n, "package.json"))
		if err != nil {
			continue
		}
		var p struct {
			Module  string          `json:"module"`
			Main    string          `json:"main"`
			Exports json.RawMessage `json:"exports"`
		}
		if json.Unmarshal(b, &p) != nil {
			continue
		}
		entry := p.Module
		if entry == "" {
			entry = exportsEntry(p.Exports)
		}
		if entry == "" {
			entry = p.Main
		}
		if entry != "" {
			imports[n] = "/node_modules/" + n + "/" + strings.TrimPrefix(entry, "./")
		}
	}
	b, err := json.Marshal(map[string]any{"imports": imports})
	return string(b), err
}

// exportsEntry is the ES module entry of a package.json "exports": a
// string, or "." with "import" (a string or {default}) or "default".
func exportsEntry(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	if dot, ok := m["."]; ok {
		return exportsEntry(dot)
	}
	for _, k := range []string{"import", "default"} {
		if v, ok := m[k]; ok {
			return exportsEntry(v)
		}
	}
	return ""
}

// openWidget opens a page of the widgets server in a workspace of the
// test's own and waits until its title ends in "ready" when wantReady.
func openWidget(t *testing.T, page string, wantReady bool) int {
	t.Helper()
	ws := "typing-" + t.Name()
	o := call(t, map[string]any{"action": "open", "url": widgets(t) + "/" + page, "browserWorkspaceId": ws})
	t.Cleanup(func() {
		bridge.Call(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws})
	})
	tab := num(t, o, "tabId")
	if wantReady {
		deadline := time.Now().Add(20 * time.Second)
		for {
			st := call(t, map[string]any{"action": "wait", "tabId": tab, "load": true})
			if strings.HasSuffix(fmt.Sprint(st["title"]), "ready") {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s did not get ready: %v", page, st)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	return tab
}

// Every input a person fills through a picker or a slider takes its value
// in the control's own format, with the input and change events a picker
// fires; a value it would not take is refused with the format, and
// nothing changes.
func TestTypeSetsDateTimeColorAndRangeInputs(t *testing.T) {
	tab := openWidget(t, "inputs.html", false)
	for _, c := range []struct{ label, value, want string }{
		{"Date", "2026-05-17", "2026-05-17"},
		{"Time", "14:30", "14:30"},
		{"Month", "2026-05", "2026-05"},
		{"Week", "2026-W20", "2026-W20"},
		{"Meeting", "2026-05-17T14:30", "2026-05-17T14:30"},
		{"Colour", "#FF8800", "#ff8800"},
		{"Volume", "35", "35"},
	} {
		r := call(t, map[string]any{"action": "type", "tabId": tab, "label": c.label, "value": c.value})
		if r["value"] != c.want || r["inserted"] != "set" {
			t.Errorf("type %q into %s: %v", c.value, c.label, r)
		}
	}
	for id, want := range map[string]string{"date": "date:input:2026-05-17;date:change:2026-05-17;", "time": "time:input:14:30;time:change:14:30;",
		"month": "month:input:2026-05;month:change:2026-05;", "week": "week:input:2026-W20;week:change:2026-W20;",
		"dtl": "dtl:input:2026-05-17T14:30;dtl:change:2026-05-17T14:30;", "color": "color:input:#ff8800;color:change:#ff8800;",
		"range": "range:input:35;range:change:35;"} {
		if got := probeText(t, tab, 0, "#log-"+id); got != want {
			t.Errorf("the page saw %q, want %q", got, want)
		}
	}
	// The framework reading the value on input sees it.
	call(t, map[string]any{"action": "type", "tabId": tab, "label": "Controlled date", "value": "1999-12-31"})
	waitText(t, tab, "#controlled-out", "state=1999-12-31")

	// Wrong formats and values out of range are refused, naming the
	// format; the old value stays.
	for _, c := range []struct{ label, value, msg string }{
		{"Date", "17/05/2026", "YYYY-MM-DD"},
		{"Time", "2:30 PM", "HH:MM"},
		{"Colour", "orange", "#rrggbb"},
		{"Volume", "52", "from 0 to 50 in steps of 5"},
		{"Volume", "loud", "a number"},
	} {
		r := bridge.Call(t, map[string]any{"action": "type", "tabId": tab, "label": c.label, "value": c.value})
		if r.Err == nil || r.Err.Code != protocol.CodeInvalidArgument || !strings.Contains(r.Err.Message, c.msg) {
			t.Errorf("type %q into %s: %s (want invalid_argument naming %q)", c.value, c.label, r.Stdout, c.msg)
		}
	}
	if r := call(t, map[string]any{"action": "type", "tabId": tab, "label": "Date", "value": "2026-05-18"}); r["value"] != "2026-05-18" {
		t.Errorf("the date after a refused value: %v", r)
	}
	// A date before the field's min is set (a person can type it too),
	// and the field's complaint reported.
	r := call(t, map[string]any{"action": "type", "tabId": tab, "label": "Date", "value": "1990-01-01"})
	if r["value"] != "1990-01-01" || !strings.Contains(fmt.Sprint(r["warnings"]), "invalid") {
		t.Errorf("a date under min: %v", r)
	}
	// inputMode dom sets them the same way; a disabled one takes nothing.
	if r := call(t, map[string]any{"action": "type", "tabId": tab, "label": "Time", "value": "09:15", "inputMode": "dom"}); r["value"] != "09:15" {
		t.Errorf("dom mode: %v", r)
	}
	bad := bridge.Call(t, map[string]any{"action": "type", "tabId": tab, "label": "Disabled date", "value": "2026-01-01"})
	if bad.Err == nil || bad.Err.Code != protocol.CodeInvalidArgument {
		t.Errorf("a disabled date: %s", bad.Stdout)
	}
}

// The code this test types: a person's paste of it keeps it as it is.
const code = "function add(a, b) {\n  return a + b;\n}"

// Code editors are reached through their own input (an EditContext
// element, a hidden textarea, CodeMirror's contenteditable), whichever
// part of the editor the locator names; clear replaces the whole
// document; the text arrives verbatim (no auto-indent, no closed
// brackets); and the value read back is the editor's.
func TestTypeIntoCodeEditors(t *testing.T) {
	tab := openWidget(t, "editors/monaco.html", true)
	for _, c := range []struct {
		name string
		loc  map[string]any
	}{
		{"monaco", map[string]any{"selector": "#monaco"}},
		{"monaco-ta", map[string]any{"selector": "#monaco-ta"}},
	} {
		in := map[string]any{"action": "type", "tabId": tab, "value": code, "clear": true}
		for k, v := range c.loc {
			in[k] = v
		}
		r := call(t, in)
		if r["value"] != code || r["editor"] != "monaco" || r["inserted"] != "pasted" {
			t.Errorf("%s: %v", c.name, r)
		}
		if got := monacoValues(t, tab)[c.name]; got != code {
			t.Errorf("%s holds %q, want %q", c.name, got, code)
		}
	}
	// Typing more goes after what the editor holds.
	r := call(t, map[string]any{"action": "type", "tabId": tab, "selector": "#monaco", "value": "\n// end"})
	if got := monacoValues(t, tab)["monaco"]; got != code+"\n// end" || r["value"] != code+"\n// end" {
		t.Errorf("appending: the editor holds %q; result %v", got, r)
	}
	// Typed as keys (inputMode cdp), Monaco rewrites the text — and the
	// result says so instead of claiming success.
	r = call(t, map[string]any{"action": "type", "tabId": tab, "selector": "#monaco-ta", "value": code, "clear": true, "inputMode": "cdp"})
	if r["inserted"] != "typed" || r["value"] == code || !strings.Contains(fmt.Sprint(r["warnings"]), "other text than was typed") {
		t.Errorf("inputMode cdp into Monaco: %v", r)
	}
	// The EditContext element is a textbox inspect lists, with a ref
	// type takes.
	ins := call(t, map[string]any{"action": "inspect", "tabId": tab})
	var ref string
	for _, e := range ins["elements"].([]any) {
		m := e.(map[string]any)
		if m["name"] == "Editor content" && m["editable"] == true && m["visible"] != false {
			ref = m["ref"].(string)
			break
		}
	}
	if ref == "" {
		t.Fatalf("inspect does not list Monaco's input as a visible editable element: %v", ins["elements"])
	}
	if r := call(t, map[string]any{"action": "type", "tabId": tab, "ref": ref, "value": "x = 1;", "clear": true}); r["value"] != "x = 1;" {
		t.Errorf("type by inspect's ref: %v", r)
	}

	tab = openWidget(t, "editors/codemirror.html", true)
	r = call(t, map[string]any{"action": "type", "tabId": tab, "role": "textbox", "value": code, "clear": true})
	if r["value"] != code || r["editor"] != "codemirror" {
		t.Errorf("codemirror: %v", r)
	}
	if got := editorValues(t, tab)["cm"]; got != code {
		t.Errorf("codemirror holds %q, want %q", got, code)
	}
	// Pasting explicitly works the same; clearing with no value empties it.
	r = call(t, map[string]any{"action": "type", "tabId": tab, "selector": "#cm", "value": "", "clear": true})
	if r["value"] != "" {
		t.Errorf("clearing codemirror: %v", r)
	}
	r = call(t, map[string]any{"action": "type", "tabId": tab, "selector": "#cm", "value": "if (x) {\n\ty();\n}", "inputMode": "paste"})
	if got := editorValues(t, tab)["cm"]; got != "if (x) {\n\ty();\n}" {
		t.Errorf("paste into codemirror: it holds %q; result %v", got, r)
	}
}

// A long document is not all rendered: its value is "not readable",
// never an empty or partial string passed off as the value.
func TestEditorValueIsHonest(t *testing.T) {
	tab := openWidget(t, "editors/monaco.html", true)
	long := strings.Repeat("line;\n", 100)
	r := call(t, map[string]any{"action": "type", "tabId": tab, "selector": "#monaco", "value": long, "clear": true})
	if _, has := r["value"]; has || !strings.Contains(fmt.Sprint(r["valueUnreadable"]), "part of its text") {
		t.Errorf("a 100-line document: %v", r)
	}
	if got := monacoValues(t, tab)["monaco"]; got != long {
		t.Errorf("the editor holds %d chars, want %d", len(got), len(long))
	}
}

// monacoValues reads what the fixture shows of its editors' values.
func monacoValues(t *testing.T, tab int) map[string]string {
	t.Helper()
	return editorValues(t, tab)
}

// editorValues reads the editors' values the fixtures write into #out,
// escaped ("OUT:" and the URI-encoded JSON object), through extract.
func editorValues(t *testing.T, tab int) map[string]string {
	t.Helper()
	ext := call(t, map[string]any{"action": "extract", "tabId": tab, "include": []string{"text"}, "maxChars": 100000})
	text := fmt.Sprint(ext["text"])
	i := strings.LastIndex(text, "OUT:")
	if i < 0 {
		t.Fatalf("the page shows no OUT: %q", text)
	}
	enc := strings.Fields(text[i+4:])[0]
	raw, err := url.QueryUnescape(enc)
	if err != nil {
		t.Fatalf("OUT: %v", err)
	}
	var m map[string]string
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		t.Fatalf("OUT: %v in %q", err, raw)
	}
	return m
}

// Typing into a rich-text editor in a frame that already has the focus
// does not click it first: the click would move the caret and drop the
// bold that Control+B set for the next text.
func TestTypeKeepsTheFocusAndPendingFormatInAFrame(t *testing.T) {
	tab := openWidget(t, "richframe.html", false)
	frame := frameOf(t, tab, "Rich text area")
	call(t, map[string]any{"action": "type", "tabId": tab, "frameId": frame, "role": "textbox", "value": " Plain"})
	call(t, map[string]any{"action": "press", "tabId": tab, "keys": "Control+B"})
	r := call(t, map[string]any{"action": "type", "tabId": tab, "frameId": frame, "role": "textbox", "value": "Bold"})
	if !strings.HasSuffix(fmt.Sprint(r["value"]), "more words here. PlainBold") {
		t.Errorf("typed text: %v", r)
	}
	ext := call(t, map[string]any{"action": "extract", "tabId": tab, "include": []string{"markdown"}})
	if md := fmt.Sprint(ext["markdown"]); !strings.Contains(md, "Plain**Bold**") {
		t.Errorf("the second text is not bold (the typing clicked and dropped Control+B): %q", md)
	}
}

// frameOf is the frameId of the element named name (inspect's view).
func frameOf(t *testing.T, tab int, name string) int {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		ins := call(t, map[string]any{"action": "inspect", "tabId": tab})
		for _, e := range ins["elements"].([]any) {
			m := e.(map[string]any)
			if m["name"] == name {
				return num(t, m, "frameId")
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no element %q: %v", name, ins["elements"])
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Type returns once the page has reacted: an Enter sent right after
// typing into an autocomplete picks the suggestion the typing brought,
// and the result says how long it waited. A page that does not react is
// not waited for.
func TestTypeWaitsForThePageToReact(t *testing.T) {
	tab := openWidget(t, "autocomplete.html", false)
	r := call(t, map[string]any{"action": "type", "tabId": tab, "role": "combobox", "name": "Country", "value": "Aus"})
	ms, ok := r["settledMs"].(float64)
	if !ok || ms < 50 || ms > 1500 {
		t.Errorf("settledMs after typing into an autocomplete: %v", r)
	}
	call(t, map[string]any{"action": "press", "tabId": tab, "keys": "Enter"})
	waitText(t, tab, "#picked", "picked Australia")

	// A page that does not react (nothing watches the app's #name) is
	// not waited for beyond the short grace.
	app := openApp(t)
	r = call(t, map[string]any{"action": "type", "tabId": app, "selector": "#name", "value": "quiet"})
	if ms, _ := r["settledMs"].(float64); ms > 200 {
		t.Errorf("typing into a page that does not react waited %v ms", ms)
	}
}

// Modifier key events carry their location, as from a real keyboard.
func TestModifierKeysCarryTheirLocation(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>Keys</title><input id="k" aria-label="Keys"><p id="out"></p>
<script>document.getElementById("k").addEventListener("keydown", (e) => { document.getElementById("out").textContent += e.code + ":" + e.location + " "; });</script>`)
	}))
	t.Cleanup(srv.Close)
	ws := "keys-location"
	o := call(t, map[string]any{"action": "open", "url": srv.URL, "browserWorkspaceId": ws})
	t.Cleanup(func() {
		bridge.Call(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws})
	})
	tab := num(t, o, "tabId")
	call(t, map[string]any{"action": "press", "tabId": tab, "selector": "#k", "keys": "Shift+a ShiftRight Control+b"})
	waitText(t, tab, "#out", "ShiftLeft:1 KeyA:0 ShiftRight:2 ControlLeft:1 KeyB:0")
}

// extract reads an editor's lines as one code block (editors draw them
// in line boxes marked aria-hidden, beside a gutter of line numbers).
func TestExtractReadsAnEditorAsOneCodeBlock(t *testing.T) {
	for _, page := range []string{"editors/monaco.html", "editors/codemirror.html"} {
		tab := openWidget(t, page, true)
		call(t, map[string]any{"action": "type", "tabId": tab, "selector": "#monaco, #cm", "value": code, "clear": true})
		ext := call(t, map[string]any{"action": "extract", "tabId": tab, "include": []string{"markdown"}})
		md := fmt.Sprint(ext["markdown"])
		if !strings.Contains(md, "```\n"+code+"\n```") {
			t.Errorf("%s: the editor's code is not one code block:\n%s", page, md)
		}
	}
}
