package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/browser-bridge/browser-bridge/internal/protocol"
)

// execSite serves the pages of the exec family's tests: a form (/form)
// and a page of 2,000 rows whose last one holds a phrase (/rows).
func execSite(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/form":
			fmt.Fprint(w, `<!doctype html><title>Form</title><script>window.answer = 42;</script>
<label>Email <input id="email"></label>
<label>Notes <textarea id="notes"></textarea></label>
<label>Country <select id="country"><option value="">-</option><option value="no">Norway</option><option value="fr">France</option></select></label>
<label><input type="checkbox" id="terms"> I agree</label>`)
		case "/csp":
			w.Header().Set("Content-Security-Policy", "script-src 'self'")
			fmt.Fprint(w, `<!doctype html><title>Strict</title><p>no eval here</p>`)
		case "/deep":
			fmt.Fprint(w, `<!doctype html><title>Deep</title><div id="host"></div>
<script>document.getElementById("host").attachShadow({mode: "closed"}).innerHTML = "<p>words in a shadow root</p>";</script>
<iframe src="/inner" style="width:400px;height:100px"></iframe>`)
		case "/inner":
			fmt.Fprint(w, `<!doctype html><button onclick="parent.document.title = 'inner clicked'">words in a frame</button>`)
		case "/rows":
			var b strings.Builder
			b.WriteString(`<!doctype html><title>Rows</title><table>`)
			for i := range 2000 {
				fmt.Fprintf(&b, "<tr><td>row %d</td><td>nothing here</td></tr>", i)
			}
			b.WriteString(`<tr><td><button id="last" onclick="document.title='clicked'">the needle phrase at the end</button></td></tr></table>`)
			fmt.Fprint(w, b.String())
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// execTab opens path of execSite in a workspace of the test's own, closed
// when the test ends.
func execTab(t *testing.T, path string) int {
	srv := execSite(t)
	ws := "exec-" + t.Name()
	t.Cleanup(func() {
		bridge.Call(t, map[string]any{"action": "close", "closeWorkspace": true, "browserWorkspaceId": ws})
	})
	return num(t, call(t, map[string]any{"action": "open", "url": srv.URL + path, "browserWorkspaceId": ws}), "tabId")
}

// evaluate is refused until the user turns it on, works then (a plain
// value, a promise resolving to an object; a syntax error, a rejection
// and a page that forbids eval as evaluation_failed; a long value cut),
// and is refused again once turned off.
func TestEvaluateIsTheUsersChoice(t *testing.T) {
	t.Cleanup(func() { bridge.Run(t, "policy", "evaluate", "off") })
	tab := execTab(t, "/form")
	eval := func(expr string) (map[string]any, *protocol.Error) {
		r := bridge.Call(t, map[string]any{"action": "evaluate", "tabId": tab, "expression": expr})
		if r.Err != nil {
			return nil, r.Err
		}
		var m map[string]any
		if err := json.Unmarshal(r.Stdout, &m); err != nil {
			t.Fatalf("evaluate: %v: %s", err, r.Stdout)
		}
		return m, nil
	}
	if _, err := eval("window.answer"); err == nil || err.Code != protocol.CodeEvaluateDisabled || !strings.Contains(err.Message, "browser-bridge policy evaluate on") {
		t.Fatalf("evaluate by default: %v, want evaluate_disabled naming policy evaluate on", err)
	}
	if st := call(t, map[string]any{"action": "status"}); st["evaluate"] != false {
		t.Errorf("status evaluate = %v, want false", st["evaluate"])
	}
	if r := bridge.Run(t, "policy", "evaluate", "on"); r.Err != nil {
		t.Fatalf("policy evaluate on: %s", r.Stdout)
	}
	if st := call(t, map[string]any{"action": "status"}); st["evaluate"] != true {
		t.Errorf("status evaluate after on = %v, want true", st["evaluate"])
	}
	m, err := eval("window.answer + 1")
	if err != nil || m["type"] != "number" || fmt.Sprint(m["value"]) != "43" {
		t.Fatalf("a plain value: %v %v", m, err)
	}
	m, err = eval(`new Promise((ok) => setTimeout(() => ok({title: document.title, list: [1, 2], el: document.querySelector("#email")}), 50))`)
	if err != nil {
		t.Fatalf("a promise: %v", err)
	}
	v, _ := m["value"].(map[string]any)
	if m["type"] != "object" || v["title"] != "Form" || fmt.Sprint(v["list"]) != "[1 2]" || v["el"] != "<input#email>" {
		t.Errorf("a promise resolving to an object: %v", m)
	}
	if _, err := eval("1 +* 2"); err == nil || err.Code != protocol.CodeEvaluationFailed || !strings.Contains(err.Message, "SyntaxError") {
		t.Errorf("a syntax error: %v, want evaluation_failed with SyntaxError", err)
	}
	if _, err := eval(`Promise.reject(new Error("nope"))`); err == nil || err.Code != protocol.CodeEvaluationFailed || !strings.Contains(err.Message, "nope") {
		t.Errorf("a rejection: %v, want evaluation_failed naming it", err)
	}
	r := bridge.Call(t, map[string]any{"action": "evaluate", "tabId": tab, "expression": `"x".repeat(5000)`, "maxChars": 500})
	if r.Err != nil || r.JSON["value"] != nil || len(fmt.Sprint(r.JSON["valueCut"])) != 500 || num(t, r.JSON, "totalChars") != 5002 {
		t.Errorf("a value over maxChars comes back cut, as text: %.300s %v", r.Stdout, r.Err)
	}
	// frameId: the expression runs in that frame's own context.
	deep := execTab(t, "/deep")
	f := bridge.MustCall(t, map[string]any{"action": "find", "tabId": deep, "query": "words in a frame"})
	frame := num(t, f["matches"].([]any)[0].(map[string]any), "frameId")
	if r := bridge.MustCall(t, map[string]any{"action": "evaluate", "tabId": deep, "frameId": frame, "expression": `document.querySelector("button").textContent`}); r["value"] != "words in a frame" || num(t, r, "frameId") != frame {
		t.Errorf("evaluate in frame %d: %v", frame, r)
	}
	// A page whose Content Security Policy forbids eval refuses it, and
	// says so.
	strict := execTab(t, "/csp")
	if r := bridge.Call(t, map[string]any{"action": "evaluate", "tabId": strict, "expression": "1 + 1"}); r.Err == nil || r.Err.Code != protocol.CodeEvaluationFailed || !strings.Contains(r.Err.Message, "EvalError") {
		t.Errorf("evaluate on a page that forbids eval: %s %v", r.Stdout, r.Err)
	}
	if r := bridge.Run(t, "log", "--json"); !strings.Contains(string(r.Stdout), "window.answer + 1") {
		t.Errorf("the audit trail does not record the expression")
	}
	if r := bridge.Run(t, "policy", "evaluate", "off"); r.Err != nil {
		t.Fatalf("policy evaluate off: %s", r.Stdout)
	}
	if _, err := eval("window.answer"); err == nil || err.Code != protocol.CodeEvaluateDisabled {
		t.Errorf("evaluate after off: %v, want evaluate_disabled", err)
	}
}

// fill sets four kinds of field in one call; a bad third field stops the
// call, is named by index and locator, and the fields before it stay set.
func TestFillSetsFieldsInOrder(t *testing.T) {
	tab := execTab(t, "/form")
	res := call(t, map[string]any{"action": "fill", "tabId": tab, "fields": []any{
		map[string]any{"label": "Email", "value": "ada@example.com"},
		map[string]any{"selector": "#notes", "value": "two\nlines"},
		map[string]any{"selector": "#country", "option": "France"},
		map[string]any{"label": "I agree", "checked": true},
	}})
	fields, _ := res["fields"].([]any)
	if len(fields) != 4 {
		t.Fatalf("fill of four fields: %v", res)
	}
	for i, want := range []string{"typed", "typed", "selected", "checked"} {
		if f := fields[i].(map[string]any); f["set"] != want || num(t, f, "index") != i {
			t.Errorf("field %d: %v, want set %s", i, f, want)
		}
	}
	if r := bridge.Run(t, "log", "--json"); !strings.Contains(string(r.Stdout), `"fill"`) || strings.Contains(string(r.Stdout), "ada@example.com") {
		t.Errorf("the audit trail records fill's typed values, or no fill at all")
	}
	bridge.Run(t, "policy", "evaluate", "on")
	t.Cleanup(func() { bridge.Run(t, "policy", "evaluate", "off") })
	v := call(t, map[string]any{"action": "evaluate", "tabId": tab, "expression": `[email.value, notes.value, country.value, terms.checked].join("|")`})
	if v["value"] != "ada@example.com|two\nlines|fr|true" {
		t.Errorf("the page's fields after fill: %v", v["value"])
	}

	r := bridge.Call(t, map[string]any{"action": "fill", "tabId": tab, "timeoutMs": 5000, "fields": []any{
		map[string]any{"label": "Email", "value": "grace@example.com"},
		map[string]any{"selector": "#country", "option": "Norway"},
		map[string]any{"selector": "#nowhere", "value": "x"},
		map[string]any{"label": "I agree", "checked": false},
	}})
	if r.Err == nil || r.Err.Code != protocol.CodeElementNotFound || !strings.Contains(r.Err.Message, `field 2 (selector "#nowhere")`) ||
		!strings.Contains(r.Err.Message, "fields 0, 1 were set") {
		t.Fatalf("fill with a bad third field: %s %v", r.Stdout, r.Err)
	}
	v = call(t, map[string]any{"action": "evaluate", "tabId": tab, "expression": `[email.value, country.value, terms.checked].join("|")`})
	if v["value"] != "grace@example.com|no|true" {
		t.Errorf("after the failed fill, the fields before it stay set and the one after is untouched: %v", v["value"])
	}
	for _, bad := range []map[string]any{
		{"action": "fill", "tabId": tab, "fields": []any{}},
		{"action": "fill", "tabId": tab, "fields": []any{map[string]any{"label": "Email"}}},
	} {
		if r := bridge.Call(t, bad); r.Err == nil || r.Err.Code != protocol.CodeInvalidArgument {
			t.Errorf("%v: %s %v, want invalid_argument", bad["fields"], r.Stdout, r.Err)
		}
	}
}

// find finds a phrase at the end of a page of 2,000 rows, with its
// context and a ref that click accepts; the result stays small. Text in a
// closed shadow root and in a frame is found too, and a frame's ref
// names its frame.
func TestFindAtTheEndOfALongPage(t *testing.T) {
	tab := execTab(t, "/rows")
	r := bridge.Call(t, map[string]any{"action": "find", "tabId": tab, "query": "needle  PHRASE"})
	if r.Err != nil {
		t.Fatalf("find: %v", r.Err)
	}
	if len(r.Stdout) > 4000 {
		t.Errorf("find's result is %d bytes; want a few KB at most", len(r.Stdout))
	}
	var res struct {
		Count   int `json:"count"`
		Matches []struct {
			Text, Context, Ref string
		} `json:"matches"`
	}
	json.Unmarshal(r.Stdout, &res)
	if res.Count != 1 || len(res.Matches) != 1 || res.Matches[0].Text != "needle phrase" || !strings.Contains(res.Matches[0].Context, "the needle phrase at the end") {
		t.Fatalf("find of the last row: %s", r.Stdout)
	}
	call(t, map[string]any{"action": "click", "tabId": tab, "ref": res.Matches[0].Ref})
	if st := call(t, map[string]any{"action": "extract", "tabId": tab, "include": []string{"text"}}); st["title"] != "clicked" {
		t.Errorf("the click on find's ref: title %v, want clicked", st["title"])
	}
	deep := execTab(t, "/deep")
	for _, q := range []string{"words in a shadow root", "words in a frame"} {
		r := bridge.Call(t, map[string]any{"action": "find", "tabId": deep, "query": q})
		if r.Err != nil || num(t, r.JSON, "count") != 1 {
			t.Fatalf("find %q: %s %v", q, r.Stdout, r.Err)
		}
		if q == "words in a frame" {
			m := r.JSON["matches"].([]any)[0].(map[string]any)
			if num(t, m, "frameId") == 0 || !strings.HasPrefix(m["ref"].(string), "f") {
				t.Errorf("a match in a frame names its frame: %v", m)
			}
			call(t, map[string]any{"action": "click", "tabId": deep, "ref": m["ref"]})
			if st := call(t, map[string]any{"action": "extract", "tabId": deep, "include": []string{"text"}}); st["title"] != "inner clicked" {
				t.Errorf("the click on the frame's match: title %v", st["title"])
			}
		}
	}
	if r := bridge.Call(t, map[string]any{"action": "find", "tabId": tab, "query": "row 1"}); r.Err != nil || !strings.Contains(string(r.Stdout), `"count":1111`) && !strings.Contains(string(r.Stdout), `"count": 1111`) {
		t.Errorf("find of a common phrase counts every match (1111: row 1, 10–19, 100–199, 1000–1999): %.300s", r.Stdout)
	}
}
